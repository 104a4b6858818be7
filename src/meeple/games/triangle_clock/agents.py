"""The Triangle Clock's heuristic agent: plan the round's hand against sampled opponents.

At each choice it looks at every hand it can still finish this round (the full card, the
card it takes one symbol from, and where to spend a Palette Swap or Right Angle), and scores
each against opponents sampled with ``determinize``: it gains the opponent's strength when it
ranks higher and gives away its own strength when it ranks lower, so a hand that will lose
is best kept weak. It adds a little for the two cards it keeps, judged against the next
shared symbol (remembered from the memorise step, if ``recall``), and charges for items
spent. Before its first symbol it takes a Mulligan when its best plan looks bad enough.
"""

from __future__ import annotations

from typing import Any, cast

from meeple.core.agent import Observation, check_budget
from meeple.core.game import Game
from meeple.core.rng import make_rng
from meeple.games.triangle_clock.cards import (
    CARDS,
    NUM_SYMBOLS,
    Symbol,
    palette_swap,
    parse_symbol,
    right_angle,
)
from meeple.games.triangle_clock.hands import Ranking
from meeple.games.triangle_clock.rules import (
    BLOCK,
    MULLIGAN,
    ROUNDS,
    Item,
    Phase,
    Pick,
    Seat,
    TriangleClockAction,
    TriangleClockGame,
    TriangleClockState,
)

# The ways to reveal a full card (letters a, b) and one symbol y of another: y first, or a
# symbol of the full card first; the second choice must come from the other card.
_ORDERS = ((2, 0, 1), (2, 1, 0), (0, 2, 1), (1, 2, 0))


