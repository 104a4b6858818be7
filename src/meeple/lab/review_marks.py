"""A review for people: each decision marked by how much it gave away, the winning chances
over the game, and the turning points (the replay page's Review panel; docs/web.md).

Marks follow lichess's inaccuracy / mistake / blunder, per the judge's unit:

============  ==========================  =============================================
mark          ``return`` (-1 .. +1)       ``points`` (exact Edges)
============  ==========================  =============================================
``?!``        loss at least 0.1           1 point
``?``         loss at least 0.2           2 points
``??``        loss at least 0.3           3 points or more, or a loss that changes the
                                          result with best play (a win to a draw or a
                                          loss, a draw to a loss)
============  ==========================  =============================================

A decision is marked only where the judge counts its loss as beyond its noise
(``mistake``): a search judge's loss of 0.1 or less is never marked, nor a forced move.

The chance of a position is its value in the ``return`` scale, -1 (lost) to +1 (won): a
search's mean or the equilibrium's expectation as it is; an exact value in points as the
result it leads to (+1 ahead, 0 level, -1 behind). The graph's point ``k`` is the position
after move ``k`` as the judge valued the action played (point 0: the first decision's best
value), for two players from seat 0's side, else from the deciding seat's. A turning point
is a marked decision after which the side ahead changed (level counting as a side; in the
``return`` scale "ahead" is above +0.1 and "behind" below -0.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.lab.review import ReviewedDecision

RETURN_MARKS = ((0.3, "??"), (0.2, "?"), (0.1, "?!"))
"""Marks by the loss in returns (-1 .. +1), largest first."""
POINTS_MARKS = ((3.0, "??"), (2.0, "?"), (1.0, "?!"))
"""Marks by the loss in points (exact Edges), largest first."""
LEVEL = 0.1
"""A chance within this of 0 counts as level (neither side ahead)."""


def _sign(value: float, level: float = 0.0) -> int:
    return 1 if value > level else -1 if value < -level else 0


def chance(value: float | None, unit: str) -> float | None:
    """A judge's value as a chance from -1 (lost) to +1 (won), in the ``return`` scale."""
    if value is None:
        return None
    if unit == "points":
        return float(_sign(value))
    return max(-1.0, min(1.0, float(value)))


def mark(decision: ReviewedDecision) -> str | None:
    """The decision's mark (``?!``, ``?``, ``??``) or None (see the module)."""
    j = decision.judgement
    if not j.mistake or j.loss is None or j.why == "the only legal action":
        return None
    if j.unit == "points":
        before, after = j.values.get(j.best), j.values.get(j.action)
        if before is not None and after is not None and _sign(before) != _sign(after):
            return "??"
        marks = POINTS_MARKS
    else:
        marks = RETURN_MARKS
    for threshold, symbol in marks:
        if j.loss >= threshold - 1e-9:
            return symbol
    return None


def summarise(decisions: Sequence[ReviewedDecision], players: int) -> dict[str, Any]:
    """The review as the replay page shows it: ``decisions`` (the JSON form of
    :mod:`meeple.lab.review` with ``mark``, ``chance`` of the action played and
    ``best_chance``, each to the deciding seat), ``chart`` (``view`` and one ``points``
    entry per position, ``{"n", "seat", "chance"}``) and ``turning`` (move numbers)."""
    two = players == 2
    out: list[dict[str, Any]] = []
    points: list[dict[str, Any]] = []
    turning: list[int] = []

    def side(seat: int, value: float | None) -> float | None:
        return None if value is None else value if not two or seat == 0 else 0.0 - value

    if decisions:
        first = decisions[0].judgement
        start = chance(first.values.get(first.best), first.unit)
        points.append({"n": 0, "seat": first.seat, "chance": side(first.seat, start)})
    for decision in decisions:
        j = decision.judgement
        played = chance(j.values.get(j.action), j.unit)
        best = chance(j.values.get(j.best), j.unit)
        symbol = mark(decision)
        out.append({**decision.to_json(), "mark": symbol, "chance": played, "best_chance": best})
        point = {"n": decision.n, "seat": j.seat, "chance": side(j.seat, played)}
        # Two players: the last valued position; more: the deciding seat's last one.
        previous = next(
            (
                p
                for p in reversed(points)
                if p["chance"] is not None and (two or p["seat"] == j.seat)
            ),
            None,
        )
        if (
            symbol is not None
            and previous is not None
            and point["chance"] is not None
            and _sign(point["chance"], LEVEL) != _sign(previous["chance"], LEVEL)
        ):
            turning.append(decision.n)
        points.append(point)
    view = "seat 0" if two else "the deciding seat"
    return {"decisions": out, "chart": {"view": view, "points": points}, "turning": turning}
