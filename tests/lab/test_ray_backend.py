"""The lab's Ray backend from the command line: Ray missing, an address malformed or
unreachable, and an address given to a backend that would not use it are each refused in
one line (exit status 2), never with a traceback or by playing somewhere else; so is a run
whose games Ray lost for good, which keeps the games finished and resumes."""

from __future__ import annotations

import os
import sys

import pytest

from meeple.lab import run as lab_run
from meeple.lab import simulate
from meeple.store import ResultStore

SIMULATE = ("simulate", "edges", "--board", "2x2", "--seat", "greedy", "--seat", "random")


def _said(output: str) -> str:
    return " ".join(output.replace("│", " ").split())


def _where(tmp_path) -> list[str]:
    return ["--db", f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(tmp_path / "out")]


def test_the_ray_backend_without_ray_says_how_to_install_it(run, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as when not installed
    result = run(*SIMULATE, "-n", "2", "--backend", "ray", *_where(tmp_path))
    assert result.exit_code == 2, result.output
    assert "the ray backend needs Ray: pip install 'meeple[distributed]'" in _said(result.output)
    assert "Traceback" not in result.output


def test_a_malformed_address_is_refused_in_one_line(run, tmp_path):
    pytest.importorskip("ray")
    result = run(*SIMULATE, "-n", "2", "--address", "nonsense", *_where(tmp_path))
    assert result.exit_code == 2, result.output
    assert "--address takes HOST:PORT" in _said(result.output)
    assert "not 'nonsense'" in _said(result.output)
    assert "Traceback" not in result.output


@pytest.mark.parametrize("backend", ["serial", "process"])
def test_an_address_for_a_backend_that_would_not_use_it_is_refused(
    run, tmp_path, monkeypatch, backend
):
    def played(*args, **kwargs):
        raise AssertionError("the games were played off the cluster the command named")

    monkeypatch.setattr(lab_run, "run_jobs", played)
    words = ["--backend", backend, "--address", "10.0.0.5:6379"]
    result = run(*SIMULATE, "-n", "2", *words, *_where(tmp_path))
    assert result.exit_code == 2, result.output
    assert f"--address names a Ray cluster, which --backend {backend} does not use" in _said(
        result.output
    )


def test_an_address_alone_means_the_ray_backend(run, tmp_path, monkeypatch):
    asked = []
    serial = lab_run.run_jobs

    def played(games, backend, workers, address, *rest):
        # The backend and address asked for are noted; the games are played here.
        asked.append((backend, address))
        return serial(games, "serial", 1, None, *rest)

    monkeypatch.setattr(lab_run, "run_jobs", played)
    result = run(*SIMULATE, "-n", "2", "--address", "10.0.0.5:6379", *_where(tmp_path))
    assert result.exit_code == 0, result.output
    assert asked == [("ray", "10.0.0.5:6379")]


def test_a_batch_ray_lost_for_good_ends_the_run_in_one_line_and_the_run_resumes(
    run, tmp_path, monkeypatch
):
    pytest.importorskip("ray")
    played = simulate._play_timed

    def dies_from_game_6(jobs):
        # The worker's process ends, as a machine lost or a process killed: Ray plays the
        # batch again 3 times, each time on a new worker that dies as well.
        if any(job.index >= 6 for job in jobs):
            os._exit(1)
        return played(jobs)

    command = (*SIMULATE, "-n", "12", "--backend", "ray", "--jobs", "2", *_where(tmp_path))
    monkeypatch.setattr(simulate, "_play_timed", dies_from_game_6)
    lost = run(*command)
    assert lost.exit_code == 2, lost.output
    said = _said(lost.output)
    assert "error: Ray lost a batch of games: " in said
    assert said.endswith(simulate.LOST_BATCH)
    assert "Traceback" not in lost.output
    store = ResultStore(f"sqlite:///{tmp_path / 'lab.db'}")
    [key] = [r["key"] for r in store.runs()]
    assert {row["index"] for row in store.rows(key)} <= set(range(6))  # kept: played whole

    monkeypatch.setattr(simulate, "_play_timed", played)
    resumed = run(*command)
    assert resumed.exit_code == 0, resumed.output
    serial = run(*SIMULATE, "-n", "12", "--db", f"sqlite:///{tmp_path / 's.db'}",
                 "--out", str(tmp_path / "s"))  # fmt: skip
    assert serial.exit_code == 0, serial.output
    on_ray = (tmp_path / "out").glob("edges-*.jsonl")
    assert [p.read_text() for p in on_ray] == [
        p.read_text() for p in (tmp_path / "s").glob("edges-*.jsonl")
    ]


def test_a_comparison_starts_one_local_ray_for_all_its_variants(run, tmp_path, monkeypatch):
    """Each variant's run started a local Ray of its own and stopped it, 4 to 6 s a variant
    (three variants of two games: 20 s, against 7 s now); the command's runs share one Ray,
    stopped when the command ends."""
    ray = pytest.importorskip("ray")
    starts = []
    start = ray.init

    def counted_start(*args, **kwargs):
        starts.append(kwargs.get("address"))
        return start(*args, **kwargs)

    monkeypatch.setattr(ray, "init", counted_start)
    variants = ("--variant", "first: first=0", "--variant", "second: first=1")
    result = run("compare", "edges", "--board", "2x2", *variants, "-n", "2",
                 "--backend", "ray", "--jobs", "2", *_where(tmp_path))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert starts == ["local"]
    assert not ray.is_initialized()
