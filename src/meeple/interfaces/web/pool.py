"""Agents think in worker processes, so a long search never holds up the server's messages.

A worker is handed plain data (the game, its options, the seed, the moves so far, the seat
and the agent spec), rebuilds the position by replaying the moves, brings a new agent up to
date with its seat's earlier decisions, and returns the move's notation. Workers keep
nothing between calls, so any worker can serve any match, a worker that dies loses one
decision, and a restarted server needs nothing from the old workers.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from meeple.agents import make_agent
from meeple.core.agent import Observation, catch_up
from meeple.core.processes import die_with_parent
from meeple.core.record import GameRecord


def agent_move(
    game: str,
    options: dict[str, Any],
    seed: int,
    moves: list[tuple[int, str]],
    seat: int,
    spec: str,
    agent_seed: int,
) -> str:
    """The move ``spec`` makes for ``seat`` after ``moves``: runs in a worker. The agent is
    made afresh and told its seat's earlier decisions (``catch_up``), so it plays as the
    same agent seated from the first move would (``agent_seed`` is the seat's, not the
    decision's)."""
    record = GameRecord(game=game, options=options, seed=seed, moves=moves)
    states = record.states()
    agent = make_agent(spec, states[-1].game, agent_seed)
    catch_up(agent, seat, states, record.moves)
    return str(agent.act(Observation(states[-1], seat)))


class AgentPool:
    """Runs agent decisions off the event loop: ``workers`` processes, or threads if 0."""

    def __init__(self, workers: int | None = None) -> None:
        if workers is None:
            workers = max(1, os.cpu_count() or 1)
        self.workers = workers
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.workers <= 0:
                self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="agent")
            else:
                # spawn, not fork: forking a process that runs an event loop and threads
                # copies locks in whatever state they were.
                self._executor = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=die_with_parent,  # no orphans after a kill -9 of the server
                )
        return self._executor

    async def move(self, *args: Any) -> str:
        """The agent's move (see :func:`agent_move` for the arguments)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), agent_move, *args)

    def close(self) -> None:
        """Stop the workers (a decision in progress is abandoned)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
