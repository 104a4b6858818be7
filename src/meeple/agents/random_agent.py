"""The uniform random agent: the baseline every other agent must beat."""

from __future__ import annotations

from meeple.core.agent import Observation
from meeple.core.game import Action, Game
from meeple.core.rng import make_rng


class RandomAgent:
    """Picks uniformly among the legal actions, from its own seeded stream."""

    name = "random"

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = make_rng(seed, "random-agent")

    def act(self, observation: Observation) -> Action:
        """A legal action chosen uniformly at random."""
        return self.rng.choice(observation.legal_actions)
