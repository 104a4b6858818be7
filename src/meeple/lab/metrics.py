"""Design metrics from game rows. Each is defined in this package's ``metrics.md`` (which
docs/metrics.md is, and every report ends with); the definitions here are the reference."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from pydantic import BaseModel

from meeple.core.errors import MeepleError
from meeple.core.game import Game
from meeple.core.registry import make
from meeple.core.stats import mean_interval
from meeple.lab.endings import Endings, count_endings
from meeple.lab.stats import (
    deal_score_interval,
    score_interval,
    wilson_interval,
)

SMALL_SAMPLE_GAMES = 30
"""A figure resting on fewer games than this is flagged "small sample" in tables and plots."""

SMALL_SAMPLE_WIDTH = 0.3
"""...and so is a share of games (a rate) whose 95% interval is wider than this (30
percentage points): at 50% that is up to 38 games."""


SMALL = "small sample"
"""The flag of a figure resting on too few games to say much (:func:`is_small`)."""

SMALL_FLAG = f"  ({SMALL})"
"""What follows a flagged figure in a table's cell."""


class _Figure(Protocol):
    @property
    def small(self) -> bool: ...


def flag(figure: _Figure | None) -> str:
    """What follows ``figure`` in a table's cell: :data:`SMALL_FLAG` where it is a small
    sample (a rate, an estimate or a difference), nothing otherwise."""
    return SMALL_FLAG if figure is not None and figure.small else ""


def is_small(n: int, low: float, high: float, rate: bool) -> bool:
    """Whether a figure of ``n`` games (or observations), interval ``low`` to ``high``, is too
    small a sample to say much: fewer than :data:`SMALL_SAMPLE_GAMES`, or, for a rate, an
    interval wider than :data:`SMALL_SAMPLE_WIDTH`."""
    return n < SMALL_SAMPLE_GAMES or (rate and high - low > SMALL_SAMPLE_WIDTH)


class Rate(BaseModel):
    """A proportion with its 95% Wilson interval."""

    count: float
    total: int
    rate: float
    low: float
    high: float

    @classmethod
    def of(cls, count: float, total: int) -> Rate:
        """``count`` out of ``total`` (draws may count as halves)."""
        low, high = wilson_interval(count, total)
        return cls(
            count=count, total=total, rate=count / total if total else 0.0, low=low, high=high
        )

    @property
    def small(self) -> bool:
        """Too few games, or too wide an interval, to say much (:func:`is_small`)."""
        return is_small(self.total, self.low, self.high, rate=True)

    def __str__(self) -> str:
        return f"{100 * self.rate:.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}]"


class Estimate(BaseModel):
    """A metric with its 95% interval and how many games (or observations) it rests on."""

    value: float
    low: float
    high: float
    n: int
    rate: bool = False
    """A share (of games, or of a game): judged by its interval's width too, and drawn on an
    axis from zero."""

    @property
    def small(self) -> bool:
        """Too few games, or too wide an interval, to say much (:func:`is_small`)."""
        return is_small(self.n, self.low, self.high, self.rate)

    @classmethod
    def mean(cls, values: list[float], rate: bool = False, count: bool = False) -> Estimate:
        """The mean of ``values`` with its t interval, kept inside [0, 1] for a share and
        from 0 up for a ``count`` (moves, lead changes, points apart: a mean that cannot
        be below 0 is not said to be)."""
        low, high = mean_interval(values)
        if rate:
            low, high = max(0.0, low), min(1.0, high)
        elif count:
            low = max(0.0, low)
        return cls(value=statistics.fmean(values), low=low, high=high, n=len(values), rate=rate)

    @classmethod
    def of_rate(cls, rate: Rate, shift: float = 0.0) -> Estimate:
        """A :class:`Rate` as an estimate, moved by ``shift`` (the first-player advantage is
        the first player's score rate less 1/players)."""
        return cls(
            value=rate.rate + shift,
            low=rate.low + shift,
            high=rate.high + shift,
            n=rate.total,
            rate=True,
        )


