"""Agents think in worker processes, so a long search never holds up the server's messages.

A worker is handed plain data (the game, its options, the seed, the moves so far, the seat
and the agent spec), rebuilds the position by replaying the moves, brings a new agent up to
date with its seat's earlier decisions, and returns the move's notation. Workers keep
nothing between calls, so any worker can serve any match, a worker that dies loses one
decision, and a restarted server needs nothing from the old workers.

A decision may take its allowance (the agent's time budget and a margin, from the
operator's limits) and no more: past it the worker is killed and a new one started in its
place, so an agent that overruns holds up no other match for longer than that. The workers
are shared between the addresses that made the matches (:class:`AgentPool`), so one
address's agents never make another's wait behind a queue of their decisions.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
from collections import Counter
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from meeple.agents import make_agent
from meeple.core.agent import Observation, catch_up
from meeple.core.errors import MeepleError
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


def hint_move(
    game: str,
    options: dict[str, Any],
    seed: int,
    moves: list[tuple[int, str]],
    seat: int,
    iterations: int,
    exact: int,
) -> dict[str, Any]:
    """The hint for ``seat`` after ``moves`` (:func:`meeple.lab.hints.hint`): runs in a
    worker. The judge works from the seat's view only; ``iterations`` caps its searches and
    ``exact`` is the most pyramids left at which Edges' solver judges."""
    from meeple.lab.hints import hint, hint_judge

    record = GameRecord(game=game, options=options, seed=seed, moves=moves)
    states = record.states()
    judge = hint_judge(states[-1].game, iterations, max_left=exact)
    return hint(states, record.moves, seat, judge)


AGENT_TASKS: dict[str, Callable[..., Any]] = {"move": agent_move, "hint": hint_move}
"""What an agents' worker may be asked to run, by name (a pool's default tasks)."""

START_SECONDS = 120.0
"""How long a new worker may take to start (import meeple) before it counts as dead."""


class AgentOverrun(MeepleError):
    """An agent's decision ran past its allowance; its worker was stopped."""


class TaskFailed(MeepleError):
    """A task raised in its worker (a fault of the server's code, named in the message);
    the worker serves on."""


def _serve(conn: Connection, tasks: dict[str, Callable[..., Any]]) -> None:
    """A worker process: answer each task (a name in ``tasks`` and its arguments) with
    ``("ok", answer)`` or ``("error", message)`` until the server closes the pipe."""
    die_with_parent()  # no orphans after a kill -9 of the server
    # The server stops its workers itself (SIGKILL, and the kernel's at its death). A stop
    # sent to the whole process group, as Ctrl-C at a terminal and systemd's stop are,
    # killed a thinking worker before the server began stopping: a traceback was printed,
    # and the dead worker read as an agent that failed, whose seat went to another agent.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        conn.send(("ready", ""))  # imported: the allowance of its first task counts from here
        while True:
            kind, args = conn.recv()
            try:
                reply: tuple[str, Any] = ("ok", tasks[kind](*args))
            except Exception as exc:  # the server logs it; the worker serves on
                reply = ("error", f"{type(exc).__name__}: {exc}")
            conn.send(reply)
    except (EOFError, OSError):
        # The server closed its end (it stopped, or was killed, while this worker started,
        # waited or thought): nobody is left to answer, and a traceback would say nothing.
        return


class _Worker:
    """One worker process and the server's end of its pipe."""

    def __init__(self, tasks: dict[str, Callable[..., Any]]) -> None:
        # spawn, not fork: forking a process that runs an event loop and threads copies
        # locks in whatever state they were.
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, tasks), daemon=True)
        self.process.start()
        child.close()
        self.ready = False

    def wait_ready(self) -> None:
        """Wait until the new process has imported meeple (runs in a waiting thread)."""
        if not self.ready:
            self.conn.recv()
            self.ready = True

    def call(self, task: tuple[str, tuple[Any, ...]]) -> tuple[str, Any]:
        """Hand the worker a task and wait for its answer (runs in a waiting thread)."""
        self.conn.send(task)
        return self.conn.recv()

    def kill(self) -> None:
        """Stop the worker at once, whatever it is doing."""
        with contextlib.suppress(Exception):
            self.process.kill()
            self.process.join(1)
        with contextlib.suppress(Exception):
            self.conn.close()


