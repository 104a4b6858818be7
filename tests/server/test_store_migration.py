"""A database written before seeds had commitments still opens, and its matches load."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import MetaData, Table, create_engine, insert

from meeple.store.matches import MatchRow, MatchStore, MoveRow, StoredMatch
from tests import plain_http

NEW_COLUMNS = {"seed_text", "seed_salt", "deadlines", "content"}


def _old_database(url: str) -> None:
    """The matches table as meeple stored it before: no seed_text, no seed_salt; one
    finished Edges match and one still waiting for its second person."""
    old = MetaData()
    matches = Table(
        "matches",
        old,
        *(c._copy() for c in MatchRow.__table__.columns if c.name not in NEW_COLUMNS),
    )
    Table("match_moves", old, *(c._copy() for c in MoveRow.__table__.columns))
    engine = create_engine(url)
    old.create_all(engine)
    now = dt.datetime(2026, 1, 1)
    seat = {"spec": "human", "agent": None, "name": "Ann", "token": "0" * 64, "resigned": False}
    with engine.begin() as connection:
        for match_id, status in (("oldfinished", "finished"), ("oldwaiting", "waiting")):
            connection.execute(
                insert(matches).values(
                    id=match_id, game="edges", options={"board": "2x2"}, seed=12345,
                    seats=[{**seat, "joined": True}, {**seat, "joined": status == "finished"}],
                    listed=True, move_seconds=None, status=status, moves_count=0,
                    result={"over": True, "reason": "test"} if status == "finished" else None,
                    rematch_of=None, rematch=None, created=now, updated=now,
                )
            )  # fmt: skip
    engine.dispose()


def test_matches_stored_before_seed_commitments_still_load(db_url, server_factory):
    _old_database(db_url)
    store = MatchStore(db_url)  # adds the new columns
    seat = {"spec": "human", "agent": None, "name": "Ann", "token": None, "resigned": False}
    old = store.get("oldfinished")
    assert old is not None and old.seed == 12345 and old.seed_salt is None
    big = StoredMatch(
        id="new", game="edges", options={}, seed=2**127 + 3, listed=False,
        seats=[{**seat, "joined": True}, {**seat, "joined": True}],
        move_seconds=None, status="finished", seed_salt="ab" * 16,
    )  # fmt: skip
    store.create(big)
    assert store.get("new").seed == 2**127 + 3  # past the 64-bit column, exact
    MatchStore(db_url).close()  # opening it again finds every column there
    store.close()

    server = server_factory(db_url)
    done = plain_http.get(f"{server.url}/api/matches/oldfinished").json()
    assert done["status"] == "finished" and done["seed"] == "12345"
    assert done["seed_commitment"] is None and done["seed_salt"] is None
    record = plain_http.get(f"{server.url}/api/matches/oldfinished/record").json()
    assert record["seed"] == 12345
    # A waiting match stored before 'reserved' existed keeps its open seat.
    assert plain_http.get(f"{server.url}/api/matches/oldwaiting").json()["open_seats"] == [1]
