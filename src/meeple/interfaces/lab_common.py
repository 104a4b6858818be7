"""What every lab command shares (``meeple simulate``, ``compare``, ``sweep``,
``tournament``, ``design``, ``results``): its options, checking the seats and the results
folder, playing a run with progress (and keeping what an interruption leaves), where its
report goes, and its tables and notes."""

from __future__ import annotations

import os
import shlex
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from meeple.agents import HUMAN, parse_spec
from meeple.agents.levels import seat_spec
from meeple.agents.spec import agent_builder
from meeple.core.errors import MeepleError
from meeple.core.game import Game
from meeple.core.ray_cluster import ADDRESSES, held
from meeple.core.registry import make
from meeple.core.words import counted
from meeple.interfaces.console import console, fail, print_note, print_table, text_table
from meeple.lab.metrics import SMALL, SMALL_FLAG, SMALL_SAMPLE_GAMES, Summary
from meeple.lab.report import SHARED_NOTE, seat_table, side_by_side
from meeple.lab.run import (
    MAX_GAMES,
    MAX_JOBS,
    RunSpec,
    execute,
    rotations,
    stored_games,
    superseded,
    write_jsonl,
)
from meeple.lab.simulate import Backend, Pace
from meeple.store import DEFAULT_URL
from meeple.store.urls import hide_password, in_words

if TYPE_CHECKING:
    from meeple.store import ResultStore

Games = Annotated[
    int, typer.Option("--games", "-n", help="number of games to play", min=1, max=MAX_GAMES)
]
# A seed is 0 or more, as everywhere else it is taken (a game's, the server's): one run is
# not spelt two ways across commands and machines.
Seed = Annotated[
    int, typer.Option(help="seed of the run, 0 or more; game k gets a seed derived from it", min=0)
]


def _jobs_in_range(jobs: int) -> int:
    """``--jobs`` as given, when a run may start that many workers; refused before anything
    is played otherwise, saying what was given and what is allowed."""
    if not 1 <= jobs <= MAX_JOBS:
        raise typer.BadParameter(
            f"{jobs} given; a run starts 1 to {MAX_JOBS} workers (this machine has "
            f"{os.cpu_count() or 1} cores, and workers past them only share them)"
        )
    return jobs


Jobs = Annotated[
    int,
    typer.Option(help=f"worker processes (or Ray CPUs), 1 to {MAX_JOBS}", callback=_jobs_in_range),
]
Seats = Annotated[
    list[str] | None,
    typer.Option(help="an agent spec, one --seat per seat in seat order (given once: every seat)"),
]
BackendOpt = Annotated[
    str | None, typer.Option("--backend", help="serial | process | ray (default: by --jobs)")
]
Address = Annotated[
    str | None,
    typer.Option(help=f"address of an existing Ray cluster: {ADDRESSES}; implies --backend ray"),
]
Db = Annotated[
    str,
    typer.Option(
        help=f"SQLAlchemy URL of the results database (default: {in_words(DEFAULT_URL)})",
        show_default=False,
    ),
]
Out = Annotated[Path, typer.Option(help="folder for the per-game JSONL file and the report")]
Fresh = Annotated[
    bool, typer.Option("--fresh", help="forget stored games of this run and play all again")
]
RotateSeats = Annotated[
    bool,
    typer.Option(
        "--rotate-seats",
        help="rotate the seating game by game, so that every agent sits in every seat "
        "equally often (--games a multiple of the number of seats)",
    ),
]
Duplicate = Annotated[
    bool,
    typer.Option(
        "--duplicate",
        help="with --rotate-seats: play each deal (a game's seed: its shuffles and dice) "
        "once in every seating, as in duplicate bridge, so the luck of the deal falls on "
        "every agent alike; each agent's interval is then taken over the deals",
    ),
]


class LabError(MeepleError):
    """A lab command that cannot run as asked."""


