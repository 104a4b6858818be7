"""The per-client limits, counted as the server counts them (ClientQuotas, no server)."""

from __future__ import annotations

import asyncio
import json

import pytest

from meeple.interfaces.web.client import Client
from meeple.interfaces.web.limits import ServerLimits
from meeple.interfaces.web.quotas import FORGET_AFTER, SEAT_SOCKETS, ClientQuotas, QuotaExceeded
from tests import plain_http


def Quotas(
    creates_per_minute: int = 10,
    open_matches: int = 10,
    sockets_per_client: int = 20,
    sockets_per_match: int = 64,
) -> ServerLimits:
    return ServerLimits(
        max_creates_per_minute=creates_per_minute,
        max_open_matches=open_matches,
        max_sockets_per_client=sockets_per_client,
        max_sockets_per_match=sockets_per_match,
    )


def create(quotas: ClientQuotas, client: str, unfinished, match: str | None = "m") -> None:
    """One creation through ``quotas.creating``; ``match`` None: the creation fails."""

    async def go() -> None:
        async with quotas.creating(client, unfinished) as made:
            if match is None:
                raise ValueError("bad options")
            made["match"] = match

    if match is None:
        with pytest.raises(ValueError):
            asyncio.run(go())
    else:
        asyncio.run(go())


def test_creating_past_the_rate_is_refused_with_the_wait_and_other_clients_are_not():
    quotas = ClientQuotas(Quotas(creates_per_minute=3, open_matches=100))
    for k in range(3):
        create(quotas, "10.0.0.1", lambda m: False, f"m{k}")
    with pytest.raises(QuotaExceeded) as refused:
        create(quotas, "10.0.0.1", lambda m: False)
    assert refused.value.status == 429 and refused.value.code == "rate_limited"
    assert refused.value.retry_after is not None and 1 <= refused.value.retry_after <= 61
    assert "at most 3 new matches a minute" in str(refused.value)
    create(quotas, "10.0.0.2", lambda m: False)  # another address has its own share


def test_a_refused_creation_does_not_count_against_the_rate():
    quotas = ClientQuotas(Quotas(creates_per_minute=2, open_matches=100))
    for _ in range(5):
        create(quotas, "c", lambda m: False, None)  # bad options, five times
    create(quotas, "c", lambda m: False, "a")
    create(quotas, "c", lambda m: False, "b")
    with pytest.raises(QuotaExceeded):
        create(quotas, "c", lambda m: False)


def test_creations_in_flight_count_so_a_burst_cannot_pass_the_rate():
    quotas = ClientQuotas(Quotas(creates_per_minute=2, open_matches=100))

    async def burst() -> list[object]:
        started = asyncio.Event()

        async def one(k: int) -> str:
            async with quotas.creating("c", lambda m: False) as made:
                started.set()
                await asyncio.sleep(0.05)
                made["match"] = f"m{k}"
            return "made"

        return await asyncio.gather(*(one(k) for k in range(5)), return_exceptions=True)

    results = asyncio.run(burst())
    assert results.count("made") == 2
    assert all(isinstance(r, QuotaExceeded) for r in results if r != "made")


def test_unfinished_matches_are_held_until_they_finish():
    quotas = ClientQuotas(Quotas(creates_per_minute=100, open_matches=2))
    unfinished = {"a", "b"}
    for match in ("a", "b"):
        create(quotas, "c", unfinished.__contains__, match)
    with pytest.raises(QuotaExceeded) as refused:
        create(quotas, "c", unfinished.__contains__)
    assert refused.value.code == "too_many_open_matches"
    unfinished.discard("a")
    create(quotas, "c", unfinished.__contains__)


