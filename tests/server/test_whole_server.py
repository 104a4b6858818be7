"""Limits of the whole server, against a real server process: an IPv6 client is counted by
its network (one host holds a /64 of addresses), the unfinished matches every address
holds together are capped (each is in memory), and so are the connections open at once
(each is an open file)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from meeple.interfaces.web.client import ServerProcess, free_port
from meeple.interfaces.web.quotas import client_key
from tests import plain_http

MATCH = {"game": "edges", "options": {"board": "2x2"}, "seats": ["human", "random"]}


def _create(server: ServerProcess, address: str) -> httpx.Response:
    return plain_http.post(
        f"{server.url}/api/matches", json=MATCH, headers={"X-Forwarded-For": address}
    )


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", True),
        ("2001:db8:1:2::1", "2001:db8:1:3::1", False),
        ("::ffff:10.0.0.1", "10.0.0.1", True),
        ("10.0.0.1", "10.0.0.2", False),
        ("fe80::1%eth0", "fe80::2", True),
        ("testclient", "testclient", True),
    ],
)
def test_a_client_is_its_ipv4_address_or_its_ipv6_network(a, b, same):
    assert (client_key(a) == client_key(b)) is same
    # With a /128 every IPv6 address counts alone.
    if ":" in a and ":" in b and not a.startswith("::ffff"):
        assert client_key(a, 128) != client_key(b, 128)


def test_one_ipv6_network_shares_one_share_and_every_address_together_meets_the_cap(tmp_path):
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'server.db'}",
        tmp_path / "server.log",
        1,
        ("--forwarded-allow-ips", "127.0.0.1", "--max-open-matches", "2",
         "--max-unfinished-matches", "5"),
    ).start()  # fmt: skip
    try:
        # One host's /64: its third address is the same client, with its two matches.
        assert _create(server, "2001:db8:1:2::1").status_code == 200
        first = _create(server, "2001:db8:1:2::2")
        assert first.status_code == 200
        refused = _create(server, "2001:db8:1:2:ffff::3")
        assert refused.status_code == 429, refused.text
        assert refused.json()["code"] == "too_many_open_matches"
        # The log names the client the proxy forwarded, not the proxy.
        refusal = "POST /api/matches from 2001:db8:1:2:ffff::3 refused (too_many_open_matches)"
        assert refusal in server.log_path.read_text()
        assert _create(server, "2001:db8:1:3::1").status_code == 200  # another network
        # An IPv4 address written as IPv6 is that IPv4 address.
        assert _create(server, "10.0.0.1").status_code == 200
        assert _create(server, "::ffff:10.0.0.1").status_code == 200
        assert _create(server, "10.0.0.1").json()["code"] == "too_many_open_matches"
        # Five unfinished matches: a newcomer is told the server is full, and when to retry.
        full = _create(server, "10.0.0.2")
        assert full.status_code == 503, full.text
        assert full.json()["code"] == "server_full"
        assert "5 unfinished matches" in full.json()["error"]
        assert full.headers["Retry-After"] == "60"
        # A match over frees its place.
        token = first.json()["seats"][0]["token"]
        gone = plain_http.post(f"{server.url}/api/matches/{first.json()['match']}/resign",
                          json={"token": token})  # fmt: skip
        assert gone.status_code == 200, gone.text
        assert _create(server, "10.0.0.2").status_code == 200
        assert "Traceback" not in server.log_path.read_text()
    finally:
        server.kill()


def test_an_address_a_client_writes_itself_does_not_make_it_another_client(tmp_path):
    """nginx's ``$proxy_add_x_forwarded_for`` appends the address it saw to the
    ``X-Forwarded-For`` the client sent: the server counts the last address that is not a
    named proxy, so a client writing addresses of its own is still the one client, and a
    proxy's own address in the list is passed over (docs/security.md, On the internet)."""
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'server.db'}",
        tmp_path / "server.log",
        1,
        ("--forwarded-allow-ips", "127.0.0.1,10.0.0.0/8", "--max-creates-per-minute", "2"),
    ).start()
    try:
        assert _create(server, "203.0.113.1, 198.51.100.7").status_code == 200
        assert _create(server, "203.0.113.2, 198.51.100.7, 10.0.0.5").status_code == 200
        refused = _create(server, "203.0.113.3, 198.51.100.7")
        assert refused.status_code == 429, refused.text
        assert "POST /api/matches from 198.51.100.7 refused (rate_limited)" in (
            server.log_path.read_text()
        )
        assert _create(server, "203.0.113.3, 198.51.100.8").status_code == 200
    finally:
        server.kill()