def chosen_backend(backend: str | None, jobs: int, address: str | None = None) -> Backend:
    """The backend ``--backend`` names, else Ray where ``--address`` names a cluster, else
    processes for more than one job, else serial; LabError for a name that is none of
    them, and for an address given to a backend that would not use it."""
    chosen = backend or ("ray" if address else "process" if jobs > 1 else "serial")
    if chosen not in ("serial", "process", "ray"):
        raise LabError(f"unknown backend {chosen!r}; use serial, process or ray")
    if address and chosen != "ray":
        # Played here instead, the run would say nothing of the cluster it was sent to.
        raise LabError(
            f"--address names a Ray cluster, which --backend {chosen} does not use; give "
            "--backend ray, or leave --address out"
        )
    return chosen  # type: ignore[return-value]


def check_writable(out: Path) -> None:
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
def writing_report(out: Path) -> Iterator[None]:
    """Turn a failed write of the report into an error line (the games are stored)."""
    try:
        yield
    except OSError as exc:
        raise fail(
            f"cannot write the report to {out}: {exc.strerror or exc}; the games are stored in "
            "the database, so the same command with another --out writes it without playing"
        ) from None


def command_line() -> str:
    """The command being run, as typed (``meeple simulate edges ...``)."""
    # Written into reports and the results database: a --db URL's password stays out.
    return hide_password("meeple " + shlex.join(sys.argv[1:]) if sys.argv[1:] else "meeple")


@contextmanager
def one_backend(backend: Backend, jobs: int, address: str | None) -> Iterator[None]:
    """The block's runs (a comparison's variants, a design report's player counts) share
    one Ray connection where they play on Ray: each run started a local Ray of its own and
    stopped it, four seconds a run; nothing for another backend. Ctrl-C while Ray starts
    ends the command as one during a run does (exit status 130), nothing played yet."""
    with ExitStack() as connection:
        if backend == "ray":
            try:
                connection.enter_context(held(address, jobs))
            except KeyboardInterrupt:
                console.print("Interrupted while Ray started: no game was played.")
                raise typer.Exit(130) from None
        yield


def play_run(
    spec: RunSpec,
    games: int,
    db: str,
    backend: Backend,
    jobs: int,
    address: str | None,
    fresh: bool,
    label: str,
    jsonl: Path | None,
    later: int = 0,
) -> list[Mapping[str, Any]]:
    """Play the games of ``spec`` not yet stored under a progress bar that shows how long
    the rest will take, at the pace of the games played so far (:class:`Pace`: a worker's
    first game, which sets the run up, does not time the rest once a later one is in); say
    it once above the bar when the run will take a while; return its ``games`` rows by
    index; after Ctrl-C, say what was kept (in ``jsonl`` too, where the command writes
    one) and how many games are left, ``later`` of them the command's later runs', and
    exit (130)."""
    from meeple.store import ResultStore

    store = ResultStore(db)
    for note in superseded(spec, store):
        console.print(escape(note), soft_wrap=True)  # paths whole, to be copied
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[left]}"),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        # A person's label: text. Rich's own time left is of the last 30 s of wall time,
        # empty for games slower than that and led astray by the set-up.
        task = progress.add_task(escape(label), total=games, left="")
        said: list[bool] = []
        # The games' own times, as their workers measured them: reading stored games back,
        # making the list of games to play (6 s for a million) and starting the workers
        # happen once, in this process, and do not time the rest.
        pace = Pace()

        def on_row(row: Mapping[str, Any]) -> None:
            progress.advance(task)
            if pace.per_game is None:  # a stored game: nothing played yet
                return
            left = games - int(progress.tasks[0].completed)
            progress.update(task, left=time_left(pace, left, jobs))
            if said or not _settled(pace):
                return
            said.append(True)
            line = estimate_line(pace, left, jobs)
            if line:
                progress.console.print(line)

        try:
            rows = execute(
                spec,
                games,
                store,
                backend=backend,
                workers=jobs,
                address=address,
                fresh=fresh,
                on_row=on_row,
                on_played=pace.add,
                on_damaged=lambda line: progress.console.print(escape(line), soft_wrap=True),
            )
        except KeyboardInterrupt:
            progress.stop()
            _interrupted(store, spec, games, jsonl, later)
    # A run that holds more games keeps the command and the report of all of them; one that
    # played none here keeps the command and the report that last read all it holds, until
    # this command writes its own (it may yet stop before: a closed pipe, Ctrl-C).
    played = sum(pace.games.values())
    if played and not _held_past(store, [spec.key], games):
        store.note_run(spec.key, command_line(), None)
    if read := len(rows) - played:
        # Said, as a game's code edited since would not be: a run is keyed by what it
        # plays, not by the code that played it (docs/lab-internals.md).
        now = f", {played} played now" if played else ""
        console.print(
            f"{counted(read, 'stored game')} of run {spec.key} read back{now}: --fresh plays "
            "them again (after the game's code has changed, say).",
            markup=False,
        )
    return rows


