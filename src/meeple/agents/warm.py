"""Compiling a game's agents ahead of their first use: what ``meeple compile`` does for
every game, and a server for a game before its first searching move or hint (so that no
agent's allowance is spent compiling).

A kernel is compiled for the types it is called with, so each game is played here by the
agents its levels and rollouts name, with their budgets cut to a few iterations or worlds
(the same compiled code, a hundredth of the work), and stepped in its batched rules. Once an
agent's game is played, a mark says so for the present sources
(:func:`meeple.core.kernel_cache.mark_compiled`): a server that finds it need not compile that
agent again before its first move.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Any

import numpy as np

from meeple.agents.levels import DESIGNER, LEVELS
from meeple.agents.play import play_game
from meeple.agents.spec import make_agent, parse_spec
from meeple.core.errors import AgentSpecError, MeepleError
from meeple.core.game import Game
from meeple.core.kernel_cache import mark_compiled, needs_compiling
from meeple.core.registry import batch_rules, make, opponent_policies, rollout_policies

BUDGETS = {"iterations": "4", "worlds": "2", "min_worlds": "2"}
"""What a spec's search budget is cut to: enough to reach every compiled call it makes."""

BATCHED = "batched"
"""What a game's batched rules are called among its compiles (:func:`compiled_job`)."""


def small_spec(text: str) -> str | None:
    """The agent spec ``text`` with its search budget cut to :data:`BUDGETS` (a time budget
    too), its parameters in order: the same compiled calls, a hundredth of the work. None
    for a spec that solves the game first (solving Erd is its own work, seconds of it not
    compile)."""
    spec = parse_spec(text)
    if spec.params.get("solve") == "true":
        return None
    params = dict(spec.params)
    if spec.name in ("ismcts", "mcts", "uct"):
        params.pop("seconds", None)
        params["iterations"] = BUDGETS["iterations"]
    elif spec.name == "flat":
        params.pop("seconds", None)
        params.update(worlds=BUDGETS["worlds"], min_worlds=BUDGETS["min_worlds"])
    pairs = sorted(f"{k}={v}" for k, v in params.items())
    return f"{spec.name}:{','.join(pairs)}".rstrip(":")


def small_specs(name: str) -> list[str]:
    """The agent specs whose compiled code a game's players reach: its levels' and designer
    level's specs, search with each of its compiled rollouts, and search against and the
    compiled policy playing each of its compiled choices, all cut by :func:`small_spec`."""
    texts = list(LEVELS.get(name, {}).values())
    designer = DESIGNER.get(name)
    texts += list(designer.values()) if isinstance(designer, dict) else [designer or ""]
    for policy in rollout_policies(name):
        texts += [f"ismcts:rollout={policy}", f"flat:rollout={policy}"]
    for policy in opponent_policies(name):
        texts += [f"ismcts:opponent={policy}", f"flat:opponent={policy}", f"policy:policy={policy}"]
    specs = (small_spec(text) for text in filter(None, texts))
    return list(dict.fromkeys(spec for spec in specs if spec is not None))


LIGHT_AGENTS = frozenset({"random", "greedy", "careless"})
"""Agents that do not search (the easy levels: random play, Edges' greedy look one move
ahead, the hand-written agents with slips): a decision costs a replay of the match and
little more, so a server runs it in the light worker, never behind a search, and nothing is
compiled ahead for it."""


def compiled_ahead(name: str, spec: str, known: Collection[str] | None = None) -> str | None:
    """What to compile ahead of agent ``spec``'s first move in game ``name`` (a small spec
    of :func:`small_specs`, ``known`` where the caller holds them): None for an agent that
    does not search (:data:`LIGHT_AGENTS`), one that solves the game first, or one ``meeple
    compile`` does not compile (it compiles at its first move)."""
    if parse_spec(spec).name in LIGHT_AGENTS:
        return None
    small = small_spec(spec)
    return small if small in (small_specs(name) if known is None else known) else None


def compiled_job(name: str, what: str) -> str:
    """The name a compile is marked by (:func:`meeple.core.kernel_cache.mark_compiled`): a game's
    and a small spec's (:func:`small_spec`), or another of the game's uses."""
    return f"{name} {what}"


def warm_spec(name: str, spec: str) -> float:
    """Compile (or read back from the cache) what agent ``spec`` (cut by :func:`small_spec`)
    calls, by a game of ``name`` with it in every seat, then mark it compiled: the seconds
    it took. MeepleError if the game offers no such agent."""
    start = time.perf_counter()
    game = make(name)
    play_game(game, [make_agent(spec, game, seed) for seed in range(game.num_players)], seed=0)
    mark_compiled(compiled_job(name, spec))
    return time.perf_counter() - start


def warm_game(name: str, batched: bool = True) -> tuple[str, float, list[str]]:
    """Compile what ``name``'s agents call (each spec of :func:`small_specs`) and, with
    ``batched``, what its batched rules call, each marked compiled once done; what a mark
    says is compiled for the present sources is skipped. The game, the seconds it took and
    the specs it could not build (an agent this game does not offer)."""
    start = time.perf_counter()
    skipped = []
    for spec in small_specs(name):
        if not needs_compiling(compiled_job(name, spec)):
            continue
        try:
            warm_spec(name, spec)
        except AgentSpecError:
            skipped.append(spec)
    if batched and needs_compiling(compiled_job(name, BATCHED)):
        _step_batched(make(name))
        mark_compiled(compiled_job(name, BATCHED))
    return name, time.perf_counter() - start, skipped


def _step_batched(game: Game[Any, Any, Any]) -> None:
    """Play a few batched games of ``game`` to their end with random legal actions, through
    the calls the research environments make (``meeple.envs.vector``)."""
    # Here, not at the top: meeple.core.batch is compiled code, and every command and
    # server imports this module.
    from meeple.core.batch import arrays, random_legal_ids

    try:
        rules = batch_rules(game)
    except MeepleError:
        return  # a game without batched rules
    batch, rng = 4, np.random.default_rng(0)
    states, masks, obs = arrays(rules, batch)
    states[:] = rules.initials(np.arange(batch, dtype=np.int64))
    for opponent in getattr(rules, "opponents", ()):  # the game's batched opponents
        acting = rules.to_act(states)
        seats = np.zeros(batch, dtype=np.int64) if acting.ndim == 2 else acting
        acting = acting[:, 0] if acting.ndim == 2 else acting >= 0
        rules.opponent_actions(opponent, states, seats, acting, np.arange(batch))
    rewards = np.zeros((batch, rules.num_players), dtype=np.float32)
    done, ended = np.zeros(batch, dtype=np.bool_), np.zeros(batch, dtype=np.bool_)
    for _ in range(10_000):
        rules.look(states, masks, obs)
        rules.step(states, random_legal_ids(masks, rng), rewards, done)
        ended |= done
        if ended.all():
            break
    rules.observe(states, obs)
