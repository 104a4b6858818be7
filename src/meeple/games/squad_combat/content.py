"""Squad Combat content as data: characters, cards and decks, read from TOML and validated.

The seed (rulebook v0.5) gives the card types and their stats but no card list, so the
content is a designer's: three files in one folder, each a TOML table per item keyed by a
short id that the action notation uses.

* ``characters.toml`` -- ``[vanguard]`` with ``name``, ``life``, ``energy``, ``dice_pool``,
  ``refresh`` (the dice refresh energy cost) and ``traits``.
* ``cards.toml`` -- ``[slash]`` with ``name``, ``kind`` (``attack``, ``action`` or ``edge``),
  ``traits`` and ``cost`` in the seed's notation (``<3>[1]``, ``[2][4]``, ``C``; ``-`` for
  none). Attacks add ``hit`` (the hit modifier) and ``damage``; actions and edges add an
  ``effect`` and its ``amount``; edges add their ``timing``.
* ``decks.toml`` -- ``[iron-line]`` with ``name``, the party of three ``characters`` (left to
  right) and ``cards``, a table of card id to number of copies.

Loading checks every field and every cross-reference; a :class:`ContentError` names the file,
the item and the field at fault.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from meeple.core.errors import MeepleError, OptionError, did_you_mean, problem_words
from meeple.core.files import Unreadable, parse_toml, read_text_capped
from meeple.core.options import content_digest
from meeple.core.text import ShownText
from meeple.core.words import counted, listed

DIE_FACES = 6
"""'All dice in the game are six-sided.'"""
PARTY_SIZE = 3
"""'Each player has a party of 3 characters.'"""
MIN_DECK = 10
"""A deck must at least deal a hand and refill it; the demo decks hold 30 cards."""
MAX_DECK = 200
"""The most cards a deck holds: a game deals from it, and the agents count what is left."""

FILES = {"characters": "characters.toml", "cards": "cards.toml", "decks": "decks.toml"}
_KEY_RE = re.compile(r"[a-z0-9][a-z0-9-]*")


class ContentError(MeepleError):
    """Content that does not load: the message names the file, the item and the field."""


# -- costs ----------------------------------------------------------------------------------
_TOKEN_RE = re.compile(r"\s*(?:<\s*(-?\d+)\s*>|\[\s*(-?\d+)\s*\]|(C))")
COST_HELP = (
    "write energy as <3>, a die as [4] (1 to 6), a card discard as C, in any combination "
    "(e.g. <3>[1], [2][4], <1>C), or - for no cost"
)


@dataclass(frozen=True, slots=True)
class Cost:
    """What performing a card costs, in the seed's notation.

    ``<X>`` is X energy, ``[X]`` a die of value X or more, ``C`` one card discarded from the
    controller's hand. The parts are kept in the order written, so a cost prints back
    exactly as the designer wrote it (``<3>[1]``, ``[2][4]``); ``-`` is no cost at all.
    """

    parts: tuple[tuple[str, int], ...] = ()
    """``("energy", 3)``, ``("die", 4)`` or ``("card", 1)``, as written."""
    energy: int = field(init=False, compare=False, repr=False)
    """Energy to spend (0 for none)."""
    dice: tuple[int, ...] = field(init=False, compare=False, repr=False)
    """Die costs, highest first: each needs its own die of at least that value."""
    cards: int = field(init=False, compare=False, repr=False)
    """Cards the controller discards from hand."""
    text: str = field(init=False, compare=False, repr=False)
    """The cost as written (``<3>[1]``, ``-``)."""

    def __post_init__(self) -> None:
        # Paying a cost is checked in every legal-move generation: sum the parts once.
        energy = sum(v for kind, v in self.parts if kind == "energy")
        dice = tuple(sorted((v for kind, v in self.parts if kind == "die"), reverse=True))
        object.__setattr__(self, "energy", energy)
        object.__setattr__(self, "dice", dice)
        object.__setattr__(self, "cards", sum(1 for kind, _ in self.parts if kind == "card"))
        # Every card played is logged with its cost: write it once.
        marks = {"energy": "<{}>", "die": "[{}]", "card": "C"}
        text = "".join(marks[kind].format(v) for kind, v in self.parts) or "-"
        object.__setattr__(self, "text", text)

    @classmethod
    def parse(cls, text: str) -> Cost:
        """Read a cost such as ``<3>[1]``; ValueError says what is wrong and how to write it."""
        stripped = text.strip()
        if stripped in ("-", ""):
            return cls()
        parts: list[tuple[str, int]] = []
        pos = 0
        while pos < len(text):
            if not text[pos:].strip():
                break
            m = _TOKEN_RE.match(text, pos)
            if m is None:
                raise ValueError(
                    f"{text!r} is not a cost: cannot read {text[pos:].strip()!r}; {COST_HELP}"
                )
            energy, die, _card = m.groups()
            if energy is not None:
                if any(kind == "energy" for kind, _ in parts):
                    raise ValueError(f"{text!r} has two energy costs; write one, e.g. <3>")
                if int(energy) < 1:
                    raise ValueError(f"{text!r}: an energy cost is at least <1>")
                parts.append(("energy", int(energy)))
            elif die is not None:
                if not 1 <= int(die) <= DIE_FACES:
                    raise ValueError(f"{text!r}: a die cost is [1] to [{DIE_FACES}], not [{die}]")
                parts.append(("die", int(die)))
            else:
                parts.append(("card", 1))
            pos = m.end()
        return cls(tuple(parts))

    @property
    def words(self) -> str:
        """The cost in words ("2 energy and a die of 4 or more"), for a reason that quotes
        the notation to a player who may not read it."""
        parts = [f"{self.energy} energy"] if self.energy else []
        parts += [f"a die of {d}" + (" or more" if d < DIE_FACES else "") for d in self.dice]
        if self.cards:
            parts.append("another card" if self.cards == 1 else f"{self.cards} other cards")
        return " and ".join(parts) or "nothing"

    def __str__(self) -> str:
        return self.text


def dice_cover(dice: tuple[int, ...], needs: tuple[int, ...]) -> bool:
    """Can ``dice`` pay the die costs ``needs``, one die per cost, each die >= its cost?

    Matching the highest cost with the highest die, and so on down, works whenever any
    assignment does; ``dice`` is sorted ascending and ``needs`` descending.
    """
    if len(needs) > len(dice):
        return False
    # map, not a generator: this runs for every card and character in every legal-move
    # generation, and a generator costs as much as the comparisons.
    return all(map(operator.ge, reversed(dice), needs))


# -- the three kinds of item ----------------------------------------------------------------
Trait = str
CardKind = Literal["attack", "action", "edge"]
Effect = Literal["heal", "boost", "energy", "draw", "defense", "attack"]
Timing = Literal["anytime", "defending", "attacking"]


EFFECT_HELP: dict[str, str] = {
    "heal": "remove one wound of damage {n} or less from one of your characters",
    "boost": "add {n} to one die on one of your characters (a die shows at most 6)",
    "energy": "remove {n} spent energy from one of your characters",
    "draw": "draw {cards}",
    "defense": "+{n} to the defense rating of the attack",
    "attack": "+{n} to the attack rating of the attack",
}
TARGETED_EFFECTS = frozenset({"heal", "boost", "energy"})
"""Effects that act on one of the performing player's characters, chosen as a target."""