def test_past_the_connections_cap_a_request_is_answered_503_until_one_closes(tmp_path):
    """Refused as every refusal is, in JSON with its code and when to ask again (uvicorn's
    own answer past its cap is plain text), until a connection closes."""
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'server.db'}",
        tmp_path / "server.log",
        1,
        ("--max-connections", "16"),
    ).start()
    match = plain_http.post(f"{server.url}/api/matches", json=MATCH).json()["match"]
    socket_url = f"ws://127.0.0.1:{server.port}/ws/{match}"

    async def crowd() -> tuple[httpx.Response, int]:
        sockets = [await websockets.connect(socket_url) for _ in range(16)]
        async with httpx.AsyncClient() as client:
            full = await client.get(f"{server.url}/api/games")
            for socket in sockets:
                await socket.close()
            await asyncio.sleep(0.5)
            return full, (await client.get(f"{server.url}/api/games")).status_code

    async def held_open() -> tuple[int | None, str]:
        """16 HTTP connections held open (a request's head not yet sent), then a socket:
        counted only against other sockets, it was let in past the cap."""
        held = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(16)]
        try:
            async with websockets.connect(socket_url) as socket:
                said = json.loads(await socket.recv())
                await socket.wait_closed()
                return socket.close_code, said["code"]
        finally:
            for _, writer in held:
                writer.close()

    try:
        full, later = asyncio.run(crowd())
        assert (full.status_code, later) == (503, 200), full.text
        assert full.json() == {
            "error": "this server holds 16 connections, the most it takes; try again in a minute",
            "code": "server_full",
        }
        assert full.headers["Retry-After"] == "60" and full.headers["Connection"] == "close"
        assert asyncio.run(held_open()) == (1013, "server_full")
        assert "Traceback" not in server.log_path.read_text()
    finally:
        server.kill()


def _serve_under(limit: int, tmp_path: Path, *flags: str) -> subprocess.Popen[str]:
    """``meeple serve`` under ``ulimit -n`` of ``limit`` (soft; the hard limit as it is)."""
    meeple = Path(sys.executable).with_name("meeple")
    command = (
        f"ulimit -Sn {limit} && exec {meeple} serve --port {free_port()} "
        f"--db sqlite:///{tmp_path / 'server.db'} --agent-workers 0 {' '.join(flags)}"
    )
    return subprocess.Popen(
        ["bash", "-c", command], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def _hard_limit() -> int:
    import resource

    return resource.getrlimit(resource.RLIMIT_NOFILE)[1]


@pytest.mark.skipif(sys.platform == "win32", reason="open-file limits are POSIX")
def test_the_server_raises_its_open_files_limit_to_fit_its_connections(tmp_path):
    if _hard_limit() < 1_500:
        pytest.skip("this system's hard limit on open files is below what the test needs")
    server = _serve_under(300, tmp_path, "--max-connections", "1000")
    try:
        deadline = time.monotonic() + 60
        seen = 0
        while server.poll() is None and time.monotonic() < deadline and seen != 1_256:
            # `exec`: the shell's process becomes the server once its limit is lowered.
            if b"serve" in Path(f"/proc/{server.pid}/cmdline").read_bytes():
                seen = _soft_files(Path(f"/proc/{server.pid}/limits").read_text())
            time.sleep(0.1)
        assert seen == 1_256, f"open files limit {seen}"
    finally:
        server.kill()
        server.communicate()


def _soft_files(limits: str) -> int:
    found = re.search(r"Max open files\s+(\d+)", limits)
    return int(found.group(1)) if found else 0


@pytest.mark.skipif(sys.platform == "win32", reason="open-file limits are POSIX")
def test_connections_past_the_systems_hard_limit_are_refused_before_serving(tmp_path):
    hard = _hard_limit()
    server = _serve_under(300, tmp_path, "--max-connections", str(hard))
    output, _ = server.communicate(timeout=60)
    assert server.returncode != 0
    assert f"--max-connections {hard} needs about {hard + 256} open files" in output
    assert f"--max-connections {hard - 256} or less" in output
    assert "Traceback" not in output


def test_a_connection_that_does_not_finish_its_request_head_in_time_is_closed(tmp_path):
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'server.db'}",
        tmp_path / "server.log",
        1,
        ("--request-head-seconds", "1", "--request-body-seconds", "1"),
    ).start()
    match = plain_http.post(f"{server.url}/api/matches", json=MATCH).json()["match"]

    async def closed_after(*parts: bytes, gap: float = 0.3) -> float:
        """Send ``parts`` with ``gap`` seconds between them, then wait: the seconds until
        the server closed the connection (inf: still open after 5 s)."""
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        started = time.monotonic()
        try:
            for part in parts:
                if reader.at_eof():
                    break
                writer.write(part)
                await asyncio.sleep(gap)
            deadline = started + 5
            while time.monotonic() < deadline:
                try:
                    got = await asyncio.wait_for(reader.read(65536), deadline - time.monotonic())
                except TimeoutError:
                    break
                except ConnectionError:
                    return time.monotonic() - started
                if not got:
                    return time.monotonic() - started
            return float("inf")
        finally:
            writer.close()

    async def answers_after_a_pause() -> int:
        """Two requests on one connection, 2.5 s apart: how many answers came."""
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        got = b""
        try:
            for _ in range(2):
                writer.write(head)
                await asyncio.sleep(2.5)
            with contextlib.suppress(TimeoutError):
                while chunk := await asyncio.wait_for(reader.read(65536), 1):
                    got += chunk
        finally:
            writer.close()
        return got.count(b"HTTP/1.1 200")

    async def socket_stays_open() -> bool:
        async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/{match}") as socket:
            await socket.send(json.dumps({"type": "hello"}))
            await asyncio.sleep(2.5)  # past both deadlines
            await socket.send(json.dumps({"type": "sync"}))
            while True:
                if json.loads(await socket.recv())["type"] == "state":
                    return True

    async def all_at_once() -> tuple[Any, ...]:
        # Each connection keeps its own deadlines: they wait side by side, not in turn.
        trickled = [head[k : k + 1] for k in range(12)]  # one byte every 0.3 s
        body = b"POST /api/replay HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{"
        return await asyncio.gather(
            closed_after(), closed_after(*trickled), closed_after(body),
            answers_after_a_pause(), socket_stays_open(),
        )  # fmt: skip

    head = b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n"
    try:
        silent, trickling, bodiless, answers, socket_open = asyncio.run(all_at_once())
        assert 0.9 < silent < 3  # says nothing
        assert trickling < 4
        assert bodiless < 3  # the body never comes
        # A whole request is answered, and the kept-alive connection is then left to
        # uvicorn's own keep-alive timer (5 s): the deadline does not close it.
        assert answers == 2
        assert socket_open
        log = server.log_path.read_text()
        assert "request's head did not arrive within 1 s" in log
        assert "request's body did not arrive within 1 s" in log
        assert "Traceback" not in log
    finally:
        server.kill()


