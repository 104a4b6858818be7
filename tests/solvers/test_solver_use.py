"""The solver as a person meets it (issue 32): the compile notice, the warning and estimate
of a long solve, Ctrl-C keeping the moves solved, a proof's certificate, the ``hint`` at
the prompt and ``meeple analyse``'s blunder list."""

from __future__ import annotations

import json
import lzma
import random
import re

import pytest

import meeple
from meeple.core.record import GameRecord
from meeple.interfaces import console, solve_cli
from meeple.solvers import cache, edges_analysis, edges_certificate, edges_solver
from meeple.solvers.edges_analysis import analyse_game, hint
from meeple.solvers.edges_solver import EdgesSolver

SMALL = ("solve", "edges", "--board", "2x2", "--stash", "2/2/1", "--no-pie")


def _table(output: str) -> list[str]:
    return [line for line in output.splitlines() if "│" in line]


def _random_record(board: str, stash: str, pie: bool, seed: int) -> GameRecord:
    options = {"board": board, "stash": stash, "pie": pie, "first": 0}
    state = meeple.make("edges", **options).new_game(0)
    rng, moves = random.Random(seed), []
    while not state.is_over:
        mover = state.to_act[0]
        action = rng.choice(state.legal_actions(mover))
        moves.append((mover, str(action)))
        state = state.apply(mover, action)
    return GameRecord(game="edges", options=options, seed=0, moves=moves)


# -- 32.12 the compile notice -------------------------------------------------------------------
def test_the_compile_notice_shows_only_while_the_solver_is_not_loaded(monkeypatch, capsys):
    edges_solver.warm_up()
    assert edges_solver.compiled_state() == "loaded"
    calls = []
    monkeypatch.setattr(edges_solver, "warm_up", lambda: calls.append(1))
    console.solver_ready()
    assert not calls and "compiling" not in capsys.readouterr().out  # loaded: nothing
    monkeypatch.setattr(edges_solver, "compiled_state", lambda: "cold")
    console.solver_ready()
    assert calls == [1]
    # Without a terminal (tests, logs) the wait gets a plain line saying why.
    notice = capsys.readouterr().out
    assert "compiling the solver (first use" in notice
    # With the spinner before it, the notice keeps to one line of an 80-column terminal.
    assert len(notice.strip().splitlines()) == 1 and len(notice.strip()) <= 76, notice
    monkeypatch.setattr(edges_solver, "compiled_state", lambda: "cached")
    console.solver_ready()
    assert calls == [1, 1] and "compiling" not in capsys.readouterr().out


# -- 32.18 a long solve: warning, estimate, Ctrl-C keeps what is solved ---------------------------
def test_a_long_solve_is_announced_and_a_small_one_is_not(run, tmp_path, monkeypatch):
    small = run(*SMALL, "--cache-dir", str(tmp_path))
    assert small.exit_code == 0 and "warning" not in small.output

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(edges_analysis, "analyse", stopped)
    big = run("solve", "edges", "--board", "3x3", "--cache-dir", str(tmp_path))
    out = " ".join(big.output.split())
    assert big.exit_code == 130, out
    assert "warning: solving every move of this position (24 pyramids to place)" in out
    assert "hours" in out and "--prove T" in out and "Ctrl-C keeps the moves solved" in out
    assert "stopped before the first move was solved" in out


def test_ctrl_c_keeps_the_moves_solved_and_the_same_command_resumes(run, tmp_path, monkeypatch):
    clean = run(*SMALL, "--no-cache")
    added = []
    add = cache.SolvedMoves.add

    def add_then_stop(self, name, value):
        add(self, name, value)
        added.append(name)
        if len(added) == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(cache.SolvedMoves, "add", add_then_stop)
    stopped = run(*SMALL, "--cache-dir", str(tmp_path))
    out = " ".join(stopped.output.split())
    assert stopped.exit_code == 130, out
    assert "the 3 of 6 moves solved so far are kept in" in out and "resumes" in out
    [kept] = tmp_path.glob("moves-*.jsonl")
    assert len(kept.read_text().splitlines()) == 1 + 3  # the header and three moves
    monkeypatch.undo()
    resumed = run(*SMALL, "--cache-dir", str(tmp_path))
    assert resumed.exit_code == 0, resumed.output
    assert "resuming: 3 moves solved by an earlier run" in " ".join(resumed.output.split())
    assert _table(resumed.output) == _table(clean.output)
    assert not kept.exists() and len(list(tmp_path.glob("*.json"))) == 1  # in the cache now


def test_a_kept_move_is_believed_only_if_its_check_passes(run, tmp_path):
    clean = run(*SMALL, "--no-cache")
    state = meeple.make("edges", board="2x2", stash="2/2/1", pie=False, first=0).new_game(0)
    moves = cache.SolvedMoves(tmp_path, cache.position_id(state))
    moves.add("M h0,0", [5, 10])  # checked, but wrong: believed, so the check is what counts
    moves.add("L h1,0", [0, 10])
    lines = moves.path.read_text().splitlines()
    lines[2] = lines[2].replace("[0, 10]", "[-3, 10]")  # an edited value fails its check
    moves.path.write_text("\n".join(lines) + "\n")
    out = run(*SMALL, "--cache-dir", str(tmp_path))
    assert out.exit_code == 0 and "resuming: 1 move solved" in " ".join(out.output.split())
    table = _table(out.output)
    assert any("M h0,0" in row and "+5" in row for row in table)  # the checked line was used
    assert any("L h1,0" in row and "+0" in row for row in table)  # the edited one was not
    assert table != _table(clean.output)