class _Item(ShownText):
    """What every item has: its id (the table name), a name and an optional text."""

    # Strict: a designer's 2 is the number 2, never the text "2" or true (a list still
    # reads as a tuple where strict=False says so).
    model_config = ConfigDict(
        extra="forbid", frozen=True, arbitrary_types_allowed=True, strict=True
    )

    key: str
    name: str = Field(min_length=1)
    text: str = ""

    @field_validator("key")
    @classmethod
    def _key_shape(cls, value: str) -> str:
        if not _KEY_RE.fullmatch(value):
            raise ValueError(
                f"{value!r} is not an id; use lower-case letters, digits and dashes (heavy-blow)"
            )
        return value


class _Traited(_Item):
    traits: tuple[str, ...]

    @field_validator("traits", mode="before")
    @classmethod
    def _traits(cls, value: Any) -> tuple[str, ...]:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list | tuple) or not value:
            raise ValueError('list at least one trait, e.g. ["Melee"]')
        for t in value:
            if not isinstance(t, str) or not t.strip():
                raise ValueError(f"{t!r} is not a trait name")
        return tuple(t.strip() for t in value)


class CharacterCard(_Traited):
    """A character's stats, as on its card: Life, Energy, Dice Pool, Dice refresh, Traits."""

    life: int = Field(ge=1, le=99, description="damage it takes before it is removed")
    energy: int = Field(ge=0, le=20, description="energy it may spend each turn")
    dice_pool: int = Field(ge=1, le=DIE_FACES, description="dice it starts with and refreshes to")
    refresh: int = Field(ge=0, le=20, description="energy a dice refresh costs")


