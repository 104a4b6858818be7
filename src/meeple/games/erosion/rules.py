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

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, get_args

from pydantic import Field, field_validator, model_validator

from meeple.core.game import Game, Player, State
from meeple.core.options import GameOptions
from meeple.core.registry import register
from meeple.core.rng import make_rng
from meeple.games.erosion.cards import (
    PROCESS_DECKS,
    UPON_UPLIFT,
    Age,
    CardError,
    ChallengeCard,
    LegendCard,
    card_file,
    card_file_format,
    card_problems,
    read_card_file,
    standard_legends,
)
from meeple.games.erosion.eras import Eras
from meeple.games.erosion.hidden import Hidden
from meeple.games.erosion.legal import LegalActions
from meeple.games.erosion.notation import Notation
from meeple.games.erosion.pieces import (
    HAND_SIZE,
    HIGH_METRES,
    ROCK_METRES,
    SEAT_NAMES,
    STARTING_MIX,
    WX,
    Catalog,
    Choose,
    Draw,
    ErosionAction,
    F,
    Fault,
    Fluvial,
    Guess,
    H,
    Hillslope,
    Pass,
    Pay,
    Phase,
    Redraw,
    Step,
    StepKind,
    Tie,
    TiePurpose,
    Transport,
    Trigger,
    Uplift,
    Weather,
    matchable,
    splits,
    without,
)
from meeple.games.erosion.transitions import Transitions
from meeple.games.erosion.words import era_scored, move_words, tie_broken

if TYPE_CHECKING:
    pass


__all__ = [
    "HAND_SIZE",
    "HIGH_METRES",
    "ROCK_METRES",
    "SEAT_NAMES",
    "STARTING_MIX",
    "WX",
    "Choose",
    "Draw",
    "ErosionAction",
    "ErosionGame",
    "ErosionOptions",
    "ErosionState",
    "F",
    "Fault",
    "Fluvial",
    "Guess",
    "H",
    "Hillslope",
    "Pass",
    "Pay",
    "Phase",
    "Redraw",
    "Step",
    "Tie",
    "Transport",
    "Trigger",
    "Uplift",
    "Weather",
    "matchable",
]


# -- options --------------------------------------------------------------------------------
class ErosionOptions(GameOptions):
    """Options of Erosion."""

    players: int = Field(title="Players", default=2, ge=2, le=5, description="number of players")
    advanced: bool = Field(
        title="Advanced Rules",
        default=False,
        description="Advanced Rules: Montane Architecture and Atmospheric Triggers",
    )
    # Beside the Advanced Rules it belongs to: offered only with them (applies_when), it
    # appears right under their checkbox in the lobby's form.
    uplift_architecture: Literal["every", "once"] = Field(
        title="Uplift architecture fires",
        default="every",
        description="Advanced Rules: 'upon uplift' architecture fires every time its card is "
        "uplifted (every), or only the first time in the game (once)",
        json_schema_extra={"applies_when": {"advanced": True}},
    )
    legend: Literal["off", "basic", "advanced"] = Field(
        title="Montane Legend variant",
        default="off",
        description="Montane Legend Variant: off, basic claims (one capstone type) or "
        "advanced claims (both types on the mountaintop)",
    )
    first: int | Literal["random"] = Field(
        title="Who starts",
        default="random",
        description="seat that starts; random: drawn at random as the match starts",
        json_schema_extra={"allowed": "random | a seat number"},
    )
    typed_weathering: Literal["shield", "pass-over"] = Field(
        title="A weathering card meets another rock type",
        default="shield",
        description="a WX card that lists rock types meets a rock of another type: it cannot "
        "weather it, so the rock shields all beneath (shield); or it passes over it, and only "
        "a rock that cannot be weathered at all (architecture) shields (pass-over)",
    )
    empty_hand: Literal["after-uplift", "before-uplift"] = Field(
        title="When an emptied hand draws 6",
        default="after-uplift",
        description="'If your play empties your hand, draw 6 new cards': checked once the "
        "play is complete, after its uplift draws (after-uplift); or as soon as the card is "
        "played, before the uplift draws, which then come on top of the six (before-uplift)",
    )
    draw_from: Literal["several", "one"] = Field(
        title="Draw Cards takes from",
        default="several",
        description="the Draw Cards action takes its cards from any of the process decks "
        "together (several) or all from one deck (one)",
    )
    cards: str | None = Field(
        default=None,
        description="path of a card file (JSON as the shipped cards.json, or TOML) to play "
        "with instead of the shipped 96 cards; default (or the word default): the shipped "
        "cards (meeple content copy erosion FOLDER writes them out to edit)",
        json_schema_extra={
            "allowed": "default | a path to a .json or .toml card file",
            "default_words": "shipped",
            "external": True,
            "shipped": "cards.json",
        },
    )

    @field_validator("cards")
    @classmethod
    def _cards(cls, value: str | None) -> str | None:
        try:
            card_file(value)
        except CardError as exc:
            raise ValueError(str(exc)) from None
        return value

    @model_validator(mode="after")
    def _first_is_a_seat(self) -> ErosionOptions:
        if self.first != "random" and not 0 <= self.first < self.players:
            raise ValueError(
                f"first must be random or a seat from 0 to {self.players - 1}, not {self.first}"
            )
        return self


