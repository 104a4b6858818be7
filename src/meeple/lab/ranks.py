"""How often each rank of The Triangle Clock's ranking table comes up: exactly, when a round
is played at random, and as the best hand of a deal, sampled, with its 95% interval.

A designer who edits the ranking table reads here whether the strengths follow the rarity
(``meeple ranking my-table.toml``); the rules' own table is this one for the shipped file.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from meeple.games.triangle_clock.hands import (
    TieBreak,
    best_of_deal_frequencies,
    example_hands,
    hand_text,
    random_play_frequencies,
    ranking,
)
from meeple.lab.figures import new_figure
from meeple.lab.metrics import Rate

MAX_DEALS = 1_000_000
"""The most deals sampled: about 15 s here, and an interval of a tenth of a percent."""


class RankFrequency(BaseModel):
    """One rank of a ranking table and how often it comes up."""

    rank: int
    """1 for the highest."""
    name: str
    strength: int
    example: str | None
    """The first hand (in tie-break order) that has it; None when no hand can."""
    random_play: float
    """Exact share of rounds played at random that make this rank."""
    best_of_deal: Rate
    """Share of sampled deals whose best hand is this rank, with its Wilson interval."""


def rank_frequencies(
    path: str | None = None, tie_break: TieBreak = "rank-first", deals: int = 20_000, seed: int = 0
) -> list[RankFrequency]:
    """Every rank of the table in ``path`` (None: the shipped one), highest first.

    Raises RankingTableError (a MeepleError) naming what is wrong with the file."""
    table = ranking(path, tie_break)
    examples = example_hands(table)
    played = random_play_frequencies(table)
    best = best_of_deal_frequencies(table, deals, seed)
    return [
        RankFrequency(
            rank=k + 1,
            name=spec.name,
            strength=spec.strength,
            example=hand_text(example) if (example := examples[k]) else None,
            random_play=played[k],
            best_of_deal=Rate.of(round(best[k] * deals), deals),
        )
        for k, spec in enumerate(table.ranks)
    ]


def rank_table(ranks: list[RankFrequency]) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the rank-frequency table."""
    headers = ["#", "hand", "strength", "example", "random play (exact)", "best of deal [95%]"]
    rows = [
        [
            str(r.rank),
            r.name,
            str(r.strength),
            r.example or "(none possible)",
            f"{100 * r.random_play:.2f}%",
            f"{100 * r.best_of_deal.rate:.2f}% [{100 * r.best_of_deal.low:.2f}, "
            f"{100 * r.best_of_deal.high:.2f}]",
        ]
        for r in ranks
    ]
    return headers, rows


def rank_figure(ranks: list[RankFrequency], title: str) -> Any:
    """Each rank's share under random play and as the best of a deal (with its 95% error
    bar), on an axis from 0, and its strength beside it."""

    fig = new_figure(10, 1.2 + 0.4 * len(ranks))
    left, right = fig.subplots(1, 2, sharey=True, width_ratios=[3, 1])
    y = list(range(len(ranks)))[::-1]
    left.barh([k + 0.2 for k in y], [r.random_play for r in ranks], height=0.4,
              label="random play (exact)", color="tab:grey")  # fmt: skip
    best = [r.best_of_deal for r in ranks]
    left.barh(
        [k - 0.2 for k in y],
        [b.rate for b in best],
        height=0.4,
        xerr=[[b.rate - b.low for b in best], [b.high - b.rate for b in best]],
        capsize=3,
        label=f"best of a deal ({best[0].total} deals, 95% CI)",
        color="tab:blue",
    )
    left.set_yticks(y, [f"{r.rank}. {r.name}" for r in ranks])
    left.set_xlim(left=0)
    left.set_xlabel("share of hands (from 0)")
    left.legend(loc="lower right", fontsize="small")
    right.barh(y, [r.strength for r in ranks], color="tab:orange")
    right.set_xlim(left=0)
    right.set_xlabel("strength (from 0)")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


__all__ = ["RankFrequency", "rank_figure", "rank_frequencies", "rank_table"]
