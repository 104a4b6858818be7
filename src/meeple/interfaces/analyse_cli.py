"""Advice from the Edges solver: ``hint`` at the terminal prompt, and ``meeple analyse``,
which marks every move of a saved game that changed the solver's value (a blunder list)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from meeple.core.errors import MeepleError
from meeple.core.record import GameRecord
from meeple.games.edges.rules import EdgesGame, EdgesState
from meeple.interfaces.console import console, fail, solver_ready
from meeple.interfaces.play_cli import Turn, prompt_command

if TYPE_CHECKING:
    from meeple.solvers.edges_analysis import GameAnalysis


def _for(game: EdgesGame, seat: int, value: int) -> str:
    """A value (seat 0 minus seat 1) as ``seat`` reads it: "+2 for Red"."""
    mine = value if seat == 0 else -value
    return f"{mine:+d} for {game.seat_name(seat)}"


@prompt_command("hint", help="the best move, by the solver or a search", games=("edges",))
def hint_command(turn: Turn, rest: str) -> bool:
    """Suggest a move for the seat to act, with its value and how it was found."""
    from meeple.solvers.edges_analysis import hint

    state = turn.play.state
    assert isinstance(state, EdgesState)
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


def analyse_command(
    record: Annotated[Path, typer.Argument(help="a saved game of Edges (JSON record)")],
    max_left: Annotated[
        int,
        typer.Option(
            help="solve the positions with at most this many pyramids left (more is slower: "
            "see docs/solving.md)",
            min=1,
            max=18,
        ),
    ] = 16,
    every: Annotated[
        bool, typer.Option("--all", help="list every move analysed, not only the mistakes")
    ] = False,
) -> None:
    """Mark every move of a saved game of Edges that changed the solver's value.

    A blunder list: the value before and after each such move, and a best move instead."""
    from meeple.solvers.edges_analysis import analyse_game

    try:
        saved = GameRecord.load(record)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    if saved.game.strip().lower() != "edges":
        raise fail(f"{record} is a game of {saved.game}; meeple analyse reads games of Edges")
    columns = (TextColumn("solving positions"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())  # fmt: skip
    try:
        solver_ready()
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task("analyse", total=None)

            def step(done: int, total: int) -> None:
                progress.update(task, completed=done, total=total)

            analysis = analyse_game(saved, max_left, step)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        console.print("stopped; nothing analysed")
        raise typer.Exit(code=130) from None
    game = saved.make_game()
    assert isinstance(game, EdgesGame)
    _print(game, analysis, every)


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
        f"Values: {names[0]}'s score minus {names[1]}'s at the end with best play from there; "
        f"{len(verdicts)} moves analysed, from move {verdicts[0].number}: value "
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
    console.print(
        f"Mistakes: {names[0]} {sum(1 for v in analysis.blunders if v.seat == 0)} "
        f"({lost[0]} points), {names[1]} {sum(1 for v in analysis.blunders if v.seat == 1)} "
        f"({lost[1]} points)",
        highlight=False,
    )
