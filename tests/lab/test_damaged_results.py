"""A results database read back is checked first: a damaged run or game is named, left out
of what is shown, and the run's command plays it again, to the very row it was.

Rows are damaged by hand, in raw SQL, as a disk, a bad restore or a SQLite browser would.
Before these checks, each of these printed a traceback (a KeyError in the summary, a
TypeError sorting seats, a ValueError unpacking a move in `meeple cards`).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import sys
from collections.abc import Mapping
from typing import Any

import pytest
from typer.testing import CliRunner

from meeple.core.conformance import changed_value
from meeple.interfaces.cli import app
from meeple.lab.metrics import summarize
from meeple.lab.replay import notable_lines
from meeple.lab.run import DamagedRun, RunSpec, execute, read_run, write_csv
from meeple.store import ResultStore

SIM = ("simulate", "erd", "--seat", "random", "--seat", "heuristic", "--games", "12")


@pytest.fixture
def lab(tmp_path, monkeypatch):
    """``lab(*args)`` runs a meeple command on the test's results database."""
    runner = CliRunner()
    db = f"sqlite:///{tmp_path / 'lab.db'}"

    def invoke(*args):
        out = ["--out", str(tmp_path / "out")] if args[0] in ("simulate", "design") else []
        argv = [*args, "--db", db, *out]
        monkeypatch.setattr(sys, "argv", ["meeple", *argv])
        return runner.invoke(app, argv)

    invoke.file = tmp_path / "lab.db"
    invoke.db = db
    return invoke


def _damage(file, sql: str, *values) -> None:
    with sqlite3.connect(file) as conn:
        conn.execute(sql, values)


def _row(file, index: int) -> dict:
    with sqlite3.connect(file) as conn:
        [text] = conn.execute('SELECT data FROM games WHERE "index" = ?', (index,)).fetchone()
    return json.loads(text)


def _edited(file, index: int, **changes) -> None:
    row = {**_row(file, index), **changes}
    for name, value in changes.items():
        if value is KeyError:
            del row[name]
    _damage(file, 'UPDATE games SET data = ? WHERE "index" = ?', json.dumps(row), index)


def _one_line(result) -> str:
    return " ".join(result.output.split())


NOT_JSON = '{"index": '
"""A row's text cut short: not JSON."""

DIGEST = "its row is not the row the lab wrote: its SHA-256 digest does not match"

# Each kind of damage the fuzzing of a results database found a traceback (or a silently
# wrong figure) for: the row's fields changed (None: its text replaced), and the words when
# the row is an older meeple's, which kept no digest (a row with one fails it: DIGEST).
DAMAGES = {
    "text that is not JSON": (None, "its row is not JSON"),
    "a field missing": ({"branching": KeyError}, "branching: field required"),
    "a seat that is not text": (
        {"seats": ["random", None]},
        "seats.1: input should be a valid string",
    ),
    "a move that is not a pair": ({"moves": [[]]}, "moves.0"),
    "another seed": ({"seed": 5}, "seed is 5, where its run has"),
    "returns that are not its winners'": (
        {"returns": [-1.0, 1.0], "winners": [0]},
        "winners is [0], where its run has [1]",
    ),
    "a length that is not its moves'": ({"length": 3}, "length is 3"),
    # What only the digest tells: a figure changed to another that could be.
    "a branching factor": ({"branching": 1.0}, None),
}


