"""``meeple design GAME``: one command that writes a design report for a game's designer.

It plays (or reads back) one ordinary simulation run per player count, with the lab's own
run keys, so that a second invocation reads the stored games instead of playing them, an
interrupted one resumes, and each figure's run is the one ``meeple simulate`` with the same
flags plays. The report is written by :func:`meeple.lab.design.design_report`.
"""

from __future__ import annotations

import hashlib
import math
import shlex
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from meeple.core.errors import MeepleError
from meeple.core.options import player_counts as allowed_counts
from meeple.core.registry import game_class, make
from meeple.core.words import counted, listed
from meeple.interfaces.console import console, fail
from meeple.interfaces.lab_common import (
    Address,
    BackendOpt,
    Db,
    Fresh,
    Jobs,
    LabError,
    RotateSeats,
    Seed,
    agents_line,
    check_seats,
    check_writable,
    chosen_backend,
    command_line,
    given_seats,
    note_runs,
    one_backend,
    play_run,
    print_notes,
    report_folder,
    simulation_spec,
    writing_report,
)
from meeple.interfaces.options_cli import option_flags, parse_option_flags
from meeple.lab.cards import NoCards, card_report
from meeple.lab.design import CountRun, design_report
from meeple.lab.metrics import summarize
from meeple.lab.run import MAX_GAMES, stored_games
from meeple.store import DEFAULT_URL


def player_counts(game: str, options: dict[str, Any], text: str | None) -> list[int]:
    """The player counts to report: those of ``text`` (``2,3,4``), else the one the game's
    ``--players`` option names, else every count the option allows (the one count of a game
    without the option)."""
    cls = game_class(game)
    field = cls.Options.model_fields.get("players")
    if field is None:
        fixed = make(game, **options).num_players
        if text is not None and [w.strip() for w in text.split(",")] != [str(fixed)]:
            raise LabError(f"{cls.title} is played by {fixed} players only; --counts {text!r}")
        return [fixed]
    every = allowed_counts(cls.Options)
    if not every:
        # An added game's option may leave them out; the counts to play cannot be listed.
        raise LabError(
            f"{cls.title}'s players option gives no lowest and highest count (ge and le), "
            "so meeple design cannot list its player counts"
        )
    low, high = every[0], every[-1]
    if text is None:
        if "players" in options:
            return [int(options["players"])]
        return every
    try:
        counts = [int(w) for w in text.split(",") if w.strip()]
    except ValueError:
        counts = []
    if not counts or any(not low <= c <= high for c in counts):
        raise LabError(
            f"--counts is a list of player counts from {low} to {high} separated by commas "
            f"(such as {low},{high}), not {text!r}"
        )
    if "players" in options and counts != [int(options["players"])]:
        # Both name the counts: which one was meant cannot be guessed.
        raise LabError(
            f"--players {options['players']} and --counts {text} name different player "
            "counts; give one of them"
        )
    return list(dict.fromkeys(counts))


def _simulate_command(
    game: str, seats: list[str], games: int, seed: int, rotate: bool, options: dict[str, Any]
) -> str:
    """The ``meeple simulate`` command that plays the run of these settings."""
    words = ["meeple", "simulate", game]
    for spec in [seats[0]] if len(set(seats)) == 1 else seats:
        words += ["--seat", spec]
    words += ["--games", str(games), "--seed", str(seed)]
    words += ["--rotate-seats"] if rotate else []
    flags = option_flags(options)
    return shlex.join(words) + (f" {flags}" if flags else "")


def _agents_words(seats: list[str]) -> str:
    if len(set(seats)) == 1:
        return f"{seats[0]} in every seat"
    return ", ".join(f"{spec} in seat {p}" for p, spec in enumerate(seats))