class AgentPool:
    """Runs agent decisions and hints (or other ``tasks``: module-level functions by name)
    off the event loop: ``workers`` processes, or threads if 0 (threads cannot be stopped: a
    task past its allowance is abandoned, not ended).

    Each decision names its ``owner`` (the address that made the match): the workers are
    shared between owners, not handed out first come, first served. A free worker goes to
    the waiting decision whose owner holds the fewest workers (among equals, the owner
    served longest ago: owners take turns, however many decisions each has waiting), and
    an owner that holds a worker already never takes the last free one: one is kept for an
    owner holding none. So however many matches one address fills with agents thinking at
    the cap, another address's agent (or its person's clock running out) waits for no more
    than a worker another owner holds; with one worker, for no more than an allowance."""

    def __init__(
        self, workers: int | None = None, tasks: dict[str, Callable[..., Any]] | None = None
    ) -> None:
        if workers is None:
            workers = max(1, os.cpu_count() or 1)
        self.workers = workers
        self.tasks = dict(AGENT_TASKS if tasks is None else tasks)
        self._threads: ThreadPoolExecutor | None = None
        self._idle: list[_Worker] | None = None
        self._busy: set[_Worker] = set()
        self._waiting: list[tuple[Hashable, asyncio.Future[_Worker]]] = []
        """Decisions waiting for a worker, oldest first, with their owners."""
        self._held: Counter[Hashable] = Counter()
        """Workers each owner holds now."""
        self._served: dict[Hashable, int] = {}
        """When each owner was last handed a worker (a count of hand-outs)."""
        self._handed = 0
        self._closed = False
        self.overruns = 0
        """How many decisions were stopped past their allowance."""

    def _thread_pool(self) -> ThreadPoolExecutor:
        if self._threads is None:
            # With processes, one thread per worker waits on its pipe; without, two run agents.
            size = self.workers if self.workers > 0 else 2
            self._threads = ThreadPoolExecutor(max_workers=size, thread_name_prefix="agent")
        return self._threads

    def _workers(self) -> list[_Worker]:
        if self._idle is None:
            # Started from the event loop's thread: a worker's death signal follows the
            # thread that started it, and this one lives as long as the server.
            self._idle = [_Worker(self.tasks) for _ in range(self.workers)]
        return self._idle

    def start(self) -> None:
        """Start the worker processes now, without waiting for them: the first task then
        finds them ready, or nearly (a worker's start imports meeple). Call it from the
        event loop's thread."""
        if self.workers > 0 and not self._closed:
            self._workers()

    def held(self, owner: Hashable) -> int:
        """How many workers ``owner``'s decisions hold now."""
        return self._held[owner]

    async def move(self, *args: Any, allowance: float | None = None, owner: Hashable = None) -> str:
        """The agent's move (see :func:`agent_move` for the arguments), once ``owner``'s turn
        for a worker comes (see the class). Past ``allowance`` seconds of thinking,
        AgentOverrun, and (with processes) the worker is replaced."""
        answer: str = await self.run("move", args, allowance, owner)
        return answer

    async def hint(
        self, *args: Any, allowance: float | None = None, owner: Hashable = None
    ) -> dict[str, Any]:
        """A seat's hint (see :func:`hint_move` for the arguments), in a worker as an
        agent's move is, with the same turns, allowance and replacement past it."""
        answer: dict[str, Any] = await self.run("hint", args, allowance, owner)
        return answer

    async def run(
        self, kind: str, args: tuple[Any, ...], allowance: float | None, owner: Hashable = None
    ) -> Any:
        """Run task ``kind`` (a name in the pool's ``tasks``) in a worker once ``owner``'s
        turn comes: see :meth:`move`."""
        if self._closed:  # the server is stopping: no worker is started again
            raise MeepleError("the agents' workers are stopped: the server is stopping")
        loop = asyncio.get_running_loop()
        if self.workers <= 0:
            future = loop.run_in_executor(self._thread_pool(), self.tasks[kind], *args)
            try:
                return await asyncio.wait_for(future, allowance)
            except TimeoutError:
                self.overruns += 1
                raise AgentOverrun(f"no {kind} within {allowance:g} s") from None
        worker = await self._next_worker(owner)
        self._busy.add(worker)
        finished = False
        try:
            if not worker.process.is_alive():
                worker.kill()
                worker = _Worker(self.tasks)
            try:
                # A new worker's start (importing meeple) is not the agent's thinking.
                await asyncio.wait_for(
                    loop.run_in_executor(self._thread_pool(), worker.wait_ready), START_SECONDS
                )
                waiting = loop.run_in_executor(self._thread_pool(), worker.call, (kind, args))
            except (EOFError, OSError, TimeoutError) as exc:
                raise MeepleError(f"the agent's worker did not start: {exc!r}") from None
            try:
                status, text = await asyncio.wait_for(waiting, allowance)
            except TimeoutError:
                self.overruns += 1
                raise AgentOverrun(
                    f"no {kind} within {allowance:g} s: its worker was stopped"
                ) from None
            except (EOFError, OSError) as exc:
                raise MeepleError(f"the agent's worker died: {exc!r}") from None
            finished = True
        finally:
            self._busy.discard(worker)
            if not finished:
                # Stopped, dead or cancelled mid-decision: its answer would reach the next
                # task, so the worker goes and a new one takes its place.
                worker.kill()
            self._release(owner, worker if finished else None)
        if status != "ok":
            raise TaskFailed(text)
        return text

    async def _next_worker(self, owner: Hashable) -> _Worker:
        """A worker for ``owner``, once its turn comes; MeepleError if the pool closes
        first (a task waiting its turn when the server stops is told so, not left waiting)."""
        self._workers()
        turn: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        self._waiting.append((owner, turn))
        self._hand_out()
        try:
            return await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled() and turn.exception() is None:
                self._release(owner, turn.result())  # handed a worker as it was cancelled
            else:
                self._waiting = [w for w in self._waiting if w[1] is not turn]
            raise

    def _hand_out(self) -> None:
        """Give free workers to waiting decisions, fairly between owners (see the class)."""
        idle = self._idle
        # A decision cancelled while it waited is dropped here (its task removes it too).
        self._waiting = [w for w in self._waiting if not w[1].done()]
        while idle and self._waiting:
            allowed = [
                (self._held[owner], self._served.get(owner, -1), k)
                for k, (owner, _turn) in enumerate(self._waiting)
                if self._held[owner] == 0 or len(idle) >= 2
            ]
            if not allowed:
                return
            owner, turn = self._waiting.pop(min(allowed)[2])
            self._held[owner] += 1
            self._handed += 1
            self._served[owner] = self._handed
            if len(self._served) > 10_000:  # forget owners long gone (they sort first again)
                self._served = {o: n for o, n in self._served.items() if n > self._handed - 1000}
            turn.set_result(idle.pop())

    def _release(self, owner: Hashable, worker: _Worker | None) -> None:
        """``owner`` is done with a worker: it (or, if None, a new one in its place) is
        free for the next decision."""
        self._held[owner] -= 1
        if self._held[owner] <= 0:
            del self._held[owner]
        if self._closed:
            if worker is not None:
                worker.kill()
            return
        self._workers().append(worker if worker is not None else _Worker(self.tasks))
        self._hand_out()

    def close(self) -> None:
        """Stop the workers (a decision in progress is abandoned, a task waiting for a
        worker is refused)."""
        self._closed = True
        for _owner, turn in self._waiting:
            if not turn.done():
                turn.set_exception(MeepleError("the workers are stopped: the server is stopping"))
        self._waiting.clear()
        if self._idle is not None:
            for worker in self._idle:
                worker.kill()
            self._idle = None
        for worker in list(self._busy):
            worker.kill()
        self._busy.clear()
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None
