"""Per-card statistics of a run: how often each card (or item) was played, by which seat,
whether the side that played it won more often, and which cards were never played.

A row keeps every move, so the statistics come from any stored run by replaying its games;
the game says which cards an action plays (``Game.cards_played``) and which cards the
configuration offers (``Game.card_names``). Each rate carries its 95% interval; "won when
played" against "won when not played" is a difference with Newcombe's interval, an
association only: a side that is already winning may play its finishing cards more.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from meeple.core.errors import MeepleError
from meeple.core.registry import games as installed_games
from meeple.core.registry import make
from meeple.core.words import counted
from meeple.lab.figures import new_figure
from meeple.lab.metrics import SMALL_FLAG, SMALL_SAMPLE_GAMES, Estimate, Rate, flag, seat_roles
from meeple.lab.replay import game_record

PLAYED_NOTE = (
    "'won when played' counts each game a seat played the card at least once, and whether "
    "that seat won (alone or shared); 'not played' the games of the seats that played it in "
    "some game of the run (so held it) and did not in that one. "
    "Their difference shows an association, not a cause: a side already ahead may play its "
    "finishing cards more."
)


class NoCards(MeepleError):
    """The run's game has no cards or items to count."""


class Difference(BaseModel):
    """A difference of two rates with its 95% interval (Newcombe's, from Wilson's)."""

    value: float
    low: float
    high: float

    @classmethod
    def of(cls, a: Rate, b: Rate) -> Difference | None:
        """``a`` less ``b``; None when either has no games."""
        if not a.total or not b.total:
            return None
        d = a.rate - b.rate
        low = d - math.sqrt((a.rate - a.low) ** 2 + (b.high - b.rate) ** 2)
        high = d + math.sqrt((a.high - a.rate) ** 2 + (b.rate - b.low) ** 2)
        return cls(value=d, low=low, high=high)

    def words(self) -> str:
        """The difference in points, as a verdict: 'no difference shown' when the interval
        holds 0."""
        span = f"{100 * self.low:+.1f} to {100 * self.high:+.1f} points"
        if self.low <= 0 <= self.high:
            return f"no difference shown ({100 * self.value:+.1f}, {span})"
        more = "more" if self.value > 0 else "less"
        return f"won {abs(100 * self.value):.1f} points {more} often ({span})"


class CardStat(BaseModel):
    """One card's record in a run."""

    card: str
    plays: int
    """Times played, every seat together."""
    games: Rate
    """Share of games in which some seat played it."""
    per_game: Estimate
    """Plays per game, mean with its t interval."""
    by_seat: list[int]
    """Times played by each seat."""
    won_when_played: Rate
    """Of the (game, seat) pairs where the seat played it: the share that seat won."""
    won_when_not: Rate
    """Of the (game, seat) pairs where the seat did not play it, among the seats that played
    it in some game of the run (a seat that never did may not hold it)."""
    difference: Difference | None
    """``won_when_played`` less ``won_when_not``."""


class CardReport(BaseModel):
    """Every card of a run's configuration, most played first, with the seats' names."""

    games: int
    seats: list[str]
    agents: str
    """The agents that played, in words (``policy in every seat``): the figures are theirs."""
    cards: list[CardStat]
    never_played: list[str]


def _agents_words(rows: Sequence[Mapping[str, Any]]) -> str:
    # Each seat's agents over the run (several where the seats rotated), in seat order.
    seats = max(len(row["seats"]) for row in rows)
    held = [
        " / ".join(dict.fromkeys(r["seats"][p] for r in rows if p < len(r["seats"])))
        for p in range(seats)
    ]
    if len(set(held)) == 1 and seats > 1:
        return f"{held[0]} in every seat"
    return ", ".join(f"seat {p} {agents}" for p, agents in enumerate(held))


