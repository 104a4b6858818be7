"""A design report: the lab's runs of one game at every player count a designer asks for,
gathered into one Markdown page with its plots, written for the game's designer.

Nothing here plays or counts anew: each player count is an ordinary simulation run (the
same key as ``meeple simulate`` with the same flags, so its stored games are read back),
summarised by :func:`meeple.lab.metrics.summarize`, its cards by
:func:`meeple.lab.cards.card_report`, drawn by :mod:`meeple.lab.report`'s figures. This
module arranges them by the designer's questions (balance, length, decisiveness, cards),
with each figure's interval and the command that reproduces it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meeple.core.files import atomic_write
from meeple.core.registry import make
from meeple.lab.cards import PLAYED_NOTE, CardReport, card_figure, card_table
from meeple.lab.metrics import Estimate, Rate, Summary, flag
from meeple.lab.replay import notable_lines
from meeple.lab.report import (
    SHARED_NOTE,
    _estimate,
    _save,
    definitions,
    length_figure,
    markdown_table,
    metric_figure,
    seat_table,
    side_by_side,
    summary_warnings,
    win_figure,
)
from meeple.lab.run import RunSpec

SECTIONS = (
    "Agents",
    "Runs",
    "Seat and turn-order balance",
    "Game length",
    "How early games are decided, and lead changes",
    "Cards and items",
    "Games to look at",
    "Every measure",
)
"""The report's sections (``##`` headings), in order: a test checks each is written."""


@dataclass
class CountRun:
    """One player count of a design report: its run, its games and what was read from them."""

    players: int
    spec: RunSpec
    rows: Sequence[Mapping[str, Any]]
    summary: Summary
    command: str
    """The ``meeple simulate`` command that plays (or reads back) exactly this run."""
    cards: CardReport | None = None
    """Per-card statistics, for a game with cards or items; None otherwise."""
    played: int = 0
    """Games this invocation played (the rest were read back from the results database)."""
    label: str = field(init=False)

    def __post_init__(self) -> None:
        self.label = f"{self.players} players"


def role_rates(run: CountRun) -> list[tuple[str, str, Rate]]:
    """Wins (alone or shared) of each role (deck, faction, items) that more than one seat
    held, pooled over those seats' games, as (role, seats, rate); empty when every role is
    one seat's (the seat table then says it). Seats of one game are not independent, so the
    interval is indicative."""
    game = make(run.spec.game, **run.spec.options)
    roles: dict[str, list[int]] = {}
    for p in range(game.num_players):
        role = game.seat_role(p)
        if role:
            roles.setdefault(role, []).append(p)
    out = []
    for role, seats in roles.items():
        if len(seats) < 2:
            continue
        wins = sum(1 for row in run.rows for p in seats if p in row["winners"])
        names = ", ".join(str(p) for p in seats)
        out.append((role, names, Rate.of(wins, len(seats) * len(run.rows))))
    return out


def _balance_words(summary: Summary) -> str:
    """The balance of one player count in a sentence: best and worst seat, with intervals,
    and whether the games show a difference between them."""
    balance = summary.intervals["balance"]
    seats = sorted(summary.seats, key=lambda s: s.score_rate)
    worst, best = seats[0], seats[-1]

    def name(seat: Any) -> str:
        return f"seat {seat.seat} {seat.role}".rstrip()

    verdict = (
        f"the seats differ: {name(best)} is favoured"
        if summary.seats_differ
        else "no difference between the seats is shown"
    )
    if len(seats) > 2:
        pairs = len(seats) * (len(seats) - 1) // 2
        verdict += f" (the best and the worst tested as one of the {pairs} pairs of seats)"
    return (
        f"Balance {_estimate(balance.value, balance)} (1 = every seat scores alike): "
        f"best {name(best)} score rate {best.score}, worst {name(worst)} {worst.score}; "
        f"{verdict}."
    )


def _first_words(summary: Summary) -> str:
    if summary.first_player is None:
        return (
            "Turn order: no single first player (the seats act together, or the first "
            "player is not recorded), so seat order is the only order measured."
        )
    advantage = summary.intervals.get("first_player_advantage")
    return (
        f"Turn order: whoever acted first scored {summary.first_player} of the games; "
        f"first-player advantage {_estimate(summary.first_player_advantage, advantage)} "
        "(0 = fair)."
    )


def _mean(e: Estimate | None) -> str:
    return "n/a" if e is None else _estimate(e.value, e)


def _unit_values(rows: Sequence[Mapping[str, Any]], unit: str) -> list[float]:
    return [float(r["units"][unit]) for r in rows if unit in (r.get("units") or {})]


