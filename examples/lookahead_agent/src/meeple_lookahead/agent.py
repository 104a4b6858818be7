"""The lookahead agent: each legal move tried once, in one world the seat cannot tell from
the true one, the move that leaves it furthest ahead played."""

from __future__ import annotations

from meeple.core.agent import Observation, check_budget
from meeple.core.game import Action, Game
from meeple.core.rng import make_rng


class LookaheadAgent:
    """Plays the move after which its score leads the best other seat's by the most, in a
    sampled world (``worlds`` of them, the margins summed); ties go to the first such move."""

    name = "lookahead"

    def __init__(self, game: Game, seed: int = 0, worlds: int = 1) -> None:
        # A bad budget is refused in one line (AgentSpecError), as the built-in agents do.
        check_budget("lookahead", "worlds", worlds, 1, "a whole number of 1 or more")
        self.worlds = worlds
        self.rng = make_rng(seed, "lookahead")

    def act(self, observation: Observation) -> Action:
        """The legal action with the best summed margin over ``worlds`` sampled states."""
        seat = observation.player
        margins = [0.0] * len(observation.legal_actions)
        for _ in range(self.worlds):
            # The seat's view with the unknown parts drawn: never the true state.
            world = observation.determinize(self.rng)
            for i, action in enumerate(observation.legal_actions):
                scores = world.apply(seat, action).standing()
                if scores is not None:
                    others = [s for k, s in enumerate(scores) if k != seat]
                    margins[i] += scores[seat] - max(others, default=0)
        return observation.legal_actions[margins.index(max(margins))]