class Card(_Traited):
    """An action, attack or edge card: trait(s), cost, and what it does."""

    kind: CardKind
    cost: Cost = Cost()
    hit: int | None = Field(default=None, ge=-6, le=12, description="attack: hit modifier")
    damage: int | None = Field(default=None, ge=1, le=99, description="attack: wound damage")
    effect: Effect | None = None
    amount: int | None = Field(default=None, ge=1, le=12)
    timing: Timing | None = None

    @field_validator("cost", mode="before")
    @classmethod
    def _cost(cls, value: Any) -> Cost:
        if isinstance(value, Cost):
            return value
        if not isinstance(value, str):
            raise ValueError(f"a cost is text in the seed's notation; {COST_HELP}")
        return Cost.parse(value)

    @model_validator(mode="before")
    @classmethod
    def _edge_timing(cls, data: Any) -> Any:
        # 'If it does not have a restriction on it, it may be played at anytime.'
        if isinstance(data, dict) and data.get("kind") == "edge" and "timing" not in data:
            return {**data, "timing": "anytime"}
        return data

    @model_validator(mode="after")
    def _kind_fields(self) -> Card:
        # Each message names the field to change (the file and card are added on load).
        if self.kind == "attack":
            for name in ("hit", "damage"):
                if getattr(self, name) is None:
                    raise ValueError(f"field {name!r}: an attack needs a hit modifier and damage")
            for name in ("effect", "amount", "timing"):
                if getattr(self, name) is not None:
                    raise ValueError(f"field {name!r}: an attack has no {name}; it hits and wounds")
            return self
        for name in ("hit", "damage"):
            if getattr(self, name) is not None:
                raise ValueError(f"field {name!r}: only attacks have it; this is an {self.kind}")
        for name in ("effect", "amount"):
            if getattr(self, name) is None:
                raise ValueError(
                    f"field {name!r}: an {self.kind} needs an effect "
                    f"({', '.join(EFFECT_HELP)}) and an amount"
                )
        spent = 1 + self.cost.cards  # the card itself and each C discarded
        free = not self.cost.energy and not self.cost.dice
        if self.effect == "draw" and free and self.amount is not None and self.amount >= spent:
            # Such a card refills the hand it is played from: a player may play it again and
            # again, and the turn (so the game) never ends.
            fix = f"draw at most {spent - 1}, or " if spent > 1 else ""
            raise ValueError(
                f"field 'amount': a draw card that costs no energy or die draws fewer cards "
                f"than it spends (itself and each C), or it is played forever in one turn; "
                f"{fix}give it an energy or die cost"
            )
        if self.kind == "action":
            if self.timing is not None:
                raise ValueError(
                    "field 'timing': only edges have one; actions are played in a phase"
                )
            if self.effect in ("defense", "attack"):
                raise ValueError(
                    f"field 'effect': {self.effect} changes an attack in progress, so only an "
                    "edge card (timing defending or attacking) has it"
                )
            return self
        if self.effect == "defense" and self.timing != "defending":
            raise ValueError("field 'timing': an edge with the defense effect is 'defending'")
        if self.effect == "attack" and self.timing != "attacking":
            raise ValueError("field 'timing': an edge with the attack effect is 'attacking'")
        return self

    @property
    def is_attack(self) -> bool:
        """Attack cards are actions that hit and wound."""
        return self.kind == "attack"

    def describe(self) -> str:
        """One line for people: kind, traits, cost and what it does."""
        head = f"{self.kind} ({'/'.join(self.traits)}) {self.cost}"
        if self.kind == "attack":
            return f"{head}: hit {self.hit:+d}, damage {self.damage}"
        assert self.amount is not None  # an action or edge has one (checked on load)
        effect = EFFECT_HELP[str(self.effect)].format(
            n=self.amount, cards=counted(self.amount, "card")
        )
        if self.kind == "edge":
            return f"{head}, {self.timing}: {effect}"
        return f"{head}: {effect}"


