"""The solution checked, not trusted.

* :func:`stage_exploitability`: in every stage game the value iteration solved (every state,
  every number of rounds left), a best response to each computed mix earns the value: the
  largest shortfall is the solution's exploitability state by state.
* :func:`cross_check`: a sample of those stage games solved again by the column player's own
  linear program, without pruning (an independent formulation); the values must agree.
"""

from __future__ import annotations

import random

from meeple.core.matrix_games import guarantees, solve_columns
from meeple.solvers.erd.iteration import Solution


def _stage_games(solution: Solution) -> list[tuple[int, int]]:
    """Every (state, sweep) the value iteration solved."""
    return [(s, k) for s, entries in enumerate(solution.history) for k, _, _ in entries]


def stage_exploitability(solution: Solution) -> float:
    """The most a best response to either player's mix gains over the value, in any stage
    game solved (with the values of one round fewer left, as it was solved)."""
    worst = 0.0
    for s, entries in enumerate(solution.history):
        stage = solution.model.states[s]
        for k, row, column in entries:
            matrix = stage.matrix(solution.values[k - 1])
            value = solution.values[k][s]
            low, high = guarantees(matrix, row, column)
            worst = max(worst, value - low, high - value)
    return worst


def cross_check(solution: Solution, sample: int = 50, seed: int = 0) -> tuple[int, float]:
    """Solve ``sample`` stage games (chosen at random, seeded) with the column player's
    program and no pruning; returns how many and the largest difference in value."""
    games = _stage_games(solution)
    chosen = random.Random(seed).sample(games, min(sample, len(games)))
    worst = 0.0
    for s, k in chosen:
        matrix = solution.model.states[s].matrix(solution.values[k - 1])
        worst = max(worst, abs(solve_columns(matrix).value - solution.values[k][s]))
    return len(chosen), worst
