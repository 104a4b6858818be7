"""Paired differences between two variants played on the same seeds (``meeple compare``).

Game k of every variant of a comparison is played from the same seed (``RunSpec.job``: the
seed is derived from the run's seed and k alone), so its deal and its agents' dice are the
same as far as the rules let them be. The difference between the variants is then taken
game by game, which cancels the luck the two games share: a far narrower interval than two
separate intervals side by side, and the right one to read a difference from.
"""

from __future__ import annotations

import functools
import statistics
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from meeple.core.stats import mean_interval
from meeple.lab.metrics import is_small

Row = Mapping[str, Any]

NO_DIFFERENCE = "no difference shown"
"""The verdict when the interval of a difference contains 0."""


class Difference(BaseModel):
    """One measure of a variant less the same measure of the base variant, paired game by
    game, with its 95% interval and a verdict in words."""

    measure: str
    value: float
    low: float
    high: float
    pairs: int
    """Games paired (game k of each, played from the same seed)."""
    units: int
    """Independent units the interval counts: the seeds (deals) among the pairs."""
    rate: bool = False
    """A difference of shares (in points): judged by its interval's width too."""
    verdict: str

    @property
    def shown(self) -> bool:
        """Whether the interval leaves out 0: a difference the games show."""
        return not self.low <= 0 <= self.high

    @property
    def small(self) -> bool:
        """Too few seeds, or too wide an interval, to say much, as for any figure of the lab
        (:func:`~meeple.lab.metrics.is_small`): two identical games give an interval of
        width 0 that says nothing."""
        return is_small(self.units, self.low, self.high, self.rate)


class Pairing(BaseModel):
    """The differences of one variant from the base, and how its games were paired."""

    pairs: int
    unpaired: int
    """Games of either variant with no game of the same index, seed and seating in the other."""
    same_moves: int = 0
    """Pairs whose two games went move for move alike: where that is every pair, the agents
    never used what the variant changes, and a difference of 0 says nothing of its worth."""
    differences: list[Difference]


def _decimals(*values: float) -> int:
    """Decimals for a figure and its interval, all alike: whole numbers from 10 up."""
    top = max(abs(v) for v in values)
    return 0 if top >= 10 or top == 0 else 1 if top >= 1 else 2 if top >= 0.1 else 3


def _words(value: float, low: float, high: float, scale: float, more: str, less: str) -> str:
    """``more`` or ``less`` with the magnitude put in, and the interval in the same sense
    (``games 2.1 moves longer, 1.4 to 2.8``); ``no difference shown`` with the signed figures
    when the interval contains 0."""
    value, low, high = value * scale, low * scale, high * scale
    k = _decimals(value, low, high)
    if low <= 0 <= high:
        return f"{NO_DIFFERENCE} ({value:+.{k}f}, {low:+.{k}f} to {high:+.{k}f})"
    if value > 0:
        return f"{more.format(f'{value:.{k}f}')}, {low:.{k}f} to {high:.{k}f}"
    return f"{less.format(f'{-value:.{k}f}')}, {-high:.{k}f} to {-low:.{k}f}"


def _seat_points(row: Row, seat: int) -> float:
    players = len(row["returns"])
    if not row["winners"]:
        return 1 / players
    return 1.0 if seat in row["winners"] else 0.0


def _first_points(row: Row) -> float | None:
    first = row.get("first_player")
    return None if first is None else _seat_points(row, first)


def _measures(players: int, leads: bool) -> list[tuple[str, Callable[[Row], Any], float, str, str]]:
    """(measure, its value in one game, scale for the words, more, less) of every measure
    compared; ``leads``: whether lead changes and the decisive moment mean something."""
    out: list[tuple[str, Callable[[Row], Any], float, str, str]] = [
        (
            f"seat {p} score rate",
            functools.partial(_seat_points, seat=p),
            100,
            f"seat {p} favoured by {{}} points more",
            f"seat {p} favoured by {{}} points less",
        )
        for p in range(players)
    ]
    out += [
        ("draws", lambda r: 0.0 if r["winners"] else 1.0, 100, "{} points more draws",
         "{} points fewer draws"),
        ("first player's score rate", _first_points, 100, "first player scores {} points more",
         "first player scores {} points less"),
        ("game length", lambda r: float(r["length"]), 1, "games {} moves longer",
         "games {} moves shorter"),
        ("score margin", lambda r: r.get("margin"), 1, "score margin {} wider",
         "score margin {} narrower"),
        ("branching factor", lambda r: float(r["branching"]), 1,
         "{} more legal moves per decision", "{} fewer legal moves per decision"),
    ]  # fmt: skip
    if leads:
        out += [
            ("lead changes", lambda r: r.get("lead_changes"), 1, "{} more lead changes a game",
             "{} fewer lead changes a game"),
            ("decisive moment", lambda r: r.get("decided_at"), 100,
             "decided {} points of the game later", "decided {} points of the game earlier"),
        ]  # fmt: skip
    return out


def pair_rows(base: Sequence[Row], other: Sequence[Row]) -> tuple[list[tuple[Row, Row]], int]:
    """Game k of ``base`` with game k of ``other`` where both have it and it was played from
    the same seed in the same seating; and how many games of either were left unpaired."""
    by_index = {row["index"]: row for row in other}
    pairs = [
        (row, by_index[row["index"]])
        for row in base
        if row["index"] in by_index
        and by_index[row["index"]]["seed"] == row["seed"]
        and list(by_index[row["index"]]["seats"]) == list(row["seats"])
    ]
    return pairs, len(base) + len(other) - 2 * len(pairs)


def paired_differences(base: Sequence[Row], other: Sequence[Row], leads: bool = True) -> Pairing:
    """Each measure of ``other`` less that of ``base``, over the games they share a seed in.

    The interval is Student's t over the seeds: where several games share one (a
    ``--duplicate`` run plays each deal in every seating) their differences are averaged
    first, since they are not independent. ``leads=False`` leaves out lead changes and the
    decisive moment (a game that scores only at the end says nothing of them)."""
    pairs, unpaired = pair_rows(base, other)
    players = len(pairs[0][0]["returns"]) if pairs else 0
    out = []
    for measure, value_of, scale, more, less in _measures(players, leads):
        deals: dict[int, list[float]] = {}
        for a, b in pairs:
            x, y = value_of(a), value_of(b)
            if x is not None and y is not None:
                deals.setdefault(a["seed"], []).append(float(y) - float(x))
        if not deals:
            continue
        means = [statistics.fmean(d) for d in deals.values()]
        value = statistics.fmean(means)
        low, high = mean_interval(means)
        if scale == 100:
            # A difference of two shares is at most 100 points either way: from two games
            # the t interval alone read "-685 to +585".
            low, high = max(-1.0, low), min(1.0, high)
        out.append(
            Difference(
                measure=measure,
                value=value,
                low=low,
                high=high,
                pairs=sum(len(d) for d in deals.values()),
                units=len(deals),
                rate=scale == 100,  # in points: a difference of two shares
                verdict=_words(value, low, high, scale, more, less),
            )
        )
    same = sum(1 for a, b in pairs if a.get("moves") is not None and a["moves"] == b.get("moves"))
    return Pairing(pairs=len(pairs), unpaired=unpaired, same_moves=same, differences=out)