class Spread(BaseModel):
    """Mean, standard deviation, extremes and a histogram of a quantity."""

    mean: float
    std: float
    min: float
    max: float
    histogram: list[tuple[float, int]]

    @classmethod
    def of(cls, values: list[float], bins: int = 12) -> Spread | None:
        """Describe ``values``; None when there are none."""
        if not values:
            return None
        lo, hi = min(values), max(values)
        if all(float(v).is_integer() for v in values) and hi - lo < 2 * bins:
            bins, width = int(hi - lo) + 1, 1.0  # one bin per whole number: counts stay exact
        else:
            width = (hi - lo) / bins if hi > lo else 1.0
        counts = [0] * bins
        for v in values:
            counts[min(bins - 1, int((v - lo) / width))] += 1
        return cls(
            mean=statistics.fmean(values),
            std=statistics.pstdev(values),
            min=lo,
            max=hi,
            histogram=[(lo + i * width, c) for i, c in enumerate(counts)],
        )


class SeatResult(BaseModel):
    """How one seat did."""

    seat: int
    agents: list[str]
    role: str = ""
    """The seat as the game names it (``Alps``), with what it played with where the game
    gives seats roles (``Red (iron-line)``: its colour and its deck, ``Game.seat_role``)."""
    wins: int
    """Games the seat won, alone or shared with other seats (a win shared by k seats counts
    for each of the k)."""
    draws: int
    losses: int
    win_rate: Rate
    """Of ``wins``: won or shared. Over the seats these may sum to more than 100%."""
    score_rate: float
    alone: int = 0
    """Games the seat won with no other seat sharing the best return."""
    shared: int = 0
    """Games the seat won together with other seats (``wins - alone``)."""
    alone_rate: Rate | None = None
    """Of ``alone``; over the seats these sum to at most 100%."""
    mean_score: Estimate | None = None
    """The seat's mean final score with its t interval, in games whose result has scores."""
    score: Rate | None = None
    """The score rate with its interval, from the games' own variance (a game scores 1, 1/P
    for a draw, or 0: :func:`meeple.lab.stats.deal_score_interval`, each game its own deal)."""


class AgentResult(BaseModel):
    """How one agent did in two-player games against one other agent, whichever seat it held."""

    agent: str
    opponent: str = ""
    """The other agent of the games."""
    wins: int
    draws: int
    losses: int
    score: Rate
    """Its score rate (a draw counts half), with the interval from the games' own variance
    (:func:`meeple.lab.stats.score_interval`), or from the deals' where games shared deals
    (:func:`meeple.lab.stats.deal_score_interval`)."""
    deals: int | None = None
    """How many deals the games were, where games shared their seed (``--duplicate``: each
    deal played once in every seating); None when every game had a deal of its own."""
    deal_tally: list[tuple[float, int]] | None = None
    """With shared deals: how many deals gave the agent each mean score, highest first
    (``[(1.0, 12), (0.5, 25), (0.0, 13)]``: 12 deals won in both seatings, 25 split, 13
    lost in both). What a later batch of the same pairing needs to pool with this one
    (:func:`meeple.lab.stats.tally_interval`), once the games themselves are gone."""


class Summary(BaseModel):
    """Everything `meeple simulate` reports about a set of games."""

    games: int
    seats: list[SeatResult]
    agents: list[AgentResult] = []
    """Per agent, where two agents changed seats (empty otherwise: the seats say it)."""
    draws: Rate
    first_player: Rate | None
    first_player_advantage: float | None
    length: Spread | None
    margin: Spread | None
    balance: float
    drawishness: float
    decisiveness: float | None
    duration: float
    lead_changes: float | None
    branching_factor: float
    endings: Endings | None = None
    """How the games ended (None when the rows do not say)."""
    score_spread: Estimate | None = None
    """Best score less worst score in a game (games whose result has scores), mean with its
    t interval; with two seats it is the score margin."""
    units: dict[str, Estimate] = {}
    """The length in the game's own units (``Game.length_units``: rounds, turns, eras), each
    a mean per game with its t interval, over the games whose rows carry it."""
    seats_differ: bool = False
    """Whether the games show the best seat ahead of the worst (:func:`seats_differ`)."""
    intervals: dict[str, Estimate] = {}
    """Each design metric of :data:`METRIC_NAMES` that means something here, and ``margin``
    (the mean score margin), with its 95% interval: Wilson's for shares of games, Student's
    t for means; balance by the per-game score gap between its best and worst seat."""