class Deck(_Item):
    """A player's deck: the party of three characters (left to right) and the cards."""

    characters: tuple[str, str, str] = Field(strict=False)
    cards: dict[str, int]

    @field_validator("characters", mode="before")
    @classmethod
    def _party(cls, value: object) -> object:
        # Checked before the tuple's own check, whose errors for a party of two name the
        # field "missing" once per absent place, and for four speak of "items".
        if isinstance(value, list | tuple) and len(value) != PARTY_SIZE:
            raise ValueError(
                f"a party is {PARTY_SIZE} character ids, left to right; this one has {len(value)}"
            )
        return value

    @field_validator("cards")
    @classmethod
    def _counts(cls, value: dict[str, int]) -> dict[str, int]:
        for key, count in value.items():
            if count < 1:
                raise ValueError(f"card {key!r} has {count} copies; list at least 1 or drop it")
            if count > MAX_DECK:
                raise ValueError(
                    f"card {key!r} has {count:,} copies; a deck holds at most {MAX_DECK} cards"
                )
        total = sum(value.values())
        if not MIN_DECK <= total <= MAX_DECK:
            raise ValueError(f"a deck holds {MIN_DECK} to {MAX_DECK} cards, this one {total:,}")
        return value

    @property
    def size(self) -> int:
        """Cards in the deck."""
        return sum(self.cards.values())


