"""Hints (POST /api/matches/{id}/hint) against a real server process: given in a game
against the computer, refused between people and past the per-address rate, and computed
from the asking seat's information only."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from meeple.interfaces.web.client import Client, ServerProcess
from meeple.interfaces.web.pool import hint_move
from tests import plain_http
from tests.server.conftest import module_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with module_server(tmp_path_factory, "hints", 1, ("--max-hints-per-minute", "3")) as server:
        yield server


def create(server, **body) -> dict:
    reply = plain_http.post(f"{server.url}/api/matches", json=body)
    assert reply.status_code == 200, reply.text
    return reply.json()


def ask(server, match: str, token: str) -> httpx.Response:
    return plain_http.post(
        f"{server.url}/api/matches/{match}/hint", json={"token": token}, timeout=60
    )


async def my_turn(server, created: dict) -> dict:
    """The state once the person's seat has a decision to make. The seat is taken with its
    link: ``created`` holds the seat's own token from then on."""
    client = await Client(server.url, created["match"], created["seats"][0]["token"]).connect()
    created["seats"][0]["token"] = client.token
    try:
        await client.wait_for(client.my_turn, 60)
        return client.state
    finally:
        await client.close()


def test_a_hint_against_the_computer_is_a_legal_move_with_a_why_and_is_cached(server):
    created = create(server, game="edges", seats=["human", "greedy"])
    state = asyncio.run(my_turn(server, created))
    reply = ask(server, created["match"], created["seats"][0]["token"])
    assert reply.status_code == 200, reply.text
    hint = reply.json()
    assert hint["best"] in {m["text"] for m in state["legal"]}
    assert hint["seq"] == state["seq"] and hint["seat"] == state["seat"]
    assert hint["judge"].startswith(("uct", "exact")) and "square" in hint["why"]
    # Asked again at the same decision: the same hint (computed once, kept).
    assert ask(server, created["match"], created["seats"][0]["token"]).json() == hint


def test_hints_are_refused_between_people_and_for_a_turn_not_yours(server):
    created = create(server, game="edges", seats=["human", "human"])
    for seat in created["seats"]:
        reply = ask(server, created["match"], seat["token"])
        assert reply.status_code == 403 and reply.json()["code"] == "hints_off"
        assert "against the computer" in reply.json()["error"]
    bad = ask(server, created["match"], "x" * 32)
    assert bad.status_code == 403 and bad.json()["code"] == "bad_token"


def test_hints_past_the_rate_are_refused_with_the_wait(tmp_path, server_factory):
    server = server_factory(f"sqlite:///{tmp_path / 'rate.db'}", 1, "--max-hints-per-minute", "2")
    created = create(server, game="edges", seats=["human", "greedy"])
    asyncio.run(my_turn(server, created))
    token = created["seats"][0]["token"]
    assert [ask(server, created["match"], token).status_code for _ in range(2)] == [200, 200]
    refused = ask(server, created["match"], token)
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert "at most 2 hints a minute" in refused.json()["error"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 61


def test_a_hint_never_sees_the_computers_hidden_choice(server):
    """Erd's seats allocate at once: the computer has chosen (its choice stored, hidden from
    the person) when the person asks. The hint is the one computed with no choice made: the
    computer's allocation changes nothing in it."""
    created = create(server, game="erd", seats=["human", "random"], seed=11)
    state = asyncio.run(my_turn(server, created))

    async def chosen() -> None:
        client = await Client(server.url, created["match"], created["seats"][0]["token"]).connect()
        await client.wait_for(lambda: 1 in client.state["chosen"], 60)
        await client.close()

    asyncio.run(chosen())
    reply = ask(server, created["match"], created["seats"][0]["token"])
    assert reply.status_code == 200, reply.text
    hint = reply.json()
    assert hint["seq"] == 1  # the computer's allocation is stored
    unseen = hint_move("erd", {}, 11, [], 0, 20_000, 12)
    assert {k: hint[k] for k in unseen} == unseen
    assert hint["best"] in {m["text"] for m in state["legal"]}


def test_an_erd_hint_is_the_equilibrium_s_whatever_the_computer_level(tmp_path, monkeypatch):
    """Against a computer that needs no solved rules (``random``), on a server whose solver
    cache is empty, the hint still comes from the solved game: the server solves the shipped
    rules first (in a process of its own, off the request path), as for its hard opponent."""
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path / "cache"))
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", tmp_path / "s.log", 1).start()
    try:
        created = create(server, game="erd", seats=["human", "random"], seed=12)
        asyncio.run(my_turn(server, created))
        reply = plain_http.post(
            f"{server.url}/api/matches/{created['match']}/hint",
            json={"token": created["seats"][0]["token"]},
            timeout=300,
        )
        assert reply.status_code == 200, reply.text
        assert reply.json()["judge"] == "equilibrium", reply.json()
    finally:
        server.kill()
