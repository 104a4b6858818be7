"""The lab's stored runs on the command line: ``meeple results``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from meeple.core.errors import MeepleError
from meeple.core.words import counted
from meeple.interfaces.console import console, fail
from meeple.interfaces.lab_common import (
    Db,
    LabError,
    print_notable,
    print_seats,
    summary_table,
)
from meeple.interfaces.options_cli import options_words
from meeple.interfaces.tournament_cli import ratings_table, seat_notes
from meeple.lab.metrics import pairwise_results, summarize
from meeple.lab.ratings import bradley_terry, ratings_note
from meeple.lab.replay import notable_lines
from meeple.lab.run import LEFT_OUT, DamagedRun, RunSpec, read_run, stored_spec, write_csv
from meeple.lab.tournament import pair_lines, pair_records, round_robin_agents
from meeple.store import DEFAULT_URL
from meeple.store.urls import hide_password


def results_command(
    run: Annotated[
        str | None,
        typer.Argument(help="a run's key, or its first letters: show that run again"),
    ] = None,
    csv_path: Annotated[
        Path | None,
        typer.Option("--csv", help="with RUN: write its games to this CSV file, one line each"),
    ] = None,
    db: Db = DEFAULT_URL,
) -> None:
    """List the runs stored in the results database, or show one again and export it as CSV.

    A run shown again prints its summary, the command that last ran it and its report."""
    from meeple.store import ResultStore, sqlite_file

    try:
        if run is None and csv_path is not None:
            raise LabError("--csv exports one run: meeple results RUN --csv FILE")
        if csv_path is not None and csv_path.is_dir():
            # said before the run is shown, so that the refusal is the only thing printed
            raise LabError(
                f"cannot write {csv_path}: is a folder, not a file; give --csv a file name, "
                "such as games.csv"
            )
        # Looking must not leave an empty database behind where none was.
        if (file := sqlite_file(db)) is not None and not file.exists():
            hint = "`meeple simulate`, `compare` and `tournament` store their runs there"
            if run is None:
                console.print(f"No runs yet: there is no {escape(str(file))}; {hint}.")
                return
            raise LabError(f"no run {run!r}: there is no results database {file} yet; {hint}")
        store = ResultStore(db)
        if run is None:
            _print_runs(store.runs(), db)
            return
        stored = read_run(store, run)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    found, rows = stored.run, stored.games.rows
    _show_run(found, stored.spec, rows)
    note = stored.games.note(found["key"], LEFT_OUT)
    if note:
        console.print(f"[yellow]{escape(note)}[/]")
    if csv_path is not None:
        try:
            write_csv(rows, csv_path)
        except OSError as exc:
            raise fail(f"cannot write {csv_path}: {exc.strerror or exc}") from None
        console.print(f"Wrote {counted(len(rows), 'game')} to {escape(str(csv_path))}.")


def _when(run: dict[str, Any]) -> str:
    moment = run["updated"] or run["created"]
    return f"{moment:%Y-%m-%d %H:%M} UTC" if moment is not None else "at a date that does not read"


def _seating_words(kind: str, spec: RunSpec) -> str:
    seatings = spec.seatings
    if len(seatings) == 1:
        return " vs ".join(seatings[0])
    if kind in ("simulate", "ladder"):
        duplicated = ", each deal in every seating" if spec.duplicate else ""
        return " vs ".join(seatings[0]) + f", seats rotated ({len(seatings)} seatings){duplicated}"
    duplicated = ", each deal played by every pair in each seating" if spec.duplicate else ""
    return f"{len(seatings)} seatings{duplicated}"


def _print_runs(runs: list[dict[str, Any]], db: str) -> None:
    """One block per run; lines are not wrapped or cut, so a command can be copied whole."""
    console.print(
        f"{counted(len(runs), 'run')} in {escape(hide_password(db))}" + (":" if runs else "")
    )
    for run in runs:
        try:
            spec = stored_spec(run)
        except DamagedRun as exc:
            console.print(f"[bold]{escape(str(run['key']))}[/]  [yellow]{escape(str(exc))}[/]")
            continue
        head = f"{run['kind']} {run['game']} {options_words(spec.options)}".rstrip()
        lines = [
            f"[bold]{run['key']}[/]  {escape(head)}, seed {spec.seed}: "
            f"{counted(run['games'], 'game')}, last run {_when(run)}",
            f"    seats: {escape(_seating_words(run['kind'], spec))}",
            f"    last run by: {escape(run['command'] or '(not recorded)')}",
            f"    report: {escape(run['report'] or '(none)')}",
        ]
        for line in lines:
            console.print(line, soft_wrap=True)


def _show_run(run: dict[str, Any], spec: RunSpec, rows: Sequence[Mapping[str, Any]]) -> None:
    """What `meeple results RUN` prints: the run, its summary or ratings, its report."""
    words = options_words(spec.options)
    seating = _seating_words(run["kind"], spec)
    console.print(
        f"Run {run['key']}: {run['kind']} of {run['game']} {escape(words)}".rstrip()
        + f", seed {spec.seed}, {counted(len(rows), 'game')} stored; last run {_when(run)}"
    )
    console.print(f"Seats: {escape(seating)}")
    # The last command that ran it: a comparison that read this run's games back as one of
    # its variants is one, and its report then holds this run's figures.
    console.print(f"Last run by: {escape(run['command'] or '(not recorded)')}", soft_wrap=True)
    if rows and run["kind"] == "tournament":
        ratings = bradley_terry(pairwise_results(rows))
        console.print(ratings_table(f"{run['game']}: round robin", ratings))
        for note in seat_notes(rows):
            console.print(escape(note))
        if spec.duplicate:
            agents = round_robin_agents(spec)
            for line in pair_lines(pair_records(rows, agents)):
                console.print(escape(line))
        console.print(escape(ratings_note()))
    elif rows:
        title = f"{run['game']} {words} ({seating})"
        summary = summarize(rows)
        console.print(summary_table(title, {"value": summary}))
        print_seats({"value": summary})
        print_notable(notable_lines(rows, run["key"]))
    report = run["report"]
    if report and Path(report).exists():
        console.print(f"Report {escape(report)}")
    elif report:
        console.print(
            f"The report {escape(report)} is gone; the command above writes it again "
            "without playing the stored games."
        )
    elif run["kind"] == "ladder":
        console.print(
            "A ladder writes no report; its command prints the ladder's table again, playing "
            "only the games still missing."
        )
    elif run["command"]:
        console.print(
            # Stopped while playing, or after its last game and before its report.
            "No report was written (the command stopped before it); the command above "
            "writes it, playing only the games still missing."
        )
    else:
        console.print(
            "No report was written; the command that made the run resumes it (its stored "
            "games are kept and only the rest are played)."
        )
