"""The proof's progress line and ``--survey`` count the same levels alike (issue 32.11)."""

from __future__ import annotations

import pytest

import meeple
from meeple.solvers import cache
from meeple.solvers.edges_proof import NullWindowProof, ProofProgress
from meeple.solvers.edges_solver import EdgesSolver, SearchStopped


@pytest.mark.parametrize("stop_at", [3, 6, 9])
def test_where_a_run_stopped_is_where_the_survey_says_it_is(tmp_path, stop_at):
    g = meeple.make("edges", board="2x2", stash="2/2/1", pie=False)
    state = g.new_game(0)
    path = tmp_path / "p.json"
    run = NullWindowProof(EdgesSolver(g.board, tt_bits=14), 0, path, split=3)
    search, calls = run._search, []

    def stopping_search(solver, leaf):
        calls.append(leaf)
        if len(calls) == stop_at:  # stopped in the middle of this leaf, as Ctrl-C stops it
            raise SearchStopped("stop")
        return search(solver, leaf)

    run._search = stopping_search
    with pytest.raises(SearchStopped):
        run.holds(state)
    root, steps = NullWindowProof(EdgesSolver(g.board, tt_bits=14), 0, path, split=3).survey(state)
    assert root is None and run.progress.where
    assert ProofProgress.from_survey(steps).where == run.progress.where


def test_the_survey_command_prints_where_as_the_progress_line_does(run, tmp_path):
    g = meeple.make("edges", board="2x2", stash="2/2/1", pie=False)
    point = tmp_path / "p.json"

    def stop_after_five(p: ProofProgress) -> None:
        if p.searched >= 5:
            raise SearchStopped("enough")

    question = cache.position_id(g.new_game(0))
    partial = NullWindowProof(EdgesSolver(g.board, tt_bits=14), 0, point, split=3,
                              question=question, on_leaf=stop_after_five)  # fmt: skip
    with pytest.raises(SearchStopped):
        partial.holds(g.new_game(0))
    args = ("solve", "edges", "--board", "2x2", "--stash", "2/2/1", "--no-pie", "--split", "3")
    result = run(*args, "--prove", "0", "--checkpoint", str(point), "--survey")
    assert result.exit_code == 0, result.output
    reader = NullWindowProof(EdgesSolver(g.board, tt_bits=14), 0, point, 3, question)
    _, steps = reader.survey(g.new_game(0))
    where = ProofProgress.from_survey(steps).where_text()
    assert f"where: {where}, as the run's progress line counts it" in result.output
    step = next(s for s in steps if s.mover == 1)
    assert f"reply {step.position}/{step.replies} ({step.hold} hold" in result.output