class HeuristicAgent:
    """Plans each round's hand against sampled opponent hands; remembers the shared order.

    ``samples``: opponent hands sampled per choice. ``recall``: remember the order shown in
    a memorise step (perfect memory) or forget it. ``item_cost``: points a use of Palette
    Swap or Right Angle must gain to be spent. ``keep_weight``: weight of the cards kept for
    the next round. ``mulligan_below``: take a Mulligan when the best plan is worth less.
    """

    name = "heuristic"

    def __init__(
        self,
        game: Game[Any, Any, Any],
        seed: int = 0,
        samples: int = 8,
        recall: bool = True,
        item_cost: float = 0.6,
        keep_weight: float = 0.3,
        mulligan_below: float = -1.2,
    ) -> None:
        # Every plan is weighed against the sampled hands: with none there is nothing to plan.
        check_budget(self.name, "samples", samples, low=1, allowed="a whole number of at least 1")
        # Negative, a plan would be rewarded for spending an item at a loss, or for keeping
        # cards worth nothing; mulligan_below is a threshold of plan values, any sign.
        for name, value in (("item_cost", item_cost), ("keep_weight", keep_weight)):
            check_budget(self.name, name, value, low=0, allowed="a number of at least 0")
        # The registry builds it for its own game.
        self.game = cast(TriangleClockGame, game)
        self.rng = make_rng(seed, "triangle-clock-heuristic")
        self.samples = samples
        self.recall = recall
        self.item_cost = item_cost
        self.keep_weight = keep_weight
        self.mulligan_below = mulligan_below
        self._remembered: dict[int, tuple[Symbol, ...]] = {}

    # -- memory -----------------------------------------------------------------------------
    def _memorise(self, view: dict[str, Any]) -> None:
        if self.recall and view["memorise"] is not None:
            block = (view["memorise"]["rounds"][0] - 1) // BLOCK
            self._remembered[block] = tuple(parse_symbol(s) for s in view["memorise"]["order"])

    def _next_shared(self, state: TriangleClockState) -> list[Symbol]:
        """What the next round's shared symbol may be: the remembered one, else any symbol
        of its order not yet revealed."""
        nxt = state.round + 1
        if nxt > ROUNDS:
            return []
        block = (nxt - 1) // BLOCK
        if block != state.block:
            return list(range(NUM_SYMBOLS))  # a new order, not shown yet
        order = self._remembered.get(block)
        if order is not None:
            try:
                return [state.remembering(order).orders[block][(nxt - 1) % BLOCK]]
            except ValueError:
                pass  # a memory of another game
        seen = set(state.orders[block][: (state.round - 1) % BLOCK + 1])
        return [s for s in range(NUM_SYMBOLS) if s not in seen]

    def remember(self, observation: Observation, action: TriangleClockAction) -> None:
        """A decision made elsewhere (see ``core.agent.catch_up``): made again (a few
        milliseconds), so that both the shared order shown and the agent's stream are as if
        it had made it."""
        self.act(observation)

    # -- choosing ---------------------------------------------------------------------------
    def act(self, observation: Observation) -> TriangleClockAction:
        """The next step of the best plan for this round (or a Mulligan)."""
        legal = observation.legal_actions
        if observation.view["phase"] == Phase.MEMORISE.label:
            self._memorise(observation.view)
            return legal[0]
        if len(legal) == 1:
            return legal[0]
        me = observation.player
        samples = [
            cast(TriangleClockState, observation.determinize(self.rng)) for _ in range(self.samples)
        ]
        state = samples[0]
        assert isinstance(state, TriangleClockState)
        ranking: Ranking = state.game.ranking
        shared = state.shared
        assert shared is not None
        opponents = [_best_finish(s.seats[1 - me], shared, ranking) for s in samples]
        keep = self._keep_values(state, state.seats[me], ranking)
        best_value, best_next = None, []
        for value, nexts in self._plans(state.seats[me], shared, ranking, opponents, keep):
            if best_value is None or value > best_value + 1e-9:
                best_value, best_next = value, list(nexts)
            elif abs(value - best_value) <= 1e-9:
                best_next.extend(nexts)
        if (
            MULLIGAN in legal
            and best_value is not None
            and best_value < self.mulligan_below
            and state.round < ROUNDS
        ):
            return MULLIGAN
        choice = self.rng.choice(best_next)
        assert choice in legal, f"planned {choice}, not legal"
        return choice

    def _plans(
        self,
        seat: Seat,
        shared: Symbol,
        ranking: Ranking,
        opponents: list[tuple[int, int]],
        keep: dict[frozenset[int], float],
    ) -> list[tuple[float, list[Pick]]]:
        """Every hand the seat can still finish, valued, with the picks that start it."""
        game = self.game
        done = seat.picks
        may_swap = seat.may_use(Item.PALETTE_SWAP)
        may_turn = seat.may_use(Item.RIGHT_ANGLE)
        n = len(opponents)
        out = []
        for full in range(4):
            for other in range(4):
                if other == full:
                    continue
                for side in (0, 1):
                    letters = (2 * full, 2 * full + 1, 2 * other + side)
                    orders = [
                        o
                        for o in _ORDERS
                        if all(letters[o[k]] == p.letter for k, p in enumerate(done))
                    ]
                    if not orders:
                        continue
                    fixed = {p.letter: p for p in done}
                    free = [k for k in range(3) if letters[k] not in fixed]
                    printed = [seat.symbol_at(x) for x in letters]
                    bonus = keep.get(frozenset((full, other)), 0.0)
                    for swap in (None, *free) if may_swap else (None,):
                        for turn in (None, *free) if may_turn else (None,):
                            shown = []
                            for k, x in enumerate(letters):
                                if x in fixed:
                                    shown.append(fixed[x].changed(printed[k]))
                                    continue
                                s = printed[k]
                                if swap == k:
                                    s = palette_swap(s)
                                if turn == k:
                                    s = right_angle(s)
                                shown.append(s)
                            power = ranking.power(shared, *shown)
                            mine = ranking.strength(shared, *shown)
                            total = 0
                            for their_power, theirs in opponents:
                                if power > their_power:
                                    total += theirs
                                elif power < their_power:
                                    total -= mine
                            spent = (swap is not None) + (turn is not None)
                            value = total / n + bonus - self.item_cost * spent
                            nexts = []
                            for o in orders:
                                k = o[len(done)]
                                nexts.append(game.pick(letters[k], swap == k, turn == k))
                            out.append((value, nexts))
        return out

    def _keep_values(
        self, state: TriangleClockState, seat: Seat, ranking: Ranking
    ) -> dict[frozenset[int], float]:
        """For each pair of cards played, a bonus for the two cards it keeps: the strength
        of the best hand they make with the next shared symbol."""
        upcoming = self._next_shared(state)
        if not upcoming or self.keep_weight == 0:
            return {}
        out = {}
        for a in range(4):
            for b in range(a + 1, 4):
                kept = [seat.hand[k] for k in range(4) if k not in (a, b)]
                total = 0
                for s in upcoming:
                    best_power, best_strength = -1, 0
                    for full, part in ((kept[0], kept[1]), (kept[1], kept[0])):
                        x1, x2 = CARDS[full]
                        for y in CARDS[part]:
                            power = ranking.power(s, x1, x2, y)
                            if power > best_power:
                                best_power, best_strength = power, ranking.strength(s, x1, x2, y)
                    total += best_strength
                out[frozenset((a, b))] = self.keep_weight * total / len(upcoming)
        return out


def _best_finish(seat: Seat, shared: Symbol, ranking: Ranking) -> tuple[int, int]:
    """The power and strength of the highest hand a (sampled) seat can still finish this
    round, items left aside."""
    done = seat.picks
    best = (-1, 0)
    for full in range(4):
        for other in range(4):
            if other == full:
                continue
            for side in (0, 1):
                letters = (2 * full, 2 * full + 1, 2 * other + side)
                if not any(
                    all(letters[o[k]] == p.letter for k, p in enumerate(done)) for o in _ORDERS
                ):
                    continue
                fixed = {p.letter: p for p in done}
                shown = [
                    fixed[x].changed(seat.symbol_at(x)) if x in fixed else seat.symbol_at(x)
                    for x in letters
                ]
                power = ranking.power(shared, *shown)
                if power > best[0]:
                    best = (power, ranking.strength(shared, *shown))
    return best
