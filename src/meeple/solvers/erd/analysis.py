"""What the solution says about play, computed exactly from the mixes (nothing sampled).

:func:`play_statistics` pushes the probability of every state forward round by round under
both players' optimal mixes: how likely a game is to end in each round and why, how often
Escalations and Turrets happen, and how mixed the mixes are. :func:`exploitability` is the
standard measure of a strategy: what a best response to it wins, found by backward induction
over the rounds left (a best response to fixed mixes needs no linear program).
:func:`outcome` is how a game between two fixed strategies ends, exactly, by the same
backward pass with both mixes fixed (policy evaluation): the expected result of a match
between two agents without playing one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from meeple.games.erd.agents import HeuristicAgent, one_round_strategy
from meeple.solvers.erd.iteration import Solution
from meeple.solvers.erd.model import ESCALATION, REASONS, TURRET_MADE, TURRET_STOOD

SUPPORT = 1e-9
"""A class of allocations carries weight when its probability is above this."""


@dataclass
class PlayStatistics:
    """A game under equilibrium play, exactly."""

    ends_in_round: list[float]
    """``ends_in_round[r - 1]``: the probability the game ends in round r."""
    reaches_limit: float
    """The probability the game is still going after the round limit (a draw)."""
    reasons: dict[str, float]
    """The probability of each way the game ends (``round_limit`` included)."""
    red_wins: float
    blue_wins: float
    escalations: float
    """The expected number of Escalations in a game."""
    any_escalation: float
    """The probability at least one Escalation happens."""
    any_turret: float
    """The probability a Turret is made at least once."""
    turret_rounds: float
    """The expected number of rounds fought with a Turret standing."""
    support_by_round: list[float] = field(default_factory=list)
    """Per round: the expected number of Red's allocation classes carrying weight, over the
    states the game is in (given it is still going)."""

    @property
    def expected_length(self) -> float:
        """Expected rounds in a game (the round limit counts as its last round)."""
        total = sum((r + 1) * p for r, p in enumerate(self.ends_in_round))
        return total + len(self.ends_in_round) * self.reaches_limit


def play_statistics(solution: Solution) -> PlayStatistics:
    """Length, endings, Escalations, Turrets and mixing under both players' optimal mixes."""
    model = solution.model
    count = len(model.states)
    horizon = solution.horizon
    # Mass per (state, Red is the column player?, an Escalation seen?, a Turret made?).
    mass = np.zeros((2, 2, 2, count))
    mass[0 if model.start_sign == 1 else 1, 0, 0, model.start_index] = 1.0
    ends: list[float] = []
    reasons = dict.fromkeys((*REASONS[1:], "round_limit"), 0.0)
    red = blue = escalations = turret_rounds = any_escalation = any_turret = 0.0
    support: list[float] = []
    stood = np.array(
        [bool(st.flags.size and st.flags.flat[0] & TURRET_STOOD) for st in model.states]
    )
    for round_number in range(1, horizon + 1):
        left = horizon - round_number + 1
        # Per state: the chance of each ending, and of going on to each state by kind of cell
        # (mirrored or not, with an Escalation or not, a Turret made or not).
        moves = np.zeros((2, 2, 2, count, count))
        ending = np.zeros((len(REASONS), count))
        row_wins = np.zeros(count)
        row_loses = np.zeros(count)
        esc_p = np.zeros(count)
        made_p = np.zeros(count)
        widths = np.zeros(count)
        live = np.flatnonzero(mass.sum(axis=(0, 1, 2)) > 0)
        for s in live:
            stage = model.states[s]
            row, column = solution.mixes(int(s), left)
            weight = np.outer(row, column)
            on = stage.successor >= 0
            esc = (stage.flags & ESCALATION) > 0
            made = (stage.flags & TURRET_MADE) > 0
            widths[s] = 0.5 * ((row > SUPPORT).sum() + (column > SUPPORT).sum())
            esc_p[s] = weight[esc].sum()
            made_p[s] = weight[made].sum()
            for code in range(1, len(REASONS)):
                ending[code, s] = weight[stage.reason == code].sum()
            row_wins[s] = weight[~on & (stage.payoff > 0)].sum()
            row_loses[s] = weight[~on & (stage.payoff < 0)].sum()
            for f, flip in enumerate((1, -1)):
                for de in (0, 1):
                    for dt in (0, 1):
                        cells = on & (stage.sign == flip) & (esc == bool(de)) & (made == bool(dt))
                        if cells.any():
                            moves[f, de, dt, s] = np.bincount(
                                stage.successor[cells], weight[cells], minlength=count
                            )
        total = mass.sum(axis=(0, 1, 2))
        going = float(total.sum())
        ends.append(float(total @ ending.sum(axis=0)))
        for code in range(1, len(REASONS)):
            reasons[REASONS[code]] += float(total @ ending[code])
        red += float(mass[0].sum(axis=(0, 1)) @ row_wins + mass[1].sum(axis=(0, 1)) @ row_loses)
        blue += float(mass[0].sum(axis=(0, 1)) @ row_loses + mass[1].sum(axis=(0, 1)) @ row_wins)
        escalations += float(total @ esc_p)
        turret_rounds += float(total @ stood)
        any_escalation += float(mass[:, 0].sum(axis=(0, 1)) @ esc_p)
        any_turret += float(mass[:, :, 0].sum(axis=(0, 1)) @ made_p)
        support.append(float(total @ widths) / going if going > 0 else 0.0)
        nxt = np.zeros_like(mass)
        for o in (0, 1):
            for e in (0, 1):
                for t in (0, 1):
                    m = mass[o, e, t]
                    if not m.any():
                        continue
                    for f in (0, 1):
                        for de in (0, 1):
                            for dt in (0, 1):
                                nxt[o ^ f, e | de, t | dt] += m @ moves[f, de, dt]
        mass = nxt
        if mass.sum() < 1e-15:
            break
    limit = float(mass.sum())
    reasons["round_limit"] = limit
    return PlayStatistics(
        ends_in_round=ends,
        reaches_limit=limit,
        reasons=reasons,
        red_wins=red,
        blue_wins=blue,
        escalations=escalations,
        any_escalation=any_escalation,
        any_turret=any_turret,
        turret_rounds=turret_rounds,
        support_by_round=support,
    )


