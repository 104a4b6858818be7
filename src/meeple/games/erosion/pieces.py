"""The pieces of an Erosion position: deck numbers and sizes, the actions with their
notation, the steps of a turn, and the card catalogue compiled for speed."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from meeple.games.erosion.cards import (
    PROCESS_DECKS,
    AtmosphereCard,
    Card,
    ProcessCard,
)

WX, H, F = 0, 1, 2
"""Deck numbers, in the order the seed lists them."""

HAND_SIZE = 6
"""'Your maximum hand size is 6'."""
ROCK_METRES = 500
"""'Each card in a mountain is a 500 meter rock layer'."""
HIGH_METRES = 4000
"""The elevation icons' threshold: hill below 4000 m, mountain at 4000 m or more."""
STARTING_MIX = (3, 2, 1)
"""3 WX, 2 H and 1 F: both the starting mountain and the starting hand."""
FOSSIL_POINTS, DELTA_POINTS, ROCK_POINTS = 3, 2, 1
SEAT_NAMES = ("Alps", "Andes", "Rockies", "Himalaya", "Atlas")
"""Each seat is named after a range, as its mountain is."""


# -- actions --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Weather:
    """Play a WX card on one mountain: ``weather WX12 on 1 x2`` weathers two rocks of seat 1's
    mountain; a card that lists rock types weathers all it can: ``weather WX04 on 1``."""

    card: str
    mountain: int
    rocks: int = 0

    def __str__(self) -> str:
        count = f" x{self.rocks}" if self.rocks else ""
        return f"weather {self.card} on {self.mountain}{count}"


@dataclass(frozen=True, slots=True)
class Hillslope:
    """Play an H card: ``hillslope H45 on 2 x1`` moves one weathered rock to the River."""

    card: str
    mountain: int
    rocks: int = 0

    def __str__(self) -> str:
        count = f" x{self.rocks}" if self.rocks else ""
        return f"hillslope {self.card} on {self.mountain}{count}"


@dataclass(frozen=True, slots=True)
class Fluvial:
    """Play an F card to transport rocks from the River to your delta: ``fluvial F74 x2``."""

    card: str
    rocks: int

    def __str__(self) -> str:
        return f"fluvial {self.card} x{self.rocks}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw from the process decks, chosen before looking: ``draw WX2 H1 F0``.

    At the start of a turn this is the Draw Cards action (refill to six); after a WX or H
    play it is the uplift draw; after an emptied hand it is the new hand of six.
    """

    wx: int
    h: int
    f: int

    def __str__(self) -> str:
        return f"draw WX{self.wx} H{self.h} F{self.f}"

    @property
    def counts(self) -> tuple[int, int, int]:
        """Cards from the WX, H and F decks."""
        return (self.wx, self.h, self.f)


@dataclass(frozen=True, slots=True)
class Redraw:
    """Draw Cards, the alternative: discard your whole hand, then draw a new one:
    ``redraw WX2 H2 F2``."""

    wx: int
    h: int
    f: int

    def __str__(self) -> str:
        return f"redraw WX{self.wx} H{self.h} F{self.f}"

    @property
    def counts(self) -> tuple[int, int, int]:
        """Cards from the WX, H and F decks."""
        return (self.wx, self.h, self.f)


@dataclass(frozen=True, slots=True)
class Pass:
    """Take no action this turn: ``pass``."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Uplift:
    """Put a card from your hand at the base of your mountain: ``uplift WX12``."""

    card: str

    def __str__(self) -> str:
        return f"uplift {self.card}"


@dataclass(frozen=True, slots=True)
class Transport:
    """Fluvial: choose a rock in the River to move to your delta: ``transport F81``."""

    card: str

    def __str__(self) -> str:
        return f"transport {self.card}"


@dataclass(frozen=True, slots=True)
class Pay:
    """Fluvial: discard a rock of the same type from your hand for it: ``pay F85``."""

    card: str

    def __str__(self) -> str:
        return f"pay {self.card}"


@dataclass(frozen=True, slots=True)
class Trigger:
    """Atmospheric Trigger: rotate an Atmosphere card 180 degrees: ``trigger ATM3``."""

    card: str

    def __str__(self) -> str:
        return f"trigger {self.card}"


@dataclass(frozen=True, slots=True)
class Fault:
    """Earthquake Fault: hillslope the top weathered rock of a mountain: ``fault on 2``."""

    mountain: int

    def __str__(self) -> str:
        return f"fault on {self.mountain}"


