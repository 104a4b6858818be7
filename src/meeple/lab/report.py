"""Reports: the same figures as the terminal, as Markdown with matplotlib plots."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from meeple.core.files import atomic_write
from meeple.core.words import counted
from meeple.lab.figures import new_figure
from meeple.lab.metrics import METRIC_NAMES, SMALL, Estimate, Rate, Spread, Summary, flag
from meeple.lab.paired import Difference, Pairing
from meeple.lab.ratings import Rating

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _fmt(value: float | None, digits: int = 3) -> str:
    """A metric for people: ``n/a`` when it means nothing, whole numbers from 1000 up
    (``2000``, never ``2e+03``), else ``digits`` significant digits."""
    if value is None:
        return "n/a"
    if abs(value) >= 10 ** (digits - 1):
        return f"{value:.0f}"
    if value != 0 and abs(value) < 1e-4:
        return f"{value:.1e}"  # the rare tiny value: exact rather than a misleading 0
    return f"{value:.{digits}g}"


def _estimate(value: float | None, estimate: Estimate | None) -> str:
    """A metric, its 95% interval in brackets, and the small-sample flag where it applies."""
    if value is None or estimate is None:
        return _fmt(value)
    shown = [_fmt(value), _fmt(estimate.low), _fmt(estimate.high)]
    if estimate.high > estimate.low and shown[1] == shown[2]:
        # Ends that round alike though the games differed (lengths of 197 and 198 read
        # "198 [198, 198]"): as many decimals as tell them apart.
        low, high = estimate.low, estimate.high
        places = next((p for p in range(1, 6) if f"{low:.{p}f}" != f"{high:.{p}f}"), 6)
        shown = [f"{v:.{places}f}" for v in (value, low, high)]
    return f"{shown[0]} [{shown[1]}, {shown[2]}]{flag(estimate)}"


def summary_rows(summary: Summary, agents_in_label: bool = True) -> list[tuple[str, str]]:
    """The lines of a simulation summary as (label, value): shared by terminal and report.

    A seat's agents are named in its label, or (``agents_in_label=False``, for runs side
    by side whose seats hold different agents) at the start of its value."""
    rows = [("games", str(summary.games))]
    for seat in summary.seats:
        agents = f"({', '.join(seat.agents)})"
        won = f"{seat.wins} W" + (f" incl. {seat.shared} shared" if seat.shared else "")
        record = f"{seat.win_rate}  ({won} / {seat.draws} D / {seat.losses} L)"
        record += flag(seat.win_rate)
        if agents_in_label:
            rows.append((f"seat {seat.seat} {agents} wins", record))
        else:
            rows.append((f"seat {seat.seat} wins", f"{agents} {record}"))
    for result in summary.agents:
        record = f"{result.score}  ({result.wins} W / {result.draws} D / {result.losses} L"
        if result.deals and result.deal_tally:
            tally = ", ".join(f"{mean:g} in {count}" for mean, count in result.deal_tally)
            record += f"; {result.deals} deals, its mean score in a deal: {tally})"
        else:
            record += f"; {result.deals} deals)" if result.deals else ")"
        record += flag(result.score)
        rows.append((f"{result.agent}, either seat: score rate", record))
    rows.append(("draws", f"{summary.draws}{flag(summary.draws)}"))
    if summary.first_player is not None:
        first = summary.first_player
        rows.append(("first player's score rate", f"{first}{flag(first)}"))
    if summary.length is not None:
        length = summary.length
        rows.append(
            (
                "game length (moves)",
                f"mean {length.mean:.1f}, sd {length.std:.1f}, {length.min:g} to {length.max:g}",
            )
        )
        rows.append(("length histogram", sparkline(length)))
    for unit, estimate in summary.units.items():
        rows.append((f"length in {unit}", f"mean {_estimate(estimate.value, estimate)}"))
    if summary.margin is not None:
        margin = summary.intervals.get("margin")
        mean = f"mean {_estimate(summary.margin.mean, margin)}" if margin else ""
        rows.append(("score margin", f"{mean}, sd {summary.margin.std:.2f}".lstrip(", ")))
    if summary.score_spread is not None:
        spread = summary.score_spread
        rows.append(("score spread (best - worst)", f"mean {_estimate(spread.value, spread)}"))
    if summary.endings is not None:
        endings = summary.endings
        unit = " (each game of the matches)" if endings.per_match else ""
        rows.append((f"how games ended{unit}", endings.text()))
        limited = endings.safeguard_games
        rows.append(
            (
                "ended by a safety limit",
                f"{limited} of {endings.games} (WARNING)" if limited else "none",
            )
        )
        if endings.at_limit:
            rows.append(
                (
                    "decided in a safety limit's last round",
                    f"{endings.at_limit} of {endings.games} (WARNING)",
                )
            )
    for field, label in METRIC_NAMES.items():
        rows.append((label, _estimate(getattr(summary, field), summary.intervals.get(field))))
    return rows


SHARED_NOTE = (
    'A win shared by k players counts for each of them in "won or shared" (those rates may '
    'sum to more than 100%); "won alone" counts the wins no other seat shared, and sums to at '
    "most 100%."
)
"""The line under every seat table."""


def seat_table(summaries: dict[str, Summary]) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the seat table: a row per seat (per variant where there are
    several), with wins alone and shared wins in columns of their own, and each seat's mean
    score where the game has scores."""
    several = len(summaries) > 1
    scores = any(seat.mean_score for s in summaries.values() for seat in s.seats)
    headers = [*(["variant"] if several else []), "seat", "agents", "won alone", "shared wins"]
    headers += ["won or shared", "draws", "lost", *(["mean score"] if scores else [])]
    rows = []
    for label, summary in summaries.items():
        for seat in summary.seats:
            alone = seat.alone_rate or Rate.of(seat.alone, summary.games)
            mean = seat.mean_score
            line = [
                *([label] if several else []),
                f"{seat.seat} {seat.role}".rstrip(),
                ", ".join(seat.agents),
                f"{alone} ({seat.alone}){flag(alone)}",
                str(seat.shared),
                f"{seat.win_rate} ({seat.wins}){flag(seat.win_rate)}",
                str(seat.draws),
                str(seat.losses),
            ]
            if scores:
                line.append(_estimate(mean.value, mean) if mean else "n/a")
            rows.append(line)
    return headers, rows