def test_the_estimate_uses_the_moves_solved_and_the_speed_measured():
    estimate = solve_cli._Estimate(guess=1e12, earlier_nodes=0, earlier_moves=0, workers=1)
    estimate.total = 9
    estimate.started -= 10.0  # ten seconds in
    estimate.live = 1_000_000
    assert "about 116 days left (a rough guess" in estimate.text()  # 1e12 nodes at 1e5/s
    estimate.solved(1_000_000)  # one move: 1 M nodes, so eight more take 80 s at 1e5/s
    assert "about 80 s left (1 move solved: 1,000,000 nodes each)" in estimate.text()
    assert solve_cli._duration(5400) == "1.5 hours" and solve_cli._duration(4e8) == "13 years"


# -- 32.18 a proof's certificate ---------------------------------------------------------------
def test_a_proof_certificate_is_exported_checked_and_verified(run, tmp_path):
    args = (*SMALL, "--split", "3", "--prove", "0", "--checkpoint", str(tmp_path / "p.json"))
    cert = tmp_path / "proof.cert"
    early = run(*args, "--export-certificate", str(cert))
    assert early.exit_code == 2 and "no checkpoint" in early.output and not cert.exists()
    assert run(*args).exit_code == 0
    out = run(*args, "--export-certificate", str(cert))
    assert out.exit_code == 0, out.output
    assert "yes confirmed from" in out.output and cert.stat().st_size < 4096
    (tmp_path / "p.json").unlink()  # the certificate alone is enough to check the claim
    checked = run(*args, "--check", "2", "--certificate", str(cert))
    text = " ".join(checked.output.split())
    assert checked.exit_code == 0 and "confirmed: 'yes' follows from the answers of" in text
    assert "2 agree, 0 disagree" in text

    data = json.loads(lzma.decompress(cert.read_bytes()))
    forged = tmp_path / "forged.cert"
    forged.write_bytes(lzma.compress(json.dumps({**data, "claim": False}).encode()))
    bad = run(*args, "--check", "0", "--certificate", str(forged))
    assert bad.exit_code == 2 and "fails its check" in bad.output
    # A leaf taken out, the check made right again: the walk no longer confirms the claim.
    content = {k: v for k, v in data.items() if k != "check"}
    leaves = [p for p in content["positions"] if p.count(":") == 2]
    content["positions"] = [p for p in content["positions"] if p != leaves[0]]
    content["check"] = edges_certificate._digest(content)
    forged.write_bytes(lzma.compress(json.dumps(content).encode()))
    short = run(*args, "--check", "0", "--certificate", str(forged))
    assert short.exit_code == 1 and "not confirmed" in short.output
    other = run(*SMALL, "--split", "3", "--prove", "1", "--check", "0", "--certificate", str(cert))
    assert other.exit_code == 2 and "another question" in other.output
    assert "can the first player reach at least +0?" in " ".join(other.output.split())
    assert "{" not in other.output  # the questions in words, not their headers
    assert run(*SMALL, "--certificate", str(cert)).exit_code == 2  # needs --prove and --check


# -- 32.15 hint -------------------------------------------------------------------------------
def test_hint_at_the_prompt_gives_a_best_move_by_the_solver(run):
    out = run("play", "edges", "--board", "2x2", "--stash", "2/2/1", "--first", "0",
              "--seat", "human", "--seat", "random", input="hint\nquit\n")  # fmt: skip
    text = " ".join(out.output.split())
    found = re.search(r"Hint: (\S+ \S+), value ([+-]\d+) for Red \(exact", text)
    assert found, text
    assert "by the exact solver" in text
    state = meeple.make("edges", board="2x2", stash="2/2/1", first=0).new_game(0)
    solver = EdgesSolver(state.game.board, tt_bits=16)
    move = state.game.parse_action(found.group(1))
    assert int(found.group(2)) == solver.value(state) == solver.value(state._next(0, move))


def test_hint_searches_where_the_solver_cannot_answer_in_time():
    state = meeple.make("edges", board="3x4", first=0).new_game(0)
    found = hint(state, seconds=0.2)
    assert not found.exact and found.depth >= 1 and "search" in found.method
    assert found.action in state.legal_actions(0)
    small = edges_solver.random_position(state.game, 6, random.Random(1))
    exact = hint(small)
    solver = EdgesSolver(state.game.board, tt_bits=16)
    mover = small.to_act[0]
    assert exact.exact and exact.value == solver.value(small)
    assert solver.value(small._next(mover, exact.action)) == exact.value


