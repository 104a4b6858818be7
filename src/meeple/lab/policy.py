"""A policy over the batched environments' designed observation, played on the readable rules.

A learner trained on :class:`~meeple.envs.vector.MeepleVectorEnv` (or
:class:`~meeple.envs.opponent.OpponentVecEnv`) maps a seat's observation and its legal ids to
an action id. :class:`PolicyAgent` makes such a function a meeple agent: it computes the same
observation from the seat's view of the readable rules (its batched rules'
``observation_of_view``, proven equal to the batch's by the environments'
tests) and plays ``game.action_from_id`` of the id chosen. :func:`evaluate_policy` plays it
against any agent spec (``random``, the game's hand-written agent, ...) and scores it with
the lab's interval (:func:`meeple.lab.stats.score_interval`). No torch here: a policy is any
callable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from meeple.agents import make_agent, play_game
from meeple.core.agent import Observation
from meeple.core.errors import MeepleError
from meeple.core.game import Game
from meeple.core.registry import batch_rules
from meeple.core.rng import derive_seed
from meeple.lab.stats import score_interval

Policy = Callable[[np.ndarray, np.ndarray], int]
"""``policy(observation, legal)``: an action id, given a seat's observation ``(size,)`` and
its legal ids as booleans ``(actions,)``."""

Observer = Callable[[dict[str, Any], int], np.ndarray]
"""``observe(view, seat)``: the designed observation of ``seat`` from its view."""


def observer(game: Game[Any, Any, Any]) -> Observer:
    """The designed observation of ``game``'s batched environment, from a seat's view of the
    readable rules (its batched rules' ``observation_of_view``); MeepleError naming the games
    that have batched rules, or the option they refuse, where this configuration has none."""
    return batch_rules(game).observation_of_view


class PolicyAgent:
    """A policy as a meeple agent on the readable rules (see the module docstring)."""

    name = "policy"

    def __init__(self, policy: Policy, game: Game[Any, Any, Any]) -> None:
        self.policy = policy
        self.game = game
        self.observe = observer(game)

    def act(self, observation: Observation) -> Any:
        """The policy's choice from the seat's view; MeepleError if it is not legal."""
        x = self.observe(observation.view, observation.player)
        legal = {self.game.action_id(a): a for a in observation.legal_actions}
        mask = np.zeros(self.game.num_actions, dtype=np.bool_)
        mask[list(legal)] = True
        chosen = int(self.policy(x, mask))
        if chosen not in legal:
            raise MeepleError(f"the policy chose action id {chosen}, which is not legal here")
        return legal[chosen]


def outcome(returns: Any, seat: int) -> float:
    """A seat's score of a finished game: 1 alone on the highest return, a half sharing it,
    0 below it (with two seats: a win, a draw, a loss)."""
    best = max(returns)
    if returns[seat] < best:
        return 0.0
    return 1.0 if list(returns).count(best) == 1 else 0.5


def evaluate_policy(
    game: Game[Any, Any, Any], policy: Policy, opponent: str, games: int, seed: int
) -> dict[str, Any]:
    """``policy`` against ``opponent`` (an agent spec, in every other seat) over ``games``
    readable games: game ``k`` has seed ``derive_seed(seed, "matchup", k)`` and puts the
    policy in seat ``k % seats``. Its W / D / L (:func:`outcome`: 1, a half, 0), score rate
    and the lab's 95% interval."""
    if games < 1:
        raise MeepleError(f"games must be at least 1, not {games}")
    agent = PolicyAgent(policy, game)
    seats = game.num_players
    record = [0, 0, 0]
    for k in range(games):
        game_seed = derive_seed(seed, "matchup", k)
        seat = k % seats
        agents = [
            agent if p == seat else make_agent(opponent, game, derive_seed(game_seed, "seat", p))
            for p in range(seats)
        ]
        score = outcome(play_game(game, agents, game_seed).state.returns, seat)
        record[{1.0: 0, 0.5: 1, 0.0: 2}[score]] += 1
    wins, draws, losses = record
    low, high = score_interval(wins, draws, losses)
    return {
        "opponent": opponent,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": (wins + draws / 2) / games,
        "low": low,
        "high": high,
    }


def random_policy(seed: int = 0) -> Policy:
    """A policy choosing uniformly among the legal ids (for checking the plumbing)."""
    rng = np.random.default_rng(seed)

    def policy(observation: np.ndarray, legal: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(legal)))

    return policy
