"""Advice from the judges: ``hint`` at the terminal prompt (Edges' solver), and ``meeple
analyse``, which judges every decision of a saved game of any game by the best judge it has
(:mod:`meeple.lab.review`) and marks the mistakes: for Edges solved exactly, the blunder list
of the moves that changed the solver's value."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import JustifyMethod
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from meeple.agents.judge import SEARCH_ITERATIONS
from meeple.core.errors import MeepleError
from meeple.core.game import Game, State
from meeple.core.record import GameRecord
from meeple.core.review import DEFAULT_SEED, HINT_ITERATIONS, MAX_ITERATIONS, JudgeSettings
from meeple.core.words import counted
from meeple.games.edges.rules import EdgesGame, EdgesState
from meeple.interfaces.console import console, fail, solver_ready
from meeple.interfaces.history import history_file, no_such_game
from meeple.interfaces.options_cli import with_typed_files
from meeple.interfaces.prompt_words import Turn, prompt_command

if TYPE_CHECKING:
    from meeple.core.review import Judge
    from meeple.lab.review import ReviewedDecision
    from meeple.solvers.edges_analysis import GameAnalysis


def _for(game: EdgesGame, seat: int, value: int) -> str:
    """A value (seat 0 minus seat 1) as ``seat`` reads it: "+2 for Red"."""
    mine = value if seat == 0 else -value
    return f"{mine:+d} for {game.seat_name(seat)}"


@prompt_command("hint", help="the best move, by the solver or a search, and why")
def hint_command(turn: Turn, rest: str) -> bool:
    """Suggest a move for the seat to act, with its value and how it was found: Edges' by its
    solver (exact near the end), every other game's by the judge the browser's hints use."""
    if not isinstance(turn.play.state, EdgesState):
        return _judged_hint(turn)
    from meeple.solvers.edges_analysis import hint

    state = turn.play.state
    try:
        solver_ready()
        with console.status("looking for the best move..."):
            found = hint(state)
    except MeepleError as exc:
        console.print(f"[red]No hint:[/] {escape(str(exc))}")
        return False
    game = state.game
    what = "exact: best play by both" if found.exact else "an estimate"
    console.print(
        f"Hint: [bold]{escape(str(found.action))}[/], value {_for(game, turn.player, found.value)} "
        f"({what}; by {found.method}, {found.seconds:.1f} s)",
        highlight=False,
    )
    return False


def _judged_hint(turn: Turn) -> bool:
    """The hint :func:`meeple.lab.hints.hint` gives, from the seat's view only: the moves of
    a simultaneous decision still secret (a computer that chose first) are left out."""
    from meeple.lab.hints import hint, hint_judge

    record = turn.play.record()
    try:
        with console.status("looking for the best move..."):
            states = record.states()
            judge = hint_judge(states[-1].game, HINT_ITERATIONS)
            found = hint(states, record.moves, turn.player, judge)
    except MeepleError as exc:
        console.print(f"[red]No hint:[/] {escape(str(exc))}")
        return False
    console.print(
        f"Hint: [bold]{escape(found['best'])}[/]: {escape(found['why'])}", highlight=False
    )
    return False


def analyse_command(
    record: Annotated[Path, typer.Argument(help="a saved game (JSON record) of any game")],
    max_left: Annotated[
        int,
        typer.Option(
            help="Edges: solve the positions with at most this many pyramids left exactly, "
            "search the others (more is slower: see docs/solving.md)",
            min=1,
            max=18,
        ),
    ] = JudgeSettings.max_left,
    every: Annotated[
        bool, typer.Option("--all", help="list every decision judged, not only the mistakes")
    ] = False,
    iterations: Annotated[
        int | None,
        typer.Option(
            help="search iterations per decision, where a search judges (default: "
            f"{SEARCH_ITERATIONS} for ismcts, the uct agent's 20,000 for Edges)",
            min=1,
            max=MAX_ITERATIONS,
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="the seed of the searches (same seed, same review)")] = (
        DEFAULT_SEED
    ),
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="print every decision as JSON for a script: a list of {n, seat, action, best, "
            "loss, values, judge, unit, mistake, why} (docs/solving.md)",
        ),
    ] = False,
) -> None:
    """Judge every decision of a saved game and mark the mistakes.

    Each game by the best judge it has: Edges exactly by the solver near the end (the
    values before and after each move, in points) and by the uct search before; Erd against
    the solved equilibrium; Erosion, The Triangle Clock and Squad Combat by a seeded
    information-set search from the deciding seat's view only. A file option is never read
    from the record."""
    from meeple.lab.review import make_judge, review_record
    from meeple.solvers.edges_analysis import GameAnalysis, MoveVerdict

    try:
        record = history_file(record)  # a game `meeple history` lists, by its name
        if not record.exists():
            raise MeepleError(no_such_game(record))
        saved = with_typed_files(GameRecord.load(record), [], f"the record {record}")
        game = saved.make_game()
    except MeepleError as exc:
        raise fail(str(exc)) from None
    settings = JudgeSettings(iterations=iterations, seed=seed, max_left=max_left,
                             values=as_json, solve=True)  # fmt: skip
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())  # fmt: skip
    try:
        if not as_json:
            if isinstance(game, EdgesGame) and game.num_players == 2:
                solver_ready()
            waiting = _erd_wait(game)
            if waiting:
                console.print(waiting)
        judge = make_judge(game, settings)
        with Progress(*columns, console=console, transient=True, disable=as_json) as progress:
            task = progress.add_task(JUDGING, total=None)

            def step(done: int, total: int, state: State[Any] | None) -> None:
                progress.update(
                    task, completed=done, total=total, description=_judging(judge, state, done)
                )

            reviewed = review_record(saved, settings, step, judge)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        console.print("stopped; nothing analysed")
        raise typer.Exit(code=130) from None
    if as_json:
        typer.echo(json.dumps([r.to_json() for r in reviewed], indent=1))
        return
    exact = [r.judgement for r in reviewed if r.judgement.judge == "exact"]
    if isinstance(game, EdgesGame) and reviewed and len(exact) == len(reviewed):
        # Every move solved: the blunder list Edges has always had.
        analysis = GameAnalysis(max_left=max_left)
        for r in reviewed:
            j = r.judgement
            before, after = j.details["before"], j.details["after"]
            analysis.verdicts.append(MoveVerdict(r.n, j.seat, j.action, before, after, j.best))
        _print(game, analysis, every)
        return
    _print_review(game, reviewed, every)


JUDGING = "judging decisions"
"""What the progress line says while a decision is judged, but for one Edges solves."""


def _judging(judge: Judge, state: State[Any] | None, done: int) -> str:
    """The progress line's words while the decision at ``state`` (move ``done + 1``) is
    judged. One that Edges' solver answers exactly can take minutes on a board with many
    more edges than pyramids (the search grows with the open edges); the line then says so,
    and names the flag whose help says that fewer pyramids solved exactly is quicker."""
    if not isinstance(state, EdgesState):
        return JUDGING
    from meeple.solvers.edges_judge import EdgesJudge
    from meeple.solvers.edges_solver import pyramids_left

    if not (isinstance(judge, EdgesJudge) and judge.exact_at(state)):
        return JUDGING
    left = pyramids_left(state)
    # Short enough to leave the count and the time whole at 80 columns.
    return f"solving move {done + 1} exactly ({left} left; see --max-left)"


def _erd_wait(game: Game[Any, Any, Any]) -> str | None:
    """What judging ``game`` first waits for (Erd's rules solved or read back), or None."""
    from meeple.solvers.erd.agent import wait_to_make

    found = wait_to_make(game, solve=True)  # the judge solves rules it does not find
    return found.replace("for the computer player", "for the judge") if found else None


def _loss_text(loss: float | None, unit: str) -> str:
    if loss is None:
        return "?"
    if not loss:
        return ""
    return f"{loss:g}" if unit == "points" else f"{loss:.2f}"


# Below this a judge's noise is rounding: its values are exact.
EXACT_NOISE = 1e-3


def _how_sure(judge: str, noise: float) -> str:
    """How far a reader can trust ``judge``'s losses, from the noise its judgements carry."""
    if noise <= EXACT_NOISE:
        return f"{judge} is exact (values of the solved game, not a search): any loss is a mistake"
    return (
        f"{judge} is a seeded search, so its values are estimates: a loss is called a mistake "
        f"only above {noise:g} and above two standard errors of what its tries can tell (a move "
        "tried 3 times, about 1.2), and 'why' gives the tries a value rests on"
    )


# How narrow the played and best moves' columns go when the table is wider than the
# terminal (never below the longest word in them while the table still fits): of the widths
# tried on records of the three searched games and Erd at 80 and 100 columns, 12 gave the
# fewest lines, the explanation column taking what the moves gave up.
NARROW_MOVES = 12


def _review_table(
    game: Game[Any, Any, Any], shown: list[ReviewedDecision], several: bool, every: bool
) -> Table:
    """The decisions as a table no wider than the terminal: the moves' columns as wide as
    their moves where the table fits so, else narrowed to :data:`NARROW_MOVES` (or their
    longest word); a word too wide for its column goes on folded, never cut. The cells are
    made once, whichever of the widths is kept."""
    words = [w for r in shown for move in (r.judgement.action, r.judgement.best)
             for w in move.split()]  # fmt: skip
    longest = max(map(len, words), default=0)
    unbounded = console.options.update(width=10**4)  # Rich clamps a measure to the terminal
    narrow = max(longest, NARROW_MOVES)
    names = ("move", "seat", "played", *(["judge"] if several else []), "loss", "best", "why")
    rows = []
    for r in shown:
        j = r.judgement
        better = j.best != j.action and (j.loss is None or j.loss > 0)
        rows.append((
            str(r.n), game.seat_name(j.seat), escape(j.action), *([j.judge] if several else []),
            _loss_text(j.loss, j.unit), escape(j.best) if better else "",
            escape(j.why or "") if j.mistake or every else "",
        ))  # fmt: skip
    ways: list[tuple[int | None, int | None]] = [(longest, None), (longest, narrow), (None, narrow)]
    for n, (least, most) in enumerate(ways):
        table = Table(title=None if every else "Decisions that gave something away")
        for name in names:
            justify: JustifyMethod = "right" if name in ("move", "loss") else "left"
            move = name in ("played", "best")
            table.add_column(
                name, justify=justify, overflow="fold", min_width=least if move else None,
                max_width=most if move else None,
            )  # fmt: skip
        for row in rows:
            table.add_row(*row)
        measured = console.measure(table, options=unbounded)
        if (measured.maximum if n == 0 else measured.minimum) <= console.width:
            break
    return table


def _print_review(game: Game[Any, Any, Any], reviewed: list[ReviewedDecision], every: bool) -> None:
    """The mistakes (or every decision), with the judge of each where the record had more
    than one, and a count per seat."""
    if not reviewed:
        console.print("No move to analyse.")
        return
    judges: dict[str, int] = {}
    for r in reviewed:
        judges[r.judgement.judge] = judges.get(r.judgement.judge, 0) + 1
    # One judge for the whole record is named once, above the table, not on every row: an
    # 80-column terminal needs that column's width for the played and best actions and why.
    several = len(judges) > 1
    used = ", ".join(f"{name} ({count})" if several else name for name, count in judges.items())
    by_unit: dict[str, list[str]] = {}
    for name in judges:
        unit = next(r.judgement.unit for r in reviewed if r.judgement.judge == name)
        by_unit.setdefault(unit, []).append(name)
    scale = []
    if "points" in by_unit:
        scale.append("points for exact (the seat's score minus the other's with best play)")
    if "return" in by_unit:
        scale.append(f"expected result, -1 a loss to +1 a win, for {', '.join(by_unit['return'])}")
    console.print(
        f"{counted(len(reviewed), 'decision')} judged by {used}; losses in " + "; ".join(scale),
        highlight=False,
    )
    for name in judges:
        noise = max(r.judgement.noise for r in reviewed if r.judgement.judge == name)
        console.print(_how_sure(name, noise), highlight=False)
    mistakes = [r for r in reviewed if r.judgement.mistake]
    shown = reviewed if every else mistakes
    if not shown:
        console.print("[bold]No mistakes[/]: no decision gave away more than its judge can tell.")
        return
    table = _review_table(game, shown, several, every)
    console.print(table)
    counts = ", ".join(
        f"{game.seat_name(p)} {sum(1 for r in mistakes if r.judgement.seat == p)}"
        for p in range(game.num_players)
    )
    console.print(f"Mistakes: {counts}", highlight=False)


def _print(game: EdgesGame, analysis: GameAnalysis, every: bool) -> None:
    """The blunder list (or every move) and what was left out."""
    names = [game.seat_name(p) for p in range(2)]
    verdicts = analysis.verdicts
    if analysis.skipped:
        console.print(
            f"Moves 1-{analysis.skipped} not analysed: they were played with more than "
            f"{analysis.max_left} pyramids left, beyond what the solver answers in reasonable "
            "time (--max-left; the whole game on 2x2 and 2x3 boards)",
            highlight=False,
        )
    if not verdicts:
        console.print("No move to analyse.")
        return
    console.print(
        f"Values, exact by the solver: {names[0]}'s score minus {names[1]}'s at the end with "
        "best play from there; "
        f"{counted(len(verdicts), 'move')} analysed, from move {verdicts[0].number}: value "
        f"{verdicts[0].before:+d} before it, {verdicts[-1].after:+d} at the end",
        highlight=False,
    )
    shown = verdicts if every else analysis.blunders
    if not shown:
        console.print("[bold]No mistakes[/]: every move kept the value.")
        return
    table = Table(title=None if every else "Moves that changed the value")
    for name, justify in (("move", "right"), ("seat", "left"), ("played", "left"),
                          ("value before", "right"), ("after", "right"),
                          ("points lost", "right"), ("best", "left")):  # fmt: skip
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for v in shown:
        table.add_row(
            str(v.number), names[v.seat], escape(v.move), f"{v.before:+d}", f"{v.after:+d}",
            str(v.loss) if v.loss else "", escape(v.best) if v.loss else "",
        )  # fmt: skip
    console.print(table)
    lost = [sum(v.loss for v in analysis.blunders if v.seat == p) for p in range(2)]
    made = [sum(1 for v in analysis.blunders if v.seat == p) for p in range(2)]
    console.print(
        f"Mistakes: {names[0]} {made[0]} ({counted(lost[0], 'point')}), "
        f"{names[1]} {made[1]} ({counted(lost[1], 'point')})",
        highlight=False,
    )
