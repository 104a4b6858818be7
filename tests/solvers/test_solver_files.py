"""Files the Edges solver reads back are verified before their content is believed.

An edited, torn, foreign or old-format proof checkpoint line and an edited or damaged cache
entry must never be printed as an answer: each is treated as missing and searched again.
A proof stopped by a signal or by its time budget exits non-zero. Files keep the user's
normal permissions.
"""

from __future__ import annotations

import json
import os
import re
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import meeple
from meeple.core.errors import MeepleError
from meeple.interfaces.cli import app
from meeple.solvers import cache
from meeple.solvers.edges_proof import NullWindowProof
from meeple.solvers.edges_solver import EdgesSolver

PROVE = ("solve", "edges", "--board", "2x2", "--stash", "2/2/1", "--no-pie", "--prove", "0",
         "--split", "3")  # fmt: skip


def _proof(path: Path) -> tuple[NullWindowProof, object]:
    g = meeple.make("edges", board="2x2", stash="2/2/1", pie=False, first=0)
    return NullWindowProof(EdgesSolver(g.board, tt_bits=14), 0, path, split=3), g.new_game(0)


def _said(result) -> str:
    """A command's output as one line: the console wraps at 80 columns, where a path in the
    text (its length the test folder's) moves every break."""
    return " ".join(result.output.split())


def _flip_root(path: Path) -> None:
    """Edit the last line (the root's answer) to say the opposite, keeping its check."""
    lines = path.read_text(encoding="utf-8").splitlines()
    position, holds, check = json.loads(lines[-1])
    lines[-1] = json.dumps([position, not holds, check])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_an_edited_checkpoint_line_is_searched_again_not_believed(run, tmp_path):
    point = tmp_path / "proof.jsonl"
    first = run(*PROVE, "--checkpoint", str(point))
    assert first.exit_code == 0 and "yes: proved" in first.output, first.output
    _flip_root(point)
    again = run(*PROVE, "--checkpoint", str(point))
    assert again.exit_code == 0, again.output
    assert "yes" in again.output and "no:" not in again.output
    assert "1 line failed its check and is searched again" in _said(again)
    # Reading the file back again (now mended), the answer is read, not searched, and says so.
    third = run(*PROVE, "--checkpoint", str(point))
    assert "yes: read back from" in third.output and "not searched in this run" in third.output


def test_a_damaged_leaf_line_is_searched_again_so_the_proof_checks(run, tmp_path):
    # The first answer line is the first leaf searched; with it dropped, the root's settled
    # answer must not be believed in its place: the run walks down and searches that leaf
    # again, so that --check (which reads only the leaves) confirms the proof afterwards.
    point = tmp_path / "proof.jsonl"
    assert run(*PROVE, "--checkpoint", str(point)).exit_code == 0
    lines = point.read_text(encoding="utf-8").splitlines()
    position, holds, check = json.loads(lines[1])
    lines[1] = json.dumps([position, not holds, check])
    point.write_text("\n".join(lines) + "\n", encoding="utf-8")
    again = run(*PROVE, "--checkpoint", str(point))
    assert again.exit_code == 0, again.output
    assert "1 line failed its check and is searched again" in _said(again), again.output
    assert "yes: proved with 1 leaves searched in this run" in _said(again), again.output
    checked = run(*PROVE, "--checkpoint", str(point), "--check", "1")
    assert checked.exit_code == 0 and "confirmed: 'yes'" in checked.output, checked.output


@pytest.mark.parametrize("reading", [["--survey"], ["--check", "0"]])
def test_reading_a_damaged_checkpoint_says_so_and_leaves_it_for_the_run(run, tmp_path, reading):
    # --survey and --check only read: they name the lines that failed and leave the file as
    # it is, so the run after them still knows what to search again.
    point = tmp_path / "proof.jsonl"
    assert run(*PROVE, "--checkpoint", str(point)).exit_code == 0
    lines = point.read_text(encoding="utf-8").splitlines()
    position, holds, check = json.loads(lines[1])
    lines[1] = json.dumps([position, not holds, check])
    damaged = "\n".join(lines) + "\n"
    point.write_text(damaged, encoding="utf-8")
    read = run(*PROVE, "--checkpoint", str(point), *reading)
    assert "1 line failed its check and is not used" in _said(read), read.output
    assert point.read_text(encoding="utf-8") == damaged
    again = run(*PROVE, "--checkpoint", str(point))
    assert "yes: proved with 1 leaves searched in this run" in _said(again), again.output