def _held_past(store: ResultStore, keys: Iterable[str], games: int) -> dict[str, int]:
    """The runs of ``keys`` that hold more than the ``games`` a command reads of each, with
    how many they hold: that command's tables are of fewer games than such a run."""
    return {key: held for key in keys if (held := store.count(key)) > games}


def report_folder(folder: Path, db: str, keys: list[str], games: int) -> tuple[Path, set[str]]:
    """Where the report of a command that read ``games`` games of each run of ``keys`` goes,
    and the runs that hold more. A run's report describes every game it holds, so a report
    of fewer goes to a folder of its own, named with the count (``edges-KEY-first-20``) and
    said in a line, and the run's report is never replaced by it."""
    from meeple.store import ResultStore

    past = _held_past(ResultStore(db), keys, games)
    if not past:
        return folder, set()
    apart = folder.with_name(f"{folder.name}-first-{games}")
    held = "; ".join(f"run {key} holds {counted(n, 'game')}" for key, n in past.items())
    console.print(
        escape(
            f"{held[0].upper()}{held[1:]}, more than the {counted(games, 'game')} read now: "
            f"their report goes to {apart}, and no run's own report is replaced (`meeple "
            "results RUN` shows every game a run holds)."
        ),
        soft_wrap=True,  # paths whole, to be copied
    )
    return apart, set(past)


def run_rows(
    db: str, spec: RunSpec, rows: Sequence[Mapping[str, Any]], past: set[str]
) -> Sequence[Mapping[str, Any]]:
    """What run ``spec``'s JSONL file holds: every game of the run, also when the command
    read fewer (``past``, the runs that hold more)."""
    if spec.key not in past:
        return rows
    from meeple.store import ResultStore

    return stored_games(spec, ResultStore(db)).rows


ESTIMATE_FROM_SECONDS = 5.0
"""A run expected to take less than this is not announced: it is over before it matters."""

SETTLED_GAMES = 5
"""Games past the set-up that the line above the bar waits for: Erd's matches run from 6
moves to 800, and the pace of the first one alone said 4 min for a run of 2."""

SETTLED_SECONDS = 30.0
"""Or this many seconds of them, for games slower than that."""


def _settled(pace: Pace) -> bool:
    return pace.games[False] >= SETTLED_GAMES or pace.seconds[False] >= SETTLED_SECONDS


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _each(seconds: float) -> str:
    # Edges' quick games take a millisecond or less: "0.0 s" would say nothing.
    return f"{seconds:.1f} s" if seconds >= 0.1 else f"{seconds * 1000:.1f} ms"


def time_left(pace: Pace, left: int, jobs: int) -> str:
    """The progress bar's time left for ``left`` games on ``jobs`` workers at ``pace``;
    until a game without set-up is in, only that the games are being timed."""
    per_game = pace.of(False)
    if per_game is None:
        return "timing the games"
    return f"about {_duration(per_game * left / max(1, jobs))} left"


def estimate_line(pace: Pace, left: int, jobs: int) -> str | None:
    """How long the rest of a run will take at ``pace`` (once a game without set-up is in),
    when ``left`` games are still to play on ``jobs`` workers; None for a run over in a few
    seconds, or before such a game."""
    per_game = pace.of(False)
    if per_game is None:
        return None
    estimate = per_game * left / max(1, jobs)
    if left <= 0 or estimate < ESTIMATE_FROM_SECONDS:
        return None
    workers = f" on {jobs} workers" if jobs > 1 else ""
    first = pace.of(True)
    whose = "a worker's first game" if jobs > 1 else "the first game"
    set_up = f" ({whose}, set-up included, {_each(first)})" if first is not None else ""
    return (
        f"Games take {_each(per_game)} each{set_up}: about {_duration(estimate)} for the "
        f"{left} still to play{workers}."
    )


