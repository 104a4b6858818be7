"""Squad Combat actions: one small frozen value per decision, with its notation."""

from __future__ import annotations

import re
from dataclasses import dataclass

from meeple.games.squad_combat.pieces import SLOTS


# -- actions --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Play:
    """Announce a card from hand, performed by your character in that slot: ``play slash by a``."""

    card: str
    slot: int

    def __str__(self) -> str:
        return f"play {self.card} by {SLOTS[self.slot]}"


@dataclass(frozen=True, slots=True)
class Refresh:
    """Refresh the dice pool of your character in that slot (an action): ``refresh b``."""

    slot: int

    def __str__(self) -> str:
        return f"refresh {SLOTS[self.slot]}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass: no more actions this turn (edges are still allowed): ``pass``."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class PayDie:
    """Pay the highest die cost still due with a die of this value: ``pay 4``."""

    value: int

    def __str__(self) -> str:
        return f"pay {self.value}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card from hand, to pay a ``C`` cost or at the end of a turn: ``discard parry``."""

    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Target:
    """Choose the character a card acts on, by seat and slot: ``target 1b``."""

    seat: int
    slot: int

    def __str__(self) -> str:
        return f"target {self.seat}{SLOTS[self.slot]}"


@dataclass(frozen=True, slots=True)
class Die:
    """Choose a die of this value: the attack or defense die, or the die a boost raises."""

    value: int

    def __str__(self) -> str:
        return f"die {self.value}"


@dataclass(frozen=True, slots=True)
class NoDie:
    """Decline to spend an attack or defense die (it counts as a 0): ``no die``."""

    def __str__(self) -> str:
        return "no die"


@dataclass(frozen=True, slots=True)
class Drop:
    """After a refresh, remove a die of this value from the character: ``drop 2``."""

    value: int

    def __str__(self) -> str:
        return f"drop {self.value}"


@dataclass(frozen=True, slots=True)
class Done:
    """Close a reaction window, or stop discarding at the end of the turn: ``done``."""

    def __str__(self) -> str:
        return "done"


SquadAction = Play | Refresh | Pass | PayDie | Discard | Target | Die | NoDie | Drop | Done
PASS, DONE, NO_DIE = Pass(), Done(), NoDie()

_VALUE_RE = re.compile(r"^\s*(pay|die|drop)\s+(\d)\s*$", re.IGNORECASE)
_REFRESH_RE = re.compile(r"^\s*refresh\s+([a-zA-Z])\s*$", re.IGNORECASE)
_TARGET_RE = re.compile(r"^\s*target\s+(\d)\s*([a-zA-Z])\s*$", re.IGNORECASE)
_WORDS: dict[str, SquadAction] = {"pass": PASS, "done": DONE, "no die": NO_DIE, "nodie": NO_DIE}


def _letter(word: str) -> bool:
    """True for one ASCII letter (a character slot is written as one)."""
    return len(word) == 1 and word.isascii() and word.isalpha()


def slug(text: str) -> str:
    """A card name as an id: ``Heavy Blow`` -> ``heavy-blow``."""
    return re.sub(r"[\s_]+", "-", text.strip().lower())
