"""store.db.upsert on both databases: one row per key, the last write kept."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select
from sqlalchemy.orm import Session

from meeple.store.results import ResultStore, RunNote


def test_noting_a_run_twice_keeps_one_row_with_the_last_command(db_url: str) -> None:
    store = ResultStore(db_url)
    for key in ("k1", "k2"):
        store.ensure_run(key, "simulate", "edges", {})
    store.note_run("k1", "meeple simulate edges --games 10", None)
    store.note_run("k1", "meeple simulate edges --games 20", "report.html")
    store.note_run("k2", "meeple compare erd", None)
    with Session(store.engine) as session:
        notes = {n.key: n for n in session.scalars(select(RunNote))}
    assert set(notes) == {"k1", "k2"}
    assert notes["k1"].command == "meeple simulate edges --games 20"
    assert notes["k1"].report == "report.html"
    assert isinstance(notes["k1"].updated, dt.datetime)