# -- the game -------------------------------------------------------------------------------
@register
class ErosionGame(Notation, Game[ErosionOptions, "ErosionState", ErosionAction]):
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

    @classmethod
    def data_problems(cls, option: str, path: Path) -> list[str]:
        """Every problem of a card file, one line each: each card's first (naming the card
        and the field), then what holds across the cards."""
        if option != "cards":
            return super().data_problems(option, path)
        try:
            text = read_card_file(path)
        except CardError as exc:
            return [str(exc)]
        return card_problems(text, str(path), card_file_format(path))

    def __init__(self, options: ErosionOptions) -> None:
        super().__init__(options)
        self.catalog = Catalog(*card_file(options.cards))
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

    def length_units(self, state: ErosionState) -> dict[str, int]:
        """Eras played and turns taken (the last of each, in which the game ended, included)."""
        return {"eras": state.era, "turns": state.turn}

    def max_decisions(self) -> int:
        """At most this many decisions an era, times the eras: a bound the rules prove, not
        a length anyone plays. Within an era no card goes back, so each of K process cards
        is drawn, leaves a hand (played, uplifted or paid), reaches the River and reaches a
        delta at most once: at most 2K draws (each takes a card) and cards leaving a hand,
        K Transports, K Earthquake Faults where a card has one, and each card's Atmospheric
        Triggers once. A play or a draw restarts the count of passes, and the players' pass
        in a row ends the era: at most (players - 1)(2K + 1) + 1 passes. Then a
        tie-breaker: a guess a seat, one choice."""
        cat = self.catalog
        k = cat.num_process
        architecture = [e for e in cat.effect if e is not None] if self.options.advanced else []
        faults = k if any(e.kind == "uplift_hillslope" for e in architecture) else 0
        triggers = sum(len(e.ages) for e in architecture if e.kind == "uplift_trigger")
        n = self.num_players
        passes = (n - 1) * (2 * k + 1) + 1
        return self.eras * (2 * k + k + faults + triggers + passes + n + 1)

    def view_words(self) -> dict[str, tuple[str, ...] | None]:
        """Every phase, step, Age and tie-break purpose (an era's tie-break is rare in random
        play)."""
        ages = get_args(Age)
        return {
            "phase": get_args(Phase),
            "step.kind": get_args(StepKind),
            "step.age": ages,
            "atmosphere[*].age": ages,
            "atmosphere[*].showing": ("age", "normal"),
            "tiebreak.purpose": get_args(TiePurpose),
        }

    def card_names(self) -> tuple[str, ...]:
        """The processes of the card list (Braided, Salt Crystallization, ...), in file
        order: a designer counts a process, which several cards share, not a card's id."""
        return tuple(dict.fromkeys(self.catalog.process_name))

    def log_words(self, state: ErosionState, player: Player, action: ErosionAction) -> str:
        """Every move in words (the notation names cards by id and seats by number), with
        the forced steps the engine took after it; only what the whole table sees
        (:mod:`meeple.games.erosion.words`)."""
        return move_words(state, player, action)

    def log_after(
        self, state: ErosionState, player: Player, action: ErosionAction
    ) -> tuple[str, ...]:
        """An era the move ends, scored seat by seat, part by part
        (:func:`meeple.games.erosion.words.era_scored`); a tie-breaker the last guess
        completes, card by card (:func:`meeple.games.erosion.words.tie_broken`)."""
        return era_scored(state, player, action) + tie_broken(state, player, action)

    def cards_played(
        self, state: ErosionState, player: Player, action: ErosionAction
    ) -> tuple[str, ...]:
        """The process a play from the hand uses (``weather WX12 on 1 x2``: WX12's)."""
        if isinstance(action, Weather | Hillslope | Fluvial):
            return (self.catalog.process_name[self.catalog.process_card(action.card)],)
        return ()

    def legend_condition(self, card: LegendCard) -> str:
        """A legend's claim condition in words: the printed text ('capped by X or Y') with
        basic claims; with advanced claims, which want 'both listed rock types on your
        mountaintop, instead of just one', the height and the two top rocks it asks for."""
        if self.options.legend != "advanced":
            return card.text
        first, second = card.condition.rocks
        return (
            f"{card.condition.min_height_m} m or more, the top two rocks {first} and {second} "
            "in any order"
        )

    def player_rules_values(self) -> dict[str, str]:
        """The options, the seats, the eras and the legend and challenge cards in play, for
        ``player_rules.md``."""
        first = self.options.first
        rows = ["| legend | condition | points |", "|---|---|---|"]
        rows += [
            f"| {c.name} | {self.legend_condition(c)} | {c.points} |" for c in self.legend_cards
        ]
        rows += ["", "| challenge | condition | bonus |", "|---|---|---|"]
        rows += [f"| {c.name} | {c.text} | {c.points} |" for c in self.challenge_cards]
        return {
            **super().player_rules_values(),
            "seat_names": ", ".join(SEAT_NAMES[: self.num_players]),
            "eras_text": "one era" if self.eras == 1 else f"{self.eras} eras",
            "first_name": "random" if first == "random" else self.seat_name(first),
            "legends_table": "\n".join(rows),
            "process_table": self.process_table(),
        }

    def process_table(self) -> str:
        """The processes of this game's cards (a designer's card file's included), as a
        Markdown table: one row per deck, process, effect and icon, with its number of cards."""
        decks = list(PROCESS_DECKS)
        # By deck, then kind of process and strength, as the reference's table lists them.
        cards = sorted(
            self.catalog.process_cards,
            key=lambda c: (decks.index(c.deck), c.process.kind, c.process.n, c.process.name),
        )
        counts: dict[tuple[str, str, str, str], int] = {}
        for card in cards:
            p = card.process
            key = (card.deck, p.name, p.does, p.elevation or "—")
            counts[key] = counts.get(key, 0) + 1
        rows = ["| deck | process | does | icon | cards |", "|---|---|---|---|---|"]
        rows += [f"| {' | '.join(key)} | {n} |" for key, n in counts.items()]
        return "\n".join(rows)

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

    # -- extras -----------------------------------------------------------------------------
    def card_list(self) -> list[dict[str, Any]]:
        """The shipped cards (rock, hardness, fossil, process of each id), and the legend
        and challenge cards of the Legend variant when it is on."""
        cards = [card.model_dump(mode="json") for card in self.catalog.cards]
        extra = (*self.legend_cards, *self.challenge_cards)
        return cards + [card.model_dump(mode="json") for card in extra]


