"""The pieces of The Triangle Clock: the game's numbers, the Final Match items, the
actions with their notation, the phases of a round, a seat, the card supply and the record
of a finished round."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from meeple.core.game import Game, Player, seat_text
from meeple.core.rng import make_rng
from meeple.games.triangle_clock.cards import (
    CARD_NAMES,
    CARDS,
    SYMBOL_NAMES,
    Card,
    Symbol,
    palette_swap,
    right_angle,
    symbol_label,
)
from meeple.games.triangle_clock.hands import TIE_BREAK_READS, Ranking

ROUNDS = 32
"""'The game continues until 32 rounds have passed.'"""
BLOCK = 16
"""Rounds per shared-symbol order: 'after 16 hands, this is done again for rounds 17 to 32'."""
HAND_SIZE = 4
"""'At the start of the first round each player is dealt 4 cards.'"""
REPLACEMENTS = 2
"""'After this, players are dealt 2 replacement cards.'"""
SEATS: tuple[Player, ...] = (0, 1)
SEAT_NAMES = ("Tick", "Tock")
LETTERS = "ABCDEFGH"
"""A hand's symbols by letter: A and B on the first card, C and D on the second, ..."""


# -- items ----------------------------------------------------------------------------------
class Item(IntEnum):
    """The seed's Final Match items."""

    PALETTE_SWAP = 0
    RIGHT_ANGLE = 1
    MULLIGAN = 2

    @property
    def label(self) -> str:
        """Notation: ``palette-swap``, ``right-angle``, ``mulligan``."""
        return self.name.lower().replace("_", "-")

    @property
    def title(self) -> str:
        """As printed: ``Palette Swap``."""
        return self.name.replace("_", " ").title()


ITEM_LABELS: tuple[str, ...] = tuple(i.label for i in Item)
"""Each item's notation, by item."""
ITEM_USES: tuple[int, ...] = (3, 3, 2)
"""Uses per game: Palette Swap 3, Right Angle 3, Mulligan 2."""

_ITEM_WORDS = {
    "palette-swap": Item.PALETTE_SWAP,
    "paletteswap": Item.PALETTE_SWAP,
    "palette": Item.PALETTE_SWAP,
    "swap": Item.PALETTE_SWAP,
    "ps": Item.PALETTE_SWAP,
    "right-angle": Item.RIGHT_ANGLE,
    "rightangle": Item.RIGHT_ANGLE,
    "right": Item.RIGHT_ANGLE,
    "rotate": Item.RIGHT_ANGLE,
    "ra": Item.RIGHT_ANGLE,
    "mulligan": Item.MULLIGAN,
    "mu": Item.MULLIGAN,
}

SEED_ITEMS = "palette-swap+right-angle/mulligan"
"""The seed's final: 'Danny has Palette Swap and Right Angle, Uri has Mulligan'."""


def parse_items(text: str) -> tuple[frozenset[Item], frozenset[Item]]:
    """Read an allocation ``seat0/seat1``, each seat ``none``, ``all`` or items joined by
    ``+``."""
    halves = text.strip().lower().split("/")
    if len(halves) != 2:
        raise ValueError(
            f"{text!r} is not an allocation; write seat 0's items / seat 1's items, "
            f"e.g. {SEED_ITEMS}, or none/none for no items"
        )
    out: list[frozenset[Item]] = []
    for half in halves:
        words = [w.strip() for w in half.split("+")]
        if words in (["none"], [""]):
            out.append(frozenset())
            continue
        if words == ["all"]:
            out.append(frozenset(Item))
            continue
        items = []
        for word in words:
            if word not in _ITEM_WORDS:
                raise ValueError(
                    f"{word!r} is not an item; the items are palette-swap, right-angle, mulligan"
                )
            items.append(_ITEM_WORDS[word])
        out.append(frozenset(items))
    return out[0], out[1]


def items_text(holdings: tuple[frozenset[Item], frozenset[Item]]) -> str:
    """The canonical allocation text, as :func:`parse_items` reads it."""
    return "/".join("+".join(i.label for i in sorted(h)) or "none" for h in holdings)


