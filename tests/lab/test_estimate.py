"""Before a run is far along, the lab says how long it will take (issue 59, item 5), at the
pace of the games played so far, not of the first game, which sets the run up."""

from __future__ import annotations

import time

import pytest

from meeple.interfaces import lab_common
from meeple.interfaces.lab_common import estimate_line, time_left
from meeple.lab import simulate
from meeple.lab.run import RunSpec
from meeple.lab.simulate import Pace


def _pace(*batches: tuple[int, float, bool]) -> Pace:
    pace = Pace()
    for batch in batches:
        pace.add(*batch)
    return pace


def test_the_estimate_is_the_pace_of_games_without_set_up_for_the_games_left_over_the_workers():
    first = (1, 3600.0, True)  # Erd's hard level reads its solved rules in its first game
    assert estimate_line(_pace(first, (1, 2.0, False)), 100, 1) == (
        "Games take 2.0 s each (the first game, set-up included, 3600.0 s): about 3 min for "
        "the 100 still to play."
    )
    assert estimate_line(_pace(first, first, (3, 6.0, False)), 100, 2) == (
        "Games take 2.0 s each (a worker's first game, set-up included, 3600.0 s): about "
        "2 min for the 100 still to play on 2 workers."
    )
    assert estimate_line(_pace((1, 60.0, False)), 200, 2) == (
        "Games take 60.0 s each: about 1.7 h for the 200 still to play on 2 workers."
    )
    assert estimate_line(_pace(first), 100, 1) is None  # the set-up alone times nothing
    assert estimate_line(_pace(first, (1, 0.01, False)), 100, 1) is None  # a second in all
    assert estimate_line(_pace(first, (1, 9.0, False)), 0, 1) is None


def test_the_bar_shows_the_time_left_once_a_game_without_set_up_is_in():
    assert time_left(_pace((1, 3600.0, True)), 60, 1) == "timing the games"
    pace = _pace((1, 3600.0, True), (1, 20.0, False))
    assert time_left(pace, 60, 1) == "about 20 min left"
    pace.add(2, 20.0, False)  # quicker games bring it down as they finish
    assert time_left(pace, 60, 1) == "about 13 min left"
    assert time_left(pace, 60, 3) == "about 4 min left"
    assert time_left(pace, 6, 3) == "about 27 s left"


def test_the_line_waits_for_five_games_past_the_set_up_or_thirty_seconds_of_them():
    assert not lab_common._settled(_pace((1, 3600.0, True), (4, 4.0, False)))
    assert lab_common._settled(_pace((1, 3600.0, True), (5, 5.0, False)))
    assert lab_common._settled(_pace((1, 3600.0, True), (1, 30.0, False)))  # slow games


def test_a_slow_first_game_does_not_time_the_rest(run, tmp_path, monkeypatch):
    """`meeple simulate erd --seat hard ...` said "about 70 min" from its first game, which
    read the solved rules, for a run that took 24. Here the first game takes an hour of the
    clock the run reads and every later one a second; no real time is compared."""
    simulate._setting.cache_clear()  # a command in a fresh process builds the run's setting
    now = [time.perf_counter()]
    monkeypatch.setattr(time, "perf_counter", lambda: now[0])
    play_jobs = simulate.play_jobs
    played: list[int] = []

    def timed(jobs):
        now[0] += 1.0 if played else 3600.0
        played.append(len(jobs))
        return play_jobs(jobs)

    monkeypatch.setattr(simulate, "play_jobs", timed)
    args = ["simulate", "edges", "--board", "2x2", "--seat", "random", "-n", "20",
            "--db", f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(tmp_path)]  # fmt: skip
    result = run(*args)
    assert result.exit_code == 0, result.output
    # Said once five games past the set-up are in.
    assert (
        "Games take 1.0 s each (the first game, set-up included, 3600.0 s): about 14 s for "
        "the 14 still to play." in " ".join(result.output.split())
    )


def test_simulate_says_it_once_and_not_for_stored_games(run, tmp_path, monkeypatch):
    monkeypatch.setattr(lab_common, "ESTIMATE_FROM_SECONDS", 0.0)
    simulate._setting.cache_clear()
    args = ["simulate", "edges", "--board", "2x2", "--seat", "random", "--db",
            f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(tmp_path)]  # fmt: skip
    first = run(*args, "-n", "10")
    assert first.exit_code == 0, first.output
    assert first.output.count("Games take") == 1
    # Said once five games past the set-up (the first) are in.
    assert "for the 4 still to play" in " ".join(first.output.split())
    again = run(*args, "-n", "10")  # every game stored: nothing to play, nothing to say
    assert "Games take" not in again.output
    # This process set the run up already: every game played is timed as it is.
    more = run(*args, "-n", "16")
    assert "for the 1 still to play" in " ".join(more.output.split())
    fewer = run(*args, "-n", "20")  # four games past the set-up: too few to time the rest by
    assert "Games take" not in fewer.output


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_games_times_are_the_games_alone(run, tmp_path, monkeypatch, jobs):
    """Making the list of games to play (6 s for a million of Edges) came before the first
    game and was counted in its time, so the estimate multiplied it by every game left.

    The clock the run reads moves only while the jobs are made (an hour each), never while a
    game plays: a game's time is 0 when it is the game alone, and at least an hour when
    anything before the game is counted in it. (A forked worker keeps this clock; a worker
    started otherwise reads the real one, seconds at most.) No real time is compared."""
    paces: list[tuple[float | None, float | None]] = []
    monkeypatch.setattr(lab_common, "ESTIMATE_FROM_SECONDS", 0.0)
    real = lab_common.estimate_line

    def seen(pace, left, jobs):
        paces.append((pace.of(True), pace.of(False)))
        return real(pace, left, jobs)

    monkeypatch.setattr(lab_common, "estimate_line", seen)
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
    assert paces
    assert all(seconds is None or seconds < hour for pair in paces for seconds in pair)
