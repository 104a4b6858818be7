"""Move clocks are absolute times kept with the match: a restart neither resets nor forgets
them (a deadline that passed while the server was down is met at once)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time

from sqlalchemy import create_engine, text

from meeple.interfaces.web.client import Client
from tests import plain_http

LONG = 600.0
"""A clock that cannot run out during the test: the time left after a restart is read."""
SHORT = 8.0
"""A clock that runs out while the server is down."""


def _create(url: str, move_seconds: float) -> dict:
    """An Edges match of a person (seat 0, to move first, joined: its clock runs) and an
    agent."""
    created = plain_http.post(
        f"{url}/api/matches",
        json={"game": "edges", "options": {"board": "2x3", "stash": "3/3/2"},
              "seats": ["human", "greedy"], "move_seconds": move_seconds},
    ).json()  # fmt: skip
    # Taken: the seat's own token from here on (its link takes it once).
    created["seats"][0]["token"] = plain_http.take_seat(
        url, created["match"], created["seats"][0]["token"]
    )
    return created


async def _deadline(url: str, created: dict) -> float:
    """Seat 0's deadline as its client is told it (seconds left), as an absolute time."""
    client = await Client(url, created["match"], created["seats"][0]["token"]).connect()
    await client.wait_for(lambda: "0" in client.state["deadlines"])
    deadline = time.time() + float(client.state["deadlines"]["0"])
    await client.close()
    return deadline


def test_a_restart_keeps_every_deadline(server_factory, db_url):
    asyncio.run(_restart_with_clocks(server_factory, db_url))


async def _restart_with_clocks(server_factory, db_url) -> None:
    first = server_factory(db_url)
    long, short = _create(first.url, LONG), _create(first.url, SHORT)
    started = time.time()
    deadline = await _deadline(first.url, long)
    assert deadline > started + LONG - 5
    await asyncio.sleep(1)  # the deadlines are written just after they are set
    os.kill(first.proc.pid, signal.SIGKILL)
    first.proc.wait(timeout=10)
    await asyncio.sleep(max(0.0, started + SHORT + 0.5 - time.time()))

    second = server_factory(db_url)
    # The long clock kept running while the server was down: not a new full period.
    assert abs(await _deadline(second.url, long) - deadline) < 1.5
    # The short one ran out while the server was down: its time-out move is under way at
    # once (the game's agent makes it), not a full period after the restart.
    client = await Client(second.url, short["match"], short["seats"][0]["token"]).connect()
    first_state = client.state
    if first_state["seq"] == 0:  # no time left, or no clock: its time-out move is being made
        assert first_state["deadlines"].get("0", 0.0) == 0.0, first_state["deadlines"]
    await client.wait_for(lambda: client.state["seq"] >= 1, timeout=60)
    await client.close()


def test_stored_deadlines_for_no_seat_of_the_match_are_set_anew(server_factory, tmp_path):
    """Deadlines read back for a seat the match does not have, or a time that is no time,
    are not adopted: the seat to move gets a new full period and the match is served."""
    asyncio.run(_damaged_clocks(server_factory, f"sqlite:///{tmp_path / 's.db'}"))


async def _damaged_clocks(server_factory, db_url) -> None:
    first = server_factory(db_url)
    created = _create(first.url, LONG)
    await _deadline(first.url, created)
    await asyncio.sleep(1)  # the deadlines are written just after they are set
    os.kill(first.proc.pid, signal.SIGKILL)
    first.proc.wait(timeout=10)
    engine = create_engine(db_url)
    with engine.begin() as conn:
        [stored] = conn.execute(text("SELECT deadlines FROM matches")).scalars()
        stored = json.loads(stored) if isinstance(stored, str) else stored
        damaged = {**stored, "seats": {"7": time.time() - 100, "0": stored["seats"]["0"]}}
        conn.execute(text("UPDATE matches SET deadlines = :d"), {"d": json.dumps(damaged)})
    engine.dispose()

    second = server_factory(db_url)
    started = time.time()
    assert await _deadline(second.url, created) > started + LONG - 5  # a new full period
    second.stop()
    log = second.log_path.read_text()
    assert "its stored deadlines are not readable; new ones are set" in log
    assert "Traceback" not in log
