"""A hint: the move the game's best judge prefers for one seat now, and a word of why.

The judge is the one a review uses (:func:`meeple.lab.review.make_judge`) and it judges from
the seat's information only, exactly as in a review: the search judges sample the hidden
cards from the seat's own view, the Edges solver and the Erd equilibrium need none. Searches
are seeded with the review's fixed seed, never the match's, so a hint depends on nothing the
seat cannot see (tested: the same hint whatever the opponent's hidden cards).

A judge may explain its best move itself (``explain(state, seat, best, judgement)``: Edges
names the squares the move wins, Erd the optimal mix and what each allocation risks); else
the why is the judge's value of the move.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from meeple.agents.warm import BUDGETS, compiled_job
from meeple.core.errors import MeepleError
from meeple.core.game import Player, State
from meeple.core.kernel_cache import mark_compiled
from meeple.core.registry import make
from meeple.core.review import (
    DEFAULT_SEED,
    Judge,
    Judgement,
    JudgeSettings,
    best_play_words,
    estimate_words,
)
from meeple.lab.review import make_judge

HINT_FIELDS = ("seat", "best", "why", "judge", "unit", "value", "values")
"""The keys of a hint (docs/api.md, "Hints")."""
TOP_VALUES = 5
"""How many actions' values a hint lists, best first."""


def hint_judge(game: Any, iterations_cap: int | None = None, max_left: int = 12) -> Judge:
    """The judge hints use for ``game``: the review's, its searches capped at
    ``iterations_cap`` iterations and Edges' solver used from ``max_left`` pyramids left (a
    review's 16 can take a minute on 3x4); a judge that cannot be made here (Erd's rules
    not solved in the cache) is replaced by the search judge."""
    settings = JudgeSettings(seed=DEFAULT_SEED, max_left=max_left)
    judge = make_judge(game, settings, or_search=True)
    own = getattr(judge, "iterations", None)
    if iterations_cap is not None and own is not None and own > iterations_cap:
        judge = type(judge)(game, replace(settings, iterations=iterations_cap))  # type: ignore[call-arg]
    return judge


END_PYRAMIDS = 4
"""How few pyramids are left where :func:`warm_hints` asks a solving judge: solved at once."""
HINTS = "hints"
"""What a game's hints are called among its compiles (:func:`meeple.agents.warm.compiled_job`)."""


def warm_hints(name: str) -> float:
    """Compile (or read back from the cache) what a hint for ``name`` runs, then mark it
    compiled: the seconds it took. A hint at the game's start compiles the judge's search
    (cut to a few iterations); where the judge solves near the end instead (Edges'), a hint
    at the first position it solves compiles the solver too, which a hint late in a game
    would otherwise compile inside its allowance."""
    start = time.perf_counter()
    game = make(name)
    # One judge for both: its search is cut, and it solves only from a few pyramids left.
    judge = hint_judge(game, int(BUDGETS["iterations"]), max_left=END_PYRAMIDS)
    state = game.new_game(0)
    hint([state], [], state.to_act[0], judge)
    exact_at = getattr(judge, "exact_at", None)
    if exact_at is not None and not exact_at(state):
        # The first legal move each turn: a short game, and the same one every time.
        while not state.is_over and not exact_at(state):
            seat = state.to_act[0]
            state = state.apply(seat, state.legal_actions(seat)[0])
        if not state.is_over:
            hint([state], [], state.to_act[0], judge)
    mark_compiled(compiled_job(name, HINTS))
    return time.perf_counter() - start


def hint(
    history: Sequence[State[Any]],
    moves: Sequence[tuple[int, str]],
    seat: Player,
    judge: Judge,
) -> dict[str, Any]:
    """The hint for ``seat`` at ``history[-1]`` (``moves[k]`` was played at ``history[k]``).

    Raises MeepleError when the seat has no decision to make there."""
    state = history[-1]
    legal = state.legal_actions(seat) if seat in state.to_act else []
    if not legal:
        raise MeepleError(f"seat {seat} has no decision to make now: a hint is for your turn")
    # A judge that knows what to suggest (Erd's: the equilibrium's likeliest allocation)
    # says so; another names its best move when judging any (the first legal one here).
    suggest = getattr(judge, "suggest", None)
    chosen = suggest(state, seat) if suggest else legal[0]
    judgement = judge.judge(history, moves, seat, chosen)
    best = judgement.best
    explain = getattr(judge, "explain", None)
    why = explain(state, seat, state.game.parse_action(best), judgement) if explain else None
    value = judgement.values.get(best)
    if why is None:
        why = _generic_why(judgement, value)
    ranked = sorted(
        ((a, v) for a, v in judgement.values.items() if v is not None), key=lambda av: -av[1]
    )[:TOP_VALUES]
    return {
        "seat": seat,
        "best": best,
        "why": why,
        "judge": judgement.judge,
        "unit": judgement.unit,
        "value": value,
        "values": dict(ranked),
    }


def _generic_why(judgement: Judgement, value: float | None) -> str:
    if len(judgement.values) <= 1:
        return "the only legal move"
    if value is None:
        return f"the {judgement.judge} judge's choice"
    if judgement.unit == "points":
        return best_play_words(value)
    return estimate_words(value)  # the search's name stays in the hint's "judge"