# -- actions --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Pick:
    """Reveal the symbol with this letter, perhaps changed by items: ``C +right-angle``.

    Letters name the symbols of a hand: A and B are the first card's, C and D the second's,
    and so on (each card's symbols in tie-break order).
    """

    letter: int
    palette_swap: bool = False
    right_angle: bool = False

    @property
    def slot(self) -> int:
        """Which card of the hand (0 to 3)."""
        return self.letter >> 1

    @property
    def side(self) -> int:
        """Which symbol of the card (0: the one closer to 12 o'clock)."""
        return self.letter & 1

    @property
    def items(self) -> tuple[Item, ...]:
        """The items used on this symbol."""
        return (Item.PALETTE_SWAP,) * self.palette_swap + (Item.RIGHT_ANGLE,) * self.right_angle

    def changed(self, s: Symbol) -> Symbol:
        """``s`` as it is revealed once this pick's items have changed it."""
        if self.palette_swap:
            s = palette_swap(s)
        if self.right_angle:
            s = right_angle(s)
        return s

    def __str__(self) -> str:
        return LETTERS[self.letter] + "".join(f" +{i.label}" for i in self.items)


@dataclass(frozen=True, slots=True)
class Mulligan:
    """Scrap your four cards and draw four new ones: ``mulligan``."""

    def __str__(self) -> str:
        return "mulligan"


@dataclass(frozen=True, slots=True)
class Memorised:
    """Done looking at the order of shared symbols: ``memorised``."""

    def __str__(self) -> str:
        return "memorised"


TriangleClockAction = Pick | Mulligan | Memorised
MULLIGAN = Mulligan()
MEMORISED = Memorised()

# Possessive quantifiers: the nested repetition must never backtrack, or a typo of a few dozen
# characters takes exponential time to reject.
_PICK_RE = re.compile(r"^\s*+([A-Ha-h])(?=$|[\s+])\s*+((?:\+?\s*+[A-Za-z-]++\s*+)*+)$")


# -- phases, seats, rounds ------------------------------------------------------------------
class Phase(IntEnum):
    """Where a round stands."""

    MEMORISE = 0
    """The order of shared symbols is shown (rounds 1 and 17, before the shared symbol)."""
    FIRST = 1
    """'Both players each choose 1 symbol from a card.'"""
    SECOND = 2
    """'Both players each choose 1 symbol from another card.'"""
    THIRD = 3
    """'Both players each choose 1 symbol from either of the 2 cards they have played.'"""
    OVER = 4

    @property
    def label(self) -> str:
        """``memorise``, ``first``, ``second``, ``third``, ``over``."""
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's cards, this round's revealed picks, item uses left and score."""

    hand: tuple[Card, ...]
    """Cards by slot; a card played this round stays in its slot until the round ends."""
    picks: tuple[Pick, ...]
    """This round's picks that have been revealed, in order."""
    uses: tuple[int, ...]
    """Uses left of each :class:`Item` (0 for an item the seat does not hold)."""
    score: int

    def symbol_at(self, letter: int) -> Symbol:
        """The printed symbol with this letter in the hand."""
        return CARDS[self.hand[letter >> 1]][letter & 1]

    def revealed(self, pick: Pick) -> Symbol:
        """The symbol a pick shows (items applied)."""
        return pick.changed(self.symbol_at(pick.letter))

    def used_this_round(self, item: Item) -> bool:
        """Palette Swap and Right Angle 'may not be used more than once on a single round'."""
        if item is Item.PALETTE_SWAP:
            return any(p.palette_swap for p in self.picks)
        return any(p.right_angle for p in self.picks)

    def may_use(self, item: Item) -> bool:
        """The seat holds the item, has a use left, and has not used it this round."""
        return self.uses[item] > 0 and not self.used_this_round(item)

    def letters_open(self, phase: Phase) -> tuple[int, ...]:
        """The letters this seat may pick from in a choosing phase."""
        if phase is Phase.FIRST:
            return tuple(range(2 * len(self.hand)))
        first = self.picks[0]
        if phase is Phase.SECOND:
            return tuple(k for k in range(2 * len(self.hand)) if k >> 1 != first.slot)
        # the symbols not yet used of the two played cards
        return (first.letter ^ 1, self.picks[1].letter ^ 1)

    def reveal(self, pick: Pick) -> Seat:
        """The seat once ``pick`` is revealed: the pick recorded, its items spent."""
        uses = list(self.uses)
        for item in pick.items:
            uses[item] -= 1
        return Seat(self.hand, (*self.picks, pick), tuple(uses), self.score)

    def played_cards(self) -> tuple[Card, ...]:
        """The cards played this round, in the order they were first picked from."""
        slots = [p.slot for p in self.picks]
        return tuple(self.hand[s] for s in dict.fromkeys(slots))


