"""Match-ups and their statistics."""

from __future__ import annotations

import pytest

import meeple
from meeple.lab import head_to_head, wilson_interval


def test_wilson_interval_known_values():
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson_interval(0, 20)[0] == 0.0 and wilson_interval(20, 20)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_head_to_head_alternates_seats_and_is_repeatable():
    game = meeple.make("edges", board="2x2")
    first = head_to_head(game, "random", "random", 30, seed=4)
    again = head_to_head(game, "random", "random", 30, seed=4)
    assert first == again and first.games == 30


def test_greedy_beats_random_on_the_standard_board():
    """Issue 2 asks for >= 90% over 200+ games (benchmarks/edges_agents.py measures it);
    this smaller sample guards against a regression without the full cost."""
    result = head_to_head(meeple.make("edges"), "greedy", "random", 80, seed=1)
    assert result.win_rate >= 0.85, result.summary()