@pytest.mark.parametrize(
    "mangle",
    [
        lambda p, h, c: [p, int(h), c],  # 1 is not true: only JSON booleans are answers
        lambda p, h, c: [p, "true" if h else "false", c],
        lambda p, h, c: [p, h],  # no check
        lambda p, h, c: [p, h, "0" * 16],  # a wrong check
        lambda p, h, c: [p + "x", h, c],  # the check belongs to another position
        lambda p, h, c: {"position": p, "holds": h},
    ],
)
def test_only_checked_boolean_answers_are_read(tmp_path, mangle):
    point = tmp_path / "proof.jsonl"
    proof, state = _proof(point)
    assert proof.holds(state)
    lines = point.read_text(encoding="utf-8").splitlines()
    lines[-1] = json.dumps(mangle(*json.loads(lines[-1])))
    point.write_text("\n".join(lines) + "\n", encoding="utf-8")
    again, state = _proof(point)
    assert again.rejected_lines == 1
    assert len(again.done) == len(proof.done) - 1
    assert again.holds(state)


def test_a_line_from_another_proof_is_foreign(tmp_path):
    one, two = tmp_path / "t0.jsonl", tmp_path / "t1.jsonl"
    proof, state = _proof(one)
    proof.holds(state)
    g = meeple.make("edges", board="2x2", stash="2/2/1", pie=False, first=0)
    other = NullWindowProof(EdgesSolver(g.board, tt_bits=14), 1, two, split=3)
    other.holds(state)
    # Graft the other proof's (threshold 1) lines onto this one's header.
    lines = one.read_text(encoding="utf-8").splitlines()[:1]
    lines += two.read_text(encoding="utf-8").splitlines()[1:]
    one.write_text("\n".join(lines) + "\n", encoding="utf-8")
    grafted, _ = _proof(one)
    assert grafted.rejected_lines == len(lines) - 1 and not grafted.done


def test_an_unverified_old_checkpoint_is_refused_with_a_reason(run, tmp_path):
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"format": "edges-proof/2", "question": "q", "threshold": 0,
                               "split": 3}) + "\n" + json.dumps(["x", False]) + "\n")  # fmt: skip
    with pytest.raises(MeepleError, match="older meeple"):
        _proof(old)
    out = run(*PROVE, "--checkpoint", str(old))
    assert out.exit_code == 2 and "error:" in out.output and "Traceback" not in out.output
    # A header with a number past Python's 4,300-digit limit was a ValueError out of it.
    old.write_text('{"format": ' + "9" * 5_000 + "}\n")
    with pytest.raises(MeepleError, match="is not a"):
        _proof(old)


@pytest.mark.parametrize("text", ["", "\n"])
def test_an_empty_checkpoint_is_taken_as_a_new_one(run, tmp_path, text):
    # Zero bytes (touched, or a crash before the header line) hold no answers: nothing to
    # refuse, and the run writes the header before its first answer.
    point = tmp_path / "empty.json"
    point.write_text(text)
    out = run(*PROVE, "--checkpoint", str(point))
    said = _said(out)
    assert out.exit_code == 0, out.output
    assert f"{point} is empty (no header line, no answers): it is taken as a new checkpoint" in said
    assert "yes: proved" in said
    assert json.loads(point.read_text().splitlines()[0])["format"] == "edges-proof/3"
    again = run(*PROVE, "--checkpoint", str(point))
    assert again.exit_code == 0 and "not searched in this run" in _said(again)
    assert "is empty" not in _said(again)
    # Content that is no checkpoint is still refused.
    point.write_text("a line of something else\n")
    bad = run(*PROVE, "--checkpoint", str(point))
    assert bad.exit_code == 2 and f"{point} is not a proof checkpoint" in _said(bad)


def test_an_empty_answer_log_starts_afresh_with_its_header(tmp_path):
    folder, key = tmp_path, "k" * 32
    (folder / f"moves-{key}.jsonl").touch()
    moves = cache.SolvedMoves(folder, key)
    assert moves.started_empty and not moves.answers
    moves.add("a", [1, 5])
    reread = cache.SolvedMoves(folder, key)
    assert reread.answers == {"a": [1, 5]} and not reread.started_empty and not reread.rejected