# -- loading --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Content:
    """Every character, card and deck a game may use, checked against each other."""

    characters: tuple[CharacterCard, ...]
    cards: tuple[Card, ...]
    decks: tuple[Deck, ...]
    source: str
    """Where the content was read, for messages: its folder, or ``SHIPPED`` (the package's
    own folder is an installation's path, which a server must not tell its clients)."""
    character_index: Mapping[str, int] = field(init=False, repr=False, compare=False)
    card_index: Mapping[str, int] = field(init=False, repr=False, compare=False)
    deck_index: Mapping[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "character_index", {c.key: i for i, c in enumerate(self.characters)}
        )
        object.__setattr__(self, "card_index", {c.key: i for i, c in enumerate(self.cards)})
        object.__setattr__(self, "deck_index", {d.key: i for i, d in enumerate(self.decks)})

    def deck(self, key: str) -> Deck:
        """The deck with this id; ContentError suggests the nearest ids."""
        if key not in self.deck_index:
            raise ContentError(f"no deck {key!r} in {self.source}{_suggest(key, self.deck_index)}")
        return self.decks[self.deck_index[key]]

    def deck_ids(self, decks: str | None) -> tuple[str, ...]:
        """The deck ids a ``decks`` option names, joined by '/' or ',', each checked, or
        every deck of the content in file order when it is unset or blank.

        '/' is the separator that works everywhere: the lab's ``--variant`` and ``--values``
        part values at commas, and so do OpenSpiel's game strings; ',' is read as ever.
        ContentError when the text names no deck at all (``","``): an empty list has no
        deck to repeat for the seats.
        """
        if decks is None or not decks.strip():
            return tuple(d.key for d in self.decks)
        keys = tuple(k.strip() for k in re.split(r"[/,]", decks) if k.strip())
        if not keys:
            raise ContentError(
                f"decks {decks!r} names no deck; give deck ids joined by '/' "
                f"(the ids are: {', '.join(self.deck_index)})"
            )
        for key in keys:
            self.deck(key)
        return keys

    def deck_cards(self, key: str) -> tuple[int, ...]:
        """The deck's cards as card indices, one per copy, in file order."""
        deck = self.deck(key)
        return tuple(self.card_index[c] for c, n in deck.cards.items() for _ in range(n))

    def deck_notes(self, keys: tuple[str, ...] | None = None) -> list[str]:
        """What a designer would want to know about the decks ``keys`` (every deck when
        None) though the rules allow it, one sentence each: decks of different sizes."""
        decks = self._decks(keys)
        if len({deck.size for deck in decks}) < 2:
            return []
        sizes = ", ".join(f"{deck.key} {counted(deck.size, 'card')}" for deck in decks)
        return [
            f"the decks differ in size ({sizes}, in {self.source}); allowed, noted in case "
            "it is not meant"
        ]

    def _decks(self, keys: tuple[str, ...] | None) -> list[Deck]:
        """The decks ``keys`` names, each once, in order; every deck when None."""
        return [self.deck(k) for k in dict.fromkeys(keys)] if keys else list(self.decks)

    def free_refresh_notes(self, keys: tuple[str, ...] | None = None) -> list[str]:
        """The characters of the decks ``keys`` (every deck when None) whose dice refresh
        costs no energy: allowed, but nothing then bounds a turn, which ends only when
        every player passes, as a player may refresh such a character again and again."""
        decks = self._decks(keys)
        free = [
            key
            for key in dict.fromkeys(c for deck in decks for c in deck.characters)
            if self.characters[self.character_index[key]].refresh == 0
        ]
        if not free:
            return []
        return [
            f"{listed(free)} refresh{'es its' if len(free) == 1 else ' their'} dice for no "
            f"energy (refresh = 0, in {self.source}): a player may refresh such a character "
            "again and again, and a turn ends only when every player passes; allowed, noted "
            "in case it is not meant"
        ]

    def party(self, key: str) -> tuple[int, ...]:
        """The deck's three characters as character indices, left to right."""
        return tuple(self.character_index[c] for c in self.deck(key).characters)


def _suggest(key: str, known: Mapping[str, int]) -> str:
    # A content file is edited by hand: when no id is near the typo, the list of ids (in
    # file order) is what the designer needs next.
    return did_you_mean(key, known) or f"; the ids are: {', '.join(known)}"


_NOUNS = {"characters": "character", "cards": "card", "decks": "deck"}


def _read_table(folder: Traversable, what: str) -> dict[str, Any]:
    name = FILES[what]
    where = f"{folder}/{name}" if str(folder) else name
    entry = folder.joinpath(name)
    try:
        text = read_text_capped(entry)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise ContentError(f"{folder}: missing {name} (the {what} of the content)") from None
    except OSError as exc:  # a device, a pipe, too large, not UTF-8, not readable
        raise ContentError(f"{where}: cannot read it: {exc.strerror or exc}") from None
    try:
        data = parse_toml(text)
    except Unreadable as exc:
        raise ContentError(f"{where} is {exc}") from None
    for key, value in data.items():
        if not isinstance(value, dict):
            raise ContentError(
                f"{where}: {key!r} must be a table [{key}] describing one {_NOUNS[what]}"
            )
    return data


def _build(model: type[BaseModel], what: str, where: str, data: dict[str, Any]) -> list[Any]:
    items = []
    for key, fields in data.items():
        try:
            items.append(model.model_validate({"key": key, **fields}))
        except ValidationError as exc:
            raise ContentError(_describe(where, _NOUNS[what], key, model, exc)) from None
    return items