def test_addresses_whose_matches_finished_are_not_kept_for_ever():
    """Each address that made a match has an entry in the count of open matches; one whose
    matches are all over and that never comes back must not keep it for the life of the
    process (many addresses, one match each, would fill the memory)."""
    quotas = ClientQuotas(Quotas(creates_per_minute=100, open_matches=1))
    unfinished: set[str] = set()
    for k in range(2000):
        unfinished.add(f"m{k}")
        create(quotas, f"10.{k // 250}.{k % 250}.1", unfinished.__contains__, f"m{k}")
        if k % 10:  # one match in ten is still being played; the others finish
            unfinished.discard(f"m{k}")
        assert quotas.holders <= max(FORGET_AFTER, 2 * len(unfinished)) + 1
    # An address that still holds its match keeps its count when others are forgotten...
    with pytest.raises(QuotaExceeded) as refused:
        create(quotas, "10.0.0.1", unfinished.__contains__, "again")
    assert refused.value.code == "too_many_open_matches"
    # ...and one whose match finished may make another.
    create(quotas, "10.0.1.1", unfinished.__contains__, "again")


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


def test_spectators_are_bounded_per_match_and_never_keep_a_seat_holder_out():
    quotas = ClientQuotas(Quotas(sockets_per_match=3))
    for _ in range(3):
        quotas.watch("m", None)
    with pytest.raises(QuotaExceeded) as full:
        quotas.watch("m", None)
    assert full.value.code == "match_full_of_connections"
    quotas.watch("m", 0)  # the player still gets in
    quotas.watch("m", 1)
    quotas.watch("n", None)  # another match has its own share
    quotas.unwatch("m", None)
    quotas.watch("m", None)
    for _ in range(SEAT_SOCKETS - 1):
        quotas.watch("m", 0)
    with pytest.raises(QuotaExceeded) as seat:
        quotas.watch("m", 0)
    assert seat.value.code == "too_many_connections"


@pytest.mark.parametrize(
    ("limit", "check", "what"),
    [
        ("max_replays_per_minute", "check_replay", "uploaded records"),
        ("max_messages_per_minute", "check_message", "WebSocket messages"),
        ("max_requests_per_minute", "check_request", "requests to the API"),
        ("max_boards_per_minute", "check_board_text", "boards as text"),
        ("max_hints_per_minute", "check_hint", "hints"),
    ],
)
def test_each_rate_is_counted_per_client_and_refused_past_it(limit, check, what):
    quotas = ClientQuotas(ServerLimits(**{limit: 3}))
    for _ in range(3):
        getattr(quotas, check)("c")
    with pytest.raises(QuotaExceeded) as refused:
        getattr(quotas, check)("c")
    assert refused.value.status == 429 and refused.value.code == "rate_limited"
    assert 1 <= refused.value.retry_after <= 61
    assert f"at most 3 {what} a minute from one address" in str(refused.value)
    getattr(quotas, check)("d")  # another address has its own share


# -- against a real server ---------------------------------------------------------------------
EDGES = {"game": "edges", "options": {"board": "2x2"}, "seats": ["human", "human"]}


def test_an_address_asking_the_api_past_its_rate_is_refused_and_its_pages_still_load(
    server_factory, tmp_path
):
    """A plain REST request (a game's rules for new options: tens of milliseconds of the
    server's time each) had no rate at all, so one address could keep the server busy by
    asking; now every /api/ request counts, while the pages and their files, a score of
    them to a page, do not, and a WebSocket's messages keep their own rate."""
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--max-requests-per-minute", "6")
    # Each with options never asked before, the costliest plain request. The server's start
    # was awaited by asking the API too, so fewer than six are answered here.
    rules = f"{server.url}/api/games/erd/rules"
    answers = [
        plain_http.get(rules, params={"options": f'{{"best_of": {n}}}'}) for n in range(1, 16, 2)
    ]
    codes = [r.status_code for r in answers]
    answered = codes.index(429)
    assert 3 <= answered <= 5 and set(codes[:answered]) == {200}, codes
    refused = answers[answered]
    assert refused.json()["code"] == "rate_limited"
    assert 1 <= int(refused.headers["retry-after"]) <= 61
    assert "at most 6 requests to the API a minute from one address" in refused.json()["error"]
    for page in ("/", "/static/js/lobby.js", "/static/style.css"):
        assert plain_http.get(f"{server.url}{page}").status_code == 200, page


