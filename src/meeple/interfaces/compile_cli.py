"""``meeple compile``: compile every game's compiled code now, rather than at its first use.

The compiled rules, rollouts and batched rules are numba kernels, compiled the first time a
process calls them and kept in a cache on disk (:mod:`meeple.core.kernels`); every later
process reads them back in a fraction of the time. On a fresh checkout the first batched
step, or the first search of a command, waits for that compile (minutes, all games
together, on a 2-core machine), and two processes that start at once each compile the same
kernels. This command compiles them once, the games shared out over worker processes
(:func:`meeple.agents.warm.warm_game` and :func:`meeple.lab.hints.warm_hints` each: Edges'
hints compile its solver): ``make test`` runs it before the suite. A server compiles what
a searching agent or a hint runs before its first use, where no run of this command marked
it compiled for the present sources; an operator may run this command before ``meeple
serve`` so that no first game waits."""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Annotated

import typer

from meeple.agents.warm import compiled_job, warm_game
from meeple.core.kernel_cache import cache_places, keeps_compiled, needs_compiling
from meeple.core.registry import games as registered_games
from meeple.core.words import counted
from meeple.interfaces.console import console, fail


def _warm(job: str) -> tuple[str, float, list[str]]:
    # Here, not at the top: every command imports this module, few need the hints' judges.
    from meeple.lab.hints import HINTS, warm_hints

    name, seconds, skipped = warm_game(job)
    if needs_compiling(compiled_job(job, HINTS)):
        seconds += warm_hints(job)
    return name, seconds, skipped


def compile_command(
    games: Annotated[
        list[str] | None, typer.Argument(help="games to compile for (default: every game)")
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", min=1, help="worker processes (default: one per core)"),
    ] = None,
) -> None:
    """Compile the games' compiled code now (rules, rollouts, batched rules) for later use.

    Each kernel goes into the cache on disk that every later process reads, so the first
    game against a searching level, hint or batched step starts at once.
    """
    known = [info.name for info in registered_games()]
    for name in games or []:
        if name not in known:
            raise fail(f"no game {name!r}; games: {', '.join(known)}")
    if not keeps_compiled():
        # Compiled here, nothing would outlive this command: saying "compiled" would mislead.
        raise fail(
            f"nothing compiled: there is no folder to keep compiled code in that you can "
            f"write ({cache_places()}); set NUMBA_CACHE_DIR to one you can write, or each "
            "command compiles what it uses when it starts"
        )
    todo = list(games or known)
    workers = min(jobs or os.cpu_count() or 1, len(todo))
    start = time.perf_counter()
    if workers == 1:
        done = [_warm(job) for job in todo]
    else:
        with ProcessPoolExecutor(workers) as pool:
            done = list(pool.map(_warm, todo))
    for name, seconds, skipped in done:
        note = f" (not offered here: {', '.join(skipped)})" if skipped else ""
        console.print(f"{name}: {seconds:.1f} s{note}")
    jobs_done = counted(len(done), "job")
    console.print(
        f"Compiled in {time.perf_counter() - start:.1f} s: {jobs_done} on "
        f"{counted(workers, 'worker')}."
    )
