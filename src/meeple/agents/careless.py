"""The careless agent: a game's hand-written agent that now and then plays a random move.

An easy opponent should still look like a player. A uniformly random one does not: in
Erosion it passes in its first turns and ends the game before a newcomer has learned a
move. Engines' weak levels are made the same way (a good player that sometimes blunders);
how often it slips sets how weak it is.
"""

from __future__ import annotations

from meeple.core.agent import Agent, Observation
from meeple.core.errors import AgentSpecError
from meeple.core.game import Action, Game
from meeple.core.rng import make_rng


class CarelessAgent:
    """Plays as ``inner`` chooses, except that at each decision with a choice it slips with
    probability ``slip`` and plays a legal move at random instead.

    Each decision's slip and random move come from a stream seeded by the seed and the
    count of decisions before it, so an agent made in the middle of a game and caught up
    (``core.agent.catch_up``) chooses as the one that played from the start, as far as
    ``inner`` does."""

    name = "careless"

    def __init__(self, game: Game, inner: Agent, seed: int = 0, slip: float = 0.3) -> None:
        if not 0.0 <= slip <= 1.0:
            raise AgentSpecError(
                f"careless: slip is the chance of a random move, from 0 to 1, not {slip!r}"
            )
        self.game = game
        self.inner = inner
        self.seed = seed
        self.slip = slip
        self._decisions = 0

    def act(self, observation: Observation) -> Action:
        """``inner``'s action, or at a slip a random legal one (``inner`` told of it)."""
        legal = observation.legal_actions
        if len(legal) == 1:
            return self.inner.act(observation)
        rng = make_rng(self.seed, "careless", self._decisions)
        self._decisions += 1
        if rng.random() >= self.slip:
            return self.inner.act(observation)
        action = rng.choice(legal)
        self._tell_inner(observation, action)
        return action

    def remember(self, observation: Observation, action: Action) -> None:
        """A decision made elsewhere (``core.agent.catch_up``): counted, and told to
        ``inner`` where it keeps something between decisions."""
        if len(observation.legal_actions) > 1:
            self._decisions += 1
        self._tell_inner(observation, action)

    def _tell_inner(self, observation: Observation, action: Action) -> None:
        # A slip is a decision the inner agent did not make: what it keeps (The Triangle
        # Clock's shown order, a search's count) must still move on as if it had.
        remember = getattr(self.inner, "remember", None)
        if remember is not None:
            remember(observation, action)
