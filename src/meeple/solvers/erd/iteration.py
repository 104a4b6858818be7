"""Shapley's value iteration over the model's states, one linear program per state per sweep.

Sweep k computes, for every state, the value of the game with k rounds left to play, a game
still going after the last of them being a draw, which is exactly the engine's round limit:
V_k(s) = value of the stage game whose cells going on are worth V_{k-1}, from V_0 = 0. So
``horizon`` sweeps are one exact backward pass over (state, rounds left), and the round
limit makes the game finite although its states repeat (Escalation gives Heavies back, so
every state can come round again: the state graph is one strongly connected component).

A state whose successors' values did not move in a sweep keeps its value and mixes without
a new program (its stage game is the same matrix). One whose matrix moved is first solved
on the support of its last mixes (``matrix_games.solve_on_support``: a nonnegative
least-squares fit of each side's indifference equations, the answer verified against the
whole matrix), since values that creep rarely
change which allocations are played; only where that fails is a program solved. Values
that stop moving altogether (by more than ``tolerance``) end the iteration early: every
longer horizon then has the same values. In Erd they do not: the values creep by about
1e-4 a sweep after 200 sweeps (play that may cycle is worth a little more or less with
every round added), so the solution is for the round limit the game is played with, and its
mixes depend on the rounds left.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from meeple.core.matrix_games import MatrixSolution, solve, solve_on_support
from meeple.solvers.erd.model import ErdModel


@dataclass
class Solution:
    """Values and optimal mixes of every state with every number of rounds left."""

    model: ErdModel
    horizon: int
    """The round limit solved for."""
    values: list[np.ndarray]
    """``values[k][s]``: the value to Red of state s with k rounds left (``values[0]`` = 0)."""
    history: list[list[tuple[int, np.ndarray, np.ndarray]]]
    """Per state: (sweep, Red's mix, Blue's mix) for each sweep that solved it, in order;
    a sweep that did not solve it left its stage game, and so its mixes, unchanged."""
    converged: bool
    """True if the values stopped moving before the horizon (then they hold for any longer
    one)."""
    last_change: float
    """The largest change of a value in the last sweep."""
    programs: int
    """Linear programs solved."""
    seconds: float
    reused: int = 0
    """Stage games solved on the support of their previous mixes, without a program."""

    @property
    def sweeps(self) -> int:
        """Sweeps run (at most the horizon)."""
        return len(self.values) - 1

    @property
    def opening_value(self) -> float:
        """The value of the opening to Red, with every round of the limit to play."""
        return self.model.start_sign * self.value(self.model.start_index, self.horizon)

    def value(self, state: int, rounds_left: int) -> float:
        """The value to Red of a canonical state with this many rounds to play."""
        return float(self.values[min(rounds_left, self.sweeps)][state])

    def mixes(self, state: int, rounds_left: int) -> tuple[np.ndarray, np.ndarray]:
        """Red's and Blue's optimal mixes over the stage game's classes, with this many
        rounds to play (1 = the last round before the limit)."""
        if rounds_left < 1:
            raise ValueError("a round is played with at least one round left")
        entries = self.history[state]
        k = bisect.bisect_right([e[0] for e in entries], rounds_left) - 1
        _, row, column = entries[max(k, 0)]
        return row, column


def value_iteration(
    model: ErdModel,
    horizon: int,
    tolerance: float = 0.0,
    prune: bool = True,
    progress: Callable[[int, int, int], None] | None = None,
    reuse: bool = True,
) -> Solution:
    """Solve ``model`` for a game of at most ``horizon`` rounds (the round limit).

    ``prune`` removes strictly dominated allocations before each program. ``progress(sweep,
    states solved in it, states to solve in it)`` is called after each state. ``reuse``
    tries each state's previous support before a program (False: a program every time).
    """
    started = time.perf_counter()
    count = len(model.states)
    values = [np.zeros(count)]
    history: list[list[tuple[int, np.ndarray, np.ndarray]]] = [[] for _ in range(count)]
    # Which states each state's value feeds: they need a new program when it changes.
    feeds: list[set[int]] = [set() for _ in range(count)]
    for i, stage in enumerate(model.states):
        for j in np.unique(stage.successor[stage.successor >= 0]):
            feeds[int(j)].add(i)
    due = set(range(count))
    # Each state's stage game as its last answer solved it: the next sweep's shortcut reads
    # that answer's best replies from it.
    solved_with: list[np.ndarray | None] = [None] * count
    programs = reused = 0
    change = 0.0
    while due and len(values) <= horizon:
        sweep = len(values)
        old = values[-1]
        new = old.copy()
        order = sorted(due)
        for done, i in enumerate(order, start=1):
            matrix = model.states[i].matrix(old)
            result: MatrixSolution | None = None
            before = solved_with[i]
            if reuse and before is not None:
                result = _on_last_support(before, history[i][-1], matrix)
            if result is None:
                result = solve(matrix, prune=prune)
                programs += 1
            else:
                reused += 1
            new[i] = result.value
            history[i].append((sweep, result.row, result.column))
            solved_with[i] = matrix
            if progress is not None:
                progress(sweep, done, len(order))
        moved = np.abs(new - old)
        change = float(moved.max()) if count else 0.0
        values.append(new)
        due = set()
        for changed in np.flatnonzero(moved > tolerance):
            due |= feeds[int(changed)]
    return Solution(
        model,
        horizon,
        values,
        history,
        converged=not due,
        last_change=change,
        programs=programs,
        seconds=time.perf_counter() - started,
        reused=reused,
    )


def _on_last_support(
    before: np.ndarray, last: tuple[int, np.ndarray, np.ndarray], matrix: np.ndarray
) -> MatrixSolution | None:
    """``matrix`` (the stage game now) solved on the support of its ``last`` answer, which
    solved the stage game ``before``; or None."""
    _, row, column = last
    # What each line earned against the last answer, computed once: the extremes are what
    # the answer guaranteed (matrix_games.guarantees) and the lines at them its best replies.
    rows_earn = before @ column
    columns_earn = row @ before
    low, high = float(columns_earn.min()), float(rows_earn.max())
    return solve_on_support(
        matrix,
        # Round-off a program leaves on unplayed lines is not support.
        (row > 1e-12).nonzero()[0],
        (column > 1e-12).nonzero()[0],
        # The last answer's best replies: in a degenerate game more lines than were played.
        (rows_earn >= high - 1e-9).nonzero()[0],
        (columns_earn <= low + 1e-9).nonzero()[0],
    )
