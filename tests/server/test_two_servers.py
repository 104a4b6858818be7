"""Past one process: two servers on one PostgreSQL database play one match together.

Each accepted move is announced with PostgreSQL NOTIFY; the other process hears it
(LISTEN), catches up from the database and sends it on to its own clients. Two writers
can never both store one move number (it is part of the key): the later is refused as
stale and sent the position as it is.
"""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from meeple.core.record import GameRecord
from meeple.interfaces.web.client import Client


@pytest.mark.parametrize("game", ["edges", "erd"])
def test_players_on_two_server_processes_play_one_match(server_factory, postgres, game):
    if postgres is None:
        pytest.skip("needs PostgreSQL (apt-get install postgresql)")
    db = postgres.new_database()
    one, two = server_factory(db, agent_workers=0), server_factory(db, agent_workers=0)

    async def go() -> None:
        options = {"board": "2x3", "stash": "3/3/2"} if game == "edges" else {"best_of": 3}
        created = httpx.post(
            f"{one.url}/api/matches",
            json={"game": game, "options": options, "seats": ["human", "human"]},
        ).json()
        match = created["match"]
        a = await Client(one.url, match, created["seats"][0]["token"]).connect()
        b = await Client(two.url, match, created["seats"][1]["token"]).connect()
        await asyncio.gather(a.play_random(random.Random(1)), b.play_random(random.Random(2)))
        for c in (a, b):
            await c.wait_for(lambda c=c: c.state["status"] == "finished")
        # Both processes sent their client the same whole game.
        assert [(e["seat"], e["text"]) for e in a.log] == [(e["seat"], e["text"]) for e in b.log]
        record = GameRecord.model_validate(
            httpx.get(f"{two.url}/api/matches/{match}/record").json()
        )
        assert record.replay().is_over
        assert [list(m) for m in record.moves] == [[e["seat"], e["text"]] for e in a.log]
        assert a.acks and b.acks
        for c in (a, b):
            await c.close()

    asyncio.run(go())
