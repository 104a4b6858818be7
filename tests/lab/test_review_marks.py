"""Marks, chances and turning points of a review (lab/review_marks.py, docs/web.md)."""

from __future__ import annotations

import pytest

from meeple.core.review import Judgement, beyond_noise
from meeple.lab.review import ReviewedDecision
from meeple.lab.review_marks import chance, mark, summarise


def _decision(
    n: int, seat: int, played: float, best: float, unit: str = "return", mistake: bool = True
) -> ReviewedDecision:
    values = {"a": best, "b": played}
    action = "a" if played == best else "b"
    return ReviewedDecision(
        n,
        Judgement(seat, action, "a", best - played, values, "test", unit, None, mistake=mistake),
    )


@pytest.mark.parametrize(
    ("loss", "expected"),
    [(0.05, None), (0.1, "?!"), (0.19, "?!"), (0.2, "?"), (0.3, "??"), (1.5, "??")],
)
def test_a_loss_in_returns_is_marked_as_lichess_marks_it(loss, expected):
    assert mark(_decision(1, 0, 0.5 - loss, 0.5)) == expected


def test_a_loss_within_the_judges_noise_or_forced_is_not_marked():
    assert mark(_decision(1, 0, 0.0, 0.5, mistake=False)) is None
    forced = Judgement(0, "a", "a", 0.0, {"a": 1.0}, "t", why="the only legal action")
    assert mark(ReviewedDecision(1, forced)) is None


@pytest.mark.parametrize(
    ("played", "best", "expected"),
    [(3.0, 4.0, "?!"), (2.0, 4.0, "?"), (1.0, 4.0, "??"), (0.0, 1.0, "??"), (-2.0, -1.0, "?!")],
)
def test_points_are_marked_by_points_and_a_changed_result_is_a_blunder(played, best, expected):
    assert mark(_decision(1, 0, played, best, "points")) == expected


def test_chances_are_returns_or_the_result_exact_points_lead_to():
    assert chance(3.0, "points") == 1.0 and chance(0.0, "points") == 0.0
    assert chance(-0.4, "return") == -0.4 and chance(None, "return") is None


def test_the_chart_is_seat_0s_and_a_turning_point_is_a_mark_that_changed_who_is_ahead():
    decisions = [
        _decision(1, 0, 0.5, 0.5),  # seat 0 ahead, best play
        _decision(2, 1, -0.4, -0.4),  # seat 1 sees -0.4: seat 0 still ahead
        _decision(3, 0, -0.3, 0.4),  # seat 0 throws it away: the turn
        _decision(4, 1, 0.2, 0.35),  # seat 1 gives back a little, still ahead
    ]
    out = summarise(decisions, players=2)
    chances = [p["chance"] for p in out["chart"]["points"]]
    assert chances == pytest.approx([0.5, 0.5, 0.4, -0.3, -0.2])
    assert [d["mark"] for d in out["decisions"]] == [None, None, "??", "?!"]
    assert out["turning"] == [3]
    assert out["chart"]["view"] == "seat 0"


@pytest.mark.parametrize(
    ("loss", "best_tries", "chosen_tries", "told"),
    [
        # The Triangle Clock's review called 84 decisions of 196 blunders, many on a mean
        # of a few tries: -1.00 in 3 tries against +0.14 cannot be told from chance.
        (1.14, 150, 3, False),
        (1.62, 150, 3, True),  # beyond two standard errors (1.16) even on 3 tries
        (0.5, 100, 10, False),  # 10 tries: about 0.66 is needed
        (0.7, 100, 10, True),
        (0.3, 5000, 5000, True),  # a large budget: down to the noise floor
        (0.1, 5000, 5000, False),  # never at or below SEARCH_NOISE
        (0.9, 100, 0, False),  # never tried: nothing to tell
        (None, 100, 10, False),
    ],
)
def test_a_search_s_loss_is_a_mistake_only_where_its_tries_can_tell_it(
    loss, best_tries, chosen_tries, told
):
    assert beyond_noise(loss, best_tries, chosen_tries) is told
