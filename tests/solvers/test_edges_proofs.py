"""Resumable null-window proofs of Edges values: agreement, resuming, checkpoints, surveys,
the check from the leaves, stopping, and their commands."""

from __future__ import annotations

import random

import numpy as np
import pytest

from meeple.solvers.edges_solver import EdgesSolver, random_position
from tests.solvers.edges_cases import game


@pytest.mark.parametrize("pie", [False, True])
def test_null_window_proof_agrees_and_resumes(tmp_path, pie):
    from meeple.solvers.edges_proof import NullWindowProof

    g = game("2x2", "2/2/1", pie=pie)
    state = g.new_game(0)
    solver = EdgesSolver(g.board, tt_bits=16)
    path = tmp_path / "proof.json"
    assert NullWindowProof(solver, 0, path, split=3).holds(state)  # the value is 0
    again = NullWindowProof(solver, 0, path, split=3)
    assert again.holds(state) and again.leaves_searched == 0  # all from the checkpoint
    assert not NullWindowProof(solver, 1, tmp_path / "p1.json", split=3).holds(state)


def test_each_proof_leaf_starts_its_move_ordering_afresh_and_keeps_the_table(tmp_path):
    # What cut off in one leaf's subtrees misleads the next leaf's search (21% more nodes on
    # the 3x3 proof's leaves): each leaf forgets the history and killers, not the table.
    from meeple.solvers.edges_proof import NullWindowProof

    g = game("2x2", "2/2/1")
    solver = EdgesSolver(g.board, tt_bits=14)
    solver.search(random_position(g, 6, random.Random(1)))
    assert solver.history.any() and (solver.killers >= 0).any()
    filled = int(np.count_nonzero(solver.tt[:, 1]))
    solver.fresh_ordering()
    assert not solver.history.any() and (solver.killers == -1).all()
    assert int(np.count_nonzero(solver.tt[:, 1])) == filled
    calls = []
    fresh = solver.fresh_ordering
    solver.fresh_ordering = lambda: (calls.append(1), fresh())  # type: ignore[method-assign]
    proof = NullWindowProof(solver, 0, tmp_path / "p.json", split=3)
    assert proof.holds(g.new_game(0))
    assert len(calls) == proof.leaves_searched > 0


def test_a_proof_in_two_threads_agrees_with_one(tmp_path):
    from meeple.solvers.edges_proof import NullWindowProof

    g = game("2x2", "2/2/1")
    state = g.new_game(0)
    for threshold, expected in ((0, True), (1, False)):
        one = NullWindowProof(EdgesSolver(g.board, tt_bits=14), threshold,
                              tmp_path / f"one{threshold}", split=3)  # fmt: skip
        two = NullWindowProof(EdgesSolver(g.board, tt_bits=14), threshold,
                              tmp_path / f"two{threshold}", split=3, workers=2)  # fmt: skip
        assert one.holds(state) is expected
        assert two.holds(state) is expected
        # Every leaf both searched got the same answer.
        common = one.done.keys() & two.done.keys()
        assert common and all(one.done[k] == two.done[k] for k in common)


def test_where_a_proof_is_reads_as_replies_and_the_share_behind_it():
    from meeple.solvers.edges_proof import ProofProgress

    assert ProofProgress().where_text() == "the start"
    p = ProofProgress(where=((3, 45), (12, 48)))
    assert p.walked == pytest.approx((2 + 11 / 48) / 45)
    assert p.where_text() == "3/45 > 12/48 (5.0% walked)"
    assert ProofProgress(where=((1, 57), (1, 51))).walked == 0
    assert ProofProgress(where=((57, 57), (51, 51))).walked == pytest.approx(1 - 1 / 57 / 51)


def test_the_proof_checkpoint_gains_one_line_a_leaf_and_survives_a_cut_last_line(tmp_path):
    import json

    from meeple.solvers.edges_proof import NullWindowProof

    g = game("2x2", "2/2/1")
    state = g.new_game(0)
    path = tmp_path / "proof.jsonl"
    solver = EdgesSolver(g.board, tt_bits=14)
    first = NullWindowProof(solver, 0, path, split=3)
    assert first.holds(state)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["format"] == "edges-proof/3"
    # Appended, one line per answer: the leaves, then the positions above them as they settle
    # (the root last), so a resumed run need not walk through finished subtrees.
    assert len(lines) == 1 + len(first.done) and len(first.done) > first.leaves_searched
    assert json.loads(lines[-1])[1] is True
    # A crash in the middle of a write leaves a last line cut short: that answer is dropped
    # (found again), the rest are kept and the file is mended.
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:5], encoding="utf-8")
    again = NullWindowProof(solver, 0, path, split=3)
    assert len(again.done) == len(first.done) - 1
    assert again.holds(state) and again.leaves_searched == 0
    assert path.read_text(encoding="utf-8").endswith("\n")
    assert len(again.done) == len(first.done)


