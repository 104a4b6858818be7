"""Hands of The Triangle Clock: how four symbols rank, and which of two hands is higher.

"Both players compare their hands which are made up of the 3 symbols they played plus the
shared symbol." The ranks come from a table that ships as data (``ranking.toml`` beside this
module, validated on load) so that a designer can change them without touching code:

* a **kind** of size X: X triangles pointing the same direction ("A 4 of a Kind is where all
  triangles point the same direction");
* an **X Set Rotate**: X different directions that "you can go between ... with a same angle
  rotation", that is a chain d, d+k, d+2k (, d+3k) around the clock for one step k;
* a **Flush** rank: "all symbols involved in the hand's rank have the same colour";
* **nothing**: the last rank, which every hand satisfies.

A hand takes the highest rank it satisfies. "If 2 hands are of the same rank, the one which
contains the symbol closest to 12 o'clock clockwise is ranked higher": by default the symbols
that make the rank are compared first, best first (N before NE ..., solid before clear), then
the other symbols of the hand; option ``tie_break = "whole-hand"`` compares the four symbols
of the hands instead. Hands that are still equal tie.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from itertools import combinations
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from meeple.core.errors import MeepleError, OptionError, problem_words
from meeple.core.files import Unreadable, parse_toml, read_text_capped
from meeple.core.game import shorten
from meeple.core.options import content_digest
from meeple.core.text import ShownText, unprintable
from meeple.games.triangle_clock.cards import (
    CARDS,
    NUM_CARDS,
    NUM_SYMBOLS,
    Card,
    Symbol,
    symbol_label,
)

TieBreak = Literal["rank-first", "whole-hand"]
DEFAULT_RANKING = "ranking.toml"


class RankingTableError(MeepleError):
    """A ranking table file that cannot be read or does not describe a ranking."""


MAX_STRENGTH = 1_000
"""The most points a rank may score (the shipped table's strongest scores 10): a seat's
score is a sum of at most 32 rounds' strengths, which the compiled rules hold in 16 bits
(32 x 1,000 = 32,000 fits)."""


class RankSpec(ShownText):
    """One row of the ranking table."""

    # Strict: size 3 is the number 3, never the text "3"; flush is true or false, never 1.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    name: str = Field(min_length=1, description="what the rank is called")
    pattern: Literal["kind", "rotate", "nothing"] = Field(
        description="kind: same direction; rotate: a same-angle chain; nothing: any hand"
    )
    size: int = Field(default=0, ge=0, le=4, description="symbols the rank uses")
    flush: bool = Field(default=False, description="every symbol the rank uses has one colour")
    strength: int = Field(
        ge=0, le=MAX_STRENGTH, description="points the winner scores when this hand loses"
    )

    @model_validator(mode="after")
    def _shape(self) -> RankSpec:
        if self.pattern == "nothing":
            if self.size or self.flush:
                raise ValueError("a 'nothing' rank uses no symbols: size 0, flush false")
        elif not 2 <= self.size <= 4:
            raise ValueError(f"a {self.pattern} rank uses 2 to 4 symbols, not {self.size}")
        return self


class RankingTable(BaseModel):
    """The ranks, highest first."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rank: tuple[RankSpec, ...] = Field(min_length=1, strict=False)

    @model_validator(mode="after")
    def _complete(self) -> RankingTable:
        names = [r.name for r in self.rank]
        doubled = sorted({n for n in names if names.count(n) > 1})
        if doubled:
            raise ValueError(f"rank names must differ; repeated: {', '.join(doubled)}")
        shapes = [(r.pattern, r.size, r.flush) for r in self.rank]
        if len(set(shapes)) != len(shapes):
            raise ValueError("two ranks have the same pattern, size and flush")
        if self.rank[-1].pattern != "nothing":
            raise ValueError("the last rank must be the 'nothing' rank that every hand has")
        if [r.pattern for r in self.rank].count("nothing") != 1:
            raise ValueError("exactly one rank may have pattern 'nothing'")
        return self


def load_ranking_table(path: str | Path | None = None) -> RankingTable:
    """The table in ``path`` (TOML), or the one that ships with the game.

    Raises RankingTableError naming the file and what is wrong with it.
    """
    source = str(path) if path is not None else DEFAULT_RANKING
    try:
        if path is None:
            text = read_text_capped(resources.files(__package__).joinpath(DEFAULT_RANKING))
        else:
            text = read_text_capped(Path(path))
    except OSError as exc:
        raise RankingTableError(f"cannot read ranking table {source}: {exc.strerror}") from None
    try:
        data = parse_toml(text)
    except Unreadable as exc:
        raise RankingTableError(f"ranking table {source} is {exc}") from None
    try:
        return RankingTable.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = list(err["loc"])
            where = "table"
            if len(loc) >= 2 and loc[0] == "rank" and isinstance(loc[1], int):
                rows = data.get("rank", [])
                row = rows[loc[1]] if loc[1] < len(rows) else {}
                label = row.get("name") if isinstance(row, dict) else None
                if label and not (isinstance(label, str) and unprintable(label) is None):
                    label = repr(label)  # quoted as it is: a line break in it stays \n
                where = f"rank {loc[1] + 1}" + (f" ({shorten(label)})" if label else "")
                where += "".join(f".{p}" for p in loc[2:])
            problems.append(f"{where}: {problem_words(err)}")
        raise RankingTableError(
            f"ranking table {source} is not valid: {'; '.join(problems)}"
        ) from None


def is_rotate(directions: Sequence[int]) -> bool:
    """True if the distinct ``directions`` form a chain d, d+k, d+2k ... for one step k."""
    wanted = set(directions)
    if len(wanted) != len(directions):
        return False
    n = len(directions)
    return any(
        {(d + i * k) % 8 for i in range(n)} == wanted for d in directions for k in range(1, 5)
    )


def _satisfies(spec: RankSpec, symbols: Sequence[Symbol]) -> bool:
    if spec.flush and len({s & 1 for s in symbols}) > 1:
        return False
    directions = [s >> 1 for s in symbols]
    if spec.pattern == "kind":
        return len(set(directions)) == 1
    if spec.pattern == "rotate":
        return is_rotate(directions)
    return True


@dataclass(frozen=True, slots=True)
class HandValue:
    """How a hand ranks: its rank, and the symbols compared when ranks are equal."""

    rank: int
    """Place in the ranking table, 0 for the highest rank."""
    name: str
    strength: int
    used: tuple[Symbol, ...]
    """The symbols that make the rank, best first (closest to 12 o'clock clockwise)."""
    others: tuple[Symbol, ...]
    """The rest of the hand, best first."""
    key: tuple[int, ...]
    """Lower is better: the rank, then the symbols in the order the tie-break reads them."""

    def beats(self, other: HandValue) -> bool:
        """True if this hand is ranked higher than ``other``."""
        return self.key < other.key


@dataclass(frozen=True, slots=True)
class TieDecider:
    """Where the tie-break separated two hands of the same rank: the first place, reading
    the symbols as the tie-break does, at which they differ."""

    part: Literal["rank", "others", "hand"]
    """Which symbols the tie-break was reading there: those that make the rank, the rest of
    the hands (``rank-first``), or the whole hands (``whole-hand``)."""
    higher: Symbol
    """The higher hand's symbol there (closer to 12 o'clock clockwise, or solid)."""
    lower: Symbol


TIE_BREAK_READS = {
    "rank": "the rank's symbols, best first",
    "others": "the rank's symbols are the same; then the others, best first",
    "hand": "all four symbols, best first",
}
"""What the tie-break was reading where it separated two hands (:attr:`TieDecider.part`)."""


class Ranking:
    """A ranking table ready for play: ranks hands and compares them."""

    def __init__(self, table: RankingTable, tie_break: TieBreak = "rank-first") -> None:
        self.table = table
        self.tie_break: TieBreak = tie_break
        self.ranks: tuple[RankSpec, ...] = table.rank
        self._values: dict[tuple[Symbol, ...], HandValue] = {}
        self._power: list[int] | None = None
        self._strength: list[int] | None = None

    def evaluate(self, symbols: Iterable[Symbol]) -> HandValue:
        """The value of a hand of symbols (normally four)."""
        hand = tuple(sorted(symbols))
        value = self._values.get(hand)
        if value is None:
            value = self._values[hand] = self._evaluate(hand)
        return value

    def _evaluate(self, hand: tuple[Symbol, ...]) -> HandValue:
        for rank, spec in enumerate(self.ranks):
            best: tuple[tuple[Symbol, ...], tuple[Symbol, ...]] | None = None
            for picked in combinations(range(len(hand)), spec.size):
                used = tuple(hand[i] for i in picked)
                if not _satisfies(spec, used):
                    continue
                others = tuple(s for i, s in enumerate(hand) if i not in picked)
                # Several sets of symbols may make the rank; the best of them counts.
                if best is None or (used, others) < best:
                    best = (used, others)
            if best is not None:
                used, others = best
                read = hand if self.tie_break == "whole-hand" else used + others
                return HandValue(rank, spec.name, spec.strength, used, others, (rank, *read))
        raise AssertionError("the last rank of a validated table matches every hand")

    def decider(self, a: Iterable[Symbol], b: Iterable[Symbol]) -> TieDecider | None:
        """What decided between hands ``a`` and ``b`` of the same rank; None where the
        ranks differ (the rank decided) or the hands tie."""
        va, vb = self.evaluate(a), self.evaluate(b)
        if va.rank != vb.rank:
            return None
        for place, (x, y) in enumerate(zip(va.key[1:], vb.key[1:], strict=True)):
            if x != y:
                part: Literal["rank", "others", "hand"] = "hand"
                if self.tie_break == "rank-first":
                    part = "rank" if place < len(va.used) else "others"
                return TieDecider(part, min(x, y), max(x, y))
        return None

    def compare(self, a: Iterable[Symbol], b: Iterable[Symbol]) -> int:
        """1 if hand ``a`` ranks higher, -1 if ``b`` does, 0 if they tie."""
        ka, kb = self.evaluate(a).key, self.evaluate(b).key
        return (ka < kb) - (ka > kb)

    # -- fast path for search: every ordered four-symbol hand in a flat table -------------
    def _build_tables(self) -> None:
        by_hand: dict[tuple[Symbol, ...], tuple[int, int]] = {}
        power = [0] * NUM_SYMBOLS**4
        strength = [0] * NUM_SYMBOLS**4
        top = len(self.ranks)
        for code in range(NUM_SYMBOLS**4):
            hand = tuple(sorted((code >> 12, (code >> 8) & 15, (code >> 4) & 15, code & 15)))
            found = by_hand.get(hand)
            if found is None:
                value = self.evaluate(hand)
                packed = 0
                for s in value.key[1:]:
                    packed = packed << 4 | s
                found = by_hand[hand] = (
                    (top - value.rank) << 16 | (0xFFFF - packed),
                    value.strength,
                )
            power[code], strength[code] = found
        self._power, self._strength = power, strength

    def power(self, a: Symbol, b: Symbol, c: Symbol, d: Symbol) -> int:
        """An integer that orders four-symbol hands exactly as :meth:`compare` (higher wins)."""
        if self._power is None:
            self._build_tables()
        assert self._power is not None
        return self._power[a << 12 | b << 8 | c << 4 | d]

    def strength(self, a: Symbol, b: Symbol, c: Symbol, d: Symbol) -> int:
        """The strength of a four-symbol hand (fast)."""
        if self._strength is None:
            self._build_tables()
        assert self._strength is not None
        return self._strength[a << 12 | b << 8 | c << 4 | d]


def ranking(path: str | None = None, tie_break: TieBreak = "rank-first") -> Ranking:
    """The ranking from a table file (None: the shipped one), shared between games.

    Shared while the file holds the same bytes: a table edited in place is read again, so
    a game made after the edit (a lab run keyed by the new table) ranks by the new one."""
    stamp = None
    if path is not None:
        # Unreadable: loading it says so, in the table's own words.
        with suppress(OptionError):
            stamp = content_digest([Path(path)])
    return _ranking(path, tie_break, stamp)


@lru_cache(maxsize=16)
def _ranking(path: str | None, tie_break: TieBreak, stamp: str | None) -> Ranking:
    return Ranking(load_ranking_table(path), tie_break)


# -- which hands a round can make ---------------------------------------------------------
def possible_hands(shared: Symbol, cards: Sequence[Card]) -> list[tuple[Symbol, ...]]:
    """Every hand a round can make from ``cards`` (no items): the shared symbol, both symbols
    of one card and one symbol of another."""
    hands: list[tuple[Symbol, ...]] = []
    for full in cards:
        a, b = CARDS[full]
        for other in cards:
            if other != full:
                for y in CARDS[other]:
                    hands.append((shared, a, b, y))
    return hands


def example_hands(ranking: Ranking) -> list[tuple[Symbol, ...] | None]:
    """For each rank, the first hand (in tie-break order) a round can make that has it.

    A round can make any four symbols except four identical ones (a card never has the
    same symbol twice). None for a rank no such hand has.
    """
    found: list[tuple[Symbol, ...] | None] = [None] * len(ranking.ranks)
    for hand in _multisets(4):
        if len(set(hand)) == 1:
            continue
        rank = ranking.evaluate(hand).rank
        if found[rank] is None:
            found[rank] = hand
    return found


def _multisets(size: int) -> Iterable[tuple[Symbol, ...]]:
    if size == 0:
        yield ()
        return
    for rest in _multisets(size - 1):
        start = rest[-1] if rest else 0
        for s in range(start, NUM_SYMBOLS):
            yield (*rest, s)


# -- how often each rank comes up ---------------------------------------------------------
def random_play_frequencies(ranking: Ranking) -> list[float]:
    """Exact share of each rank when a round is played at random.

    The shared symbol is uniform, the two played cards are two different cards drawn at
    random, a random one of them is played in full and a random symbol of the other.
    Counted over every (shared symbol, full card, other symbol): the other symbol comes from
    any of the cards holding it except the full card.
    """
    counts = [0] * len(ranking.ranks)
    for shared in range(NUM_SYMBOLS):
        for a, b in CARDS:
            for y in range(NUM_SYMBOLS):
                weight = 15 - (y in (a, b))
                counts[ranking.evaluate((shared, a, b, y)).rank] += weight
    total = sum(counts)
    return [c / total for c in counts]


def best_of_deal_frequencies(ranking: Ranking, deals: int, seed: int = 0) -> list[float]:
    """Share of each rank as the best hand of a random deal (four cards and a shared
    symbol, no items), over ``deals`` deals drawn from a seeded stream."""
    rng = random.Random(seed)
    counts = [0] * len(ranking.ranks)
    for _ in range(deals):
        cards = rng.sample(range(NUM_CARDS), 4)
        shared = rng.randrange(NUM_SYMBOLS)
        best = min(ranking.evaluate(h).key for h in possible_hands(shared, cards))
        counts[best[0]] += 1
    return [c / deals for c in counts]


def hand_text(hand: Sequence[Symbol]) -> str:
    """Symbols as glyph and notation: ``▲Ns △Nc``."""
    return " ".join(symbol_label(s) for s in hand)


BEST_OF_DEAL_DEALS = 20_000
"""Deals sampled for the 'best of a deal' column of the rules (seed 0)."""


def ranking_markdown(ranking: Ranking, deals: int = BEST_OF_DEAL_DEALS) -> str:
    """The ranking table as Markdown: rank, strength, an example hand, frequencies.

    ``rules.md`` holds this text verbatim between its ranking markers; a test regenerates it
    so the document and the data file cannot drift apart.
    """
    examples = example_hands(ranking)
    played = random_play_frequencies(ranking)
    best = best_of_deal_frequencies(ranking, deals)
    lines = [
        "| # | Hand | Strength | Example | Random play | Best of deal |",
        "|---|---|---|---|---|---|",
    ]
    for k, spec in enumerate(ranking.ranks):
        example = examples[k]
        lines.append(
            f"| {k + 1} | {spec.name} | {spec.strength} | "
            f"{hand_text(example) if example else '(none possible)'} | "
            f"{100 * played[k]:.2f}% | {100 * best[k]:.2f}% |"
        )
    return "\n".join(lines)
