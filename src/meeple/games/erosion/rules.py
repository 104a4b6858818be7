"""Erosion, by John Douglass (Sierra Madre Games, 2009): uplift your mountain while weathering
and eroding everyone else's.

The rules as the seed states them, in order:

* Set up: the WX, H and F decks are shuffled onto three pairs of Atmosphere cards. Each
  player draws 3 WX, 2 H and 1 F card, shuffles them into a starting mountain (top rock
  weathered), then draws a hand of 3 WX, 2 H and 1 F. A random player starts.
* A turn is one of four actions, or a pass; then the next player clockwise.

  1. *Weathering*: play a WX card to weather rocks of any one mountain, from the top down.
  2. *Hillslope*: play an H card to move weathered rocks from the top of a mountain to the
     River. After a WX or H play, draw a card per rock processed (the *uplift* bonus); cards
     over six go to the base of your mountain as uplifted rocks.
  3. *Fluvial*: play an F card to move exactly its number of rocks from the River to your
     delta, paying each with a rock of the same type from your hand.
  4. *Draw Cards*: refill the hand to six, or discard it and draw a new one.

  A play that empties the hand draws six new cards and ends the turn. Draws respect each
  deck's *draw limit*, the sum of the two visible ends of the Atmosphere cards under it.
* An era ends when all players pass in a row, or when a player passes for the second time
  after a deck has run out. Scoring: 1 per unweathered rock, 2 per delta rock, 3 per
  weathered fossil rock. Two or three players play one era, four or five play two.
* Advanced rules add Montane Architecture (the rock portion's text) and Atmospheric
  Triggers; the Montane Legend Variant adds legend and challenge cards.

A turn with several decisions (the play, the cards drawn, the rocks uplifted, the rocks
transported and paid for, the Atmospheres triggered) is a sequence of small actions by the
same seat; a step with a single possible choice is taken by the engine (unless the option
``auto_steps`` is false). ``rules.md`` beside
this module has every interpretation.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NamedTuple

from pydantic import Field, model_validator

from meeple.core.errors import NotationError
from meeple.core.game import AgentFactory, Game, Player, State
from meeple.core.options import GameOptions
from meeple.core.registry import register
from meeple.core.rng import derive_seed, make_rng
from meeple.games.erosion.cards import (
    AGE_NAMES,
    PROCESS_DECKS,
    ROCK_CLASS,
    AtmosphereCard,
    Card,
    ChallengeCard,
    LegendCard,
    ProcessCard,
    standard_cards,
    standard_legends,
)

if TYPE_CHECKING:
    from rich.console import RenderableType

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


# -- options --------------------------------------------------------------------------------
class ErosionOptions(GameOptions):
    """Options of Erosion."""

    players: int = Field(default=2, ge=2, le=5, description="number of players, 2 to 5")
    advanced: bool = Field(
        default=False,
        description="Advanced Rules: Montane Architecture and Atmospheric Triggers",
    )
    legend: Literal["off", "basic", "advanced"] = Field(
        default="off",
        description="Montane Legend Variant: off, basic claims (one capstone type) or "
        "advanced claims (both types on the mountaintop)",
    )
    first: int | Literal["random"] = Field(
        default="random",
        description="seat that starts; random draws it from the seed",
        json_schema_extra={"allowed": "random | a seat number"},
    )

    @model_validator(mode="after")
    def _first_is_a_seat(self) -> ErosionOptions:
        if self.first != "random" and not 0 <= self.first < self.players:
            raise ValueError(
                f"first must be random or a seat from 0 to {self.players - 1}, not {self.first}"
            )
        return self


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


class Tie(NamedTuple):
    """A tie being broken: for the lowest score (who starts the next era) or the win."""

    purpose: Literal["start", "win"]
    seats: tuple[int, ...]
    cards: tuple[int, ...]
    """The card each tied seat drew at random from its own hand (-1: an empty hand)."""
    guesses: tuple[int, ...]
    """Each tied seat's guess of its card's Mohs hardness; 0 until made."""


# -- the card catalogue, compiled for speed -------------------------------------------------
class Catalog:
    """The card list as flat tuples indexed by card number (file order)."""

    def __init__(self, cards: tuple[Card, ...]) -> None:
        self.cards = cards
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
        self.weather_bonus = max(
            (e.rocks for e in self.effect if e and e.kind == "weather_bonus"), default=0
        )
        """The largest Exfoliation Dome bonus: numeric WX cards may weather this many more."""
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


def _without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _splits(caps: tuple[int, int, int], total: int) -> Iterator[tuple[int, int, int]]:
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


# -- the game -------------------------------------------------------------------------------
@register
class ErosionGame(Game[ErosionOptions, "ErosionState", ErosionAction]):
    """Erosion for 2 to 5 players, basic or advanced rules, with the Montane Legend Variant."""

    name: ClassVar[str] = "erosion"
    title: ClassVar[str] = "Erosion"
    summary: ClassVar[str] = (
        "Uplift your mountain while weathering and eroding the others' into your delta."
    )
    Options: ClassVar[type[GameOptions]] = ErosionOptions
    players: ClassVar[str] = "2-5"
    perfect_information: ClassVar[bool] = False
    heuristic_agent: ClassVar[str | None] = "heuristic"
    step_names: ClassVar[tuple[str, ...]] = Phase.__args__  # type: ignore[attr-defined]

    def __init__(self, options: ErosionOptions) -> None:
        super().__init__(options)
        self.catalog = Catalog(standard_cards())
        legends, challenges = standard_legends()
        self.legend_cards: tuple[LegendCard, ...] = legends if options.legend != "off" else ()
        self.challenge_cards: tuple[ChallengeCard, ...] = (
            challenges if options.legend != "off" else ()
        )
        self.eras = 1 if options.players <= 3 else 2
        """'The two or three-player game lasts one era; ... four- or five-player ... two'."""
        self._build_actions()

    # -- seats ------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        """2 to 5, from the options."""
        return self.options.players

    def seat_name(self, player: Player) -> str:
        """Each seat is a mountain range: Alps, Andes, Rockies, Himalaya, Atlas."""
        return SEAT_NAMES[player]

    # -- set up -----------------------------------------------------------------------------
    def new_game(self, seed: int) -> ErosionState:
        """Set Up exactly as written: shuffled decks on their Atmosphere pairs, a starting
        mountain (3 WX, 2 H, 1 F shuffled, top rock weathered) and a hand (3/2/1) for each
        player, and a random start player."""
        cat = self.catalog
        n = self.num_players
        decks = []
        for d in (WX, H, F):
            cards = list(cat.by_deck[d])
            make_rng(seed, "erosion", "deck", d).shuffle(cards)
            decks.append(tuple(cards))
        mountains = []
        for p in range(n):
            rocks: list[int] = []
            for d, k in enumerate(STARTING_MIX):
                rocks += decks[d][-k:]
                decks[d] = decks[d][:-k]
            make_rng(seed, "erosion", "mountain", p).shuffle(rocks)
            mountains.append(tuple(rocks))
        hands = []
        for _ in range(n):
            hand: list[int] = []
            for d, k in enumerate(STARTING_MIX):
                hand += decks[d][-k:]
                decks[d] = decks[d][:-k]
            hands.append(tuple(sorted(hand)))
        first = self.options.first
        if first == "random":
            first = make_rng(seed, "erosion", "first").randrange(n)
        challenges: tuple[int, ...] = ()
        if self.challenge_cards:
            order = list(range(len(self.challenge_cards)))
            make_rng(seed, "erosion", "challenges").shuffle(order)
            challenges = tuple(order[:n])
        state = ErosionState(
            game=self,
            seed=seed,
            era=1,
            current=first,
            decks=(decks[0], decks[1], decks[2]),
            hands=tuple(hands),
            mountains=tuple(mountains),
            weathered=(1,) * n,
            deltas=((),) * n,
            discards=((),) * n,
            river=(),
            aged=(False,) * len(cat.atmospheres),
            agenda=(),
            triggered=(),
            passes_in_row=0,
            runout_passes=None,
            scores=(0,) * n,
            era_scores=(),
            challenges=challenges,
            challenges_shown=False,
            legends=(-1,) * len(self.legend_cards),
            tie=None,
            winners=(),
            over=False,
            turn=1,
            end_reason="",
        )
        return state._note_runout()._claim_legends()

    # -- notation and encoding --------------------------------------------------------------
    def _build_actions(self) -> None:
        """Every action that can ever be legal, in a fixed order: its index is its id.

        A play lists only the counts its card can reach: a numeric WX card 1 to its number
        (plus an Exfoliation Dome's bonus), a typed WX card none (it weathers all it can), an
        H card 1 to its number, an F card its number (or one more with a Glacier).
        """
        cat = self.catalog
        n = self.num_players
        actions: list[ErosionAction] = [Pass()]
        for c in cat.by_deck[WX]:
            top = cat.n[c] + cat.weather_bonus if cat.kind[c] == "weather_n" else 0
            counts = range(1, top + 1) if top else (0,)
            actions += [Weather(cat.ids[c], m, k) for m in range(n) for k in counts]
        for c in cat.by_deck[H]:
            actions += [
                Hillslope(cat.ids[c], m, k) for m in range(n) for k in range(1, cat.n[c] + 1)
            ]
        for c in cat.by_deck[F]:
            actions += [
                Fluvial(cat.ids[c], k) for k in range(cat.n[c], cat.n[c] + cat.transport_bonus + 1)
            ]
        splits = [
            (a, b, c)
            for a in range(7)
            for b in range(7)
            for c in range(7)
            if a + b + c <= HAND_SIZE
        ]
        actions += [Draw(*s) for s in splits if sum(s)]
        actions += [Redraw(*s) for s in splits if sum(s)]
        ids = cat.ids[: cat.num_process]
        actions += [Uplift(i) for i in ids]
        actions += [Transport(i) for i in ids]
        actions += [Pay(i) for i in ids]
        actions += [Trigger(a.id) for a in cat.atmospheres]
        actions += [Fault(m) for m in range(n)]
        actions += [Guess(g) for g in range(1, 11)]
        actions += [Choose(s) for s in range(n)]
        self._actions: tuple[ErosionAction, ...] = tuple(actions)
        self._ids: dict[ErosionAction, int] = {a: i for i, a in enumerate(actions)}

    def action(self, action: ErosionAction) -> ErosionAction:
        """The shared instance of an action (legal-move lists hand out shared objects)."""
        return self._actions[self._ids[action]]

    def _parse_action(self, text: str) -> ErosionAction:
        """Read an action in the notation of :meth:`notation_help`."""
        words = text.strip().lower()
        if words == "pass":
            return self._actions[0]
        cat = self.catalog
        m = _WEATHER_RE.match(text)
        if m:
            verb, card, seat, rocks = m.groups()
            card = self._card_id(card, "WX" if verb.lower() == "weather" else "H")
            action: ErosionAction
            if verb.lower() == "weather":
                action = Weather(card, int(seat), int(rocks or 0))
            else:
                action = Hillslope(card, int(seat), int(rocks or 0))
            return self._known(action, text)
        m = _FLUVIAL_RE.match(text)
        if m:
            card = self._card_id(m.group(1), "F")
            rocks = int(m.group(2)) if m.group(2) else cat.n[cat.index[card]]
            return self._known(Fluvial(card, rocks), text)
        m = _DRAW_RE.match(text)
        if m:
            rest = m.group(2)
            counts = {"WX": 0, "H": 0, "F": 0}
            for deck, k in _DRAW_PART_RE.findall(rest):
                counts[deck.upper()] += int(k)
            if _DRAW_PART_RE.sub("", rest).strip(" ,") or not _DRAW_PART_RE.search(rest):
                raise NotationError(
                    f"{text!r}: write the cards from each deck, e.g. "
                    f"'{m.group(1).lower()} WX2 H1 F0'"
                )
            cls = Draw if m.group(1).lower() == "draw" else Redraw
            return self._known(cls(counts["WX"], counts["H"], counts["F"]), text)
        m = _CARD_WORD_RE.match(text)
        if m:
            verb = m.group(1).lower()
            if verb == "trigger":
                card = m.group(2).upper()
                if card not in cat.atm_index:
                    atms = ", ".join(a.id for a in cat.atmospheres)
                    raise NotationError(f"{text!r}: there is no Atmosphere card {card} ({atms})")
                return self._known(Trigger(card), text)
            card = self._card_id(m.group(2), None)
            cls2 = {"uplift": Uplift, "transport": Transport, "pay": Pay}[verb]
            return self._known(cls2(card), text)
        m = _NUMBER_RE.match(text)
        if m:
            verb, number = m.group(1).lower(), int(m.group(2))
            cls3 = {"guess": Guess, "choose": Choose, "fault": Fault}[verb]
            return self._known(cls3(number), text)
        raise NotationError(f"{text!r} is not an Erosion action; {self.notation_help()}")

    def _card_id(self, text: str, deck: str | None) -> str:
        card = text.upper()
        i = self.catalog.process_card(card)
        if i < 0:
            raise NotationError(f"there is no process card {card} (WX01-WX38, H39-H70, F71-F90)")
        if deck is not None and PROCESS_DECKS[self.catalog.deck[i]] != deck:
            word = {"WX": "weathering", "H": "hillslope", "F": "fluvial"}[deck]
            raise NotationError(f"{card} is not a {deck} card, so it cannot be played as {word}")
        return card

    def _known(self, action: ErosionAction, text: str) -> ErosionAction:
        found = self._ids.get(action)
        if found is not None:
            return self._actions[found]
        cat = self.catalog
        n = self.num_players
        if getattr(action, "mountain", 0) >= n:
            raise NotationError(
                f"{text!r}: there is no mountain {action.mountain} (seats 0-{n - 1})"
            )
        if isinstance(action, Weather):
            c = cat.index[action.card]
            if cat.kind[c] == "weather_types":
                listed = ", ".join(sorted(cat.types[c]))
                raise NotationError(
                    f"{text!r}: {action.card} weathers every unshielded {listed} rock it "
                    "reaches; write it without a count"
                )
            raise NotationError(
                f"{text!r}: say how many rocks {action.card} weathers, x1 to "
                f"x{cat.n[c] + cat.weather_bonus} at most"
            )
        if isinstance(action, Hillslope):
            c = cat.index[action.card]
            raise NotationError(f"{text!r}: {action.card} hillslopes x1 to x{cat.n[c]} rocks")
        if isinstance(action, Fluvial):
            c = cat.index[action.card]
            raise NotationError(
                f"{text!r}: {action.card} transports exactly {cat.n[c]} rocks (one more with a "
                "Glacier)"
            )
        if isinstance(action, (Draw, Redraw)):
            raise NotationError(f"{text!r}: a draw is 1 to 6 cards in all")
        raise NotationError(
            f"{text!r} is out of range (seats 0-{n - 1}, guesses 1-10, mountains 0-{n - 1})"
        )

    def notation_help(self) -> str:
        """How to write an action."""
        return (
            "write 'weather WX12 on 1 x2' (typed cards without x: 'weather WX04 on 1'), "
            "'hillslope H45 on 0 x1', 'fluvial F74 x2', 'draw WX2 H1 F0', "
            "'redraw WX2 H2 F2', 'pass'; during a turn: 'uplift WX12', 'transport F81', "
            "'pay F85', 'trigger ATM3', 'fault on 2'; tie-breaker: 'guess 7', 'choose 1'"
        )

    @property
    def num_actions(self) -> int:
        """Pass, the plays (card x mountain x rocks), draw splits, then the turn's steps."""
        return len(self._actions)

    def action_id(self, action: ErosionAction) -> int:
        """Position in the fixed list of every action (see :meth:`num_actions`)."""
        try:
            return self._ids[action]
        except KeyError:
            raise ValueError(f"{action!r} is not an action of this game") from None

    def action_from_id(self, action_id: int) -> ErosionAction:
        """The action with this id; ValueError if out of range."""
        if not 0 <= action_id < len(self._actions):
            raise ValueError(f"action id {action_id} is outside 0..{len(self._actions) - 1}")
        return self._actions[action_id]

    # -- extras -----------------------------------------------------------------------------
    def card_list(self) -> list[dict[str, Any]]:
        """The shipped cards (rock, hardness, fossil, process of each id), and the legend
        and challenge cards of the Legend variant when it is on."""
        cards = [card.model_dump(mode="json") for card in self.catalog.cards]
        extra = (*self.legend_cards, *self.challenge_cards)
        return cards + [card.model_dump(mode="json") for card in extra]

    def agents(self) -> Mapping[str, AgentFactory]:
        """``heuristic``: scores each play by the points it moves, plus the cards it draws."""
        from meeple.games.erosion.agents import HeuristicAgent

        return {"heuristic": HeuristicAgent}

    def render(self, state: ErosionState, player: Player | None = None) -> RenderableType:
        """Mountains as columns, the River, deltas, draw limits (what ``player`` may see)."""
        from meeple.games.erosion.render import render_state

        return render_state(state, player)


# -- the state ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, eq=True)
class ErosionState(State[ErosionAction]):
    """A position. Card piles are tuples of card numbers (indices into the card file)."""

    game: ErosionGame
    seed: int
    """Source of the era's later chance events (tie-breaker draws, the new era's shuffle)."""
    era: int
    current: int
    """The seat whose turn it is."""
    decks: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    """The WX, H and F decks; the top card is the last."""
    hands: tuple[tuple[int, ...], ...]
    """Each seat's hand, sorted."""
    mountains: tuple[tuple[int, ...], ...]
    """Each seat's mountain, top rock first."""
    weathered: tuple[int, ...]
    """How many rocks from the top of each mountain are weathered (weathering goes from the
    top down and hillslope takes from the top, so the weathered rocks are always on top)."""
    deltas: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    river: tuple[int, ...]
    aged: tuple[bool, ...]
    """Each Atmosphere card: True once rotated to show its Age end."""
    agenda: tuple[Step, ...]
    """What is left of the current turn (or of the era end); empty at the start of a turn."""
    triggered: tuple[int, ...]
    """Atmosphere cards triggered this turn (each at most once per turn)."""
    passes_in_row: int
    runout_passes: tuple[int, ...] | None
    """Passes per seat since a deck ran out; None while every deck has cards."""
    scores: tuple[int, ...]
    """Points recorded at the end of each era so far, summed."""
    era_scores: tuple[tuple[int, ...], ...]
    challenges: tuple[int, ...]
    """Legend variant: each seat's challenge card (index into the challenge cards)."""
    challenges_shown: bool
    legends: tuple[int, ...]
    """Legend variant: the seat that claimed each legend card, -1 while unclaimed."""
    tie: Tie | None
    winners: tuple[int, ...]
    over: bool
    turn: int
    end_reason: str
    """Why the last era ended."""

    # -- whose turn -------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[Player, ...]:
        """The seat taking the current step; nobody once the game is over."""
        if self.over:
            return ()
        if self.agenda:
            return (self.agenda[0].seat,)
        return (self.current,)

    @property
    def phase(self) -> Phase:
        """``turn`` (choose an action or pass), a step's kind, or ``over``."""
        if self.over:
            return "over"
        return self.agenda[0].kind if self.agenda else "turn"

    @property
    def step_name(self) -> str:
        """The :attr:`phase`."""
        return self.phase

    # -- measurements -----------------------------------------------------------------------
    def height_m(self, seat: int) -> int:
        """The height of a seat's mountain: 500 m per rock, weathered or not."""
        return ROCK_METRES * len(self.mountains[seat])

    def _architecture(self, seat: int, kind: str) -> list[Any]:
        """Red architecture in force on a mountain: effects of its unweathered rocks."""
        if not self.game.options.advanced:
            return []
        cat = self.game.catalog
        rocks = self.mountains[seat][self.weathered[seat] :]
        return [cat.effect[r] for r in rocks if cat.effect_kind[r] == kind]

    def counts_as_high(self, seat: int) -> bool:
        """4000 m or more for elevation icons (a Caldera counts as that high)."""
        return self.height_m(seat) >= HIGH_METRES or bool(
            self._architecture(seat, "counts_as_high")
        )

    def draw_limit(self, deck: int, player: Player | None = None) -> int:
        """The sum of the deck's two visible Atmosphere ends (plus the seat's Aquifer)."""
        cat = self.game.catalog
        limit = 0
        for i, under in enumerate(cat.under):
            if under == deck:
                limit += cat.age_limit[i] if self.aged[i] else cat.normal_limit[i]
        if player is not None and self.game.options.advanced:
            name = PROCESS_DECKS[deck]
            for effect in self._architecture(player, "draw_limit_bonus"):
                if effect.deck == name:
                    limit += effect.cards
        return limit

    def draw_caps(self, player: Player) -> tuple[int, int, int]:
        """How many cards ``player`` may draw from each deck now: limit, and cards left."""
        return (
            min(self.draw_limit(WX, player), len(self.decks[WX])),
            min(self.draw_limit(H, player), len(self.decks[H])),
            min(self.draw_limit(F, player), len(self.decks[F])),
        )

    def draw_options(self, player: Player, wanted: int) -> list[tuple[int, int, int]]:
        """Every way to draw ``wanted`` cards within draw limits, or as many as they allow."""
        caps = self.draw_caps(player)
        total = min(wanted, sum(caps))
        if total <= 0:
            return []
        return list(_splits(caps, total))

    def weather_reach(self, player: Player, card: int, mountain: int) -> int:
        """How many rocks a WX card could weather on a mountain (0 if it may not be played
        there): from the top down, passing over weathered rocks, stopping at the first rock
        it cannot weather, which shields every rock beneath it."""
        cat = self.game.catalog
        icon = cat.icon[card]
        if icon is not None and (icon == "mountain") != self.counts_as_high(mountain):
            return 0
        if cat.kind[card] == "weather_n":
            limit = cat.n[card] + sum(e.rocks for e in self._architecture(player, "weather_bonus"))
            hardness, types = cat.max_hardness[card], None
        else:
            # a typed card has no number: it weathers every listed rock it reaches
            limit, hardness, types = len(self.mountains[mountain]), 0, cat.types[card]
        advanced = self.game.options.advanced
        reach = 0
        for rock in self.mountains[mountain][self.weathered[mountain] :]:
            if reach >= limit:
                break
            if types is None:
                if cat.mohs[rock] > hardness:
                    break
            elif cat.rock[rock] not in types:
                break
            if advanced and not self._weatherable_by(rock, card):
                break
            reach += 1
        return reach

    def _weatherable_by(self, rock: int, card: int) -> bool:
        """Red architecture that keeps a rock from being weathered by this card."""
        cat = self.game.catalog
        kind = cat.effect_kind[rock]
        if kind == "resists_icon":
            return cat.icon[card] != cat.effect[rock].icon
        if kind == "resists_except":
            return cat.process_name[card] == cat.effect[rock].process
        return True

    def hillslope_reach(self, card: int, mountain: int) -> int:
        """How many weathered rocks an H card could move from a mountain (0: not playable)."""
        cat = self.game.catalog
        icon = cat.icon[card]
        if icon is not None and (icon == "mountain") != self.counts_as_high(mountain):
            return 0
        return min(cat.n[card], self.weathered[mountain])

    def fluvial_counts(self, player: Player, card: int) -> list[int]:
        """How many rocks an F card may transport now: its number (a Glacier on a mountain of
        4000 m or more allows one more), where the River and the hand can pay for them."""
        cat = self.game.catalog
        counts = {cat.n[card]}
        if self.height_m(player) >= HIGH_METRES:
            for effect in self._architecture(player, "transport_bonus_if_high"):
                counts.add(cat.n[card] + effect.rocks)
        possible = matchable(self.river, _without(self.hands[player], card), cat.rock)
        return sorted(k for k in counts if k <= possible)

    # -- legal actions ----------------------------------------------------------------------
    def legal_actions(self, player: Player) -> list[ErosionAction]:
        """Every action ``player`` may take now (empty if the seat is not to act)."""
        if player not in self.to_act:
            return []
        if not self.agenda:
            return self._turn_actions(player)
        return self._step_actions(self.agenda[0])

    def _turn_actions(self, player: Player) -> list[ErosionAction]:
        game = self.game
        cat = game.catalog
        table = game._ids
        acts = game._actions
        out: list[ErosionAction] = []
        n = game.num_players
        for c in self.hands[player]:
            kind = cat.kind[c]
            cid = cat.ids[c]
            if kind == "weather_n":
                for m in range(n):
                    for k in range(1, self.weather_reach(player, c, m) + 1):
                        out.append(acts[table[Weather(cid, m, k)]])
            elif kind == "weather_types":
                for m in range(n):
                    if self.weather_reach(player, c, m):
                        out.append(acts[table[Weather(cid, m, 0)]])
            elif kind == "hillslope_n":
                for m in range(n):
                    for k in range(1, self.hillslope_reach(c, m) + 1):
                        out.append(acts[table[Hillslope(cid, m, k)]])
            else:
                for k in self.fluvial_counts(player, c):
                    out.append(acts[table[Fluvial(cid, k)]])
        hand = len(self.hands[player])
        if hand < HAND_SIZE:
            out += [acts[table[Draw(*s)]] for s in self.draw_options(player, HAND_SIZE - hand)]
        if hand:
            out += [acts[table[Redraw(*s)]] for s in self.draw_options(player, HAND_SIZE)]
        out.append(acts[0])
        return out

    def _step_actions(self, step: Step) -> list[ErosionAction]:
        game = self.game
        cat = game.catalog
        acts, table = game._actions, game._ids
        seat = step.seat
        kind = step.kind
        if kind == "draw":
            return [acts[table[Draw(*s)]] for s in self.draw_options(seat, step.number)]
        if kind == "uplift":
            return [acts[table[Uplift(cat.ids[c])]] for c in dict.fromkeys(self.hands[seat])]
        if kind == "transport":
            have = {cat.rock[c] for c in self.hands[seat]}
            return [acts[table[Transport(cat.ids[c])]] for c in self.river if cat.rock[c] in have]
        if kind == "pay":
            rock = cat.rock[step.card]
            return [acts[table[Pay(cat.ids[c])]] for c in self.hands[seat] if cat.rock[c] == rock]
        if kind == "trigger":
            return [acts[table[Trigger(cat.atmospheres[a].id)]] for a in self._triggerable(step)]
        if kind == "fault":
            n = game.num_players
            return [acts[table[Fault(m)]] for m in range(n) if self.weathered[m]]
        if kind == "guess":
            return [acts[table[Guess(g)]] for g in range(1, 11)]
        if kind == "choose":
            assert self.tie is not None
            return [acts[table[Choose(s)]] for s in self.tie.seats]
        return []

    def _triggerable(self, step: Step) -> list[int]:
        cat = self.game.catalog
        return [
            i
            for i, atm in enumerate(cat.atmospheres)
            if (step.age == "any" or atm.age == step.age) and i not in self.triggered
        ]

    def why_illegal(self, player: Player, action: ErosionAction) -> str | None:
        """None for a legal action; otherwise the rule it breaks, as specifically as we can."""
        legal = self.legal_actions(player)
        if action in legal:
            return None
        return self._reason(player, action) or f"{action} is not possible now"

    def _reason(self, player: Player, action: ErosionAction) -> str | None:
        game = self.game
        cat = game.catalog
        phase = self.phase
        if phase == "draw" and isinstance(action, Draw):
            caps = self.draw_caps(player)
            total = min(self.agenda[0].number, sum(caps))
            return (
                f"draw exactly {total} cards with at most WX{caps[0]} H{caps[1]} F{caps[2]} "
                "(draw limits, and the cards left in each deck)"
            )
        if phase != "turn":
            wanted = {
                "draw": "choose the cards to draw ('draw WX1 H1 F0')",
                "uplift": "uplift cards from your hand to the base of your mountain until "
                "you hold six ('uplift WX12')",
                "transport": "choose a rock in the River to transport ('transport F81')",
                "pay": "pay for the rock with a rock of the same type from your hand",
                "trigger": "choose the Atmosphere card to trigger ('trigger ATM3')",
                "fault": "choose a mountain with a weathered rock for the Earthquake Fault",
                "guess": "guess the Mohs hardness of the rock you drew ('guess 1' to 'guess 10')",
                "choose": "choose which tied seat takes the tie ('choose <seat>')",
            }[phase]
            if (
                isinstance(action, (Pay, Uplift))
                and cat.index[action.card] not in self.hands[player]
            ):
                return f"{action.card} is not in your hand"
            if isinstance(action, Pay) and phase == "pay":
                rock = cat.rock[self.agenda[0].card]
                return f"the River rock is {rock}: pay with a {rock} from your hand"
            if isinstance(action, Transport) and phase == "transport":
                c = cat.index[action.card]
                if c not in self.river:
                    return f"{action.card} is not in the River"
                return f"you have no {cat.rock[c]} in hand to pay for {action.card}"
            if isinstance(action, Trigger) and phase == "trigger":
                age = self.agenda[0].age
                if cat.atm_index[action.card] in self.triggered:
                    return f"{action.card} was already triggered this turn (once per turn)"
                return f"this trigger is for one {AGE_NAMES.get(age, 'any')} atmosphere"
            return f"now {wanted}"
        if isinstance(action, (Weather, Hillslope, Fluvial)):
            c = cat.index[action.card]
            if c not in self.hands[player]:
                return f"{action.card} is not in your hand"
            if isinstance(action, Fluvial):
                possible = matchable(self.river, _without(self.hands[player], c), cat.rock)
                if action.rocks != cat.n[c]:
                    return (
                        f"{action.card} transports exactly {cat.n[c]} rocks (one more only "
                        "with a Glacier on a mountain of 4000 m or more)"
                    )
                return (
                    f"{action.card} must transport exactly {action.rocks} rocks, but only "
                    f"{possible} River rocks can be paid for with matching rocks in your hand"
                )
            m = action.mountain
            icon = cat.icon[c]
            if icon is not None and (icon == "mountain") != self.counts_as_high(m):
                need = "under 4000 m" if icon == "hill" else "4000 m or more"
                return (
                    f"{action.card} has a {icon} icon: it plays only on mountains {need} at the "
                    f"start of your turn, and mountain {m} is {self.height_m(m)} m"
                )
            if isinstance(action, Weather):
                reach = self.weather_reach(player, c, m)
                if reach == 0:
                    return (
                        f"{action.card} cannot weather the top unweathered rock of mountain {m}"
                        " (a card may not be played unless it processes at least one rock)"
                    )
                if cat.kind[c] == "weather_types" and action.rocks:
                    return f"{action.card} weathers every unshielded rock it lists; omit x"
                if cat.kind[c] == "weather_n":
                    return f"{action.card} can weather x1 to x{reach} rocks of mountain {m}"
            else:
                if self.weathered[m] == 0:
                    return f"mountain {m} has no weathered rock to hillslope"
                return f"{action.card} can hillslope 1 to {self.hillslope_reach(c, m)} rocks"
        if isinstance(action, (Draw, Redraw)):
            hand = len(self.hands[player])
            wanted = HAND_SIZE - hand if isinstance(action, Draw) else HAND_SIZE
            if isinstance(action, Draw) and hand >= HAND_SIZE:
                return "your hand is full (6 cards)"
            caps = self.draw_caps(player)
            total = min(wanted, sum(caps))
            if total == 0:
                return "the draw limits (or empty decks) allow no card to be drawn"
            return (
                f"draw exactly {total} cards with at most WX{caps[0]} H{caps[1]} F{caps[2]} "
                "(draw limits, and the cards left in each deck)"
            )
        return None

    # -- transitions ------------------------------------------------------------------------
    def _next(self, player: Player, action: ErosionAction) -> ErosionState:
        state = self._act(player, action)
        return state._settle()

    def _act(self, player: Player, action: ErosionAction) -> ErosionState:
        cat = self.game.catalog
        if isinstance(action, Pass):
            return self._pass(player)
        if isinstance(action, (Weather, Hillslope, Fluvial)):
            c = cat.index[action.card]
            played = replace(
                self,
                hands=_set(self.hands, player, _without(self.hands[player], c)),
                discards=_set(self.discards, player, (*self.discards[player], c)),
                passes_in_row=0,
            )
            return played._process(player, c, action)
        if isinstance(action, (Draw, Redraw)):
            if self.agenda:
                return self._draw(player, action.counts)._pop()
            state = self
            if isinstance(action, Redraw):
                state = replace(
                    self,
                    hands=_set(self.hands, player, ()),
                    discards=_set(
                        self.discards, player, self.discards[player] + self.hands[player]
                    ),
                )
            state = state._draw(player, action.counts)
            return replace(state, passes_in_row=0, agenda=(Step("end", player),))
        if isinstance(action, Uplift):
            return self._uplift(player, cat.index[action.card])
        if isinstance(action, Transport):
            step = self.agenda[0]
            pay = Step("pay", player, step.number, cat.index[action.card])
            return replace(self, agenda=(pay, *self.agenda[1:]))
        if isinstance(action, Pay):
            return self._pay(player, cat.index[action.card])
        if isinstance(action, Trigger):
            a = cat.atm_index[action.card]
            return replace(
                self._pop(),
                aged=_set(self.aged, a, not self.aged[a]),
                triggered=(*self.triggered, a),
            )
        if isinstance(action, Fault):
            return self._pop()._erode(action.mountain, 1)
        if isinstance(action, Guess):
            return self._guess(player, action.hardness)
        if isinstance(action, Choose):
            return self._pop()._tie_decided((action.seat,))
        raise TypeError(f"not an Erosion action: {action!r}")

    def _pop(self) -> ErosionState:
        return replace(self, agenda=self.agenda[1:])

    def _process(self, player: Player, card: int, action: ErosionAction) -> ErosionState:
        """Resolve a WX, H or F play: its rocks, then what follows in the turn."""
        tail = (Step("refill", player), Step("end", player))
        if isinstance(action, Fluvial):
            return replace(self, agenda=(Step("transport", player, action.rocks), *tail))
        assert isinstance(action, (Weather, Hillslope))
        m = action.mountain
        if isinstance(action, Weather):
            rocks = action.rocks or self.weather_reach(player, card, m)
            state = replace(self, weathered=_set(self.weathered, m, self.weathered[m] + rocks))
        else:
            rocks = action.rocks
            state = self._erode(m, rocks)
        # 'For each card that you weather or hillslope, draw a card ... If you then have more
        # cards than 6, reduce your hand to 6 ... as uplifted rocks.'
        return replace(state, agenda=(Step("draw", player, rocks), Step("uplift", player), *tail))

    def _erode(self, mountain: int, rocks: int) -> ErosionState:
        """Move the top ``rocks`` (weathered) rocks of a mountain to the River."""
        top = self.mountains[mountain][:rocks]
        return replace(
            self,
            mountains=_set(self.mountains, mountain, self.mountains[mountain][rocks:]),
            weathered=_set(self.weathered, mountain, self.weathered[mountain] - rocks),
            river=self.river + top,
        )

    def _draw(self, player: Player, counts: tuple[int, int, int]) -> ErosionState:
        """Draw from the tops of the decks (all chosen before looking)."""
        decks = list(self.decks)
        drawn: list[int] = []
        for d, k in enumerate(counts):
            if k:
                drawn += decks[d][-k:]
                decks[d] = decks[d][:-k]
        hand = tuple(sorted(self.hands[player] + tuple(drawn)))
        state = replace(
            self, decks=(decks[0], decks[1], decks[2]), hands=_set(self.hands, player, hand)
        )
        return state._note_runout()

    def _note_runout(self) -> ErosionState:
        """Start counting passes once a deck has run out ('after the last card has been
        drawn from any deck')."""
        if self.runout_passes is None and not all(self.decks):
            return replace(self, runout_passes=(0,) * self.game.num_players)
        return self

    def _uplift(self, player: Player, card: int) -> ErosionState:
        """A card from the hand goes to the base of the mountain; 'upon uplift' architecture
        resolves at once (Advanced Rules)."""
        cat = self.game.catalog
        state = replace(
            self,
            hands=_set(self.hands, player, _without(self.hands[player], card)),
            mountains=_set(self.mountains, player, (*self.mountains[player], card)),
        )
        effect = cat.effect[card]
        if not self.game.options.advanced or effect is None:
            return state
        extra: tuple[Step, ...] = ()
        if effect.kind == "uplift_trigger":
            extra = tuple(Step("trigger", player, age=age) for age in effect.ages)
        elif effect.kind == "uplift_hillslope":
            extra = tuple(Step("fault", player) for _ in range(effect.rocks))
        return replace(state, agenda=extra + state.agenda)

    def _pay(self, player: Player, card: int) -> ErosionState:
        """The paid rock goes to the discards and the River rock to the delta."""
        step = self.agenda[0]
        river_rock = step.card
        rest = self.agenda[1:]
        if step.number > 1:
            rest = (Step("transport", player, step.number - 1), *rest)
        return replace(
            self,
            hands=_set(self.hands, player, _without(self.hands[player], card)),
            discards=_set(self.discards, player, (*self.discards[player], card)),
            river=_without(self.river, river_rock),
            deltas=_set(self.deltas, player, tuple(sorted((*self.deltas[player], river_rock)))),
            agenda=rest,
        )

    def _pass(self, player: Player) -> ErosionState:
        """A pass; the era ends when all players pass in a row, or when a seat passes the
        second time after a deck ran out."""
        n = self.game.num_players
        passes = self.passes_in_row + 1
        runout = self.runout_passes
        if runout is not None:
            runout = _set(runout, player, runout[player] + 1)
        state = replace(self, passes_in_row=passes, runout_passes=runout)
        if passes >= n:
            return state._end_era("all players passed in a row")
        if runout is not None and runout[player] >= 2:
            return state._end_era(
                f"{self.game.seat_name(player)} passed a second time after a deck ran out"
            )
        return replace(state, agenda=(Step("end", player),))

    def _end_turn(self) -> ErosionState:
        n = self.game.num_players
        return replace(
            self,
            agenda=self.agenda[1:],
            current=(self.current + 1) % n,
            triggered=(),
            turn=self.turn + 1,
        )

    def automatic_steps(
        self, player: Player, action: ErosionAction
    ) -> list[tuple[Player, ErosionAction]]:
        """The steps with a single possible choice that the engine takes itself once
        ``player`` has played ``action`` here (a forced draw, uplift or payment), in order:
        what a move log shows after the move, since the record holds only the move."""
        taken: list[tuple[Player, ErosionAction]] = []
        self._act(player, action)._settle(taken)
        return taken

    def _settle(self, taken: list[tuple[Player, ErosionAction]] | None = None) -> ErosionState:
        """Carry out every step that needs no decision; stop at the next real choice.
        ``taken``: a list that the single-choice actions taken are added to."""
        state = self
        while not state.over and state.agenda:
            step = state.agenda[0]
            kind = step.kind
            if kind == "end":
                state = state._end_turn()
            elif kind == "refill":
                # 'If your play empties your hand, draw 6 new cards, observing draw limits.'
                if state.hands[step.seat]:
                    state = state._pop()
                else:
                    draw = Step("draw", step.seat, HAND_SIZE)
                    state = replace(state, agenda=(draw, *state.agenda[1:]))
            elif kind == "uplift" and len(state.hands[step.seat]) <= HAND_SIZE:
                state = state._pop()
            elif kind == "settle_tie":
                state = state._pop()._settle_tie()
            else:
                options = state._step_actions(step)
                if len(options) > 1 or (options and not state.game.options.auto_steps):
                    break
                if options and taken is not None:
                    taken.append((step.seat, options[0]))
                state = state._act(step.seat, options[0]) if options else state._pop()
        return state._claim_legends()

    # -- legends (variant) ------------------------------------------------------------------
    def legend_met(self, legend: int, seat: int) -> bool:
        """A legend's condition: the height, and the capstone rock type (basic claims), or
        both listed types as the top two rocks in any order (advanced claims)."""
        card = self.game.legend_cards[legend]
        rocks = self.mountains[seat]
        if self.height_m(seat) < card.condition.min_height_m or not rocks:
            return False
        cat = self.game.catalog
        wanted = card.condition.rocks
        if self.game.options.legend == "advanced":
            return len(rocks) >= 2 and sorted(cat.rock[r] for r in rocks[:2]) == sorted(wanted)
        return cat.rock[rocks[0]] in wanted

    def _claim_legends(self) -> ErosionState:
        if not self.game.legend_cards or self.over:
            return self
        n = self.game.num_players
        owners = list(self.legends)
        for i, owner in enumerate(owners):
            if owner >= 0:
                continue
            for k in range(n):
                seat = (self.current + k) % n
                if self.legend_met(i, seat):
                    owners[i] = seat
                    break
        owned = tuple(owners)
        return self if owned == self.legends else replace(self, legends=owned)

    def challenge_met(self, seat: int) -> bool:
        """Whether the seat meets its challenge card's condition now."""
        if not self.challenges:
            return False
        cond = self.game.challenge_cards[self.challenges[seat]].condition
        cat = self.game.catalog
        rocks, w = self.mountains[seat], self.weathered[seat]
        if cond.kind == "height_at_least":
            return self.height_m(seat) >= cond.metres
        if cond.kind == "delta_at_least":
            return len(self.deltas[seat]) >= cond.rocks
        if cond.kind == "weathered_fossils_at_least":
            return sum(cat.fossil[r] for r in rocks[:w]) >= cond.rocks
        if cond.kind == "class_in_mountain_at_least":
            return sum(ROCK_CLASS[cat.rock[r]] == cond.rock_class for r in rocks) >= cond.rocks
        if cond.kind == "unweathered_at_least":
            return len(rocks) - w >= cond.rocks
        return bool(rocks) and w == 0

    # -- scoring and eras -------------------------------------------------------------------
    def points(self, seat: int, hidden: bool = True) -> int:
        """What the seat would score if the era ended now: 1 per unweathered rock, 2 per
        delta rock, 3 per weathered fossil rock (plus Reefs, legends and the challenge).
        ``hidden=False`` leaves out a challenge card not yet shown to everyone."""
        cat = self.game.catalog
        rocks, w = self.mountains[seat], self.weathered[seat]
        total = ROCK_POINTS * (len(rocks) - w) + DELTA_POINTS * len(self.deltas[seat])
        fossil = cat.fossil
        for r in rocks[:w]:
            if fossil[r]:
                total += FOSSIL_POINTS
        if self.game.options.advanced:
            total += sum(e.points for e in self._architecture(seat, "score_bonus"))
        if self.legends:
            total += sum(
                self.game.legend_cards[i].points
                for i, owner in enumerate(self.legends)
                if owner == seat
            )
        if self.challenges and (hidden or self.challenges_shown) and self.challenge_met(seat):
            total += self.game.challenge_cards[self.challenges[seat]].points
        return total

    def _end_era(self, reason: str) -> ErosionState:
        """Score the era; then break a tie for the next era's start, or for the win."""
        n = self.game.num_players
        era = tuple(self.points(p) for p in range(n))
        totals = tuple(a + b for a, b in zip(self.scores, era, strict=True))
        state = replace(
            self,
            scores=totals,
            era_scores=(*self.era_scores, era),
            challenges_shown=bool(self.challenges),
            agenda=(),
            end_reason=reason,
        )
        final = self.era >= self.game.eras
        target = max(totals) if final else min(totals)
        tied = tuple(p for p in range(n) if totals[p] == target)
        purpose: Literal["start", "win"] = "win" if final else "start"
        if len(tied) == 1:
            return state._tie_decided(tied, purpose)
        # 'have the competing players draw a card at random from their own hands'
        rng = make_rng(self.seed, "erosion", "tiebreak", self.era)
        hands = list(state.hands)
        cards = []
        for p in tied:
            if hands[p]:
                card = rng.choice(hands[p])
                hands[p] = _without(hands[p], card)
                cards.append(card)
            else:
                cards.append(-1)
        tie = Tie(purpose, tied, tuple(cards), (0,) * len(tied))
        guessers = [p for p, c in zip(tied, cards, strict=True) if c >= 0]
        steps = tuple(Step("guess", p) for p in guessers) if len(guessers) > 1 else ()
        return replace(state, hands=tuple(hands), tie=tie, agenda=(*steps, Step("settle_tie", -1)))

    def _guess(self, player: Player, hardness: int) -> ErosionState:
        assert self.tie is not None
        i = self.tie.seats.index(player)
        tie = self.tie._replace(guesses=_set(self.tie.guesses, i, hardness))
        return replace(self._pop(), tie=tie)

    def _settle_tie(self) -> ErosionState:
        """'The player guessing the closest chooses the tie'; equally close guessers stay
        tied (a seat with no card to draw cannot win the tie-breaker)."""
        tie = self.tie
        assert tie is not None
        cat = self.game.catalog
        holders = [i for i, c in enumerate(tie.cards) if c >= 0]
        if not holders:
            return self._tie_decided(tie.seats)
        if len(holders) == 1:
            best = holders
        else:
            miss = {i: abs(tie.guesses[i] - cat.mohs[tie.cards[i]]) for i in holders}
            closest = min(miss.values())
            best = [i for i in holders if miss[i] == closest]
        if len(best) > 1:
            return self._tie_decided(tuple(tie.seats[i] for i in best))
        chooser = tie.seats[best[0]]
        return replace(self, agenda=(Step("choose", chooser),))

    def _tie_decided(
        self, seats: tuple[int, ...], purpose: Literal["start", "win"] | None = None
    ) -> ErosionState:
        """The tie is settled in favour of ``seats`` (one seat, or several still tied)."""
        purpose = purpose or (self.tie.purpose if self.tie else "win")
        state = self._return_tie_cards()
        if purpose == "win":
            return replace(state, winners=seats, over=True, agenda=())
        if len(seats) > 1:
            # Still tied after the tie-breaker: the start player is drawn among them, as the
            # first era's start player was.
            rng = make_rng(self.seed, "erosion", "start", self.era)
            seats = (rng.choice(seats),)
        return state._new_era(seats[0])

    def _return_tie_cards(self) -> ErosionState:
        if self.tie is None:
            return self
        hands = list(self.hands)
        for p, c in zip(self.tie.seats, self.tie.cards, strict=True):
            if c >= 0:
                hands[p] = tuple(sorted((*hands[p], c)))
        return replace(self, hands=tuple(hands), tie=None)

    def _new_era(self, start: int) -> ErosionState:
        """'All cards except the Atmospheres and mountains ... are separated into 3 process
        decks and shuffled/arranged as in Set Up'; new hands of 3 WX, 2 H and 1 F are dealt
        one card at a time from the starting player; the lowest scorer starts."""
        cat = self.game.catalog
        n = self.game.num_players
        loose = [c for pile in (*self.hands, *self.discards, *self.deltas) for c in pile]
        loose += [*self.river, *self.decks[WX], *self.decks[H], *self.decks[F]]
        era = self.era + 1
        decks: list[list[int]] = [[], [], []]
        for c in sorted(loose):
            decks[cat.deck[c]].append(c)
        for d in (WX, H, F):
            make_rng(self.seed, "erosion", "era", era, "deck", d).shuffle(decks[d])
        hands: list[list[int]] = [[] for _ in range(n)]
        for d, k in enumerate(STARTING_MIX):
            for _ in range(k):
                for j in range(n):
                    if decks[d]:
                        hands[(start + j) % n].append(decks[d].pop())
        state = replace(
            self,
            era=era,
            current=start,
            decks=(tuple(decks[0]), tuple(decks[1]), tuple(decks[2])),
            hands=tuple(tuple(sorted(h)) for h in hands),
            deltas=((),) * n,
            discards=((),) * n,
            river=(),
            agenda=(),
            triggered=(),
            passes_in_row=0,
            runout_passes=None,
            turn=self.turn + 1,
        )
        return state._note_runout()

    @property
    def returns(self) -> tuple[float, ...]:
        """+1 for the winner and -1 for the others; several seats still tied after the
        tie-breaker share first place with 0."""
        n = self.game.num_players
        if not self.over:
            return (0.0,) * n
        if len(self.winners) == 1:
            return tuple(1.0 if p in self.winners else -1.0 for p in range(n))
        return tuple(0.0 if p in self.winners else -1.0 for p in range(n))

    @property
    def result(self) -> dict[str, Any]:
        """Scores per era and in total, the winner(s), and why the last era ended."""
        game = self.game
        n = game.num_players
        winner = self.winners[0] if len(self.winners) == 1 else None
        return {
            "over": self.over,
            "reason": self.end_reason or None,
            "era": self.era,
            "eras": game.eras,
            "scores": list(self.scores),
            "era_scores": [list(s) for s in self.era_scores],
            "points_now": [self.points(p, hidden=False) for p in range(n)],
            "winner": winner,
            "winner_name": None if winner is None else game.seat_name(winner),
            "winners": list(self.winners),
        }

    # -- what a seat sees -------------------------------------------------------------------
    def view(self, player: Player | None) -> dict[str, Any]:
        """Public: mountains, River, discards, Atmospheres, draw limits, whether a deck is
        empty, hand and delta sizes, which deck each hand's cards came from. Private: your
        hand, your delta and your challenge card."""
        game = self.game
        cat = game.catalog
        ids = cat.ids
        n = game.num_players
        step = self.agenda[0] if self.agenda else None
        return {
            "game": game.name,
            "seat": player,
            "seats": [game.seat_name(p) for p in range(n)],
            "advanced": game.options.advanced,
            "legend": game.options.legend,
            "era": self.era,
            "eras": game.eras,
            "turn": self.turn,
            "current": self.current,
            "to_act": list(self.to_act),
            "phase": self.phase,
            "step": None
            if step is None
            else {
                "kind": step.kind,
                "seat": step.seat,
                "number": step.number,
                "card": ids[step.card] if step.card >= 0 else None,
                "age": step.age or None,
            },
            "mountains": [
                {
                    "rocks": [ids[c] for c in self.mountains[p]],
                    "weathered": self.weathered[p],
                    "height_m": self.height_m(p),
                }
                for p in range(n)
            ],
            "river": [ids[c] for c in self.river],
            "discards": [[ids[c] for c in pile] for pile in self.discards],
            "deltas": [
                {
                    "count": len(self.deltas[p]),
                    "cards": [ids[c] for c in self.deltas[p]] if p == player else None,
                }
                for p in range(n)
            ],
            "hands": [
                {
                    "count": len(self.hands[p]),
                    "by_deck": dict(zip(PROCESS_DECKS, self._hand_classes(p), strict=True)),
                    "cards": [ids[c] for c in self.hands[p]] if p == player else None,
                }
                for p in range(n)
            ],
            "decks": {
                name: {"empty": not self.decks[d], "draw_limit": self.draw_limit(d)}
                for d, name in enumerate(PROCESS_DECKS)
            },
            "draw_limits": None
            if player is None
            else dict(
                zip(PROCESS_DECKS, (self.draw_limit(d, player) for d in range(3)), strict=True)
            ),
            "atmosphere": [
                {
                    "card": atm.id,
                    "age": atm.age,
                    "under": atm.under,
                    "showing": "age" if self.aged[i] else "normal",
                    "triggered": i in self.triggered,
                }
                for i, atm in enumerate(cat.atmospheres)
            ],
            "passes_in_row": self.passes_in_row,
            "runout_passes": None if self.runout_passes is None else list(self.runout_passes),
            "legends": [
                {"card": card.id, "owner": None if o < 0 else o}
                for card, o in zip(game.legend_cards, self.legends, strict=True)
            ],
            "challenges": [
                game.challenge_cards[c].id if (self.challenges_shown or p == player) else None
                for p, c in enumerate(self.challenges)
            ],
            "tiebreak": None
            if self.tie is None
            else {
                "purpose": self.tie.purpose,
                "seats": list(self.tie.seats),
                "cards": [ids[c] if c >= 0 else None for c in self.tie.cards],
                "guesses": [g or None for g in self.tie.guesses],
            },
            "result": self.result,
        }

    def _hand_classes(self, seat: int) -> tuple[int, int, int]:
        deck = self.game.catalog.deck
        counts = [0, 0, 0]
        for c in self.hands[seat]:
            counts[deck[c]] += 1
        return (counts[0], counts[1], counts[2])

    # -- hidden information -----------------------------------------------------------------
    def determinize(self, player: Player, rng: random.Random) -> ErosionState:
        """Resample what ``player`` cannot see: the other hands (keeping how many cards of
        each deck they hold), the decks' order and contents (keeping their sizes and decks),
        the other deltas (keeping their sizes), the other challenge cards while hidden, and
        the seed of later chance events. A seat in the middle of a Fluvial play is dealt a
        hand that can pay for the rocks it still has to transport.

        The unknown cards are pooled in sorted order before shuffling, so two states that
        look the same to ``player`` give the same samples for the same ``rng``.
        """
        game = self.game
        cat = game.catalog
        n = game.num_players
        others = [p for p in range(n) if p != player]
        pool: list[list[int]] = [list(self.decks[d]) for d in (WX, H, F)]
        for p in others:
            for c in (*self.hands[p], *self.deltas[p]):
                pool[cat.deck[c]].append(c)
        for cards in pool:
            cards.sort()
        acting = self.agenda[0] if self.agenda else None
        forced: tuple[int, list[int]] = (-1, [])
        if acting is not None and acting.kind in ("transport", "pay") and acting.seat != player:
            forced = (acting.seat, self._payment_sample(acting, pool, rng))
        hands, decks, deltas = self._deal_unknown(pool, others, rng, forced)
        challenges = self.challenges
        if challenges and not self.challenges_shown:
            free = [c for c in range(len(game.challenge_cards)) if c != challenges[player]]
            rng.shuffle(free)
            challenges = tuple(challenges[p] if p == player else free.pop() for p in range(n))
        return replace(
            self,
            seed=derive_seed(rng.getrandbits(62), "determinized"),
            hands=hands,
            decks=decks,
            deltas=deltas,
            challenges=challenges,
        )

    def _payment_sample(self, step: Step, pool: list[list[int]], rng: random.Random) -> list[int]:
        """Cards a seat in the middle of a Fluvial play must hold to pay for what is left.

        Rock types nest in classes (decks), so picking River rocks greedily in a random
        order, whenever the unknown cards of that type and the seat's known count of that
        deck's cards still allow it, always finds a full payment when one exists (a laminar
        matroid); the true hand proves that one does.
        """
        cat = self.game.catalog
        rock, deck = cat.rock, cat.deck
        by_type: dict[str, list[int]] = {}
        for cards in pool:
            for c in cards:
                by_type.setdefault(rock[c], []).append(c)
        room = list(self._hand_classes(step.seat))
        river = list(self.river)
        wanted: list[int] = []  # a River rock (or the one being paid for) per card to hold
        owed = step.number
        if step.kind == "pay":
            wanted.append(step.card)
            room[deck[step.card]] -= 1
            river.remove(step.card)
            owed -= 1
        rng.shuffle(river)
        used = Counter(rock[c] for c in wanted)
        for c in river:
            if len(wanted) - (step.kind == "pay") >= owed:
                break
            t = rock[c]
            if used[t] < len(by_type.get(t, ())) and room[deck[c]] > 0:
                used[t] += 1
                room[deck[c]] -= 1
                wanted.append(c)
        out: list[int] = []
        for t, k in used.items():
            out += rng.sample(by_type[t], k)
        return out

    def _deal_unknown(
        self,
        pool: list[list[int]],
        others: list[int],
        rng: random.Random,
        forced: tuple[int, list[int]],
    ) -> tuple[
        tuple[tuple[int, ...], ...],
        tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]],
        tuple[tuple[int, ...], ...],
    ]:
        """Deal the pooled unknown cards back: decks and hands by deck, deltas from the rest."""
        deck_of = self.game.catalog.deck
        hands = list(self.hands)
        deltas = list(self.deltas)
        seat, held = forced
        held_set = set(held)
        wanted = {p: list(self._hand_classes(p)) for p in others}
        new_hands: dict[int, list[int]] = {p: [] for p in others}
        if seat >= 0:
            new_hands[seat] = list(held)
            for c in held:
                wanted[seat][deck_of[c]] -= 1
        leftovers: list[int] = []
        decks: list[tuple[int, ...]] = []
        for d in (WX, H, F):
            cards = [c for c in pool[d] if c not in held_set] if held_set else pool[d][:]
            rng.shuffle(cards)
            at = len(self.decks[d])
            decks.append(tuple(cards[:at]))
            for p in others:
                k = wanted[p][d]
                if k:
                    new_hands[p] += cards[at : at + k]
                    at += k
            leftovers += cards[at:]
        if len(leftovers) > 1:
            rng.shuffle(leftovers)
        at = 0
        for p in others:
            hands[p] = tuple(sorted(new_hands[p]))
            k = len(self.deltas[p])
            if k:
                deltas[p] = tuple(sorted(leftovers[at : at + k]))
                at += k
        return tuple(hands), (decks[0], decks[1], decks[2]), tuple(deltas)

    def can_pay(self, seat: int, hand: tuple[int, ...]) -> bool:
        """Whether ``hand`` can pay for the rest of the seat's Fluvial play."""
        step = self.agenda[0]
        rock = self.game.catalog.rock
        if step.kind == "pay":
            owed = [c for c in hand if rock[c] == rock[step.card]]
            if not owed:
                return False
            rest_hand = _without(hand, owed[0])
            rest_river = _without(self.river, step.card)
            return matchable(rest_river, rest_hand, rock) >= step.number - 1
        return matchable(self.river, hand, rock) >= step.number
