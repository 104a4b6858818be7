"""An uploaded record is read, checked and replayed outside the server's process.

A record may be 2 MB of JSON: parsing and validating it holds a CPU (and, in C code, the
Python lock) for a long moment. Measured in CPU time, which a loaded machine does not
change: the server's own process spends a small part of what the replay worker spends.
"""

from __future__ import annotations

import json
import os

import httpx

from tests import plain_http
from tests.processes import children


def _cpu_seconds(pid: int) -> float:
    """User and system CPU of a process, every thread of it."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_large_upload_is_parsed_outside_the_server_s_process(server_factory, tmp_path):
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 1)
    url = f"{server.url}/api/replay"
    # The worker starts with the first upload: its start is not what is measured.
    warm = plain_http.post(url, json={"game": "edges", "seed": 1, "moves": []}, timeout=120)
    assert warm.status_code == 200, warm.text
    # Just under the 2 MB cap, many small moves: costly to parse, then refused for their
    # count (past --max-match-moves) before any is replayed.
    body = json.dumps({"game": "edges", "seed": 1, "moves": [[0, "z"]] * 195_000}).encode()
    assert 1_800_000 < len(body) < 2_000_000
    pid = server.proc.pid
    workers = children(pid)
    before = _cpu_seconds(pid), sum(_cpu_seconds(w) for w in workers)
    for _ in range(4):
        reply = plain_http.post(
            url, content=body, headers={"content-type": "application/json"}, timeout=120
        )
        assert reply.status_code == 413 and reply.json()["code"] == "too_large", reply.text
    server_cpu = _cpu_seconds(pid) - before[0]
    worker_cpu = sum(_cpu_seconds(w) for w in workers) - before[1]
    assert worker_cpu > 0.2, (server_cpu, worker_cpu)
    assert server_cpu < worker_cpu / 2, (server_cpu, worker_cpu)


def _long_record() -> dict:
    """A random five-player Erosion game's record: its replay's answer is about 1.5 MB, a
    tenth of a second of the worker."""
    import random

    import meeple

    game = meeple.make("erosion", players=5)
    rng = random.Random(1)
    state, moves = game.new_game(3), []
    while not state.is_over:
        seat = state.to_act[0]
        action = rng.choice(state.legal_actions(seat))
        moves.append([seat, str(action)])
        state = state.apply(seat, action)
    return {"game": "erosion", "options": {"players": 5}, "seed": 3, "moves": moves}


def test_the_uploads_worker_is_shared_between_addresses(server_factory, tmp_path):
    """One address's queue of records was checked before anyone else's, first come first
    served (a replay took 24.8 s behind sixty long board texts): the worker takes each
    address in its turn, as the agents' workers do, so another address's upload is next."""
    import asyncio

    server = server_factory(
        f"sqlite:///{tmp_path / 's.db'}", 1, "--forwarded-allow-ips", "127.0.0.1"
    )
    record = _long_record()
    url = f"{server.url}/api/replay"
    warm = plain_http.post(url, json=record, timeout=120)  # the worker starts with the first
    assert warm.status_code == 200, warm.text
    # Every state of the game, compressed for a client that takes it (httpx, browsers):
    # the answer is hundreds of times the record.
    assert warm.headers["content-encoding"] == "gzip"
    assert warm.num_bytes_downloaded * 5 < len(warm.content), warm.num_bytes_downloaded
    plain = plain_http.post(url, json=record, timeout=120, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.json() == warm.json()
    done: list[str] = []
    sent_after: list[int] = []

    async def upload(client: httpx.AsyncClient, who: str) -> None:
        reply = await client.post(url, json=record, headers={"X-Forwarded-For": who})
        assert reply.status_code == 200, reply.text
        done.append(who)

    async def late(client: httpx.AsyncClient) -> None:
        # Sent once the other address's first record is done: its others are queued then.
        while not done:
            await asyncio.sleep(0.01)
        sent_after.append(len(done))
        await upload(client, "198.51.100.7")

    async def crowd() -> None:
        async with httpx.AsyncClient(timeout=120) as client:
            flood = [upload(client, "203.0.113.1") for _ in range(8)]
            await asyncio.gather(*flood, late(client))

    asyncio.run(crowd())
    # Behind the record being checked when it came (and one more, where the worker was
    # between two as it arrived), not behind every record queued before it (last of nine).
    assert done.index("198.51.100.7") <= sent_after[0] + 2, (done, sent_after)
    assert done[-1] == "203.0.113.1", done
