"""What agents and hints need before their first decision, made off the request path in one
process of the server's own, one thing at a time.

Two kinds of thing: the data an agent reads (Erd's solved rules for a variant,
:meth:`Preparer.prepare`), and the compiled code a level's agent or a hint runs where the
cache on disk lacks it for the present sources (a fresh install, or new sources:
:meth:`Preparer.compile_agent`, :meth:`Preparer.compile_hints`). A decision waits for what
it needs (:meth:`Preparer.ready`) before its allowance starts. Compiled in its worker
instead, a card game's searching agent took most of the default allowance on a 2-core
machine and all of a shorter one: the worker was stopped mid-compile, kept nothing, and the
seat went to the default agent for the rest of the match.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from meeple.agents import available_agents
from meeple.agents.warm import compiled_ahead, compiled_job, small_specs, warm_spec
from meeple.core.game import Game
from meeple.core.kernel_cache import needs_compiling
from meeple.core.processes import die_with_parent
from meeple.core.registry import make
from meeple.interfaces.web.limits import ServerLimits

log = logging.getLogger("meeple.server")


class Preparer:
    """The server's preparing process and what it is making."""

    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        self._process: ProcessPoolExecutor | None = None
        self._preparing: dict[tuple[str, str], asyncio.Future[None]] = {}
        """Data being made, by variant (a game and its options)."""
        self._compiling: dict[str, asyncio.Future[Any] | None] = {}
        """Compiles, by job (None: found compiled already)."""
        self._known: dict[str, frozenset[str]] = {}
        """Per game, the agents compiled ahead (:func:`~meeple.agents.warm.small_specs`)."""
        self._stopped = False
        """Set by :meth:`stop`: what the stop breaks off is no failure to report."""

    def _pool(self) -> ProcessPoolExecutor:
        if self._process is None:
            self._process = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=die_with_parent,
            )
        return self._process

    def prepare(self, game: Game[Any, Any, Any], agent: str) -> None:
        """Start making what ``agent`` needs for ``game`` (once per variant at a time)."""
        key = _variant(game)
        if key in self._preparing:
            return
        future = asyncio.get_running_loop().run_in_executor(
            self._pool(), prepare_agent, game.name, game.options.changed(), agent
        )
        log.info("preparing %s for %s %s", agent, game.name, key[1])
        self._preparing[key] = future
        future.add_done_callback(functools.partial(self._prepared, key, agent))

    def prepare_for_judge(self, game: Game[Any, Any, Any]) -> None:
        """Start making what the game's solved agent needs (the data its judge reads), where
        it is missing and this server prepares the variant; the judge falls back to a
        search otherwise."""
        factory: Any  # a factory with data to prepare also says which variants are shipped
        for name, factory in available_agents(game).items():
            unprepared = getattr(factory, "unprepared", None)
            if unprepared is None or unprepared(game) is None:
                continue
            if self.limits.prepare_any_variant or factory.shipped(game):
                self.prepare(game, name)
            return

    def _compile(self, job: str, warm: Callable[..., Any], *args: Any) -> None:
        """Start ``warm(*args)``, which compiles what ``job`` runs (numba kernels) and marks
        it compiled, unless a mark says so already for the present sources: once per job
        and server."""
        if job in self._compiling:
            return
        if not needs_compiling(job):
            self._compiling[job] = None
            return
        log.info("compiling %s (a first use of these sources)", job)
        future = asyncio.get_running_loop().run_in_executor(self._pool(), warm, *args)
        future.add_done_callback(functools.partial(self._compiled, job))
        self._compiling[job] = future

    def compile_agent(self, game: Game[Any, Any, Any], spec: str) -> str | None:
        """Start compiling what agent ``spec`` runs for ``game`` if it is one of the agents
        ``meeple compile`` compiles (the levels', and search with each compiled rollout or
        opponent): the job to wait for, or None. Any other spec compiles in its worker, as
        it did: a client naming spec after spec (``c=0.1``, ``c=0.11``...) queues nothing
        here and writes no marks."""
        known = self._known.get(game.name)
        if known is None:
            known = self._known[game.name] = frozenset(small_specs(game.name))
        small = compiled_ahead(game.name, spec, known)
        if small is None:
            return None  # a light agent, one it does not compile, or one prepare solves
        job = compiled_job(game.name, small)
        self._compile(job, warm_spec, game.name, small)
        return job

    def compile_hints(self, game: Game[Any, Any, Any]) -> str:
        """Start compiling what a hint for ``game`` runs: the job to wait for."""
        # Here, not at the top: the hints' judges are imported by a server asked for one.
        from meeple.lab.hints import HINTS, warm_hints

        job = compiled_job(game.name, HINTS)
        self._compile(job, warm_hints, game.name)
        return job

    async def ready(self, game: Game[Any, Any, Any], job: str | None = None) -> None:
        """Wait until nothing is being prepared for this variant of ``game`` and, with a
        ``job``, until it is compiled."""
        for future in (self._preparing.get(_variant(game)), self._compiling.get(job or "")):
            if future is not None:
                with contextlib.suppress(Exception):  # a failed preparation: the agent says why
                    await asyncio.shield(future)

    def _broken_off(self, future: asyncio.Future[Any]) -> bool:
        """Whether a job of the preparing process ended with nothing to report: cancelled,
        or broken off by the server's stop. A stop's failure is read all the same, so that
        asyncio does not log it as an error nobody retrieved."""
        if future.cancelled():
            return True
        if self._stopped:
            future.exception()
            return True
        return False

    def _prepared(self, key: tuple[str, str], agent: str, future: asyncio.Future[Any]) -> None:
        """Say how a preparation ended; the variant may be prepared again."""
        self._preparing.pop(key, None)
        if self._broken_off(future):
            return
        error = future.exception()
        if error is not None:  # its agent says why at its first decision
            log.warning("preparing %s for %s %s failed: %s: %s", agent, *key,
                        type(error).__name__, error)  # fmt: skip
        else:
            log.info("prepared %s for %s %s", agent, *key)

    def _compiled(self, job: str, future: asyncio.Future[Any]) -> None:
        """Say how a compile in the preparing process ended."""
        if self._broken_off(future):
            return
        error = future.exception()
        if error is not None:  # what it runs compiles in the workers, as without this step
            log.warning("compiling %s failed: %s: %s", job, type(error).__name__, error)
        else:
            log.info("compiled %s in %.1f s", job, future.result())

    def stop(self) -> None:
        """Stop the preparing process, abandoning what it makes. Stopping twice is fine."""
        self._stopped = True
        if self._process is not None:
            for process in list((getattr(self._process, "_processes", None) or {}).values()):
                process.kill()
            self._process.shutdown(wait=False, cancel_futures=True)
            self._process = None


def _variant(game: Game[Any, Any, Any]) -> tuple[str, str]:
    """A game and its options as a key: one preparation per variant at a time."""
    return game.name, json.dumps(game.options.changed(), sort_keys=True, default=str)


def prepare_agent(game: str, options: dict[str, Any], agent: str) -> None:
    """In the preparing process: make what ``agent`` needs before it plays ``game`` with
    ``options`` (Erd's solved game, into the cache the workers read)."""
    made = make(game, **options)
    available_agents(made)[agent].prepare(made)  # type: ignore[attr-defined]
