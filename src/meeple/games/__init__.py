"""The built-in games; importing this package registers each of them.

The package is also callable: ``meeple.games()`` lists the registered games. The public API
has both a ``games/`` package and a ``meeple.games()`` function; a callable module gives both
without rebinding the name, so ``import meeple.games.edges as edges`` keeps working.
"""

import sys
import types

from meeple.core.registry import GameInfo
from meeple.core.registry import games as _registered_games
from meeple.games import edges, erd, erosion, squad_combat, triangle_clock

__all__ = ["edges", "erd", "erosion", "squad_combat", "triangle_clock"]


class _CallablePackage(types.ModuleType):
    def __call__(self) -> list[GameInfo]:
        """The registered games with their options, sorted by name."""
        return _registered_games()


sys.modules[__name__].__class__ = _CallablePackage
