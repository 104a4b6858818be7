"""The 96 Erosion cards as data: a validated model of ``cards.json`` and the legend cards.

The seed's card list is not public; ``cards.json`` is the project's own file, converted from
the proposal in ``shared/design/erosion_cards_proposal.csv`` (see ``rules.md``). Every card
is checked when the file is loaded, and a bad card fails with its id and the field at fault:
``card F73, field process.n: must be at least 1``.

A process card is divided in two, as the seed says: the upper *rock* portion (rock type,
Mohs hardness, fossil icon, architecture text) and the lower *process* portion (the process
it performs, its numbers, the rock types it lists and its elevation icon).
"""

from __future__ import annotations

from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from meeple.core.errors import MeepleError, OptionError, did_you_mean, problem_words
from meeple.core.files import Unreadable, parse_json, parse_toml, read_text_capped
from meeple.core.options import content_digest
from meeple.core.text import ShownText

Deck = Literal["WX", "H", "F"]
"""The three process decks: Weathering, Hillslope and Fluvial."""

PROCESS_DECKS: tuple[Deck, ...] = ("WX", "H", "F")

Rock = Literal[
    "shale",
    "limestone",
    "sandstone",
    "conglomerate",
    "basalt",
    "granite",
    "welded tuff",
    "quartzite",
    "schist",
]

ROCK_CLASS: dict[str, str] = {
    "shale": "sedimentary",
    "limestone": "sedimentary",
    "sandstone": "sedimentary",
    "conglomerate": "sedimentary",
    "basalt": "igneous",
    "granite": "igneous",
    "welded tuff": "igneous",
    "quartzite": "metamorphic",
    "schist": "metamorphic",
}
"""'WX deck = sedimentary, H deck = igneous, F deck = metamorphic' (the Fluvial Hint)."""

DECK_CLASS: dict[str, str] = {"WX": "sedimentary", "H": "igneous", "F": "metamorphic"}

MOHS: dict[str, int] = {
    "shale": 3,
    "limestone": 3,
    "granite": 6,
    "conglomerate": 6,
    "schist": 7,
    "sandstone": 7,
    "quartzite": 7,
    "basalt": 8,
    "welded tuff": 8,
}
"""The seed's tie-breaker answers: 'shale & limestone = 3, granite & conglomerate = 6,
schist, sandstone, & quartzite = 7, basalt & welded tuff = 8'."""

SEED_COUNTS: dict[str, int] = {"WX": 38, "H": 32, "F": 20, "ATM": 6}
"""'96 Cards: 38 Weathering (WX), 32 Hillslope (H), 20 Fluvial (F) and 6 Atmosphere cards'."""

Age = Literal["hypoxic", "ice", "arid"]
AGE_NAMES: dict[str, str] = {"hypoxic": "Hypoxic Age", "ice": "Ice Age", "arid": "Arid Age"}


MAX_ROCKS = 6
"""The most rocks one effect moves or adds: a process moves at most 6 (process.n)."""
MAX_POINTS = 20
"""The most points one card scores (the shipped ones score 1 to 4)."""
MAX_METRES = 20_000
"""The highest mountain a condition may ask for."""
MAX_COUNTED = 90
"""The most rocks a challenge may ask a player to have: the 90 process cards."""


class CardError(MeepleError):
    """A card file that does not describe valid Erosion cards; names the card and field."""


class _Model(ShownText):
    # Strict: a designer's 3 is the number 3, never the text "3" or true; a file that
    # means something else is told so. Lists read as tuples (strict=False on those).
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# -- architecture (the rock portion's text, Advanced Rules) ---------------------------------
class UpliftTrigger(_Model):
    """Upon uplift: trigger one Atmosphere card of each listed age (``any``: any card)."""

    kind: Literal["uplift_trigger"]
    ages: tuple[Literal["hypoxic", "ice", "arid", "any"], ...] = Field(min_length=1, strict=False)


