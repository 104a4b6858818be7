"""Zero-sum matrix games by linear programming (SciPy's HiGHS), and their checks.

A simultaneous decision between two players, each payoff known, is a matrix game: Erd's
heuristic plays each round's at its equilibrium, and the Erd solver solves one per state.

The row player's program gives its optimal mix and the value; the duals of the same program
are the column player's mix. :func:`solve_columns` solves the column player's own program, a
second, independent formulation the checks compare against. Pure strategies that are
strictly dominated can be removed first (:func:`undominated`): an optimal mix never plays
them, so the value and the optimal mixes of the rest are unchanged.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.optimize import linprog

# The default HiGHS tolerances (1e-7) are far looser than the 1e-9 the solution is checked to.
_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


class MatrixSolution(NamedTuple):
    """The value of a matrix game to the row player and an optimal mix for each side."""

    value: float
    row: np.ndarray
    column: np.ndarray


def solve_rows(matrix: np.ndarray) -> MatrixSolution:
    """The row player's program: maximise v subject to x . A[:, j] >= v for every column j,
    sum x = 1, x >= 0. The column mix is read from the program's duals."""
    a = _checked(matrix)
    rows, columns = a.shape
    objective = np.zeros(rows + 1)
    objective[-1] = -1.0
    upper = np.hstack([-a.T, np.ones((columns, 1))])
    equal = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    result = linprog(
        objective,
        A_ub=upper,
        b_ub=np.zeros(columns),
        A_eq=equal,
        b_eq=[1.0],
        bounds=[(0.0, None)] * rows + [(None, None)],
        method="highs-ds",
        options=_OPTIONS,
    )
    if result.status != 0:  # a bounded, feasible program: failure here is a solver fault
        raise RuntimeError(f"the matrix game's linear program failed: {result.message}")
    row = as_mix(result.x[:rows])
    column = as_mix(-np.asarray(result.ineqlin.marginals))
    return MatrixSolution(float(result.x[-1]), row, column)


def solve_columns(matrix: np.ndarray) -> MatrixSolution:
    """The column player's own program (minimise w subject to A[i, :] . y <= w), solved on
    its own: an independent check of :func:`solve_rows`. Its row mix is the duals'."""
    flipped = solve_rows(-_checked(matrix).T)
    return MatrixSolution(-flipped.value, flipped.column, flipped.row)


def as_mix(weights: np.ndarray) -> np.ndarray:
    """Clip the solver's round-off below zero and renormalise to a probability vector."""
    clipped = np.clip(np.asarray(weights, dtype=float), 0.0, None)
    total = clipped.sum()
    if total <= 0:
        raise RuntimeError("the linear program returned no probability mass")
    return clipped / total


def guarantees(matrix: np.ndarray, row: np.ndarray, column: np.ndarray) -> tuple[float, float]:
    """What each mix guarantees: the row mix's worst case over columns (a best response to
    it), and the column mix's worst case over rows. Equal to the value for optimal mixes."""
    return float((row @ matrix).min()), float((matrix @ column).max())


def undominated(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns left after iterated removal of strictly dominated pure strategies.

    A row is removed when another row is strictly better against every remaining column
    (columns alike, for the column player who minimises). Strict dominance never removes a
    strategy an optimal mix uses, so the value and every optimal mix survive.
    """
    rows = np.arange(matrix.shape[0])
    cols = np.arange(matrix.shape[1])
    changed = True
    while changed:
        changed = False
        sub = matrix[np.ix_(rows, cols)]
        # beats[k, i]: row k is strictly better than row i against every column.
        beats = (sub[:, None, :] > sub[None, :, :]).all(axis=2)
        dominated = beats.any(axis=0)
        if dominated.any() and not dominated.all():
            rows, changed = rows[~dominated], True
            sub = sub[~dominated]
        lower = (sub.T[:, None, :] < sub.T[None, :, :]).all(axis=2)
        dominated = lower.any(axis=0)
        if dominated.any() and not dominated.all():
            cols, changed = cols[~dominated], True
    return rows, cols


def solve(matrix: np.ndarray, prune: bool = True) -> MatrixSolution:
    """Value and optimal mixes of a matrix game, pruning strictly dominated strategies first
    when ``prune`` (the mixes are returned over every row and column)."""
    a = _checked(matrix)
    if not prune:
        return solve_rows(a)
    rows, cols = undominated(a)
    if len(rows) == 1 and len(cols) == 1:
        value = float(a[rows[0], cols[0]])
        sub = MatrixSolution(value, np.ones(1), np.ones(1))
    else:
        sub = solve_rows(a[np.ix_(rows, cols)])
    row = np.zeros(a.shape[0])
    row[rows] = sub.row
    column = np.zeros(a.shape[1])
    column[cols] = sub.column
    return MatrixSolution(sub.value, row, column)


def _checked(matrix: np.ndarray) -> np.ndarray:
    a = np.asarray(matrix, dtype=float)
    if a.ndim != 2 or 0 in a.shape:
        raise ValueError(f"a matrix game needs a non-empty 2-D payoff table, got {a.shape}")
    if not np.isfinite(a).all():
        raise ValueError("a matrix game's payoffs must be finite numbers")
    return a


solve_matrix_game = solve
"""The name agents use: value and optimal mixes, dominated strategies pruned first."""
