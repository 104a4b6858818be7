"""The lab never misleads a designer (issue 59): every figure carries its interval, plots draw
it, and a sample too small to say anything is flagged."""

from __future__ import annotations

import pytest
from matplotlib.container import ErrorbarContainer

from meeple.core.stats import mean_interval
from meeple.lab.metrics import METRIC_NAMES, summarize
from meeple.lab.report import SMALL, metric_figure, summary_rows, win_figure


def row(winner, length=10, leads=1, decided=0.5, margin=2.0, first=0, branching=3.0):
    return {
        "winners": [] if winner is None else [winner],
        "first_player": first,
        "length": length,
        "returns": [0, 0] if winner is None else [1.0, -1.0] if winner == 0 else [-1.0, 1.0],
        "seats": ["a", "b"],
        "branching": branching,
        "decided_at": decided,
        "lead_changes": leads,
        "margin": margin,
    }


def games(n):
    """``n`` varied games: seat 0 wins 3 of 5, a draw in 5, lengths and margins vary."""
    pattern = [0, 0, 1, None, 0]
    return [
        row(pattern[k % 5], length=10 + k % 7, leads=k % 3, decided=(k % 4) / 4,
            margin=float(k % 5), first=k % 2, branching=3.0 + k % 2)
        for k in range(n)
    ]  # fmt: skip


def test_the_mean_interval_is_students_t():
    low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    # mean 2.5, sd 1.291, t(0.975, 3) = 3.182: 2.5 -+ 3.182 * 1.291 / 2
    assert (low, high) == pytest.approx((0.4457, 4.5543), abs=1e-3)
    assert mean_interval([5.0, 5.0, 5.0]) == (5.0, 5.0)


def test_every_metric_and_the_margin_has_its_interval():
    summary = summarize(games(300))
    for field in (*METRIC_NAMES, "margin"):
        estimate = summary.intervals[field]
        value = summary.margin.mean if field == "margin" else getattr(summary, field)
        assert estimate.low <= value <= estimate.high, field
        assert estimate.low < estimate.high, field  # these games vary: a real interval
    assert summary.seats[0].score.low < summary.seats[0].score_rate < summary.seats[0].score.high
    shown = dict(summary_rows(summary))
    for label in METRIC_NAMES.values():
        assert "[" in shown[label] and SMALL not in shown[label], (label, shown[label])
    assert shown["score margin"].startswith("mean 2 [1.8")


def test_an_interval_of_a_count_does_not_reach_below_zero():
    """Eight games with lead changes 0 but two printed 'lead changes per game 0.25
    [-0.137, 0.637]': a mean of counts cannot be below 0, so its interval is not."""
    few = [row(0, leads=0, margin=0.0)] * 6 + [row(1, leads=1, margin=4.0)] * 2
    summary = summarize(few)
    for field in ("lead_changes", "margin"):
        estimate = summary.intervals[field]
        assert estimate.low == 0.0 < estimate.value < estimate.high, (field, estimate)
    assert summary.intervals["decisiveness"].low >= 0.0


def test_fifteen_games_are_flagged_as_a_small_sample_in_the_table():
    shown = dict(summary_rows(summarize(games(15))))
    for label in (*METRIC_NAMES.values(), "draws", "first player's score rate", "score margin"):
        assert SMALL in shown[label], (label, shown[label])
    assert SMALL in shown["seat 0 (a) wins"]


def test_a_rate_with_a_wide_interval_is_flagged_though_the_games_are_many():
    """32 games with seat 0 winning half: Wilson spans 33 points, too wide to say much."""
    shown = dict(summary_rows(summarize([row(k % 2) for k in range(32)])))
    assert SMALL in shown["seat 0 (a) wins"]
    assert SMALL not in shown["duration (moves per game)"]


def _bars_and_errors(ax):
    bars = [p for p in ax.patches]
    errors = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    return bars, errors


def test_every_metric_bar_is_drawn_with_its_error_bar_on_an_axis_from_zero():
    fig = metric_figure({"many": summarize(games(300)), "few": summarize(games(15))})
    for ax in fig.axes:
        bars, errors = _bars_and_errors(ax)
        assert len(bars) == len(errors) == 2, ax.get_title()
        bottom, top = ax.get_ylim()
        if ax.get_title() == "first-player advantage":
            assert bottom == -top and "0 = fair" in ax.get_ylabel()
        else:
            assert bottom == 0 and "from 0" in ax.get_ylabel(), ax.get_title()
        # The small sample is hatched and flagged over its bar; the large one is not.
        assert [bool(p.get_hatch()) for p in bars] == [False, True]
        flags = [t for t in ax.texts if t.get_text().replace("\n", " ") == SMALL]
        assert [t.get_position()[0] for t in flags] == [1], ax.get_title()


def test_the_win_plot_flags_a_small_sample():
    fig = win_figure({"many": summarize(games(300)), "few": summarize(games(15))})
    texts = [t for t in fig.axes[0].texts if t.get_text() == SMALL]
    assert [t.get_position()[0] for t in texts] == [1]


def test_a_small_sample_flag_over_a_share_near_1_has_room_above_the_bar():
    # Seats that score alike in few games: balance near 1, its interval up to 1, flagged.
    fig = metric_figure({"few": summarize([row(k % 2, first=k % 2) for k in range(10)])})
    [ax] = [a for a in fig.axes if a.get_title() == "balance"]
    [flag] = [t for t in ax.texts if t.get_text().replace("\n", " ") == SMALL]
    # The flag hangs from the axis' top: above a share's highest value, not over its bar.
    assert flag.get_position()[1] == ax.get_ylim()[1] > 1.1
