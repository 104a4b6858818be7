"""Statistics for results people compare."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence


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


def deal_score_interval(deals: Sequence[Sequence[float]], z: float = 1.96) -> tuple[float, float]:
    """The interval of a score rate over games grouped into deals (each game's score 1, 1/2
    or 0): games of one deal share their seed, played once in each seating (``--duplicate``),
    so the luck of the deal is in both agents' games and cancels in the deal's mean.

    The deals are the independent units: the variance of the mean score is that of the deals'
    means over their number, and Wilson's formula takes the effective number of games
    ``p(1 - p) / variance`` (as :func:`score_interval`, which this equals when every deal is
    one game). Where the deals' means do not vary at all (or the rate is 0 or 1), that says
    nothing about the spread: each deal then counts as one game (its games are not
    independent, so counting them would claim more than was seen), as in
    :func:`tally_interval`.
    """
    scores = [score for deal in deals for score in deal]
    if not scores:
        return (0.0, 1.0)
    p = sum(scores) / len(scores)
    means = [sum(deal) / len(deal) for deal in deals if deal]
    centre = sum(means) / len(means)
    variance = sum((m - centre) ** 2 for m in means) / len(means) / len(means)
    if variance <= 0 or p in (0.0, 1.0):
        return wilson_interval(p * len(means), len(means), z)
    return _wilson(p, p * (1 - p) / variance, z)


def tally_interval(
    tally: Iterable[tuple[float, int]], z: float = 1.96
) -> tuple[float, tuple[float, float]]:
    """The score rate and its interval from deals counted by their mean score: ``(mean,
    count)`` pairs, as :attr:`meeple.lab.metrics.AgentResult.deal_tally` keeps them.

    Tallies of independent batches of the same pairing (other seeds) pool by concatenation,
    which is how a rung too long for one sitting is judged over several. Each deal counts
    once, so this is :func:`deal_score_interval` exactly when every deal has the same number
    of games (a duplicate run that finished its deals).
    """
    means = [mean for mean, count in tally for _ in range(count)]
    if not means:
        return 0.0, (0.0, 1.0)
    rate = sum(means) / len(means)
    variance = sum((m - rate) ** 2 for m in means) / len(means) / len(means)
    if variance <= 0 or rate in (0.0, 1.0):
        # Deals that all scored alike say nothing of the spread: count each as one game.
        return rate, wilson_interval(rate * len(means), len(means), z)
    return rate, _wilson(rate, rate * (1 - rate) / variance, z)