# -- 32.15 meeple analyse ---------------------------------------------------------------------
@pytest.mark.parametrize(("pie", "seed"), [(True, 1), (False, 2)])
def test_analyse_marks_every_move_that_changed_the_value(pie, seed):
    record = _random_record("2x2", "2/2/1", pie, seed)
    analysis = analyse_game(record)
    states = record.states()
    solver = EdgesSolver(states[0].game.board, tt_bits=16)
    values = [solver.value(s) for s in states]
    assert analysis.skipped == 0 and len(analysis.verdicts) == len(record.moves)
    for verdict, state, before, after in zip(
        analysis.verdicts, states[:-1], values[:-1], values[1:], strict=True
    ):
        assert (verdict.before, verdict.after) == (before, after)
        assert verdict.loss == abs(before - after)
        best = state.game.parse_action(verdict.best)
        assert solver.value(state._next(verdict.seat, best)) == before  # the best keeps it
    assert analysis.blunders == [v for v in analysis.verdicts if v.before != v.after]
    assert analysis.blunders  # random play on 2x2 gives points away (these seeds do)


def test_analyse_command_lists_the_mistakes_and_what_it_left_out(run, tmp_path):
    record = _random_record("2x2", "2/2/1", True, 1)
    path = tmp_path / "game.json"
    record.save(path)
    out = run("analyse", str(path))
    assert out.exit_code == 0, out.output
    blunders = analyse_game(record).blunders
    rows = _table(out.output)
    assert len(rows) == len(blunders) and rows[0].split("│")[1].strip() == str(blunders[0].number)
    assert "Mistakes: Red" in out.output and "not analysed" not in out.output
    # Each seat's count and points, a point in the singular.
    made = [[v.loss for v in blunders if v.seat == p] for p in (0, 1)]
    said = ", ".join(
        f"{name} {len(m)} ({sum(m)} point{'s' * (sum(m) != 1)})"
        for name, m in zip(("Red", "Blue"), made, strict=True)
    )
    assert f"Mistakes: {said}" in out.output, out.output
    # The first legal move three times over: Red gives a single point away.
    game = meeple.make("edges", board="2x2")
    state, moves = game.new_game(seed=1), []
    for _ in range(3):
        seat = state.to_act[0]
        move = state.legal_actions(seat)[0]
        moves.append((seat, str(move)))
        state = state.apply(seat, move)
    first = tmp_path / "first-moves.json"
    GameRecord(game="edges", options={"board": "2x2"}, seed=1, moves=moves).save(first)
    assert "Mistakes: Red 1 (1 point), Blue 2 (2 points)" in run("analyse", str(first)).output
    every = run("analyse", str(path), "--all")
    assert len(_table(every.output)) == len(record.moves)
    # Past --max-left the uct search judges (in returns); the solver still judges the rest.
    part = run("analyse", str(path), "--max-left", "4", "--all", "--iterations", "500")
    assert part.exit_code == 0, part.output
    rows = [[cell.strip() for cell in row.split("│")[1:-1]] for row in _table(part.output)]
    assert [r[3] for r in rows if r[0]] == ["uct 500"] * 6 + ["exact"] * 4
    exact = {v.number: v.loss for v in analyse_game(record).verdicts}
    for row in rows:
        if row[3] == "exact":
            assert (row[4] or "0") == str(exact[int(row[0])])


def test_analyse_refuses_what_it_cannot_judge(run, tmp_path):
    missing = run("analyse", str(tmp_path / "none.json"))
    assert missing.exit_code == 2 and "no file " in missing.output
    (tmp_path / "bad.json").write_text('{"game": "edges", "seed": 1, "moves": [[0, "Q"]]}')
    bad = run("analyse", str(tmp_path / "bad.json"))
    assert bad.exit_code == 2 and "move 1 (Red, seat 0: 'Q') does not replay" in bad.output
    assert len(bad.output.strip().splitlines()) == 1
    assert "Traceback" not in bad.output + missing.output


def test_the_bar_knows_the_number_of_moves_before_the_first_is_solved():
    state = meeple.make("edges", board="2x2", stash="2/2/1", pie=False, first=0).new_game(0)
    heard = []
    solved = []
    EdgesSolver(state.game.board, tt_bits=14).move_values(
        state, progress=lambda done, total: heard.append((done, total)),
        on_move=lambda move, value, nodes: solved.append((str(move), nodes)),
    )  # fmt: skip
    assert heard[0] == (0, 6) and heard[-1] == (6, 6) and len(heard) == 7
    assert len(solved) == 6 and all(nodes > 0 for _, nodes in solved)


def test_a_damaged_certificate_is_refused_with_one_line(run, tmp_path):
    args = (*SMALL, "--split", "3", "--prove", "0", "--checkpoint", str(tmp_path / "p.json"))
    cert = tmp_path / "proof.cert"
    assert run(*args).exit_code == 0
    assert run(*args, "--export-certificate", str(cert)).exit_code == 0
    packed = cert.read_bytes()
    for damaged in (packed[: len(packed) // 2], packed[:10] + b"x" + packed[11:], b"[]"):
        cert.write_bytes(damaged)
        out = run(*args, "--check", "0", "--certificate", str(cert))
        assert out.exit_code == 2 and "error:" in out.output, out.output
        assert "Traceback" not in out.output