def summarize(rows: Sequence[Mapping[str, Any]]) -> Summary:
    """Compute the summary and design metrics of a list of game rows."""
    if not rows:
        raise ValueError("no games to summarize")
    n = len(rows)
    players = len(rows[0]["returns"])
    seats = []
    points = [[_seat_points(r, p, players) for r in rows] for p in range(players)]
    # A run's rows share their game and options: one row speaks for all.
    game = _game_of(rows[0])
    roles = seat_roles(game, players)
    scored = _score_indexes(game, players)
    for p in range(players):
        wins = sum(1 for r in rows if p in r["winners"])
        alone = sum(1 for r in rows if r["winners"] == [p])
        draws = sum(1 for r in rows if not r["winners"])
        at = scored[p]
        scores = [float(r["scores"][at]) for r in rows if len(r.get("scores") or ()) > at]
        losses = n - wins - draws
        low, high = deal_score_interval([[x] for x in points[p]])
        rate = (wins + draws / players) / n
        seats.append(
            SeatResult(
                seat=p,
                agents=sorted({r["seats"][p] for r in rows}),
                role=roles[p],
                wins=wins,
                draws=draws,
                losses=losses,
                win_rate=Rate.of(wins, n),
                score_rate=rate,
                score=Rate(count=rate * n, total=n, rate=rate, low=low, high=high),
                alone=alone,
                shared=wins - alone,
                alone_rate=Rate.of(alone, n),
                mean_score=Estimate.mean(scores) if scores else None,
            )
        )
    draw_count = sum(1 for r in rows if not r["winners"])
    firsts = [r for r in rows if r["first_player"] is not None]
    # A shared win is the winners' share of the game, so that the rate's fair value is
    # 1/players whatever the share of shared wins (counted whole, ties would read as a
    # first-player advantage).
    first_points = sum(
        1 / len(r["winners"])
        if r["first_player"] in r["winners"]
        else (1 / players if not r["winners"] else 0.0)
        for r in firsts
    )
    first = Rate.of(first_points, len(firsts)) if firsts else None
    score_rates = [s.score_rate for s in seats]
    decided = [r["decided_at"] for r in rows if r.get("decided_at") is not None]
    leads = [r["lead_changes"] for r in rows if r.get("lead_changes") is not None]
    if not lead_told(rows):
        decided, leads = [], []
    margins = [r["margin"] for r in rows if r.get("margin") is not None]
    lengths = [float(r["length"]) for r in rows]
    branching = [float(r["branching"]) for r in rows]
    spreads = [
        float(max(r["scores"]) - min(r["scores"]))
        for r in rows
        if r.get("scores") and len(r["scores"]) > 1
    ]
    draw_rate = Rate.of(draw_count, n)
    intervals = {
        "balance": _balance(points),
        "drawishness": Estimate.of_rate(draw_rate),
        "duration": Estimate.mean(lengths, count=True),
        "branching_factor": Estimate.mean(branching, count=True),
    }
    if decided:
        intervals["decisiveness"] = Estimate.mean(decided, rate=True)
    if leads:
        intervals["lead_changes"] = Estimate.mean([float(x) for x in leads], count=True)
    if first:
        intervals["first_player_advantage"] = Estimate.of_rate(first, -1 / players)
    if margins:
        intervals["margin"] = Estimate.mean([float(x) for x in margins], count=True)
    return Summary(
        games=n,
        seats=seats,
        # Only where the agents changed seats: otherwise each seat's line is one agent's.
        agents=agent_results(rows) if len({tuple(r["seats"]) for r in rows}) > 1 else [],
        draws=draw_rate,
        first_player=first,
        first_player_advantage=(first.rate - 1 / players) if first else None,
        length=Spread.of(lengths),
        margin=Spread.of(margins),
        balance=1.0 - (max(score_rates) - min(score_rates)),
        seats_differ=seats_differ(points),
        drawishness=draw_count / n,
        decisiveness=statistics.fmean(decided) if decided else None,
        duration=statistics.fmean(lengths),
        lead_changes=statistics.fmean(leads) if leads else None,
        branching_factor=statistics.fmean(r["branching"] for r in rows),
        endings=count_endings(rows),
        score_spread=Estimate.mean(spreads, count=True) if spreads else None,
        units=_units(rows),
        intervals=intervals,
    )