def test_creating_too_fast_or_holding_too_many_matches_is_a_429_with_its_code(
    server_factory, tmp_path
):
    server = server_factory(
        f"sqlite:///{tmp_path / 's.db'}", 0, "--max-creates-per-minute", "3",
        "--max-open-matches", "2",
    )  # fmt: skip
    made = [plain_http.post(f"{server.url}/api/matches", json=EDGES) for _ in range(2)]
    assert all(r.status_code == 200 for r in made)
    held = plain_http.post(f"{server.url}/api/matches", json=EDGES)
    assert held.status_code == 429 and held.json()["code"] == "too_many_open_matches"
    # A finished match no longer counts against its maker.
    for reply in made:
        match, token = reply.json()["match"], reply.json()["seats"][0]["token"]
        resigned = plain_http.post(
            f"{server.url}/api/matches/{match}/resign", json={"token": token}
        )
        assert resigned.status_code == 200, resigned.text
    assert plain_http.post(f"{server.url}/api/matches", json=EDGES).status_code == 200
    fast = plain_http.post(f"{server.url}/api/matches", json=EDGES)
    assert fast.status_code == 429 and fast.json()["code"] == "rate_limited"
    assert 1 <= int(fast.headers["retry-after"]) <= 61
    assert "at most 3 new matches a minute" in fast.json()["error"]


def test_only_making_a_rematch_counts_against_the_rate_of_new_matches(server_factory, tmp_path):
    """Asking again for a rematch made already creates nothing: it is answered (here with
    the person's untaken seat) past the address's rate of new matches, not refused by it."""
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--max-creates-per-minute", "2")
    against = {**EDGES, "seats": ["human", "random"]}
    made = plain_http.post(f"{server.url}/api/matches", json=against).json()
    old = f"{server.url}/api/matches/{made['match']}"
    token = {"token": plain_http.take_seat(server.url, made["match"], made["seats"][0]["token"])}
    assert plain_http.post(f"{old}/resign", json=token).status_code == 200
    first = plain_http.post(f"{old}/rematch", json=token)
    assert first.status_code == 200 and first.json()["seat"] is not None, first.text
    again = plain_http.post(f"{old}/rematch", json=token)  # the address's 2 are made
    assert again.status_code == 200, again.text
    assert again.json()["match"] == first.json()["match"]
    assert again.json()["seat"]["token"] != first.json()["seat"]["token"]
    more = plain_http.post(f"{server.url}/api/matches", json=EDGES)
    assert more.status_code == 429 and more.json()["code"] == "rate_limited"


def test_a_match_takes_a_bounded_number_of_spectators_and_always_its_players(
    server_factory, tmp_path
):
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--max-sockets-per-match", "2")
    created = plain_http.post(f"{server.url}/api/matches", json=EDGES).json()

    async def go() -> None:
        import websockets

        watchers = [await Client(server.url, created["match"], None).connect() for _ in range(2)]
        url = server.url.replace("http://", "ws://") + f"/ws/{created['match']}"
        async with websockets.connect(url) as third:
            await third.send(json.dumps({"type": "hello"}))
            refusal = json.loads(await third.recv())
            assert refusal["code"] == "match_full_of_connections"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await third.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        # The players are never kept out by spectators.
        for seat in created["seats"]:
            player = await Client(server.url, created["match"], seat["token"]).connect()
            assert player.state is not None and player.state["seat"] == seat["seat"]
            await player.close()
        await watchers[0].close()
        await asyncio.sleep(0.2)
        again = await Client(server.url, created["match"], None).connect()  # a place is free
        await again.close()
        await watchers[1].close()

    asyncio.run(go())


