"""Judging decisions: a value for each legal action of one seat's decision, from that seat's
point of view, and how much the action chosen gave away (a review, a hint).

A game's judge is registered with :func:`meeple.core.registry.register_judge` by a layer
that knows the game (the solvers: Edges, Erd); a game without one is judged by search
(``meeple.agents.judge``). ``meeple.lab.review`` picks the judge and reviews a record.

Values are in the judge's unit (:attr:`Judgement.unit`): ``points`` (the exact Edges solver:
the seat's final score minus the opponent's with best play by both) or ``return`` (expected
result from -1, a loss, to +1, a win: search and the Erd equilibrium).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from meeple.core.agent import Observation, catch_up
from meeple.core.game import Action, State
from meeple.core.words import counted

DEFAULT_SEED = 0
"""The seed of a review's searches unless one is given: the same record, the same review."""
MAX_ITERATIONS = 100_000
"""The most search iterations a decision may be given (``--iterations``)."""
HINT_ITERATIONS = 20_000
"""The most search iterations a hint is given by default (the judge's own where lower): the
game server's ``max_hint_iterations`` and the terminal's ``hint``."""


@dataclass(frozen=True)
class JudgeSettings:
    """How hard a judge works: ``iterations`` per searched decision (None: the judge's own
    default), ``seed`` for its searches, ``max_left`` (Edges: solve exactly from this many
    pyramids left), ``values`` (False: only the chosen and the best action's values, where
    every action's would cost more; a table needs no more) and ``solve`` (a judge that needs
    a solved game, Erd's, may solve it now when the cache lacks it, instead of refusing)."""

    iterations: int | None = None
    seed: int = DEFAULT_SEED
    max_left: int = 16
    values: bool = True
    solve: bool = False


SEARCH_NOISE = 0.1
"""A loss (in returns, from -1 to +1) a judge's search cannot tell from none at its budget:
the search judges' threshold for calling a decision a mistake."""

CONFIDENCE = 2.0
"""How many standard errors of the two means' difference a search judge's loss must clear
as well to be called a mistake (about 95% sure)."""


def beyond_noise(loss: float | None, best_tries: int, chosen_tries: int) -> bool:
    """Whether a search judge can tell a loss from chance: above :data:`SEARCH_NOISE`, and
    above :data:`CONFIDENCE` standard errors of the difference of the best action's mean
    and the chosen one's, at the widest spread a return allows (a standard deviation of 1
    on -1 .. +1). A mean of 3 tries at -1 against 0.14 was called a blunder: its standard
    error alone is 0.58, so the search cannot say so; a move tried ten times cannot be
    called a mistake for less than 0.66."""
    if loss is None or best_tries < 1 or chosen_tries < 1:
        return False
    error = math.sqrt(1 / best_tries + 1 / chosen_tries)
    return loss > max(SEARCH_NOISE, CONFIDENCE * error)


@dataclass(frozen=True)
class Judgement:
    """One decision judged: ``values`` by action notation (None: not searched), the best
    action, the ``loss`` of the chosen one (best value minus its value, at least 0; None
    when it was not searched), the ``judge`` that gave them and a word of ``why``."""

    seat: int
    action: str
    best: str
    loss: float | None
    values: dict[str, float | None]
    judge: str
    unit: str = "return"
    why: str | None = None
    mistake: bool = False
    """Whether the loss is beyond the judge's noise (exact judges: above 0)."""
    noise: float = 0.0
    """The largest loss the judge cannot tell from none: 0 for an exact judge (a rounding
    tolerance for a solved game's values), a search's margin for a search."""
    details: dict[str, Any] = field(default_factory=dict)
    """Judge-specific extras (Edges: the position's value before and after, seat 0's view)."""


def best_play_words(value: float) -> str:
    """What an exact judge's value in points says to the seat it is for: how far ahead or
    behind it finishes with best play by both (a hint's and a review's why). "+0 points"
    read as a score, not as a draw."""
    number = round(value)
    if number == 0:
        return "with best play by both you finish level on points: a draw"
    ahead = "ahead: a win" if number > 0 else "behind: a loss"
    return f"with best play by both you finish {counted(abs(number), 'point')} {ahead}"


OUTLOOKS = (
    (0.5, "you are likely to win"),
    (0.15, "better than even for you"),
    (-0.15, "about even"),
    (-0.5, "worse than even for you"),
)
"""Expected results (-1 a loss, +1 a win) from which each outlook is said, best first."""


def outlook(value: float) -> str:
    """An expected result in words a player reads at a glance: "+0.43" meant nothing to a
    newcomer. Below every bound: likely lost, whatever is played."""
    for bound, words in OUTLOOKS:
        if value >= bound:
            return words
    return "you are likely to lose, whatever you play"


def estimate_words(value: float) -> str:
    """A search's expected result as a hint says it: the outlook, then that it is an
    estimate, then the figure. The search by its name ("ismcts 200") told a newcomer
    nothing: what it is, and that it can be wrong, is what they need."""
    return (
        f"{outlook(value)} (a quick search's estimate, not a certainty: {value:+.2f}, from -1"
        " a loss to +1 a win)"
    )


class Judge(Protocol):
    """Judges one seat's decisions in one game."""

    name: str

    def judge(
        self,
        history: Sequence[State[Any]],
        moves: Sequence[tuple[int, str]],
        seat: int,
        chosen: Action,
    ) -> Judgement:
        """Judge ``seat`` choosing ``chosen`` at ``history[-1]``; ``history`` holds every
        state from the start and ``moves`` the moves between them (``moves[k]`` played at
        ``history[k]``), so that a search recalls what the seat was shown before."""
        ...


def loss_of(values: dict[str, float | None], best: str, chosen: str) -> float | None:
    """The best action's value minus the chosen one's, never below 0 (None: not valued)."""
    mine, top = values.get(chosen), values.get(best)
    if mine is None or top is None:
        return None
    return max(0.0, top - mine)


def searched_root(
    agent: Any, history: Sequence[State[Any]], moves: Sequence[tuple[int, str]], seat: int
) -> dict[Any, tuple[int, float | None]]:
    """The root statistics of ``agent``'s search for ``seat`` at ``history[-1]``, each
    action's visits and mean return. The agent is first told the seat's earlier decisions
    (``catch_up``: what the seat was shown, and the count that seeds each decision's
    streams), as if it had played the seat all game."""
    catch_up(agent, seat, history[:-1], moves)
    found: dict[Any, tuple[int, float | None]] = agent.root_values(Observation(history[-1], seat))
    return found


def most_visited(found: dict[Any, tuple[int, float | None]]) -> Any:
    """The action a search plays: the most visited, ties to the higher mean."""
    return max(found, key=lambda a: (found[a][0], found[a][1] or -2.0))


def tries_words(
    values: dict[str, float | None], best: str, chosen: str, visits: int, iterations: int
) -> str:
    """A searched judgement's why: the tries its value rests on, the move played's (``visits``
    of the search's ``iterations``) against the search's choice's value."""
    mine = values.get(chosen)
    if best == chosen:
        return f"the search's choice, {visits} of {iterations} tries"
    if mine is None:
        return "never tried by the search"
    return f"{mine:+.2f} in {counted(visits, 'try', 'tries')} against {values[best] or 0.0:+.2f}"


def only_action(seat: int, action: str, values: dict[str, float | None], label: str) -> Judgement:
    """The judgement of a decision with a single legal action: nothing to give away."""
    return Judgement(seat, action, action, 0.0, values, label, why="the only legal action")
