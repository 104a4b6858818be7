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
from numpy.typing import ArrayLike

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
    # Imported here: scipy.optimize takes about 0.3 s to import, and every process that
    # imports meeple (each server, command and worker) would pay it, solving or not.
    from scipy.optimize import linprog

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


def solve(matrix: ArrayLike, prune: bool = True) -> MatrixSolution:
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


SUPPORT_GAP = 1e-11
"""How far apart the two guarantees of mixes found on a support may be for them to count as
optimal: a hundredth of the linear programs' tolerance."""


def solve_on_support(
    matrix: np.ndarray,
    rows: np.ndarray,
    columns: np.ndarray,
    tight_rows: np.ndarray | None = None,
    tight_columns: np.ndarray | None = None,
) -> MatrixSolution | None:
    """Optimal mixes that play only these ``rows`` and ``columns``, if such mixes are found
    (None otherwise): each side's mix makes every line of the other side's support worth the
    same to the other side, and both are then verified on the whole matrix, each guaranteeing
    the value to within :data:`SUPPORT_GAP` (:func:`guarantees`), so what is returned is as
    optimal as a program's answer. ``tight_rows`` and ``tight_columns`` (by default the
    supports) are the lines each mix must make worth the value: in a degenerate game the
    last answer's best replies, which can be more than the lines it played.

    Why: a game solved again with payoffs that moved a little (value iteration's next sweep)
    almost always keeps its equilibrium's support, and a nonnegative least-squares fit of
    each side's indifference equations (SciPy's NNLS, square or not: degenerate games have
    supports of unequal size) costs a small share of a linear program.
    """
    from scipy.optimize import nnls  # imported here: see solve_rows

    a = _checked(matrix)
    if len(rows) == 0 or len(columns) == 0:
        return None
    rows, columns = np.asarray(rows), np.asarray(columns)
    tight_rows = rows if tight_rows is None else np.asarray(tight_rows)
    tight_columns = columns if tight_columns is None else tight_columns
    mixes = []
    # Index arrays as a column against a row (what np.ix_ makes, without its cost: value
    # iteration calls this for almost every state in every sweep).
    for payoff in (a[rows[:, None], tight_columns].T, a[tight_rows[:, None], columns]):
        # Unknowns: the mix (>= 0) and the value as the difference of two nonnegatives.
        # Equations: payoff @ mix - value = 0 for each line of the other support; sum = 1.
        lines, size = payoff.shape
        system = np.zeros((lines + 1, size + 2))
        system[:lines, :size] = payoff
        system[:lines, size] = -1.0
        system[:lines, size + 1] = 1.0
        system[lines, :size] = 1.0
        target = np.zeros(lines + 1)
        target[-1] = 1.0
        solution, residual = nnls(system, target)
        mix = solution[:size]
        total = mix.sum()
        if not np.isfinite(residual) or residual > SUPPORT_GAP or total <= 0:
            return None
        mixes.append(mix / total)
    row = np.zeros(a.shape[0])
    row[rows] = mixes[0]
    column = np.zeros(a.shape[1])
    column[columns] = mixes[1]
    low, high = guarantees(a, row, column)
    if high - low > SUPPORT_GAP:
        return None
    return MatrixSolution((low + high) / 2, row, column)


def _checked(matrix: ArrayLike) -> np.ndarray:
    a = np.asarray(matrix, dtype=float)
    if a.ndim != 2 or 0 in a.shape:
        raise ValueError(f"a matrix game needs a non-empty 2-D payoff table, got {a.shape}")
    if not np.isfinite(a).all():
        raise ValueError("a matrix game's payoffs must be finite numbers")
    return a


solve_matrix_game = solve
"""The name agents use: value and optimal mixes, dominated strategies pruned first."""