# -- the state ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, eq=True)
class ErosionState(LegalActions, Transitions, Eras, Hidden, State[ErosionAction]):
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
    top down and hillslope takes from the top, so the weathered rocks are on top; only
    ``typed_weathering=pass-over`` leaves others below, in :attr:`weathered_below`)."""
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
    weathered_below: tuple[tuple[int, ...], ...] = ()
    """Per seat, weathered rocks lying below an unweathered one (sorted card numbers; only
    under ``typed_weathering=pass-over``); () when there are none anywhere."""
    fired: tuple[int, ...] = ()
    """Cards whose 'upon uplift' architecture has fired (kept, sorted, only under
    ``uplift_architecture=once``)."""

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

    def architecture_in_force(self, seat: int) -> list[int]:
        """The rocks of the seat's mountain whose red architecture is in force, top first:
        with the Advanced Rules, its unweathered rocks (wherever they lie: weathered rocks
        below them do not count) that have architecture, which applies 'as long as the rock
        remains unweathered'. 'Upon uplift' architecture happened, if at all, when the card
        was uplifted: it is not in force in the mountain."""
        if not self.game.options.advanced:
            return []
        kinds = self.game.catalog.effect_kind
        return [r for r in self.unweathered_rocks(seat) if kinds[r] and kinds[r] not in UPON_UPLIFT]

    def _architecture(self, seat: int, kind: str) -> list[Any]:
        """Red architecture in force on a mountain: effects of one kind."""
        cat = self.game.catalog
        rocks = self.architecture_in_force(seat)
        return [cat.effect[r] for r in rocks if cat.effect_kind[r] == kind]

    def below(self, seat: int) -> tuple[int, ...]:
        """Weathered rocks of the seat's mountain lying below an unweathered rock."""
        return self.weathered_below[seat] if self.weathered_below else ()

    def unweathered_rocks(self, seat: int) -> list[int]:
        """The rocks of the seat's mountain that are not weathered, top first."""
        below = self.below(seat)
        rocks = self.mountains[seat][self.weathered[seat] :]
        return [r for r in rocks if r not in below] if below else list(rocks)

    def weathered_rocks(self, seat: int) -> list[int]:
        """The weathered rocks of the seat's mountain, top first."""
        rocks = self.mountains[seat]
        return [*rocks[: self.weathered[seat]], *self.below(seat)]

    def counts_as_high(self, seat: int) -> bool:
        """4000 m or more for elevation icons (a Caldera counts as that high)."""
        return self.height_m(seat) >= HIGH_METRES or bool(
            self._architecture(seat, "counts_as_high")
        )

    def icon_allows(self, card: int, mountain: int) -> bool:
        """Whether a card's elevation icon lets it play on a mountain: a mountain icon only
        on one that counts as 4000 m or more, a hill icon only under; no icon anywhere."""
        icon = self.game.catalog.icon[card]
        return icon is None or (icon == "mountain") == self.counts_as_high(mountain)

    def weather_limit(self, player: Player, card: int) -> int:
        """How many rocks a numbered WX card may weather: its number, and the bonus of the
        architecture in force in the seat's mountain (Exfoliation Domes)."""
        bonus = sum(e.rocks for e in self._architecture(player, "weather_bonus"))
        return self.game.catalog.n[card] + bonus

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

    def draw_options(
        self, player: Player, wanted: int, one_deck: bool = False
    ) -> list[tuple[int, int, int]]:
        """Every way to draw ``wanted`` cards within draw limits, or as many as they allow;
        with ``one_deck``, all from one deck (as many as that deck allows)."""
        caps = self.draw_caps(player)
        if one_deck:
            return [
                tuple(min(wanted, cap) if d == deck else 0 for d in range(3))  # type: ignore[misc]
                for deck, cap in enumerate(caps)
                if cap and wanted > 0
            ]
        total = min(wanted, sum(caps))
        if total <= 0:
            return []
        return list(splits(caps, total))

    def weather_reach(self, player: Player, card: int, mountain: int) -> int:
        """How many rocks a WX card could weather on a mountain (0 if it may not be played
        there): from the top down, passing over weathered rocks, stopping at the first rock
        it cannot weather, which shields every rock beneath it."""
        return len(self.weather_targets(player, card, mountain))

    def weather_targets(self, player: Player, card: int, mountain: int) -> list[int]:
        """The rocks a WX card could weather on a mountain, top first (see
        :meth:`weather_reach`). Under ``typed_weathering=pass-over`` a typed card passes
        over rocks of types it does not list instead of being shielded by them."""
        cat = self.game.catalog
        if not self.icon_allows(card, mountain):
            return []
        if cat.kind[card] == "weather_n":
            limit = self.weather_limit(player, card)
            hardness, types = cat.max_hardness[card], None
        else:
            # a typed card has no number: it weathers every listed rock it reaches
            limit, hardness, types = len(self.mountains[mountain]), 0, cat.types[card]
        advanced = self.game.options.advanced
        passing = self.game.options.typed_weathering == "pass-over"
        below = self.below(mountain)
        out: list[int] = []
        for rock in self.mountains[mountain][self.weathered[mountain] :]:
            if len(out) >= limit:
                break
            if rock in below:
                continue  # 'Each rock may only be weathered once'
            if types is None:
                if cat.mohs[rock] > hardness:
                    break
            elif cat.rock[rock] not in types:
                if passing:
                    continue
                break
            if advanced and not self._weatherable_by(rock, card):
                break
            out.append(rock)
        return out

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
        if not self.icon_allows(card, mountain):
            return 0
        return min(self.game.catalog.n[card], self.weathered[mountain])

    def fluvial_counts(self, player: Player, card: int) -> list[int]:
        """How many rocks an F card may transport now: its number (a Glacier on a mountain of
        4000 m or more allows one more), where the River and the hand can pay for them."""
        cat = self.game.catalog
        counts = {cat.n[card]}
        if self.height_m(player) >= HIGH_METRES:
            for effect in self._architecture(player, "transport_bonus_if_high"):
                counts.add(cat.n[card] + effect.rocks)
        possible = matchable(self.river, without(self.hands[player], card), cat.rock)
        return sorted(k for k in counts if k <= possible)

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
        view: dict[str, Any] = {
            "game": game.name,
            "seat": player,
            "seats": game.seat_names(),
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
            # The page warns before a pass that ends the era from the rules' own answer.
            "pass_ends_era": None if player is None else self.pass_ends_era(player),
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
        # Public facts that only some readings have (absent by default, so views stay as
        # they were for every other game).
        if game.options.advanced:
            # What the rules apply, so that a page need not work it out from card texts.
            for p, mountain in enumerate(view["mountains"]):
                mountain["architecture_in_force"] = [ids[c] for c in self.architecture_in_force(p)]
        if game.options.typed_weathering == "pass-over":
            for p, mountain in enumerate(view["mountains"]):
                mountain["weathered_below"] = [ids[c] for c in self.below(p)]
        if game.options.uplift_architecture == "once":
            view["fired"] = [ids[c] for c in self.fired]
        return view

    def _hand_classes(self, seat: int) -> tuple[int, int, int]:
        deck = self.game.catalog.deck
        counts = [0, 0, 0]
        for c in self.hands[seat]:
            counts[deck[c]] += 1
        return (counts[0], counts[1], counts[2])