def test_a_proof_stops_at_its_deadline_and_resumes(tmp_path):
    import time

    from meeple.core.errors import MeepleError
    from meeple.solvers.edges_proof import NullWindowProof
    from meeple.solvers.edges_solver import SearchStopped

    g = game("2x2", "2/2/1")
    state = g.new_game(0)
    path = tmp_path / "proof.json"
    solver = EdgesSolver(g.board, tt_bits=14)
    with pytest.raises(SearchStopped):
        NullWindowProof(solver, 0, path, split=3, deadline=time.perf_counter()).holds(state)
    resumed = NullWindowProof(solver, 0, path, split=3)
    assert resumed.holds(state)
    with pytest.raises(MeepleError, match="another question"):
        NullWindowProof(solver, 1, path, split=3)


def test_prove_command_answers_and_resumes(run, tmp_path):
    args = ("solve", "edges", "--board", "2x2", "--stash", "2/2/1", "--no-pie", "--split", "3")
    point = tmp_path / "p.json"
    yes = run(*args, "--prove", "0", "--checkpoint", str(point))
    assert yes.exit_code == 0, yes.output
    assert "at least +0?" in yes.output and "yes" in yes.output
    # Without a terminal (a log file) a plain line says where the run is, at the first leaf
    # and then every minute, and no live display leaves blank lines behind.
    assert "leaves searched 1 (known 0)" in yes.output
    assert "\n\n" not in yes.output
    # A fresh checkpoint ("0 verified answers in it") answered 3 "from" itself: they are
    # this run's own answers, met again by another order of moves, and are said so.
    said = " ".join(yes.output.split())
    assert "(0 verified answers in it;" in said or "(0 verified answers in it)" in said, said
    assert f"and 3 answered by known answers (read back from {point}, or this run's own" in said
    again = run(*args, "--prove", "0", "--checkpoint", str(point))
    assert "read back from" in again.output and "not searched in this run" in again.output
    no = run(*args, "--prove", "1", "--cache-dir", str(tmp_path / "c"))
    assert no.exit_code == 0 and "no" in no.output and "at least +1?" in no.output
    clash = run(*args, "--prove", "1", "--checkpoint", str(point))
    assert clash.exit_code == 2 and "another question" in clash.output


def test_a_threshold_past_the_board_is_answered_without_a_search(run, tmp_path):
    # A square scores at most 2 for either side: on 1x1 the first player's margin is within
    # [-2, +2], so "+99?" is no and "-2?" yes before any leaf, and no checkpoint is written.
    args = ("solve", "edges", "--board", "1x1", "--cache-dir", str(tmp_path))
    high = run(*args, "--prove", "99")
    said = " ".join(high.output.split())
    assert high.exit_code == 0, said
    assert "can the first player reach at least +99?" in said
    assert ("no: the first player can win by at most 2 on a 1x1 board (at most 2 points a "
            "square), never by 99; nothing searched, no checkpoint written") in said  # fmt: skip
    low = " ".join(run(*args, "--prove", "-2").output.split())
    assert "yes: the first player can lose by at most 2 on a 1x1 board" in low
    assert "always reaches at least -2" in low
    survey = run(*args, "--prove", "99", "--survey")
    assert survey.exit_code == 0 and "never by 99" in " ".join(survey.output.split())
    assert not list(tmp_path.iterdir())
    inside = run(*args, "--prove", "2")  # the board's most itself is searched
    assert inside.exit_code == 0 and "leaves searched" in inside.output


def test_a_survey_reads_how_far_a_checkpoint_got_without_searching(tmp_path):
    from meeple.solvers.edges_proof import NullWindowProof, ProofProgress
    from meeple.solvers.edges_solver import SearchStopped

    g = game("2x2", "2/2/1")
    state = g.new_game(0)
    path = tmp_path / "p.json"

    def stop_after_four(p: ProofProgress) -> None:
        if p.searched >= 4:
            raise SearchStopped("enough")

    partial = NullWindowProof(EdgesSolver(g.board, tt_bits=14), 0, path, split=3,
                              on_leaf=stop_after_four)  # fmt: skip
    with pytest.raises(SearchStopped):
        partial.holds(state)
    solver = EdgesSolver(g.board, tt_bits=14)
    reader = NullWindowProof(solver, 0, path, split=3)
    root, steps = reader.survey(state)
    assert root is None and steps and solver.stats.nodes == 0  # nothing searched for it
    assert [s.mover for s in steps] == [depth % 2 for depth in range(len(steps))]  # turns
    first, replies = steps[0], steps[1]
    assert first.failed == 0 and replies.hold + replies.open <= replies.replies
    assert replies.open >= 1
    # The counts are the checkpoint's answers for the replies a run walks through.
    node = next(c for a, c in reader._children(state) if str(a) == first.move)
    answers = [reader.done.get(reader._node_id(c)) for _, c in reader._children(node)]
    assert (answers.count(True), answers.count(None)) == (replies.hold, replies.open)
    # Once the proof is finished, the survey says so.
    assert NullWindowProof(EdgesSolver(g.board, tt_bits=14), 0, path, split=3).holds(state)
    assert NullWindowProof(solver, 0, path, split=3).survey(state) == (True, [])