def _interrupted(
    store: ResultStore, spec: RunSpec, games: int, jsonl: Path | None, later: int
) -> None:
    """After Ctrl-C: write the finished games to the JSONL file too (where the command
    writes one: a design report writes none, and a partial file would outlive the report
    that resumes it), say what was kept and how many games are left (``later`` of them the
    command's later runs'), and end the command (exit status 130, as for any interrupted
    command)."""
    held = stored_games(spec, store).rows
    kept = [row for row in held if row["index"] < games]
    if len(held) <= games:  # a run holding more keeps the command of all it holds
        store.note_run(spec.key, command_line(), None)
    where = hide_password(store.url)
    if jsonl is not None:
        try:
            write_jsonl(held, jsonl)  # the run's file: every game it holds
            where = f"{where} and {jsonl}"
        except OSError as exc:
            where = f"{where} (not in {jsonl}: {exc.strerror or exc})"
    left = games - len(kept) + later
    console.print(
        f"Interrupted: {len(kept)} of {games} games of run {spec.key} are kept in "
        f"{escape(where)}. Run the same command again to play the other {left}"
        f"{' (its later runs included)' if later else ''}; kept games are not played again."
    )
    raise typer.Exit(130)


def note_runs(db: str, keys: list[str], report: Path, past: set[str]) -> None:
    """Remember the command and the report of finished runs, for `meeple results`; not for
    the runs ``past`` (they hold more games than the report describes)."""
    from meeple.store import ResultStore

    store = ResultStore(db)
    for key in keys:
        if key not in past:
            store.note_run(key, command_line(), str(report))


def check_seats(game_name: str, options: dict[str, Any], seats: list[str]) -> list[str]:
    """The plain spec of every seat (none given: random in each; one: the same in each),
    after checking that they fill the game's seats and that every agent can be made."""
    game = make(game_name, **options)
    seats = list(seats) or ["random"] * game.num_players
    if len(seats) == 1:
        seats = seats * game.num_players
    if len(seats) != game.num_players:
        raise LabError(
            f"{game.title} has {game.num_players} seats; {len(seats)} --seat given: give one "
            "for each seat, or one for them all"
        )
    plain, builders = agent_specs(game, seats)
    for build in builders:
        build(0)
    return plain


def agent_specs(game: Game, given: list[str]) -> tuple[list[str], list[Callable[[int], Any]]]:
    """Each agent ``given`` as its spec written out plainly, and its builder; LabError for a
    person, AgentSpecError for a name or parameter no agent has. Nothing is made: making an
    agent can take seconds or fail for its own reasons (Erd's solved agents), and a typo in
    another seat is the thing to answer first."""
    # The plain spec (a level as the spec it stands for) is what a run's record keeps: it
    # says what played, stays true when a later version gives the level another agent, and
    # one agent written two ways is one agent.
    plain = [str(parse_spec(seat_spec(game, text))) for text in given]
    if HUMAN in plain:
        raise LabError("a simulation has no human seats; use agents such as random")
    return plain, [agent_builder(spec, game) for spec in plain]


def agent_word(text: str, spec: str) -> str:
    """A seat as given, with the spec it stands for when that is another (a level's)."""
    return f"{text.strip()} ({spec})" if parse_spec(text) != parse_spec(spec) else spec


def agents_line(given: list[str], plain: list[str], rotated: bool = False) -> str:
    """The line said before a run's first game: which agent each seat is, a level shown with
    the spec it stands for, so that the figures after it are read as those agents'.

    ``given`` are the seats as written (one per seat, or one per agent of a tournament),
    ``plain`` the specs :func:`check_seats` made of them; ``rotated``: the seating turns."""
    words = [agent_word(text, spec) for text, spec in zip(given, plain, strict=True)]
    if len(set(words)) == 1 and len(words) > 1:
        return f"Agents: {words[0]} in every seat."
    seats = ", ".join(f"seat {k} {word}" for k, word in enumerate(words))
    return f"Agents: {seats}" + ("; seats rotated game by game." if rotated else ".")


