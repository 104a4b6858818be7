"""What a sampling search plays with: rollouts, a model of the other seats, proposals.

Tree search (``mcts``) and flat search over shared worlds (``flat``) take the same settings
for these (``rollout``, ``opponent``, ``candidates``, ``seconds``) and refuse a bad one with the
same message, so each setting is read here once.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from meeple.core.agent import Observation, SeatMemory, check_budget
from meeple.core.errors import AgentSpecError
from meeple.core.game import Action, Game, State
from meeple.core.registry import (
    RANDOM_ROLLOUT,
    compiled_choice,
    compiled_playout,
    compiled_refusal,
    opponent_policies,
    rollout_policies,
)

ENGINE_ROLLOUT_LIMIT = 10_000
"""Steps after which a rollout through the rules engine gives up (returns zero); the
compiled rollouts play to the end."""

Playout = Callable[[State[Any], int], tuple[float, ...]]
"""A compiled rollout: each seat's return after playing on from a state with a seed."""
Choose = Callable[[State[Any], int, int], Action]
"""A compiled policy's action for a seat in a state, with a seed."""


def check_seconds(agent: str, seconds: float | None) -> None:
    """AgentSpecError unless ``seconds`` is None or a finite number above 0."""
    if seconds is None:
        return
    check_budget(agent, "seconds", seconds, low=0, allowed="a number of seconds above 0")
    if seconds <= 0:
        raise AgentSpecError(f"{agent}: seconds must be above 0, not {seconds!r}")


def rollout_playout(
    agent: str,
    game: Game,
    rollout: str,
    compiled: bool = True,
    rollout_limit: int = ENGINE_ROLLOUT_LIMIT,
) -> Playout | None:
    """The game's compiled rollout called ``rollout``, or None for uniformly random moves
    through the rules engine (no compiled rules, or a rollout limit below the default, which
    only the engine's rollouts keep); AgentSpecError naming the rollouts offered when
    ``rollout`` is not one of them."""
    playout = compiled_playout(game, rollout) if compiled else None
    if rollout != RANDOM_ROLLOUT and (playout is None or rollout_limit < ENGINE_ROLLOUT_LIMIT):
        policies = rollout_policies(game.name)
        if rollout not in policies:
            why = f"is not a rollout of {game.name}"
        elif not compiled or rollout_limit < ENGINE_ROLLOUT_LIMIT:
            why = "needs compiled=true and the default rollout_limit"
        else:
            why = (
                "needs the compiled rules, which do not serve these options "
                f"({compiled_refusal(game, rollout)})"
            )
            policies = [p for p in policies if compiled_playout(game, p) is not None]
        offered = sorted({RANDOM_ROLLOUT, *policies})
        raise AgentSpecError(
            f"{agent}: rollout {rollout!r} {why}; choose from: {', '.join(offered)}"
        )
    return playout if rollout_limit >= ENGINE_ROLLOUT_LIMIT else None


def opponent_model(agent: str, game: Game, opponent: str, compiled: bool, searched: str) -> Choose:
    """The compiled policy called ``opponent`` that models the other seats; AgentSpecError
    naming ``searched`` (the agent's own way with the other seats) and the policies offered
    when there is none such."""
    choose = compiled_choice(game, opponent) if compiled else None
    if choose is None:
        policies = opponent_policies(game.name)
        refusal = compiled_refusal(game, opponent) if compiled else None
        if compiled:  # offered: those the compiled rules serve here
            policies = [p for p in policies if compiled_choice(game, p)]
        offered = sorted({searched, *policies})
        why = f" (the compiled rules do not serve them: {refusal})" if refusal else ""
        raise AgentSpecError(
            f"{agent}: opponent {opponent!r} is not a policy offered for "
            f"{game.name} with these options{why}; choose from: {', '.join(offered)}"
        )
    return choose


def proposer(
    agent: str, game: Game, rollout: str, compiled: bool, candidates: int
) -> Choose | None:
    """The rollout policy that proposes ``candidates`` moves (None when ``candidates`` is 0);
    AgentSpecError when the rollout cannot choose one action."""
    check_budget(agent, "candidates", candidates, low=0, allowed="a whole number of at least 0")
    if not candidates:
        return None
    choose = compiled_choice(game, rollout) if compiled else None
    if choose is None:
        offered = sorted(opponent_policies(game.name)) or ["none"]
        raise AgentSpecError(
            f"{agent}: candidates needs a rollout that can choose one action; "
            f"for {game.name} with these options: {', '.join(offered)}"
        )
    return choose


def proposals(
    sample: Callable[[random.Random], State[Any]],
    choose: Choose,
    player: int,
    count: int,
    rng: random.Random,
) -> set[Action]:
    """What the rollout policy plays in ``count`` samples of what the seat knows: a root of
    thirty moves (a pick with or without each item) split over a thousand noisy rollouts
    picks noise, and a handful of proposals can be told apart."""
    return {choose(sample(rng), player, rng.getrandbits(31)) for _ in range(count)}


def engine_rollout(state: State[Any], rng: random.Random, limit: int) -> tuple[float, ...]:
    """Each seat's return after uniformly random moves through the rules engine; zero for
    every seat if the game has not ended after ``limit`` steps."""
    for _ in range(limit):
        if state.is_over:
            return state.returns
        player = state.to_act[0]
        state = state._next(player, rng.choice(state.legal_actions(player)))
    return state.returns if state.is_over else (0.0,) * state.game.num_players


class SeededSearch:
    """What a sampling search keeps from one decision to the next: what its seat was shown
    and remembers (``recall``: a memorise step's content, put back into every sample), and
    how many decisions it has made, which seeds each decision's random streams so that a
    fixed seed and budget replay the same choices whatever happened before."""

    def _keep_between_decisions(self, recall: bool) -> None:
        # What the seat was shown and may remember, put back into every sample: a search
        # that forgot it would play worse than the rules allow.
        self.recall = recall
        self._memory = SeatMemory(recall)
        self._decisions = 0
        self.last_iterations = 0

    def remember(self, observation: Observation, action: Action) -> None:
        """A decision made elsewhere (see ``core.agent.catch_up``): what it showed, and its
        place in the count that seeds each decision's streams; no search."""
        self._memory.see(observation)
        if len(observation.legal_actions) > 1:
            self._decisions += 1

    def _sample(self, observation: Observation, rng: random.Random) -> State[Any]:
        """A state consistent with what the seat sees and remembers, from the start of its
        decision (every seat of a simultaneous decision searches from its start, whatever
        the others have secretly submitted already)."""
        return self._memory.sample(observation, rng).decision_start()

    def _modelled_choice(
        self, state: State[Any], seat: int, choose: Choose, rng: random.Random
    ) -> Action:
        """``choose``'s action for another ``seat`` of ``state``, made on that seat's own
        sample of what it cannot see (the searching seat's hand among it): on the search's
        determinization it would answer a hand it could not know. What a memorise step
        showed both seats it remembers, as the policy agent it models does (a bare
        determinization forgets it)."""
        model = self._memory.recall_into(state.determinize(seat, rng))
        return choose(model, seat, rng.getrandbits(31))