def test_bodies_and_options_are_bounded(server_factory, tmp_path):
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0)
    padded = {**EDGES, "names": ["x" * 40] * 2, "padding": "y" * 100_000}
    declared = plain_http.post(f"{server.url}/api/matches", json=padded)
    assert declared.status_code == 413 and declared.json()["code"] == "too_large"
    # Named with the flag that sets it, and written as every other answer is (no spaces).
    assert declared.json()["error"].endswith("bytes (--max-body-bytes)")
    assert declared.text.startswith('{"error":"the request body is too large')

    def chunks():  # no content-length: counted as it arrives
        yield b'{"game": "edges", "names": ["'
        for _ in range(200):
            yield b"z" * 1000
        yield b'"]}'

    streamed = plain_http.post(
        f"{server.url}/api/matches", content=chunks(), headers={"content-type": "application/json"}
    )
    assert streamed.status_code == 413 and streamed.json()["code"] == "too_large"
    # Each logged as the client was answered: declared too large was not logged at all,
    # and a streamed one as the app's refusal of the body cut short ('bad_json').
    log = server.log_path.read_text()
    said = [line for line in log.splitlines() if "POST /api/matches" in line]
    assert sum("refused (too_large): the request body is too large" in line for line in said) == 2
    assert not [line for line in said if "bad_json" in line or "invalid_request" in line], said
    decks = {"game": "squad-combat", "options": {"decks": ",".join(["iron-line"] * 200)}}
    inflated = plain_http.post(f"{server.url}/api/matches", json=decks)
    assert inflated.status_code == 413 and "--max-options-bytes" in inflated.json()["error"]
    page = plain_http.get(f"{server.url}/api/matches", params={"status": "live", "limit": 5000})
    assert page.status_code == 422 and page.json()["code"] == "invalid_request"


def test_a_refused_create_does_not_use_up_the_rate_and_replays_are_limited(
    server_factory, tmp_path
):
    server = server_factory(
        f"sqlite:///{tmp_path / 's.db'}", 0, "--max-creates-per-minute", "2",
        "--max-replays-per-minute", "2",
    )  # fmt: skip
    bad = {**EDGES, "options": {"board": "9x9x9"}}
    for _ in range(4):
        assert plain_http.post(f"{server.url}/api/matches", json=bad).status_code == 400
    for _ in range(2):
        assert plain_http.post(f"{server.url}/api/matches", json=EDGES).status_code == 200
    assert plain_http.post(f"{server.url}/api/matches", json=EDGES).status_code == 429
    for _ in range(2):
        assert (
            plain_http.post(f"{server.url}/api/replay", json={"game": "edges"}).status_code == 400
        )
    limited = plain_http.post(f"{server.url}/api/replay", json={"game": "edges"})
    assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"


def test_a_socket_past_its_address_s_rate_of_messages_is_closed_and_new_ones_refused(
    server_factory, tmp_path
):
    """A message costs a client a few bytes and can cost the server a whole state: one
    client sending ``sync`` as fast as it could had the server send it a Squad Combat state
    (13 KB) over 6,000 times a second, on one core. Past its address's rate (the connection
    counts as one message) the socket is told why and closed; a new one is refused."""
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--max-messages-per-minute", "10")
    created = plain_http.post(f"{server.url}/api/matches", json=EDGES).json()
    url = server.url.replace("http://", "ws://") + f"/ws/{created['match']}"

    async def next_of(ws, kinds: set[str]) -> dict:
        """The next message of one of ``kinds`` (others, "presence" say, pass by)."""
        while (message := json.loads(await ws.recv()))["type"] not in kinds:
            pass
        return message

    async def go() -> None:
        import websockets

        async with websockets.connect(url) as ws:  # counted: 1
            await ws.send(json.dumps({"type": "hello"}))  # the hello is the connection's
            assert (await next_of(ws, {"welcome", "error"}))["type"] == "welcome"
            for _ in range(9):  # counted: 2 .. 10
                await ws.send(json.dumps({"type": "ping"}))
                assert (await next_of(ws, {"pong", "error"}))["type"] == "pong"
            await ws.send(json.dumps({"type": "ping"}))  # 11: one too many
            refusal = await next_of(ws, {"pong", "error"})
            assert refusal["code"] == "rate_limited", refusal
            assert "at most 10 WebSocket messages a minute" in refusal["message"]
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        async with websockets.connect(url) as again:
            refusal = json.loads(await again.recv())
            assert refusal["code"] == "rate_limited", refusal
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await again.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429

    asyncio.run(go())
    server.stop()
    log = server.log_path.read_text()
    assert "Traceback" not in log
    # One line each: the socket closed, the connection refused (it was two for a refusal).
    assert log.count("(rate_limited)") == 2, log
    # Each names the address refused: whom an operator would block.
    assert f"socket on {created['match']} from 127.0.0.1 closed (rate_limited)" in log, log
    assert f"socket on {created['match']} from 127.0.0.1 refused (rate_limited)" in log, log