def _units(rows: Sequence[Mapping[str, Any]]) -> dict[str, Estimate]:
    counted: dict[str, list[float]] = {}
    for row in rows:
        for unit, value in (row.get("units") or {}).items():
            counted.setdefault(unit, []).append(float(value))
    return {unit: Estimate.mean(values) for unit, values in counted.items()}


def _game_of(row: Mapping[str, Any]) -> Game[Any, Any, Any] | None:
    """The game of ``row`` (its name and options), or None when it cannot be made."""
    try:
        return make(row["game"], **(row.get("options") or {}))
    except (MeepleError, KeyError):
        return None


def seat_roles(game: Game[Any, Any, Any] | None, players: int) -> list[str]:
    """Each seat's name in ``game`` (``Alps``), with its role where the game gives seats
    roles (``Red (iron-line)``): as the game's log and replays name the seat. Empty texts
    without a game (``_game_of`` could not make it)."""
    if game is None:
        return [""] * players
    out = []
    for p in range(players):
        role = game.seat_role(p) if p < game.num_players else None
        name = game.seat_name(p) if p < game.num_players else ""
        out.append(f"{name} ({role})" if role else name)
    return out


def _score_indexes(game: Game[Any, Any, Any] | None, players: int) -> list[int]:
    """Where each seat's score stands in the rows' ``scores`` (``Game.score_index``: a team's
    in Double Edges, where two seats share one), each its own without a game."""
    if game is None:
        return list(range(players))
    return [game.score_index(p) if p < game.num_players else p for p in range(players)]


def _seat_points(row: Mapping[str, Any], seat: int, players: int) -> float:
    """What a game scored for ``seat`` in a seat's score rate: 1 for a win (shared or not),
    1/players for a draw, 0 for a loss."""
    if not row["winners"]:
        return 1 / players
    return 1.0 if seat in row["winners"] else 0.0


def _balance(points: list[list[float]]) -> Estimate:
    """Balance, 1 - (best seat's score rate - worst seat's), with the interval of that gap
    taken over the games' own gaps between those two seats (they played the same games, so
    the gap is paired game by game)."""
    gaps = _best_worst_gaps(points)
    low, high = mean_interval(gaps)
    value = 1.0 - statistics.fmean(gaps)
    return Estimate(
        value=value, low=max(0.0, 1.0 - high), high=min(1.0, 1.0 - low), n=len(gaps), rate=True
    )


def _best_worst_gaps(points: list[list[float]]) -> list[float]:
    """The best seat's score less the worst seat's, game by game."""
    rates = [statistics.fmean(seat) for seat in points]
    # Two different seats even when all score alike: the gap of a seat with itself is 0 in
    # every game, an interval of no width that would claim perfect balance for certain.
    order = sorted(range(len(rates)), key=rates.__getitem__)
    worst, best = order[0], order[-1]
    return [b - w for b, w in zip(points[best], points[worst], strict=True)]


def seats_differ(points: list[list[float]]) -> bool:
    """Whether the games show the best seat ahead of the worst, at 95% for the whole table.

    The best and the worst seat are picked after the games, from every pair of seats: their
    gap's own 95% interval clears 0 in about 29% of 200-game runs of five seats that score
    alike (12% with three). The gap is tested as one of the P(P-1)/2 pairs it was picked
    from (Bonferroni), which leaves two seats' test as it is.
    """
    pairs = len(points) * (len(points) - 1) // 2
    low, _ = mean_interval(_best_worst_gaps(points), level=1 - 0.05 / max(1, pairs))
    return low > 0


