"""Before a run is far along, the lab says how long it will take (issue 59, item 5)."""

from __future__ import annotations

import time

import pytest

from meeple.interfaces import lab_common
from meeple.interfaces.lab_common import estimate_line
from meeple.lab.run import RunSpec


def test_the_estimate_is_the_first_games_time_for_the_games_left_over_the_workers():
    assert estimate_line(2.0, 100, 1) == (
        "The first game took 2.0 s: about 3 min for the 100 still to play."
    )
    assert estimate_line(2.0, 100, 4) == (
        "The first game took 2.0 s: about 50 s for the 100 still to play on 4 workers."
    )
    assert estimate_line(60.0, 200, 2) == (
        "The first game took 60.0 s: about 1.7 h for the 200 still to play on 2 workers."
    )
    assert estimate_line(0.01, 100, 1) is None  # a second in all: not worth a line
    assert estimate_line(9.0, 0, 1) is None


def test_simulate_says_it_once_and_not_for_stored_games(run, tmp_path, monkeypatch):
    monkeypatch.setattr(lab_common, "ESTIMATE_FROM_SECONDS", 0.0)
    args = ["simulate", "edges", "--board", "2x2", "--seat", "random", "--db",
            f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(tmp_path)]  # fmt: skip
    first = run(*args, "-n", "5")
    assert first.exit_code == 0, first.output
    assert first.output.count("The first game took") == 1
    assert "for the 4 still to play" in first.output
    again = run(*args, "-n", "5")  # every game stored: nothing to play, nothing to say
    assert "The first game took" not in again.output
    more = run(*args, "-n", "8")
    assert "for the 2 still to play" in more.output


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_first_games_time_is_the_game_alone(run, tmp_path, monkeypatch, jobs):
    """Making the list of games to play (6 s for a million of Edges) came before the first
    game and was counted in its time, so the estimate multiplied it by every game left.

    The clock the run reads moves only while the jobs are made (an hour each), never while a
    game plays: the first game's time is 0 when it is the game alone, and at least an hour
    when anything before the game is counted in it. (A forked worker keeps this clock; a
    worker started otherwise reads the real one, seconds at most.) No real time is compared."""
    firsts = []
    monkeypatch.setattr(lab_common, "estimate_line", lambda first, left, jobs: firsts.append(first))
    hour = 3600.0
    now = [time.perf_counter()]
    monkeypatch.setattr(time, "perf_counter", lambda: now[0])
    job = RunSpec.job

    def slow(spec, index):
        now[0] += hour
        return job(spec, index)

    monkeypatch.setattr(RunSpec, "job", slow)
    args = ["simulate", "edges", "--board", "2x2", "--seat", "random", "-n", "20", "--jobs",
            jobs, "--db", f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(tmp_path)]  # fmt: skip
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert len(firsts) == 1
    assert firsts[0] < hour
