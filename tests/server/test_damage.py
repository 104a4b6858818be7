"""A damaged database never stops the server: one bad match is set aside, the rest are served.

Rows are damaged by hand, as an operator's stray edit or a bad restore would: the server
must start, log one line per damaged match (no traceback), answer that match's GET with
why, leave it out of the lobby, and serve every other match. A database file that cannot
be read at all is one error line and a non-zero exit.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from meeple.core.conformance import changed_value
from meeple.interfaces.web.client import free_port
from meeple.store.db import StoreError
from meeple.store.matches import STATUSES, DamagedMatch, MatchStore, StoredMatch
from tests import plain_http

_SEAT = '"spec": "human", "agent": null, "name": null, "joined": false, "resigned": false'
DAMAGE = {
    "not JSON": ("seats", "'{not json'"),
    "an object, not a list": ("seats", """'{"a": 1}'"""),
    "a seat of the wrong shape": ("seats", """'[{"spec": 3}]'"""),
    # Found by a fuzz of one changed value: each was a 500 and a traceback in the log.
    "a seat without its token": ("seats", f"""'[{{{_SEAT}}}, {{{_SEAT}, "token": null}}]'"""),
    "a seed's text that is no number": ("seed_text", "'1.5'"),
}
"""Each kind of damage: the column changed and the SQL literal written there."""


def test_damaged_matches_are_set_aside_and_the_others_are_served(server_factory, db_url):
    """Each kind of damage in a match of its own, and one match left whole: one restart,
    and each damaged match is set aside for its own reason while the whole one is served."""
    # PostgreSQL's json type cannot hold text that is not JSON: that damage is SQLite's alone.
    damages = [d for d in DAMAGE if not (d == "not JSON" and db_url.startswith("postgresql"))]
    server = server_factory(db_url)
    made = [
        plain_http.post(
            f"{server.url}/api/matches",
            json={"game": "edges", "options": {"board": "2x2"}, "seats": ["human", "open"]},
        ).json()["match"]
        for _ in range(len(damages) + 1)
    ]
    *bad, good = made
    server.kill()
    engine = create_engine(db_url)
    with engine.begin() as conn:
        for match, damage in zip(bad, damages, strict=True):
            column, value = DAMAGE[damage]
            # Raw SQL: the ORM would refuse to write such a row.
            conn.execute(
                text(f"UPDATE matches SET {column} = {value} WHERE id = :id"), {"id": match}
            )
    engine.dispose()

    server.start()
    for match in bad:
        reply = plain_http.get(f"{server.url}/api/matches/{match}")
        # The operator's to mend, not a fault of the server's code (a 500, internal_error).
        assert reply.status_code == 503 and reply.json()["code"] == "match_unavailable"
        assert "cannot be served" in reply.json()["error"]
        # said once ("cannot be served: this match cannot be served: match ..." said it twice)
        assert reply.json()["error"].count("cannot be served") == 1, reply.json()["error"]
    reply = plain_http.get(f"{server.url}/api/matches/{good}")
    assert reply.status_code == 200, reply.text
    listed = [m["match"] for m in plain_http.get(f"{server.url}/api/matches?status=open").json()]
    assert listed == [good]
    log = server.log_path.read_text()
    assert "Traceback" not in log
    for match in bad:
        assert sum(f"match {match} set aside" in line for line in log.splitlines()) == 1


def test_a_database_that_cannot_be_read_is_one_line_and_a_non_zero_exit(tmp_path: Path):
    db = tmp_path / "matches.db"
    store = MatchStore(f"sqlite:///{db}")
    _waiting_matches(store, 300, {"board": "2x2", "padding": "x" * 200})
    store.close()
    # Damage in the middle of the file: the header reads, the pages of some matches do not.
    with db.open("r+b") as file:
        file.seek(db.stat().st_size // 2)
        file.write(bytes(range(256)) * 16)
    meeple = Path(sys.executable).with_name("meeple")
    done = subprocess.run(
        [str(meeple), "serve", "--port", str(free_port()), "--db", f"sqlite:///{db}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    output = (done.stdout + done.stderr).strip()
    assert "Traceback" not in output
    assert len(output.splitlines()) == 1, output
    assert "cannot" in output and "matches.db" in output


def test_a_database_that_takes_no_writes_is_one_line_and_a_non_zero_exit(tmp_path, db_url):
    """A read-only database (a file opened read-only, a read-only PostgreSQL database) is
    refused before the server listens: served, it would restore every match and then refuse
    every move with storage_unavailable."""
    MatchStore(db_url).close()  # the tables, as a server that ran on it left them
    if db_url.startswith("sqlite"):
        # Root writes a file whatever its mode: SQLite's own read-only mode stands in for a
        # read-only file or disk.
        read_only = f"sqlite:///file:{db_url.removeprefix('sqlite:///')}?mode=ro&uri=true"
    else:
        name = db_url.rsplit("/", 1)[1]
        engine = create_engine(db_url, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(text(f"ALTER DATABASE {name} SET default_transaction_read_only = on"))
        engine.dispose()
        read_only = db_url
    meeple = Path(sys.executable).with_name("meeple")
    done = subprocess.run(
        [str(meeple), "serve", "--port", str(free_port()), "--db", read_only],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    output = (done.stdout + done.stderr).strip()
    assert done.returncode == 2, output
    assert "Traceback" not in output
    assert len(output.splitlines()) == 1, output
    assert output.startswith("error: cannot write the matches in"), output
    assert "read-only" in output or "readonly" in output, output


def test_a_copy_taken_without_its_log_is_refused_not_served_empty(tmp_path: Path):
    """A running server's SQLite file copied alone (cp, not sqlite3 .backup) holds no tables:
    every change is still in server.db-wal. Served, it would be an empty server with no word
    said; it is refused, saying how to copy a running server's database."""
    db = tmp_path / "server.db"
    running = MatchStore(f"sqlite:///{db}")  # its open connection keeps the log
    running.create(
        StoredMatch(
            id="m0",
            game="edges",
            options={},
            seed=1,
            seats=[{"spec": "human", "agent": None, "name": None, "token": None,
                    "joined": False, "resigned": False}] * 2,
            listed=True,
            move_seconds=None,
            status="waiting",
        )
    )  # fmt: skip
    copy = tmp_path / "copy.db"
    shutil.copyfile(db, copy)
    with pytest.raises(StoreError, match=r"copy.db holds no tables.*\.backup"):
        MatchStore(f"sqlite:///{copy}")
    running.close()
    # A file the server stopped with, its log written back into it, opens with its matches.
    stopped = MatchStore(f"sqlite:///{db}")
    assert stopped.ids() == ["m0"]
    stopped.close()
    # And a file that does not exist yet is a new, empty database.
    assert MatchStore(f"sqlite:///{tmp_path / 'new.db'}").ids() == []