@pytest.mark.parametrize(
    ("damage", "digests"),
    [
        pytest.param(damage, digests, id=f"{damage}, {'digests' if digests else 'no digests'}")
        for damage, (_, says) in DAMAGES.items()
        for digests in (True, False)
        if digests or says is not None  # without a digest, a plausible figure is believed
    ],
)
def test_a_damaged_game_is_named_left_out_and_played_again_to_the_row_it_was(lab, damage, digests):
    """With digests (rows this meeple wrote) and without (an older meeple's rows, which
    only the check of their fields guards)."""
    changes, says = DAMAGES[damage]
    made = lab(*SIM)
    assert made.exit_code == 0, made.output
    [run] = ResultStore(lab.db).runs()
    before = _row(lab.file, 4)
    if not digests:
        _damage(lab.file, "UPDATE games SET digest = NULL")
    if changes is None:
        _damage(lab.file, 'UPDATE games SET data = ? WHERE "index" = 4', NOT_JSON)
    else:
        _edited(lab.file, 4, **changes)

    shown = lab("results", run["key"])
    assert shown.exit_code == 0, shown.output
    assert "Traceback" not in shown.output
    text = _one_line(shown)
    assert f"1 game of run {run['key']} stored in the results database is damaged" in text
    assert f"game 4: {says if not digests else DIGEST}" in text
    assert "11 games stored" in text and "left out of these figures" in text

    replayed = lab("replay", run["key"], "--game", "4")
    assert replayed.exit_code != 0
    assert f"game 4 of run {run['key']} is damaged in the results database" in _one_line(replayed)

    again = lab(*SIM)  # the run's own command
    assert again.exit_code == 0, again.output
    assert "deleted, to be played again as they are needed" in _one_line(again)
    assert _row(lab.file, 4) == before  # a row is a pure function of its job
    assert not read_run(ResultStore(lab.db), run["key"]).games.damaged


def test_cards_of_a_run_with_a_damaged_game_count_the_others(lab):
    made = lab("simulate", "triangle-clock", "--seat", "random", "--seat", "heuristic",
               "--games", "6")  # fmt: skip
    assert made.exit_code == 0, made.output
    [run] = ResultStore(lab.db).runs()
    _edited(lab.file, 2, moves=[[0]])  # `meeple cards` failed to unpack it
    cards = lab("cards", run["key"])
    assert cards.exit_code == 0, cards.output
    assert "5 games" in cards.output and f"game 2: {DIGEST}" in _one_line(cards)
    as_json = json.loads(lab("cards", run["key"], "--json").output)
    assert as_json["games"] == 5 and [d["game"] for d in as_json["damaged"]] == [2]


def test_a_damaged_run_description_is_named_and_written_again_by_its_command(lab):
    made = lab(*SIM)
    assert made.exit_code == 0, made.output
    [run] = ResultStore(lab.db).runs()
    spec = {**run["spec"], "seed": 99}  # another run's description under this key
    _damage(lab.file, "UPDATE runs SET spec = ?, created = 'yesterday'", json.dumps(spec))

    listed = lab("results")
    assert listed.exit_code == 0, listed.output
    said = f"run {run['key']} is damaged in the results database: its description is not the one its key was made from"  # noqa: E501
    assert said in _one_line(listed)
    shown = lab("results", run["key"])
    assert shown.exit_code != 0 and said in _one_line(shown)
    assert "Traceback" not in listed.output + shown.output

    again = lab(*SIM)
    assert again.exit_code == 0, again.output
    shown = lab("results", run["key"])
    assert shown.exit_code == 0, shown.output
    assert "12 games stored" in _one_line(shown)


def test_a_run_reads_back_to_the_rows_it_played(tmp_path):
    """The check believes every game a run plays (a check that refused good rows would
    play them again for nothing): here a run of every game but Erd's, above."""
    store = ResultStore(f"sqlite:///{tmp_path / 'lab.db'}")
    for game, options, seats in [
        ("edges", {"board": "2x2"}, ["random", "greedy"]),
        ("erosion", {"players": 3}, ["random"] * 3),
        ("squad-combat", {"players": 3}, ["random"] * 3),
        ("triangle-clock", {}, ["random", "heuristic"]),
    ]:
        spec = RunSpec(kind="simulate", game=game, options=options, seatings=[seats])
        played = execute(spec, 4, store)
        stored = read_run(store, spec.key)
        assert stored.games.damaged == {}
        assert [dict(r) for r in stored.games.rows] == [dict(r) for r in played]