class UpliftHillslope(_Model):
    """Upon uplift: hillslope this many weathered rocks from any one mountain."""

    kind: Literal["uplift_hillslope"]
    rocks: int = Field(ge=1, le=MAX_ROCKS)


class ScoreBonus(_Model):
    """While unweathered: extra points at each era's scoring."""

    kind: Literal["score_bonus"]
    points: int = Field(ge=1, le=MAX_POINTS)


class DrawLimitBonus(_Model):
    """While unweathered: the owner's draw limit from one deck is raised."""

    kind: Literal["draw_limit_bonus"]
    deck: Deck
    cards: int = Field(ge=1, le=6)  # as a draw limit


class ResistsIcon(_Model):
    """While unweathered: cannot be weathered by cards with this elevation icon."""

    kind: Literal["resists_icon"]
    icon: Literal["hill", "mountain"]


class ResistsExcept(_Model):
    """While unweathered: cannot be weathered except by this process."""

    kind: Literal["resists_except"]
    process: str = Field(min_length=1)


class WeatherBonus(_Model):
    """While unweathered: the owner's numeric WX cards weather more rocks."""

    kind: Literal["weather_bonus"]
    rocks: int = Field(ge=1, le=MAX_ROCKS)


class CountsAsHigh(_Model):
    """While unweathered: the mountain counts as 4000 m or more for elevation icons."""

    kind: Literal["counts_as_high"]


class TransportBonusIfHigh(_Model):
    """While unweathered, on a mountain of 4000 m or more: the owner's F cards may transport
    more rocks."""

    kind: Literal["transport_bonus_if_high"]
    rocks: int = Field(ge=1, le=MAX_ROCKS)


Effect = Annotated[
    UpliftTrigger
    | UpliftHillslope
    | ScoreBonus
    | DrawLimitBonus
    | ResistsIcon
    | ResistsExcept
    | WeatherBonus
    | CountsAsHigh
    | TransportBonusIfHigh,
    Field(discriminator="kind"),
]

UPON_UPLIFT = ("uplift_trigger", "uplift_hillslope")
"""Effect kinds that apply 'only when the card is first uplifted'; all others are red
architecture that applies 'as long as the rock remains unweathered'."""


class Architecture(_Model):
    """Montane Architecture: the printed text and its machine-readable effect."""

    name: str = Field(min_length=1)
    text: str = Field(min_length=1)
    effect: Effect

    @property
    def upon_uplift(self) -> bool:
        """True for 'upon uplift' architecture, False for red (while unweathered)."""
        return self.effect.kind in UPON_UPLIFT


# -- process (the lower portion) ------------------------------------------------------------
class Process(_Model):
    """What the card does when played from the hand.

    ``weather_n`` weathers up to ``n`` rocks no harder than ``max_hardness``;
    ``weather_types`` weathers every unshielded rock of the listed ``types``;
    ``hillslope_n`` moves up to ``n`` weathered rocks to the River;
    ``transport_n`` moves exactly ``n`` rocks from the River to the player's delta.
    """

    name: str = Field(min_length=1)
    kind: Literal["weather_n", "weather_types", "hillslope_n", "transport_n"]
    # No floor here: a typed card has none (0) and a numbered one at least 1, which the
    # card's check says in those words (a floor of 0 here told a numbered card's -1 that
    # 0 would do, and then refused 0).
    n: int = Field(default=0, le=6)
    max_hardness: int | None = Field(default=None, ge=1, le=10)
    types: tuple[Rock, ...] = Field(default=(), strict=False)
    elevation: Literal["hill", "mountain"] | None = None

    @property
    def does(self) -> str:
        """What playing it does, in the rules' words: 'weather up to 2 (hardness <= 7)'."""
        if self.kind == "weather_n":
            return f"weather up to {self.n} (hardness <= {self.max_hardness})"
        if self.kind == "weather_types":
            return f"weather all {', '.join(self.types)}"
        if self.kind == "hillslope_n":
            return f"hillslope up to {self.n}"
        return f"transport exactly {self.n}"


