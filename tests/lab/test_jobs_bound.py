"""--jobs is bounded in every lab command that takes it: a count of workers past the bound
is refused, saying what was given and what is allowed, before anything is played or
stored."""

from __future__ import annotations

import pytest

from meeple.lab import run as lab_run
from meeple.lab.run import MAX_JOBS

COMMANDS = [
    ("simulate", "edges", "--board", "2x2"),
    ("compare", "edges", "--variant", "board=2x2", "--variant", "board=2x3"),
    ("sweep", "edges", "--option", "board", "--values", "2x2,2x3"),
    ("tournament", "edges", "--board", "2x2", "--agent", "random", "--agent", "greedy"),
    ("design", "edges", "--board", "2x2"),
]


@pytest.mark.parametrize("words", COMMANDS, ids=lambda words: words[0])
@pytest.mark.parametrize("jobs", [0, MAX_JOBS + 1, 100000])
def test_a_count_of_workers_out_of_range_is_refused_before_anything_is_played(
    run, tmp_path, monkeypatch, words, jobs
):
    def played(*args, **kwargs):
        # --jobs 100000 forked a process per worker: a test must never get that far.
        raise AssertionError("a game was handed to the workers")

    monkeypatch.setattr(lab_run, "run_jobs", played)
    db = tmp_path / "lab.db"
    where = ["--db", f"sqlite:///{db}", "--out", str(tmp_path / "out")]
    result = run(*words, "-n", "2", "--jobs", str(jobs), *where)
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.replace("│", " ").split())
    assert f"Invalid value for '--jobs': {jobs} given; a run starts 1 to {MAX_JOBS}" in said
    assert "Traceback" not in result.output
    assert not db.exists()


@pytest.mark.parametrize("jobs", [1, MAX_JOBS])
def test_the_bounds_themselves_are_allowed(run, tmp_path, monkeypatch, jobs):
    workers = []
    serial = lab_run.run_jobs

    def played(games, backend, count, address, *rest):
        # The count asked for is noted; the two games are played here, not on 256 processes.
        workers.append(count)
        return serial(games, "serial", 1, None, *rest)

    monkeypatch.setattr(lab_run, "run_jobs", played)
    where = ["--db", f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(tmp_path)]
    result = run("simulate", "edges", "--board", "2x2", "-n", "2", "--jobs", str(jobs), *where)
    assert result.exit_code == 0, result.output
    assert workers == [jobs]
