"""The pieces of a Squad Combat position: seats and slots, the steps (who decides what,
now), and the small records a state is made of (characters, wounds, cards being performed)."""

from __future__ import annotations

from typing import Any, NamedTuple

SEAT_NAMES = ("Red", "Blue", "Green", "Gold")
SLOTS = "abc"
"""Characters are named by their place in the row, left to right."""
LOG_LINES = 24
"""How many recent log lines a state keeps (and every view shows)."""
END_DISCARDS = 2
"""'Each player may then discard up to two cards from their hand'."""


# -- steps: who decides what, now ---------------------------------------------------------
PHASE = "action phase"
PAY_DIE = "die payment"
PAY_CARD = "card discard payment"
TARGET = "target choice"
BOOST_DIE = "boost die choice"
ATTACK_DIE = "attack die choice"
DEFENSE_DIE = "defense die choice"
REACT = "reaction window"
"""Edges answering the card on top of the stack: an attack after both dice, or an action
before it resolves."""
END_WINDOW = "end-of-turn window"
"""Edges at the end of a turn, once everyone has passed, before spent energy clears."""
REFRESH_WINDOW = "window before a refresh"
"""Edges before a dice refresh (an action) rolls: its energy is paid, the dice not yet."""
DROP = "dice trim after a refresh"
END_DISCARD = "end-of-turn discard"
RESOLVE = "resolution"
OVER = "game over"

STEP_KINDS: tuple[str, ...] = (
    PHASE,
    PAY_DIE,
    PAY_CARD,
    TARGET,
    BOOST_DIE,
    ATTACK_DIE,
    DEFENSE_DIE,
    REACT,
    END_WINDOW,
    REFRESH_WINDOW,
    DROP,
    END_DISCARD,
    RESOLVE,
    OVER,
)
"""Every kind of step, the one enumeration of them (``rules.md``: "Steps and phases")."""

# -- how a game ends ---------------------------------------------------------------------
LAST_STANDING = "last player with a character alive"
"""Why a game ends with a winner: every other party is gone."""
STALEMATE = "no character left can ever wound another (stalemate)"
"""Why a game ends drawn before its turn limit."""


def turn_limit_reached(limit: int) -> str:
    """Why a game ends drawn at the safeguard of ``limit`` turns."""
    return f"turn limit of {limit} reached (safeguard)"


FORCED = frozenset({PAY_DIE, PAY_CARD, TARGET, BOOST_DIE, DROP})
"""Steps where a single legal choice is made for the player: only optional decisions ask."""


class Step(NamedTuple):
    """The decision pending now and the seat that makes it (-1 when nobody does)."""

    kind: str
    seat: int


class Wound(NamedTuple):
    """An attack card under a character: which card, and whose deck it came from."""

    card: int
    owner: int


class Character(NamedTuple):
    """A character in play: its card, spent energy, the dice on it and the wounds under it."""

    card: int
    """Index of its character card in the content."""
    spent: int
    """Spent energy (burden) tokens; cleared at the end of each turn."""
    dice: tuple[int, ...]
    """Values of the dice on it, lowest first."""
    wounds: tuple[Wound, ...] = ()
    removed: bool = False
    """Wounds reached its Life: it is out of the game."""


class Performance(NamedTuple):
    """A card being performed: who plays it, by which character, and what is still to settle."""

    player: int
    card: int
    slot: int
    """The performing character (the attacker, for an attack)."""
    dice_due: tuple[int, ...]
    """Die costs still to pay, highest first."""
    cards_due: int
    """Card discards still to pay."""
    target: tuple[int, int] | None = None
    """(seat, slot) of the defender, or of the character an effect acts on."""
    boost_die: int | None = None
    attack_die: int | None = None
    """Value of the attack die; 0 when declined; None until chosen."""
    defense_die: int | None = None
    attack_bonus: int = 0
    defense_bonus: int = 0
    windows: tuple[int, ...] | None = None
    """Seats still to be offered a reaction window; None until the windows open (after both
    dice of an attack; once an action is paid and aimed), () once every seat has closed."""

    def attack_rating(self, hit: int | None) -> int:
        """Attack step 4: the attack die (0 when declined or not yet chosen) plus the card's
        hit modifier ``hit`` and what edges added."""
        return (self.attack_die or 0) + (hit or 0) + self.attack_bonus

    def defense_rating(self) -> int:
        """Attack step 4: the defense die (0 when declined or not yet chosen) plus what
        edges added."""
        return (self.defense_die or 0) + self.defense_bonus


def dice_text(dice: Any) -> str:
    """Dice values as a log writes them: ``2 5``, or ``no dice``."""
    return " ".join(map(str, dice)) if dice else "no dice"


def put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """The tuple with the item at ``index`` replaced (states are made of tuples)."""
    return (*values[:index], value, *values[index + 1 :])
