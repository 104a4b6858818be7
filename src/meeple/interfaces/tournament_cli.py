"""The lab's round robin on the command line: ``meeple tournament``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from meeple.core.errors import MeepleError
from meeple.core.registry import make
from meeple.core.words import counted
from meeple.interfaces.console import console, fail, text_table
from meeple.interfaces.lab_common import (
    Address,
    BackendOpt,
    Db,
    Fresh,
    Jobs,
    LabError,
    Out,
    Seed,
    agent_specs,
    agent_word,
    check_seats,
    check_writable,
    chosen_backend,
    command_line,
    note_runs,
    play_run,
    print_notes,
    print_warnings,
    report_folder,
    run_rows,
    writing_report,
)
from meeple.interfaces.options_cli import options_words, parse_option_flags
from meeple.lab.endings import count_endings
from meeple.lab.metrics import pairwise_results
from meeple.lab.ratings import Rating, bradley_terry, ratings_note
from meeple.lab.report import tournament_report
from meeple.lab.run import MAX_GAMES, write_jsonl
from meeple.lab.tournament import (
    first_mover_note,
    pair_lines,
    pair_plays,
    pair_records,
    pair_seatings,
    score_matrix,
    seating_note,
    tournament_spec,
)
from meeple.store import DEFAULT_URL


def tournament_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="game to hold the tournament in")],
    agent: Annotated[
        list[str], typer.Option(help="an agent spec, one --agent each; give two or more")
    ],
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            min=1,
            max=MAX_GAMES,
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
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate",
            help="every pair plays each deal (a game's seed: its shuffles and dice) once in "
            "each of its seatings, and all pairs meet the same deals, as in duplicate "
            "bridge; each pair's score interval is then taken over the deals (--games a "
            "multiple of the pair's seatings: 2 with two seats)",
        ),
    ] = False,
) -> None:
    """Round robin between agents, seats rotated; Bradley-Terry ratings (Elo scale, 95% CI)."""
    try:
        check_writable(out)
        g = make(game, **parse_option_flags(game, list(ctx.args)))
        options = g.options.changed()
        print_notes(g)
        agent_specs(g, agent)  # every agent's name and parameters before any is made
        given: dict[str, str] = {}  # each agent's spec -> the text that first named it
        for text in agent:
            [spec_text, *_] = check_seats(g.name, options, [text] * g.num_players)
            if (first := given.get(spec_text)) is not None:
                same = (
                    f"{first!r} is given twice"
                    if first == text
                    else f"{first!r} and {text!r} are the same agent ({spec_text})"
                )
                raise LabError(f"{same}; each agent enters a tournament once")
            given[spec_text] = text
        agent = list(given)
        if len(agent) < 2:
            raise LabError(
                f"a tournament needs two or more agents, one --agent each; {len(agent)} given"
            )
        named = [agent_word(text, spec) for spec, text in given.items()]
        console.print(escape(f"Agents: {', '.join(named)}; each pair in every seating."))
        try:
            spec = tournament_spec(g.name, options, list(agent), g.num_players, seed, duplicate)
        except ValueError as exc:
            raise LabError(str(exc)) from None
        cycle = len(pair_seatings(agent[0], agent[1], g.num_players))
        if duplicate and games % cycle:
            raise LabError(
                f"with --duplicate, --games must be a multiple of {cycle} (a pair's seatings) "
                f"so that every deal is played in each of them; {games} is not"
            )
        pairs = len(agent) * (len(agent) - 1) // 2
        rows = play_run(
            spec,
            games * pairs,
            db,
            chosen_backend(backend, jobs, address),
            jobs,
            address,
            fresh,
            f"tournament {spec.key}",
            out / f"{g.name}-{spec.key}.jsonl",
        )
    except MeepleError as exc:
        raise fail(str(exc)) from None
    results = pairwise_results(rows)
    ratings = bradley_terry(results)
    matrix = score_matrix(results)
    setting = f"{g.title} {options_words(options)}".rstrip()
    console.print(
        ratings_table(f"{setting}: round robin, {counted(games, 'game')} per pair", ratings)
    )
    notes = seat_notes(rows)
    if duplicate:
        per_pair = pair_lines(pair_records(rows, list(agent)))
        notes.append(
            "Every pair played each deal once in each of its seatings; the ratings' intervals "
            "count games as independent, "
            + (
                "the pairs' intervals below count deals."
                if per_pair
                else "and a pair's interval over its deals is given for two seats only."
            )
        )
        notes.extend(per_pair)
    endings = count_endings(rows)
    if endings is not None:
        notes.append(f"How games ended: {endings.text()}.")
    for note in notes:
        console.print(escape(note))
    console.print(escape(ratings_note()))
    warning = endings.warning() if endings is not None else None
    alarms = [warning] if warning else []
    print_warnings(alarms)
    report_name = out / f"tournament-{g.name}-{spec.key}"
    folder, past = report_folder(report_name, db, [spec.key], games * pairs)
    with writing_report(out):
        write_jsonl(run_rows(db, spec, rows, past), out / f"{g.name}-{spec.key}.jsonl")
        report = tournament_report(
            f"{setting} tournament",
            ratings,
            matrix,
            folder,
            command_line(),
            notes=[*notes, ratings_note()],
            warnings=alarms,
        )
    note_runs(db, [spec.key], report, past)
    console.print(escape(f"Run {spec.key}: report {report}"))


def ratings_table(title: str, ratings: list[Rating]) -> Table:
    """The ratings of a round robin as a table: Elo, its 95% interval, games and score."""
    rows = [
        [r.agent, f"{r.elo:.0f}", f"{r.low:.0f} to {r.high:.0f}", str(r.games), f"{r.score:.3f}"]
        for r in ratings
    ]
    return text_table(title, ["agent", "Elo", "95% CI", "games", "score"], rows)


def seat_notes(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """What a tournament's table and `meeple results RUN` say under the ratings about the
    games played: games per pair, how seats fell and who moved first."""
    first = first_mover_note(rows)
    return [seating_note(pair_plays(rows)), *([first] if first else [])]
