"""The search judge: any game's decisions judged by information-set MCTS (``ismcts``).

The judged seat's search sees only what the seat saw: every iteration samples the hidden
parts from the seat's own view (``Observation.determinize``) with what it was shown before
put back (``catch_up``), never from the cards it could not see. A fixed iteration budget and
a seed make a review reproducible. An action's value is its mean return to the seat at the
root (from -1 to +1); the best is the action the search would play (most visited), and a
loss is a mistake only where its tries can tell it from chance
(:func:`~meeple.core.review.beyond_noise`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.agents.mcts import ISMCTSAgent
from meeple.core.game import Action, Game, State
from meeple.core.review import (
    SEARCH_NOISE,
    Judgement,
    JudgeSettings,
    beyond_noise,
    loss_of,
    most_visited,
    only_action,
    searched_root,
    tries_words,
)

SEARCH_ITERATIONS = 200
"""Iterations per decision by default: a typical card game reviewed in well under a
minute on a shared 2-core machine (docs/solving.md, "Reviews")."""


class SearchJudge:
    """Judges a seat's decision by the root statistics of a seeded ``ismcts`` search."""

    name = "ismcts"

    def __init__(self, game: Game[Any, Any, Any], settings: JudgeSettings) -> None:
        self.game = game
        self.settings = settings
        self.iterations = settings.iterations or SEARCH_ITERATIONS

    @property
    def label(self) -> str:
        """The judge named with its budget, as a review shows it."""
        return f"ismcts {self.iterations}"

    def judge(
        self,
        history: Sequence[State[Any]],
        moves: Sequence[tuple[int, str]],
        seat: int,
        chosen: Action,
    ) -> Judgement:
        """The root values of a search for ``seat`` at ``history[-1]`` (see the module)."""
        agent = ISMCTSAgent(self.game, seed=self.settings.seed, iterations=self.iterations)
        found = searched_root(agent, history, moves, seat)
        values = {str(a): mean for a, (_, mean) in found.items()}
        action = str(chosen)
        if len(found) == 1:
            return only_action(seat, action, values, self.label)
        top = most_visited(found)
        best = str(top)
        loss = loss_of(values, best, action)
        visits = found.get(chosen, (0, None))[0]
        why = tries_words(values, best, action, visits, self.iterations)
        return Judgement(
            seat, action, best, loss, values, self.label, "return", why,
            mistake=beyond_noise(loss, found[top][0], visits), noise=SEARCH_NOISE,
        )  # fmt: skip
