"""A seat taken without a name is given one, once (the ``name`` message, docs/api.md): a
friend who opens a seat's link in a browser that keeps no name goes by the seat's own
("Blue") until then."""

from __future__ import annotations

import asyncio

import pytest

from meeple.interfaces.web.client import Client
from tests import plain_http
from tests.server.conftest import module_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with module_server(tmp_path_factory, "names", 0) as server:
        yield server


def _names(state: dict) -> list[str | None]:
    return [seat["name"] for seat in state["seats"]]


def _codes(client: Client) -> list[str]:
    return [m["code"] for m in client.messages if m["type"] == "error"]


async def _refused(client: Client, message: dict, code: str) -> None:
    before = len(_codes(client))
    await client.send(message)
    await client.wait_for(lambda: len(_codes(client)) > before, timeout=10)
    assert _codes(client)[-1] == code, client.messages[-1]


def test_a_seat_taken_without_a_name_is_named_once_and_everyone_sees_it(server):
    async def scenario() -> None:
        created = plain_http.post(
            f"{server.url}/api/matches",
            json={"game": "erd", "seats": ["human", "human"], "names": ["Ann", None]},
        ).json()
        match = created["match"]
        ann = await Client(server.url, match, created["seats"][0]["token"]).connect()
        bea = await Client(server.url, match, created["seats"][1]["token"]).connect()
        watcher = await Client(server.url, match, None).connect()
        assert _names(bea.state) == ["Ann", "Blue"]  # the seat's own, until named
        # Another person's name, in any case, with lookalike or invisible letters; another
        # seat's own name; a name that reads as the computer's; the seat's own name.
        for copy in ("ann", "\u0410nn", "\uff21nn", "A\u00adnn", "Ann\u200b", "Ann\u3164", "Red"):
            await _refused(bea, {"type": "name", "name": copy}, "name_taken")
        await _refused(bea, {"type": "name", "name": "blue"}, "conflict")
        await _refused(bea, {"type": "name", "name": "Computer"}, "bad_message")
        await _refused(watcher, {"type": "name", "name": "Eve"}, "spectator")
        await bea.send({"type": "name", "name": "  Bea  "})
        for client in (ann, bea, watcher):
            await client.wait_for(lambda c=client: _names(c.state) == ["Ann", "Bea"], timeout=10)
        # Once: a seat named (by its hello, or here) keeps its name.
        await _refused(bea, {"type": "name", "name": "Bob"}, "name_set")
        await _refused(ann, {"type": "name", "name": "Anna"}, "name_set")
        summary = plain_http.get(f"{server.url}/api/matches/{match}").json()
        assert [s["name"] for s in summary["seats"]] == ["Ann", "Bea"]
        # The match over, its names stay as they were (a record holds them).
        for client in (ann, bea):
            await client.send({"type": "resign"})
        await ann.wait_for(lambda: ann.state["status"] == "finished", timeout=10)
        record = plain_http.get(f"{server.url}/api/matches/{match}/record").json()
        assert record["seats"] == ["Ann", "Bea"]
        for client in (ann, bea, watcher):
            await client.close()

    asyncio.run(scenario())


def test_a_finished_match_s_unnamed_seat_keeps_the_seat_s_name(server):
    async def scenario() -> None:
        created = plain_http.post(
            f"{server.url}/api/matches",
            json={"game": "edges", "options": {"board": "2x2"}, "seats": ["human", "human"]},
        ).json()
        match = created["match"]
        red = await Client(server.url, match, created["seats"][0]["token"]).connect()
        await red.send({"type": "resign"})
        await red.wait_for(lambda: red.state["status"] == "finished", timeout=10)
        await _refused(red, {"type": "name", "name": "Late"}, "conflict")
        await red.close()

    asyncio.run(scenario())


def test_a_tutorial_s_seat_keeps_its_name(server):
    async def scenario() -> None:
        started = plain_http.post(f"{server.url}/api/tutorials/edges", json={}).json()
        learner = await Client(server.url, started["match"], started["seats"][0]["token"]).connect()
        before = _names(learner.state)
        await _refused(learner, {"type": "name", "name": "Lea"}, "conflict")
        assert "tutorial" in learner.messages[-1]["message"]
        assert _names(learner.state) == before
        await learner.close()

    asyncio.run(scenario())
