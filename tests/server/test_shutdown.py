"""SIGTERM stops the server within seconds, whatever it is doing, and cleanly.

A real server with open sockets and agents in the middle of their moves: it exits within
5 s, every socket is closed with 1001 (going away), no worker process is left, and the
log holds no traceback. The moves it had stored are there after a restart.

Its servers start as a person starts one (``started_by_exec``), not forked as the other
tests' are: the installed script in a new Python, whose agent workers, spawned, import
that script again, and whose signals are the interpreter's from its start.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import time
from pathlib import Path

import pytest

from meeple.interfaces.web.client import Client
from tests import plain_http
from tests.processes import alive, children


@pytest.mark.started_by_exec
def test_sigterm_stops_the_server_within_seconds(server_factory, db_url):
    asyncio.run(_terminate(server_factory, db_url))


async def _terminate(server_factory, db_url) -> None:
    server = server_factory(db_url, 2)
    url = server.url
    # Agents only, each move a 5-second search: they are thinking when the signal comes.
    slow = plain_http.post(
        f"{url}/api/matches",
        json={"game": "erd", "options": {"best_of": 9},
              "seats": ["mcts:seconds=5", "mcts:seconds=5"]},
    ).json()["match"]  # fmt: skip
    people = plain_http.post(
        f"{url}/api/matches", json={"game": "edges", "seats": ["human", "human"]}
    ).json()
    clients = [
        *[await Client(url, slow, None).connect() for _ in range(3)],
        *[await Client(url, people["match"], s["token"]).connect() for s in people["seats"]],
    ]
    # An upload that stalls half-way (a slow or hostile client): not waited for long.
    stalled = socket.create_connection(("127.0.0.1", server.port))
    stalled.sendall(
        b"POST /api/replay HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100000\r\n\r\n{"game": '
    )
    deadline = time.monotonic() + 30
    while len(children(server.proc.pid)) < 2 and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    workers = children(server.proc.pid)
    assert len(workers) >= 2, "the agents' workers should be running"
    await asyncio.sleep(1.5)  # both agents are in the middle of their searches

    server.proc.send_signal(signal.SIGTERM)
    sent = time.monotonic()
    while server.proc.poll() is None and time.monotonic() - sent < 10:
        await asyncio.sleep(0.05)
    took = time.monotonic() - sent
    assert server.proc.poll() is not None, "the server did not stop within 10 s"
    assert took < 5, f"the server took {took:.1f} s to stop"
    for client in clients:
        await client.wait_for(lambda c=client: c._reader.done(), timeout=5)
        assert client._ws.close_code == 1001, client._ws.close_code
    # Workers are killed before the server exits; multiprocessing's resource tracker (a
    # child too) ends once it reads the end of its pipe, a moment later.
    until = time.monotonic() + 3
    while any(alive(w) for w in workers) and time.monotonic() < until:
        await asyncio.sleep(0.05)
    left = [w for w in workers if alive(w)]
    assert not left, [Path(f"/proc/{w}/cmdline").read_text() for w in left]
    log = server.log_path.read_text()
    assert "Traceback" not in log, log
    # The stop is said, as the start is (it printed nothing).
    assert "meeple.server: stopped: the unfinished matches are in sqlite:///" in log or (
        "meeple.server: stopped: the unfinished matches are in postgresql" in log
    ), log
    # uvicorn raises the signal again once it has shut down, so the exit says SIGTERM.
    assert server.proc.returncode in (0, -signal.SIGTERM), log

    # Whatever it stored is there for the next server, which plays on.
    again = server_factory(db_url)
    summary = plain_http.get(f"{again.url}/api/matches/{slow}").json()
    assert summary["status"] == "playing"
    for client in clients:
        await client.close()
    stalled.close()


@pytest.mark.started_by_exec
@pytest.mark.parametrize("sent", [signal.SIGTERM, signal.SIGINT], ids=["systemd-stop", "ctrl-c"])
def test_a_stop_sent_to_the_process_group_leaves_each_agent_as_its_match_chose_it(
    server_factory, tmp_path, sent
):
    """systemd's stop and Ctrl-C at a terminal signal every process of the group, the
    agents' workers too: a worker thinking died before the server began to stop, its death
    read as an agent's failure, and the seat was given to the default agent for good (and
    Ctrl-C printed the worker's traceback). The workers leave the stop to the server."""
    db = f"sqlite:///{tmp_path / 'matches.db'}"
    server = server_factory(db, 1)
    chosen = ["mcts:seconds=3", "mcts:seconds=3"]
    match = plain_http.post(
        f"{server.url}/api/matches", json={"game": "edges", "seats": chosen}
    ).json()["match"]
    deadline = time.monotonic() + 30
    while not children(server.proc.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(1.5)  # an agent is in the middle of its search
    os.killpg(server.proc.pid, sent)
    server.proc.wait(10)
    log = server.log_path.read_text()
    assert "Traceback" not in log and "could not move" not in log, log
    again = server_factory(db)
    seats = plain_http.get(f"{again.url}/api/matches/{match}").json()["seats"]
    assert [seat["agent"] for seat in seats] == chosen
