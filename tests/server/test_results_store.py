"""The lab's results store read back on both databases: a game whose row was damaged in
place is named and played again to the row it was (the JSON column is read as text on
both, so PostgreSQL's own JSON decoding is not what reads it)."""

from __future__ import annotations

import json

from sqlalchemy import text
from sqlalchemy.orm import Session

from meeple.lab.run import RunSpec, execute, read_run
from meeple.store.results import ResultStore

SPEC = RunSpec(kind="simulate", game="edges", options={"board": "2x2"}, seatings=[["random"] * 2])


def test_a_damaged_row_is_named_and_played_again_on_either_database(db_url: str) -> None:
    store = ResultStore(db_url)
    played = [dict(row) for row in execute(SPEC, 3, store)]
    with Session(store.engine) as session, session.begin():
        damaged = {**played[1], "winners": "all"}
        session.execute(
            text('UPDATE games SET data = :data WHERE "index" = 1'), {"data": json.dumps(damaged)}
        )
    stored = read_run(store, SPEC.key)
    assert stored.games.damaged == {
        1: "its row is not the row the lab wrote: its SHA-256 digest does not match"
    }
    assert [row["index"] for row in stored.games.rows] == [0, 2]
    assert stored.run["created"] is not None  # the date, read as text, reads back

    notes: list[str] = []
    again = execute(SPEC, 3, store, on_damaged=notes.append)
    assert [dict(row) for row in again] == played
    assert len(notes) == 1 and "game 1: its row is not the row the lab wrote" in notes[0]
    assert [dict(row) for row in read_run(store, SPEC.key).games.rows] == played
