"""Claiming from a person who went away (docs/api.md, "Presence, clocks, resigning"),
against real server processes.

A person whose page has been closed for ``--claim-seconds`` while the match waits on them
may be claimed from by another person of the match: with two seats the claimant wins, with
more the computer takes the absent seat. A person who is here, whom nobody waits for, or
who left only a moment ago keeps their seat; a spectator, the computer or a tutorial
claims nothing.
"""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from meeple.interfaces.web.client import Client, ServerProcess
from tests import plain_http


def _serving(tmp_path_factory, claim_seconds: str):
    folder = tmp_path_factory.mktemp(f"claims-{claim_seconds}")
    server = ServerProcess(
        f"sqlite:///{folder / 'server.db'}",
        folder / "server.log",
        0,
        ("--claim-seconds", claim_seconds),
    )
    yield server.start()
    server.stop()
    assert "Traceback" not in server.log_path.read_text()


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """A server where half a second away is long enough to be claimed from."""
    yield from _serving(tmp_path_factory, "0.5")


@pytest.fixture(scope="module")
def patient(tmp_path_factory):
    """A server where ten minutes away are needed: every claim in a test is too soon."""
    yield from _serving(tmp_path_factory, "600")


@pytest.fixture(scope="module")
def never(tmp_path_factory):
    """A server where nobody may be claimed from (several processes, unrouted)."""
    yield from _serving(tmp_path_factory, "0")


def _create(server: ServerProcess, **body) -> dict:
    reply = plain_http.post(f"{server.url}/api/matches", json=body, timeout=30)
    assert reply.status_code == 200, reply.text
    return reply.json()


def _summary(server: ServerProcess, match: str) -> dict:
    return plain_http.get(f"{server.url}/api/matches/{match}", timeout=30).json()


def _claim(server: ServerProcess, match: str, token: str, seat: int) -> httpx.Response:
    body = {"token": token, "seat": seat}
    return plain_http.post(f"{server.url}/api/matches/{match}/claim", json=body, timeout=30)


def _refused(reply: httpx.Response, says: str) -> None:
    assert reply.status_code == 409, reply.text
    assert reply.json()["code"] == "not_claimable", reply.text
    assert says in reply.json()["error"], reply.text


def _seats(client: Client) -> list[dict]:
    """The seats as ``client`` last heard of them (a state or a presence message)."""
    return [m for m in client.messages if m["type"] in ("state", "presence")][-1]["seats"]


async def _seated(server: ServerProcess, created: dict) -> list[Client]:
    return [
        await Client(server.url, created["match"], s["token"]).connect() for s in created["seats"]
    ]


def test_the_claimant_wins_a_two_seat_match_the_absent_person_does_not_come_back_to(quick):
    async def go() -> str:
        # Erd's choices are simultaneous: both seats are to act, so the match waits on both.
        created = _create(quick, game="erd", seats=["human", "human"])
        a, b = await _seated(quick, created)
        await a.wait_for(lambda: [s["away"] for s in _seats(a)] == [None, None])
        await b.close()
        await a.wait_for(lambda: _seats(a)[1]["connected"] is False)
        assert 0 <= _seats(a)[1]["away"] < 0.5  # the page counts from here
        await asyncio.sleep(0.7)
        await a.send({"type": "claim", "seat": 1})
        await a.wait_for(lambda: a.state["status"] == "finished")
        result = a.state["result"]
        assert result["winners"] == [0] and result["abandoned"] == [1]
        assert result["returns"] == [1.0, -1.0]
        assert "left the match" in result["reason"] and "claimed the win" in result["reason"]
        assert a.state["seats"][1]["abandoned"] and a.state["seats"][1]["resigned"]
        await a.close()

        return created["match"]

    match = asyncio.run(go())
    assert _summary(quick, match)["result"]["abandoned"] == [1]  # as stored


def test_with_three_seats_the_computer_takes_the_absent_seat_and_the_match_goes_on(quick):
    async def go() -> None:
        created = _create(quick, game="erosion", options={"players": 3}, seats=["human"] * 3)
        match = created["match"]
        clients = await _seated(quick, created)
        tokens = [c.token for c in clients]
        waiting_on = clients[0].state["to_act"]
        assert len(waiting_on) == 1
        gone = waiting_on[0]
        claimant = (gone + 1) % 3
        await clients[gone].close()
        await clients[claimant].wait_for(
            lambda: _seats(clients[claimant])[gone]["connected"] is False
        )
        await asyncio.sleep(0.7)
        reply = _claim(quick, match, tokens[claimant], gone)
        assert reply.status_code == 200, reply.text
        seat = reply.json()["seats"][gone]
        assert seat["kind"] == "agent" and seat["abandoned"] and seat["resigned"]
        # The absent person, back, cannot give the seat up a second time.
        again = plain_http.post(
            f"{quick.url}/api/matches/{match}/resign", json={"token": tokens[gone]}, timeout=30
        )
        assert again.status_code == 409 and again.json()["code"] == "conflict", again.text
        assert "has left the match already" in again.json()["error"]
        # the computer plays the seat: the match moves on past it. Its first move on this
        # server starts an agent worker (a process importing meeple and loading the game's
        # compiled kernels): on a loaded machine that took past the usual 30 s.
        await clients[claimant].wait_for(lambda: clients[claimant].state["seq"] > 0, timeout=120)
        assert _summary(quick, match)["status"] == "playing"
        for c in clients:
            await c.close()

    asyncio.run(go())