@dataclass(frozen=True, slots=True)
class Supply:
    """The draw deck (top card first) and the face-up discard pile (kept sorted)."""

    deck: tuple[Card, ...]
    discards: tuple[Card, ...]
    reshuffles: int
    """How many times the discards have been shuffled into a new deck."""

    def draw(self, n: int, seed: int) -> tuple[tuple[Card, ...], Supply]:
        """The top ``n`` cards; an empty deck first becomes the shuffled discard pile."""
        drawn = self.deck[:n]
        supply = Supply(self.deck[n:], self.discards, self.reshuffles)
        if len(drawn) < n:
            deck = list(self.discards)
            make_rng(seed, "reshuffle", self.reshuffles + 1).shuffle(deck)
            supply = Supply(tuple(deck), (), self.reshuffles + 1)
            more, supply = supply.draw(n - len(drawn), seed)
            drawn += more
        return drawn, supply

    def discard(self, cards: tuple[Card, ...]) -> Supply:
        """Cards onto the discard pile."""
        return Supply(self.deck, tuple(sorted(self.discards + cards)), self.reshuffles)

    def shuffle_in(self, cards: tuple[Card, ...], rng: random.Random) -> Supply:
        """Cards added to the deck, and the deck shuffled."""
        deck = list(self.deck + cards)
        rng.shuffle(deck)
        return Supply(tuple(deck), self.discards, self.reshuffles)


def with_seat(seats: tuple[Seat, Seat], player: Player, seat: Seat) -> tuple[Seat, Seat]:
    """The two seats with ``player``'s replaced by ``seat``."""
    return (seat, seats[1]) if player == 0 else (seats[0], seat)


@dataclass(frozen=True, slots=True)
class SeatRound:
    """What one seat played in a finished round (all public once the round is compared)."""

    cards: tuple[Card, ...]
    """The two cards played, discarded face up."""
    picks: tuple[Pick, ...]
    hand: tuple[Symbol, ...]
    """The hand compared: the shared symbol, then the three revealed symbols."""
    rank: str
    strength: int


@dataclass(frozen=True)
class SeatNamed:
    """A seat named in a round's telling (:meth:`RoundResult.told`): the terminal writes it
    in the seat's colour, a plain log as ``Tick (seat 0)``."""

    player: Player


Told = tuple[str | Symbol | SeatNamed, ...]
"""A line of a round's telling: words, symbols and seats."""