def test_a_request_that_is_not_http_is_refused_in_json_naming_its_client(tmp_path):
    """A request h11 cannot read was answered plain text ("Invalid HTTP request received.")
    and logged with no client, where api.md says every refusal is {"error", "code"}."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}", tmp_path / "server.log", 1)
    server.start()

    async def answer(raw: bytes) -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(raw)
        try:
            return await asyncio.wait_for(reader.read(), 10)
        finally:
            writer.close()

    try:
        for raw in (
            b"GARBAGE\r\n\r\n",
            b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3"
            b"\r\n\r\n{}",
        ):
            head, _, body = asyncio.run(answer(raw)).partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 400 "), head
            assert b"content-type: application/json" in head.lower(), head
            assert json.loads(body)["code"] == "bad_request", body
        log = server.log_path.read_text()
        assert "a request from 127.0.0.1 refused (bad_request): not HTTP this server" in log
        assert "Invalid HTTP request received." not in log
    finally:
        server.kill()


def test_a_connection_whose_answer_is_not_read_is_closed(tmp_path):
    """Only a request's head and body were timed: a client that uploaded a record to
    /api/replay and read none of the answer (every state's view, megabytes) held its
    connection and the answer's memory for ever, and sixteen such held a server of 16
    connections full for minutes. Unread for ``--unread-answer-seconds`` with the server's
    buffers for it full, the connection is closed; a client that reads is not."""
    import socket

    from meeple.core.conformance import random_playthrough
    from meeple.core.registry import make

    server = ServerProcess(
        f"sqlite:///{tmp_path / 'server.db'}",
        tmp_path / "server.log",
        0,
        ("--unread-answer-seconds", "1"),
    ).start()
    record = random_playthrough(make("squad-combat", players=4), 1).record()
    body = record.model_dump_json().encode()
    head = (
        f"POST /api/replay HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    said = "closed: it read none of its answer for 1 s"
    try:
        unread = socket.socket()
        unread.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        unread.connect(("127.0.0.1", server.port))
        unread.sendall(head + body)
        deadline = time.monotonic() + 30
        while said not in server.log_path.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert said in server.log_path.read_text(), server.log_path.read_text()[-2000:]
        # A client that reads gets the whole answer.
        replayed = plain_http.post(f"{server.url}/api/replay", content=body, timeout=60,
                                   headers={"content-type": "application/json"})  # fmt: skip
        assert replayed.status_code == 200 and len(replayed.json()["views"]) > 800
        unread.close()
    finally:
        server.kill()
    assert server.log_path.read_text().count(said) == 1
