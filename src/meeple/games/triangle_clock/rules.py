"""The Triangle Clock, by Zero: build hands of triangles that outrank your opponent's.

The rules as the seed states them, in order (gaps filled as in ``rules.md``):

* Setup: 120 cards, each pair of two different symbols of 16 (eight directions, solid or
  clear). Each player is dealt 4 cards. The 16 symbols are put in a random order for rounds
  1-16, shown to both players for a limited time (the *memorise step*) and hidden again;
  the same happens for rounds 17-32.
* A round: the round's shared symbol is revealed. Both players choose a symbol from a card;
  it is revealed. Both choose a symbol from another card; it is revealed. Both choose a
  symbol from either of the two cards they played; the remaining unused symbol is
  discarded. A hand is those three symbols plus the shared one.
* The higher hand scores the strength of the other hand. Each player is dealt two
  replacement cards; the deck reshuffles its discards when it runs out.
* Items (the seed's Final Match): Palette Swap and Right Angle change a symbol you are about
  to reveal (3 uses each, once a round); Mulligan replaces your four cards before your first
  symbol of a round (2 uses).
* After 32 rounds the higher score wins; a tie goes to the player holding more of the
  items (the seed's final: two of the three).

Every choice is simultaneous: both seats submit, the submissions stay hidden in the state
(:class:`~meeple.core.simultaneous.Submissions`) until both are in, and then are revealed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path
from typing import Any, ClassVar

from meeple.core.errors import NotationError
from meeple.core.game import Game, Player, State
from meeple.core.options import GameOptions, moot_text
from meeple.core.registry import register
from meeple.core.rng import make_rng
from meeple.core.simultaneous import Submissions
from meeple.games.triangle_clock.cards import (
    CARD_NAMES,
    CARDS,
    NUM_CARDS,
    NUM_SYMBOLS,
    SYMBOL_NAMES,
    Symbol,
    describe_symbol,
)
from meeple.games.triangle_clock.hands import (
    HandValue,
    Ranking,
    RankingTableError,
    TieBreak,
    example_hands,
    hand_text,
    load_ranking_table,
    ranking,
)
from meeple.games.triangle_clock.hidden import Hidden
from meeple.games.triangle_clock.options import TriangleClockOptions
from meeple.games.triangle_clock.pieces import (
    _ITEM_WORDS,
    _PICK_RE,
    BLOCK,
    HAND_SIZE,
    ITEM_LABELS,
    ITEM_USES,
    LETTERS,
    MEMORISED,
    MULLIGAN,
    REPLACEMENTS,
    ROUNDS,
    SEAT_NAMES,
    SEATS,
    SEED_ITEMS,
    Item,
    Memorised,
    Mulligan,
    Phase,
    Pick,
    RoundResult,
    Seat,
    SeatRound,
    Supply,
    TriangleClockAction,
    item_labels,
    items_text,
    parse_items,
    told_plainly,
    with_seat,
)

__all__ = [
    "BLOCK",
    "HAND_SIZE",
    "ITEM_LABELS",
    "ITEM_USES",
    "LETTERS",
    "MEMORISED",
    "MULLIGAN",
    "REPLACEMENTS",
    "ROUNDS",
    "SEATS",
    "SEAT_NAMES",
    "SEED_ITEMS",
    "Item",
    "Memorised",
    "Mulligan",
    "Phase",
    "Pick",
    "RoundResult",
    "Seat",
    "SeatRound",
    "Supply",
    "TriangleClockAction",
    "TriangleClockGame",
    "TriangleClockOptions",
    "TriangleClockState",
    "item_labels",
    "items_text",
    "parse_items",
]


# -- the game -------------------------------------------------------------------------------
@register
class TriangleClockGame(Game[TriangleClockOptions, "TriangleClockState", TriangleClockAction]):
    """The Triangle Clock for two players, with the seed's Final Match items."""

    name: ClassVar[str] = "triangle-clock"
    title: ClassVar[str] = "The Triangle Clock"
    summary: ClassVar[str] = (
        "Reveal triangles from your cards in three simultaneous steps to build a hand that "
        "outranks your opponent's, remembering the order of the shared symbols."
    )
    Options: ClassVar[type[GameOptions]] = TriangleClockOptions
    players: ClassVar[str] = "2"
    perfect_information: ClassVar[bool] = False
    heuristic_agent: ClassVar[str | None] = "heuristic"
    step_names: ClassVar[tuple[str, ...]] = tuple(phase.label for phase in Phase)

    @classmethod
    def data_problems(cls, option: str, path: Path) -> list[str]:
        """A ranking table's problems, naming the file, the rank and the field."""
        if option != "ranking":
            return super().data_problems(option, path)
        try:
            load_ranking_table(path)
        except RankingTableError as exc:
            return [str(exc)]
        return []

    def notes(self) -> list[str]:
        """A rank that scores more than the rank just above it in the ranking table
        (allowed: the table is the designer's, but the winner of a better hand then scores
        less), and a Mulligan order set where no seat holds a Mulligan (which an option's
        ``applies_when`` cannot say: ``items`` names the holdings in a syntax of its own)."""
        out = []
        if "mulligan_order" in self.options.changed() and not any(
            Item.MULLIGAN in held for held in self.holdings
        ):
            needs = f"where a seat holds a Mulligan (items={self.options.items})"
            out.append(moot_text("mulligan_order", self.options.mulligan_order, needs))
        ranks = self.ranking.ranks
        for higher, lower in pairwise(ranks):
            if lower.strength > higher.strength:
                out.append(
                    f"the ranking table's {lower.name} scores {lower.strength}, more than "
                    f"{higher.name} above it ({higher.strength}): a winner whose opponent "
                    "held the better hand scores less"
                )
        return out

    def __init__(self, options: TriangleClockOptions) -> None:
        super().__init__(options)
        tie_break: TieBreak = options.tie_break
        self.ranking: Ranking = ranking(options.ranking, tie_break)
        self.holdings: tuple[frozenset[Item], frozenset[Item]] = parse_items(options.items)
        self.held: tuple[tuple[Item, ...], ...] = tuple(tuple(sorted(h)) for h in self.holdings)
        """Each seat's items in a fixed order."""
        # One shared object per action keeps legal-move generation cheap.
        self._picks = tuple(
            Pick(letter, bool(k & 1), bool(k & 2)) for letter in range(8) for k in range(4)
        )
        self._actions: tuple[TriangleClockAction, ...] = (*self._picks, MULLIGAN, MEMORISED)

    # -- seats ------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        """Two."""
        return 2

    def seat_name(self, player: Player) -> str:
        """Tick and Tock."""
        return SEAT_NAMES[player]

    def seat_role(self, player: Player) -> str | None:
        """The Final Match items the seat holds (``palette-swap+right-angle``, or ``no
        items``): a designer's Tick and Tock differ by them as Squad Combat's seats by deck."""
        return "+".join(item.label for item in self.held[player]) or "no items"

    def length_units(self, state: TriangleClockState) -> dict[str, int]:
        """Rounds played (32 in a finished game: ``round`` is 33 once it is over)."""
        return {"rounds": min(state.round, 33) - 1}

    def view_words(self) -> dict[str, tuple[str, ...] | None]:
        """The sentence that says why one of two equal ranks scored is free text: the hands
        it reads are in the view beside it."""
        return {"last_round.tie_break": None}

    def card_names(self) -> tuple[str, ...]:
        """The items either seat holds (the cards are dealt, not chosen: not counted)."""
        return tuple(i.label for i in Item if any(i in h for h in self.holdings))

    def cards_played(
        self, state: TriangleClockState, player: Player, action: TriangleClockAction
    ) -> tuple[str, ...]:
        """The items a pick uses, or the mulligan."""
        if isinstance(action, Pick):
            return tuple(i.label for i in action.items)
        return (Item.MULLIGAN.label,) if isinstance(action, Mulligan) else ()

    def max_decisions(self) -> int:
        """A memorise step for each 16 rounds and three choices a round, both seats at once;
        a Mulligan is a choice more for its seat (the other may have chosen already), at
        most one for each use either seat holds."""
        mulligans = sum(self.initial_uses(p)[Item.MULLIGAN] for p in SEATS)
        return ROUNDS // BLOCK + 3 * ROUNDS + mulligans

    def player_rules_values(self) -> dict[str, str]:
        """The options, the ranking table with an example of each rank, who holds which
        items and who wins a tie on points, for ``player_rules.md``."""
        examples = example_hands(self.ranking)
        rows = ["| # | hand | strength | example |", "|---|---|---|---|"]
        for k, spec in enumerate(self.ranking.ranks):
            example = examples[k]
            shown = hand_text(example) if example else "(none possible)"
            rows.append(f"| {k + 1} | {spec.name} | {spec.strength} | {shown} |")
        held = []
        for seat, items in enumerate(self.held):
            titles = [item.title for item in items]
            names = " and ".join(
                [", ".join(titles[:-1]), titles[-1]] if len(titles) > 1 else titles
            )
            names = names or "no item"
            held.append(f"{SEAT_NAMES[seat]} holds {names}")
        counts = [len(items) for items in self.held]
        if counts[0] == counts[1]:
            tie = "equal scores are a draw (both hold as many items)"
        else:
            more = SEAT_NAMES[counts.index(max(counts))]
            tie = f"on equal scores {more} wins, holding more of the items"
        return {
            **super().player_rules_values(),
            "ranking_table": "\n".join(rows),
            "items_text": "; ".join(held) + ".",
            "tie_text": tie,
        }

    def initial_uses(self, player: Player) -> tuple[int, ...]:
        """Uses of each item a seat starts with (0 for items it does not hold)."""
        return tuple(ITEM_USES[i] if i in self.holdings[player] else 0 for i in Item)

    # -- setup ------------------------------------------------------------------------------
    def new_game(self, seed: int) -> TriangleClockState:
        """Shuffle the 120 cards, deal 4 to each player, put the 16 symbols in a random
        order for rounds 1-16 and another for rounds 17-32; the first step is memorising."""
        deck = list(range(NUM_CARDS))
        make_rng(seed, "deck").shuffle(deck)
        orders = []
        for block in range(ROUNDS // BLOCK):
            order = list(range(NUM_SYMBOLS))
            make_rng(seed, "shared-order", block + 1).shuffle(order)
            orders.append(tuple(order))
        seats = tuple(
            Seat(tuple(deck[p * HAND_SIZE : (p + 1) * HAND_SIZE]), (), self.initial_uses(p), 0)
            for p in SEATS
        )
        return TriangleClockState(
            game=self,
            seed=seed,
            round=1,
            phase=Phase.MEMORISE,
            seats=(seats[0], seats[1]),
            supply=Supply(tuple(deck[2 * HAND_SIZE :]), (), 0),
            orders=tuple(orders),
            pending=Submissions.open(SEATS),
            history=(),
        )

    # -- notation and encoding --------------------------------------------------------------
    def _parse_action(self, text: str) -> TriangleClockAction:
        """Read ``C``, ``C +palette-swap``, ``F +right-angle +palette-swap``, ``mulligan``
        or ``memorised``."""
        word = text.strip().lower()
        if word == "mulligan":
            return MULLIGAN
        if word in ("memorised", "memorized"):
            return MEMORISED
        m = _PICK_RE.match(text)
        if not m:
            raise NotationError(f"{text!r} is not a Triangle Clock move; {self.notation_help()}")
        letter = LETTERS.index(m.group(1).upper())
        used: set[Item] = set()
        for word in re.split(r"[\s+]+", m.group(2).strip()):
            if not word:
                continue
            item = _ITEM_WORDS.get(word.lower())
            if item is None or item is Item.MULLIGAN:
                raise NotationError(
                    f"{word!r} is not an item used on a symbol; write +palette-swap or "
                    "+right-angle after the letter"
                )
            used.add(item)
        return self._picks[
            4 * letter + (Item.PALETTE_SWAP in used) + 2 * (Item.RIGHT_ANGLE in used)
        ]

    def notation_help(self) -> str:
        """How to write a move."""
        return (
            "write the letter of the symbol to reveal (A/B on your first card, C/D on the "
            "second, E/F, G/H), optionally with +palette-swap and/or +right-angle, e.g. "
            "'C +right-angle'; 'mulligan' before your first symbol of a round; 'memorised' "
            "when the order of shared symbols is shown"
        )

    @property
    def num_actions(self) -> int:
        """32 picks (8 letters x 4 item combinations), mulligan, memorised."""
        return len(self._actions)

    def action_id(self, action: TriangleClockAction) -> int:
        """Picks are ``4 * letter + palette_swap + 2 * right_angle``; then mulligan (32) and
        memorised (33)."""
        if isinstance(action, Pick):
            return 4 * action.letter + action.palette_swap + 2 * action.right_angle
        return {Mulligan: 32, Memorised: 33}[type(action)]

    def action_from_id(self, action_id: int) -> TriangleClockAction:
        """The action with this id (``Game`` has checked it is one)."""
        return self._actions[action_id]

    def pick(self, letter: int, palette: bool = False, rotate: bool = False) -> Pick:
        """The shared :class:`Pick` object for a letter and items."""
        return self._picks[4 * letter + palette + 2 * rotate]

    # -- extras -----------------------------------------------------------------------------
    def memorise_seconds(self, state: TriangleClockState, player: Player) -> float | None:
        """During a memorise step, the option's seconds; no limit otherwise."""
        if state.phase is Phase.MEMORISE and player in state.to_act:
            return self.options.memorise_seconds
        return None

    def log_words(
        self, state: TriangleClockState, player: Player, action: TriangleClockAction
    ) -> str | None:
        """A pick in words: the symbol revealed (the letter names only a slot of a hand the
        others never saw). None under ``notes=forbidden``: a log of earlier reveals would be
        the written note the rule forbids. ``memorised`` with what the seat was shown
        ("memorised the order of shared symbols for rounds 1 to 16"), which every seat was
        shown alike: the step reveals nothing and decides nothing."""
        if isinstance(action, Memorised):
            first, last = state.block_rounds
            return f"memorised the order of shared symbols for rounds {first} to {last}"
        if not isinstance(action, Pick) or self.options.notes == "forbidden":
            return None
        printed = state.seats[player].symbol_at(action.letter)
        shown = action.changed(printed)
        if shown == printed:
            return f"revealed {describe_symbol(shown)}"
        used = " and ".join(i.label for i in action.items)
        return f"revealed {describe_symbol(shown)} ({describe_symbol(printed)} with {used})"

    def log_after(
        self, state: TriangleClockState, player: Player, action: TriangleClockAction
    ) -> tuple[str, ...]:
        """Below the choice that completes a round, the round's result as the board tells
        it (:meth:`RoundResult.told`; a log shows no board between the rounds); nothing
        below the other choices. Nothing under ``notes=forbidden``: a log of every round's
        shared symbol is the written note of the order that the rule forbids."""
        if self.options.notes == "forbidden":
            return ()
        after = state.apply(player, action)
        assert isinstance(after, TriangleClockState)
        if len(after.history) == len(state.history):
            return ()
        return tuple(told_plainly(line, self) for line in after.history[-1].told(self.ranking))

    def person_view(self, state: TriangleClockState, player: Player | None) -> dict[str, Any]:
        """The view less what "You may not take written notes" leaves to a person's memory
        (``notes=forbidden``): what the terminal leaves off a person's screen."""
        view = state.view(player)
        if self.options.notes != "forbidden":
            return view
        # Where the line is: what is on the table now stays (this round's shared symbol
        # and reveals, scores, items, the deck's size, the order during a memorise step);
        # what earlier rounds left behind is for the person to remember, as a player at
        # the table could only remember it: the discard pile (the cards played, face up
        # but not to be written down), the shared symbols of earlier rounds, and the last
        # round's reveals once the next round's first symbols are in (right after a round,
        # at its first choice, it is still shown: that is looking, not a note). Agents
        # read the whole view; remembering is their own ability (heuristic:recall=false
        # forgets), as rules.md's table of interpretations says.
        view["discards"] = None
        view["shared_revealed"] = None
        if state.phase in (Phase.SECOND, Phase.THIRD):
            view["last_round"] = None
        return view

    def decision_seconds(self, state: TriangleClockState, player: Player) -> float | None:
        """The seed's minute per choice (``choice_seconds``; 0 turns it off), outside the
        memorise step, which has its own time."""
        seconds = self.options.choice_seconds
        if state.phase is Phase.MEMORISE or player not in state.to_act or not seconds:
            return None
        return seconds


# -- states ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, eq=True)
class TriangleClockState(Hidden, State[TriangleClockAction]):
    """A moment of the game: hands, deck, shared orders, scores and the open decision."""

    game: TriangleClockGame
    seed: int
    """The game's seed: later shuffles (reshuffles, mulligans) draw from streams under it."""
    round: int
    """1 to 32; 33 once the game is over."""
    phase: Phase
    seats: tuple[Seat, Seat]
    supply: Supply
    orders: tuple[tuple[Symbol, ...], ...]
    """The order of shared symbols for rounds 1-16 and for rounds 17-32."""
    pending: Submissions[TriangleClockAction]
    """The simultaneous decision now open; choices stay hidden until all are in."""
    history: tuple[RoundResult, ...]

    # -- where we are -----------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[Player, ...]:
        """Seats yet to submit in the open decision; nobody once 32 rounds have passed."""
        if self.phase is Phase.OVER:
            return ()
        return self.pending.waiting

    @property
    def block(self) -> int:
        """0 for rounds 1-16, 1 for rounds 17-32."""
        return (min(self.round, ROUNDS) - 1) // BLOCK

    @property
    def block_rounds(self) -> tuple[int, int]:
        """The first and last rounds of the order of shared symbols this state is in."""
        first = self.block * BLOCK + 1
        return first, first + BLOCK - 1

    @property
    def shared(self) -> Symbol | None:
        """This round's shared symbol, once revealed (after the memorise step)."""
        if self.phase in (Phase.MEMORISE, Phase.OVER):
            return None
        return self.orders[self.block][(self.round - 1) % BLOCK]

    @property
    def scores(self) -> tuple[int, int]:
        """Points of each seat."""
        return self.seats[0].score, self.seats[1].score

    @property
    def step_name(self) -> str:
        """The label of the :attr:`phase`."""
        return self.phase.label

    # -- actions ----------------------------------------------------------------------------
    def legal_actions(self, player: Player) -> list[TriangleClockAction]:
        """Memorised in a memorise step; otherwise the open letters with every allowed
        combination of items, and a mulligan before the first symbol of a round."""
        if player not in self.to_act:
            return []
        if self.phase is Phase.MEMORISE:
            return [MEMORISED]
        seat = self.seats[player]
        picks = self.game._picks
        combos = [0]
        if seat.may_use(Item.PALETTE_SWAP):
            combos.append(1)
        if seat.may_use(Item.RIGHT_ANGLE):
            combos += [c + 2 for c in combos]
        actions: list[TriangleClockAction] = [
            picks[4 * letter + c] for letter in seat.letters_open(self.phase) for c in combos
        ]
        if self.phase is Phase.FIRST and seat.uses[Item.MULLIGAN] > 0:
            actions.append(MULLIGAN)
        return actions

    def why_illegal(self, player: Player, action: TriangleClockAction) -> str | None:
        """A specific reason: the wrong step, a card already used, an item spent."""
        game = self.game
        seat = self.seats[player]
        name = game.seat_name(player)
        if isinstance(action, Memorised):
            if self.phase is not Phase.MEMORISE:
                return "'memorised' is only for the step where the order of shared symbols is shown"
            return None
        if self.phase is Phase.MEMORISE:
            return "first memorise the order of shared symbols (the only move now: memorised)"
        if isinstance(action, Mulligan):
            if Item.MULLIGAN not in game.holdings[player]:
                return f"{name} does not hold the Mulligan"
            if seat.uses[Item.MULLIGAN] == 0:
                return f"{name} has used both Mulligans (it can be used {ITEM_USES[2]} times)"
            if self.phase is not Phase.FIRST:
                return "a Mulligan must be used before submitting your first symbol of a round"
            return None
        if not isinstance(action, Pick):
            return f"{action!r} is not a Triangle Clock action"
        for item in action.items:
            if item not in game.holdings[player]:
                return f"{name} does not hold the {item.title}"
            if seat.uses[item] == 0:
                return f"{name} has used the {item.title} all {ITEM_USES[item]} times"
            if seat.used_this_round(item):
                return f"the {item.title} may not be used more than once in a round"
        letter = LETTERS[action.letter]
        if action.letter not in seat.letters_open(self.phase):
            if self.phase is Phase.SECOND:
                return (
                    f"{letter} is on the card you played first; the second symbol comes from "
                    "another card"
                )
            if self.phase is Phase.THIRD:
                open_letters = " or ".join(LETTERS[k] for k in seat.letters_open(self.phase))
                return f"the third symbol is the unused one of a card you played: {open_letters}"
            return f"{letter} is not a letter of your hand"
        return None

    def _next(self, player: Player, action: TriangleClockAction) -> TriangleClockState:
        if isinstance(action, Mulligan):
            return self._mulligan(player)
        pending = self.pending.submit(player, action)
        if not pending.complete:
            return replace(self, pending=pending)
        if self.phase is Phase.MEMORISE:
            return replace(self, phase=Phase.FIRST, pending=Submissions.open(SEATS))
        chosen = pending.revealed()
        seats = (self.seats[0].reveal(chosen[0]), self.seats[1].reveal(chosen[1]))  # type: ignore[arg-type]
        if self.phase is not Phase.THIRD:
            return replace(
                self, seats=seats, phase=Phase(self.phase + 1), pending=Submissions.open(SEATS)
            )
        return replace(self, seats=seats)._end_round()

    def _mulligan(self, player: Player) -> TriangleClockState:
        """'Scrap your hand of 4 cards, and re add them to the draw deck, then draw 4 new
        cards': by default the new cards come off the deck first, so they are new, then the
        old ones are shuffled into the deck; ``mulligan_order=literal`` follows the seed's
        order (old cards in, shuffle, draw), so an old card may come back."""
        seat = self.seats[player]
        rng = make_rng(self.seed, "mulligan", self.round, player, seat.uses[Item.MULLIGAN])
        if self.game.options.mulligan_order == "literal":
            supply = self.supply.shuffle_in(seat.hand, rng)
            drawn, supply = supply.draw(HAND_SIZE, self.seed)
        else:
            drawn, supply = self.supply.draw(HAND_SIZE, self.seed)
            supply = supply.shuffle_in(seat.hand, rng)
        uses = list(seat.uses)
        uses[Item.MULLIGAN] -= 1
        new_seat = Seat(drawn, (), tuple(uses), seat.score)
        return replace(self, seats=with_seat(self.seats, player, new_seat), supply=supply)

    def _end_round(self) -> TriangleClockState:
        """Compare hands, score, discard the played cards, deal replacements."""
        shared = self.shared
        assert shared is not None
        ranking = self.game.ranking
        values: list[HandValue] = []
        plays: list[SeatRound] = []
        for seat in self.seats:
            hand = (shared, *(seat.revealed(p) for p in seat.picks))
            value = ranking.evaluate(hand)
            values.append(value)
            plays.append(
                SeatRound(seat.played_cards(), seat.picks, hand, value.name, value.strength)
            )
        winner: Player | None = None
        if values[0].key != values[1].key:
            winner = 0 if values[0].beats(values[1]) else 1
        # 'you gain points equal to the strength of your opponents' hand'
        points = 0 if winner is None else values[1 - winner].strength
        result = RoundResult(self.round, shared, (plays[0], plays[1]), winner, points)
        supply = self.supply.discard(plays[0].cards + plays[1].cards)
        next_round = self.round + 1
        seats = []
        for p, seat in enumerate(self.seats):
            score = seat.score + (points if winner == p else 0)
            played = {pick.slot for pick in seat.picks}
            if next_round > ROUNDS:
                # the game is over: nothing is dealt, the unplayed cards stay in hand
                hand = tuple(c for k, c in enumerate(seat.hand) if k not in played)
            else:
                drawn, supply = supply.draw(REPLACEMENTS, self.seed)
                refill = iter(drawn)
                # replacements fill the emptied slots, so kept cards keep their letters
                hand = tuple(next(refill) if k in played else c for k, c in enumerate(seat.hand))
            seats.append(Seat(hand, (), seat.uses, score))
        if next_round > ROUNDS:
            phase = Phase.OVER
        elif (next_round - 1) % BLOCK == 0:
            phase = Phase.MEMORISE
        else:
            phase = Phase.FIRST
        return replace(
            self,
            round=next_round,
            phase=phase,
            seats=(seats[0], seats[1]),
            supply=supply,
            pending=Submissions.open(() if phase is Phase.OVER else SEATS),
            history=(*self.history, result),
        )

    # -- outcome ----------------------------------------------------------------------------
    @property
    def winner(self) -> Player | None:
        """The winner once the game is over: the higher score, else the holder of more
        items ('whichever player has 2/3 of the Final Items'); None for a draw."""
        if self.phase is not Phase.OVER:
            return None
        a, b = self.scores
        if a != b:
            return 0 if a > b else 1
        held = [len(h) for h in self.game.holdings]
        if held[0] != held[1]:
            return 0 if held[0] > held[1] else 1
        return None

    @property
    def returns(self) -> tuple[float, ...]:
        """+1 for the winner, -1 for the loser, 0 each for a draw or an unfinished game."""
        winner = self.winner
        if winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    @property
    def result(self) -> dict[str, Any]:
        """Scores, winner and how it was decided; ``over`` says whether the game has ended."""
        over = self.phase is Phase.OVER
        winner = self.winner
        a, b = self.scores
        decided_by = reason = None
        if over:
            decided_by = "score" if a != b else ("items" if winner is not None else "draw")
            reason = f"{ROUNDS} rounds have passed"
            held = [len(items) for items in self.game.holdings]
            # A tie on points is decided by the items held, which a reader of the scores
            # alone cannot see: every interface shows this reason, so it says so. No scores
            # in it: a designer's run counts its games by reason.
            if decided_by == "items":
                assert winner is not None
                reason += (
                    f" and the points are tied: {SEAT_NAMES[winner]} wins the tie by holding "
                    f"more Final Match items ({held[winner]} to {held[1 - winner]})"
                )
            elif decided_by == "draw":
                reason += (
                    " and the points are tied: both hold as many Final Match items "
                    f"({held[0]} each), so it is a draw"
                )
        return {
            "over": over,
            "reason": reason,
            "seats": list(SEAT_NAMES),
            "scores": [a, b],
            "winner": winner,
            "winner_name": None if winner is None else SEAT_NAMES[winner],
            "decided_by": decided_by,
            "rounds_played": len(self.history),
        }

    # -- what a seat sees -------------------------------------------------------------------
    def view(self, player: Player | None) -> dict[str, Any]:
        """What is on the table: round, scores, items left, this round's revealed symbols,
        the face-up discard pile, the shared symbols revealed so far of the current order,
        the last round in full, and the order of shared symbols during a memorise step only.
        A seat also sees its own hand and its own pending submission; never the opponent's.

        Earlier rounds are not repeated: like the order, they are for players to remember
        (the state keeps them all in ``history``, and records replay them).
        """
        game = self.game
        shared = self.shared
        memorise = None
        if self.phase is Phase.MEMORISE:
            memorise = {
                "rounds": list(self.block_rounds),
                "order": [SYMBOL_NAMES[s] for s in self.orders[self.block]],
            }
        return {
            "game": game.name,
            "seats": list(SEAT_NAMES),
            "round": min(self.round, ROUNDS),
            "rounds": ROUNDS,
            "phase": self.phase.label,
            "to_act": list(self.to_act),
            "shared": None if shared is None else SYMBOL_NAMES[shared],
            "memorise": memorise,
            "scores": list(self.scores),
            "items": [
                {ITEM_LABELS[i]: seat.uses[i] for i in game.held[p]}
                for p, seat in enumerate(self.seats)
            ],
            "revealed": [
                [
                    {
                        "symbol": SYMBOL_NAMES[seat.revealed(pick)],
                        "items": item_labels(pick),
                    }
                    for pick in seat.picks
                ]
                for seat in self.seats
            ],
            "submissions": self.pending.view(player),
            "hand": None if player is None else self._hand_view(player),
            "deck": len(self.supply.deck),
            "discards": [CARD_NAMES[c] for c in self.supply.discards],
            "reshuffles": self.supply.reshuffles,
            "shared_revealed": [
                SYMBOL_NAMES[s] for s in self.orders[self.block][: self.revealed_in_block]
            ],
            "last_round": self.history[-1].view(game.ranking) if self.history else None,
            "result": self.result if self.phase is Phase.OVER else None,
        }

    def _hand_view(self, player: Player) -> list[dict[str, Any]]:
        seat = self.seats[player]
        played_at = {p.letter: k + 1 for k, p in enumerate(seat.picks)}
        out = []
        for slot, card in enumerate(seat.hand):
            a, b = CARDS[card]
            out.append(
                {
                    "letters": [LETTERS[2 * slot], LETTERS[2 * slot + 1]],
                    "symbols": [SYMBOL_NAMES[a], SYMBOL_NAMES[b]],
                    "played": [played_at.get(2 * slot), played_at.get(2 * slot + 1)],
                }
            )
        return out