def test_a_person_who_is_here_or_not_waited_on_keeps_their_seat(quick):
    async def go() -> None:
        created = _create(quick, game="edges", options={"board": "2x2"}, seats=["human", "human"])
        match = created["match"]
        a, b = await _seated(quick, created)
        # a's page heard the match begin once b's came (its first state may be "waiting").
        await a.wait_for(lambda: a.state["to_act"])
        first = a.state["to_act"][0]
        other = 1 - first
        clients = {0: a, 1: b}
        tokens = [a.token, b.token]
        # here: the page of the seat to act is open
        await asyncio.sleep(0.7)
        _refused(_claim(quick, match, tokens[other], first), "is here")
        # not waited on: the seat that went away is not the one to act
        await clients[other].close()
        await asyncio.sleep(0.7)
        _refused(_claim(quick, match, tokens[first], other), "not waiting on")
        # nor oneself, nor a seat the match does not have
        _refused(_claim(quick, match, tokens[first], first), "not another seat")
        _refused(_claim(quick, match, tokens[first], 5), "not another seat")
        # a spectator claims nothing
        watcher = await Client(quick.url, match, None).connect()
        await watcher.send({"type": "claim", "seat": other})
        await watcher.wait_for(lambda: watcher.errors)
        assert "token is needed to claim" in watcher.errors[-1]
        assert _summary(quick, match)["status"] == "playing"
        for c in (a, watcher):
            await c.close()

    asyncio.run(go())


def test_a_private_match_s_seat_is_not_given_up_and_an_open_seat_is_not_claimed_from(quick):
    """A seat given up is open to anyone from the lobby, but a private match's seats are
    taken only with their links: its seat given up was open to nobody, the match waited on
    it for good (against the computer as well), and claiming from it said the seat's person
    was "here". A private match's seat is not given up; a listed match's open seat is said
    to be open."""

    def leave(match: str, token: str) -> httpx.Response:
        body = {"token": token}
        return plain_http.post(f"{quick.url}/api/matches/{match}/leave", json=body, timeout=30)

    async def go() -> None:
        for seats in (["human", "human"], ["human", "random"]):
            created = _create(quick, game="edges", seats=seats, listed=False)
            match = created["match"]
            clients = await _seated(quick, created)
            mine = clients[0]
            token = mine.token
            await mine.wait_for(lambda mine=mine: mine.state["status"] == "playing")
            refused = leave(match, token)
            assert refused.status_code == 409 and refused.json()["code"] == "private_seat"
            assert "Resign instead" in refused.json()["error"]
            assert _summary(quick, match)["seats"][0]["joined"]  # kept, token and all
            assert plain_http.post(
                f"{quick.url}/api/matches/{match}/resign", json={"token": token}, timeout=30
            ).is_success
            for c in clients:
                await c.close()
        created = _create(quick, game="edges", seats=["human", "human"])
        match = created["match"]
        a, b = await _seated(quick, created)
        tokens = [a.token, b.token]
        await a.wait_for(lambda: a.state["status"] == "playing")
        assert leave(match, tokens[1]).status_code == 200
        await a.wait_for(lambda: not _seats(a)[1]["joined"])
        await asyncio.sleep(0.7)
        _refused(_claim(quick, match, tokens[0], 1), "Blue's seat is open (its person gave it up)")
        for c in (a, b):
            await c.close()

    asyncio.run(go())


def test_the_computer_and_a_finished_match_are_not_claimed_from(quick):
    created = _create(quick, game="edges", seats=["human", "easy"])
    link = created["seats"][0]["token"]
    _refused(_claim(quick, created["match"], link, 1), "being played")  # not yet joined
    token = plain_http.take_seat(quick.url, created["match"], link)
    _refused(_claim(quick, created["match"], token, 1), "played by the computer")
    assert plain_http.post(
        f"{quick.url}/api/matches/{created['match']}/resign", json={"token": token}, timeout=30
    ).is_success
    _refused(_claim(quick, created["match"], token, 1), "being played")


def test_a_tutorial_has_nobody_to_claim_from(quick):
    made = plain_http.post(f"{quick.url}/api/tutorials/edges", json={}, timeout=30)
    assert made.status_code == 200, made.text
    token = made.json()["seats"][0]["token"]
    seat = made.json()["seats"][0]["seat"]
    _refused(_claim(quick, made.json()["match"], token, 1 - seat), "tutorial")


def test_a_person_away_less_than_the_claim_seconds_keeps_their_seat(patient):
    created = _create(patient, game="erd", seats=["human", "human"])
    match = created["match"]
    # Taken, and no page open: away since the server took the match.
    tokens = [plain_http.take_seat(patient.url, match, s["token"]) for s in created["seats"]]
    started = time.monotonic()
    reply = _claim(patient, match, tokens[0], 1)
    _refused(reply, "after 600 s away")
    left = int(reply.json()["error"].rsplit("in ", 1)[1].split()[0])
    assert 600 - (time.monotonic() - started) - 2 <= left <= 600
    away = _summary(patient, match)["seats"][1]["away"]
    assert 0 <= away < 60


def test_a_server_with_claims_off_refuses_them_and_its_pages_count_down_to_none(never):
    async def go() -> None:
        created = _create(never, game="erd", seats=["human", "human"])
        a, b = await _seated(never, created)
        assert next(m for m in a.messages if m["type"] == "welcome")["claim_seconds"] is None
        await b.close()
        await a.wait_for(lambda: _seats(a)[1]["connected"] is False)
        await a.send({"type": "claim", "seat": 1})
        await a.wait_for(lambda: a.errors)
        assert "--claim-seconds 0" in a.errors[-1]
        assert a.state["status"] == "playing"
        await a.close()

    asyncio.run(go())
