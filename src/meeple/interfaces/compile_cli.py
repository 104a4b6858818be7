"""``meeple compile``: compile every game's compiled code now, rather than at its first use.

The compiled rules, rollouts and batched rules are numba kernels, compiled the first time a
process calls them and kept in a cache on disk (:mod:`meeple.core.kernels`); every later
process reads them back in a fraction of the time. The first game against a searching
opponent, the first batched step or the first hint on a fresh checkout or server waits for
that compile (minutes, all games together, on a 2-core machine), and two processes that
start at once each compile the same kernels. This command compiles them once, the games
shared out over worker processes, so that none of that happens later: ``make test`` runs it
before the suite, and an operator may run it before ``meeple serve``.

A kernel is compiled for the types it is called with, so each game is played here by the
agents its levels and rollouts name, with their budgets cut to a few iterations or worlds
(the same compiled code, a hundredth of the work), and stepped in its batched rules.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Annotated, Any

import numpy as np
import typer

from meeple.agents import make_agent, parse_spec
from meeple.agents.levels import DESIGNER, LEVELS
from meeple.agents.play import play_game
from meeple.core.errors import MeepleError
from meeple.core.game import Game
from meeple.core.registry import batch_rules, make, opponent_policies, rollout_policies
from meeple.core.registry import games as registered_games
from meeple.interfaces.console import console, fail

BUDGETS = {"iterations": "4", "worlds": "2", "min_worlds": "2"}
"""What a spec's search budget is cut to: enough to reach every compiled call it makes."""

SOLVER = "the Edges solver"
"""The job that compiles the exact solver's search (not a game's agents)."""


def small_specs(name: str) -> list[str]:
    """The agent specs whose compiled code a game's players reach: its levels' and designer
    level's specs, search with each of its compiled rollouts, and search against and the
    compiled policy playing each of its compiled choices, all with
    the budgets of :data:`BUDGETS`. Specs that solve the game first are left out (solving
    Erd is its own work, seconds of it not compile)."""
    texts = list(LEVELS.get(name, {}).values())
    designer = DESIGNER.get(name)
    texts += list(designer.values()) if isinstance(designer, dict) else [designer or ""]
    for policy in rollout_policies(name):
        texts += [f"ismcts:rollout={policy}", f"flat:rollout={policy}"]
    for policy in opponent_policies(name):
        texts += [f"ismcts:opponent={policy}", f"flat:opponent={policy}", f"policy:policy={policy}"]
    specs: dict[tuple[str, ...], str] = {}
    for text in filter(None, texts):
        spec = parse_spec(text)
        if spec.params.get("solve") == "true":
            continue
        params = dict(spec.params)
        if spec.name in ("ismcts", "mcts", "uct"):
            params["iterations"] = BUDGETS["iterations"]
        elif spec.name == "flat":
            params.update(worlds=BUDGETS["worlds"], min_worlds=BUDGETS["min_worlds"])
        pairs = [f"{k}={v}" for k, v in params.items()]
        specs.setdefault((spec.name, *sorted(pairs)), f"{spec.name}:{','.join(pairs)}".rstrip(":"))
    return list(specs.values())


def warm_game(name: str) -> tuple[str, float, list[str]]:
    """Compile (or read back from the cache) what playing ``name`` calls; the game, the
    seconds it took and the specs it could not build (an agent this game does not offer)."""
    start = time.perf_counter()
    game = make(name)
    skipped = []
    for spec in small_specs(name):
        try:
            agents = [make_agent(spec, game, seed) for seed in range(game.num_players)]
        except MeepleError:
            skipped.append(spec)
            continue
        play_game(game, agents, seed=0)
    _step_batched(game)
    return name, time.perf_counter() - start, skipped


def _step_batched(game: Game[Any, Any, Any]) -> None:
    """Play a few batched games of ``game`` to their end with random legal actions, through
    the calls the research environments make (``meeple.envs.vector``)."""
    # Here, not at the top: meeple.core.batch is compiled code, and every command imports
    # this module to offer ``meeple compile``.
    from meeple.core.batch import arrays, random_legal_ids

    try:
        rules = batch_rules(game)
    except MeepleError:
        return  # a game without batched rules
    batch, rng = 4, np.random.default_rng(0)
    states, masks, obs = arrays(rules, batch)
    states[:] = rules.initials(np.arange(batch, dtype=np.int64))
    rewards = np.zeros((batch, rules.num_players), dtype=np.float32)
    done, ended = np.zeros(batch, dtype=np.bool_), np.zeros(batch, dtype=np.bool_)
    for _ in range(10_000):
        rules.look(states, masks, obs)
        rules.step(states, random_legal_ids(masks, rng), rewards, done)
        ended |= done
        if ended.all():
            break
    rules.observe(states, obs)


def warm_solver() -> tuple[str, float, list[str]]:
    """Compile the Edges solver's search (by solving the smallest board)."""
    from meeple.solvers.edges_solver import warm_up

    start = time.perf_counter()
    warm_up()
    return SOLVER, time.perf_counter() - start, []


def _warm(job: str) -> tuple[str, float, list[str]]:
    return warm_solver() if job == SOLVER else warm_game(job)


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
    todo = list(games or known)
    if not games:
        todo.append(SOLVER)
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
    jobs_done = f"{len(done)} job{'s' if len(done) > 1 else ''}"
    console.print(
        f"Compiled in {time.perf_counter() - start:.1f} s: {jobs_done} on {workers} "
        f"worker{'s' if workers > 1 else ''}."
    )
