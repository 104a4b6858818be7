"""Judging the equilibrium against an opponent from few games: a variance-reduced estimator.

The equilibrium's mix x*(s) and the value v(s) of every state (with the rounds left) are
known exactly, so a played game's result splits into what the opponent's choices gave away
and noise (the equilibrium's own draws; Erd has no other chance once allocations are in):

    result = v(s_0) + sum_t [Q(s_t, x*, b_t) - v(s_t)] + sum_t [v(s_{t+1}) - Q(s_t, x*, b_t)]

where b_t is the opponent's actual allocation in round t, Q(s, x*, b) = sum_a x*(a) v(next(s,
a, b)) the equilibrium's expected value after that round given b, and v of a finished game its
result (+1 win, 0 draw, -1 loss). The last sum has mean zero whatever the opponent does (its
b_t is chosen without seeing a_t, so each term has mean zero given the history and b_t), so

    estimate = v(s_0) + sum_t [Q(s_t, x*, b_t) - v(s_t)]

is an unbiased estimate of the equilibrium's expected result against that opponent, without
the variance of the equilibrium's own randomisation. Each term is >= 0 up to the solver's
tolerance: x* earns at least v(s) against every b. This is the control-variate idea of DIVAT
(Zinkevich et al. 2006) and AIVAT (Burch et al., AAAI 2018) with the exact solution as the
value function.

The values are those of the solved game, including its round limit: a game played with
another round limit, other play options, or another start is not this game, and
:func:`evaluate_rounds` refuses it; every round is also checked against the model (the engine
must land where the model says), since a disagreement would break the unbiasedness.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from meeple.core.agent import Agent, Observation
from meeple.core.record import Playthrough
from meeple.core.rng import derive_seed
from meeple.core.stats import bootstrap_interval, mean_interval
from meeple.games.erd.rules import Allocate, ErdGame, ErdState
from meeple.solvers.erd.iteration import Solution
from meeple.solvers.erd.model import StageGame, mirror
from meeple.solvers.erd.solve import PLAY_OPTIONS, play_options

Round = tuple[ErdState, tuple[Allocate, Allocate]]
"""One round of a played game: the state both seats allocated in, and Red's and Blue's
allocations."""


@dataclass(frozen=True)
class Decision:
    """One round from the equilibrium's seat: its value before, and after the opponent's
    actual allocation with the equilibrium's own mix averaged over."""

    round: int
    state: int
    """The model's canonical state."""
    rounds_left: int
    value: float
    """v(s_t): the value of the state to the equilibrium's seat."""
    expected: float
    """Q(s_t, x*, b_t): the equilibrium's expected value after this round, given b_t."""
    realised: float
    """v(s_{t+1}): the value of the state the round led to (the result if it ended)."""

    @property
    def term(self) -> float:
        """What the opponent's allocation gave away: Q - v (>= 0 up to LP tolerance)."""
        return self.expected - self.value


@dataclass(frozen=True)
class GameEvaluation:
    """One played game as the estimator sees it."""

    seat: int
    """The equilibrium's seat (0 Red, 1 Blue)."""
    start_value: float
    """v(s_0) to the equilibrium's seat."""
    decisions: tuple[Decision, ...]
    result: float
    """The game's actual result to the equilibrium's seat: +1, 0 or -1."""

    @property
    def terms(self) -> list[float]:
        """The per-round terms Q(s_t, x*, b_t) - v(s_t)."""
        return [d.term for d in self.decisions]

    @property
    def estimate(self) -> float:
        """The variance-reduced estimate of the equilibrium's expected result."""
        return self.start_value + math.fsum(self.terms)

    @property
    def luck(self) -> float:
        """result - estimate: the equilibrium's own draws (mean zero)."""
        return self.result - self.estimate


class ModelMismatch(ValueError):
    """A played game is not the solved game (options, round limit, start or a transition)."""


