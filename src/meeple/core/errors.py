"""Errors that meeple raises for things a person or a client got wrong.

Every message is written for a person: it says what was wrong and what is allowed.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any


class MeepleError(Exception):
    """Base class of every error meeple raises on purpose."""


class IllegalAction(MeepleError):
    """An action that the rules do not allow in this state; the state is left untouched."""


class NotationError(MeepleError):
    """Text that does not parse as an action of the game; the message shows the notation."""


class OptionError(MeepleError):
    """An unknown game option or a bad value; the message names the option and what is allowed."""


class FileOptionRefused(OptionError):
    """An option naming a file (a ranking table, a content folder) that came from someone
    else: a record, a client's request. meeple reads only files its own user names."""


class UnknownGame(MeepleError):
    """A game name that is not registered; the message lists the registered games."""


class GamePackageError(MeepleError):
    """A game package that does not load or is incomplete: it fails to import, registers a
    name another game already has, or lacks a file every game ships (``rules.md``,
    ``player_rules.md``); the message names the package and why."""


class AgentPackageError(GamePackageError):
    """An installed package of agents (a ``meeple.agents`` entry point) that does not load
    or registers no agent; the message names the package and why. A kind of
    GamePackageError: like a broken game package, it is the installation's fault, not the
    user's request's."""


class RecordError(MeepleError):
    """A saved game record that cannot be read or does not replay."""


class AgentSpecError(MeepleError):
    """An agent spec that names no agent or gives a bad parameter (a budget out of range)."""


class PositionError(MeepleError):
    """A position text (``game.from_position``) that cannot be read or is not a possible
    state; the message names the first problem."""


def did_you_mean(word: str, names: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` where ``word`` is a typo of one of ``names`` or the start of
    exactly one of them (``edge``, ``triangle``); else nothing, to add to a refusal."""
    names = sorted(names)
    close = [name for name in names if word and name.startswith(word)]
    close = close or difflib.get_close_matches(word, names, n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if len(close) == 1 else ""


def problem_words(error: Mapping[str, Any]) -> str:
    """One of pydantic's errors (``ValidationError.errors()``) in a person's words: a field
    left out is "missing" (pydantic's "Field required" read as code to a newcomer, beside a
    card file's "not None"); a validator's own words without pydantic's "Value error, "."""
    if error.get("type") == "missing":
        return "missing"
    return str(error.get("msg", "")).removeprefix("Value error, ")