def given_seats(seat: list[str], plain: list[str]) -> list[str]:
    """The seats as the command gave them, one per seat (none: the plain specs; one: every
    seat)."""
    if not seat:
        return plain
    return list(seat) * len(plain) if len(seat) == 1 else list(seat)


def simulation_spec(
    game: str,
    options: dict[str, Any],
    seats: list[str],
    games: int,
    seed: int,
    rotate: bool,
    duplicate: bool,
) -> RunSpec:
    """The run of a simulation (or of one arm of a comparison), after checking that
    ``games`` fill its seatings evenly."""
    if duplicate and not rotate:
        raise LabError("--duplicate plays each deal in every seating: give --rotate-seats")
    seatings = rotations(seats) if rotate else [seats]
    if games % len(seatings):
        raise LabError(
            f"with --rotate-seats, --games must be a multiple of {len(seatings)} (the "
            f"seats) so that every agent sits in every seat equally; {games} is not"
        )
    return RunSpec(
        kind="simulate",
        game=game,
        options=options,
        seatings=seatings,
        seed=seed,
        duplicate=duplicate,
    )


def seating_words(spec: RunSpec) -> str:
    """How a run seats its agents, for a title: nothing when the seating is fixed."""
    rotated = ", seats rotated" if len(spec.seatings) > 1 else ""
    return rotated + (", deals duplicated" if spec.duplicate else "")


def _figures_table(title: str, headers: list[str], rows: list[list[str]],
                   summaries: dict[str, Summary]) -> Table:  # fmt: skip
    """A table of the figures of ``summaries``, flagged once under it where every figure is
    a small sample (:func:`flagged_once`)."""
    rows, note = flagged_once(rows, [summary.games for summary in summaries.values()])
    table = text_table(title, headers, rows)
    table.caption = escape(note) if note else None
    return table


def flagged_once(rows: list[list[str]], games: list[int]) -> tuple[list[list[str]], str | None]:
    """A table's rows, and the line that says once under it that every figure is a small
    sample where every run has fewer games than a figure needs (``games``, each run's): each
    figure would carry the flag, which at 80 columns takes a line of its cell (a report
    file still flags each figure). The rows as they are, and None, otherwise."""
    if not games or max(games) >= SMALL_SAMPLE_GAMES:
        return rows, None
    counts = sorted(set(games))
    runs = " and ".join(map(str, counts)) + (" game" if counts == [1] else " games")
    unflagged = [[cell.replace(SMALL_FLAG, "") for cell in row] for row in rows]
    return unflagged, f"{runs}, under {SMALL_SAMPLE_GAMES}: every figure is a {SMALL}"


def summary_table(title: str, summaries: dict[str, Summary]) -> Table:
    """The metrics of each run (or arm) of ``summaries`` side by side, a column each."""
    return _figures_table(title, ["measure", *summaries], side_by_side(summaries), summaries)


def print_seats(summaries: dict[str, Summary]) -> None:
    """The seat table, and the line under it on how shared wins count. Its cells are never
    broken mid-word (a variant's label folded into six-letter pieces, two labels that
    differ at their end unreadable at 80 columns): where it does not fit, each seat is a
    block headed by its variant and seat (:func:`print_table`)."""
    headers, rows = seat_table(summaries)
    rows, note = flagged_once(rows, [summary.games for summary in summaries.values()])
    seat = headers.index("seat")
    print_table("Seats", headers, rows, whole=seat + 1, labelled=(seat,))
    if note:
        console.print(escape(note))
    console.print(escape(SHARED_NOTE))


def print_notes(game: Game[Any, Any, Any], label: str = "") -> None:
    """What the game notes about its configuration (decks of different sizes): allowed,
    said before anything is played in case it is not meant."""
    for text in game.configuration_notes():
        print_note(label + text)


def print_notable(lines: list[str]) -> None:
    """The games to look at first, each with the command that replays it."""
    if lines:
        console.print("Games to look at:")
        for line in lines:
            console.print(f"  {escape(line)}", soft_wrap=True)


def print_warnings(texts: list[str]) -> None:
    """Each warning about the figures (``summary_warnings``) on a line of its own."""
    for text in texts:
        console.print(f"[bold yellow]Warning:[/] {escape(text)}.")