def test_survey_command_reports_and_explains_bad_input(run, tmp_path):
    args = ("solve", "edges", "--board", "2x2", "--stash", "2/2/1", "--no-pie", "--split", "3")
    point = tmp_path / "p.json"
    missing = run(*args, "--prove", "0", "--checkpoint", str(point), "--survey")
    assert missing.exit_code == 2 and "no checkpoint" in missing.output
    assert run(*args, "--survey").exit_code == 2
    assert run(*args, "--prove", "0", "--checkpoint", str(point)).exit_code == 0
    done = run(*args, "--prove", "0", "--checkpoint", str(point), "--survey")
    assert done.exit_code == 0, done.output
    assert (
        "yes: settled in the checkpoint" in done.output and "answers, 0 of them 'no'" in done.output
    )


@pytest.mark.parametrize("pie", [False, True])
def test_a_finished_proof_is_confirmed_from_its_leaves_alone(tmp_path, pie):
    from meeple.core.errors import MeepleError
    from meeple.solvers.edges_proof import NullWindowProof

    g = game("2x2", "2/2/1", pie=pie)
    state = g.new_game(0)
    for threshold, claim in ((0, True), (1, False)):
        path = tmp_path / f"p{threshold}.json"
        assert NullWindowProof(EdgesSolver(g.board, tt_bits=14), threshold, path,
                               split=3).holds(state) is claim  # fmt: skip
        reader = NullWindowProof(EdgesSolver(g.board, tt_bits=14), threshold, path, split=3)
        steps: list[object] = []
        report = reader.check(state, resample=5, on_step=steps.append)
        assert report.claim is claim and report.confirmed and not report.unconfirmed
        assert report.positions > 1 and report.leaves > 5 and steps
        # Leaves drawn from the proof, searched again with other keys, agree.
        assert report.searched == 5 and report.disagree == []
        assert reader.solver.stats.nodes == 0  # the run's own solver searched nothing
    with pytest.raises(MeepleError, match="other hash keys"):
        reader.check(state, resample=1, searcher=EdgesSolver(g.board, tt_bits=12))


def test_a_proof_check_catches_an_answer_its_leaves_do_not_imply(tmp_path):
    import json

    from meeple.core.errors import MeepleError
    from meeple.solvers.edges_proof import NullWindowProof

    g = game("2x2", "2/2/1")
    state = g.new_game(0)
    # "Can seat 0 reach +1?" is "no" (the value is 0). A checkpoint whose root says "yes"
    # over the same leaves is not confirmed: the recorded root answer is not trusted.
    path = tmp_path / "p1.json"
    proof = NullWindowProof(EdgesSolver(g.board, tt_bits=14), 1, path, split=3)
    assert not proof.holds(state)
    root = proof._node_id(state)
    lines = path.read_text().splitlines()
    # A forged root line with its line check made right (the check guards against damage
    # and mix-ups, not against a forger): the walk down the leaves still refuses it.
    forged_line = proof._store._line(root, True).strip()
    path.write_text("\n".join([*lines, forged_line]) + "\n")
    forged = NullWindowProof(EdgesSolver(g.board, tt_bits=14), 1, path, split=3).check(state)
    assert forged.claim and not forged.confirmed and forged.unconfirmed
    # Without a right check the forged line is not even read.
    path.write_text("\n".join([*lines, json.dumps([root, True])]) + "\n")
    unread = NullWindowProof(EdgesSolver(g.board, tt_bits=14), 1, path, split=3)
    assert unread.rejected_lines == 1 and unread.done[root] is False
    # The answers of the "+0" proof relabelled as a "+1" proof: every line's check names the
    # question it answers, so none of them is read for the other.
    good = tmp_path / "p0.json"
    assert NullWindowProof(EdgesSolver(g.board, tt_bits=14), 0, good, split=3).holds(state)
    header, *answers = good.read_text().splitlines()
    relabelled = tmp_path / "relabelled.json"
    relabelled.write_text("\n".join([json.dumps({**json.loads(header), "threshold": 1}),
                                      *answers]) + "\n")  # fmt: skip
    wrong = NullWindowProof(EdgesSolver(g.board, tt_bits=14), 1, relabelled, split=3)
    assert wrong.rejected_lines == len(answers) and not wrong.done
    # Leaves searched again with other hash keys catch a wrong leaf answer that passed every
    # check (here, made right for the "+1" question from the "+0" proof's answers).
    for line in answers:
        position, holds, _ = json.loads(line)
        wrong._store.add(position, holds)
    report = wrong.check(state, resample=10_000)
    assert report.claim and report.confirmed
    assert report.searched == report.leaves and report.disagree
    unfinished = NullWindowProof(EdgesSolver(g.board, tt_bits=14), 0, tmp_path / "new", split=3)
    with pytest.raises(MeepleError, match="not finished"):
        unfinished.check(state)


