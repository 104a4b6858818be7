"""A match the process does not hold yet is read from the database and its moves replayed
before it is served: for a long match (the server allows 5,000 moves) a good part of a
second. The replay holds up nobody else: not the event loop (every other client's
messages), nor the load of another match (a hostile client found both waited on it)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx
import pytest

from meeple.interfaces.web import hub as hub_module
from meeple.interfaces.web.app import create_app

BODY = {"game": "edges", "options": {"board": "2x2"}, "seats": ["human", "random"]}


async def serving(app: Any, requests: Any) -> Any:
    """The application in this process, its start and stop included, over ASGI."""
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://meeple") as client:
            return await requests(client)


async def _finished(client: httpx.AsyncClient) -> str:
    created = (await client.post("/api/matches", json=BODY)).json()
    match, link = created["match"], created["seats"][0]["token"]
    token = (await client.post(f"/api/matches/{match}/join", json={"token": link})).json()
    resigned = await client.post(f"/api/matches/{match}/resign", json={"token": token["token"]})
    assert resigned.status_code == 200, resigned.text
    return str(match)


def test_a_match_being_loaded_holds_up_no_other_request_nor_load(tmp_path, monkeypatch):
    db = f"sqlite:///{tmp_path / 's.db'}"

    async def two(client: httpx.AsyncClient) -> list[str]:
        return [await _finished(client), await _finished(client)]

    slow, other = asyncio.run(serving(create_app(db, agent_workers=0), two))
    # The first match's replay waits until the test says; were it on the event loop, the
    # loop could answer nothing meanwhile, and the wait would run out (False).
    release = threading.Event()
    released: list[bool] = []
    replayed = hub_module._replayed

    def held_up(stored: Any, game: Any) -> Any:
        if stored.id == slow:
            released.append(release.wait(30))
        return replayed(stored, game)

    monkeypatch.setattr(hub_module, "_replayed", held_up)

    async def meanwhile(client: httpx.AsyncClient) -> None:
        loading = asyncio.create_task(client.get(f"/api/matches/{slow}"))
        await asyncio.sleep(0.2)  # its load under way
        games = await asyncio.wait_for(client.get("/api/games"), 20)
        assert games.status_code == 200
        another = await asyncio.wait_for(client.get(f"/api/matches/{other}"), 20)
        assert another.status_code == 200 and another.json()["status"] == "finished"
        assert not loading.done()
        release.set()
        answer = await asyncio.wait_for(loading, 20)
        assert answer.status_code == 200 and answer.json()["status"] == "finished"

    asyncio.run(serving(create_app(db, agent_workers=0), meanwhile))
    assert released == [True]


def test_a_failed_load_leaves_one_lock_for_those_still_waiting(tmp_path, monkeypatch):
    """A load that fails (the database gone a moment) woke the next request waiting on its
    lock, and dropped the lock before that request held it: a third request then made a
    lock of its own and loaded a second copy beside the second's (a hostile client's
    finding), its sockets on a copy that hears no move again."""
    from meeple.store.db import StorageUnavailable

    db = f"sqlite:///{tmp_path / 's.db'}"
    match = asyncio.run(serving(create_app(db, agent_workers=0), _finished))
    release = threading.Event()
    replayed = hub_module._replayed

    def held_up(stored: Any, game: Any) -> Any:
        release.wait(30)
        return replayed(stored, game)

    monkeypatch.setattr(hub_module, "_replayed", held_up)
    app = create_app(db, agent_workers=0)

    async def three() -> None:
        async with app.router.lifespan_context(app):
            hub = app.state.hub
            read, failed = hub.store.get, []

            def flaky(match_id: str, *args: Any, **kwargs: Any) -> Any:
                if not failed:
                    failed.append(match_id)
                    raise StorageUnavailable("the database is gone a moment (the test's)")
                return read(match_id, *args, **kwargs)

            hub.store.get = flaky
            first = asyncio.create_task(hub.get(match))
            second = asyncio.create_task(hub.get(match))  # waits on the first's lock
            await asyncio.sleep(0)
            with pytest.raises(StorageUnavailable):
                await first
            await asyncio.sleep(0.2)  # the second's load under way, held up
            third = asyncio.create_task(hub.get(match))
            await asyncio.sleep(0.2)
            release.set()
            assert await second is await third is hub.matches[match]
            assert failed == [match] and not hub._loading

    asyncio.run(three())
