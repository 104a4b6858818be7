"""A sweep: one option, or one field of a game's data files, over a list of values, each
value played on the same seeds as a variant of a comparison; then each seat's win rate and
the game's length by value, in a table and a plot with their 95% intervals.

A data field is named ``FILE:TABLE.KEY`` (``cards.toml:quick-shot.damage``): for each value
the files of the option that names ``FILE`` are copied to a folder of their own, with that
one line changed, and the copy is the variant's option value (a run keyed, as always, by
what its files hold).
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from meeple.core.errors import MeepleError
from meeple.core.options import GameOptions
from meeple.core.words import counted
from meeple.lab.figures import new_figure
from meeple.lab.metrics import SMALL, SMALL_SAMPLE_GAMES, Estimate, Rate, Summary, flag
from meeple.lab.report import short_label


class SweepError(MeepleError):
    """A sweep that cannot run as asked."""


def sweep_values(text: str) -> list[str]:
    """The values of ``--values`` (``2,3,4``), in order; SweepError for fewer than two or a
    value given twice."""
    values = [v.strip() for v in text.split(",")]
    if any(not v for v in values) or len(values) < 2:
        raise SweepError(
            f"--values {text!r}: give two or more values separated by commas, e.g. 2,3,4"
        )
    doubled = sorted({v for v in values if values.count(v) > 1})
    if doubled:
        raise SweepError(f"--values {text!r}: {', '.join(doubled)} is given twice")
    return values


def _toml_value(value: str) -> str:
    """``value`` as TOML: a number or true/false as it is, anything else a quoted string."""
    if re.fullmatch(r"[+-]?\d+(\.\d+)?|true|false", value):
        return value
    return json.dumps(value)


def edit_field(text: str, table: str, key: str, value: str, source: str) -> str:
    """``text`` (TOML) with ``key`` of the table ``[table]`` set to ``value``; SweepError
    naming the file when the table or the key is not there."""
    lines = text.splitlines(keepends=True)
    header = f"[{table}]"
    start = next((k for k, line in enumerate(lines) if line.strip() == header), None)
    if start is None:
        listed = any(line.strip() == f"[[{table}]]" for line in lines)
        if not source.endswith(".toml") or listed:
            what = f"[[{table}]] is a list of tables" if listed else "it is not a TOML file"
            raise SweepError(
                f"{source}: --field varies a key of a named TOML table ([{table}]), and {what}; "
                "vary it in edited copies compared with meeple compare"
            )
        raise SweepError(f"{source} has no table {header}")
    pattern = re.compile(rf"^(\s*{re.escape(key)}\s*=\s*)([^#\n]*?)(\s*(#.*)?\n?)$")
    for k in range(start + 1, len(lines)):
        if lines[k].lstrip().startswith("["):
            break
        match = pattern.match(lines[k])
        if match:
            lines[k] = match[1] + _toml_value(value) + match[3]
            return "".join(lines)
    raise SweepError(f"{source}: table {header} has no field {key!r} to vary")


def field_variants(
    options: GameOptions,
    field: str,
    values: list[str],
    folder: Path,
    problems: Callable[[str, Path], list[str]] | None = None,
) -> list[tuple[str, dict[str, str]]]:
    """For each value, a label (``quick-shot.damage=3``) and the option that names the
    edited copy of the data, for the field ``FILE:TABLE.KEY``; the copies go under
    ``folder``. SweepError when the field is malformed, or no option given names ``FILE``
    (the shipped data must be copied first: a sweep varies a designer's copy), or
    ``problems`` (the game's ``data_problems``) finds one in a copy."""
    # Split at the last dot: a table's name may hold dots itself ([iron-line.cards], a
    # deck's card counts), a key does not.
    match = re.fullmatch(r"([^:]+):(.+)\.([^.]+)", field)
    if not match:
        raise SweepError(
            f"--field {field!r}: write FILE:TABLE.KEY, e.g. cards.toml:quick-shot.damage"
        )
    name, table, key = match.groups()
    named = options.external_files()
    found = [(o, files) for o, files in named.items() if any(f.name == name for f in files)]
    if not found and named:
        given = "; ".join(
            f"--{o.replace('_', '-')} {getattr(options, o)} names {', '.join(f.name for f in fs)}"
            for o, fs in named.items()
        )
        raise SweepError(f"--field {field!r}: no file {name} in the data given ({given})")
    if not found:
        external = ", ".join("--" + o.replace("_", "-") for o in type(options).external_options())
        raise SweepError(
            f"--field {field!r}: no option given names a file {name}; give the copy of the "
            f"data to vary ({external or 'this game has no data files'} PATH): a sweep edits "
            "a copy, never the shipped data"
        )
    option, files = found[0]
    folder_option = len(files) > 1 or files[0].name != Path(str(getattr(options, option))).name
    out = []
    for value in values:
        label = f"{table}.{key} {value}"
        target = folder / re.sub(r"[^\w.=+-]", "_", label)
        # Every edit made before anything is written: a table or key the file lacks leaves
        # no empty folder behind.
        texts = {
            file.name: edit_field(text, table, key, value, str(file)) if file.name == name else text
            for file in files
            if (text := file.read_text(encoding="utf-8") if file.exists() else None) is not None
        }  # an optional file the folder does not have is left out
        target.mkdir(parents=True, exist_ok=True)
        for file_name, text in texts.items():
            (target / file_name).write_text(text, encoding="utf-8")
        where = target if folder_option else target / name
        # A value the game refuses is named as the designer wrote it, not by the copy's path.
        for problem in problems(option, where) if problems else []:
            problem = problem.replace(str(where if folder_option else target), str(files[0].parent))
            shutil.rmtree(target)  # a copy the game refuses is no copy to keep
            raise SweepError(f"--field {field} --values {value}: {problem}")
        out.append((label, {option: str(where)}))
    return out


def _rate(rate: Rate) -> str:
    return f"{100 * rate.rate:.1f}% [{100 * rate.low:.1f}, {100 * rate.high:.1f}]{flag(rate)}"


def _mean(e: Estimate | None) -> str:
    return "n/a" if e is None else f"{e.value:.3g} [{e.low:.3g}, {e.high:.3g}]{flag(e)}"


def sweep_table(
    what: str, values: list[str], summaries: list[Summary], seats: list[str]
) -> tuple[list[str], list[list[str]]]:
    """Headers and rows, one per value of ``what`` (the title says which): each seat's win
    rate (won or shared), the draws, the mean length and score margin, each with its 95%
    interval and the small-sample flag where it applies (``metrics.is_small``). ``seats``
    names every seat any value has: a seat a value lacks (a swept number of players) is
    blank in its row, so each figure stays under its own seat."""
    headers = ["value", *(f"{s} won" for s in seats), "draws", "length (actions)", "score margin"]
    rows = []
    for value, summary in zip(values, summaries, strict=True):
        rows.append(
            [
                value,
                *(
                    _rate(summary.seats[p].win_rate) if p < len(summary.seats) else ""
                    for p in range(len(seats))
                ),
                _rate(summary.draws),
                _mean(summary.intervals.get("duration")),
                _mean(summary.intervals.get("margin")),
            ]
        )
    return headers, rows


def sweep_figure(what: str, values: list[str], summaries: list[Summary], seats: list[str]) -> Any:
    """Each seat's win rate by value (a seat at the values that have it), and the mean
    length by value, with 95% error bars; axes from 0."""

    labels = values
    x = list(range(len(labels)))
    fig = new_figure(10, 4)
    wins, length = fig.subplots(1, 2)
    for p, seat in enumerate(seats):
        # Only the values that seat a player p (a swept number of players seats fewer).
        held = [
            (k, s.seats[p].win_rate) for k, s in zip(x, summaries, strict=True) if p < len(s.seats)
        ]
        rates = [r for _, r in held]
        shift = (p - (len(seats) - 1) / 2) * 0.06
        drawn = wins.errorbar(
            [k + shift for k, _ in held],
            [r.rate for r in rates],
            yerr=[[r.rate - r.low for r in rates], [r.high - r.rate for r in rates]],
            marker="o",
            capsize=4,
            label=seat,
        )
        _hollow(wins, [(k + shift, r.rate) for k, r in held if r.small], drawn)
    wins.set_ylim(0, 1)
    wins.set_ylabel("won or shared (95% CI, from 0)")
    wins.legend(fontsize="small")
    durations = [s.intervals.get("duration") for s in summaries]
    shown = [(k, d) for k, d in zip(x, durations, strict=True) if d is not None]
    drawn = length.errorbar(
        [k for k, _ in shown],
        [d.value for _, d in shown],
        yerr=[[d.value - d.low for _, d in shown], [d.high - d.value for _, d in shown]],
        marker="o",
        capsize=4,
        color="tab:grey",
    )
    _hollow(length, [(k, d.value) for k, d in shown if d.small], drawn)
    length.set_ylim(bottom=0)
    length.set_ylabel("actions per game (95% CI, from 0)")
    games = min(s.games for s in summaries)
    for ax in (wins, length):
        # Wrapped as compare's plots wrap a label: a long value ran into its neighbours.
        ax.set_xticks(x, [short_label(label) for label in labels])
        ax.set_xlabel(what)
    small = f" ({SMALL})" if games < SMALL_SAMPLE_GAMES else ""
    hollow = any(seat.win_rate.small for s in summaries for seat in s.seats) or any(
        d is not None and d.small for d in durations
    )
    marks = "; a hollow point is a small sample" if hollow else ""
    fig.suptitle(f"{what}: {counted(games, 'game')} a value{small}{marks}")
    fig.tight_layout()
    return fig


def _hollow(ax: Any, points: list[tuple[float, float]], drawn: Any) -> None:
    """Draw ``points`` of the series ``drawn`` hollow: the small samples, which a table
    flags and a bar plot hatches, in a plot of points."""
    if points:
        colour = drawn.lines[0].get_color()
        ax.plot(*zip(*points, strict=True), "o", mfc="white", mec=colour, zorder=3)


__all__ = [
    "SweepError",
    "edit_field",
    "field_variants",
    "sweep_figure",
    "sweep_table",
    "sweep_values",
]