def test_check_command_confirms_a_proof_and_explains_bad_input(run, tmp_path):
    args = ("solve", "edges", "--board", "2x2", "--stash", "2/2/1", "--no-pie", "--split", "3")
    point = tmp_path / "p.json"
    missing = run(*args, "--prove", "0", "--checkpoint", str(point), "--check", "2")
    assert missing.exit_code == 2 and "no checkpoint" in missing.output
    assert run(*args, "--check", "2").exit_code == 2
    both = run(*args, "--prove", "0", "--checkpoint", str(point), "--check", "2", "--survey")
    assert both.exit_code == 2 and "give one" in both.output
    assert run(*args, "--prove", "0", "--checkpoint", str(point)).exit_code == 0
    ok = run(*args, "--prove", "0", "--checkpoint", str(point), "--check", "3")
    out = " ".join(ok.output.split())
    assert ok.exit_code == 0, out
    assert "\n\n" not in ok.output  # no display left behind without a terminal
    assert "confirmed: 'yes' follows from the answers of" in out
    assert "3 leaves drawn at random searched again with other hash keys: 3 agree" in out
    # Without its root's answer (the last written) the proof is unfinished, not failed: the
    # exit code of a run whose --budget ran out, and how to go on.
    lines = point.read_text().splitlines()
    point.write_text("\n".join(lines[:-1]) + "\n")
    for reading in (("--check", "1"), ("--export-certificate", str(tmp_path / "c.cert"))):
        unfinished = run(*args, "--prove", "0", "--checkpoint", str(point), *reading)
        said = " ".join(unfinished.output.split())
        assert unfinished.exit_code == 3, said
        assert (
            "the proof is not finished: its checkpoint has no answer at the root: run the "
            f"same command without {reading[0]} to go on" in said
        ), said
    assert not (tmp_path / "c.cert").exists()


def test_a_proof_stopped_by_sigterm_says_how_far_it_got_and_keeps_its_checkpoint(tmp_path):
    # Schedulers and `kill` stop long runs with SIGTERM: the proof reports and keeps what it
    # has, as with Ctrl-C, even in the middle of a long compiled search.
    import os
    import signal
    import subprocess
    import sys

    point = tmp_path / "p.json"
    command = [sys.executable, "-c", "from meeple.interfaces.cli import main; main()",
               "solve", "edges", "--board", "3x3", "--no-pie", "--prove", "0", "--split", "1",
               "--tt-bits", "16", "--checkpoint", str(point)]  # fmt: skip
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                            text=True)  # fmt: skip
    lines = []
    for line in proc.stdout:  # the run has started once it names its checkpoint
        lines.append(line)
        if line.startswith("checkpoint"):
            break
    proc.send_signal(signal.SIGTERM)
    out = " ".join(("".join(lines) + proc.stdout.read()).split())  # unwrapped
    # Not done: a scheduler sees 128 + SIGTERM, as a shell reports a run stopped by it.
    assert proc.wait(timeout=60) == 128 + signal.SIGTERM, out
    assert "not finished (SIGTERM)" in out and "run the same command again" in out
    assert "at least +0?" in out


def test_the_proof_benchmark_counts_leaves_and_shares_out_the_table():
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).parents[2] / "benchmarks" / "edges_proof.py"
    args = ["--board", "2x2", "--leaves", "6", "--every", "3", "--tt-bits", "10"]
    out = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, check=True
    ).stdout
    assert "leaves=3 nodes=" in out and "leaves=6 nodes=" in out and "leaves=9" not in out
    shares = out.split("table rows by pyramids left: ")[1].strip()
    assert sum(float(part.split(": ")[1].rstrip("%")) for part in shares.split(", ")) == (
        pytest.approx(100, abs=0.5)
    )