def told_plainly(line: Told, game: Game[Any, Any, Any]) -> str:
    """A line of a round's telling as plain text: symbols as glyph and notation (``▼Ss``),
    seats as every log names them (``Tick (seat 0)``: :func:`meeple.core.game.seat_text`)."""
    return "".join(
        part
        if isinstance(part, str)
        else seat_text(game, part.player)
        if isinstance(part, SeatNamed)
        else symbol_label(part)
        for part in line
    )


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round: the shared symbol, each seat's play, who won and the points."""

    round: int
    shared: Symbol
    seats: tuple[SeatRound, SeatRound]
    winner: Player | None
    points: int
    _names: tuple[Any, ...] = field(init=False, compare=False, hash=False, repr=False)
    _public_key: tuple[Any, ...] = field(init=False, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        # Every later view shows this round, and search keys every later state by it:
        # name its cards and symbols, and make its key, once.
        names = tuple(
            (
                tuple(CARD_NAMES[c] for c in s.cards),
                tuple(SYMBOL_NAMES[x] for x in s.hand[1:]),
                tuple(_LABELS[p.palette_swap + 2 * p.right_angle] for p in s.picks),
            )
            for s in self.seats
        )
        object.__setattr__(self, "_names", names)
        public_key = (
            self.round,
            self.shared,
            self.winner,
            self.points,
            tuple(
                (s.cards, s.hand[1:], labels, s.rank, s.strength)
                for s, (_, _, labels) in zip(self.seats, names, strict=True)
            ),
        )
        object.__setattr__(self, "_public_key", public_key)

    def public_key(self) -> tuple[Any, ...]:
        """What :meth:`view` shows, as plain tuples (for search's information keys)."""
        return self._public_key

    def tie_break(self, ranking: Ranking) -> tuple[str | Symbol, ...] | None:
        """Why one of two equal ranks scored, as words and symbols (each reader writes a
        symbol its own way): ``("Equal ranks, tie-break rank-first (the rank's symbols,
        best first): Tock's ", ◹NEc, " beats Tick's ", ▼Ss, " (closer to 12 o'clock
        clockwise).")``. None where the ranks differ (the rank decided) or nobody scored."""
        if self.winner is None:
            return None
        decider = ranking.decider(self.seats[0].hand, self.seats[1].hand)
        if decider is None:
            return None
        # Same direction: only the colour differs, and solid comes first.
        same_way = decider.higher >> 1 == decider.lower >> 1
        return (
            f"Equal ranks, tie-break {ranking.tie_break} ({TIE_BREAK_READS[decider.part]}): "
            f"{SEAT_NAMES[self.winner]}'s ",
            decider.higher,
            f" beats {SEAT_NAMES[1 - self.winner]}'s ",
            decider.lower,
            " (solid before clear)." if same_way else " (closer to 12 o'clock clockwise).",
        )

    def told(self, ranking: Ranking, marks: bool = False) -> list[Told]:
        """The round in sentences, a line each, as the board tells it: the shared symbol,
        each seat's hand with its rank and strength, where the ranks were equal why the
        winner's hand was higher, and who scored what. Symbols and seats are parts that
        each reader writes its own way (:func:`told_plainly`: glyph and notation).

        ``marks``: each revealed symbol followed by the items used on it (``▲Ns
        +palette-swap``), as the terminal's board marks them (its legend promises the mark
        on every revealed symbol; the round's last symbols are shown nowhere else), and
        under each hand the two cards played, both sides (the last round is public in full,
        its cards too, and the discard pile's faces are shown nowhere). A log leaves them
        out: its lines of the picks above say them already."""
        lines: list[Told] = [(f"Round {self.round}: shared ", self.shared)]
        for p, play in enumerate(self.seats):
            hand: list[str | Symbol] = []
            for k, symbol in enumerate(play.hand):
                hand += [" ", symbol] if k else [symbol]
                if marks and k:  # play.hand[k] is what play.picks[k - 1] revealed
                    hand += [f" +{label}" for label in item_labels(play.picks[k - 1])]
            lines.append(
                ("  ", SeatNamed(p), "  ", *hand, f"  {play.rank} (strength {play.strength})")
            )
            if marks:
                played: list[str | Symbol] = ["    cards played"]
                for card in play.cards:
                    played += [" ", CARDS[card][0], "/", CARDS[card][1]]
                lines.append(tuple(played))
        if self.winner is None:
            lines.append(("  Equal hands: nobody scores.",))
            return lines
        reason = self.tie_break(ranking)
        if reason is not None:
            lines.append(("  ", *reason))
        lines.append(
            (
                "  ",
                SeatNamed(self.winner),
                f" ranks higher and scores {self.points} (the strength of the other hand).",
            )
        )
        return lines

    def view(self, ranking: Ranking) -> dict[str, Any]:
        """The round as everybody saw it: the cards each seat played, the symbols it
        revealed and the items used on them, the ranks, who won and the points, and where
        the ranks were equal why the winner's hand was higher (:meth:`tie_break`, symbols
        written as glyph and notation)."""
        reason = self.tie_break(ranking)
        return {
            "round": self.round,
            "shared": SYMBOL_NAMES[self.shared],
            "winner": self.winner,
            "points": self.points,
            "tie_break": None
            if reason is None
            else "".join(part if isinstance(part, str) else symbol_label(part) for part in reason),
            "seats": [
                {
                    "cards": list(cards),
                    "revealed": list(revealed),
                    "items": [list(i) for i in items],
                    "rank": s.rank,
                    "strength": s.strength,
                }
                for s, (cards, revealed, items) in zip(self.seats, self._names, strict=True)
            ],
        }


_LABELS = ((), ("palette-swap",), ("right-angle",), ("palette-swap", "right-angle"))


def item_labels(pick: Pick) -> list[str]:
    """The labels of the items a pick uses, as the notation writes them."""
    return list(_LABELS[pick.palette_swap + 2 * pick.right_angle])
