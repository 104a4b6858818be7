"""``GET /api/health``, for uptime checks and load balancers: 200 while the server serves,
503 while its database does not answer (within a bound: a hung connection must not hang the
check) and once it is stopping (so that no new client is sent to a server going away). The
frozen PostgreSQL of tests/server/test_frozen_database.py is checked there too."""

from __future__ import annotations

import asyncio
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

    async def checks(client: httpx.AsyncClient) -> list[Any]:
        answers = [await client.get("/api/health")]
        store.ping = lambda: release.wait(30)  # a connection that hangs
        began = time.monotonic()
        answers.append(await client.get("/api/health"))
        answers.append(time.monotonic() - began)
        release.set()

        def down() -> None:
            raise StorageUnavailable("the database refused the connection (the test's)")

        store.ping = down
        answers.append(await client.get("/api/health"))
        app.state.hub.stopping = True
        answers.append(await client.get("/api/health"))
        app.state.hub.stopping = False
        return answers

    ok, hung, waited, down, stopping = asyncio.run(serving(app, checks))
    assert ok.status_code == 200 and ok.json() == {"status": "ok", "database": "ok"}
    assert hung.status_code == 503 and hung.json() == {
        "error": "the database did not answer within 0.5 s",
        "code": "storage_unavailable",
    }
    assert waited < 5, waited
    # The driver's reason (a host, a file) stays in the log, as for every request.
    assert down.status_code == 503 and down.json()["code"] == "storage_unavailable"
    assert "the test's" not in down.text
    assert stopping.status_code == 503 and stopping.json() == {
        "error": "the server is stopping",
        "code": "unavailable",
    }
