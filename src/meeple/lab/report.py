"""Reports: the same figures as the terminal, as Markdown with matplotlib plots."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

# The object API (Figure, not pyplot) draws straight to files: no window, no global state.
from matplotlib.figure import Figure

from meeple.core.files import atomic_write
from meeple.lab.metrics import METRIC_NAMES, Summary
from meeple.lab.ratings import Rating


def _fmt(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}g}"


def summary_rows(summary: Summary) -> list[tuple[str, str]]:
    """The lines of a simulation summary as (label, value): shared by terminal and report."""
    rows = [("games", str(summary.games))]
    for seat in summary.seats:
        rows.append(
            (
                f"seat {seat.seat} ({', '.join(seat.agents)}) wins",
                f"{seat.win_rate}  ({seat.wins} W / {seat.draws} D / {seat.losses} L)",
            )
        )
    rows.append(("draws", str(summary.draws)))
    if summary.first_player is not None:
        rows.append(("first player's score rate", str(summary.first_player)))
    if summary.length is not None:
        length = summary.length
        rows.append(
            (
                "game length (moves)",
                f"mean {length.mean:.1f}, sd {length.std:.1f}, {length.min:g} to {length.max:g}",
            )
        )
        rows.append(("length histogram", sparkline(length.histogram)))
    if summary.margin is not None:
        rows.append(
            ("score margin", f"mean {summary.margin.mean:.2f}, sd {summary.margin.std:.2f}")
        )
    for field, label in METRIC_NAMES.items():
        rows.append((label, _fmt(getattr(summary, field))))
    return rows


BLOCKS = " ▁▂▃▄▅▆▇█"


def sparkline(histogram: list[tuple[float, int]]) -> str:
    """A histogram as one line of block characters, labelled with its range."""
    if not histogram:
        return ""
    top = max(c for _, c in histogram) or 1
    bars = "".join(BLOCKS[round(8 * c / top)] for _, c in histogram)
    return f"{histogram[0][0]:.4g} {bars} {histogram[-1][0]:.4g}"


def markdown_table(headers: list[str], rows: list[list[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _save(fig: Figure, path: Path) -> str:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return path.name


def _win_plot(summaries: dict[str, Summary], path: Path) -> str:
    fig = Figure(figsize=(7, 3.6))
    ax = fig.subplots()
    labels = list(summaries)
    players = max(len(s.seats) for s in summaries.values())
    width = 0.8 / players
    for p in range(players):
        xs, ys, lo, hi = [], [], [], []
        for i, label in enumerate(labels):
            seats = summaries[label].seats
            if p < len(seats):
                r = seats[p].win_rate
                xs.append(i + (p - (players - 1) / 2) * width)
                ys.append(r.rate)
                lo.append(max(0.0, r.rate - r.low))
                hi.append(max(0.0, r.high - r.rate))
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=f"seat {p}")
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% CI)")
    ax.legend(fontsize="small")
    ax.set_title("Wins per seat")
    return _save(fig, path)


def _length_plot(lengths: dict[str, list[float]], path: Path) -> str:
    fig = Figure(figsize=(7, 3.6))
    ax = fig.subplots()
    for label, values in lengths.items():
        ax.hist(values, bins=20, alpha=0.55, label=label)
    ax.set_xlabel("moves per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    if len(lengths) > 1:
        ax.legend(fontsize="small")
    return _save(fig, path)


def _metric_plot(summaries: dict[str, Summary], path: Path) -> str:
    fields = [f for f in METRIC_NAMES if any(getattr(s, f) is not None for s in summaries.values())]
    fig = Figure(figsize=(2.2 * len(fields), 3.2))
    axes = fig.subplots(1, len(fields), squeeze=False)[0]
    for ax, field in zip(axes, fields, strict=True):
        values = [getattr(s, field) or 0.0 for s in summaries.values()]
        ax.bar(range(len(values)), values, color=[f"C{i}" for i in range(len(values))])
        ax.set_xticks(range(len(values)), list(summaries), rotation=30, fontsize="x-small")
        ax.set_title(field.replace("_", " "), fontsize="small")
    return _save(fig, path)


def simulation_report(
    title: str, summary: Summary, lengths: list[float], out_dir: Path, command: str
) -> Path:
    """Write ``report.md`` and its plots for one simulation; returns the report's path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    wins = _win_plot({title: summary}, out_dir / "wins.png")
    length = _length_plot({title: lengths}, out_dir / "length.png")
    body = [
        f"# {title}",
        f"Command: `{command}`",
        markdown_table(["measure", "value"], [list(r) for r in summary_rows(summary)]),
        f"![wins]({wins})",
        f"![length]({length})",
        "Metrics are defined in docs/lab.md.",
    ]
    path = out_dir / "report.md"
    atomic_write(path, "\n\n".join(body) + "\n")
    return path


def comparison_report(
    title: str,
    summaries: dict[str, Summary],
    lengths: dict[str, list[float]],
    out_dir: Path,
    command: str,
) -> Path:
    """Write the side-by-side report of several variants; returns its path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    labels = list(summaries)
    table_rows = [[label] for label, _ in summary_rows(summaries[labels[0]])]
    for label in labels:
        for row, (_, value) in zip(table_rows, summary_rows(summaries[label]), strict=False):
            row.append(value)
    body = [
        f"# {title}",
        f"Command: `{command}`",
        markdown_table(["measure", *labels], table_rows),
        f"![wins]({_win_plot(summaries, out_dir / 'wins.png')})",
        f"![metrics]({_metric_plot(summaries, out_dir / 'metrics.png')})",
        f"![length]({_length_plot(lengths, out_dir / 'length.png')})",
        "Metrics are defined in docs/lab.md.",
    ]
    path = out_dir / "report.md"
    atomic_write(path, "\n\n".join(body) + "\n")
    return path


def tournament_report(
    title: str,
    ratings: list[Rating],
    matrix: dict[tuple[str, str], float],
    out_dir: Path,
    command: str,
    notes: Sequence[str] = (),
) -> Path:
    """Write the ratings table, the score matrix and a ratings plot; returns the path.

    ``notes`` are sentences shown under the command (how seats fell, how games ended)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    fig = Figure(figsize=(7, 0.5 + 0.5 * len(ratings)))
    ax = fig.subplots()
    names = [r.agent for r in ratings][::-1]
    elos = [r.elo for r in ratings][::-1]
    err = [
        [max(0.0, r.elo - r.low) for r in ratings][::-1],
        [max(0.0, r.high - r.elo) for r in ratings][::-1],
    ]
    ax.errorbar(elos, range(len(names)), xerr=err, fmt="o", capsize=4)
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("Elo (Bradley-Terry, 95% CI)")
    ax.set_title(title)
    plot = _save(fig, out_dir / "ratings.png")
    agents = [r.agent for r in ratings]
    body = [
        f"# {title}",
        f"Command: `{command}`",
        *notes,
        markdown_table(
            ["agent", "Elo", "95% CI", "games", "score"],
            [
                [
                    r.agent,
                    f"{r.elo:.0f}",
                    f"{r.low:.0f} to {r.high:.0f}",
                    str(r.games),
                    f"{r.score:.3f}",
                ]
                for r in ratings
            ],
        ),
        "Score of the row agent against the column agent:",
        markdown_table(
            ["", *agents],
            [
                [a, *(f"{matrix[(a, b)]:.2f}" if (a, b) in matrix else "-" for b in agents)]
                for a in agents
            ],
        ),
        f"![ratings]({plot})",
    ]
    path = out_dir / "report.md"
    atomic_write(path, "\n\n".join(body) + "\n")
    return path