def test_a_checkpoint_of_another_question_is_refused_in_words(run, tmp_path):
    point = tmp_path / "p.json"
    assert run(*PROVE, "--checkpoint", str(point)).exit_code == 0
    words = "Edges 2x2, pie rule off: can the first player reach at least"
    threshold = run(*PROVE[:-3], "1", *PROVE[-2:], "--checkpoint", str(point))
    said = _said(threshold)
    assert threshold.exit_code == 2, said
    assert (f'{point} is a proof checkpoint of another question, "{words} +0?" (--split 3), '
            f'not of "{words} +1?" (--split 3)') in said  # fmt: skip
    assert "{" not in said  # no raw header
    split = run(*PROVE[:-1], "2", "--checkpoint", str(point))
    assert f'"{words} +0?" (--split 3), not of "{words} +0?" (--split 2)' in _said(split)
    stash = run(*PROVE, "--stash", "2/2/0", "--checkpoint", str(point))
    said = _said(stash)
    assert stash.exit_code == 2 and "{" not in said
    assert (
        f"{point} is a proof checkpoint of another question, about another position (its "
        f'board, stash, pie rule or moves played differ), not of "{words} +0?"'
    ) in said
    with pytest.raises(cache.OtherQuestion, match=r"threshold 0, not 1"):
        NullWindowProof(EdgesSolver(meeple.make("edges", board="2x2").board), 1, point, split=3)


def _solve(run, folder: Path):
    return run("solve", "edges", "--board", "1x2", "--stash", "1/1/1", "--no-pie",
               "--cache-dir", str(folder))  # fmt: skip


def test_an_edited_cache_entry_is_solved_again_not_printed(run, tmp_path):
    first = _solve(run, tmp_path)
    assert "value +1" in first.output
    (entry,) = tmp_path.glob("*.json")
    data = json.loads(entry.read_text())
    data["value"] = -7
    entry.write_text(json.dumps(data))
    again = _solve(run, tmp_path)
    assert again.exit_code == 0
    assert "value +1" in again.output and "value -7" not in again.output
    assert "fails its check" in _said(again) and "solving again" in _said(again)
    # The good entry was written back: read it now, and say so.
    third = _solve(run, tmp_path)
    assert "read back from the cache" in third.output


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[: len(text) // 2],  # cut short
        lambda text: "",
        lambda text: "\x00\xff" + text,
        lambda text: "[" * 10_000,
        lambda text: text.replace('"value":1', '"value":' + "9" * 5_000),  # past int's limit
        lambda text: json.dumps({"format": "edges-solve/2", "value": 3}),
    ],
)
def test_a_damaged_cache_entry_counts_as_missing(tmp_path, damage):
    g = meeple.make("edges", board="1x2", stash="1/1/1", pie=False, first=0)
    key = cache.position_id(g.new_game(0))
    cache.store(tmp_path, key, {"value": 1, "moves": [["L v0,1", 1]]})
    assert cache.load(tmp_path, key) == {"value": 1, "moves": [["L v0,1", 1]]}
    path = tmp_path / f"{key}.json"
    path.write_text(damage(path.read_text()), encoding="utf-8", errors="surrogateescape")
    entry = cache.read(tmp_path, key)
    assert entry.result is None and entry.problem


def test_a_cache_entry_under_another_key_is_foreign(tmp_path):
    cache.store(tmp_path, "a" * 32, {"value": 2})
    (tmp_path / f"{'a' * 32}.json").rename(tmp_path / f"{'b' * 32}.json")
    assert cache.read(tmp_path, "b" * 32).result is None


FORM = "test-bytes/1"


def test_a_bytes_entry_reads_back_only_under_its_key_and_format(tmp_path):
    cache.store_bytes(tmp_path, "a" * 32, FORM, b"\x00payload\n\xff")
    assert cache.read_bytes(tmp_path, "a" * 32, FORM) == (b"\x00payload\n\xff", None)
    assert cache.read_bytes(tmp_path, "b" * 32, FORM) == (None, None)  # none stored
    other = cache.read_bytes(tmp_path, "a" * 32, "test-bytes/2")
    assert other.payload is None and "is not a solved result of this meeple" in other.problem
    cache.bytes_path(tmp_path, "a" * 32).rename(cache.bytes_path(tmp_path, "b" * 32))
    foreign = cache.read_bytes(tmp_path, "b" * 32, FORM)
    assert foreign.payload is None and "fails its check" in foreign.problem
    cache.forget(tmp_path, "b" * 32)
    assert not any(tmp_path.iterdir())


