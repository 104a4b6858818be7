"""How a move reads in a log (``meeple play``'s and ``meeple replay``'s), in a game's words.

A move reads as its notation, then what it did in the game's words (``Game.log_words``, the
words the browser's log shows beside the same notation, joined to it as
:func:`after_notation` says), then under it, a line each, what the game then did by itself
(``Game.log_after``, which the browser's log shows too: Squad Combat's dice and results). A
game's ``render`` module may add what is the terminal's own: ``log_move(before, player,
text)`` returns the notation as the terminal shows it (None: as written; The Triangle Clock
shows the symbol a pick revealed, not the hand letter), ``log_steps(before, player, text)``
what follows the words (None: nothing; a text goes on the move's line, as Erosion's
single-choice steps the engine then took, in notation; a list of lines goes below it, as
Erd's combat after the second allocation of a round and a Triangle Clock round's result
after its last choice, which the page draws on its board), and ``log_chapter(before,
after)`` a heading when a new part of the game starts (Erd's games and rounds, a new round,
turn or era), which :func:`heading` draws as a line.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from functools import cache
from types import ModuleType
from typing import Any

from rich.text import Text

from meeple.core.game import Game, Player, State, seats_text

HIDDEN_CHOICE = "has chosen (hidden until all have)"
"""Another seat's choice in a simultaneous decision the rules have not yet revealed."""

ALL_REVEALED = "every choice revealed:"
"""What the move that completes a simultaneous decision tells, above :func:`revealed`."""

REVEALED_BESIDES = "Every choice is in; revealed with them:"
"""With a person seated (whose board shows the revealed choices), what the terminal says
above the moves of the decision that submitted nothing (a Triangle Clock mulligan)."""


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
    """The move ``text`` that ``player`` made in ``before``, as a log shows it: its
    notation, then the game's words for it."""
    hook = _hook(before, "log_move")
    shown = hook(before, player, text) if hook is not None else None
    if shown is None:
        line = Text(text, style="bold")
    else:
        line = shown if isinstance(shown, Text) else Text(str(shown))
    game = before.game
    action = game.parse_action(text)
    line.append(after_notation(text, game.log_words(before, player, action)))
    steps = _hook(before, "log_steps")
    more = steps(before, player, text) if steps is not None else None
    # Below the move, a line each: what the game then did by itself (the browser's log
    # shows the same lines), then what the terminal's own hook tells.
    below: list[Text | str] = list(game.log_after(before, player, action))
    if isinstance(more, list):
        below += more
    elif more:
        line.append_text(more if isinstance(more, Text) else Text(str(more)))
    for said in below:
        line.append("\n    ")
        line.append_text(said if isinstance(said, Text) else Text(said, style="dim"))
    return line


def revealed(choices: Iterable[tuple[State[Any], Player, str]], margin: str = "") -> list[Text]:
    """The choices of a simultaneous decision, each ``(before, seat, move)``, the last the
    one that completed it: a line each, the seat and its move in the log's words, as the
    rules reveal them then, the last with what followed (a combat, a round's result).
    ``margin`` goes before every line, those under a move too."""
    lines = []
    for before, seat, text in choices:
        line = Text(f"{margin}  {seats_text(before.game, [seat])}: ")
        said = line.append_text(move_words(before, seat, text))
        lines.append(Text("\n" + margin).join(said.split("\n")) if margin else said)
    return lines


def echoes(text: str, words: str) -> bool:
    """True where the words only say the notation again (``pass``: ``passed``), so that a
    log does not print the same move twice."""
    return words in (text, f"{text}ed", f"{text}d")


def after_notation(text: str, words: str | None) -> str:
    """What a log writes after the notation ``text`` of the game's ``words`` for the move:
    nothing where they only say it again (:func:`echoes`); the rest where they begin with it,
    so that the line reads on ("memorised" then " the order of shared symbols for rounds 1
    to 16"); else the words after a dash. The browser's log joins them the same way."""
    if not words or echoes(text, words):
        return ""
    if words.startswith(f"{text} "):
        return words[len(text) :]
    return f" — {words}"


def chapter(before: State[Any] | None, after: State[Any]) -> str | None:
    """The heading that ``after`` opens (a new game, round, turn or era), if any."""
    hook = _hook(after, "log_chapter")
    result: str | None = hook(before, after) if hook is not None else None
    return result


def heading(before: State[Any] | None, after: State[Any]) -> Text | None:
    """The :func:`chapter` that ``after`` opens as a log's line between the moves, if any."""
    title = chapter(before, after)
    return None if title is None else Text(f"── {title} ──", style="bold cyan")