def card_report(rows: Sequence[Mapping[str, Any]]) -> CardReport:
    """The per-card statistics of ``rows`` (one run's games: one game and configuration).

    Raises NoCards when the game offers no cards to count, MeepleError when a row does not
    replay (its files changed since the run).
    """
    if not rows:
        raise NoCards("the run has no games stored yet")
    first = game_record(rows[0]).make_game()
    names = list(first.card_names())
    if not names:
        # The games that name cards, as installed, not a list written once: an added game
        # may name its own; Erd's Heavies, Lights and Decoys are not named (every round
        # spends its allocation whole, and "Erd has no cards" read as false).
        counted_games = [i.name for i in installed_games() if make(i.name).card_names()]
        raise NoCards(
            f"{first.title} names no cards or items for the lab to count "
            f"(Game.card_names); per-card statistics are for the games that do: "
            f"{', '.join(counted_games)}"
        )
    seats = first.num_players
    games: list[tuple[dict[str, list[int]], set[int]]] = []  # each game's plays, its winners
    for row in rows:
        states = game_record(row).states()
        game = states[0].game
        counts: dict[str, list[int]] = {c: [0] * seats for c in names}
        for state, (player, text) in zip(states, row["moves"], strict=False):
            for card in game.cards_played(state, player, game.parse_action(text)):
                if card not in counts:  # a card the configuration did not list: counted too
                    names.append(card)
                    counts[card] = [0] * seats
                counts[card][player] += 1
        games.append((counts, set(row["winners"])))
    plays = {c: [0] * seats for c in names}
    for counts, _ in games:
        for card, by_seat in counts.items():
            plays[card] = [a + b for a, b in zip(plays[card], by_seat, strict=True)]
    in_game = dict.fromkeys(names, 0)
    per_game: dict[str, list[float]] = {c: [] for c in names}
    played_won = {c: [0, 0] for c in names}  # [won, (game, seat) pairs]
    not_won = {c: [0, 0] for c in names}
    for counts, winners in games:
        for card in names:
            by_seat = counts.get(card, [0] * seats)
            in_game[card] += any(by_seat)
            per_game[card].append(float(sum(by_seat)))
            for seat, k in enumerate(by_seat):
                if not plays[card][seat]:
                    continue  # a seat that never played it may not hold it (another deck)
                tally = played_won[card] if k else not_won[card]
                tally[0] += seat in winners
                tally[1] += 1
    n = len(rows)
    stats = []
    for card in names:
        played = Rate.of(*played_won[card])
        not_played = Rate.of(*not_won[card])
        stats.append(
            CardStat(
                card=card,
                plays=sum(plays[card]),
                games=Rate.of(in_game[card], n),
                per_game=Estimate.mean(per_game[card] or [0.0], count=True),
                by_seat=plays[card],
                won_when_played=played,
                won_when_not=not_played,
                difference=Difference.of(played, not_played),
            )
        )
    stats.sort(key=lambda s: (-s.plays, names.index(s.card)))
    return CardReport(
        games=n,
        seats=seat_roles(first, seats),
        agents=_agents_words(rows),
        cards=stats,
        never_played=[s.card for s in stats if s.plays == 0],
    )


def _rate(rate: Rate) -> str:
    if not rate.total:
        return "-"
    return f"{rate} of {rate.total}{flag(rate)}"


def _difference(stat: CardStat) -> str:
    """The difference in words, flagged where either of its rates is a small sample."""
    if stat.difference is None:
        return "-"
    small = stat.won_when_played.small or stat.won_when_not.small
    return stat.difference.words() + (SMALL_FLAG if small else "")


def card_table(report: CardReport) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the per-card table, one row per card, most played first."""
    headers = [
        "card",
        "plays",
        "per game [95%]",
        "in games [95%]",
        *(f"by {s}" for s in report.seats),
        "won when played [95%]",
        "won when not played [95%]",
        "played - not played",
    ]
    rows = []
    for s in report.cards:
        e = s.per_game
        rows.append(
            [
                s.card,
                str(s.plays),
                f"{e.value:.2f} [{e.low:.2f}, {e.high:.2f}]{flag(e)}",
                f"{s.games}{flag(s.games)}",
                *(str(k) for k in s.by_seat),
                _rate(s.won_when_played),
                _rate(s.won_when_not),
                _difference(s),
            ]
        )
    return headers, rows


def card_figure(report: CardReport) -> Any:
    """A plot of each card's plays per game, with 95% error bars (the axis from 0), and of
    the win rates when played and when not, with theirs."""
    from matplotlib.patches import Patch  # imported here: see figures.new_figure

    cards = [s.card for s in report.cards][::-1]
    fig = new_figure(10, 1 + 0.35 * len(cards))
    left, right = fig.subplots(1, 2, sharey=True)
    y = list(range(len(cards)))
    stats = report.cards[::-1]
    per = [s.per_game for s in stats]
    left.barh(
        y,
        [e.value for e in per],
        xerr=[[e.value - e.low for e in per], [e.high - e.value for e in per]],
        capsize=3,
        color="tab:blue",
    )
    left.set_yticks(y, cards)
    left.set_xlim(left=0)
    left.set_xlabel("plays per game (95% CI, from 0)")
    series = (
        (-0.2, "won_when_played", "won when played", "tab:green"),
        (0.2, "won_when_not", "won when not played", "tab:grey"),
    )
    for offset, attr, _, colour in series:
        shown = [(k, getattr(s, attr)) for k, s in zip(y, stats, strict=True)]
        shown = [(k, r) for k, r in shown if r.total]  # no such games: no bar, not 0 to 100%
        right.barh(
            [k + offset for k, _ in shown],
            [r.rate for _, r in shown],
            height=0.4,
            xerr=[[r.rate - r.low for _, r in shown], [r.high - r.rate for _, r in shown]],
            capsize=2,
            color=colour,
        )
    right.set_xlim(0, 1)
    right.set_xlabel("share of the seat's games won (95% CI, from 0)")
    # Drawn from the series, not the bars: a series with no bars (no card ever left
    # unplayed) would take the axes' first colour, the plays' blue, in the legend.
    handles = [Patch(color=colour, label=label) for _, _, label, colour in series]
    right.legend(
        handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=2, fontsize="small"
    )
    small = " (small sample)" if report.games < SMALL_SAMPLE_GAMES else ""
    fig.suptitle(f"cards over {counted(report.games, 'game')}{small}: {report.agents}")
    fig.tight_layout()
    return fig


__all__ = [
    "PLAYED_NOTE",
    "CardReport",
    "CardStat",
    "Difference",
    "NoCards",
    "card_figure",
    "card_report",
    "card_table",
]