def _describe(where: str, noun: str, key: str, model: type[BaseModel], exc: ValidationError) -> str:
    problems = []
    for err in exc.errors():
        loc = [str(p) for p in err["loc"]]
        name = loc[0] if loc else ""
        msg = problem_words(err)
        if err["type"] == "extra_forbidden":
            fields = ", ".join(f for f in model.model_fields if f != "key")
            problems.append(f"field {name!r}: unknown field; the fields are: {fields}")
        elif err["type"] == "missing":
            problems.append(f"field {name!r}: missing")
        elif name:
            problems.append(f"field {'.'.join(loc)!r}: {msg} (got {err.get('input')!r})")
        else:
            problems.append(msg)
    return f"{where}: {noun} {key!r}, " + "; ".join(problems)


def load_content(folder: str | Path | Traversable | None = None) -> Content:
    """Load and check a content folder; ``None`` is the demo content shipped with the game.

    Raises ContentError naming the file, the item and the field of the first problem.
    """
    if folder is None:
        return _load_demo()
    path = Path(folder) if isinstance(folder, str) else folder
    if isinstance(path, Path):
        # Keyed by what the files hold too (not their modification times, which can be
        # equal across two quick edits): an edited file is read again.
        try:
            stamp = content_digest([path / name for name in FILES.values()])
        except OptionError as exc:
            raise ContentError(str(exc)) from None
        return _load_path(str(path.resolve()), stamp)
    return _load(path)


def content_problems(folder: Path) -> list[str]:
    """Every problem of a content folder, one line each: each character's, card's and deck's
    first (naming the file, the item and the field); where every item reads, the first
    problem across the files (a deck naming a card there is not). Empty when it loads."""
    try:
        load_content(folder)
    except ContentError as exc:
        first = str(exc)
    else:
        return []
    try:
        tables = {what: _read_table(folder, what) for what in FILES}
    except ContentError:
        return [first]  # a file that does not read is the folder's one problem
    problems = []
    for what, model in (("characters", CharacterCard), ("cards", Card), ("decks", Deck)):
        for key, fields in tables[what].items():
            try:
                _build(model, what, f"{folder}/{FILES[what]}", {key: fields})
            except ContentError as exc:
                problems.append(str(exc))
    return problems or [first]


def demo_folder() -> Traversable:
    """The folder of the demo content inside the installed package."""
    return resources.files(__package__).joinpath("data")


SHIPPED = "the shipped content"
"""What messages call the demo content shipped with the game, instead of its folder."""


@lru_cache(maxsize=1)
def _load_demo() -> Content:
    return _load(demo_folder(), SHIPPED)


@lru_cache(maxsize=32)
def _load_path(path: str, stamp: str) -> Content:
    folder = Path(path)
    if folder.is_file():
        raise ContentError(
            f"{folder}: a file, not a content folder; name the folder that holds "
            f"{', '.join(FILES.values())} (--content {folder.parent})"
        )
    if not folder.is_dir():
        raise ContentError(
            f"{folder}: no such content folder (it holds {', '.join(FILES.values())})"
        )
    return _load(folder)


def _load(folder: Traversable, source: str | None = None) -> Content:
    tables = {what: _read_table(folder, what) for what in FILES}
    where = {what: f"{folder}/{name}" for what, name in FILES.items()}
    characters = _build(CharacterCard, "characters", where["characters"], tables["characters"])
    cards = _build(Card, "cards", where["cards"], tables["cards"])
    decks = _build(Deck, "decks", where["decks"], tables["decks"])
    content = Content(tuple(characters), tuple(cards), tuple(decks), source or str(folder))
    for deck in decks:
        prefix = f"{where['decks']}: deck {deck.key!r}"
        for c in deck.characters:
            if c not in content.character_index:
                raise ContentError(
                    f"{prefix}, field 'characters': no character {c!r} in "
                    f"{FILES['characters']}{_suggest(c, content.character_index)}"
                )
        for c in deck.cards:
            if c not in content.card_index:
                raise ContentError(
                    f"{prefix}, field 'cards': no card {c!r} in "
                    f"{FILES['cards']}{_suggest(c, content.card_index)}"
                )
    if not decks:
        raise ContentError(f"{where['decks']}: no decks; describe at least one [deck-id]")
    return content