def design_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="game to report on")],
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            help="games per player count (more games, tighter intervals); the games already "
            "stored for a run are read back, not played again",
            min=1,
            max=MAX_GAMES,
        ),
    ] = 200,
    seat: Annotated[
        list[str] | None,
        typer.Option(
            help="an agent spec, one --seat per seat in seat order, or given once for "
            "every seat (default: the game's hand-written agent)"
        ),
    ] = None,
    counts: Annotated[
        str | None,
        typer.Option(
            help="player counts to report, separated by commas (default: every count "
            "the game allows, or the one --players names)"
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="folder of the report and its plots (default: results/design-GAME-KEY, KEY "
            "a digest of its runs)"
        ),
    ] = None,
    seed: Seed = 0,
    jobs: Jobs = 1,
    backend: BackendOpt = None,
    address: Address = None,
    db: Db = DEFAULT_URL,
    fresh: Fresh = False,
    rotate_seats: RotateSeats = False,
) -> None:
    """Write a design report: balance per seat and role, length, decisiveness, cards.

    For each player count, one simulation run (the run meeple simulate with the same flags
    plays): seat and turn-order balance, each seat's deck or items, game length in the game's
    units, how early games are decided, lead changes, and each card's or item's use and
    win-when-used, every figure with its 95% interval and the command that reproduces it,
    with plots. Run it again to read the stored games back (nothing is played again); an
    interrupted report resumes; --games extends every run; --backend ray plays on Ray.
    Game options (a content folder, a ranking table) are given after the game.
    """
    from meeple.store import ResultStore

    try:
        name = game_class(game).name
        options = parse_option_flags(name, list(ctx.args))
        chosen = chosen_backend(backend, jobs, address)
        plans = []
        every_count = player_counts(name, options, counts)
        if rotate_seats and games % math.lcm(*every_count):
            # Said once for every count: 'a multiple of 4' and then 'of 5' sent a designer
            # round the counts one at a time.
            raise LabError(
                f"with --rotate-seats, --games must be a multiple of {math.lcm(*every_count)} "
                f"(the seats at {listed(map(str, every_count))} players) so that every agent "
                f"sits in every seat equally{' at every count' if len(every_count) > 1 else ''}"
                f"; {games} is not"
            )
        for players in every_count:
            has_count = "players" in game_class(name).Options.model_fields
            count_game = make(name, **({**options, "players": players} if has_count else options))
            chosen_options = count_game.options.changed()
            default = count_game.heuristic_agent or "random"
            try:
                seats = check_seats(name, chosen_options, seat or [default])
            except LabError as exc:
                raise LabError(f"at {players} players: {exc}") from None
            spec = simulation_spec(name, chosen_options, seats, games, seed, rotate_seats, False)
            print_notes(count_game, f"{players} players: ")
            plans.append((players, seats, spec))
        folder = out or default_folder(name, [spec.key for _, _, spec in plans])
        check_writable(folder)
        for players, seats, _ in plans:  # before any game, as every lab command says them
            said = agents_line(given_seats(seat or [], seats), seats, rotate_seats)
            console.print(escape(said.replace("Agents:", f"Agents at {players} players:", 1)))
        store = ResultStore(db)
        runs = []
        # The games each run holds already, so that an interrupted run says how many are
        # left of the whole report, not of its own count alone.
        held = [
            0 if fresh else sum(1 for r in stored_games(spec, store).rows if r["index"] < games)
            for _, _, spec in plans
        ]
        with one_backend(chosen, jobs, address):
            for at, (players, seats, spec) in enumerate(plans):
                kept = held[at]
                rows = play_run(
                    spec,
                    games,
                    db,
                    chosen,
                    jobs,
                    address,
                    fresh,
                    f"{name}, {players} players {spec.key}",
                    None,  # a report's runs are read from the database, never from a file
                    later=sum(games - n for n in held[at + 1 :]),
                )
                try:
                    cards = card_report(rows)
                except NoCards:
                    cards = None
                command = _simulate_command(name, seats, games, seed, rotate_seats, spec.options)
                runs.append(
                    CountRun(
                        players=players,
                        spec=spec,
                        rows=rows,
                        summary=summarize(rows),
                        command=command,
                        cards=cards,
                        played=games - kept,
                    )
                )
    except MeepleError as exc:
        raise fail(str(exc)) from None
    agents = "; ".join(f"{run.label}: {_agents_words(run.spec.seatings[0])}" for run in runs)
    title = f"Design report: {make(name, **options).title}"
    flags = option_flags(options)
    if flags:
        title += f" ({flags})"
    keys = [run.spec.key for run in runs]
    folder, past = report_folder(folder, db, keys, games)
    with writing_report(folder):
        report = design_report(title, agents, runs, folder, command_line())
    note_runs(db, keys, report, past)
    played = sum(run.played for run in runs)
    stored = sum(run.summary.games for run in runs) - played
    console.print(
        f"Played {counted(played, 'game')}, read {stored} stored ({counted(len(runs), 'run')}: "
        f"{', '.join(run.spec.key for run in runs)}); report {escape(str(report))}"
    )


def default_folder(game: str, keys: list[str]) -> Path:
    """``results/design-GAME-KEY``, KEY a digest of its runs' keys: a design command with
    other seats, options or counts writes a report of its own, never over another's, and
    the same command finds its own folder again."""
    digest = hashlib.sha256("-".join(keys).encode()).hexdigest()[:12]
    return Path("results") / f"design-{game}-{digest}"


__all__ = ["default_folder", "design_command", "player_counts"]