def summary_warnings(summaries: dict[str, Summary]) -> list[str]:
    """Sentences the reader must not miss (a safety limit ended games), one per summary
    that has one, labelled when there are several."""
    out = []
    for label, summary in summaries.items():
        text = summary.endings.warning() if summary.endings is not None else None
        if text:
            out.append(f"{label}: {text}" if len(summaries) > 1 else text)
    return out


def side_by_side(summaries: dict[str, Summary]) -> list[list[str]]:
    """The summary lines of several runs as rows ``[label, value of each run]``, matched by
    label (a line one run lacks, such as a score margin, is blank there, not shifted)."""
    same_seats = len({tuple(tuple(p.agents) for p in s.seats) for s in summaries.values()}) == 1
    lines = [summary_rows(s, agents_in_label=same_seats) for s in summaries.values()]
    columns = [dict(rows) for rows in lines]
    labels = list(dict.fromkeys(label for rows in lines for label, _ in rows))
    return [[label, *(column.get(label, "") for column in columns)] for label in labels]


def difference_table(base: str, pairings: dict[str, Pairing]) -> list[list[str]]:
    """The paired differences of each variant from ``base`` as rows ``[measure, verdict of
    each variant]`` (a measure one variant lacks is blank there)."""
    columns = [{d.measure: _cell(d, p) for d in p.differences} for p in pairings.values()]
    measures = list(dict.fromkeys(d.measure for p in pairings.values() for d in p.differences))
    return [[m, *(column.get(m, "") for column in columns)] for m in measures]


def _cell(difference: Difference, pairing: Pairing) -> str:
    """A difference's verdict, saying how many pairs a small sample rests on where some
    pairs lack the measure (a decisive moment needs a winner who led for good): "+0, +0 to
    +0" from the pairs that had one stood beside means of 0.58 and 0.56 over all the games.
    (A figure not flagged small stands as it is: the committed reports' tables are the
    command's.)"""
    few = difference.small and difference.pairs < pairing.pairs
    rests = f" (from {difference.pairs} of the {pairing.pairs} pairs)" if few else ""
    return difference.verdict + rests + flag(difference)


def paired_only(pairings: dict[str, Pairing]) -> dict[str, Pairing]:
    """The variants with a game paired with the base's: a variant with none (another number
    of players, other seeds) has no difference to show, and its column would stand empty."""
    return {label: p for label, p in pairings.items() if p.pairs}


