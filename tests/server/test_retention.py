"""``--delete-ended-seconds``: a finished match is deleted that long after it ended, its
moves with it, and the reviews computed that long ago go as each new one is stored; so a
public server's database, which every new match from anyone makes larger, stays the size of
that much play. A match someone is watching is kept until they leave; the default keeps
everything. On SQLite and PostgreSQL, in process (tests/server/test_match_loading.py)."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

import httpx
from sqlalchemy import func, select, update

from meeple.interfaces.web.app import create_app
from meeple.interfaces.web.limits import ServerLimits
from meeple.store.db import utc_now
from meeple.store.matches import MatchRow, MoveRow
from meeple.store.reviews import ReviewRow, ReviewStore
from tests.server.test_match_loading import serving

DAY = 86_400.0
AGENTS = {"game": "edges", "options": {"board": "2x2"}, "seats": ["random", "random"]}


async def _played(client: httpx.AsyncClient) -> str:
    """A match of two agents, played to its end: a finished match with its moves."""
    match = (await client.post("/api/matches", json=AGENTS)).json()["match"]
    for _ in range(200):
        if (await client.get(f"/api/matches/{match}")).json()["status"] == "finished":
            return str(match)
        await asyncio.sleep(0.05)
    raise AssertionError(f"match {match} of two agents did not end")


def test_finished_matches_are_deleted_past_their_time_and_the_rest_kept(db_url):
    app = create_app(db_url, 0, limits=ServerLimits(delete_ended_seconds=DAY))
    hub = app.state.hub
    engine = hub.store.engine

    def backdate(match: str, days: float) -> None:
        when = utc_now() - dt.timedelta(days=days)
        with engine.begin() as conn:
            conn.execute(update(MatchRow).where(MatchRow.id == match).values(updated=when))

    async def go(client: httpx.AsyncClient) -> dict[str, Any]:
        old, recent, watched = [await _played(client) for _ in range(3)]
        body = {**AGENTS, "seats": ["human", "random"]}
        unfinished = (await client.post("/api/matches", json=body)).json()["match"]
        for match, days in ((old, 2), (watched, 2), (unfinished, 2), (recent, 0.5)):
            backdate(match, days)
        # Someone watches one: its page has the match, which is kept while they do.
        (await hub.get(watched)).connections.add(object())
        await hub.sweep()
        ids = {"old": old, "recent": recent, "watched": watched, "unfinished": unfinished}
        answers = {k: (await client.get(f"/api/matches/{m}")).status_code for k, m in ids.items()}
        (await hub.get(watched)).connections.clear()
        await hub.sweep()
        answers["watched, then left"] = (await client.get(f"/api/matches/{watched}")).status_code
        with engine.connect() as conn:
            counts = select(MoveRow.match_id, func.count()).group_by(MoveRow.match_id)
            moves = {match_id: n for match_id, n in conn.execute(counts).all()}
        return {"answers": answers, "moves": moves, **ids}

    seen = asyncio.run(serving(app, go))
    assert seen["answers"] == {
        "old": 404,
        "recent": 200,
        "watched": 200,
        "unfinished": 200,
        "watched, then left": 404,
    }
    assert seen["recent"] in seen["moves"], seen["moves"]
    assert seen["old"] not in seen["moves"] and seen["watched"] not in seen["moves"]

    # Reviews are a cache (computed again when asked for): those computed past the time go
    # as a new one is stored.
    reviews = ReviewStore(engine)
    reviews.put("old", {"review": 1})
    when = utc_now() - dt.timedelta(days=2)
    with engine.begin() as conn:
        conn.execute(update(ReviewRow).where(ReviewRow.key == "old").values(created=when))
    reviews.put("kept", {"review": 2})
    assert reviews.get("old") == {"review": 1}  # not without a new one stored
    reviews.put("new", {"review": 3}, keep_seconds=DAY)
    assert [reviews.get(k) for k in ("old", "kept", "new")] == [None, {"review": 2}, {"review": 3}]
    engine.dispose()


def test_by_default_nothing_finished_is_deleted(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'k.db'}", 0)
    assert app.state.hub.limits.delete_ended_seconds == 0

    async def go(client: httpx.AsyncClient) -> int:
        match = await _played(client)
        with app.state.hub.store.engine.begin() as conn:
            ancient = dt.datetime(2000, 1, 1)
            conn.execute(update(MatchRow).where(MatchRow.id == match).values(updated=ancient))
        await app.state.hub.sweep()
        return (await client.get(f"/api/matches/{match}")).status_code

    assert asyncio.run(serving(app, go)) == 200
