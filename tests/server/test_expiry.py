"""Matches nobody plays are closed: seats nobody took, and matches nobody moves in.

A real server with expiries of seconds (``--expire-waiting-seconds``,
``--expire-idle-seconds``); a match in use is never closed under its players.
"""

from __future__ import annotations

import asyncio
import random
import time

from meeple.interfaces.web.client import Client
from tests import plain_http

WAITING = 2.0
# Well above WAITING + 1.5 s: the idle match must still be open when the waiting one is
# checked, however long the setup between them takes on a loaded machine.
IDLE = 8.0


def _create(url: str, seats: list[str], game: str = "edges") -> dict:
    options = {"edges": {"board": "2x3", "stash": "3/3/2"}, "erd": {"best_of": 9}}[game]
    reply = plain_http.post(
        f"{url}/api/matches", json={"game": game, "options": options, "seats": seats}
    )
    assert reply.status_code == 200, reply.text
    return reply.json()


def _summary(url: str, match: str) -> dict:
    return plain_http.get(f"{url}/api/matches/{match}").json()


def test_matches_nobody_plays_are_closed_as_expired(server_factory, db_url):
    asyncio.run(_expiries(server_factory, db_url))


async def _expiries(server_factory, db_url) -> None:
    server = server_factory(
        db_url, 1, "--expire-waiting-seconds", str(WAITING), "--expire-idle-seconds", str(IDLE)
    )
    url = server.url
    # Waiting for a person nobody sends: closed after WAITING seconds.
    waiting = _create(url, ["open", "greedy"])["match"]
    # Both seats taken, then nobody moves: closed after IDLE seconds, not WAITING.
    idle = _create(url, ["human", "human"])
    for seat in idle["seats"]:
        joined = plain_http.post(
            f"{url}/api/matches/{idle['match']}/join", json={"token": seat["token"]}
        )
        assert joined.status_code == 200, joined.text
    idle_joined = time.monotonic()
    watcher = await Client(url, idle["match"], None).connect()
    # A person who keeps moving (more often than IDLE) is never cut off.
    busy = _create(url, ["human", "random"], game="erd")
    player = await Client(url, busy["match"], busy["seats"][0]["token"]).connect()
    start = time.monotonic()

    await asyncio.sleep(WAITING + 1.5)
    assert _summary(url, waiting)["status"] == "finished"
    assert time.monotonic() - idle_joined < IDLE, "the setup outlasted the idle expiry"
    assert _summary(url, idle["match"])["status"] == "playing"
    rng = random.Random(3)
    while time.monotonic() - start < IDLE + 3:
        assert await player.play_random(rng, moves=1) == 1
        # a move every 2 s (far more often than IDLE), and few enough that the match of
        # best of 9 is still being played at the end
        await asyncio.sleep(2)
    assert _summary(url, busy["match"])["status"] == "playing"
    for match, why in ((waiting, "nobody took the open seats"), (idle["match"], "nobody moved")):
        summary = _summary(url, match)
        assert summary["status"] == "finished", summary
        result = summary["result"]
        assert result["expired"] is True and result["over"] is True
        assert result["reason"].startswith(f"expired: {why}"), result
        assert result["winners"] == [] and result["returns"] == [0.0, 0.0]
    # Its watcher was sent the end; the lobby lists both among the finished matches.
    await watcher.wait_for(lambda: watcher.state["status"] == "finished", timeout=5)
    assert watcher.state["result"]["expired"] is True
    finished = {m["match"] for m in plain_http.get(f"{url}/api/matches?status=finished").json()}
    assert {waiting, idle["match"]} <= finished
    # An expired match takes no more players or moves.
    refused = plain_http.post(f"{url}/api/matches/{waiting}/join", json={})
    assert refused.status_code == 409, refused.text
    await watcher.close()
    await player.close()