def test_a_damaged_date_spoils_only_its_own_match_in_the_expiry_sweep(tmp_path: Path):
    """A match whose ``updated`` holds no date (SQLite keeps whatever is written) is not
    expired, and the others are: SQLAlchemy's reading of it raised in the middle of the
    sweep's query, which then failed every time, with a traceback, and expired nothing."""
    db = tmp_path / "matches.db"
    store = MatchStore(f"sqlite:///{db}")
    _waiting_matches(store, 3, {"board": "2x2"})
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE matches SET updated = '2026-01-01 00:00:00.000000'")
        conn.execute("UPDATE matches SET updated = -1 WHERE id = 'm0001'")
    assert sorted(store.stale(60, 60)) == [("m0000", "waiting"), ("m0002", "waiting")]
    with pytest.raises(DamagedMatch, match="match m0001: a field does not read"):
        store.get("m0001")
    store.close()


def _waiting_matches(store: MatchStore, count: int, options: dict) -> None:
    """``count`` Edges matches waiting for two people, ``m0000`` onwards."""
    seat = {"spec": "human", "agent": None, "name": None, "token": None, "joined": False}
    for number in range(count):
        store.create(
            StoredMatch(
                id=f"m{number:04d}",
                game="edges",
                options=options,
                seed=number,
                seats=[{**seat, "resigned": False}] * 2,
                listed=True,
                move_seconds=None,
                status="waiting",
            )
        )


FUZZ_EXAMPLES = 200 * (100 if os.environ.get("MEEPLE_FUZZ") == "long" else 1)
"""Changed databases read back: `make fuzz` reads 100 times more."""

SEAT_FIELDS = {"spec": str, "agent": (str, type(None)), "name": (str, type(None)),
               "token": (str, type(None)), "joined": bool, "resigned": bool}  # fmt: skip
"""What every seat of a match read back has: what the server's code reads of a seat."""


