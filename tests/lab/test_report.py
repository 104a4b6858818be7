"""The lab's report as a person reads it (issue 32.9): labels, numbers, n/a, plots."""

from __future__ import annotations

import pytest

from meeple.lab.metrics import summarize
from meeple.lab.report import length_figure, metric_figure, summary_rows, win_figure


def row(winner, length=10, leads=None, decided=None, seats=("a", "b")):
    return {
        "winners": [] if winner is None else [winner],
        "first_player": 0,
        "length": length,
        "returns": [0, 0] if winner is None else [1.0, -1.0] if winner == 0 else [-1.0, 1.0],
        "seats": list(seats),
        "branching": 3.0,
        "decided_at": decided,
        "lead_changes": leads,
        "margin": None,
    }


def lines(rows):
    return dict(summary_rows(summarize(rows)))


def test_the_length_histogram_is_labelled_with_the_real_range():
    """Not with the start of the last bin (100 games from 0 to 100 moves: 12 bins)."""
    text = lines([row(0, length=n) for n in (0, 37, 61, 100)])["length histogram"]
    assert text.startswith("0 ") and text.endswith(" 100")


def test_long_games_read_as_whole_numbers_not_exponents():
    shown = lines([row(0, length=2000), row(1, length=2001)])
    assert shown["duration (moves per game)"].startswith("2000 [1994, 2007]")
    assert "e+" not in " ".join(shown.values())


def test_an_interval_whose_ends_round_alike_is_shown_with_decimals():
    """Games of 197 and 198 moves read "198 [198, 198]", as if every game were 198."""
    shown = lines([row(k, length=198 if k % 10 else 197) for k in range(30)])
    assert shown["duration (moves per game)"].startswith("197.9 [197.8, 198.0]")
    same = lines([row(k, length=198) for k in range(30)])
    assert same["duration (moves per game)"].startswith("198 [198, 198]")  # truly one length


def test_lead_metrics_are_na_when_scores_name_a_leader_only_at_the_end():
    """Erosion scores its eras at the end: the winner 'leads' from the last action only,
    so 0 lead changes and a decisive moment near 1 would be read as facts about play."""
    at_the_end = [row(0, length=n, leads=0, decided=(n - 1) / n) for n in (30, 40, 55)]
    shown = lines(at_the_end)
    assert shown["lead changes per game"] == "n/a"
    assert shown["decisive moment (share of the game before the winner led for good)"] == "n/a"
    led_earlier = [*at_the_end, row(1, length=20, leads=2, decided=0.5)]
    assert lines(led_earlier)["lead changes per game"] != "n/a"
    assert summarize(led_earlier).lead_changes == pytest.approx(0.5)


def test_the_win_plot_names_the_agents_and_shows_draws():
    summary = summarize([row(0, seats=("greedy", "random")), row(None, seats=("greedy", "random"))])
    legend = [t.get_text() for t in win_figure({"x": summary}).axes[0].get_legend().get_texts()]
    assert legend == ["seat 0: greedy wins", "seat 1: random wins", "draws"]


def test_game_counts_on_the_length_axis_are_whole_numbers():
    ax = length_figure({"x": [10.0, 11.0, 11.0, 13.0]}).axes[0]
    assert all(float(t).is_integer() for t in ax.get_yticks())


def test_games_all_of_one_length_are_drawn_on_whole_numbers_with_room_beside():
    """Every game of 196 moves: the axis held that one bin, ticked 195.6 to 196.4."""
    fig = length_figure({"a": [196.0] * 5, "b": [196.0] * 5})
    fig.canvas.draw()
    ax = fig.axes[0]
    low, high = ax.get_xlim()
    shown = [t for t in ax.get_xticks() if low <= t <= high]
    assert shown == [195.0, 196.0, 197.0]


def test_overlapping_length_series_stand_side_by_side():
    """Two runs with the same lengths: every bar of one is beside, not on, the other's."""
    ax = length_figure({"a": [10.0, 10.0, 12.0], "b": [10.0, 12.0, 12.0]}).axes[0]
    spans = {}
    for patch in ax.patches:
        spans.setdefault(patch.get_facecolor(), []).append(
            (patch.get_x(), patch.get_x() + patch.get_width())
        )
    first, second = spans.values()
    assert len(first) == len(second) == 2
    for lo, hi in first:
        assert all(hi <= lo2 or hi2 <= lo for lo2, hi2 in second)


def test_a_metric_that_means_nothing_is_drawn_as_na_not_zero():
    with_leads = summarize([row(0, leads=3, decided=0.2)])
    without = summarize([row(0, leads=0, decided=0.9)])  # the lead came with the last action
    fig = metric_figure({"edges": with_leads, "erosion": without})
    [ax] = [a for a in fig.axes if a.get_title() == "lead changes per game"]
    assert len(ax.patches) == 1 and ax.patches[0].get_height() == 3
    assert [t.get_text() for t in ax.texts if "sample" not in t.get_text()] == ["n/a"]
