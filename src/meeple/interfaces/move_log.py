"""How a move reads in a log (``meeple play``'s and ``meeple replay``'s), in a game's words.

A game may shape it in its ``render`` module: ``log_move(before, player, text)`` returns the
text to show for a move (None: as written; The Triangle Clock shows the symbol a pick
revealed, not the hand letter; Erosion adds the single-choice steps the engine then took),
and ``log_chapter(before, after)`` a heading when a new part of the game starts (Erd's games
and rounds, a new round, turn or era).
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import Any

from rich.text import Text

from meeple.core.game import Game, Player, State


@cache
def _render_module(game_class: type[Game]) -> ModuleType | None:
    package = game_class.__module__.rsplit(".", 1)[0]
    try:
        return importlib.import_module(f"{package}.render")
    except ImportError:
        return None


def _hook(state: State[Any], name: str) -> Any:
    return getattr(_render_module(type(state.game)), name, None)


def move_words(before: State[Any], player: Player, text: str) -> Text:
    """The move ``text`` that ``player`` made in ``before``, as a log shows it."""
    hook = _hook(before, "log_move")
    shown = hook(before, player, text) if hook is not None else None
    if shown is None:
        return Text(text, style="bold")
    return shown if isinstance(shown, Text) else Text(str(shown))


def chapter(before: State[Any] | None, after: State[Any]) -> str | None:
    """The heading that ``after`` opens (a new game, round, turn or era), if any."""
    hook = _hook(after, "log_chapter")
    result: str | None = hook(before, after) if hook is not None else None
    return result