def difference_note(base: str, pairings: dict[str, Pairing]) -> str:
    """How the differences were paired and how to read them, in one paragraph; which
    variants, if any, have no game to pair and so no difference shown."""
    never = [label for label, p in pairings.items() if not p.pairs]
    never_text = (
        f"No game of {', '.join(repr(label) for label in never)} pairs with one of {base!r} "
        f"(the same index, seed and seating), so no difference is shown for "
        f"{'it' if len(never) == 1 else 'them'}: variants that seat different numbers of "
        "players, or were played from other seeds, never pair. Compare their columns above, "
        "each on its own games."
    )
    pairings = paired_only(pairings)
    if not pairings:
        return never_text
    counts = sorted({(p.pairs, max((d.units for d in p.differences), default=0))
                     for p in pairings.values()})  # fmt: skip
    pairs = " or ".join(
        counted(n, "game") + (f" over {counted(u, 'seed')}" if u and u != n else "")
        for n, u in counts
    )
    text = (
        f"Each variant less {base!r}, paired game by game: game k of every variant is played "
        f"from the same seed ({pairs}). Differences in points are percentage points of a "
        "rate; the range is the 95% interval of the mean difference (Student's t over the "
        'seeds), and "no difference shown" means it contains 0: the games cannot tell the '
        "variants apart on that measure, whatever the bars look like."
    )
    for label, p in pairings.items():
        if p.pairs and p.same_moves == p.pairs:
            text += (
                f" Every paired game of {label!r} went move for move as in {base!r}: these "
                "agents played both alike, so a difference of 0 says only that nothing it "
                "changes came into their games (or that it changes nothing under these "
                "options: a value the rules already give), not that the change is worth nothing."
            )
    unpaired = {label: p.unpaired for label, p in pairings.items() if p.unpaired}
    if unpaired:
        text += (
            " Not paired (no game of the same index, seed and seating in the other): "
            + ", ".join(
                f"{counted(n, 'game')} of {label!r} and {base!r}" for label, n in unpaired.items()
            )
            + "."
        )
    return f"{text} {never_text}" if never else text


BLOCKS = " ▁▂▃▄▅▆▇█"


def sparkline(spread: Spread) -> str:
    """A histogram as one line of block characters, labelled with the smallest and the
    largest value (not the start of the last bin)."""
    if not spread.histogram:
        return ""
    top = max(c for _, c in spread.histogram) or 1
    # A bin with any game in it shows at least the lowest block: a rare value stays visible.
    bars = "".join(BLOCKS[max(1 if c else 0, round(8 * c / top))] for _, c in spread.histogram)
    return f"{spread.min:.4g} {bars} {spread.max:.4g}"