Strategy = Callable[[int, int, int], np.ndarray]
"""``strategy(state, role, rounds_left)``: a player's mix over the stage game's row classes
(role 0, it is Red-as-row) or column classes (role 1)."""


def exploitability(solution: Solution, strategy: Strategy) -> tuple[float, float]:
    """What a best response wins against ``strategy`` from the opening: (the least the
    strategy guarantees there, as Red or as Blue; how much less that is than the value).

    Found by backward induction over the rounds left: with the strategy's mix fixed, the
    opponent simply takes its best reply in each state.
    """
    model = solution.model
    count = len(model.states)
    guaranteed = np.zeros((count, 2))
    for left in range(1, solution.horizon + 1):
        new = np.zeros((count, 2))
        for s, stage in enumerate(model.states):
            on = stage.successor >= 0
            succ = np.maximum(stage.successor, 0)
            for role in (0, 1):
                # The strategy's side keeps its role when the successor is canonical as is.
                keep = np.where(stage.sign == 1, role, 1 - role)
                later = guaranteed[succ, keep]
                ours = stage.payoff if role == 0 else -stage.payoff
                table = np.where(on, later, ours)
                mix = strategy(s, role, left)
                new[s, role] = (mix @ table).min() if role == 0 else (table @ mix).min()
        guaranteed = new
    value = solution.opening_value
    start = model.start_index
    # As Red (the row player) the strategy should earn the value, as Blue its negation.
    red = 0 if model.start_sign == 1 else 1
    as_red, as_blue = float(guaranteed[start, red]), float(guaranteed[start, 1 - red])
    return min(as_red, as_blue), max(value - as_red, -value - as_blue)


def equilibrium_strategy(solution: Solution) -> Strategy:
    """The solution's own mixes as a :data:`Strategy`."""

    def strategy(state: int, role: int, left: int) -> np.ndarray:
        return solution.mixes(state, left)[role]

    return strategy


def uniform_strategy(solution: Solution) -> Strategy:
    """Every legal allocation equally likely (the ``random`` agent): a class weighs its size."""

    def strategy(state: int, role: int, left: int) -> np.ndarray:
        stage = solution.model.states[state]
        sizes = np.array([len(c) for c in (stage.rows if role == 0 else stage.columns)], float)
        return sizes / sizes.sum()

    return strategy


