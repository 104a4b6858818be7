"""The lab survives concurrency, kills and bad input (real processes, real databases).

Two ``meeple simulate`` commands on one database at once both finish, with every game
stored once; killing the command leaves no worker behind; a one-sided result draws its
report; a bad database URL or an unwritable folder is one error line.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from meeple.lab.stats import wilson_interval
from tests.processes import alive, as_at_a_terminal, children

SIM = ["simulate", "edges", "--board", "2x2", "--seat", "random", "--seat", "random"]


def _meeple() -> str:
    return str(Path(sys.executable).with_name("meeple"))


def _rows(db: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(db) as conn:
        return conn.execute('SELECT run_key, "index" FROM games').fetchall()


def _rows_yet(db: Path) -> bool:
    """Whether a command has stored games yet (its database may still be being created)."""
    try:
        return db.exists() and bool(_rows(db))
    except sqlite3.OperationalError:
        return False


def _both(tmp_path: Path, db: Path, first: list[str], second: list[str]) -> None:
    """Start two simulate commands at the same moment; both must succeed."""
    procs = [
        subprocess.Popen(
            [_meeple(), *SIM, *extra, "--db", f"sqlite:///{db}", "--out", str(tmp_path / f"o{k}")],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for k, extra in enumerate((first, second))
    ]
    for proc in procs:
        out, _ = proc.communicate(timeout=300)
        assert proc.returncode == 0, out
        assert "Traceback" not in out


@pytest.mark.parametrize("existing", [False, True])
def test_two_runs_of_one_simulation_at_once_store_each_game_once(tmp_path, existing):
    db = tmp_path / "r.db"
    if existing:
        _both(tmp_path, db, ["--games", "5", "--seed", "9"], ["--games", "5", "--seed", "8"])
    _both(tmp_path, db, ["--games", "200"], ["--games", "200"])
    rows = [r for r in _rows(db) if r[0] not in _keys_of_seed(db, (8, 9))]
    assert len(rows) == 200 and len(set(rows)) == 200
    # Both JSONL files are whole and hold the same rows as a single run would.
    files = sorted(tmp_path.glob("o*/edges-*.jsonl"))
    texts = {f.read_text() for f in files if len(f.read_text().splitlines()) == 200}
    assert len(texts) == 1
    assert all(json.loads(line)["index"] == k for k, line in enumerate(texts.pop().splitlines()))


def _keys_of_seed(db: Path, seeds: tuple[int, ...]) -> set[str]:
    with sqlite3.connect(db) as conn:
        runs = conn.execute("SELECT key, spec FROM runs").fetchall()
    return {key for key, spec in runs if json.loads(spec)["seed"] in seeds}


def test_two_different_runs_at_once_on_a_new_database(tmp_path):
    db = tmp_path / "new.db"
    _both(tmp_path, db, ["--games", "100", "--seed", "1"], ["--games", "100", "--seed", "2"])
    rows = _rows(db)
    assert len(rows) == 200 == len(set(rows))
    assert len({key for key, _ in rows}) == 2


def test_killing_the_command_leaves_no_workers_and_a_rerun_resumes(tmp_path):
    db = tmp_path / "k.db"
    args = [_meeple(), "simulate", "erosion", "--games", "4000", "--jobs", "2",
            "--db", f"sqlite:///{db}", "--out", str(tmp_path / "out")]  # fmt: skip
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        workers = [w for w in children(proc.pid) if alive(w)]
        if len(workers) >= 2 and db.exists() and _rows(db):
            break
        time.sleep(0.1)
    assert len(workers) >= 2, "the pool's workers did not start"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    deadline = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [w for w in workers if alive(w)], "workers outlived the killed command"
    stored = len(_rows(db))
    assert 0 < stored < 4000
    # The finished games were kept; the same command resumes (asked for fewer, it plays
    # only what is missing of those).
    again = subprocess.run(
        [*args[:3], "--games", str(stored + 5), *args[5:]], capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert again.returncode == 0, again.stdout + again.stderr
    assert len(_rows(db)) >= stored + 5


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_keeps_the_finished_games_says_so_and_a_rerun_resumes(tmp_path, jobs):
    """Ctrl-C at a terminal reaches the command and its workers (one process group)."""
    db, out = tmp_path / "c.db", tmp_path / "out"
    args = [_meeple(), "simulate", "erosion", "--games", "4000", "--jobs", str(jobs),
            "--db", f"sqlite:///{db}", "--out", str(out)]  # fmt: skip
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True, preexec_fn=as_at_a_terminal)  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not _rows_yet(db):
        time.sleep(0.1)
    workers = [w for w in children(proc.pid) if alive(w)]
    assert len(workers) >= (2 if jobs == 2 else 0)
    os.killpg(proc.pid, signal.SIGINT)
    output, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130, output
    assert "Traceback" not in output and "Interrupted:" in output
    stored = _rows(db)
    assert 0 < len(stored) < 4000
    assert f"{len(stored)} of 4000 games" in output and "Run the same command again" in output
    [jsonl] = out.glob("erosion-*.jsonl")
    lines = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert sorted(row["index"] for row in lines) == sorted(index for _, index in stored)
    assert not [w for w in workers if alive(w)], "workers outlived the interrupted command"
    games = len(stored) + 3
    again = subprocess.run([*args[:3], "--games", str(games), *args[5:]],
                           capture_output=True, text=True, timeout=300)  # fmt: skip
    assert again.returncode == 0, again.stdout + again.stderr
    # The rerun plays the games missing below its count, and only those: the kept games
    # need not be the first ones (batches end in any order, some cut short by Ctrl-C).
    kept = {index for _, index in stored}
    assert {index for _, index in _rows(db)} == kept | set(range(games))


@pytest.mark.parametrize("whom", ["group", "command"])
def test_ctrl_c_does_not_wait_for_the_games_under_way(tmp_path, whom):
    """A search a few seconds a move plays a game in minutes. Ctrl-C ended the command's
    work at once and said so, and then the command waited for its workers to finish those
    games before it exited (about four minutes here), and kept none of them. They get a grace
    of seconds and are dropped, whether Ctrl-C reached the whole process group (a terminal)
    or only the command (kill -INT)."""
    seats = ["--seat", "mcts:seconds=5", "--seat", "mcts:seconds=5"]
    db = f"sqlite:///{tmp_path / 'c.db'}"
    args = [_meeple(), "simulate", "edges", "--board", "3x3", *seats, "--games", "4",
            "--jobs", "2", "--db", db, "--out", str(tmp_path)]  # fmt: skip
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True, preexec_fn=as_at_a_terminal)  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(children(proc.pid)) < 2:
        time.sleep(0.1)
    workers = children(proc.pid)
    time.sleep(2)  # the workers are searching their first moves
    (os.killpg if whom == "group" else os.kill)(proc.pid, signal.SIGINT)
    output, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130, output
    assert "Traceback" not in output and "Interrupted: 0 of 4 games" in " ".join(output.split())
    assert len(workers) >= 2 and not [w for w in workers if alive(w)]


def test_a_worker_told_to_drop_its_game_keeps_the_games_its_batch_finished(monkeypatch):
    """The grace after Ctrl-C is over during a batch's third game: the worker drops it and
    hands over the two finished before, and plays no batch handed to it later."""
    from meeple.lab import simulate
    from meeple.lab.run import RunSpec

    spec = RunSpec(kind="simulate", game="edges", options={"board": "2x2"},
                   seatings=[["random", "random"]], seed=3)  # fmt: skip
    jobs = [spec.job(k) for k in range(5)]
    play_job = simulate.play_job
    played: list[int] = []

    def third_dropped(job):
        played.append(job.index)
        if len(played) == 3:
            simulate._drop_the_game(simulate._DROP, None)  # what the worker's handler does
        return play_job(job)

    monkeypatch.setattr(simulate, "play_job", third_dropped)
    monkeypatch.setattr(simulate, "_stopped", False)
    assert [row["index"] for row in simulate.play_jobs(jobs)] == [0, 1]
    assert simulate.play_jobs(jobs) == []


def test_an_interrupt_keeps_the_games_the_workers_were_finishing(tmp_path):
    from meeple.lab.run import RunSpec, execute
    from meeple.lab.simulate import play_job
    from meeple.store import ResultStore

    store = ResultStore(f"sqlite:///{tmp_path / 'r.db'}")
    spec = RunSpec(kind="simulate", game="edges", options={"board": "2x3"},
                   seatings=[["random", "random"]], seed=5)  # fmt: skip
    seen: list[int] = []

    def stop(row):
        seen.append(row["index"])
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        execute(spec, 2000, store, backend="process", workers=2, on_row=stop)
    kept = store.rows(spec.key)
    # More than the rows handed over before Ctrl-C: the batches under way were kept too,
    # and each kept game is the game a serial run plays.
    assert len(kept) > len(seen) and set(seen) <= {row["index"] for row in kept}
    assert all(row == play_job(spec.job(row["index"])) for row in kept[:40])


def test_ctrl_c_during_a_commit_neither_splits_it_nor_locks_the_database(tmp_path, monkeypatch):
    """Ctrl-C inside the database driver, between a write and its commit, left that write's
    transaction open on a connection only the garbage collector closes: the next write, the
    one keeping the finished games, waited the busy timeout for the lock and failed, so that
    `meeple simulate` hung after Ctrl-C and lost what it said it kept."""
    from sqlalchemy import event

    from meeple.lab import run as lab_run
    from meeple.lab.run import RunSpec, execute
    from meeple.store import ResultStore

    monkeypatch.setattr(lab_run, "FLUSH_ROWS", 5)
    store = ResultStore(f"sqlite:///{tmp_path / 'r.db'}?timeout=1")
    spec = RunSpec(kind="simulate", game="edges", options={"board": "2x2"},
                   seatings=[["random", "random"]], seed=5)  # fmt: skip
    sent: list[bool] = []

    def ctrl_c_mid_write(_conn, _cursor, statement, *_rest):
        if "INSERT INTO games" in statement and not sent:
            sent.append(True)
            os.kill(os.getpid(), signal.SIGINT)

    event.listen(store.engine, "after_cursor_execute", ctrl_c_mid_write)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # as at a terminal
    try:
        with pytest.raises(KeyboardInterrupt):
            execute(spec, 50, store)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert sent and len(store.rows(spec.key)) == 5


@pytest.mark.parametrize("n", [1, 11, 22, 27, 44, 6, 21, 31, 200])
def test_a_one_sided_result_has_no_negative_error_bar(n):
    for wins in (0, n):
        low, high = wilson_interval(wins, n)
        assert 0.0 <= low <= wins / n <= high <= 1.0


def test_the_report_of_a_run_one_seat_always_wins_is_drawn(run, tmp_path):
    from meeple.lab.metrics import summarize
    from meeple.lab.report import simulation_report

    rows = [
        {"index": k, "seed": k, "game": "edges", "options": {}, "seats": ["a", "b"],
         "first_player": 0, "length": 3, "branching": 2.0, "returns": [1.0, -1.0],
         "winners": [0], "scores": [2, 0], "margin": 2.0, "reason": "x", "lead_changes": 0,
         "decided_at": 0.0, "moves": []}
        for k in range(11)
    ]  # fmt: skip
    report = simulation_report("one-sided", summarize(rows), [3.0] * 11, tmp_path, "meeple x")
    assert report.exists() and (tmp_path / "wins.png").stat().st_size > 0


@pytest.mark.parametrize(
    ("db", "says"),
    [
        ("nonsense", "is not a database URL"),
        ("sqlite:////proc/nope/x.db", "cannot"),
        ("postgresql+psycopg://nobody@127.0.0.1:1/x", "cannot open"),
        # what is allowed too: the databases meeple comes with
        (
            "mysql://x@y/z",
            "no database driver for 'mysql://x@y/z': No module named 'MySQLdb'; "
            "meeple comes with SQLite's (sqlite:///FILE) and PostgreSQL's",
        ),
    ],
)
def test_a_bad_database_is_one_error_line(run, tmp_path, db, says):
    out = run(*SIM, "--games", "3", "--db", db, "--out", str(tmp_path))
    assert out.exit_code == 2, out.output
    assert "error:" in out.output and says in out.output
    assert "Traceback" not in out.output
    listed = run("results", "--db", db)
    if db.startswith("sqlite:"):
        # Listing reads: a SQLite file that is not there holds no runs, and none is made.
        assert listed.exit_code == 0 and "there is no /proc/nope/x.db" in listed.output
    else:
        assert listed.exit_code == 2 and "error:" in listed.output


def test_an_unwritable_results_folder_is_refused_before_playing(run, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    out = run(*SIM, "--games", "3", "--db", f"sqlite:///{tmp_path / 'r.db'}",
              "--out", str(blocker / "results"))  # fmt: skip
    assert out.exit_code == 2, out.output
    assert "error: cannot write results to" in out.output and "--out" in out.output


@pytest.mark.parametrize(
    ("args", "games"),
    [
        (["compare", "edges", "--board", "2x2", "--variant", "pie=true", "--variant",
          "pie=false", "--games", "20"], 20),
        (["tournament", "edges", "--board", "2x2", "--agent", "random", "--agent", "greedy",
          "--games", "20"], 20),
    ],
)  # fmt: skip
def test_ctrl_c_in_compare_and_tournament_says_what_was_kept(run, tmp_path, monkeypatch, args,
                                                             games):  # fmt: skip
    from meeple.interfaces import lab_common
    from meeple.lab.run import execute

    def interrupted_after_3(spec, n, store, **kwargs):
        seen: list[int] = []

        def stop(row):
            seen.append(row["index"])
            if len(seen) == 3:
                raise KeyboardInterrupt

        return execute(spec, n, store, **{**kwargs, "on_row": stop})

    monkeypatch.setattr(lab_common, "execute", interrupted_after_3)
    out = run(*args, "--db", f"sqlite:///{tmp_path / 'r.db'}", "--out", str(tmp_path / "o"))
    assert out.exit_code == 130, out.output
    assert f"Interrupted: 3 of {games} games" in out.output and "Traceback" not in out.output
    [jsonl] = (tmp_path / "o").glob("edges-*.jsonl")
    assert len(jsonl.read_text().splitlines()) == 3
