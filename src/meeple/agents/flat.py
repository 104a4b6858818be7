"""Flat Monte Carlo over shared worlds: every candidate is tried in the same sampled worlds.

A tree search values each action from its own iterations, each on a fresh determinization
with a fresh rollout, so two actions are compared across different deals and different luck
in the rollouts. In The Triangle Clock a good part of a value's spread is the rollout's own
luck, not the determinization (``benchmarks/shared_worlds.py``, docs/search-agents.md). Here every
candidate is played in the same *world*: one determinization of what the seat knows, the
other seats' choices at a simultaneous decision (made once per world, by a model or at
random), and one rollout seed. The candidates' difference in a world is then more what the
action changes (common random numbers), and a world costs one determinization and one model
choice for all of them.

The candidates race (Maron and Moore's racing, with paired differences): from
``min_worlds`` worlds on, at every fourth world, a candidate whose mean difference from the
leader lies more than ``z`` standard errors below zero is dropped, so later worlds go to the
moves still in doubt. With more time the race runs longer and separates moves closer in
value.

It looks one decision deep: after the candidate, the rollout policy plays every seat. It
plays the move with the best mean, never a mixture, so at a simultaneous decision it is a
best response to its model of the other seats (``opponent``), not an equilibrium.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Collection
from functools import partial
from typing import Any

import numpy as np

from meeple.agents.rollouts import (
    ENGINE_ROLLOUT_LIMIT,
    SeededSearch,
    check_seconds,
    engine_rollout,
    opponent_model,
    proposals,
    proposer,
    rollout_playout,
)
from meeple.core.agent import Observation, check_budget
from meeple.core.errors import AgentSpecError
from meeple.core.game import Action, Game, State
from meeple.core.registry import RANDOM_ROLLOUT, compiled_values
from meeple.core.rng import make_rng

UNIFORM = "random"
"""The ``opponent`` setting that lets the other seats of a simultaneous decision choose
uniformly at random in each world."""


TIES = ("random", "first")
"""How :class:`FlatAgent` picks among moves of the same best mean."""


class FlatAgent(SeededSearch):
    """Tries its candidates in the same sampled worlds and plays the best mean return.

    ``worlds`` (or ``seconds``): how many worlds to sample, or how long to keep sampling;
    ``rollout``: the game's compiled rollout (``random``, or the game's ``guided`` or other
    policies); ``opponent``: the compiled policy that makes the other seats' choices at a
    simultaneous decision, or ``random``; ``candidates=K``: only the moves the rollout policy
    proposes in K samples (0: every legal move); ``z`` and ``min_worlds``: when a candidate
    is dropped from the race; ``recall``: put what a memorise step showed into every world;
    ``ties``: among moves of the best mean, ``random`` draws one (seeded), ``first`` takes
    the first in legal order (which favours whichever seat's mountain or character the
    game lists first: kept to measure that bias).
    """

    name = "flat"

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        worlds: int = 200,
        seconds: float | None = None,
        rollout: str = RANDOM_ROLLOUT,
        opponent: str = UNIFORM,
        candidates: int = 0,
        z: float = 2.0,
        min_worlds: int = 16,
        compiled: bool = True,
        recall: bool = True,
        ties: str = "random",
    ) -> None:
        check_budget(self.name, "worlds", worlds, low=1, allowed="a whole number of at least 1")
        check_seconds(self.name, seconds)
        check_budget(self.name, "z", z, low=0, allowed="a number of at least 0")
        check_budget(
            self.name, "min_worlds", min_worlds, low=2, allowed="a whole number of at least 2"
        )
        if ties not in TIES:
            raise AgentSpecError(f"flat: ties={ties!r}; choose one of {', '.join(TIES)}")
        self.game = game
        self.seed = seed
        self.ties = ties
        self.worlds = worlds
        self.seconds = seconds
        self.rollout = rollout
        self.opponent = opponent
        self.candidates = candidates
        self.z = z
        self.min_worlds = min_worlds
        self._playout = rollout_playout(self.name, game, rollout, compiled)
        # Where the rollout values a world's candidates in one compiled call, a world costs
        # one encoding instead of an engine step and an encoding per candidate.
        self._values = compiled_values(game, rollout) if compiled else None
        self._model = None
        if opponent != UNIFORM:
            self._model = opponent_model(self.name, game, opponent, compiled, UNIFORM)
        self._propose = proposer(self.name, game, rollout, compiled, candidates)
        self._keep_between_decisions(recall)  # last_iterations: worlds of the last decision

    def act(self, observation: Observation) -> Action:
        """The candidate with the best mean return over the worlds sampled in the budget."""
        legal = observation.legal_actions
        self._memory.see(observation)
        if len(legal) == 1:
            return legal[0]
        # A fresh stream per decision keeps choices reproducible for a fixed seed and
        # budget, whatever happened earlier in the game.
        self._decisions += 1
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        player = observation.player
        sample = partial(self._sample, observation)
        alive = legal
        if self._propose is not None:
            propose_rng = make_rng(self.seed, self.name, self._decisions, "propose")
            alive = _in_order(
                legal, proposals(sample, self._propose, player, self.candidates, propose_rng)
            )
        rng = make_rng(self.seed, self.name, self._decisions, "worlds")
        ties = (
            make_rng(self.seed, self.name, self._decisions, "ties")
            if self.ties == "random"
            else None
        )
        values: dict[Action, list[float]] = {a: [] for a in alive}
        done = 0
        while len(alive) > 1:
            if deadline is None:
                if done >= self.worlds:
                    break
            elif time.perf_counter() >= deadline and done > 0:
                break
            world = sample(rng)
            others = self._others(world, player, rng)
            seed = rng.getrandbits(31)
            if self._values is not None and not others:
                found = self._values(world, player, alive, seed)
                for action, value in zip(alive, found, strict=True):
                    values[action].append(value)
            else:
                for action in alive:
                    values[action].append(self._value(world, player, action, others, seed))
            done += 1
            # every fourth world: each check reads every world so far
            if done >= self.min_worlds and done % 4 == 0:
                alive = self._race(alive, values, ties)
        self.last_iterations = done
        return _leader(alive, values, ties)

    def _others(self, world: State[Any], player: int, rng: random.Random) -> dict[int, Action]:
        """The other seats' choices at this decision in ``world``: uniformly random, or the
        model's, each on that seat's own sample (``SeededSearch._modelled_choice``)."""
        chosen: dict[int, Action] = {}
        for p in world.to_act:
            if p == player:
                continue
            if self._model is None:
                chosen[p] = rng.choice(world.legal_actions(p))
            else:
                chosen[p] = self._modelled_choice(world, p, self._model, rng)
        return chosen

    def _value(
        self,
        world: State[Any],
        player: int,
        action: Action,
        others: dict[int, Action],
        seed: int,
    ) -> float:
        """``player``'s return after ``action`` (and the others' choices) in ``world``, then
        one rollout with ``seed``: the same seed for every candidate."""
        state = world
        for p in world.to_act:
            state = state._next(p, action if p == player else others[p])
        if state.is_over:
            return state.returns[player]
        if self._playout is not None:
            return self._playout(state, seed)[player]
        return engine_rollout(state, random.Random(seed), ENGINE_ROLLOUT_LIMIT)[player]

    def _race(
        self, alive: list[Action], values: dict[Action, list[float]], ties: random.Random | None
    ) -> list[Action]:
        """``alive`` less the candidates clearly behind the leader (their differences from
        it, world by world, have a mean more than ``z`` standard errors below zero) and
        those that have scored exactly as the leader in every world: moves that come to
        the same thing (no world tells them apart) would hold the race open to the end."""
        leader = _leader(alive, values, ties)
        best = np.asarray(values[leader])
        root_n = math.sqrt(len(best))
        kept = []
        for action in alive:
            if action != leader:
                diff = np.asarray(values[action]) - best
                if not diff.any() or diff.mean() + self.z * diff.std(ddof=1) / root_n < 0:
                    continue
            kept.append(action)
        return kept


def _in_order(legal: list[Action], chosen: Collection[Action]) -> list[Action]:
    """The ``chosen`` actions in the order of ``legal`` (a seeded search must not depend on
    the order of a set)."""
    return [a for a in legal if a in chosen]


def _leader(
    alive: list[Action], values: dict[Action, list[float]], ties: random.Random | None
) -> Action:
    """The candidate with the best mean, drawn with ``ties`` among equals (the first in
    legal order without it). Moves that come to
    the same thing in every world are common (which other mountain to weather, which of two
    equal targets to hit), and taking the first in legal order would always favour the same
    seat's mountain or character: a seat imbalance of the agent's making, not the rules'."""
    best = max(_mean(values[a]) for a in alive)
    tied = [a for a in alive if _mean(values[a]) == best]
    return tied[ties.randrange(len(tied))] if ties is not None and len(tied) > 1 else tied[0]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("-inf")
