"""The hostile clients of benchmarks/server_attack.py, for a few seconds (more on a loaded
machine, until what a test asks has been met) against a real server: every attack is
refused with a documented code (or, a burst's spectators, served), never a 5xx, an
undocumented code or a socket dropped without a close frame, and the server writes no
traceback; and SIGTERM, sent while attacks are under way, stops it within seconds."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import socket
import sys
import threading
import time
from pathlib import Path

import websockets

from tests import plain_http

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "server_attack.py"


def _benchmark():
    spec = importlib.util.spec_from_file_location("server_attack", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("server_attack", module)
    spec.loader.exec_module(module)
    return module


def _no_failures(tally) -> None:
    assert not tally.failures, (dict(tally.failures), tally.examples)


def _attack(bench, url: str, seconds: float, met, flood: bool = False):
    """Four hostile clients for ``seconds``, then on until the tally has ``met`` what the
    test asks (a loaded machine goes round the attacks more slowly), a minute at most."""
    start = time.monotonic()

    def enough(tally) -> bool:
        return time.monotonic() - start > seconds and met(tally)

    return asyncio.run(
        bench.attack(url, workers=4, pause=0.01, seconds=60, flood=flood, enough=enough)
    )


def _limits_met(tally) -> bool:
    """Creating past the address's share met its open-matches or its rate limit (whichever
    comes first on a loaded machine), and sockets past its share were refused."""
    refused = tally.refusals
    created = refused["rate_limited"] + refused["too_many_open_matches"]
    return created > 0 and refused["too_many_connections"] > 0


def test_every_attack_is_refused_with_a_documented_code(server_factory, tmp_path):
    bench = _benchmark()
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0)
    honest = plain_http.post(
        f"{server.url}/api/matches",
        json={"game": "edges", "seats": ["human", "human"]},
        timeout=30,
    ).json()  # a listed match of someone else's, for the joins and tokens to be tried on
    codes = (
        "file_option", "bad_record", "too_large", "bad_request", "not_prepared", "bad_json",
        "invalid_request", "bad_message", "binary_frame", "conflict", "bad_token",
        "unknown_match", "hello_twice", "spectator", "link_used",
    )  # fmt: skip
    tally = _attack(
        bench, server.url, 4, lambda t: t.allowed > 0 and all(t.refusals[c] for c in codes)
    )
    _no_failures(tally)
    for code in codes:
        assert tally.refusals[code] > 0, (code, dict(tally.refusals))
    assert tally.allowed > 0  # the bursts' spectators were let in
    summary = plain_http.get(f"{server.url}/api/matches/{honest['match']}", timeout=30).json()
    assert not any(s["joined"] for s in summary["seats"])  # nobody took a seat
    server.stop()
    assert "Traceback" not in server.log_path.read_text()


def test_the_per_address_limits_fall_on_the_attacker_s_address(server_factory, tmp_path):
    bench = _benchmark()
    # The default limits, with the create limits low enough that a few seconds of attack
    # meet them even on a loaded machine (later flags override earlier ones).
    low = ("--max-creates-per-minute", "2", "--max-open-matches", "2")
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, *bench._default_limits(), *low)
    tally = _attack(bench, server.url, 3, _limits_met, flood=True)
    _no_failures(tally)
    # Creating past the address's share meets its open-matches or its rate limit (whichever
    # comes first on a loaded machine), uploads past theirs the rate.
    assert tally.refusals["rate_limited"] + tally.refusals["too_many_open_matches"] > 0
    assert tally.refusals["too_many_connections"] > 0
    # 127.0.0.1 has its own share: it still creates matches.
    reply = plain_http.post(f"{server.url}/api/matches", json={"game": "edges"}, timeout=30)
    assert reply.status_code == 200, reply.text
    server.stop()
    assert "Traceback" not in server.log_path.read_text()


def test_sigterm_stops_the_server_within_seconds_while_attacks_are_under_way(
    server_factory, tmp_path
):
    bench = _benchmark()
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 1)
    told = threading.Event()
    result: list = []

    def hostile() -> None:
        result.append(
            asyncio.run(
                bench.attack(server.url, workers=4, pause=0.0, seconds=30, stop=told.is_set)
            )
        )

    attacker = threading.Thread(target=hostile)
    attacker.start()
    time.sleep(4.0)  # every worker is in the middle of its round of attacks
    told.set()
    time.sleep(0.1)  # the attacker counts what fails from here as cut off
    took = server.terminate(timeout=15)
    attacker.join(timeout=60)
    assert took < bench.STOP_SECONDS, f"the server took {took:.1f} s to stop"
    assert result and not result[0].failures, (dict(result[0].failures), result[0].examples)
    assert result[0].requests > 0
    log = server.log_path.read_text()
    assert "Traceback" not in log, log[-3000:]


def test_a_client_gone_right_after_its_hello_leaves_no_traceback(server_factory, tmp_path):
    """A page closed while it loads, a phone losing its network: the socket goes between
    its hello (here a seat's first, which the server stores before it answers) and the
    server's welcome. Sending that welcome then fails; it must end the socket quietly, not
    log "Exception in ASGI application" with a traceback (it did for about half of them)."""
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--max-open-matches", "20")

    async def hello_then_gone(match: str, token: str, wait: float) -> None:
        ws = await websockets.connect(f"ws://127.0.0.1:{server.port}/ws/{match}")
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await asyncio.sleep(wait)
        ws.transport.abort()  # no close frame: gone

    async def clients() -> None:
        for k in range(10):
            reply = plain_http.post(
                f"{server.url}/api/matches", json={"game": "edges", "seats": ["human", "human"]}
            )
            assert reply.status_code == 200, reply.text
            created = reply.json()
            for seat in created["seats"]:
                await hello_then_gone(created["match"], seat["token"], 0.001 * (k % 4))
        await asyncio.sleep(0.5)

    asyncio.run(clients())
    # The server serves on.
    assert plain_http.get(f"{server.url}/api/matches", timeout=30).status_code == 200
    server.stop()
    log = server.log_path.read_text()
    assert "Traceback" not in log and "Exception in ASGI application" not in log, log


def _reads_nothing(port: int, match: str, syncs: int) -> socket.socket:
    """A WebSocket client that says hello, asks for its state ``syncs`` times and reads
    none of it: a raw socket with a small receive buffer, so what the server sends piles up
    on the server's side."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.sendall(
        f"GET /ws/{match} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)
    assert b" 101 " in answer, answer

    def frame(text: str) -> bytes:  # a client's frame: text, masked
        data, mask = text.encode(), os.urandom(4)
        return (
            bytes([0x81, 0x80 | len(data)])
            + mask
            + bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        )

    sock.sendall(frame('{"type": "hello"}') + frame('{"type": "sync"}') * syncs)
    return sock


def test_a_client_that_reads_nothing_is_dropped_and_gives_its_place_back(server_factory, tmp_path):
    """A client that asks for its state over and over and reads none of it fills its queue
    of messages and is dropped. That drop lost its own end-of-queue mark when the queue was
    full, so the socket's sender waited for more forever: the socket, its task and its place
    in the address's count of sockets were held until the server stopped (a few such clients
    and the address could connect no more), and stopping then wrote a traceback."""
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--max-sockets-per-client", "2")
    created = plain_http.post(
        f"{server.url}/api/matches",
        json={"game": "squad-combat", "seats": ["human", "human"]},
        timeout=30,
    ).json()
    for _ in range(2):  # the address's whole count of sockets
        # Enough asks that what the server sends overflows the socket's buffers and the
        # 256 messages the server queues for one client (a state here is about 13 KB).
        reader = _reads_nothing(server.port, created["match"], 1000)
        time.sleep(3)
        reader.close()  # gone

    async def welcomed() -> bool:
        url = f"ws://127.0.0.1:{server.port}/ws/{created['match']}"
        try:
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                return json.loads(await ws.recv())["type"] == "welcome"
        except websockets.ConnectionClosed:  # refused, too_many_connections
            return False

    deadline = time.monotonic() + 30
    while not asyncio.run(welcomed()):  # a refusal: the places are still held
        assert time.monotonic() < deadline, "the dropped clients' sockets are still counted"
        time.sleep(0.5)
    server.stop()
    log = server.log_path.read_text()
    assert "Traceback" not in log, log[-3000:]


def test_a_client_that_holds_its_socket_open_and_reads_nothing_is_let_go(monkeypatch):
    """A client that keeps its connection open, sends nothing and reads nothing: a message
    to it cannot go out (its buffers are full), nor can the close. Each is given
    SEND_SECONDS, and once the sender has given up nothing more is read from the client:
    its socket is over, and the server no longer holds it (it waited for the client's next
    message for as long as the client liked)."""
    from starlette.datastructures import URL

    from meeple.interfaces.web import sockets as web
    from meeple.interfaces.web.limits import ServerLimits

    monkeypatch.setattr(web, "SEND_SECONDS", 0.2, raising=False)
    sent: list[dict] = []

    class ReadsNothing:
        """A WebSocket whose client takes the welcome and then nothing, and says nothing."""

        base_url = URL("ws://127.0.0.1:8000/")

        async def send_json(self, message: dict) -> None:
            if sent:
                await asyncio.Event().wait()  # the client's buffers are full: never goes out
            sent.append(message)

        async def receive(self) -> dict:
            await asyncio.Event().wait()  # the client never sends again
            raise AssertionError

        async def close(self, code: int = 1000) -> None:
            await asyncio.Event().wait()  # the close frame cannot go out either

    class Hub:
        limits = ServerLimits()

        def attach(self, match, conn) -> None:
            conn.send({"type": "state"})

        def detach(self, match, conn) -> None:
            conn.close()

    class Match:
        id = "m"

    # In a thread of its own: a socket held is held for good, cancelling included.
    serving = threading.Thread(
        target=asyncio.run,
        args=(web._serve_hello(Hub(), ReadsNothing(), Match(), None, None, lambda: None),),
    )
    serving.daemon = True
    serving.start()
    serving.join(10)
    assert not serving.is_alive(), "the socket is still held"
    assert [m["type"] for m in sent] == ["welcome"]
