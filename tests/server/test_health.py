"""``GET /api/health`` (and ``HEAD``), for uptime checks and load balancers: 200 while the
server serves, 503 while its database takes no move (within a bound: a hung connection must
not hang the check) and once it is stopping (so that no new client is sent to a server
going away). The frozen PostgreSQL of tests/server/test_frozen_database.py is checked there
too."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from typing import Any

import httpx

from meeple.interfaces.web import app as app_module
from meeple.interfaces.web.app import create_app
from meeple.store.db import StorageUnavailable
from tests.server.test_match_loading import serving


def test_health_says_ok_then_why_not(tmp_path, monkeypatch):
    monkeypatch.setattr(app_module, "HEALTH_SECONDS", 0.5)
    app = create_app(f"sqlite:///{tmp_path / 'h.db'}", agent_workers=0)
    store = app.state.hub.store
    release = threading.Event()
    asked: list[float] = []

    def hangs() -> None:  # a connection that hangs
        asked.append(time.monotonic())
        release.wait(30)

    async def checks(client: httpx.AsyncClient) -> list[Any]:
        answers = [await client.get("/api/health"), await client.head("/api/health")]
        store.ping = hangs
        began = time.monotonic()
        answers += await asyncio.gather(*(client.get("/api/health") for _ in range(4)))
        answers.append(time.monotonic() - began)
        release.set()

        def down() -> None:
            raise StorageUnavailable("the database refused the connection (the test's)")

        await asyncio.sleep(0.05)  # the hung check ends: the next one asks again
        store.ping = down
        answers.append(await client.get("/api/health"))
        app.state.hub.stopping = True
        answers.append(await client.get("/api/health"))
        app.state.hub.stopping = False
        return answers

    ok, head, *hung, waited, down, stopping = asyncio.run(serving(app, checks))
    assert ok.status_code == 200 and ok.json() == {"status": "ok", "database": "ok"}
    assert head.status_code == 200 and head.content == b""  # some monitors ask HEAD
    for answer in hung:
        assert answer.status_code == 503 and answer.json() == {
            "error": "the database did not answer within 0.5 s",
            "code": "storage_unavailable",
        }
    assert waited < 5, waited
    # Four checks at once asked the hung database once: each held a thread past its answer.
    assert len(asked) == 1, asked
    # The driver's reason (a host, a file) stays in the log, as for every request.
    assert down.status_code == 503 and down.json() == {
        "error": "the database takes no move now",
        "code": "storage_unavailable",
    }
    assert stopping.status_code == 503 and stopping.json() == {
        "error": "the server is stopping",
        "code": "unavailable",
    }


def test_health_is_503_while_another_process_holds_sqlite_s_write_lock(tmp_path, monkeypatch):
    """A SELECT passed (a 'healthy' server) while every move waited 30 s and failed."""
    monkeypatch.setattr(app_module, "HEALTH_SECONDS", 0.5)
    path = tmp_path / "locked.db"
    app = create_app(f"sqlite:///{path}?timeout=1", agent_workers=0)
    other = sqlite3.connect(path, isolation_level=None)

    async def checks(client: httpx.AsyncClient) -> list[httpx.Response]:
        before = await client.get("/api/health")
        other.execute("BEGIN IMMEDIATE")
        held = await client.get("/api/health")
        other.execute("ROLLBACK")
        await asyncio.sleep(1.5)  # the held check's thread gives up (timeout=1)
        return [before, held, await client.get("/api/health")]

    try:
        before, held, after = asyncio.run(serving(app, checks))
    finally:
        other.close()
    assert [before.status_code, held.status_code, after.status_code] == [200, 503, 200]
    assert held.json()["code"] == "storage_unavailable"