def agent_results(rows: Sequence[Mapping[str, Any]]) -> list[AgentResult]:
    """Each agent's wins, draws and losses over the games, whichever seat it held, for
    two-player games between the same two agents; empty for anything else.

    With seats rotated (the ladder, ``simulate --rotate-seats``) a seat's record mixes both
    agents and the game's first-player advantage; this is the record that compares them.
    """
    if not rows or any(len(r["seats"]) != 2 or r["seats"][0] == r["seats"][1] for r in rows):
        return []
    games = pairwise_results(rows)
    names = sorted({name for a, b, _ in games for name in (a, b)})
    if len(names) != 2:
        return []
    seeds = [r["seed"] for r in rows]
    shared = len(set(seeds)) < len(seeds)
    out = []
    for name in names:
        scores = [score if a == name else 1 - score for a, _, score in games]
        wins, draws = scores.count(1.0), scores.count(0.5)
        losses = len(scores) - wins - draws
        if shared:
            deals: dict[int, list[float]] = {}
            for seed, score in zip(seeds, scores, strict=True):
                deals.setdefault(seed, []).append(score)
            low, high = deal_score_interval(list(deals.values()))
            tally = Counter(sum(deal) / len(deal) for deal in deals.values())
        else:
            low, high = score_interval(wins, draws, losses)
            tally = None
        points = wins + draws / 2
        score_rate = Rate(
            count=points, total=len(scores), rate=points / len(scores), low=low, high=high
        )
        out.append(
            AgentResult(
                agent=name,
                opponent=next(other for other in names if other != name),
                wins=wins,
                draws=draws,
                losses=losses,
                score=score_rate,
                deals=len(set(seeds)) if shared else None,
                deal_tally=sorted(tally.items(), reverse=True) if tally else None,
            )
        )
    return out


def pairwise_results(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, str, float]]:
    """Each game between exactly two agents as (agent A, agent B, A's score): 1 if only A's
    seats are among the winners, 0 if only B's, 1/2 for a draw or a shared win; games with
    other than two agents are left out. A is the agent that holds fewer seats (with two
    players: the one in seat 0).

    The one place that decides who won a game between two agents: the tournament's ratings
    and each agent's record (``agent_results``) both read it, from the same ``winners`` the
    seat lines count.
    """
    out = []
    for row in rows:
        seats = row["seats"]
        names = sorted(set(seats), key=lambda name: (seats.count(name), seats.index(name)))
        if len(names) != 2:
            continue
        a, b = names
        won = {seats[p] for p in row["winners"]}
        out.append((a, b, 1.0 if won == {a} else 0.0 if won == {b} else 0.5))
    return out


def lead_told(rows: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the lead changes and decisive moments of ``rows`` tell anything: some game
    had a sole leader before its last action. Scores that name a leader only with the last
    action (Erosion scores its eras at the end) tell nothing of them: n/a, not 0, in the
    tables and in a run's CSV alike."""
    return any(_led_before_the_end(r) for r in rows)


def _led_before_the_end(row: Mapping[str, Any]) -> bool:
    """Whether some seat led on its own before the game's last action: the lead changed,
    or the eventual winner led for good from before the last action."""
    if row.get("lead_changes"):
        return True
    decided, length = row.get("decided_at"), row.get("length") or 0
    return decided is not None and length > 0 and decided * length < length - 1 - 1e-9


METRIC_NAMES = {
    "balance": "balance (1 = all seats score alike)",
    "drawishness": "drawishness (share of draws)",
    "decisiveness": "decisive moment (share of the game before the winner led for good)",
    "duration": "duration (moves per game)",
    "lead_changes": "lead changes per game",
    "branching_factor": "branching factor (legal moves per decision)",
    "first_player_advantage": "first-player advantage (score rate - 1/players)",
}
"""The design metrics by field name, with the label reports use."""
