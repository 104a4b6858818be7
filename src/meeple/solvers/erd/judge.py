"""The Erd judge: every allocation against the solved equilibrium.

Erd is solved per rules version (:mod:`.solve`; the cache the ``equilibrium`` agent reads).
An allocation's value is its expected result to the seat (-1 a loss, +1 a win) when the
opponent plays the equilibrium's mix at this table and both play optimally after it: the
row of the stage game's payoffs (the game going on valued by the solution) against the
opponent's optimal mix. The best class of allocations earns the table's value; the loss of
an allocation is that best value minus its own, in expectation over the opponent's mix.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from meeple.core.errors import MeepleError
from meeple.core.game import Action, Game, State
from meeple.core.review import Judgement, JudgeSettings, loss_of, outlook
from meeple.games.erd.pieces import Allocate
from meeple.games.erd.rules import ErdGame, ErdState
from meeple.solvers.erd.agent import EquilibriumAgent

if TYPE_CHECKING:
    from meeple.solvers.erd.iteration import Solution

TOLERANCE = 1e-6
"""A loss at most this is the solver's rounding, not a mistake."""


class ErdJudge:
    """Judges allocations by the equilibrium of the solved game (see the module)."""

    name = "equilibrium"

    def __init__(
        self,
        game: Game[Any, Any, Any],
        settings: JudgeSettings,
        solution: Solution | None = None,
    ) -> None:
        """``solution``: judge by this one (a test's tiny variant); ``settings.solve``: solve
        the rules now if the cache lacks them (about half a minute) instead of refusing."""
        if not isinstance(game, ErdGame):
            raise MeepleError("the Erd judge judges games of Erd only")
        self.game = game
        self.settings = settings
        self.solution: Solution = EquilibriumAgent(
            game, solution=solution, solve=settings.solve
        ).solution

    def explain(self, state: State[Any], seat: int, best: Action, judgement: Judgement) -> str:
        """A hint's why, in words a newcomer reads: the equilibrium's mix over allocations
        here (play one at random in these proportions: a fixed choice can be read and
        punished), what the right reply to one of them leaves the seat (its risk), and how
        the match stands with best play by both."""
        tab = self._table(state, seat)
        played = [k for k in range(len(tab.ours)) if tab.optimal[k] > TOLERANCE]
        played.sort(key=lambda k: -tab.optimal[k])
        assert isinstance(best, Allocate)
        cards = f"{best.rush.words()} on Rush and {best.defense.words()} on Defense."
        stands = (
            f"With best play by both: {outlook(tab.value)} in this game (value"
            f" {tab.value:+.3f}, from -1 a loss to +1 a win)."
        )
        if len(played) == 1:
            return f"{cards} The solved game's best play is this allocation, every time. {stands}"
        shown = played[:4]
        parts = [
            f"{'this one' if str(tab.ours[k][0]) == str(best) else tab.ours[k][0]}"
            f" {tab.optimal[k]:.0%}{' of the time' if n == 0 else ''}"
            for n, k in enumerate(shown)
        ]
        more = f" and {len(played) - 4} more" if len(played) > 4 else ""
        risks = sorted({round(float(tab.payoff[k].min()), 2) for k in shown})
        return (
            f"{cards} The solved game's best play is a mix: choose at random,"
            f" {', '.join(parts)}{more}"
            f" (a choice the opponent could foresee has an answer: the right reply to one of"
            f" these leaves you {_risk_words(risks)}). {stands}"
        )

    def _table(self, state: State[Any], seat: int) -> Any:
        from meeple.solvers.erd.exploit import table

        assert isinstance(state, ErdState)
        try:
            return table(self.solution, state, seat)
        except KeyError as exc:
            raise MeepleError(
                f"round {state.round}: the position is not in the solved game ({exc})"
            ) from None

    @staticmethod
    def _top(tab: Any) -> int:
        """Of the classes that earn the best value against the opponent's mix (up to
        rounding), the one the equilibrium plays most: what a hint suggests, and what a
        review names as the better move."""
        by_class = tab.payoff @ tab.their_optimal
        most = float(by_class.max())
        return max(
            (k for k in range(len(tab.ours)) if by_class[k] >= most - TOLERANCE),
            key=lambda k: tab.optimal[k],
        )

    def suggest(self, state: State[Any], seat: int) -> Action:
        """The allocation a hint suggests at ``state``: one of the equilibrium's likeliest
        class (:meth:`_top`). Not whichever allocation earns as much against the opponent's
        mix: one the equilibrium never plays (all Decoys) earns that much too, and loses to
        the reply that punishes it."""
        tab = self._table(state, seat)
        return tab.ours[self._top(tab)][0]

    def judge(
        self,
        history: Sequence[State[Any]],
        moves: Sequence[tuple[int, str]],
        seat: int,
        chosen: Action,
    ) -> Judgement:
        """Judge ``seat`` allocating ``chosen`` at ``history[-1]`` (see the module)."""
        tab = self._table(history[-1], seat)
        by_class = tab.payoff @ tab.their_optimal
        values: dict[str, float | None] = {}
        for allocations, value in zip(tab.ours, by_class, strict=True):
            for allocation in allocations:
                values[str(allocation)] = float(value)
        action = str(chosen)
        top = self._top(tab)
        best = action if values.get(action) == float(by_class[top]) else str(tab.ours[top][0])
        loss = loss_of(values, best, action)
        if loss is not None and loss <= TOLERANCE:
            loss, best = 0.0, action
        # The equilibrium's likeliest classes: what it would play here, and how often.
        likeliest = sorted(range(len(tab.ours)), key=lambda k: -tab.optimal[k])[:3]
        mix = ", ".join(f"{tab.ours[k][0]} {tab.optimal[k]:.0%}" for k in likeliest)
        more = ", ..." if len(tab.ours) > 3 and tab.optimal[likeliest[-1]] < 1 else ""
        # + 0.0: a value that rounds to zero reads +0.000, not -0.000.
        why = (
            f"the table is worth {round(tab.value, 3) + 0.0:+.3f} to this seat with best play; "
            f"the equilibrium plays {mix}{more}"
        )
        return Judgement(
            seat, action, best, loss, values, "equilibrium", "return", why,
            mistake=loss is not None and loss > TOLERANCE, noise=TOLERANCE,
        )  # fmt: skip


def _risk_words(risks: list[float]) -> str:
    """The worst results the right replies to the mix's allocations leave (sorted, -1 a
    loss): "a sure loss" where that is all of them (the solved unit is one game of a match)."""
    if risks[-1] <= -1 + TOLERANCE:
        return "a sure loss of this game"
    if len(risks) == 1:
        return f"at worst {risks[0]:+.2f}"
    return f"at worst {risks[0]:+.2f} to {risks[-1]:+.2f}"
