"""The proof-size estimate (``meeple.solvers.edges_estimate``) against the tree it samples."""

from __future__ import annotations

from pathlib import Path

import pytest

from meeple.core.registry import make
from meeple.solvers.edges_estimate import estimate_proof
from meeple.solvers.edges_proof import NullWindowProof
from meeple.solvers.edges_solver import EdgesSolver


def _tree_leaves(walker: NullWindowProof, state, chooser: int, ply: int = 0) -> int:
    """The leaves the probes sample from, counted one by one: the chooser's first move,
    every move of the other side."""
    if walker.is_leaf(state, ply):
        return 1
    children = walker.children(state)
    if state.to_act[0] == chooser:
        children = children[:1]
    return sum(_tree_leaves(walker, child, chooser, ply + 1) for _, child in children)


@pytest.mark.parametrize(("threshold", "claim"), [(0, True), (1, False)])
def test_the_estimate_brackets_the_trees_true_leaf_count(tmp_path, threshold, claim):
    # 2x2 (2/2/1) is worth 0: "at least 0" holds, "at least 1" fails.
    g = make("edges", board="2x2", stash="2/2/1", pie=False, first=0)
    state = g.new_game(0)
    solver = EdgesSolver(g.board, tt_bits=12)
    walker = NullWindowProof(solver, threshold, Path(tmp_path / "unused.json"), split=3)
    exact = _tree_leaves(walker, state, 0 if claim else 1)
    result = estimate_proof(state, threshold, 300, split=3, claim=claim, tt_bits=12, seed=1)
    leaves = result.leaves
    assert leaves.low <= exact <= leaves.high
    assert abs(leaves.mean - exact) / exact < 0.15
    assert result.agreeing == 1.0  # every sampled leaf answers as the value says
    assert result.nodes.mean > 0 and result.core_hours.mean > 0


def test_a_deeper_sample_depth_still_counts_the_leaves_at_the_split():
    g = make("edges", board="2x2", stash="2/2/1", pie=False, first=0)
    state = g.new_game(0)
    at_split = estimate_proof(state, 0, 100, split=2, tt_bits=12, seed=3)
    deeper = estimate_proof(state, 0, 100, split=2, depth=4, tt_bits=12, seed=3)
    # The same random walks down to the split (the same seed), then further.
    assert [p.leaves for p in deeper.probes] == [p.leaves for p in at_split.probes]
    assert deeper.sampled.mean > deeper.leaves.mean
    with pytest.raises(ValueError, match="cannot be above the split"):
        estimate_proof(state, 0, 1, split=3, depth=2)
