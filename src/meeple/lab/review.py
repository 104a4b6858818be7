"""A game's review: every decision of every seat judged by the best judge the game has.

:func:`make_judge` picks it: the one a layer registered for the game
(:func:`meeple.core.registry.register_judge`: Edges, exact then ``uct``; Erd, the
equilibrium), else the search judge (:class:`meeple.agents.judge.SearchJudge`, information
set MCTS from the judged seat's view). :func:`review_record` walks a record.

The JSON form (``meeple analyse --json``) is a list with one object per decision, in the
order played (:data:`REVIEW_FIELDS`)::

    {"n": 3,                  # the move's number in the record, from 1
     "seat": 1,               # who decided
     "action": "b2 R",        # what it played (the record's notation)
     "best": "a1 R",          # the judge's best action (the same when it was best)
     "loss": 0.25,            # best value minus the played one's, >= 0 (null: not valued)
     "values": {"a1 R": 0.4, "b2 R": 0.15, ...},  # action -> value to the seat (null: not
                              # searched); for the exact Edges judge, moves up to symmetry
     "judge": "ismcts 200",   # exact | uct N | equilibrium | ismcts N
     "unit": "return",        # points (exact Edges) or return (-1 a loss .. +1 a win)
     "mistake": true,         # the loss is beyond the judge's noise
     "why": "..."}            # a word of why, or null

Every move of the record is listed; one with a single legal action has loss 0 and the why
"the only legal action" (nothing was decided there).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from meeple.core.errors import MeepleError
from meeple.core.game import Game, State
from meeple.core.record import GameRecord
from meeple.core.registry import game_judge
from meeple.core.review import MAX_ITERATIONS, Judge, Judgement, JudgeSettings

REVIEW_FIELDS = ("n", "seat", "action", "best", "loss", "values", "judge", "unit", "mistake", "why")
"""The keys of each decision in a review's JSON form, in order."""


def make_judge(
    game: Game[Any, Any, Any], settings: JudgeSettings, or_search: bool = False
) -> Judge:
    """The best judge ``game`` has (see the module). Where the game's own judge cannot be
    made here (Erd's rules not solved in the cache, and not to be solved now) it is a
    MeepleError naming what would make it, or with ``or_search`` the search judge, as for a
    game without one (a server's hints and reviews: a client is told nothing of the
    server's cache, and gets a judgement all the same)."""
    import meeple.solvers  # noqa: F401  (registers the solvers' judges)
    from meeple.agents.judge import SearchJudge

    if settings.iterations is not None and not 1 <= settings.iterations <= MAX_ITERATIONS:
        raise MeepleError(
            f"iterations must be from 1 to {MAX_ITERATIONS:,}, not {settings.iterations}"
        )
    factory = game_judge(game.name)
    if factory is None:
        return SearchJudge(game, settings)
    try:
        judge: Judge = factory(game, settings)
    except MeepleError:
        if not or_search:
            raise
        return SearchJudge(game, settings)
    return judge


@dataclass(frozen=True)
class ReviewedDecision:
    """One decision of a review: its move number and the judgement."""

    n: int
    judgement: Judgement

    def to_json(self) -> dict[str, Any]:
        """The decision as :data:`REVIEW_FIELDS` (see the module)."""
        j = self.judgement
        return {
            "n": self.n,
            "seat": j.seat,
            "action": j.action,
            "best": j.best,
            "loss": j.loss,
            "values": j.values,
            "judge": j.judge,
            "unit": j.unit,
            "mistake": j.mistake,
            "why": j.why,
        }


def review_record(
    record: GameRecord,
    settings: JudgeSettings,
    on_decision: Callable[[int, int, State[Any] | None], None] | None = None,
    judge: Judge | None = None,
) -> list[ReviewedDecision]:
    """Judge every decision of ``record`` in order (a forced one too: see the module).

    ``on_decision`` hears (moves done, moves, the state of the decision judged next; None
    once every one is); ``judge``, where given, judges instead of a new one of the game's
    (a test's, or one its caller also asks about each decision).
    Raises :class:`MeepleError` (a RecordError for a record that does not replay)."""
    states = record.states()
    game = states[0].game
    judge = judge or make_judge(game, settings)
    out: list[ReviewedDecision] = []
    moves = record.moves
    for k, (seat, text) in enumerate(moves):
        if on_decision is not None:
            on_decision(k, len(moves), states[k])
        chosen = game.parse_action(text)
        out.append(ReviewedDecision(k + 1, judge.judge(states[: k + 1], moves[:k], seat, chosen)))
    if on_decision is not None:
        on_decision(len(moves), len(moves), None)
    return out