def test_sockets_to_matches_there_are_none_of_count_against_the_address_s_rate(
    server_factory, tmp_path
):
    """Each such socket cost a read of the database and a line of the log, and none was
    counted: one address opened 1,500 in 3.7 s, each refused 4404, never 429. A socket is
    counted before its match is looked up, as one to a match is."""
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--max-messages-per-minute", "10")
    url = server.url.replace("http://", "ws://") + "/ws/no-such-match"

    async def refusal() -> tuple[str, int]:
        import websockets

        async with websockets.connect(url) as ws:
            said = json.loads(await ws.recv())
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None
            return said["code"], closed.value.rcvd.code

    async def go() -> list[tuple[str, int]]:
        return [await refusal() for _ in range(11)]

    said = asyncio.run(go())
    assert said == [("unknown_match", 4404)] * 10 + [("rate_limited", 4429)], said
    server.stop()
    log = server.log_path.read_text()
    assert "a connection from 127.0.0.1 refused (rate_limited)" in log, log


def test_sockets_past_the_servers_connections_are_refused_whatever_the_address():
    from meeple.interfaces.web.live import ServerError

    quotas = ClientQuotas(ServerLimits(max_connections=16))
    for k in range(16):
        quotas.open_socket(f"10.0.0.{k}")
    with pytest.raises(ServerError) as refused:
        quotas.open_socket("10.0.1.1")
    assert not isinstance(refused.value, QuotaExceeded)  # not the address's fault: 1013
    assert refused.value.status == 503 and refused.value.code == "server_full"
    quotas.close_socket("10.0.0.3")
    quotas.open_socket("10.0.1.1")


def test_a_seat_request_counts_against_its_address_s_rate_of_messages(server_factory, tmp_path):
    """A join with a seat's token (a new name), a leave, a resignation, a claim or a rematch
    answer is a write to the database and a state sent to every connection of the match,
    as a socket's message is. Unthrottled, one token renamed its seat 300 times in 2.7 s,
    each a committed write and 10 spectators sent 6.8 MB between them."""
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--max-messages-per-minute", "10")
    created = plain_http.post(f"{server.url}/api/matches", json=EDGES).json()
    match, token = created["match"], created["seats"][0]["token"]
    for n in range(10):
        body = {"token": token, "name": f"Ann {n}"}
        reply = plain_http.post(f"{server.url}/api/matches/{match}/join", json=body)
        assert reply.status_code == 200, reply.text
        token = reply.json()["token"]  # the seat's own, once its link took it
    for path, body in (("join", {"token": token, "name": "Ann"}), ("resign", {"token": token})):
        limited = plain_http.post(f"{server.url}/api/matches/{match}/{path}", json=body)
        assert limited.status_code == 429, limited.text
        assert limited.json()["code"] == "rate_limited"
        assert "at most 10 seat requests and WebSocket messages a minute" in limited.json()["error"]
        assert int(limited.headers["retry-after"]) > 0
    assert plain_http.get(f"{server.url}/api/matches/{match}").json()["status"] != "finished"
