"""``meeple replay``: a saved game again, move by move, as everyone or as one seat saw it.

At a terminal the replay steps with keys (``n``, Enter, space or the right arrow: the next
move; ``p`` or the left arrow: back; ``f``/``l``: the first and the last position; ``?``:
the board's legend; ``q``: quit) and shows the board at every move. Elsewhere (a script, a
pipe, ``--all``) it prints every move, with ``--step`` the board after each.

``--seat N`` shows only what that seat saw: the boards drawn for it, and another seat's
choice in a simultaneous decision only as "has chosen" until the move that completes the
decision, which tells every choice of it and what followed (a combat, a round's result), as
the rules reveal them then and as ``meeple play`` among agents tells them.

How moves and the parts of a game (Erd's games and rounds, ...) read is the game's, as in
``meeple play``'s log (:mod:`meeple.interfaces.move_log`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.text import Text

from meeple.core.errors import MeepleError
from meeple.core.game import Game, Player, State, seats_text, shorten
from meeple.core.record import GameRecord, result_agrees
from meeple.core.simultaneous import decision_moves, reveals, secret
from meeple.core.text import unprintable
from meeple.core.words import counted
from meeple.interfaces import move_log
from meeple.interfaces.console import console, fail
from meeple.interfaces.history import history_file, no_such_game
from meeple.interfaces.legend import print_legend
from meeple.interfaces.options_cli import with_typed_files
from meeple.interfaces.play_cli import game_banner
from meeple.lab.replay import as_played, find_game, game_record, replay_differences
from meeple.store import DEFAULT_URL

ReadKey = Callable[[], str]
"""Wait for one key and return it (an arrow key as its escape sequence)."""

NEXT_KEYS = ("n", "\r", "\n", " ", "\x1b[C", "\x1bOC")
BACK_KEYS = ("p", "b", "\x1b[D", "\x1bOD")
FIRST_KEYS = ("f", "g", "\x1b[H")
LAST_KEYS = ("l", "G", "\x1b[F")
QUIT_KEYS = ("q", "\x1b", "\x03", "\x04")
HELP_KEYS = ("?", "h")
KEYS_LINE = "[dim]n / Enter / →: next   p / ←: back   f: first   l: last   ?: legend   q: quit[/]"


@dataclass
class Replay:
    """A record replayed: every state, and how each move and chapter reads for ``seat``
    (None: a spectator after the game, who may see every move)."""

    record: GameRecord
    states: list[State[Any]]
    seat: Player | None = None

    @property
    def game(self) -> Game:
        """The game the record is of."""
        return self.states[0].game

    def move_text(self, number: int) -> Text:
        """Move ``number`` (from 1) as one line: who moved, and what as ``seat`` may know."""
        player, text = self.record.moves[number - 1]
        before = self.states[number - 1]
        line = Text(f"{number:3}. {seats_text(self.game, [player])}: ")
        if self.seat is None or not secret(before, player):
            return line.append_text(move_log.move_words(before, player, text))
        if reveals(before, self.states[number]):
            line.append(f"has chosen; {move_log.ALL_REVEALED}")
            choices = [
                (self.states[k - 1], *self.record.moves[k - 1])
                for k in decision_moves(self.states, number)
            ]
            for said in move_log.revealed(choices, margin="   "):
                line.append("\n").append_text(said)
            return line
        if player != self.seat:
            return line.append(move_log.HIDDEN_CHOICE, style="italic")
        return line.append_text(move_log.move_words(before, player, text))

    def heading(self, number: int) -> Text | None:
        """The heading line that position ``number`` (0: the start) opens, if any."""
        before = self.states[number - 1] if number > 0 else None
        return move_log.heading(before, self.states[number])

    def board(self, number: int) -> RenderableType:
        """The board after move ``number`` as ``seat`` saw it (a spectator's if None)."""
        return self.game.render(self.states[number], self.seat)

    def position(self, number: int) -> RenderableType:
        """The whole screen for position ``number``: where we are, the move, the board."""
        total = len(self.record.moves)
        parts: list[RenderableType] = [game_banner(self.game, self.record.seed, self.record.seats)]
        where = "the start" if number == 0 else f"after move {number} of {total}"
        who = "" if self.seat is None else f", as {seats_text(self.game, [self.seat])} saw it"
        parts.append(Text(f"Replay: {where}{who}", style="bold"))
        heading = self.heading(number)
        if heading is not None:
            parts.append(heading)
        if number > 0:
            parts.append(self.move_text(number))
        parts.append(self.board(number))
        return Group(*parts)


def print_all(replay: Replay, step: bool) -> None:
    """Every move in order (with the board after each when ``step``), then the last board."""
    for number in range(len(replay.states)):
        if number > 0:
            console.print(replay.move_text(number))
            if step:
                console.print(replay.board(number))
        heading = replay.heading(number)  # what the moves after this one belong to
        if heading is not None:
            console.print(heading)
    console.print(replay.board(len(replay.states) - 1))


def step_through(replay: Replay, read_key: ReadKey, start: int = 0) -> int:
    """Show one position at a time and move with keys until ``q``; returns the last shown."""
    last = len(replay.states) - 1
    number = start
    note = ""
    while True:
        console.clear()
        console.print(replay.position(number))
        if note:
            console.print(note)
        console.print(KEYS_LINE)
        note = ""
        try:
            key = read_key()
        except (EOFError, KeyboardInterrupt):
            return number
        if key in QUIT_KEYS:
            return number
        if key in NEXT_KEYS:
            if number == last:
                note = "[yellow]This is the last position.[/]"
            number = min(number + 1, last)
        elif key in BACK_KEYS:
            if number == 0:
                note = "[yellow]This is the start.[/]"
            number = max(number - 1, 0)
        elif key in FIRST_KEYS:
            number = 0
        elif key in LAST_KEYS:
            number = last
        elif key in HELP_KEYS:
            console.clear()
            print_legend(replay.game)
            console.print("[dim]Any key to go back.[/]")
            try:
                read_key()
            except (EOFError, KeyboardInterrupt):
                return number
        else:
            note = f"[yellow]{key!r} is not a key of the replay.[/]"


def _lab_game(
    run: str, number: str, db: str, typed: list[str]
) -> tuple[GameRecord, list[State[Any]]]:
    """Game ``number`` of the lab run ``run`` as a record and its states, checked to be the
    game the run counted (its moves replay to the returns and scores the run stored), on
    the files the run read (as the results database keeps them, where they were edited
    since); the record names the files as the run did."""
    from meeple.store import ResultStore, sqlite_file

    if typed:
        raise MeepleError(
            f"a lab run's game takes its options from the run; {typed[0]!r} is not needed"
        )
    try:
        index = int(number)
    except ValueError:
        raise MeepleError(
            f"--game {number!r}: give the game's number in the run (0, 1, ...), as "
            "`meeple results RUN` and the run's report name them"
        ) from None
    if (file := sqlite_file(db)) is not None and not file.exists():
        raise MeepleError(f"no run {run!r}: there is no results database {file}")
    store = ResultStore(db)
    found, row = find_game(store, run, index)
    with as_played(store, [row]) as (played,):
        problems = replay_differences(played)
        if problems:
            raise MeepleError(
                f"game {index} of run {found['key']} does not replay to what the run counted: "
                + "; ".join(problems)
            )
        states = game_record(played).states()
    kept = " (its files as the run read them, kept in the results database)"
    # "game 1 of 20" read as the first of twenty (a terminal newcomer's finding): the games
    # are numbered from 0, as the lab's lists of games to look at number them.
    console.print(
        f"Run {found['key']} ({found['kind']} of {found['game']}), game {index} (games 0 to "
        f"{found['games'] - 1}): seed {row['seed']}; it replays to the result the run counted"
        f"{kept if played is not row else ''}."
    )
    return game_record(row), states


def replay_command(
    ctx: typer.Context,
    record: Annotated[
        str,
        typer.Argument(
            help="a game record written by meeple play --save, or with --game a lab run's key "
            "(or its first letters)"
        ),
    ],
    number: Annotated[
        str | None,
        typer.Option(
            "--game",
            metavar="N",
            help="replay game N of the lab run whose key (or first letters) is given instead "
            "of a record",
        ),
    ] = None,
    step: Annotated[
        bool, typer.Option("--step", help="with --all (or no terminal): the board after every move")
    ] = False,
    seat: Annotated[
        int | None, typer.Option(help="show only what this seat saw (0 is the first seat)")
    ] = None,
    all_moves: Annotated[
        bool,
        typer.Option(
            "--all", help="print every move at once, without stepping (what a script gets)"
        ),
    ] = False,
    save: Annotated[
        Path | None,
        typer.Option(
            help="also write the game's record to this file (for the browser's replay page)"
        ),
    ] = None,
    db: Annotated[
        str, typer.Option(help="with a run: SQLAlchemy URL of the results database")
    ] = DEFAULT_URL,
) -> None:
    """Replay a saved game, or a game of a lab run (RUN --game N), step by step or all at once.

    Step with keys at a terminal, or print every move (--all).

    meeple replay game.json replays a record; meeple replay RUN --game 17 replays game 17 of
    the lab run RUN (its key from meeple simulate or meeple results), checked to end as the
    run counted it.

    Keys: n / Enter / right arrow next, p / left arrow back, f first, l last, ? legend, q quit.

    A file option (--ranking PATH, --content DIR) is read only where typed here, never from
    the record; a lab run's game reads the files the run named, refused if they have changed.
    """
    try:
        if number is not None:
            rec, states = _lab_game(record, number, db, list(ctx.args))
        else:
            source = f"the record {record}"
            record = str(history_file(record))
            if not Path(record).exists():
                raise MeepleError(
                    f"{no_such_game(record)}; to replay game K of a lab run give the run's key "
                    "and the game's number: meeple replay RUN --game K"
                )
            rec = with_typed_files(GameRecord.load(record), list(ctx.args), source)
            states = rec.states()
        game = states[0].game
        if seat is not None and not 0 <= seat < game.num_players:
            raise MeepleError(
                f"--seat {seat}: {game.title} has seats 0 to {game.num_players - 1} here"
            )
        if number is not None and states[-1].is_over:
            rec = rec.model_copy(update={"result": states[-1].result})
        if save is not None:
            rec.save(save)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    if save is not None:
        console.print(f"Saved the record to {escape(str(save))}.")
    replay = Replay(rec, states, seat)
    if not all_moves and console.is_terminal and sys.stdin.isatty():
        step_through(replay, typer.getchar)
    else:
        # A lab game read from kept files: the banner names the files as the run did.
        shown = rec.options if number is not None else None
        console.print(game_banner(game, rec.seed, rec.seats, shown))
        print_all(replay, step)
    final = states[-1]
    if rec.result is not None and final.is_over and not result_agrees(rec.result, final):
        console.print("[yellow]warning:[/] the stored result differs from the replayed one")
    if not final.is_over:
        console.print(
            match_ending(rec, game)
            or f"The game is not over ({counted(len(rec.moves), 'move')} so far)."
        )


def match_ending(record: GameRecord, game: Game[Any, Any, Any]) -> Text | None:
    """How a game server's match ended before its game did (a seat resigned, the match
    called off or expired), as the record's result says: None where it says nothing so,
    or says it in words that are not one printable line (the record is a file from outside,
    and its words go to the terminal)."""
    result = record.result or {}
    reason, winners = result.get("reason"), result.get("winners")
    if not record.ended_early() or not isinstance(reason, str) or unprintable(reason):
        return None
    seats = range(game.num_players)
    if not isinstance(winners, list) or not all(type(p) is int and p in seats for p in winners):
        return None
    won = f"{seats_text(game, winners)} won" if winners else "nobody won"
    moves = counted(len(record.moves), "move")
    return Text(
        f"The match ended after {moves}, before its game did: {shorten(reason, 200)}; {won}."
    )


__all__ = ["Replay", "match_ending", "print_all", "replay_command", "step_through"]
