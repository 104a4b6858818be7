"""Nothing is lost: kill the server in the middle of several matches and start it again.

Runs on SQLite and on a real PostgreSQL server (see conftest). Every move the server
acknowledged must be there after the restart; clients reconnect with their tokens and
play on; agents pick up their turns by themselves.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time

from meeple.core.record import GameRecord
from meeple.interfaces.web.client import Client
from tests import plain_http
from tests.processes import alive, children

MATCHES = [
    ("erd", {"best_of": 3}, ["human", "human"]),
    ("edges", {"board": "2x3", "stash": "3/3/2"}, ["human", "greedy"]),
    ("squad-combat", {}, ["human", "heuristic"]),
    # Agents only, long enough to be in the middle of the match when the server dies: what
    # it has played by then is set by the one worker taking decisions in turn (about 10
    # moves with a 1-iteration search), and the first of 19 games to win 10 is 20 moves
    # at the least. A small search keeps the decisions the other matches queue behind short.
    ("erd", {"best_of": 19}, ["ismcts:iterations=200", "heuristic"]),
]


async def _start_matches(url: str) -> list[dict]:
    out = []
    for game, options, seats in MATCHES:
        created = plain_http.post(
            f"{url}/api/matches",
            json={"game": game, "options": options, "seats": seats},
        ).json()
        out.append(created)
    return out


async def _play_some(url: str, matches: list[dict]) -> list[list[Client]]:
    clients = []
    for created in matches:
        clients.append(
            [await Client(url, created["match"], s["token"]).connect() for s in created["seats"]]
        )
    await asyncio.gather(
        *(
            c.play_random(random.Random(k), moves=4)
            for k, c in enumerate(c for group in clients for c in group)
        )
    )
    return clients


def test_a_killed_server_loses_no_acknowledged_move(server_factory, db_url):
    asyncio.run(_kill_and_resume(server_factory, db_url))


async def _kill_and_resume(server_factory, db_url) -> None:
    first = server_factory(db_url, agent_workers=1)
    matches = await _start_matches(first.url)
    clients = await _play_some(first.url, matches)
    # The last move acknowledged to any seat of each match.
    acked = {
        created["match"]: max((seq for c in group for seq in c.acks), default=0)
        for created, group in zip(matches, clients, strict=True)
    }
    assert all(acked[m["match"]] for m in matches if m["seats"])
    last = matches[-1]["match"]
    assert plain_http.get(f"{first.url}/api/matches/{last}").json()["status"] == "playing"
    workers = children(first.proc.pid)
    assert workers, "the agents' worker process should be running"
    os.kill(first.proc.pid, signal.SIGKILL)  # the server alone: its workers must follow
    first.proc.wait(timeout=10)
    deadline = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert not [w for w in workers if alive(w)], "agent workers outlived the killed server"

    second = server_factory(db_url, agent_workers=1)
    for created, group in zip(matches, clients, strict=True):
        match = created["match"]
        summary = plain_http.get(f"{second.url}/api/matches/{match}").json()
        assert summary["seq"] >= acked[match], f"{match}: an acknowledged move was lost"
        again = [await Client(second.url, match, c.token).connect() for c in group]
        for old, new in zip(group, again, strict=True):
            await old.close()
            # Every move this seat saw acknowledged is in the log it now gets, as made.
            log = {e["n"]: e["text"] for e in new.log}
            for message in old.messages:
                if message["type"] == "ack":
                    assert log[message["seq"]] == message["action"]
        # A stream of its own per seat: two Erd seats drawing alike allocate alike every
        # round, and their game runs to the rounds' limit (200).
        await asyncio.gather(*(c.play_random(random.Random(5 + k)) for k, c in enumerate(again)))
        for c in again:
            await c.close()
    # The agents-only match goes on by itself after the restart.
    for _ in range(600):
        if plain_http.get(f"{second.url}/api/matches/{last}").json()["status"] == "finished":
            break
        await asyncio.sleep(0.1)
    for created in matches:
        summary = plain_http.get(f"{second.url}/api/matches/{created['match']}").json()
        assert summary["status"] == "finished", summary
        record = GameRecord.model_validate(
            plain_http.get(f"{second.url}/api/matches/{created['match']}/record").json()
        )
        assert record.replay().is_over