def markdown_table(headers: list[str], rows: list[list[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def short_label(label: str, width: int = 16, lines: int = 3) -> str:
    """A variant's label as plots print it: wrapped at ``width`` characters, after a
    space, a slash, a comma, a hyphen or an equals sign where it can (a path breaks between its
    folders), on at most ``lines`` lines; a longer one keeps its end (a path's last folders
    say most) after an ellipsis."""
    out: list[str] = []
    for token in re.split(r"(?<=[ /,=-])", label):
        while len(token) > width:  # a word longer than a line is cut
            room = width - len(out[-1]) if out and len(out[-1]) < width else 0
            if room:
                out[-1] += token[:room]
                token = token[room:]
            else:
                out.append(token[:width])
                token = token[width:]
        if out and len(out[-1]) + len(token.rstrip()) <= width:
            out[-1] += token
        elif token:
            out.append(token)
    out = [line.strip() for line in out if line.strip()]
    if len(out) > lines:
        out = out[-lines:]
        out[0] = "…" + out[0]
    return "\n".join(out)


def _save(fig: Figure, path: Path) -> str:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return path.name


def _legend_beside(ax: Any) -> None:
    # Beside the plot, not on it: a legend inside hides whichever bar stands under it.
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)


def seat_label(summaries: dict[str, Summary], seat: int) -> str:
    """``seat 0: greedy`` when the seat had the same agents in every summary, else ``seat 0``;
    with its role where it had one in every summary (``seat 0 Red (iron-line): greedy``)."""
    agents = {tuple(s.seats[seat].agents) for s in summaries.values() if seat < len(s.seats)}
    roles = {s.seats[seat].role for s in summaries.values() if seat < len(s.seats)}
    name = f"seat {seat} {roles.pop()}".rstrip() if len(roles) == 1 else f"seat {seat}"
    return f"{name}: {', '.join(agents.pop())}" if len(agents) == 1 else name


def win_figure(summaries: dict[str, Summary]) -> Figure:
    """Each seat's win rate and the draws, per run, with 95% intervals."""
    # Wide enough for each run's label, wrapped, under its group of bars.
    fig = new_figure(max(8.0, 3.0 + 1.6 * len(summaries)), 3.8)
    ax = fig.subplots()
    labels = list(summaries)
    players = max(len(s.seats) for s in summaries.values())
    bars = players + 1  # every seat, and the draws: a run of draws is not an empty plot
    width = 0.8 / bars
    small: set[int] = set()
    # A shared win counts for each winner: the bars may then sum to more than the games.
    shared = any(seat.shared for s in summaries.values() for seat in s.seats)
    for b in range(bars):
        xs, ys, lo, hi, hatches = [], [], [], [], []
        for i, label in enumerate(labels):
            summary = summaries[label]
            if b < players and b >= len(summary.seats):
                continue
            rate = summary.seats[b].win_rate if b < players else summary.draws
            xs.append(i + (b - (bars - 1) / 2) * width)
            ys.append(rate.rate)
            lo.append(max(0.0, rate.rate - rate.low))
            hi.append(max(0.0, rate.high - rate.rate))
            hatches.append("//" if rate.small else "")
            if rate.small:
                small.add(i)
        wins = " wins (alone or shared)" if shared else " wins"
        name = seat_label(summaries, b) + wins if b < players else "draws"
        color = f"C{b}" if b < players else "0.6"
        drawn = ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=name, color=color)
        for patch, hatch in zip(drawn.patches, hatches, strict=True):
            patch.set_hatch(hatch)
    for i in sorted(small):
        _small_mark(ax, i, 1.07)
    if len(labels) > 1:
        ax.set_xticks(range(len(labels)), [short_label(label) for label in labels])
    else:
        ax.set_xticks([])
    ax.set_xlim(-0.5, len(labels) - 0.5)
    ax.set_ylim(0, 1.08 if small else 1)
    ax.set_ylabel("share of games (95% CI)")
    _legend_beside(ax)
    ax.set_title("Wins per seat, and draws")
    _room_for_legend(fig, ax, 1.0 + 1.6 * len(labels))
    return fig


def _room_for_legend(fig: Figure, ax: Any, axes_inches: float) -> None:
    """Widen ``fig`` so that ``axes_inches`` are left to the axes beside its legend.

    tight_layout fits a legend drawn beside the axes inside the figure: a long one (seat
    roles and agent specs, ``seat 0 Red (iron-line): flat:worlds=16,...``) squeezed the axes
    until the runs' labels under their bars printed over each other.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    legend = ax.get_legend()
    inches = legend.get_window_extent(FigureCanvasAgg(fig).get_renderer()).width / fig.dpi
    fig.set_size_inches(max(fig.get_figwidth(), axes_inches + inches), fig.get_figheight())


def _length_bins(values: list[float]) -> tuple[float, float]:
    """First edge and width of bins shared by every series: one per whole number when the
    lengths span up to 40 values, else at most 30 bins of a whole-number width."""
    lo, hi = min(values), max(values)
    span = hi - lo + 1
    return lo - 0.5, 1.0 if span <= 40 else float(math.ceil(span / 30))


def length_figure(lengths: dict[str, list[float]], unit: str = "moves") -> Figure:
    """Histograms of game length, one series per run, side by side in shared bins, in
    ``unit`` (moves, or the game's own: rounds, turns)."""
    fig = new_figure(8, 3.6)
    ax = fig.subplots()
    series = {label: v for label, v in lengths.items() if v}
    if series:
        every = [x for v in series.values() for x in v]
        start, width = _length_bins(every)
        # A bin of room on each side: games all of one length (The Triangle Clock's 196
        # moves) were drawn over an axis of a single bin, ticked 195.6 to 196.4.
        first, last = (int((x - start) // width) for x in (min(every), max(every)))
        ax.set_xlim(start + (first - 1) * width, start + (last + 2) * width)
        # Series side by side within each bin: none hides another where they overlap.
        bar = 0.9 * width / len(series)
        for k, (label, values) in enumerate(series.items()):
            counts = Counter(int((v - start) // width) for v in values)
            bins = sorted(counts)
            xs = [start + (b + 0.05) * width + (k + 0.5) * bar for b in bins]
            name = short_label(label, width=30, lines=2)
            ax.bar(xs, [counts[b] for b in bins], bar, label=name, color=f"C{k}")
    from matplotlib.ticker import MaxNLocator  # imported here: see _new_figure

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))  # games are whole
    ax.set_xlabel(f"{unit} per game")
    ax.set_ylabel("games")
    ax.set_title("Game length" if unit == "moves" else f"Game length in {unit}")
    if len(series) > 1:
        _legend_beside(ax)
    return fig


RATE_METRICS = {"balance", "drawishness", "decisiveness"}
"""Metrics that are shares (0 to 1): their axes start at zero."""


def _small_mark(ax: Any, x: float, y: float, narrow: bool = False) -> None:
    """The "small sample" flag over a bar (or a group of bars) at ``x``, its top at ``y``
    (on two lines over a ``narrow`` bar, so that it stays over its own bar)."""
    text = SMALL.replace(" ", "\n") if narrow else SMALL
    ax.text(x, y, text, ha="center", va="top", fontsize="x-small", color="C3", clip_on=False)


def metric_figure(summaries: dict[str, Summary]) -> Figure:
    """One panel per design metric, a bar per run with its 95% interval as an error bar
    (``n/a`` where it means nothing; hatched and flagged where the sample is small).

    Every axis starts at zero (the first-player advantage, which may be negative, is drawn
    about zero), so that bar heights compare as the numbers do; the error bars show how
    much of a difference between bars is noise."""
    fields = [f for f in METRIC_NAMES if any(getattr(s, f) is not None for s in summaries.values())]
    # Each bar's label is wrapped and stood on end, and a panel widens with the runs, so
    # that labels never print over each other.
    panel = max(2.3, 0.9 + 0.45 * len(summaries))
    fig = new_figure(panel * max(1, len(fields)), 4.4)
    axes = fig.subplots(1, max(1, len(fields)), squeeze=False)[0]
    for ax, field in zip(axes, fields, strict=False):
        top = 0.0
        flagged = []
        for i, summary in enumerate(summaries.values()):
            value = getattr(summary, field)
            estimate = summary.intervals.get(field)
            if value is None:
                # No bar: a metric that means nothing for this variant is not a zero.
                ax.text(i, 0, "n/a", ha="center", va="bottom", fontsize="small", color="0.4")
                continue
            low, high = (estimate.low, estimate.high) if estimate else (value, value)
            small = estimate is not None and estimate.small
            ax.bar(
                i,
                value,
                color=f"C{i}",
                hatch="//" if small else None,
                alpha=0.55 if small else 1.0,
                yerr=[[max(0.0, value - low)], [max(0.0, high - value)]],
                capsize=4,
            )
            top = max(top, abs(high), abs(low), abs(value))
            if small:
                flagged.append(i)
        top = top * (1.5 if flagged else 1.2) or 1.0  # room for the flag over the bars
        if field == "first_player_advantage":
            ax.set_ylim(-top, top)  # about zero, the fair value, whichever way it leans
            ax.set_ylabel("0 = fair (95% CI)", fontsize="x-small")
        else:
            limit = min(top, 1.0) if field in RATE_METRICS else top
            if flagged and limit == 1.0:
                # A share reaches 1 at most: its flag goes above that, as the wins plot's
                # does, not down over the bar and its error bar.
                limit = 1.16
            ax.set_ylim(0, limit)
            ax.set_ylabel("from 0 (95% CI)", fontsize="x-small")
        for i in flagged:
            _small_mark(ax, i, ax.get_ylim()[1], narrow=True)
        ax.axhline(0, color="0.3", linewidth=0.8)
        ax.set_xlim(-0.6, len(summaries) - 0.4)
        names = [short_label(label) for label in summaries]
        ax.set_xticks(range(len(summaries)), names, rotation=90, fontsize="x-small")
        ax.set_title(METRIC_NAMES[field].split(" (")[0], fontsize="small")  # the table's words
    return fig


def _warning_lines(texts: Sequence[str]) -> list[str]:
    return [f"> **Warning**: {text}." for text in texts]


def definitions() -> str:
    """The metrics' definitions (the lab's ``metrics.md``, which docs/metrics.md is) as a
    report's last section, its headings a level down, so that a report sent on or read
    away from a checkout still says what its figures mean."""
    text = resources.files("meeple.lab").joinpath("metrics.md").read_text(encoding="utf-8")
    _title, _, rest = text.partition("\n")
    demoted = re.sub(r"^(#{2,}) ", r"#\1 ", rest, flags=re.MULTILINE)
    return "## What the figures mean\n" + demoted.rstrip()


def _notable_section(notable: Sequence[str]) -> list[str]:
    if not notable:
        return []
    return ["## Games to look at", "\n".join(f"- {line}" for line in notable)]


def run_lines(runs: Mapping[str, tuple[str, Mapping[str, str]]]) -> list[str]:
    """One line per run a report is of (``runs``: by label, the run's key and the digest of
    the files each option names, ``RunSpec.content``): two reports of a content folder
    edited between them name the same folder, and are told apart by these."""
    lines = []
    for label, (key, digests) in runs.items():
        files = ", ".join(
            f"{option} {digest.removeprefix('sha256:')[:12]}"
            for option, digest in sorted(digests.items())
        )
        read = f"; files read, by digest: {files}" if files else ""
        lines.append(f"{label}: run `{key}`{read}" if label else f"Run `{key}`{read}")
    return lines


def simulation_report(
    title: str,
    summary: Summary,
    lengths: list[float],
    out_dir: Path,
    command: str,
    notable: Sequence[str] = (),
    run: tuple[str, Mapping[str, str]] | None = None,
) -> Path:
    """Write ``report.md`` and its plots for one simulation; returns the report's path.

    ``notable`` are lines naming games to look at and how to replay them
    (``lab.replay.notable_lines``); ``run``: the run's key and file digests (:func:`run_lines`)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    wins = _save(win_figure({title: summary}), out_dir / "wins.png")
    length = _save(length_figure({title: lengths}), out_dir / "length.png")
    body = [
        f"# {title}",
        f"Command: `{command}`",
        *(run_lines({"": run}) if run else []),
        *_warning_lines(summary_warnings({title: summary})),
        markdown_table(["measure", "value"], [list(r) for r in summary_rows(summary)]),
        markdown_table(*seat_table({title: summary})),
        SHARED_NOTE,
        f"![wins]({wins})",
        f"![length]({length})",
        *_notable_section(notable),
        definitions(),
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
    pairings: dict[str, Pairing] | None = None,
    notable: Sequence[str] = (),
    runs: Mapping[str, tuple[str, Mapping[str, str]]] | None = None,
) -> Path:
    """Write the side-by-side report of several variants, with each variant's paired
    differences from the first where ``pairings`` gives them, the ``notable`` games' lines
    and each variant's run (``runs``, :func:`run_lines`); returns its path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    labels = list(summaries)
    table_rows = side_by_side(summaries)
    differences = []
    if pairings:
        base, shown = labels[0], paired_only(pairings)
        differences = [f"## Differences from {base}"]
        if shown:
            differences.append(
                markdown_table(
                    ["measure", *(f"{label} - {base}" for label in shown)],
                    difference_table(base, shown),
                )
            )
        differences.append(difference_note(base, pairings))
    body = [
        f"# {title}",
        f"Command: `{command}`",
        *run_lines(runs or {}),
        *_warning_lines(summary_warnings(summaries)),
        markdown_table(["measure", *labels], table_rows),
        markdown_table(*seat_table(summaries)),
        SHARED_NOTE,
        *differences,
        f"![wins]({_save(win_figure(summaries), out_dir / 'wins.png')})",
        f"![metrics]({_save(metric_figure(summaries), out_dir / 'metrics.png')})",
        f"![length]({_save(length_figure(lengths), out_dir / 'length.png')})",
        *_notable_section(notable),
        definitions(),
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
    warnings: Sequence[str] = (),
) -> Path:
    """Write the ratings table, the score matrix and a ratings plot; returns the path.

    ``notes`` are sentences shown under the command (how seats fell, how games ended),
    ``warnings`` what the reader must not miss (a safety limit ended games)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    fig = new_figure(7, 0.5 + 0.5 * len(ratings))
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
        *_warning_lines(warnings),
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
