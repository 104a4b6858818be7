"""The matrix-game linear program against games whose solutions are known."""

from __future__ import annotations

import numpy as np
import pytest

from meeple.core.matrix_games import solve_matrix_game


def test_matching_pennies_is_a_fair_coin() -> None:
    solution = solve_matrix_game([[1, -1], [-1, 1]])
    assert solution.value == pytest.approx(0, abs=1e-9)
    assert solution.row == pytest.approx((0.5, 0.5))
    assert solution.column == pytest.approx((0.5, 0.5))


def test_rock_paper_scissors_is_uniform() -> None:
    solution = solve_matrix_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert solution.value == pytest.approx(0, abs=1e-9)
    assert solution.row == pytest.approx((1 / 3,) * 3)
    assert solution.column == pytest.approx((1 / 3,) * 3)


def test_a_saddle_point_is_played_pure() -> None:
    # Row 0 dominates row 1; against it the column player takes column 1.
    solution = solve_matrix_game([[3, 1], [2, 0]])
    assert solution.value == pytest.approx(1)
    assert solution.row == pytest.approx((1, 0))
    assert solution.column == pytest.approx((0, 1))


def test_an_uneven_game_and_its_column_player() -> None:
    # 2p - (1 - p) = -p + (1 - p) gives p = 0.4, value 0.2; the column side mixes the same.
    solution = solve_matrix_game([[2, -1], [-1, 1]])
    assert solution.value == pytest.approx(0.2)
    assert solution.row == pytest.approx((0.4, 0.6))
    assert solution.column == pytest.approx((0.4, 0.6))


def test_both_mixes_guarantee_the_value_on_random_games() -> None:
    rng = np.random.default_rng(7)
    for _ in range(50):
        payoff = rng.uniform(-1, 1, size=(rng.integers(1, 7), rng.integers(1, 7)))
        solution = solve_matrix_game(payoff)
        row, column = np.array(solution.row), np.array(solution.column)
        assert (row @ payoff).min() == pytest.approx(solution.value, abs=1e-9)
        assert (payoff @ column).max() == pytest.approx(solution.value, abs=1e-9)


def test_an_empty_table_is_refused() -> None:
    with pytest.raises(ValueError, match="non-empty 2-D"):
        solve_matrix_game([[]])


def test_a_game_whose_payoffs_moved_is_solved_again_on_its_support() -> None:
    """Value iteration's shortcut: the last answer's support (and best replies) with payoffs
    moved a little gives mixes as optimal as a program's, checked on the whole matrix; a
    support that no longer fits gives None, never a wrong answer."""
    from meeple.core.matrix_games import guarantees, solve_on_support

    rng = np.random.default_rng(3)
    found = refused = 0
    for _ in range(200):
        payoff = rng.uniform(-1, 1, size=(rng.integers(2, 8), rng.integers(2, 8)))
        before = solve_matrix_game(payoff)
        low, high = guarantees(payoff, before.row, before.column)
        moved = payoff + rng.uniform(-1e-4, 1e-4, size=payoff.shape)
        again = solve_on_support(
            moved,
            np.flatnonzero(before.row > 1e-12),
            np.flatnonzero(before.column > 1e-12),
            np.flatnonzero(payoff @ before.column >= high - 1e-9),
            np.flatnonzero(before.row @ payoff <= low + 1e-9),
        )
        if again is None:
            refused += 1
            continue
        found += 1
        assert again.value == pytest.approx(solve_matrix_game(moved).value, abs=1e-9)
        worst_row, worst_column = guarantees(moved, again.row, again.column)
        assert worst_column - worst_row <= 1e-11
    assert found > 150  # the support almost always survives a small move
    # A support that cannot be optimal (matching pennies played pure) is refused.
    pennies = np.array([[1.0, -1.0], [-1.0, 1.0]])
    assert solve_on_support(pennies, np.array([0]), np.array([0])) is None
    assert solve_on_support(pennies, np.array([0, 1]), np.array([0, 1])) is not None
