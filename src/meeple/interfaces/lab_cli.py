"""The lab on the command line: ``meeple simulate``. What every lab command shares (its
options, playing a run with progress, its tables and notes) is in :mod:`.lab_common`;
``meeple compare`` and ``sweep`` are in :mod:`.compare_cli`, ``meeple tournament`` in
:mod:`.tournament_cli`, ``meeple design`` in :mod:`.design_cli`, ``meeple results`` in
:mod:`.results_cli`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from meeple.core.errors import MeepleError
from meeple.core.registry import make
from meeple.interfaces.console import console, fail
from meeple.interfaces.lab_common import (
    Address,
    BackendOpt,
    Db,
    Duplicate,
    Fresh,
    Games,
    Jobs,
    Out,
    RotateSeats,
    Seats,
    Seed,
    agents_line,
    check_seats,
    check_writable,
    chosen_backend,
    command_line,
    given_seats,
    note_runs,
    play_run,
    print_notable,
    print_notes,
    print_seats,
    print_warnings,
    report_folder,
    run_rows,
    seating_words,
    simulation_spec,
    summary_table,
    writing_report,
)
from meeple.interfaces.options_cli import options_words, parse_option_flags
from meeple.lab.metrics import summarize
from meeple.lab.replay import notable_lines
from meeple.lab.report import simulation_report, summary_warnings
from meeple.lab.run import write_jsonl
from meeple.store import DEFAULT_URL
from meeple.store.urls import hide_password


def simulate_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="game to simulate")],
    games: Games = 200,
    seat: Seats = None,
    seed: Seed = 0,
    jobs: Jobs = 1,
    backend: BackendOpt = None,
    address: Address = None,
    db: Db = DEFAULT_URL,
    out: Out = Path("results"),
    fresh: Fresh = False,
    rotate_seats: RotateSeats = False,
    duplicate: Duplicate = False,
) -> None:
    """Play many games and report wins, first-player advantage, length and design metrics.

    Game options are given as for meeple play, e.g. meeple simulate edges --board 3x3.
    """
    try:
        check_writable(out)
        chosen_game = make(game, **parse_option_flags(game, list(ctx.args)))
        name, options = chosen_game.name, chosen_game.options.changed()
        print_notes(chosen_game)
        seats = check_seats(name, options, seat or [])
        spec = simulation_spec(name, options, seats, games, seed, rotate_seats, duplicate)
        console.print(escape(agents_line(given_seats(seat or [], seats), seats, rotate_seats)))
        jsonl = out / f"{name}-{spec.key}.jsonl"
        rows = play_run(
            spec,
            games,
            db,
            chosen_backend(backend, jobs, address),
            jobs,
            address,
            fresh,
            f"{name} {spec.key}",
            jsonl,
        )
    except MeepleError as exc:
        raise fail(str(exc)) from None
    summary = summarize(rows)
    title = f"{name} {options_words(options)} ({' vs '.join(seats)}{seating_words(spec)})"
    console.print(summary_table(title, {"value": summary}))
    print_seats({"value": summary})
    print_warnings(summary_warnings({title: summary}))
    notable = notable_lines(rows, spec.key)
    print_notable(notable)
    folder, past = report_folder(out / f"{name}-{spec.key}", db, [spec.key], games)
    with writing_report(out):
        write_jsonl(run_rows(db, spec, rows, past), jsonl)
        report = simulation_report(
            title,
            summary,
            [float(r["length"]) for r in rows],
            folder,
            command_line(),
            notable,
            run=(spec.key, spec.content or {}),
        )
    note_runs(db, [spec.key], report, past)
    # Paths are the person's to name ('[/]x' too): printed as text, not read as markup.
    console.print(
        escape(f"Run {spec.key}: rows in {jsonl} and {hide_password(db)}; report {report}")
    )
