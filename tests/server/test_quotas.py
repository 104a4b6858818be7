"""The per-client limits, counted as the server counts them (ClientQuotas, no server)."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from meeple.interfaces.web.client import Client
from meeple.interfaces.web.limits import ServerLimits
from meeple.interfaces.web.quotas import ClientQuotas, QuotaExceeded


def Quotas(
    creates_per_minute: int = 10,
    open_matches: int = 10,
    sockets_per_client: int = 20,
    spectators_per_match: int = 64,
    sockets_per_seat: int = 4,
    replays_per_minute: int = 20,
) -> ServerLimits:
    return ServerLimits(
        max_creates_per_minute=creates_per_minute,
        max_open_matches=open_matches,
        max_sockets_per_client=sockets_per_client,
        max_spectators_per_match=spectators_per_match,
        max_sockets_per_seat=sockets_per_seat,
        max_replays_per_minute=replays_per_minute,
    )


def _made(quotas: ClientQuotas, client: str, match: str | None = "m") -> None:
    quotas.check_create(client, lambda m: True)
    quotas.create_ended(client, match)


def test_creating_past_the_rate_is_refused_with_the_wait_and_other_clients_are_not():
    quotas = ClientQuotas(Quotas(creates_per_minute=3, open_matches=100))
    for n in range(3):
        _made(quotas, "10.0.0.1", f"m{n}")
    with pytest.raises(QuotaExceeded) as refused:
        quotas.check_create("10.0.0.1", lambda m: True)
    assert refused.value.status == 429 and refused.value.code == "rate_limited"
    assert refused.value.retry_after is not None and 1 <= refused.value.retry_after <= 61
    assert "at most 3 new matches a minute" in str(refused.value)
    quotas.check_create("10.0.0.2", lambda m: True)  # another address has its own share


def test_unfinished_matches_are_held_until_they_finish():
    quotas = ClientQuotas(Quotas(creates_per_minute=100, open_matches=2))
    unfinished = {"a", "b"}
    for match in ("a", "b"):
        quotas.check_create("c", unfinished.__contains__)
        quotas.create_ended("c", match)
    with pytest.raises(QuotaExceeded) as refused:
        quotas.check_create("c", unfinished.__contains__)
    assert refused.value.code == "too_many_open_matches"
    unfinished.discard("a")
    quotas.check_create("c", unfinished.__contains__)


def test_refused_creates_cost_nothing_and_creates_under_way_are_held_in_reserve():
    quotas = ClientQuotas(Quotas(creates_per_minute=2, open_matches=100))
    for _ in range(20):
        _made(quotas, "c", None)  # refused (bad options): not counted
    quotas.check_create("c", lambda m: True)
    quotas.check_create("c", lambda m: True)  # two under way at once
    with pytest.raises(QuotaExceeded) as refused:
        quotas.check_create("c", lambda m: True)  # a third would pass the rate with them
    assert refused.value.code == "rate_limited"
    quotas.create_ended("c", None)  # one of them refused: its place is free again
    quotas.check_create("c", lambda m: True)


def test_sockets_are_counted_per_client_and_freed_on_close():
    quotas = ClientQuotas(Quotas(sockets_per_client=2))
    quotas.open_socket("x")
    quotas.open_socket("x")
    with pytest.raises(QuotaExceeded) as refused:
        quotas.open_socket("x")
    assert refused.value.code == "too_many_connections"
    quotas.open_socket("y")
    quotas.close_socket("x")
    quotas.open_socket("x")


def test_spectators_never_keep_a_seat_s_holder_out():
    quotas = ClientQuotas(Quotas(spectators_per_match=2, sockets_per_seat=2))
    quotas.enter_match("m", None)
    quotas.enter_match("m", None)
    with pytest.raises(QuotaExceeded) as full:
        quotas.enter_match("m", None)
    assert full.value.code == "match_full_of_connections"
    for seat in (0, 0, 1):
        quotas.enter_match("m", seat)  # the match is full of spectators: seats still get in
    with pytest.raises(QuotaExceeded) as seat_full:
        quotas.enter_match("m", 0)
    assert seat_full.value.code == "seat_full_of_connections"
    quotas.leave_match("m", None)
    quotas.leave_match("m", 0)
    quotas.enter_match("m", None)
    quotas.enter_match("m", 0)
    quotas.enter_match("n", None)  # another match has its own share


# -- against a real server ---------------------------------------------------------------------
EDGES = {"game": "edges", "options": {"board": "2x2"}, "seats": ["human", "human"]}


def test_creating_too_fast_or_holding_too_many_matches_is_a_429_with_its_code(
    server_factory, tmp_path
):
    server = server_factory(
        f"sqlite:///{tmp_path / 's.db'}", 0, "--max-creates-per-minute", "3",
        "--max-open-matches", "2",
    )  # fmt: skip
    made = [httpx.post(f"{server.url}/api/matches", json=EDGES) for _ in range(2)]
    assert all(r.status_code == 200 for r in made)
    held = httpx.post(f"{server.url}/api/matches", json=EDGES)
    assert held.status_code == 429 and held.json()["code"] == "too_many_open_matches"
    # A finished match no longer counts against its maker.
    for reply in made:
        match, token = reply.json()["match"], reply.json()["seats"][0]["token"]
        resigned = httpx.post(f"{server.url}/api/matches/{match}/resign", json={"token": token})
        assert resigned.status_code == 200, resigned.text
    assert httpx.post(f"{server.url}/api/matches", json=EDGES).status_code == 200
    fast = httpx.post(f"{server.url}/api/matches", json=EDGES)
    assert fast.status_code == 429 and fast.json()["code"] == "rate_limited"
    assert 1 <= int(fast.headers["retry-after"]) <= 61
    assert "at most 3 new matches a minute" in fast.json()["error"]


def test_a_match_takes_a_bounded_number_of_spectators(server_factory, tmp_path):
    server = server_factory(
        f"sqlite:///{tmp_path / 's.db'}", 0, "--max-spectators-per-match", "2",
        "--max-sockets-per-seat", "1",
    )  # fmt: skip
    created = httpx.post(f"{server.url}/api/matches", json=EDGES).json()
    url = server.url.replace("http://", "ws://") + f"/ws/{created['match']}"

    async def refused(hello: dict, code: str) -> None:
        import websockets

        async with websockets.connect(url) as extra:
            await extra.send(json.dumps(hello))
            refusal = json.loads(await extra.recv())
            assert refusal["code"] == code, refusal
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await extra.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429

    async def go() -> None:
        watchers = [await Client(server.url, created["match"], None).connect() for _ in range(2)]
        await refused({"type": "hello", "token": None}, "match_full_of_connections")
        # Full of spectators, the match still takes its players, one socket a seat.
        token = created["seats"][0]["token"]
        player = await Client(server.url, created["match"], token).connect()
        await refused({"type": "hello", "token": token}, "seat_full_of_connections")
        await watchers[0].close()
        await asyncio.sleep(0.2)
        again = await Client(server.url, created["match"], None).connect()  # a place is free
        for client in (again, player, watchers[1]):
            await client.close()

    asyncio.run(go())


def test_spectators_at_the_default_cap_never_keep_the_players_out(server_factory, tmp_path):
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0)
    created = httpx.post(f"{server.url}/api/matches", json=EDGES).json()
    spectators = ServerLimits().max_spectators_per_match

    async def go() -> None:
        watchers = await asyncio.gather(
            *(Client(server.url, created["match"], None).connect() for _ in range(spectators))
        )
        players = [
            await Client(server.url, created["match"], seat["token"]).connect()
            for seat in created["seats"]
        ]
        assert [p.messages[0] for p in players] == [
            {"type": "welcome", "match": created["match"], "seat": n} for n in (0, 1)
        ]
        assert players[0].state["status"] == "playing"
        for client in (*players, *watchers):
            await client.close()

    asyncio.run(go())


def test_refused_creates_do_not_count_against_the_rate(server_factory, tmp_path):
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--max-creates-per-minute", "2")
    for body in (
        {"game": "edges", "options": {"board": "99x99"}},
        {"game": "edges", "seats": ["human", "mcts:seconds=86400"]},
        {"game": "chess"},
        {"game": "edges", "options": {"nonsense": 1}},
    ):
        reply = httpx.post(f"{server.url}/api/matches", json=body)
        assert reply.status_code == 400, reply.text
    made = [httpx.post(f"{server.url}/api/matches", json=EDGES) for _ in range(2)]
    assert [r.status_code for r in made] == [200, 200], [r.text for r in made]
    third = httpx.post(f"{server.url}/api/matches", json=EDGES)
    assert third.status_code == 429 and third.json()["code"] == "rate_limited"


def test_uploaded_records_are_rate_limited_per_address(server_factory, tmp_path):
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--max-replays-per-minute", "2")
    record = {"game": "edges", "seed": 1, "moves": []}
    first = httpx.post(f"{server.url}/api/replay", json=record)
    assert first.status_code == 200, first.text
    bad = httpx.post(f"{server.url}/api/replay", json={**record, "moves": [[0, "nonsense"]]})
    assert bad.status_code == 400  # a refused upload counts too: checking it was the cost
    third = httpx.post(f"{server.url}/api/replay", json=record)
    assert third.status_code == 429 and third.json()["code"] == "rate_limited", third.text
    assert "at most 2 uploaded records a minute" in third.json()["error"]
    assert 1 <= int(third.headers["retry-after"]) <= 61


def test_bodies_and_options_are_bounded(server_factory, tmp_path):
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0)
    padded = {**EDGES, "names": ["x" * 40] * 2, "padding": "y" * 100_000}
    declared = httpx.post(f"{server.url}/api/matches", json=padded)
    assert declared.status_code == 413 and declared.json()["code"] == "too_large"

    def chunks():  # no content-length: counted as it arrives
        yield b'{"game": "edges", "names": ["'
        for _ in range(200):
            yield b"z" * 1000
        yield b'"]}'

    streamed = httpx.post(
        f"{server.url}/api/matches", content=chunks(), headers={"content-type": "application/json"}
    )
    assert streamed.status_code == 413 and streamed.json()["code"] == "too_large"
    decks = {"game": "squad-combat", "options": {"decks": ",".join(["iron-line"] * 200)}}
    inflated = httpx.post(f"{server.url}/api/matches", json=decks)
    assert inflated.status_code == 413 and "--max-options-bytes" in inflated.json()["error"]
    page = httpx.get(f"{server.url}/api/matches", params={"status": "live", "limit": 5000})
    assert page.status_code == 422 and page.json()["code"] == "invalid_request"