def heuristic_strategy(solution: Solution, agent: HeuristicAgent) -> Strategy:
    """The ``heuristic`` agent's mix: the optimal mix of its one-round game (what its ``act``
    draws from), spread over the stage game's classes.

    The agent reads the public table (the solver's state), its seat and the round number;
    the engine reads the round number only to end a game at the round limit
    (``rounds.end_of_round``), so its mix is one per state and seat, and another one in the
    agent's game's last round, where every round that does not end the game is a draw.
    The round counted from the solution's horizon is the agent's round when both limits are
    the same (the ladder's games; a test's tiny variants).
    """
    game = agent.game
    limit = game.options.round_limit
    remembered: dict[tuple[int, int, bool], np.ndarray] = {}

    def strategy(state: int, role: int, left: int) -> np.ndarray:
        last = solution.horizon - left + 1 >= limit
        key = (state, role, last)
        if key not in remembered:
            stage = solution.model.states[state]
            mix = one_round_strategy(game, agent.weights, stage.sides, role, limit if last else 1)
            classes = stage.rows if role == 0 else stage.columns
            weights = np.array([sum(mix.get(a, 0.0) for a in c) for c in classes])
            remembered[key] = weights / weights.sum()
        return remembered[key]

    return strategy


def slipping_strategy(solution: Solution, strategy: Strategy, slip: float) -> Strategy:
    """``strategy`` that plays every legal allocation equally likely at a chance of ``slip``
    instead (the ``careless`` agent's mix, its hand-written agent's ``strategy`` given)."""
    uniform = uniform_strategy(solution)

    def mixed(state: int, role: int, left: int) -> np.ndarray:
        return (1 - slip) * strategy(state, role, left) + slip * uniform(state, role, left)

    return mixed


@dataclass(frozen=True)
class Outcome:
    """One agent's chances against another in a single game, exactly: (win, draw, loss)
    with the agent as Red and as Blue."""

    as_red: tuple[float, float, float]
    as_blue: tuple[float, float, float]

    @property
    def win_rate(self) -> float:
        """Chance of a win with seats alternated (the ladder's win rate)."""
        return 0.5 * (self.as_red[0] + self.as_blue[0])

    @property
    def draw_rate(self) -> float:
        """Chance of a draw with seats alternated."""
        return 0.5 * (self.as_red[1] + self.as_blue[1])

    @property
    def loss_rate(self) -> float:
        """Chance of a loss with seats alternated."""
        return 0.5 * (self.as_red[2] + self.as_blue[2])

    @property
    def score(self) -> float:
        """Expected return per game (+1 a win, -1 a loss), seats alternated."""
        return self.win_rate - self.loss_rate

    def games_to_separate(self, z: float = 1.96, power_z: float = 0.0) -> float:
        """Games (seats alternated) a match needs for its ``z`` interval of the mean return
        to exclude 0: with ``power_z`` 0 the expected result lies on the interval's edge (so
        half of such matches separate), with 0.8416 four in five do. Infinite at no edge."""
        if self.score == 0:
            return math.inf
        # The per-game variance with seats alternated: the mean of the two seats' own.
        spread = 0.5 * sum(w + l_ - (w - l_) ** 2 for w, _, l_ in (self.as_red, self.as_blue))
        return spread * ((z + power_z) / self.score) ** 2


def outcome(solution: Solution, ours: Strategy, theirs: Strategy) -> Outcome:
    """How a game between two fixed strategies ends, exactly (policy evaluation, nothing
    sampled): backward over the rounds left, as the solver's sweeps, with both mixes fixed
    instead of optimised; a game still going at the round limit is a draw."""
    model = solution.model
    count = len(model.states)
    # chances[s, role, k]: our chance of a win (k=0) or a loss (k=1) from canonical state s
    # with us as its row player (role 0) or column player (role 1).
    chances = np.zeros((count, 2, 2))
    for left in range(1, solution.horizon + 1):
        new = np.zeros_like(chances)
        for s, stage in enumerate(model.states):
            on = stage.successor >= 0
            succ = np.maximum(stage.successor, 0)
            for role in (0, 1):
                keep = np.where(stage.sign == 1, role, 1 - role)
                ours_wins = stage.payoff > 0 if role == 0 else stage.payoff < 0
                ours_loses = stage.payoff < 0 if role == 0 else stage.payoff > 0
                mine, other = ours(s, role, left), theirs(s, 1 - role, left)
                row, column = (mine, other) if role == 0 else (other, mine)
                for k, ended in enumerate((ours_wins, ours_loses)):
                    table = np.where(on, chances[succ, keep, k], ended)
                    new[s, role, k] = row @ table @ column
        chances = new
    start = model.start_index
    seats = []
    for role in (0, 1) if model.start_sign == 1 else (1, 0):
        win, loss = (float(x) for x in chances[start, role])
        seats.append((win, max(0.0, 1.0 - win - loss), loss))
    return Outcome(seats[0], seats[1])