HARDNESSES = range(1, 11)
"""The Mohs hardnesses a tie-breaker's guess may name."""


@dataclass(frozen=True, slots=True)
class Guess:
    """Tie-breaker: guess the Mohs hardness (1-10) of the rock you drew: ``guess 7``."""

    hardness: int

    def __str__(self) -> str:
        return f"guess {self.hardness}"


@dataclass(frozen=True, slots=True)
class Choose:
    """Tie-breaker: the closest guesser chooses which tied seat takes the tie: ``choose 2``."""

    seat: int

    def __str__(self) -> str:
        return f"choose {self.seat}"


ErosionAction = (
    Weather
    | Hillslope
    | Fluvial
    | Draw
    | Redraw
    | Pass
    | Uplift
    | Transport
    | Pay
    | Trigger
    | Fault
    | Guess
    | Choose
)


StepKind = Literal[
    "draw",
    "uplift",
    "trigger",
    "fault",
    "transport",
    "pay",
    "refill",
    "end",
    "guess",
    "choose",
    "settle_tie",
]
"""The kinds of :class:`Step` (``rules.md``, "Steps and phases", says what each asks)."""
Phase = Literal["turn", StepKind, "over"]
"""Every name :attr:`ErosionState.phase` takes: ``turn``, a step's kind, or ``over``."""


class Step(NamedTuple):
    """One thing left to do in the current turn (or era end), for ``seat``.

    ``draw`` (``number`` cards owed), ``uplift`` (hand over six), ``trigger`` (``age``),
    ``fault``, ``transport`` (``number`` rocks left), ``pay`` (for River ``card``, ``number``
    rocks left including it), ``refill`` (an emptied hand draws six), ``end`` (next player),
    ``guess`` and ``choose`` (tie-breaker), ``settle_tie`` (the engine's).
    """

    kind: StepKind
    seat: int
    number: int = 0
    card: int = -1
    age: str = ""


TiePurpose = Literal["start", "win"]
"""What a tie is broken for: who starts the next era, or the win."""


class Tie(NamedTuple):
    """A tie being broken: for the lowest score (who starts the next era) or the win."""

    purpose: TiePurpose
    seats: tuple[int, ...]
    cards: tuple[int, ...]
    """The card each tied seat drew at random from its own hand (-1: an empty hand)."""
    guesses: tuple[int, ...]
    """Each tied seat's guess of its card's Mohs hardness; 0 until made."""

    @property
    def drew(self) -> tuple[int, ...]:
        """The tied seats that drew a card (a seat with an empty hand cannot win the tie)."""
        return tuple(seat for seat, card in zip(self.seats, self.cards, strict=True) if card >= 0)

    @property
    def guessers(self) -> tuple[int, ...]:
        """The seats that guess, in the tie's order: those that drew a card, where two or
        more did (one alone is the closest without guessing)."""
        drew = self.drew
        return drew if len(drew) > 1 else ()

    def closest(self, mohs: tuple[int, ...]) -> tuple[int, ...]:
        """'The player guessing the closest chooses the tie', by each card's ``mohs``: the
        one seat that chooses, or the seats that stay tied (equally close guesses; no seat
        with a card to draw). A seat that drew alone is the closest without guessing."""
        misses = {
            seat: abs(guess - mohs[card])
            for seat, card, guess in zip(self.seats, self.cards, self.guesses, strict=True)
            if card >= 0
        }
        if not misses:
            return self.seats
        return tuple(seat for seat, miss in misses.items() if miss == min(misses.values()))