@pytest.mark.fuzz
def test_any_one_changed_value_of_a_match_is_set_aside_or_reads_whole(tmp_path: Path):
    """One value of a stored match changed anywhere (a column, or a place inside a JSON
    column: a seat's field dropped or of another kind, the seed's text, a date), as a bad
    restore or a hand edit might: the match is a DamagedMatch in one line, or it reads back
    with every field the server's code reads, of its type; the listing, the expiry sweep and
    the ids never fail on it. A seat without its token, a seed's text '1.5' and a date that
    is no date each failed every read of the match, or every sweep, before."""
    whole = tmp_path / "whole.db"
    store = MatchStore(f"sqlite:///{whole}")
    _waiting_matches(store, 3, {"board": "2x2"})
    store.add_move("m0001", 1, 0, "L h0,0", status="playing")
    store.close()
    rng = random.Random(2)
    set_aside = 0
    for example in range(FUZZ_EXAMPLES):
        file = tmp_path / f"changed{example}.db"
        shutil.copy(whole, file)
        with sqlite3.connect(file) as conn:
            _change_one_value(conn, rng)
        changed = MatchStore(f"sqlite:///{file}")
        try:
            changed.listing(STATUSES)
            changed.stale(0, 0)
            for match_id in changed.ids():
                try:
                    match = changed.get(match_id)
                except DamagedMatch as exc:
                    set_aside += 1
                    assert "\n" not in str(exc)
                    continue
                assert match is not None and isinstance(match.seed, int)
                for seat in match.seats:
                    assert all(isinstance(seat[k], t) for k, t in SEAT_FIELDS.items()), seat
        finally:
            changed.close()
            file.unlink()
    assert 0 < set_aside < FUZZ_EXAMPLES  # some changes are caught, and some are harmless


def _change_one_value(conn: sqlite3.Connection, rng: random.Random) -> None:
    """One value of one stored match changed (raw SQL: the ORM would refuse to write it)."""
    [(match_id,)] = rng.sample(conn.execute("SELECT id FROM matches").fetchall(), 1)
    column = rng.choice(["seats", "seats", "options", "seed", "seed_text", "status",
                         "result", "deadlines", "updated", "created", "moves_count", "listed",
                         "move_seconds", "game"])  # fmt: skip
    [old] = conn.execute(f"SELECT {column} FROM matches WHERE id = ?", (match_id,)).fetchone()
    try:
        parsed = json.loads(old) if isinstance(old, str) else old
    except ValueError:
        parsed = old
    if isinstance(parsed, dict | list) and rng.random() < 0.8:
        new = json.dumps(changed_value(parsed, rng, 2, ["human", "random", "x"]))
    else:
        new = rng.choice([None, -1, 0, 2**62, "x", "", "{bad", "1.5", 1.5, "[]", "{}"])
    with contextlib.suppress(sqlite3.IntegrityError):  # a column that holds no NULL
        conn.execute(f"UPDATE matches SET {column} = ? WHERE id = ?", (new, match_id))


def test_a_database_whose_first_connection_fails_is_one_line_not_a_traceback(
    tmp_path: Path, monkeypatch
):
    """A SQLite file on a read-only disk opens, yet its first connection cannot start the
    log SQLite keeps beside it: ``meeple serve`` printed a 163-line traceback (reproduced
    with ``unshare -m`` and a read-only bind mount of the file's folder). Any driver error
    while the store opens is a StoreError in one line."""
    from sqlalchemy.exc import OperationalError

    from meeple.store import matches

    def refused(*_args: object) -> None:
        raise OperationalError(
            "PRAGMA journal_mode=WAL", {}, Exception("unable to open database file")
        )

    monkeypatch.setattr(matches, "create_tables", refused)
    with pytest.raises(StoreError) as raised:
        MatchStore(f"sqlite:///{tmp_path / 'matches.db'}")
    said = str(raised.value)
    assert "\n" not in said
    assert said.startswith("cannot open the matches in sqlite:///") and "matches.db" in said
    assert "unable to open database file; the server needs a database it can write" in said


def test_a_role_that_may_not_make_the_tables_is_told_how_to_mend_it(postgres):
    """A database made without ``createdb -O`` for the server's role: the refusal quoted
    PostgreSQL's statement ("LINE 2: CREATE TABLE matches ( ^") and said nothing to do."""
    if postgres is None:
        pytest.skip("needs PostgreSQL (apt-get install postgresql)")
    url = postgres.new_database()
    head, _, database = url.rpartition("/")
    visitor = f"visitor_{database}"  # roles are the cluster's: one of this database's own
    owner = create_engine(url)
    with owner.begin() as conn:
        conn.execute(text(f"CREATE ROLE {visitor} LOGIN"))
    owner.dispose()
    with pytest.raises(StoreError) as raised:
        MatchStore(f"{head.replace(postgres.user + '@', visitor + '@')}/{database}")
    said = str(raised.value)
    assert "permission denied for schema public" in said and "LINE" not in said, said
    assert said.endswith(
        "(the server makes its tables: its role must own the database, as `createdb -O "
        "ROLE DATABASE` makes it, or hold CREATE on the schema)"
    ), said