def _length_section(runs: Sequence[CountRun], out_dir: Path) -> list[str]:
    units = list(dict.fromkeys(u for run in runs for u in run.summary.units))
    headers = ["players", "moves per game (every decision)", *(f"{u} per game" for u in units)]
    table = []
    for run in runs:
        duration = run.summary.intervals["duration"]
        length = run.summary.length
        moves = _mean(duration) + (f", {length.min:g} to {length.max:g}" if length else "")
        cells = [run.label, moves]
        for unit in units:
            values = _unit_values(run.rows, unit)
            extent = f", {min(values):g} to {max(values):g}" if values else ""
            cells.append(_mean(run.summary.units.get(unit)) + extent)
        table.append(cells)
    body = [
        "Length in the game's own units (where it counts them) and in moves, each a mean per "
        "game with its 95% t interval, and the shortest to the longest game.",
        markdown_table(headers, table),
    ]
    figures = [("moves", {r.label: [float(x["length"]) for x in r.rows] for r in runs})]
    figures += [(u, {r.label: _unit_values(r.rows, u) for r in runs}) for u in units]
    for unit, lengths in figures:
        values = [v for series in lengths.values() for v in series]
        if values and min(values) == max(values):
            body.append(f"Every game lasted {values[0]:g} {unit}: no distribution to draw.")
            continue
        name = _save(length_figure(lengths, unit), out_dir / f"length-{unit}.png")
        body.append(f"![length in {unit}]({name})")
    return body


def _decided_section(runs: Sequence[CountRun], out_dir: Path) -> list[str]:
    summaries = {run.label: run.summary for run in runs}
    table = []
    for run in runs:
        s = run.summary
        table.append(
            [
                run.label,
                _mean(s.intervals.get("decisiveness")),
                _mean(s.intervals.get("lead_changes")),
                _mean(s.intervals.get("margin")),
                f"{s.draws}{flag(s.draws)}",
            ]
        )
    return [
        "Decisive moment: the share of the game (in moves) played before the eventual "
        "winner took the lead for good, mean over decided games (0: led from the first "
        "move; near 1: decided at the end). Lead changes: how often the sole leader changed, "
        "per game. Both are n/a where scores show no leader before the end.",
        markdown_table(
            ["players", "decisive moment", "lead changes per game", "score margin", "draws"],
            table,
        ),
        f"![metrics]({_save(metric_figure(summaries), out_dir / 'metrics.png')})",
    ]


def _cards_section(runs: Sequence[CountRun], out_dir: Path) -> list[str]:
    body: list[str] = []
    for run in runs:
        body.append(f"### {run.label}")
        if run.cards is None:
            body.append("The game has no cards or items to count.")
            continue
        body.append(f"Command: `meeple cards {run.spec.key}`")
        body.append(markdown_table(*card_table(run.cards)))
        never = ", ".join(run.cards.never_played) or "none"
        body.append(f"Never played: {never}.")
        name = _save(card_figure(run.cards), out_dir / f"cards-{run.players}p.png")
        body.append(f"![cards, {run.label}]({name})")
    if any(run.cards for run in runs):
        body.append(PLAYED_NOTE)
    return body


def design_report(
    title: str,
    agents: str,
    runs: Sequence[CountRun],
    out_dir: Path,
    command: str,
) -> Path:
    """Write ``report.md`` and its plots for the runs of one game, one per player count;
    returns the report's path.

    ``agents`` says in words which agents played (every figure is of their play),
    ``command`` is the command that writes this report again (reading stored games back)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    summaries = {run.label: run.summary for run in runs}
    runs_table = [
        [run.label, run.spec.key, str(run.summary.games), f"`{run.command}`"] for run in runs
    ]
    balance: list[str] = []
    for run in runs:
        balance += [f"### {run.label}", markdown_table(*seat_table({run.label: run.summary}))]
        balance += [_balance_words(run.summary), _first_words(run.summary)]
        pooled = role_rates(run)
        if pooled:
            rows = [
                [role, seats, f"{rate} of {rate.total} seat-games{flag(rate)}"]
                for role, seats, rate in pooled
            ]
            balance.append(markdown_table(["role", "seats", "won or shared"], rows))
    notable = [
        f"{run.label}: {line}" for run in runs for line in notable_lines(run.rows, run.spec.key)
    ]
    sections = {
        "Agents": [
            f"Agents: {agents}. Every figure here is of their play: a balance found with one "
            "agent may be the agent's, not the rules'. Rates are shares of games with their "
            "95% Wilson interval, means with their 95% t interval, in brackets; a figure on "
            "fewer than 30 games or with an interval wider than 30 points is flagged (small "
            "sample). What each figure means: the last section."
        ],
        "Runs": [
            "Each player count is one lab run; the command beside it plays it (or reads its "
            "stored games back) and prints every figure of its sections below.",
            markdown_table(["players", "run", "games", "command"], runs_table),
        ],
        "Seat and turn-order balance": [
            "Wins per seat at each player count, each seat named by its role where the game "
            "gives seats one (a deck, the items it holds).",
            f"![wins]({_save(win_figure(summaries), out_dir / 'wins.png')})",
            *balance,
            SHARED_NOTE,
        ],
        "Game length": _length_section(runs, out_dir),
        "How early games are decided, and lead changes": _decided_section(runs, out_dir),
        "Cards and items": _cards_section(runs, out_dir),
        "Games to look at": ["\n".join(f"- {line}" for line in notable) or "None."],
        "Every measure": [
            markdown_table(["measure", *summaries], side_by_side(summaries)),
        ],
    }
    body = [f"# {title}", f"Command: `{command}`"]
    body += [f"> **Warning**: {text}." for text in summary_warnings(summaries)]
    for name in SECTIONS:
        body += [f"## {name}", *sections[name]]
    body.append(definitions())
    path = out_dir / "report.md"
    atomic_write(path, "\n\n".join(body) + "\n")
    return path


__all__ = ["SECTIONS", "CountRun", "design_report", "role_rates"]