# -- the card catalogue, compiled for speed -------------------------------------------------
class Catalog:
    """The card list as flat tuples indexed by card number (file order)."""

    def __init__(self, cards: tuple[Card, ...], stamp: str = "shipped") -> None:
        self.cards = cards
        self.stamp = stamp
        """What identifies the card list: ``shipped``, or a designer's file's digest."""
        self.ids: tuple[str, ...] = tuple(c.id for c in cards)
        self.index: dict[str, int] = {c.id: i for i, c in enumerate(cards)}
        process = [c for c in cards if isinstance(c, ProcessCard)]
        self.process_cards: tuple[ProcessCard, ...] = tuple(process)
        self.num_process = len(process)
        self.atmospheres: tuple[AtmosphereCard, ...] = tuple(
            c for c in cards if isinstance(c, AtmosphereCard)
        )
        self.atm_index: dict[str, int] = {a.id: i for i, a in enumerate(self.atmospheres)}
        deck_no = {d: i for i, d in enumerate(PROCESS_DECKS)}
        self.deck: tuple[int, ...] = tuple(deck_no[c.deck] for c in process)
        self.by_deck: tuple[tuple[int, ...], ...] = tuple(
            tuple(i for i, c in enumerate(process) if c.deck == d) for d in PROCESS_DECKS
        )
        self.rock: tuple[str, ...] = tuple(c.rock for c in process)
        self.mohs: tuple[int, ...] = tuple(c.mohs for c in process)
        self.fossil: tuple[bool, ...] = tuple(c.fossil is not None for c in process)
        self.kind: tuple[str, ...] = tuple(c.process.kind for c in process)
        self.n: tuple[int, ...] = tuple(c.process.n for c in process)
        self.max_hardness: tuple[int, ...] = tuple(c.process.max_hardness or 0 for c in process)
        self.types: tuple[frozenset[str], ...] = tuple(frozenset(c.process.types) for c in process)
        self.icon: tuple[str | None, ...] = tuple(c.process.elevation for c in process)
        self.process_name: tuple[str, ...] = tuple(c.process.name for c in process)
        self.effect: tuple[Any, ...] = tuple(
            c.architecture.effect if c.architecture else None for c in process
        )
        self.effect_kind: tuple[str, ...] = tuple(e.kind if e else "" for e in self.effect)
        self.weather_bonus = sum(e.rocks for e in self.effect if e and e.kind == "weather_bonus")
        """Every Exfoliation Dome's bonus together: numeric WX cards may weather at most this
        many more, since the Domes in force in a mountain add up (a designer's card file may
        print several) and they may all stand in one."""
        self.transport_bonus = max(
            (e.rocks for e in self.effect if e and e.kind == "transport_bonus_if_high"), default=0
        )
        """The largest Glacier bonus: F cards may transport this many more."""
        self.under: tuple[int, ...] = tuple(deck_no[a.under] for a in self.atmospheres)
        self.normal_limit: tuple[int, ...] = tuple(a.normal_limit for a in self.atmospheres)
        self.age_limit: tuple[int, ...] = tuple(a.age_limit for a in self.atmospheres)

    def process_card(self, card_id: str) -> int:
        """The index of a process card, or -1 if no process card has this id."""
        i = self.index.get(card_id, -1)
        return i if 0 <= i < self.num_process else -1


def matchable(river: Iterable[int], hand: Iterable[int], rock: tuple[str, ...]) -> int:
    """How many River rocks could be paid for with same-type rocks from ``hand``."""
    need = Counter(rock[c] for c in river)
    have = Counter(rock[c] for c in hand)
    return sum(min(k, have[t]) for t, k in need.items())


def without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """The cards with one copy of ``card`` taken out."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """The tuple with ``value`` at ``index`` (states hold tuples, so they are never changed)."""
    return (*values[:index], value, *values[index + 1 :])


def splits(caps: tuple[int, int, int], total: int) -> Iterator[tuple[int, int, int]]:
    """Every way to share ``total`` among three piles, each at most its cap."""
    for a in range(min(caps[0], total) + 1):
        for b in range(min(caps[1], total - a) + 1):
            c = total - a - b
            if c <= caps[2]:
                yield (a, b, c)


_CARD = r"([A-Za-z]+\d+)"
_SEAT = r"(?:on\s+)?(?:seat\s*)?(\d+)"
_WEATHER_RE = re.compile(rf"^\s*(weather|hillslope)\s+{_CARD}\s+{_SEAT}(?:\s+x\s*(\d+))?\s*$", re.I)
_FLUVIAL_RE = re.compile(rf"^\s*fluvial\s+{_CARD}(?:\s+x\s*(\d+))?\s*$", re.I)
_DRAW_RE = re.compile(r"^\s*(draw|redraw)\b(.*)$", re.I)
_DRAW_PART_RE = re.compile(r"(WX|H|F)\s*(\d+)", re.I)
_CARD_WORD_RE = re.compile(rf"^\s*(uplift|transport|pay|trigger)\s+{_CARD}\s*$", re.I)
_NUMBER_RE = re.compile(r"^\s*(guess|choose|fault)\s+(?:on\s+)?(?:seat\s*)?(\d+)\s*$", re.I)