class ProcessCard(_Model):
    """A WX, H or F card: a rock on top, a process below."""

    id: str = Field(pattern=r"^(WX|H|F)\d+$")
    deck: Deck
    rock: Rock
    mohs: int = Field(ge=1, le=10)
    fossil: Literal["snail", "leaf", "fish"] | None = None
    architecture: Architecture | None = None
    process: Process

    @property
    def rock_class(self) -> str:
        """sedimentary, igneous or metamorphic."""
        return ROCK_CLASS[self.rock]


class AtmosphereCard(_Model):
    """An Atmosphere card: a draw limit at each end, one end printed with an Age legend.

    It lies under the process deck ``under``; its visible end is the normal one until it is
    triggered (rotated 180 degrees), then the Age end.
    """

    id: str = Field(pattern=r"^ATM\d+$")
    deck: Literal["ATM"]
    age: Age
    under: Deck
    normal_limit: int = Field(ge=0, le=6)
    age_limit: int = Field(ge=0, le=6)


Card = ProcessCard | AtmosphereCard


class LegendCondition(_Model):
    """A montane legend's claim condition: a height and capstone rock types."""

    min_height_m: int = Field(ge=500, le=MAX_METRES, multiple_of=500)
    rocks: tuple[Rock, Rock] = Field(strict=False)


class LegendCard(_Model):
    """Montane Legend Variant: a legend anyone may claim by meeting its condition."""

    id: str = Field(pattern=r"^L\d+$")
    name: str = Field(min_length=1)
    text: str = Field(min_length=1)
    condition: LegendCondition
    points: int = Field(ge=1, le=MAX_POINTS)


class HeightAtLeast(_Model):
    """Your mountain is at least this high."""

    kind: Literal["height_at_least"]
    metres: int = Field(ge=500, le=MAX_METRES, multiple_of=500)


class DeltaAtLeast(_Model):
    """At least this many rocks in your delta."""

    kind: Literal["delta_at_least"]
    rocks: int = Field(ge=1, le=MAX_COUNTED)


class WeatheredFossilsAtLeast(_Model):
    """At least this many weathered fossil rocks in your mountain."""

    kind: Literal["weathered_fossils_at_least"]
    rocks: int = Field(ge=1, le=MAX_COUNTED)


class ClassInMountainAtLeast(_Model):
    """At least this many rocks of one class (sedimentary, igneous, metamorphic) in your
    mountain, weathered or not."""

    kind: Literal["class_in_mountain_at_least"]
    rock_class: Literal["sedimentary", "igneous", "metamorphic"]
    rocks: int = Field(ge=1, le=MAX_COUNTED)


class UnweatheredAtLeast(_Model):
    """At least this many unweathered rocks in your mountain."""

    kind: Literal["unweathered_at_least"]
    rocks: int = Field(ge=1, le=MAX_COUNTED)


class CapstoneUnweathered(_Model):
    """The top rock of your mountain is unweathered."""

    kind: Literal["capstone_unweathered"]


Challenge = Annotated[
    HeightAtLeast
    | DeltaAtLeast
    | WeatheredFossilsAtLeast
    | ClassInMountainAtLeast
    | UnweatheredAtLeast
    | CapstoneUnweathered,
    Field(discriminator="kind"),
]


class ChallengeCard(_Model):
    """Montane Legend Variant: a secret challenge dealt to each player."""

    id: str = Field(pattern=r"^C\d+$")
    name: str = Field(min_length=1)
    text: str = Field(min_length=1)
    condition: Challenge
    points: int = Field(ge=1, le=MAX_POINTS)


# -- loading --------------------------------------------------------------------------------
_CARD = TypeAdapter(Annotated[ProcessCard | AtmosphereCard, Field(discriminator="deck")])


