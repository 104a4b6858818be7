"""Two-player zero-sum matrix games, solved exactly by linear programming.

A simultaneous decision between two players, each payoff known, is a matrix game; its
optimal mixed strategies come from one linear program (von Neumann's minimax theorem),
solved here with SciPy's HiGHS. Agents use it where one fixed choice would be read and
punished; solvers use it state by state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog


@dataclass(frozen=True)
class MatrixSolution:
    """The value of a matrix game to the row player and an optimal mix for each side."""

    value: float
    row: tuple[float, ...]
    column: tuple[float, ...]


def solve_matrix_game(payoff: Sequence[Sequence[float]] | np.ndarray) -> MatrixSolution:
    """Optimal mixed strategies of the zero-sum game whose row player receives ``payoff``.

    The row player's mix maximises the least it earns against any column; the column
    player's mix comes from the same program's dual, so both are optimal together.
    """
    matrix = np.asarray(payoff, dtype=float)
    if matrix.ndim != 2 or 0 in matrix.shape:
        raise ValueError(f"a matrix game needs a non-empty 2-D payoff table, got {matrix.shape}")
    rows, columns = matrix.shape
    # Variables: the row mix x (rows of them) and the value v. Maximise v subject to
    # x . A[:, j] >= v for every column j, sum x = 1, x >= 0.
    objective = np.zeros(rows + 1)
    objective[-1] = -1.0
    upper = np.hstack([-matrix.T, np.ones((columns, 1))])
    equal = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * rows + [(None, None)]
    result = linprog(
        objective,
        A_ub=upper,
        b_ub=np.zeros(columns),
        A_eq=equal,
        b_eq=[1.0],
        bounds=bounds,
        method="highs",
    )
    if result.status != 0:  # a bounded, feasible program: failure here is a solver fault
        raise RuntimeError(f"the matrix game's linear program failed: {result.message}")
    row = _as_mix(result.x[:rows])
    # The duals of the column constraints are the column player's optimal mix.
    column = _as_mix(-np.asarray(result.ineqlin.marginals))
    return MatrixSolution(float(result.x[-1]), row, column)


def _as_mix(weights: np.ndarray) -> tuple[float, ...]:
    """Clip the solver's round-off below zero and renormalise to a probability vector."""
    clipped = np.clip(weights, 0.0, None)
    return tuple(float(w) for w in clipped / clipped.sum())