def test_a_bytes_entry_that_is_no_file_or_too_large_is_not_read(tmp_path, monkeypatch):
    cache.bytes_path(tmp_path, "a" * 32).mkdir()
    os.mkfifo(cache.bytes_path(tmp_path, "b" * 32))  # would block a plain open()
    for key in ("a" * 32, "b" * 32):
        entry = cache.read_bytes(tmp_path, key, FORM)
        assert entry.payload is None and "cannot be read" in entry.problem
    cache.store_bytes(tmp_path, "c" * 32, FORM, bytes(100))
    monkeypatch.setattr(cache, "BYTES_LIMIT", 99)
    entry = cache.read_bytes(tmp_path, "c" * 32, FORM)
    assert (
        entry.payload is None and "larger than a solved result may be (99 bytes)" in entry.problem
    )


@contextmanager
def example_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A new empty folder for one fuzz example, removed at the example's end: with a
    ``mktemp`` folder each, the 20,000 examples a test runs under ``make fuzz`` left 20,000
    folders behind, 468 MB over this file's three tests, kept by pytest for three runs."""
    with tempfile.TemporaryDirectory(dir=tmp_path_factory.getbasetemp()) as name:
        yield Path(name)


@pytest.mark.fuzz
@settings(deadline=None)
@given(
    payload=st.binary(max_size=200),
    edits=st.lists(
        st.tuples(st.sampled_from(["flip", "cut", "insert"]), st.integers(0, 10_000),
                  st.binary(min_size=1, max_size=4)),
        min_size=1, max_size=3,
    ),
)  # fmt: skip
def test_no_corruption_of_a_bytes_entry_changes_its_payload(tmp_path_factory, payload, edits):
    with example_folder(tmp_path_factory) as folder:
        cache.store_bytes(folder, "k" * 32, FORM, payload)
        path = cache.bytes_path(folder, "k" * 32)
        data = path.read_bytes()
        for kind, where, junk in edits:
            at = where % (len(data) + 1)
            if kind == "flip" and at < len(data):
                data = data[:at] + bytes([data[at] ^ junk[0]]) + data[at + 1 :]
            elif kind == "cut":
                data = data[:at]
            elif kind == "insert":
                data = data[:at] + junk + data[at:]
        path.write_bytes(data)
        entry = cache.read_bytes(folder, "k" * 32, FORM)
    # Either the very payload stored, or nothing believed (and the reason given).
    assert entry.payload == payload or (entry.payload is None and entry.problem)


def _meeple() -> str:
    return str(Path(sys.executable).with_name("meeple"))


def test_a_proof_stopped_by_a_signal_exits_non_zero_and_resumes(tmp_path):
    point = tmp_path / "proof.jsonl"
    args = [_meeple(), "solve", "edges", "--board", "2x3", "--stash", "3/3/2", "--no-pie",
            "--prove", "0", "--split", "2", "--checkpoint", str(point)]  # fmt: skip
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (point.exists() and point.stat().st_size > 200):
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the proof finished before the signal arrived (machine too fast)")
    assert proc.returncode == 128 + signal.SIGTERM, out
    assert "not finished (SIGTERM)" in out
    done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout
    assert ": proved with" in done.stdout or "read back" in done.stdout


def test_a_proof_out_of_time_exits_with_not_finished(run, tmp_path):
    from meeple.interfaces import solve_proof_cli

    out = run("solve", "edges", "--board", "3x3", "--prove", "0", "--budget", "1",
              "--checkpoint", str(tmp_path / "p.jsonl"))  # fmt: skip
    assert out.exit_code == solve_proof_cli.NOT_FINISHED == 3, out.output
    assert "not finished (the time budget ran out)" in " ".join(out.output.split())


def test_files_get_the_user_s_permissions_and_keep_an_existing_mode(tmp_path):
    from meeple.core.files import atomic_write
    from meeple.core.record import GameRecord

    old = os.umask(0o022)
    try:
        cache.store(tmp_path, "c" * 32, {"value": 0})
        assert stat.S_IMODE((tmp_path / f"{'c' * 32}.json").stat().st_mode) == 0o644
        record = tmp_path / "game.json"
        GameRecord(game="edges", seed=1, moves=[]).save(record)
        assert stat.S_IMODE(record.stat().st_mode) == 0o644
        os.chmod(record, 0o640)
        GameRecord(game="edges", seed=1, moves=[(0, "L h0,0")]).save(record)
        assert stat.S_IMODE(record.stat().st_mode) == 0o640
        point = tmp_path / "proof.jsonl"
        proof, state = _proof(point)
        proof.holds(state)
        os.chmod(point, 0o600)
        lines = point.read_text().splitlines()
        point.write_text("\n".join(lines) + "\n" + lines[-1][:3])  # torn: rewritten on read
        os.chmod(point, 0o600)
        _proof(point)
        assert stat.S_IMODE(point.stat().st_mode) == 0o600
        atomic_write(tmp_path / "new.txt", "x")
        assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644
    finally:
        os.umask(old)


