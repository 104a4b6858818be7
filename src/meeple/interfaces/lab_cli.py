"""The lab on the command line: ``meeple simulate``, ``compare``, ``tournament``, ``results``."""

from __future__ import annotations

import shlex
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from meeple.agents import make_agent
from meeple.core.errors import MeepleError
from meeple.core.registry import game_class, make
from meeple.interfaces.console import console, fail
from meeple.interfaces.options_cli import options_words, parse_option_flags
from meeple.lab.endings import count_endings
from meeple.lab.metrics import Summary, summarize
from meeple.lab.ratings import bradley_terry
from meeple.lab.report import (
    comparison_report,
    side_by_side,
    simulation_report,
    summary_warnings,
    tournament_report,
)
from meeple.lab.run import RunSpec, execute, write_jsonl
from meeple.lab.simulate import Backend
from meeple.lab.tournament import (
    pair_plays,
    pairwise_results,
    score_matrix,
    seating_note,
    tournament_spec,
)
from meeple.store import DEFAULT_URL, ResultStore

Games = Annotated[int, typer.Option("--games", "-n", help="number of games to play", min=1)]
Seed = Annotated[int, typer.Option(help="seed of the run; game k gets a seed derived from it")]
Jobs = Annotated[int, typer.Option(help="worker processes (or Ray CPUs)", min=1)]
BackendOpt = Annotated[
    str | None, typer.Option("--backend", help="serial | process | ray (default: by --jobs)")
]
Address = Annotated[str | None, typer.Option(help="address of an existing Ray cluster")]
Db = Annotated[str, typer.Option(help="SQLAlchemy URL of the results database")]
Out = Annotated[Path, typer.Option(help="folder for the per-game JSONL file and the report")]
Fresh = Annotated[bool, typer.Option(help="forget stored games of this run and play all again")]


class LabError(MeepleError):
    """A lab command that cannot run as asked."""


def _backend(backend: str | None, jobs: int) -> Backend:
    chosen = backend or ("process" if jobs > 1 else "serial")
    if chosen not in ("serial", "process", "ray"):
        raise LabError(f"unknown backend {chosen!r}; use serial, process or ray")
    return chosen  # type: ignore[return-value]