_KINDS = frozenset(
    get_args(model.model_fields["kind"].annotation)[0]
    for union in (Effect, Challenge)
    for model in get_args(get_args(union)[0])
)
"""The ``kind`` of every effect and challenge: pydantic's tag of the union member."""


def _field(loc: tuple[Any, ...]) -> str:
    # pydantic puts the union's tag in the location ('ProcessCard', 'process', 'n';
    # 'architecture', 'effect', 'weather_bonus', 'rocks'): no field of the file; dropped.
    parts = [str(p) for p in loc if not (isinstance(p, str) and (p[:1].isupper() or p in _KINDS))]
    return ".".join(parts) or "card"


def _fields_of(deck: object, field: str) -> list[str] | None:
    """The fields allowed beside ``field`` (a dotted path in a card of ``deck``), or None
    where the object holding it is one of several kinds (an architecture's effect)."""
    model: type[BaseModel] = AtmosphereCard if deck == "ATM" else ProcessCard
    for part in field.split(".")[:-1]:
        info = model.model_fields.get(part)
        annotation = info.annotation if info else None
        inner = [
            a
            for a in (get_args(annotation) or (annotation,))
            if isinstance(a, type) and issubclass(a, BaseModel)
        ]
        if len(inner) != 1:
            return None
        model = inner[0]
    return list(model.model_fields)


def _fail(card_id: str, field: str, message: str) -> CardError:
    return CardError(f"card {card_id}, field {field}: {message}")


