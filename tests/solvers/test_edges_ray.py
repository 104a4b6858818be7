"""Proof leaves farmed out through Ray (``meeple.solvers.edges_ray``), on a local cluster.

One cluster for the module: starting Ray costs seconds.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from meeple.core.registry import make
from meeple.solvers.edges_proof import NullWindowProof, ProofProgress
from meeple.solvers.edges_solver import EdgesSolver, SearchStopped

ray = pytest.importorskip("ray")

from meeple.solvers.edges_ray import LeafWorker, RayLeaves  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _proof(g, path: Path, split: int, **options) -> NullWindowProof:
    return NullWindowProof(EdgesSolver(g.board, tt_bits=16), 0, path, split=split, **options)


def test_a_proof_on_ray_answers_as_one_in_threads_and_survives_a_dead_worker(tmp_path):
    g = make("edges", board="2x3", stash="3/3/2", pie=False, first=0)
    marker = tmp_path / "die"
    marker.touch()

    class DiesOnce(LeafWorker):
        """Dies (the process ends) on the first leaf it is sent while the marker exists."""

        def search(self, leaf, threshold, generation, seconds):
            if marker.exists():
                marker.unlink()
                os._exit(1)
            return super().search(leaf, threshold, generation, seconds)

    threads = _proof(g, tmp_path / "threads.json", 3, workers=2)
    assert threads.holds(g.new_game(0))  # 2x3 is worth 0
    runner = RayLeaves(g.board, 0, tt_bits=16, workers=2, worker_class=DiesOnce)
    try:
        on_ray = _proof(g, tmp_path / "ray.json", 3, runner=runner)
        assert on_ray.holds(g.new_game(0))
        assert runner.replaced == 1  # one worker died and its leaf was searched again
    finally:
        runner.close()
    # The same answers for the same positions: the leaves and the positions above them.
    assert on_ray.done == threads.done
    assert len(on_ray.done) > 20


def test_the_3x3_proofs_first_leaves_on_ray_are_the_threaded_runs(tmp_path):
    g = make("edges", board="3x3", stash="4/4/4", pie=False, first=0)
    leaves = 4

    def stop_after(p: ProofProgress) -> None:
        if p.searched >= leaves:
            raise SearchStopped("enough leaves")

    one = _proof(g, tmp_path / "one.json", 6, on_leaf=stop_after)
    with pytest.raises(SearchStopped):
        one.holds(g.new_game(0))
    # One worker on Ray keeps one table across the leaves, as the one thread does.
    runner = RayLeaves(g.board, 0, tt_bits=16, workers=1)
    try:
        on_ray = _proof(g, tmp_path / "ray.json", 6, runner=runner, on_leaf=stop_after)
        with pytest.raises(SearchStopped):
            on_ray.holds(g.new_game(0))
    finally:
        runner.close()
    assert len(on_ray.done) == leaves
    assert on_ray.done == one.done
    assert on_ray.progress.nodes == one.progress.nodes  # the same searches, node for node