@pytest.fixture(scope="module")
def true_checkpoint(tmp_path_factory) -> tuple[str, dict[str, bool], list[str]]:
    """A finished checkpoint's text, its answers, and the lines of another proof (threshold
    1) of the same position: found once, shared by every fuzz example (in pytest's own
    temporary folder, which pytest clears, not a folder left behind in the system's)."""
    folder = tmp_path_factory.mktemp("checkpoint")
    proof, state = _proof(folder / "t0.jsonl")
    assert proof.holds(state)
    g = meeple.make("edges", board="2x2", stash="2/2/1", pie=False, first=0)
    other = NullWindowProof(EdgesSolver(g.board, tt_bits=14), 1, folder / "t1.jsonl", split=3)
    other.holds(state)
    text = (folder / "t0.jsonl").read_text(encoding="utf-8")
    foreign = (folder / "t1.jsonl").read_text(encoding="utf-8").splitlines()[1:]
    return text, dict(proof.done), foreign


_OPPOSITE = {"true": "false", "false": "true"}
EDITS = ["flip", "byte", "cut", "drop", "dup", "swap", "insert", "bool", "foreign", "tail"]


def _corrupt(lines: list[str], edits: list[tuple[str, int, str]], foreign: list[str]) -> str:
    """Apply byte-level edits to the body lines (the header, line 0, is left alone: a file
    for another question is refused outright, which other tests cover)."""
    tail = None
    for kind, where, junk in edits:
        k = 1 + where % max(1, len(lines) - 1)
        if k >= len(lines):
            continue
        line = lines[k]
        at = where % (len(line) + 1)
        if kind == "flip":  # the answer edited, its check kept
            lines[k] = re.sub("true|false", lambda m: _OPPOSITE[m.group()], line)
        elif kind == "byte":
            lines[k] = line[:at] + (junk[:1] or "0") + line[at + 1 :]
        elif kind == "cut":
            lines[k] = line[:at]
        elif kind == "drop":
            del lines[k]
        elif kind == "dup":
            lines.insert(k, line)
        elif kind == "swap" and k + 1 < len(lines):
            lines[k], lines[k + 1] = lines[k + 1], line
        elif kind == "insert":
            lines.insert(k, junk)
        elif kind == "bool":
            lines[k] = line.replace("true", "1").replace("false", "0")
        elif kind == "foreign":
            lines.insert(k, foreign[where % len(foreign)])
        elif kind == "tail":  # killed mid-write: the file ends inside a line
            tail = where
    text = "\n".join(lines) + "\n"
    if tail is not None:
        head = len(lines[0]) + 1
        text = text[: head + tail % (len(text) - head + 1)]
    return text


@pytest.mark.fuzz
@settings(deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(EDITS), st.integers(0, 10_000), st.text(max_size=20)),
        min_size=1,
        max_size=6,
    )
)
def test_no_corruption_of_a_checkpoint_changes_an_answer(tmp_path_factory, true_checkpoint, edits):
    text, truth, foreign = true_checkpoint
    with example_folder(tmp_path_factory) as folder:
        point = folder / "proof.jsonl"
        point.write_text(_corrupt(text.splitlines(), edits, foreign), encoding="utf-8")
        again, state = _proof(point)
        # Whatever survived its check is the truth; nothing else is believed.
        assert all(truth.get(p) is h for p, h in again.done.items())
        assert again.holds(state) is True  # (the proof writes its checkpoint as it goes)
        assert all(truth[p] is h for p, h in again.done.items() if p in truth)