class Evaluator:
    """Per-round terms of played games against one solution (caches the stage games' class
    lookups, so many games cost little)."""

    def __init__(self, solution: Solution) -> None:
        """``solution``: the solved game the played games must be."""
        self.solution = solution
        self._where: dict[tuple[int, int], dict[Allocate, int]] = {}

    def check_game(self, game: ErdGame) -> None:
        """Refuse a game whose rules differ from the solved one's (ModelMismatch)."""
        played = play_options(game.options)
        solved = play_options(self.solution.model.game.options)
        for name in PLAY_OPTIONS:
            if played.get(name) != solved.get(name):
                raise ModelMismatch(
                    f"{name}={getattr(game.options, name)} but the solution is for "
                    f"{getattr(self.solution.model.game.options, name)}"
                )
        if game.options.round_limit != self.solution.horizon:
            raise ModelMismatch(
                f"the game's round limit is {game.options.round_limit} but the solution's "
                f"horizon is {self.solution.horizon}: the values would be another game's"
            )
        if game.options.best_of != 1:
            raise ModelMismatch("only single games (best_of=1) are the solved game")

    def _class(self, state: int, role: int, action: Allocate) -> int:
        key = (state, role)
        where = self._where.get(key)
        if where is None:
            stage = self.solution.model.states[state]
            classes = stage.rows if role == 0 else stage.columns
            where = self._where[key] = {a: i for i, c in enumerate(classes) for a in c}
        if action not in where:
            raise ModelMismatch(f"{action} is not an allocation of the model's state {state}")
        return where[action]

    def _value(self, state: int, left: int, as_row: bool) -> float:
        value = self.solution.value(state, left)
        return value if as_row else -value

    def evaluate_rounds(
        self, rounds: Sequence[Round], seat: int, result: float, start: ErdState | None = None
    ) -> GameEvaluation:
        """The estimator's terms for one played game: its rounds in order, the equilibrium's
        ``seat``, and the game's ``result`` to that seat (+1/0/-1). ``start`` (default: the
        first round's state) must be where the solution starts."""
        solution, model = self.solution, self.solution.model
        if not rounds:
            raise ModelMismatch("a game with no round played")
        first = start or rounds[0][0]
        self.check_game(first.game)
        if first.round != 1 or first.sides != model.start:
            raise ModelMismatch(f"the game starts at {first.sides}, the model at {model.start}")
        decisions: list[Decision] = []
        start_value: float | None = None
        for t, (state, allocations) in enumerate(rounds):
            try:
                index, sign = model.locate(state.sides)
            except KeyError as exc:
                raise ModelMismatch(str(exc)) from None
            left = solution.horizon - state.round + 1
            if left < 1:
                raise ModelMismatch(f"round {state.round} is past the round limit")
            # The stored stage game is the canonical table: its row player is Red unless
            # the table was mirrored to find it.
            as_row = (seat == 0) == (sign == 1)
            stage = model.states[index]
            matrix = stage.matrix(solution.values[min(left - 1, solution.sweeps)])
            row, column = solution.mixes(index, left)
            row_action, column_action = allocations if sign == 1 else allocations[::-1]
            i = self._class(index, 0, row_action)
            j = self._class(index, 1, column_action)
            if as_row:
                expected, realised = float(row @ matrix[:, j]), float(matrix[i, j])
            else:
                expected, realised = -float(matrix[i] @ column), -float(matrix[i, j])
            value = self._value(index, left, as_row)
            if start_value is None:
                start_value = value
            self._check_transition(stage, (i, j), sign, left, rounds, t, result)
            if stage.successor[i, j] < 0 and realised != result:
                raise ModelMismatch(
                    f"round {state.round}: the model's result {realised}, the game's {result}"
                )
            decisions.append(Decision(state.round, index, left, value, expected, realised))
        assert start_value is not None
        return GameEvaluation(seat, start_value, tuple(decisions), float(result))

    def _check_transition(
        self,
        stage: StageGame,
        cell: tuple[int, int],
        sign: int,
        left: int,
        rounds: Sequence[Round],
        t: int,
        result: float,
    ) -> None:
        """The engine went where the model says: the next round's table is the cell's
        successor (seen from Red and Blue), or the game ended where the cell ends it."""
        successor = int(stage.successor[cell])
        last = t == len(rounds) - 1
        state = rounds[t][0]
        if successor < 0:
            if not last:
                raise ModelMismatch(
                    f"round {state.round}: the model ends the game, the engine did not"
                )
            return
        if last:
            # The model goes on: only the round limit may end the game here, as a draw
            # (worth 0, the value of a state with no round left).
            if left != 1 or result != 0:
                raise ModelMismatch(
                    f"round {state.round}: the engine ended a game the model goes on with"
                )
            return
        # The cell's table as the stage's row and column see it, then as Red and Blue do.
        after = self.solution.model.states[successor].sides
        if stage.sign[cell] != 1:
            after = mirror(after)
        if sign != 1:
            after = mirror(after)
        nxt = rounds[t + 1][0]
        if nxt.sides != after or nxt.round != state.round + 1:
            raise ModelMismatch(
                f"round {state.round}: the engine went to {nxt.sides}, the model to {after}"
            )


def rounds_of(play: Playthrough) -> list[Round]:
    """The rounds of a played single game: each state allocated in and both allocations,
    read from the record's moves by replaying them through the engine."""
    game = play.game
    state = game.new_game(play.seed) if play.start is None else game.from_position(play.start)
    rounds: list[Round] = []
    before = state
    for player, text in play.moves:
        state = state.apply_text(player, text)
        if state.is_over or len(state.to_act) == 2:
            assert isinstance(state, ErdState) and state.last is not None
            assert isinstance(before, ErdState)
            rounds.append((before, state.last.allocations))
            before = state
    return rounds


