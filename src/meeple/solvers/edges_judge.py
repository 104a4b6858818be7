"""The Edges judge: exact by the solver where a position has at most ``max_left`` pyramids
left, else the compiled ``uct`` search with a fixed, seeded iteration budget.

Exact values are points: the judged seat's final score minus the opponent's with best play
by both from the position after the action (the pie rule included). The loss is the value
of the position before minus the value after, as ``meeple analyse`` has always counted it
(:func:`meeple.solvers.edges_analysis.analyse_game`); the best action is the solver's
:meth:`~meeple.solvers.edges_solver.EdgesSolver.best_action`. Search values are mean
returns (-1 to +1) of the root's children, as :class:`meeple.agents.judge.SearchJudge`'s.
Double Edges, and boards the solver does not take, are judged by search throughout.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from meeple.core.errors import MeepleError
from meeple.core.game import Action, Game, State
from meeple.core.review import (
    SEARCH_NOISE,
    Judgement,
    JudgeSettings,
    best_play_words,
    beyond_noise,
    estimate_words,
    loss_of,
    most_visited,
    only_action,
    searched_root,
    tries_words,
)
from meeple.core.words import counted
from meeple.games.edges.rules import EdgesGame, EdgesState, Place, TakeOver
from meeple.games.edges.uct import UCTAgent

if TYPE_CHECKING:
    from meeple.solvers.edges_solver import EdgesSolver

UCT_ITERATIONS = 20_000
"""The compiled search's iterations per decision by default (the ``uct`` agent's own)."""


class EdgesJudge:
    """Exact where the solver answers in bounded time, ``uct`` search elsewhere."""

    name = "edges"

    def __init__(self, game: Game[Any, Any, Any], settings: JudgeSettings) -> None:
        if not isinstance(game, EdgesGame):
            raise MeepleError("the Edges judge judges games of Edges only")
        self.game = game
        self.settings = settings
        self.iterations = settings.iterations or UCT_ITERATIONS
        # The solver loads here, not when meeple is imported: the command line starts fast.
        from meeple.solvers.edges_analysis import _solver

        self._solver: EdgesSolver | None = None
        self.no_solver: str | None = None
        """Why the solver judges nothing here (Double Edges, a board too large), or None."""
        try:
            self._solver = _solver(game.new_game(0))
        except MeepleError as exc:
            self.no_solver = str(exc)

    def exact_at(self, state: EdgesState) -> bool:
        """Whether a decision at ``state`` is judged by the solver."""
        from meeple.solvers.edges_solver import pyramids_left

        return self._solver is not None and pyramids_left(state) <= self.settings.max_left

    def judge(
        self,
        history: Sequence[State[Any]],
        moves: Sequence[tuple[int, str]],
        seat: int,
        chosen: Action,
    ) -> Judgement:
        """Judge ``seat`` playing ``chosen`` at ``history[-1]`` (see the module)."""
        state = history[-1]
        assert isinstance(state, EdgesState)
        if self.exact_at(state):
            return self._exact(state, seat, chosen)
        return self._search(history, moves, seat, chosen)

    def explain(self, state: State[Any], seat: int, best: Action, judgement: Judgement) -> str:
        """A hint's why: the squares ``best`` wins or makes the seat's side take for more
        (rows and columns from 0, as the edges' names count them), and its value."""
        assert isinstance(state, EdgesState)
        assert isinstance(best, Place | TakeOver)
        mine = seat % 2
        before = state.square_scores()
        played = state.apply(seat, best)
        assert isinstance(played, EdgesState)
        after = played.square_scores()
        cols = self.game.board.cols
        won = [
            f"({k // cols},{k % cols})"
            for k, (old, new) in enumerate(zip(before, after, strict=True))
            if new.side == mine and (old.side != mine or new.points > old.points)
        ]
        saved = [
            f"({k // cols},{k % cols})"
            for k, (old, new) in enumerate(zip(before, after, strict=True))
            if old.side not in (None, mine) and new.side != old.side
        ]
        parts = []
        if won:
            parts.append(f"wins square{'s' if len(won) > 1 else ''} {', '.join(won)} now")
        elif saved:
            parts.append(f"takes square{'s' if len(saved) > 1 else ''} {', '.join(saved)} back")
        else:
            parts.append("wins no square at once")
        value = judgement.values.get(str(best))
        if judgement.unit == "points" and value is not None:
            parts.append(f"{best_play_words(value)} (solved)")
        elif value is not None:
            parts.append(estimate_words(value))
        return "; ".join(parts)

    def _exact(self, state: EdgesState, seat: int, chosen: Action) -> Judgement:
        solver = self._solver
        assert solver is not None
        sign = 1 if seat % 2 == 0 else -1
        assert isinstance(chosen, Place | TakeOver)
        before = solver.value(state)
        after = solver.value(state._next(seat, chosen))
        action = str(chosen)
        best = action if before == after else str(solver.best_action(state)[0])
        values: dict[str, float | None] = {}
        if self.settings.values:
            # Every move up to equivalence (symmetric moves share one value), then the two
            # that matter whatever the equivalence picked.
            values = {str(a): float(sign * v) for a, v in solver.move_values(state)}
        values[best] = float(sign * before)
        values[action] = float(sign * after)
        loss = abs(before - after)
        why = None
        if loss:
            points = counted(loss, "point")
            why = f"{points} given away; {best} keeps {sign * before:+d}"
        return Judgement(
            seat, action, best, float(loss), values, "exact", "points", why, mistake=loss > 0,
            details={"before": before, "after": after},
        )  # fmt: skip

    def _search(
        self,
        history: Sequence[State[Any]],
        moves: Sequence[tuple[int, str]],
        seat: int,
        chosen: Action,
    ) -> Judgement:
        agent = UCTAgent(self.game, seed=self.settings.seed, iterations=self.iterations)
        found = searched_root(agent, history, moves, seat)
        values = {str(a): mean for a, (_, mean) in found.items()}
        action = str(chosen)
        label = f"uct {self.iterations}"
        if len(found) == 1:
            return only_action(seat, action, values, label)
        top = most_visited(found)
        best = str(top)
        if action not in values:
            values[action] = None  # a move the compiled tree keeps under another's name
        loss = loss_of(values, best, action)
        visits = found.get(chosen, (0, None))[0]
        # Why a search, not the exact value, and the tries its values rest on.
        reason = self.no_solver or f"more than {self.settings.max_left} pyramids left"
        why = f"{tries_words(values, best, action, visits, self.iterations)} (searched: {reason})"
        return Judgement(
            seat, action, best, loss, values, label, "return", why,
            mistake=beyond_noise(loss, found[top][0], visits), noise=SEARCH_NOISE,
        )  # fmt: skip