@pytest.fixture(scope="module")
def true_cache_entry(tmp_path_factory) -> tuple[str, str, dict[str, object]]:
    """A real solved result's key, its file's text and its content, found once."""
    folder = tmp_path_factory.mktemp("cache-entry")
    out = CliRunner().invoke(app, ["solve", "edges", "--board", "1x2", "--stash", "1/1/1",
                                   "--no-pie", "--cache-dir", str(folder)])  # fmt: skip
    assert out.exit_code == 0, out.output
    (entry,) = folder.glob("*.json")
    result = cache.load(folder, entry.stem)
    assert result is not None
    return entry.stem, entry.read_text(encoding="utf-8"), result


@pytest.mark.fuzz
@settings(deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["byte", "cut", "insert", "delete", "digit"]),
            st.integers(0, 10_000),
            st.text(min_size=1, max_size=8),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_no_corruption_of_a_cache_entry_changes_a_result(tmp_path_factory, true_cache_entry, edits):
    key, text, truth = true_cache_entry
    for kind, where, junk in edits:
        at = where % (len(text) + 1)
        if kind == "byte":
            text = text[:at] + junk[0] + text[at + 1 :]
        elif kind == "cut":
            text = text[:at]
        elif kind == "insert":
            text = text[:at] + junk + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + len(junk) :]
        elif kind == "digit":  # a number edited in place: the likeliest lie
            digits = [m.start() for m in re.finditer("[0-9]", text)]
            if digits:
                i = digits[where % len(digits)]
                text = text[:i] + str((int(text[i]) + 1) % 10) + text[i + 1 :]
    with example_folder(tmp_path_factory) as folder:
        (folder / f"{key}.json").write_text(text, encoding="utf-8", errors="surrogatepass")
        entry = cache.read(folder, key)
    # Either verified equal to the truth, or not believed (and the reason given).
    assert entry.result == truth or (entry.result is None and entry.problem)


def test_an_interrupted_search_waits_for_its_worker_thread(monkeypatch):
    """Ctrl-C or SIGTERM (here a timer's signal raising KeyboardInterrupt) while the main
    thread waits on a search's worker: the worker has stopped before the interrupt goes on.
    On Python 3.11 an interrupted Thread.join marked the running worker as stopped, so the
    search kept running over freed arrays and the stopped proof died of a segfault."""
    from meeple.solvers import edges_engine, edges_solver

    returned = []
    negamax = edges_engine.negamax

    def watched(*args):
        value = negamax(*args)
        returned.append(value)
        return value

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    monkeypatch.setattr(edges_solver.eng, "negamax", watched)
    g = meeple.make("edges", board="2x3", stash="3/3/2", pie=False, first=0)
    solver = EdgesSolver(g.board, tt_bits=16)
    solver.on_progress = lambda nodes: None  # the search runs in a worker thread
    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        with pytest.raises(KeyboardInterrupt):
            solver.search(g.new_game(0))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert returned, "the interrupted search's worker was still running"


def _unwritable(tmp_path: Path) -> Path:
    """A cache folder that cannot be made: its parent is a file (as root too, where a
    folder's mode would not stop a write)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    return blocker / "cache"


def test_a_solve_whose_cache_folder_cannot_be_written_answers_and_keeps_nothing(run, tmp_path):
    result = _solve(run, _unwritable(tmp_path))
    assert result.exit_code == 0, result.output
    assert "value +1" in result.output
    assert "cannot write to the cache folder" in result.output
    assert "nothing is kept" in result.output
    assert "Traceback" not in result.output


def test_a_proof_whose_checkpoint_cannot_be_written_is_refused_before_it_starts(run, tmp_path):
    result = run(*PROVE, "--checkpoint", str(_unwritable(tmp_path) / "proof.jsonl"))
    assert result.exit_code == 2, result.output
    assert "cannot write the checkpoint" in result.output
    assert "leaves searched" not in result.output
    assert "Traceback" not in result.output


def test_an_erd_solution_that_cannot_be_kept_is_still_given(tmp_path, monkeypatch):
    import meeple.solvers.erd.solve as solve_module
    from meeple.solvers.erd.model import build_model, tiny_start

    tiny = (tiny_start(1, 1, 1), tiny_start(1, 1, 1))
    monkeypatch.setattr(
        solve_module, "build_model", lambda game, progress=None: build_model(game, tiny)
    )
    notes: list[str] = []
    options = {"rules": "0.02", "round_limit": 3}
    solution, _, cached = solve_module.solve_erd(options, _unwritable(tmp_path), note=notes.append)
    assert not cached and solution.horizon == 3
    assert "cannot keep the solution" in notes[-1]
