"""A tournament's rating intervals are the fit's own: they narrow as games are added."""

from __future__ import annotations

import math

import pytest

from meeple.lab.ratings import ELO_PER_NATURAL_UNIT, bradley_terry


def half_width(results: list[tuple[str, str, float]]) -> float:
    [rating, _] = bradley_terry(results)
    return (rating.high - rating.low) / 2


def test_the_intervals_narrow_as_games_are_added():
    """Four times the games at the same score halve the interval (they stayed near +-241
    points whatever the games, the variance of the fit's penalty on the mean)."""
    some = [("a", "b", 1.0)] * 3 + [("a", "b", 0.0)]
    few, many = half_width(some * 10), half_width(some * 40)
    assert many == pytest.approx(few / 2, rel=0.02)
    # two agents: each rating is half the gap, whose variance is 1 / (games p (1 - p)),
    # the single virtual draw counted among the games
    games, p = 41, 30.5 / 41
    gap_se = 1 / math.sqrt(games * p * (1 - p))
    assert few == pytest.approx(1.96 * ELO_PER_NATURAL_UNIT * gap_se / 2, rel=1e-3)
