"""Erosion-specific agents."""

from __future__ import annotations

from meeple.core.agent import Observation
from meeple.core.game import Game, Player
from meeple.core.rng import make_rng
from meeple.games.erosion.rules import (
    HAND_SIZE,
    Choose,
    ErosionAction,
    ErosionState,
    Guess,
    Pass,
    matchable,
)

HAND_CARD = 0.35
"""A card in hand is worth about a third of a point: the next uplift or fluvial payment."""
PAYABLE_RIVER_ROCK = 0.6
"""A River rock the hand could pay for is most of a delta rock (2 points) away."""
RIVAL_WEIGHT = 0.6
"""With several rivals, the leader counts this much and the average the rest."""
MAX_STEPS = 40
"""Guard for the rest-of-turn lookahead (a turn has far fewer steps)."""


class HeuristicAgent:
    """Plays the action that leaves it furthest ahead once its turn is over.

    For each legal action it plays out the rest of its own turn on a determinized state
    (each later step chosen greedily the same way, one step deep), then scores the position:
    its points minus its rivals' (the leader weighted most), plus a little for every card in
    hand and every River rock its hand could pay for. A finished game counts as a win or a
    loss. In the tie-breaker it guesses the true Mohs hardness and chooses itself.

    ``wary=true`` also values a pass by the reply it invites: when the rivals still to act
    can end the era by passing after it, and each of them is no worse off at that end than
    now, the pass is worth the era's end (at two players, a pass while behind is a lost
    game). Without it the agent passes behind and hands the leader the game: at two players
    most of its games end so (``benchmarks/erosion_seats.py``).
    """

    name = "heuristic"

    def __init__(self, game: Game, seed: int = 0, wary: bool = False) -> None:
        self.game = game
        self.rng = make_rng(seed, "erosion-heuristic")
        self.wary = wary

    def act(self, observation: Observation) -> ErosionAction:
        """The best action by the position at the end of this turn."""
        me = observation.player
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        state = observation.determinize(self.rng)
        assert isinstance(state, ErosionState)
        if isinstance(legal[0], Guess):
            tie = state.tie
            assert tie is not None
            card = tie.cards[tie.seats.index(me)]
            return next(a for a in legal if a.hardness == state.game.catalog.mohs[card])
        if isinstance(legal[0], Choose):
            return next((a for a in legal if a.seat == me), legal[0])
        best: list[ErosionAction] = []
        best_value = float("-inf")
        for action in legal:
            after = self._finish_turn(state._next(me, action), me)
            value = self._value(after, me)
            if self.wary and isinstance(action, Pass):
                value = self._answered(after, me, value)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return self.rng.choice(best)

    def _finish_turn(self, state: ErosionState, me: Player) -> ErosionState:
        """Play the rest of this seat's turn greedily, one step deep."""
        for _ in range(MAX_STEPS):
            if state.over or not state.agenda or state.to_act != (me,):
                return state
            options = state.legal_actions(me)
            if isinstance(options[0], (Guess, Choose)):
                return state
            state = max((state._next(me, a) for a in options), key=lambda s: self._value(s, me))
        return state

    def _answered(self, state: ErosionState, me: Player, value: float) -> float:
        """The value of this seat's pass once the rivals after it have answered: the era's
        end if each of them can pass in turn until it ends and none is worse off there than
        before its pass; otherwise ``value``, the position the pass leaves."""
        era = state.era
        content: list[tuple[Player, float]] = []
        for _ in range(state.game.num_players):
            if state.over or state.era != era:
                break
            (seat,) = state.to_act
            if seat == me or not any(isinstance(a, Pass) for a in state.legal_actions(seat)):
                return value
            content.append((seat, self._value(state, seat)))
            state = self._finish_turn(state._next(seat, Pass()), seat)
        if not (state.over or state.era != era):
            return value
        if all(self._value(state, seat) >= before - 1e-9 for seat, before in content):
            return self._value(state, me)
        return value

    def _value(self, state: ErosionState, me: Player) -> float:
        """Points ahead of the rivals, plus what the hand promises."""
        n = state.game.num_players
        if state.over:
            return 1000.0 * state.returns[me]
        totals = [state.scores[p] + state.points(p) for p in range(n)]
        rivals = [totals[p] for p in range(n) if p != me]
        rival = RIVAL_WEIGHT * max(rivals) + (1 - RIVAL_WEIGHT) * sum(rivals) / len(rivals)
        hand = state.hands[me]
        value = totals[me] - rival + HAND_CARD * min(len(hand), HAND_SIZE)
        value += PAYABLE_RIVER_ROCK * matchable(state.river, hand, state.game.catalog.rock)
        return value
