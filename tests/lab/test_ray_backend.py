"""The lab's Ray backend from the command line: Ray missing, an address malformed or
unreachable, and an address given to a backend that would not use it are each refused in
one line (exit status 2), never with a traceback or by playing somewhere else."""

from __future__ import annotations

import sys

import pytest

from meeple.lab import run as lab_run

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
