"""Match-ups and their statistics."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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


def test_the_head_to_head_script_refuses_a_game_of_more_seats_in_one_line():
    """benchmarks/head_to_head.py seats two agents; a three-player Erosion stopped in
    play_game with a ValueError traceback. It says what it plays and what to use instead."""
    root = Path(__file__).resolve().parents[2]
    script = root / "benchmarks" / "head_to_head.py"
    run = subprocess.run(
        [sys.executable, str(script), "erosion", "heuristic", "random", "1", "players=3"],
        capture_output=True,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root / "src")},
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert "erosion with these options has 3 seats" in run.stderr
    assert "two-player games" in run.stderr
