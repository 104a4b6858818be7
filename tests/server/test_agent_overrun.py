"""An agent past its allowance is stopped, so it holds up no other match's agents."""

from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path

import meeple
from meeple.core import kernel_cache
from meeple.interfaces.web.client import Client
from meeple.interfaces.web.limits import ServerLimits
from meeple.interfaces.web.preparing import Preparer
from meeple.solvers import edges_engine
from tests import plain_http
from tests.processes import alive, children

SLOW = "mcts:iterations=100000000,compiled=false"
"""Pure-Python search, 1,000 iterations a second here: a day's thinking per move."""


def create(server, **body) -> dict:
    """A new match on ``server`` (POST /api/matches with ``body``)."""
    reply = plain_http.post(f"{server.url}/api/matches", json=body, timeout=30)
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_an_agent_past_its_allowance_is_stopped_and_other_matches_go_on(tmp_path, server_factory):
    # One worker: without the stop, every other match's agents would wait for SLOW.
    server = server_factory(
        f"sqlite:///{tmp_path / 'server.db'}",
        1,
        *("--max-agent-seconds", "1", "--agent-margin-seconds", "4"),
        *("--max-agent-iterations", "100000000"),
    )

    def summary(match: str) -> dict:
        return plain_http.get(f"{server.url}/api/matches/{match}").json()

    async def go() -> None:
        slow = create(server, game="edges", options={"first": 1}, seats=["human", SLOW])
        person = await Client(server.url, slow["match"], slow["seats"][0]["token"]).connect()
        await asyncio.sleep(1)  # SLOW is thinking in the only worker
        workers = set(children(server.proc.pid))
        start = time.monotonic()
        fast = create(server, game="edges", options={"board": "2x2"}, seats=["random", "random"])
        while summary(fast["match"])["status"] != "finished":
            assert time.monotonic() - start < 60, "a random agent waited on another match"
            await asyncio.sleep(0.1)
        # SLOW's allowance (1 s + 4 s), a new worker's start, then twelve random moves.
        assert time.monotonic() - start < 30
        # SLOW's seat moved as a timed-out person's does: by the default agent.
        await person.wait_for(lambda: person.state["seq"] >= 1, timeout=60)
        assert person.state["to_act"] == [0]
        seat = summary(slow["match"])["seats"][1]
        assert seat["agent"] == SLOW  # still shown as who was seated
        assert not any(alive(pid) for pid in workers - set(children(server.proc.pid)))
        await person.close()

    asyncio.run(go())


def test_a_fresh_install_compiles_a_searching_agent_before_its_allowance_starts(
    tmp_path, monkeypatch, server_factory
):
    """Compiled in its worker, Edges' search took 5 to 11 s to its first move on a fresh
    cache, past this allowance (1 s + 1 s): the worker was stopped and the seat handed to
    the default agent, which was stopped in turn (the server compiles the game first)."""
    cache = tmp_path / "numba"
    solver = kernel_cache.cache_folder(Path(edges_engine.__file__).parent)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))  # nothing compiled yet
    # But the Edges solver, which Edges' hints compile too: tens of seconds more here, for
    # what tests/lab/test_hints.py shows (warming the hints reaches it).
    assert solver is not None and any(solver.iterdir())
    # (cache_folder's answer is kept per process; __wrapped__ asks again, under the new cache.)
    seeded = kernel_cache.cache_folder.__wrapped__(solver.parent.parent)
    assert seeded is not None and cache in seeded.parents
    shutil.copytree(solver, seeded, dirs_exist_ok=True)
    # Compiled after the agent's, with the solver seeded, the hints take 0.1 s to compile
    # here (the server's log says), so the hint's allowance bounds its search: 10 s, which
    # a loaded machine's stays within (2 s did not, once, four processes on two cores).
    server = server_factory(
        f"sqlite:///{tmp_path / 'server.db'}",
        1,
        *("--max-agent-seconds", "1", "--agent-margin-seconds", "1", "--hint-seconds", "10"),
    )
    seats = ["human", "uct:iterations=1000"]
    match = create(server, game="edges", options={"first": 1}, seats=seats)
    token = match["seats"][0]["token"]

    async def go() -> str:
        person = await Client(server.url, match["match"], token).connect()
        await person.wait_for(lambda: person.state["seq"] >= 1, timeout=300)
        assert person.state["to_act"] == [0]
        await person.close()
        return str(person.token)

    own = asyncio.run(go())
    # A hint's judge is compiled as the agents are, before its own allowance.
    hint = plain_http.post(
        f"{server.url}/api/matches/{match['match']}/hint", json={"token": own}, timeout=300
    )
    assert hint.status_code == 200, hint.text
    log = server.log_path.read_text()
    assert "compiled edges uct:iterations=4" in log and "compiled edges hints" in log
    assert "was stopped" not in log
    assert len(list(cache.rglob("*.compiled"))) == 2  # the next server compiles neither


def test_only_the_agents_meeple_compile_knows_are_compiled_ahead(monkeypatch):
    """A client's own spec would queue a compile in the one preparing process per spec
    (and a mark on disk each): it compiles in its worker instead, as before."""
    started: list[str] = []
    monkeypatch.setattr(Preparer, "_compile", lambda self, job, *args: started.append(job))
    preparer = Preparer(ServerLimits())
    game = meeple.make("edges")
    assert preparer.compile_agent(game, "uct:iterations=30000") == "edges uct:iterations=4"
    assert preparer.compile_agent(game, "uct:iterations=500") == "edges uct:iterations=4"
    assert preparer.compile_agent(game, "uct:iterations=500,c=0.123") is None
    assert preparer.compile_agent(game, "random") is None  # never waits
    erd = meeple.make("erd")
    assert preparer.compile_agent(erd, "exploit:solve=true,knows=heuristic") is None  # prepared
    assert started == ["edges uct:iterations=4", "edges uct:iterations=4"]