EXAMPLES = 60 * (100 if os.environ.get("MEEPLE_FUZZ") == "long" else 1)
"""Changed databases read back: `make fuzz` reads 100 times more."""

FUZZED = RunSpec(kind="simulate", game="erd", options={}, seatings=[["random", "heuristic"]])
IDENTITY = ("index", "seed", "game", "options", "seats", "length")
"""What the check of its fields holds a row without a digest to: the game of its job (its
moves and figures only to their types and to one another); a row with a digest is held to
all of itself."""


@pytest.mark.fuzz
def test_any_one_changed_value_is_named_or_read_whole_and_the_command_restores_it(tmp_path):
    """A stored run with one value changed anywhere (a game's field, the run's description,
    a row's text cut short, a game's number), its rows with digests or without (an older
    meeple's), is refused as damaged in one line, or reads back to games that are its own
    and that every table of the lab can sum up; the run's command then holds every game as
    it was played."""
    whole = tmp_path / "whole.db"
    base = ResultStore(f"sqlite:///{whole}")
    played = [dict(r) for r in execute(FUZZED, 8, base)]
    base.engine.dispose()  # the last connection closed: SQLite's log is in the file
    words = sorted({v for row in played for v in map(str, row.values())})[:50]
    rng = random.Random(1)
    named = believed = 0
    for example in range(EXAMPLES):
        file = tmp_path / f"changed{example}.db"
        shutil.copy(whole, file)
        digests = example % 2 == 0
        fields = None if digests else IDENTITY  # None: the whole row
        with sqlite3.connect(file) as conn:
            if not digests:
                conn.execute("UPDATE games SET digest = NULL")
            _change_one_value(conn, rng, words)
        store = ResultStore(f"sqlite:///{file}")
        try:
            stored = read_run(store, FUZZED.key)
        except DamagedRun:
            named += 1
        else:
            rows = stored.games.rows
            named += bool(stored.games.damaged)
            believed += not stored.games.damaged
            for row in rows:
                assert _part(row, fields) == _part(played[row["index"]], fields)
            if rows:
                summarize(rows)
                notable_lines(rows, FUZZED.key)
                write_csv(rows, tmp_path / "games.csv")
        again = execute(FUZZED, 8, store)
        assert [_part(r, fields) for r in again] == [_part(r, fields) for r in played]
        stored = read_run(store, FUZZED.key)
        assert not stored.games.damaged and len(stored.games.rows) == 8
        store.engine.dispose()
        file.unlink()
    assert named > EXAMPLES // 4 and believed > 0  # the changes are neither all caught nor none


def _part(row: Mapping[str, Any], fields: tuple[str, ...] | None) -> dict[str, Any]:
    return dict(row) if fields is None else {k: row[k] for k in fields}


def _change_one_value(conn: sqlite3.Connection, rng: random.Random, words: list[str]) -> None:
    """One value of a stored run changed as damage or a hand edit might (raw SQL)."""
    roll = rng.random()
    if roll < 0.15:
        [spec] = conn.execute("SELECT spec FROM runs").fetchone()
        changed = changed_value(json.loads(spec), rng, 2, words)
        conn.execute("UPDATE runs SET spec = ?", (json.dumps(changed),))
        return
    index = rng.randrange(8)
    if roll < 0.25:
        conn.execute('UPDATE games SET data = substr(data, 1, 40) WHERE "index" = ?', (index,))
    elif roll < 0.3:
        conn.execute(
            'UPDATE games SET "index" = ? WHERE "index" = ?', (rng.choice([-1, 99, "x"]), index)
        )
    else:
        [data] = conn.execute('SELECT data FROM games WHERE "index" = ?', (index,)).fetchone()
        changed = changed_value(json.loads(data), rng, 2, words)
        conn.execute('UPDATE games SET data = ? WHERE "index" = ?', (json.dumps(changed), index))