def evaluate_playthrough(evaluator: Evaluator, play: Playthrough, seat: int) -> GameEvaluation:
    """The estimator's terms for a finished single game, with the equilibrium in ``seat``."""
    state = play.state
    assert isinstance(state, ErdState) and state.is_over
    rounds = rounds_of(play)
    return evaluator.evaluate_rounds(rounds, seat, float(state.returns[seat]), rounds[0][0])


@dataclass
class MatchEvaluation:
    """A match of the equilibrium against one opponent: raw counts and the estimates."""

    opponent: str
    games: list[GameEvaluation] = field(default_factory=list)

    @property
    def wins(self) -> int:
        """Games the equilibrium won."""
        return sum(g.result > 0 for g in self.games)

    @property
    def draws(self) -> int:
        """Games drawn."""
        return sum(g.result == 0 for g in self.games)

    @property
    def losses(self) -> int:
        """Games the equilibrium lost."""
        return sum(g.result < 0 for g in self.games)

    def raw(self) -> tuple[float, float, float]:
        """Mean result a game (+1/0/-1) and its 95% t-interval."""
        return _mean_and_interval([g.result for g in self.games])

    def reduced(self) -> tuple[float, float, float]:
        """Mean estimate a game and its 95% t-interval."""
        return _mean_and_interval([g.estimate for g in self.games])

    def reduced_bootstrap(self) -> tuple[float, float]:
        """The mean estimate's 95% percentile-bootstrap interval."""
        return bootstrap_interval([g.estimate for g in self.games])


def _mean_and_interval(samples: Sequence[float]) -> tuple[float, float, float]:
    """The mean (NaN with no samples) and its 95% Student-t interval."""
    if not samples:
        return math.nan, math.nan, math.nan
    return (sum(samples) / len(samples), *mean_interval(samples))


def points(result: float) -> float:
    """A result a game (+1 win, 0 draw, -1 loss) as a share of points (a draw half)."""
    return (1.0 + result) / 2.0


def play_recorded(
    game: ErdGame, agents: Sequence[Agent], seed: int, start: ErdState | None = None
) -> tuple[list[Round], ErdState]:
    """Play one game with these agents (Red's, Blue's) as :func:`meeple.agents.play_game`
    does (the seats decide in turn, each from its own observation) and keep its rounds.
    ``start``: play from this state instead of the seed's opening (a test's tiny variant)."""
    state = game.new_game(seed) if start is None else start
    rounds: list[Round] = []
    before = state
    while not state.is_over:
        player = state.to_act[0]
        action = agents[player].act(Observation(state, player))
        assert isinstance(action, Allocate)
        after = state.apply(player, action)
        assert isinstance(after, ErdState)
        state = after
        if state.is_over or len(state.to_act) == 2:
            assert state.last is not None
            rounds.append((before, state.last.allocations))
            before = state
    return rounds, state


def play_and_evaluate(
    game: ErdGame,
    solution: Solution,
    make: Callable[[str, int], Agent],
    equilibrium: str,
    opponent: str,
    games: int,
    seed: int = 0,
    on_game: Callable[[MatchEvaluation], None] | None = None,
    start: ErdState | None = None,
) -> MatchEvaluation:
    """Play ``games`` single games of agent spec ``equilibrium`` (which must play
    ``solution``'s mixes) against ``opponent``, seats alternated, and evaluate each.
    ``make(spec, seed)`` builds an agent (``meeple.agents.make_agent`` bound to the game:
    solvers do not import the agents package).

    Seeds and seats are :func:`meeple.lab.head_to_head`'s (game k: seed
    ``derive_seed(seed, "matchup", k)``, the equilibrium in seat ``k % 2``, each seat's agent
    seeded ``derive_seed(game_seed, "seat", p)``), so the raw counts are the ones
    ``head_to_head`` gives for the same arguments. ``start``: every game from this state
    (a tiny variant's; it must be the solution's start).
    """
    evaluator = Evaluator(solution)
    evaluator.check_game(game)
    match = MatchEvaluation(opponent)
    for k in range(games):
        game_seed = derive_seed(seed, "matchup", k)
        seat = k % 2
        agents = [
            make(equilibrium if p == seat else opponent, derive_seed(game_seed, "seat", p))
            for p in range(2)
        ]
        rounds, final = play_recorded(game, agents, game_seed, start)
        result = float(final.returns[seat])
        match.games.append(evaluator.evaluate_rounds(rounds, seat, result))
        if on_game is not None:
            on_game(match)
    return match
