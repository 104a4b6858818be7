"""meeple: rules engines, AI opponents and a design lab for five tabletop games.

>>> import meeple
>>> game = meeple.make("edges", board="3x3")
>>> state = game.new_game(seed=7)
>>> state = state.apply(state.to_act[0], game.parse_action("L h0,0"))
"""

from meeple import (
    games,  # registers the built-in games; meeple.games() lists them
    solvers,  # noqa: F401  (registers the solvers' agents, e.g. edges perfect)
)
from meeple.core import (
    GameRecord,
    IllegalAction,
    MeepleError,
    NotationError,
    OptionError,
    Playthrough,
    RecordError,
    UnknownGame,
    make,
)
from meeple.core.about import meeple_version


def __getattr__(name: str) -> str:
    # The version is read from the installed package's metadata when asked for, not at every
    # import of meeple: a server starts hundreds of processes in its life.
    if name == "__version__":
        return meeple_version()
    raise AttributeError(f"module 'meeple' has no attribute {name!r}")


__all__ = [
    "GameRecord",
    "IllegalAction",
    "MeepleError",
    "NotationError",
    "OptionError",
    "Playthrough",
    "RecordError",
    "UnknownGame",
    "__version__",
    "games",
    "make",
]
