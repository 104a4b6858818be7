"""One address's agents, however many and however slow, never keep another address's agents
or clocks waiting for a worker: the workers are shared between addresses."""

from __future__ import annotations

import asyncio
import time

import httpx

from meeple.interfaces.web.client import Client
from meeple.interfaces.web.pool import AgentPool
from tests import plain_http

HOSTILE = "127.0.0.2"
"""The address that fills its matches with slow agents (loopback too, an address of its own)."""

SLOW = "mcts:seconds=100"
"""An agent within the test server's raised cap that holds a worker for 100 s a move."""

BOUND = 45.0
"""Seconds the honest match may take: far more than twelve random moves and one time-out
need on a loaded machine, far less than SLOW's 100 s a decision they would queue behind."""


def nap(seconds: float) -> str:
    """A pool job (run in a worker): sleep, then answer."""
    time.sleep(seconds)
    return "done"


def test_a_free_worker_goes_to_an_owner_holding_none():
    async def go() -> None:
        pool = AgentPool(2, tasks={"nap": nap})
        pool.start()
        slow: list[asyncio.Task] = []
        try:
            # Both workers started (a worker's start imports meeple).
            await asyncio.gather(pool.run("nap", (0,), None, "a"), pool.run("nap", (0,), None, "b"))
            slow = [asyncio.create_task(pool.run("nap", (60,), None, "a")) for _ in range(3)]
            await asyncio.sleep(0.5)
            # The last free worker is kept: "a" holds one and its other decisions wait.
            assert pool.held("a") == 1
            start = time.monotonic()
            assert await pool.run("nap", (0,), None, "b") == "done"
            assert time.monotonic() - start < 30  # not behind the 60 s naps
            assert pool.held("a") == 1 and not any(t.done() for t in slow)
        finally:
            pool.close()
            for task in slow:
                task.cancel()
            await asyncio.gather(*slow, return_exceptions=True)

    asyncio.run(go())


def test_owners_take_turns_however_many_decisions_each_has_waiting():
    async def go() -> None:
        pool = AgentPool(1, tasks={"nap": nap})
        finished: list[str] = []

        async def decide(name: str, owner: str) -> None:
            await pool.run("nap", (0.5,), None, owner)
            finished.append(name)

        try:
            await pool.run("nap", (0,), None, "warm")  # the worker started
            tasks = [asyncio.create_task(decide(f"a{k}", "a")) for k in range(3)]
            await asyncio.sleep(0.1)  # a0 holds the worker, a1 and a2 wait
            tasks.append(asyncio.create_task(decide("b0", "b")))
            await asyncio.gather(*tasks)
        finally:
            pool.close()
        # First come, first served would give b0 the worker last.
        assert finished == ["a0", "b0", "a1", "a2"]

    asyncio.run(go())


def test_a_slow_address_holds_at_most_its_share_of_the_workers(tmp_path, server_factory):
    # Two workers and three matches of SLOW agents: first come, first served, both workers
    # would think for SLOW for 100 s at a time, and every other decision would wait.
    server = server_factory(
        f"sqlite:///{tmp_path / 'server.db'}",
        2,
        *("--max-agent-seconds", "100", "--max-agent-iterations", "100000000"),
    )
    hostile = httpx.Client(
        base_url=server.url, timeout=30, transport=httpx.HTTPTransport(local_address=HOSTILE)
    )
    slow = []
    for _ in range(3):
        reply = hostile.post("/api/matches", json={"game": "edges", "seats": [SLOW, SLOW]})
        assert reply.status_code == 200, reply.text
        slow.append(reply.json()["match"])

    def create(**body) -> dict:
        reply = plain_http.post(f"{server.url}/api/matches", json=body, timeout=30)
        assert reply.status_code == 200, reply.text
        return reply.json()

    def summary(match: str) -> dict:
        return plain_http.get(f"{server.url}/api/matches/{match}", timeout=30).json()

    async def go() -> None:
        await asyncio.sleep(2)  # the slow agents hold what they may of the workers
        start = time.monotonic()
        # Another address's agents: a whole match of random moves ...
        fast = create(game="edges", options={"board": "2x2"}, seats=["random", "random"])
        # ... and a person's clock: at its deadline the default agent moves for them.
        clock = create(
            game="edges",
            options={"board": "2x2", "first": 0},
            seats=["human", "random"],
            move_seconds=1,
        )
        person = await Client(server.url, clock["match"], clock["seats"][0]["token"]).connect()
        while summary(fast["match"])["status"] != "finished":
            assert time.monotonic() - start < BOUND, "random agents waited behind SLOW ones"
            await asyncio.sleep(0.1)
        left = BOUND - (time.monotonic() - start)
        await person.wait_for(
            lambda: any(e["seat"] == 0 and e.get("timeout") for e in person.log), left
        )
        await person.close()

    asyncio.run(go())
    # The slow address is served its share meanwhile: its agents are thinking, not refused.
    assert all(summary(m)["status"] == "playing" for m in slow)
    hostile.close()


def test_agents_that_do_not_search_never_wait_behind_a_search(tmp_path, server_factory):
    # One worker, held 100 s a move by SLOW, from the same address as the random agents:
    # neither the share nor the allowance would let them move before it ends.
    server = server_factory(
        f"sqlite:///{tmp_path / 'server.db'}",
        1,
        *("--max-agent-seconds", "100", "--max-agent-iterations", "100000000"),
    )

    def create(**body) -> dict:
        reply = plain_http.post(f"{server.url}/api/matches", json=body, timeout=30)
        assert reply.status_code == 200, reply.text
        return reply.json()

    slow = create(game="edges", seats=[SLOW, SLOW])["match"]
    time.sleep(2)  # SLOW is thinking in the only worker
    start = time.monotonic()
    fast = create(game="edges", options={"board": "2x2"}, seats=["random", "random"])["match"]
    while (
        plain_http.get(f"{server.url}/api/matches/{fast}", timeout=30).json()["status"]
        != "finished"
    ):
        assert time.monotonic() - start < BOUND, "random agents waited behind a search"
        time.sleep(0.1)
    assert plain_http.get(f"{server.url}/api/matches/{slow}", timeout=30).json()["seq"] == 0


def test_a_worker_whose_server_is_gone_ends_without_a_traceback(monkeypatch):
    """A worker still starting when its server stopped (or was killed) found the pipe
    closed at its first word, "ready", and wrote a BrokenPipeError traceback in the server's
    log: it ends quietly, as it does when the pipe closes between tasks."""
    from multiprocessing import Pipe

    from meeple.interfaces.web import pool

    monkeypatch.setattr(pool, "die_with_parent", lambda: None)  # not this test process
    worker_end, server_end = Pipe()
    server_end.close()
    pool._serve(worker_end, pool.AGENT_TASKS)  # returns: nobody is left to answer
