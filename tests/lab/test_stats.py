"""Intervals for results: the score rate's interval where draws count half."""

from __future__ import annotations

import numpy as np
import pytest

from meeple.lab.stats import score_interval, wilson_interval


@pytest.mark.parametrize(("wins", "losses"), [(61, 39), (100, 0), (0, 30), (7, 13)])
def test_without_draws_the_score_interval_is_wilsons(wins: int, losses: int) -> None:
    assert score_interval(wins, 0, losses) == pytest.approx(wilson_interval(wins, wins + losses))


def test_draws_narrow_the_interval_around_the_score() -> None:
    """20 wins, 79 draws, 1 loss: Wilson on 59.5 of 100 spans [49.7, 68.6]; the games vary
    far less than that, and the interval says so while still holding the score."""
    low, high = score_interval(20, 79, 1)
    wide = wilson_interval(59.5, 100)
    assert wide[0] < low < 0.595 < high < wide[1]
    assert (low, high) == pytest.approx((0.5536, 0.6351), abs=1e-4)
    assert score_interval(0, 40, 0) == pytest.approx(wilson_interval(20, 40))


def test_the_interval_covers_the_true_score_about_95_times_in_100() -> None:
    """Simulated matches of 100 games with mostly draws: the interval holds the true score
    rate in close to 95% of them (Wilson's on the score in nearly all: too wide)."""
    rng = np.random.default_rng(7)
    probabilities = (0.2, 0.78, 0.02)
    truth = probabilities[0] + probabilities[1] / 2
    covered = wide = 0
    runs = 2000
    for wins, draws, losses in rng.multinomial(100, probabilities, size=runs):
        low, high = score_interval(int(wins), int(draws), int(losses))
        covered += low <= truth <= high
        w_low, w_high = wilson_interval(wins + draws / 2, 100)
        wide += w_low <= truth <= w_high
    assert 0.92 < covered / runs < 0.98
    assert wide / runs > 0.99


def test_a_tally_gives_the_deals_interval_and_pools_batches() -> None:
    from meeple.lab.stats import deal_score_interval, tally_interval

    first = [(1.0, 12), (0.5, 25), (0.0, 13)]
    deals = [[1.0, 1.0]] * 12 + [[1.0, 0.0]] * 25 + [[0.0, 0.0]] * 13
    rate, interval = tally_interval(first)
    assert rate == pytest.approx((12 + 12.5) / 50)
    assert interval == pytest.approx(deal_score_interval(deals))
    # Two batches pool by concatenation: twice the same tally narrows the interval.
    _, (low, high) = tally_interval(first + first)
    assert high - low < interval[1] - interval[0]
    assert low < rate < high
    # Deals that all scored alike still get an interval, not a point.
    assert tally_interval([(0.5, 10)])[1][0] < 0.5 < tally_interval([(0.5, 10)])[1][1]
    assert tally_interval([]) == (0.0, (0.0, 1.0))


def test_deals_that_all_scored_alike_count_one_game_each() -> None:
    """20 deals won twice over are 20 observations, not 40: the two games of a deal share
    their luck, so the interval is Wilson's over the deals, as a tally of them gives."""
    from meeple.lab.stats import deal_score_interval, tally_interval, wilson_interval

    swept = [[1.0, 1.0]] * 20
    assert deal_score_interval(swept) == pytest.approx(wilson_interval(20, 20))
    assert deal_score_interval(swept) == pytest.approx(tally_interval([(1.0, 20)])[1])
    assert deal_score_interval(swept)[0] < wilson_interval(40, 40)[0]
    split = [[1.0, 0.0]] * 10
    assert deal_score_interval(split) == pytest.approx(tally_interval([(0.5, 10)])[1])
