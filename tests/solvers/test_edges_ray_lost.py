"""A proof on Ray whose cluster goes away mid-run (``meeple solve edges --prove T --backend
ray``): one line, exit code 2, the checkpoint kept, and the same command resumes.

A module of its own: the command starts (and loses) a local Ray instance of its own, which
the module-wide cluster of ``test_edges_ray.py`` would stand in for.
"""

from __future__ import annotations

import os
import signal

import pytest

ray = pytest.importorskip("ray")

from meeple.solvers import edges_ray  # noqa: E402

PROOF = ("solve", "edges", "--board", "2x3", "--stash", "3/3/2", "--no-pie", "--prove", "0",
         "--split", "3", "--tt-bits", "16")  # fmt: skip


def _said(output: str) -> str:
    """The command's output as one line (the console wraps long lines)."""
    return " ".join(output.split())


def _answer(output: str) -> str:
    """A finished proof's answer, yes or no."""
    [line] = [line for line in output.splitlines() if "proved with" in line]
    return line.split(":")[0]


def test_a_proof_whose_ray_node_goes_away_ends_in_one_line_and_resumes(run, tmp_path, monkeypatch):
    """Ray does not raise when this machine's node goes away: the leaves waited for it for
    ever (with --budget, until the budget ran out, then 'the time budget ran out' and exit
    code 3); a cluster whose head went away ended the process after a minute, exit code 1,
    with Ray's own log line."""
    searched = tmp_path / "searched"
    searched.write_text("0")
    original = edges_ray.LeafWorker

    class KillsItsNode(original):
        """On its fifth leaf, kills its Ray node (the raylet, its parent process), then
        ends: the machine lost, as far as this run can tell."""

        def search(self, leaf, threshold, generation, seconds):
            count = int(searched.read_text()) + 1
            searched.write_text(str(count))
            if count == 5:
                os.kill(os.getppid(), signal.SIGKILL)
                os._exit(1)
            return super().search(leaf, threshold, generation, seconds)

    point = tmp_path / "proof.json"
    command = (*PROOF, "--checkpoint", str(point), "--backend", "ray", "--workers", "1")
    monkeypatch.setattr(edges_ray, "LeafWorker", KillsItsNode)
    lost = run(*command)
    assert lost.exit_code == 2, lost.output
    said = _said(lost.output)
    # Ray's own notice of its raylet's end (and that raylet's log) may come around the line.
    error = said[said.index("error: ") :]
    assert error.startswith("error: Ray lost the leaves under way: this machine's Ray node "
                            "has not answered for 5 s (")  # fmt: skip
    assert f"). {edges_ray.LOST_LEAVES}" in error
    assert "Traceback" not in lost.output
    kept = point.read_text().splitlines()[1:]  # below the header: the answers found
    assert len(kept) >= 4  # the four leaves answered before, and positions settled by them

    monkeypatch.setattr(edges_ray, "LeafWorker", original)
    resumed = run(*command)
    assert resumed.exit_code == 0, resumed.output
    assert f"{len(kept)} verified answers in it" in _said(resumed.output)
    threads = run(*PROOF, "--checkpoint", str(tmp_path / "threads.json"))
    assert threads.exit_code == 0, threads.output
    assert _answer(resumed.output) == _answer(threads.output) == "yes"  # 2x3 is worth 0