def parse_card(raw: Any, position: int) -> Card:
    """Validate one card of the file; a problem raises CardError naming its id and field."""
    card_id = raw.get("id") if isinstance(raw, dict) else None
    name = str(card_id) if card_id else f"#{position + 1} (no id)"
    if not isinstance(raw, dict):
        raise CardError(f"card {name}: each card must be a JSON object")
    if raw.get("deck") not in ("WX", "H", "F", "ATM"):
        got = f"not {raw['deck']!r}" if "deck" in raw else "missing"
        raise _fail(name, "deck", f"must be WX, H, F or ATM, {got}")
    try:
        card = _CARD.validate_python(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        got = err.get("input")
        field = _field(err["loc"])
        if err["type"] == "extra_forbidden":
            known = _fields_of(raw["deck"], field)
            listed = f"; the fields are: {', '.join(known)}" if known else ""
            raise _fail(name, field, f"unknown field{listed}") from None
        # The value typed, beside what is allowed; not a whole object or a missing one.
        shown = (
            "" if err["type"] == "missing" or isinstance(got, dict | list) else f" (got {got!r})"
        )
        raise _fail(name, field, problem_words(err) + shown) from None
    if isinstance(card, ProcessCard):
        _check_process_card(card)
    return card


def _check_process_card(card: ProcessCard) -> None:
    """Cross-field rules the seed states or the engine relies on."""
    if ROCK_CLASS[card.rock] != DECK_CLASS[card.deck]:
        raise _fail(
            card.id,
            "rock",
            f"{card.rock} is {ROCK_CLASS[card.rock]} but the {card.deck} deck holds "
            f"{DECK_CLASS[card.deck]} rocks",
        )
    if card.mohs != MOHS[card.rock]:
        raise _fail(card.id, "mohs", f"{card.rock} has Mohs hardness {MOHS[card.rock]}")
    if not card.id.startswith(card.deck):
        raise _fail(card.id, "id", f"a {card.deck} card's id starts with {card.deck}")
    p = card.process
    expected = {"WX": ("weather_n", "weather_types"), "H": ("hillslope_n",), "F": ("transport_n",)}
    if p.kind not in expected[card.deck]:
        raise _fail(
            card.id, "process.kind", f"a {card.deck} card's process is one of {expected[card.deck]}"
        )
    if p.kind == "weather_types":
        if not p.types:
            raise _fail(card.id, "process.types", "a typed WX card lists at least one rock type")
        if p.n or p.max_hardness is not None:
            raise _fail(card.id, "process.n", "a typed WX card has no number or hardness")
    else:
        if p.n < 1:
            raise _fail(card.id, "process.n", "must be at least 1")
        if p.types:
            raise _fail(card.id, "process.types", "only typed WX cards list rock types")
        if (p.kind == "weather_n") != (p.max_hardness is not None):
            raise _fail(
                card.id, "process.max_hardness", "numeric WX cards, and only they, have one"
            )
    if p.kind == "transport_n" and p.elevation is not None:
        raise _fail(card.id, "process.elevation", "F cards carry no elevation icon")


CARD_FILE_HELP = (
    'a JSON object {"cards": [...]} (as the shipped cards.json) or a TOML file of [[cards]] '
    "tables, a missing field meaning null"
)
"""What a designer's card file holds, for errors that cannot name a card."""


def load_cards(
    text: str, source: str = "", fmt: Literal["json", "toml"] = "json"
) -> tuple[Card, ...]:
    """Parse and validate a card file's text; the counts must be the seed's 38/32/20/6.

    ``source`` (the file's path, for a designer's file) starts every error, so that a
    message names the file, the card and the field: ``my/cards.json: card F73, field
    process.n: must be at least 1``. Raises CardError for the first problem."""
    cards, problems = _parse_cards(text, fmt)
    if problems:
        raise CardError(_where(source) + problems[0])
    return cards


def card_problems(text: str, source: str = "", fmt: Literal["json", "toml"] = "json") -> list[str]:
    """Every problem of a card file, one line each (each card's first, then the checks of
    the whole file once every card reads), each naming ``source``; empty when it loads."""
    return [_where(source) + problem for problem in _parse_cards(text, fmt)[1]]


def _where(source: str) -> str:
    return f"{source}: " if source else ""


def _parse_cards(text: str, fmt: Literal["json", "toml"]) -> tuple[tuple[Card, ...], list[str]]:
    """The cards and the problems found (cards valid only when there are none)."""
    try:
        data = parse_toml(text) if fmt == "toml" else parse_json(text)
    except Unreadable as exc:
        return (), [f"the card file is {exc}"]
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        return (), [f'the card file must hold a "cards" list: {CARD_FILE_HELP}']
    cards: list[Card] = []
    problems: list[str] = []
    for i, raw in enumerate(data["cards"]):
        try:
            cards.append(parse_card(raw, i))
        except CardError as exc:
            problems.append(str(exc))
    if problems:
        return (), problems
    try:
        _check_deck(tuple(cards))
    except CardError as exc:
        return (), [str(exc)]
    return tuple(cards), []


def _check_deck(cards: tuple[Card, ...]) -> None:
    """What holds across the cards: unique ids, the seed's counts, the Atmosphere pairs."""
    seen: set[str] = set()
    for card in cards:
        if card.id in seen:
            raise _fail(card.id, "id", "two cards share this id")
        seen.add(card.id)
    for deck, count in SEED_COUNTS.items():
        found = sum(1 for c in cards if c.deck == deck)
        if found != count:
            raise CardError(
                f"the card file has {found} {deck} cards; a card file holds the seed's "
                f"{count}: change cards rather than add or remove them"
            )
    ages = [c.age for c in cards if isinstance(c, AtmosphereCard)]
    unders = sorted(c.under for c in cards if isinstance(c, AtmosphereCard))
    if unders != sorted([*PROCESS_DECKS, *PROCESS_DECKS]):
        raise CardError("each process deck lies on a pair of Atmosphere cards (field under)")
    if sorted(set(ages)) != sorted(AGE_NAMES):
        raise CardError("the Atmosphere cards show the Hypoxic, Ice and Arid Ages (field age)")
    processes = {c.process.name for c in cards if isinstance(c, ProcessCard)}
    for card in cards:
        effect = (
            card.architecture.effect
            if isinstance(card, ProcessCard) and card.architecture
            else None
        )
        if isinstance(effect, ResistsExcept) and effect.process not in processes:
            # A misspelt name is no process at all: the rock would resist every card.
            raise _fail(
                card.id,
                "architecture.effect.process",
                f"no card's process is called {effect.process!r}"
                f"{did_you_mean(effect.process, processes)}",
            )
    # Process cards first, in deck order, then the Atmospheres: card indices follow the file.
    order = {"WX": 0, "H": 1, "F": 2, "ATM": 3}
    if [order[c.deck] for c in cards] != sorted(order[c.deck] for c in cards):
        raise CardError("list the WX, then H, then F, then Atmosphere cards (field deck)")


def card_file_format(path: str | Path) -> Literal["json", "toml"]:
    """How a designer's card file is read: TOML for a ``.toml`` name, JSON otherwise."""
    return "toml" if str(path).lower().endswith(".toml") else "json"


def read_card_file(path: str | Path) -> str:
    """A designer's card file's text; CardError (naming it) when it cannot be read."""
    try:
        return read_text_capped(Path(path))
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise CardError(f"{path}: no such card file ({CARD_FILE_HELP})") from None
    except OSError as exc:  # a device, a pipe, too large, not UTF-8, not readable
        raise CardError(f"{path}: cannot read it: {exc.strerror or exc}") from None


def card_file(path: str | None) -> tuple[tuple[Card, ...], str]:
    """The cards of the ``cards`` option, with what identifies them: the shipped cards and
    ``"shipped"`` for None, else a designer's file's cards and its :func:`content_digest`.

    Shared while the file holds the same bytes; an edited file is read again."""
    if path is None:
        return standard_cards(), "shipped"
    try:
        stamp = content_digest([Path(path)])
    except OptionError as exc:
        raise CardError(str(exc)) from None
    return _load_card_path(str(path), stamp), stamp


@lru_cache(maxsize=32)
def _load_card_path(path: str, stamp: str) -> tuple[Card, ...]:
    return load_cards(read_card_file(path), path, card_file_format(path))


def load_legends(text: str) -> tuple[tuple[LegendCard, ...], tuple[ChallengeCard, ...]]:
    """Parse and validate the Montane Legend Variant cards (legends and challenges)."""
    try:
        data = parse_json(text)
    except Unreadable as exc:
        raise CardError(f"the legend file is {exc}") from None
    out: list[tuple[Any, ...]] = []
    for key, model in (("legends", LegendCard), ("challenges", ChallengeCard)):
        items = data.get(key) if isinstance(data, dict) else None
        if not isinstance(items, list) or not items:
            raise CardError(f'the legend file needs a non-empty "{key}" list')
        parsed = []
        for i, raw in enumerate(items):
            name = str(raw.get("id")) if isinstance(raw, dict) and raw.get("id") else f"#{i + 1}"
            try:
                parsed.append(model.model_validate(raw))
            except ValidationError as exc:
                err = exc.errors()[0]
                raise _fail(name, _field(err["loc"]), problem_words(err)) from None
        out.append(tuple(parsed))
    legends, challenges = out
    if len(challenges) < 5:
        raise CardError("the variant deals one challenge card to each of up to 5 players")
    return legends, challenges


@cache
def standard_cards() -> tuple[Card, ...]:
    """The shipped card list (``cards.json``), validated once."""
    text = read_text_capped(resources.files(__package__).joinpath("cards.json"))
    return load_cards(text)


@cache
def standard_legends() -> tuple[tuple[LegendCard, ...], tuple[ChallengeCard, ...]]:
    """The shipped legend and challenge cards (``legends.json``), validated once."""
    text = read_text_capped(resources.files(__package__).joinpath("legends.json"))
    return load_legends(text)