def _writable(out: Path) -> None:
    """Fail before any game is played if the results folder cannot be written."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as exc:
        raise LabError(
            f"cannot write results to {out}: {exc.strerror or exc}; choose another folder with "
            "--out"
        ) from None


@contextmanager
def _writing(out: Path) -> Iterator[None]:
    """Turn a failed write of the report into an error line (the games are stored)."""
    try:
        yield
    except OSError as exc:
        raise fail(
            f"cannot write the report to {out}: {exc.strerror or exc}; the games are stored in "
            "the database, so the same command with another --out writes it without playing"
        ) from None


def _command_line() -> str:
    return "meeple " + shlex.join(sys.argv[1:]) if sys.argv[1:] else "meeple"


def _play(
    spec: RunSpec,
    games: int,
    db: str,
    backend: Backend,
    jobs: int,
    address: str | None,
    fresh: bool,
    label: str,
) -> list[dict[str, Any]]:
    store = ResultStore(db)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(label, total=games)
        rows = execute(
            spec,
            games,
            store,
            backend=backend,
            workers=jobs,
            address=address,
            fresh=fresh,
            on_row=lambda _row: progress.advance(task),
        )
    return rows


def _check_seats(game_name: str, options: dict[str, Any], seats: list[str]) -> list[str]:
    game = make(game_name, **options)
    seats = list(seats) or ["random"] * game.num_players
    if len(seats) == 1:
        seats = seats * game.num_players
    if len(seats) != game.num_players:
        raise LabError(f"{game.title} has {game.num_players} seats; {len(seats)} --seat given")
    for spec in seats:
        if spec == "human":
            raise LabError("a simulation has no human seats; use agents such as random")
        make_agent(spec, game)
    return seats


def _summary_table(title: str, summaries: dict[str, Summary]) -> Table:
    table = Table(title=title)
    table.add_column("measure")
    for label in summaries:
        table.add_column(label)
    for row in side_by_side(summaries):
        table.add_row(*(escape(cell) for cell in row))  # game words are text, not markup
    return table


def _print_warnings(texts: list[str]) -> None:
    for text in texts:
        console.print(f"[bold yellow]Warning:[/] {escape(text)}.")


def simulate_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="game to simulate")],
    games: Games = 200,
    seat: Annotated[
        list[str] | None, typer.Option(help="agent spec per seat (one spec: every seat)")
    ] = None,
    seed: Seed = 0,
    jobs: Jobs = 1,
    backend: BackendOpt = None,
    address: Address = None,
    db: Db = DEFAULT_URL,
    out: Out = Path("results"),
    fresh: Fresh = False,
) -> None:
    """Play many games and report wins, first-player advantage, length and design metrics.

    Game options are given as for meeple play, e.g. meeple simulate edges --board 3x3.
    """
    try:
        _writable(out)
        chosen_game = make(game, **parse_option_flags(game, list(ctx.args)))
        name, options = chosen_game.name, chosen_game.options.changed()
        seats = _check_seats(name, options, seat or [])
        spec = RunSpec(kind="simulate", game=name, options=options, seatings=[seats], seed=seed)
        rows = _play(
            spec, games, db, _backend(backend, jobs), jobs, address, fresh, f"{name} {spec.key}"
        )
    except MeepleError as exc:
        raise fail(str(exc)) from None
    summary = summarize(rows)
    title = f"{name} {options_words(options)} ({' vs '.join(seats)})"
    console.print(_summary_table(title, {"value": summary}))
    _print_warnings(summary_warnings({title: summary}))
    with _writing(out):
        write_jsonl(rows, out / f"{name}-{spec.key}.jsonl")
        report = simulation_report(
            title,
            summary,
            [float(r["length"]) for r in rows],
            out / f"{name}-{spec.key}",
            _command_line(),
        )
    console.print(
        f"Run {spec.key}: rows in {out / f'{name}-{spec.key}.jsonl'} and {db}; report {report}"
    )


def _parse_variant(text: str) -> dict[str, str]:
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, eq, value = part.partition("=")
        if not eq:
            raise LabError(f"variant {text!r}: write option=value pairs, e.g. rules=0.01,best_of=3")
        out[key.strip().replace("-", "_")] = value.strip()
    return out


def compare_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="game whose variants to compare")],
    variant: Annotated[
        list[str],
        typer.Option(help="option=value[,option=value] of one variant; give two or more"),
    ],
    games: Games = 200,
    seat: Annotated[list[str] | None, typer.Option(help="agent spec per seat")] = None,
    seed: Seed = 0,
    jobs: Jobs = 1,
    backend: BackendOpt = None,
    address: Address = None,
    db: Db = DEFAULT_URL,
    out: Out = Path("results"),
    fresh: Fresh = False,
) -> None:
    """Simulate each variant with the same seeds and show the metrics side by side."""
    try:
        _writable(out)
        if len(variant) < 2:
            raise LabError("compare needs at least two --variant")
        base = parse_option_flags(game, list(ctx.args))
        name = game_class(game).name
        specs = {}
        for text in variant:
            options = make(name, **{**base, **_parse_variant(text)}).options.changed()
            seats = _check_seats(name, options, seat or [])
            specs[text] = RunSpec(
                kind="simulate", game=name, options=options, seatings=[seats], seed=seed
            )
        chosen = _backend(backend, jobs)
        rows = {
            label: _play(s, games, db, chosen, jobs, address, fresh, f"{label} {s.key}")
            for label, s in specs.items()
        }
    except MeepleError as exc:
        raise fail(str(exc)) from None
    summaries = {label: summarize(r) for label, r in rows.items()}
    # The options every variant shares belong in the title: the labels give only the rest.
    title = f"{name} {options_words(base)}".rstrip() + ": variants compared"
    console.print(_summary_table(title, summaries))
    _print_warnings(summary_warnings(summaries))
    key = "-".join(s.key[:6] for s in specs.values())
    with _writing(out):
        for label, s in specs.items():
            write_jsonl(rows[label], out / f"{name}-{s.key}.jsonl")
        report = comparison_report(
            title,
            summaries,
            {label: [float(x["length"]) for x in r] for label, r in rows.items()},
            out / f"compare-{name}-{key}",
            _command_line(),
        )
    console.print(f"Report {report}")


def tournament_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="game to hold the tournament in")],
    agent: Annotated[list[str], typer.Option(help="an agent spec; give two or more")],
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            min=1,
            help="games for every pair of agents, exactly; the pair's seatings alternate, so "
            "seats are even when this is a multiple of 2 (two seats) or of twice the seats, "
            "and otherwise one seating gets one game more (with two seats: the agent named "
            "first in seat 0); the output says how seats fell",
        ),
    ] = 100,
    seed: Seed = 0,
    jobs: Jobs = 1,
    backend: BackendOpt = None,
    address: Address = None,
    db: Db = DEFAULT_URL,
    out: Out = Path("results"),
    fresh: Fresh = False,
) -> None:
    """Round robin between agents, seats rotated; Bradley-Terry ratings (Elo scale, 95% CI)."""
    try:
        _writable(out)
        g = make(game, **parse_option_flags(game, list(ctx.args)))
        options = g.options.changed()
        for spec_text in agent:
            _check_seats(g.name, options, [spec_text] * g.num_players)
        try:
            spec = tournament_spec(g.name, options, list(agent), g.num_players, seed)
        except ValueError as exc:
            raise LabError(str(exc)) from None
        pairs = len(agent) * (len(agent) - 1) // 2
        rows = _play(
            spec,
            games * pairs,
            db,
            _backend(backend, jobs),
            jobs,
            address,
            fresh,
            f"tournament {spec.key}",
        )
    except MeepleError as exc:
        raise fail(str(exc)) from None
    results = pairwise_results(rows)
    ratings = bradley_terry(results)
    matrix = score_matrix(results)
    setting = f"{g.title} {options_words(options)}".rstrip()
    table = Table(title=f"{setting}: round robin, {games} games per pair")
    for column in ("agent", "Elo", "95% CI", "games", "score"):
        table.add_column(column)
    for r in ratings:
        table.add_row(
            r.agent, f"{r.elo:.0f}", f"{r.low:.0f} to {r.high:.0f}", str(r.games), f"{r.score:.3f}"
        )
    console.print(table)
    notes = [seating_note(pair_plays(rows))]
    endings = count_endings(rows)
    if endings is not None:
        notes.append(f"How games ended: {endings.text()}.")
    for note in notes:
        console.print(escape(note))
    warning = endings.warning() if endings is not None else None
    alarms = [warning] if warning else []
    _print_warnings(alarms)
    with _writing(out):
        write_jsonl(rows, out / f"{g.name}-{spec.key}.jsonl")
        report = tournament_report(
            f"{setting} tournament",
            ratings,
            matrix,
            out / f"tournament-{g.name}-{spec.key}",
            _command_line(),
            notes=notes,
            warnings=alarms,
        )
    console.print(f"Run {spec.key}: report {report}")


def results_command(db: Db = DEFAULT_URL) -> None:
    """List the runs stored in the results database."""
    try:
        store = ResultStore(db)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    table = Table(title=f"runs in {db}")
    for column in ("run", "kind", "game", "options", "seats", "seed", "games"):
        table.add_column(column)
    for run in store.runs():
        spec = run["spec"]
        seats = (
            spec["seatings"][0]
            if len(spec["seatings"]) == 1
            else f"{len(spec['seatings'])} seatings"
        )
        table.add_row(
            run["key"],
            run["kind"],
            run["game"],
            options_words(spec["options"]),
            str(seats),
            str(spec["seed"]),
            str(run["games"]),
        )
    console.print(table)
