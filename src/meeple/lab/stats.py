"""Statistics for results people compare."""

from __future__ import annotations

import math


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and behaves at 0% and 100%,
    which is where strong agents against random ones live.
    """
    if trials <= 0:
        return (0.0, 1.0)
    return _wilson(successes / trials, trials, z)


def _wilson(p: float, trials: float, z: float) -> tuple[float, float]:
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # At 0% and 100% one end equals p exactly on paper; rounding can put it a hair past p,
    # which would draw a negative error bar (matplotlib refuses those).
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def score_interval(wins: int, draws: int, losses: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson interval of a score rate where a draw counts half (95% by default).

    Wilson's interval of ``wins + draws / 2`` out of ``n`` treats every game as a win or a
    loss, variance ``p(1 - p)``; a drawn game varies less (it is half a point, whoever
    wins), so where draws are common that interval is far too wide. This one uses the
    games' own variance through Wilson's formula with an effective number of games
    ``n p(1 - p) / variance`` (Kish's design effect): with no draws it is exactly Wilson's,
    and like Wilson's it stays inside [0, 1].
    """
    games = wins + draws + losses
    if games <= 0:
        return (0.0, 1.0)
    p = (wins + draws / 2) / games
    variance = (wins + draws / 4) / games - p * p
    if variance <= 0 or p in (0.0, 1.0):
        return wilson_interval(wins + draws / 2, games, z)
    return _wilson(p, games * p * (1 - p) / variance, z)
