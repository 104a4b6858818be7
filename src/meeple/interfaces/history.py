"""Every game played at the terminal, kept as a record in a history folder, and the
``meeple history`` command that lists them."""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from meeple.agents.levels import agent_word
from meeple.agents.spec import HUMAN
from meeple.core.errors import MeepleError
from meeple.core.files import exists
from meeple.core.record import GameRecord, result_agrees
from meeple.core.words import counted
from meeple.interfaces.console import console, fail
from meeple.interfaces.options_cli import option_flags

HISTORY_ENV = "MEEPLE_HISTORY"
"""Environment variable naming the history folder (tests point it at a temporary one)."""

HISTORY_REMEDY = f"set {HISTORY_ENV} to a folder you can write to, or play with --no-history"
"""What a person can do when the history cannot be written (they never chose its file)."""

HOME_ENV = "MEEPLE_HOME"
"""Environment variable naming meeple's own folder; the history is its ``history`` folder."""


def history_dir() -> Path:
    """The folder where finished and stopped games are kept.

    ``$MEEPLE_HISTORY`` if set, else ``$MEEPLE_HOME/history``, else
    ``$XDG_DATA_HOME/meeple/history`` (``~/.local/share/meeple/history`` by default).
    """
    if folder := os.environ.get(HISTORY_ENV):
        return Path(folder).expanduser()
    if home := os.environ.get(HOME_ENV):
        return Path(home).expanduser() / "history"
    data = os.environ.get("XDG_DATA_HOME") or "~/.local/share"
    return Path(data).expanduser() / "meeple" / "history"


def new_history_path(game: str, now: dt.datetime | None = None) -> Path:
    """A file name in the history folder for a game starting now (UTC), unused so far."""
    now = now or dt.datetime.now(dt.UTC)
    folder = history_dir()
    stem = f"{now:%y%m%d-%H%M%S}-{game}"
    path = folder / f"{stem}.json"
    n = 2
    # A name the system refuses is not taken: the game goes on, and saving it warns with
    # what to do, as for a folder that cannot be written.
    while exists(path):
        path = folder / f"{stem}-{n}.json"
        n += 1
    return path


def history_file(path: str | Path) -> Path:
    """``path``, or the history's file of that name (``.json`` may be left off) when ``path``
    is a bare name that is not a file here: ``meeple history`` lists its games by name, and
    those names are what a person types to replay or resume one."""
    path = Path(path)
    try:
        if not path.exists() and path.name == str(path):
            for kept in (history_dir() / path, history_dir() / f"{path}.json"):
                if kept.is_file():
                    return kept
    except OSError:  # a name the system cannot look up (too long): the caller says so
        pass
    return path


def no_such_game(path: str | Path) -> str:
    """What to say of a record ``path`` that is neither a file nor a game of the history."""
    return f"no file {path}, here or in the history folder (`meeple history` lists its games)"


def in_history(path: Path) -> bool:
    """Whether ``path`` is a file of the history folder."""
    try:
        return path.resolve().parent == history_dir().resolve()
    except OSError:
        return False


def result_text(result: dict[str, Any] | None, moves: int) -> str:
    """The outcome in a few words: who won (or a draw) and the score, if the game has one."""
    if result is None:
        return f"unfinished ({counted(moves, 'move')})"
    winner = result.get("winner_name")
    text = f"{winner} wins" if winner else "draw"
    scores = result.get("scores") or result.get("score")
    if isinstance(scores, list) and all(isinstance(s, int | float) for s in scores):
        text += " " + "-".join(f"{s:g}" for s in scores)
    return text


@dataclass(frozen=True)
class HistoryEntry:
    """One file of the history folder, read back and checked."""

    path: Path
    record: GameRecord | None
    """The record, when the file is one and it replays to the result it states."""
    problem: str | None
    """Why the file is not believed, when it is not."""


def read_entry(path: Path) -> HistoryEntry:
    """Read a history file and verify it: a valid record whose moves replay, and whose
    stored result is the one the replay reaches (a file edited by hand is not believed)."""
    try:
        record = GameRecord.load(path)
        final = record.replay()
    except MeepleError as exc:
        return HistoryEntry(path, None, str(exc))
    if not result_agrees(record.result, final):
        return HistoryEntry(path, None, "its stored result is not the one its moves reach")
    return HistoryEntry(path, record, None)


def read_history(folder: Path | None = None) -> list[HistoryEntry]:
    """Every game in the history folder, the one last played at the end (an absent
    folder has none)."""
    folder = folder or history_dir()
    if not folder.exists():
        return []
    # iterdir, not glob: glob takes a folder it may not read for an empty one.
    files = [p for p in folder.iterdir() if p.suffix == ".json"]
    return [read_entry(p) for p in sorted(files, key=_last_written)]


def _last_written(path: Path) -> tuple[int, str]:
    # The order of play, as far as the files tell it: when each was last written.
    try:
        return path.stat().st_mtime_ns, path.name
    except OSError:
        return 0, path.name


def _date(path: Path) -> str:
    try:
        when = dt.datetime.fromtimestamp(path.stat().st_mtime)
    except OSError:
        return "?"
    return f"{when:%Y-%m-%d %H:%M}"


ONE_LINE_ROOM = 20
"""About what the date, seats and result columns take beyond their least widths when each
is on one line ("2026-12-06 07:55", "human, random", "unfinished (2 moves)"): a terminal
narrower than that holds them to their least widths."""


def history_command(
    last: Annotated[int, typer.Option(help="show the last N games (0: all)", min=0)] = 20,
) -> None:
    """List the games played at the terminal: date, game, seats, result and file.

    Every game `meeple play` starts is kept there, finished or not; replay one with
    `meeple replay FILE`, or continue it with `meeple play --resume FILE`.
    """
    folder = history_dir()
    try:
        entries = read_history(folder)
    except OSError as exc:
        raise fail(
            f"cannot read the history folder {folder}: {exc.strerror or exc}; set {HISTORY_ENV} "
            "to a folder you can read"
        ) from None
    if not entries:
        console.print(f"No games yet in {escape(str(folder))}. Play one with: meeple play")
        return
    shown = entries[-last:] if last else entries
    table = Table(
        title=f"meeple history ({len(shown)} of {counted(len(entries), 'game')})",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        # Columns parted by the box's one blank, no padding, no edges: two blanks a column
        # and the edges put the file past 80 columns.
        show_edge=False,
        padding=0,
    )
    # Widths that keep a date, a game's name ("triangle-clock"), a seat's word and
    # "unfinished" whole at 80 columns, and leave the file name room beside them.
    # The file is what a person copies to replay or resume a game: on one line and whole,
    # the other columns held to these widths where the terminal is narrow (Rich gave them
    # more, and cut the file's end).
    widest = max(len(entry.path.name) for entry in shown)
    widths = (("date", 10), ("game", 14), ("seats", 6), ("result", 10))
    narrow = console.width < sum(w for _, w in widths) + widest + len(widths) + ONE_LINE_ROOM
    for column, width in widths:
        table.add_column(
            column, min_width=width, max_width=width if narrow else None, overflow="fold"
        )
    table.add_column("file", no_wrap=True, min_width=widest)
    for entry in shown:
        rec = entry.record
        if rec is None:
            table.add_row(
                _date(entry.path), "?", "", f"[red]unreadable:[/] {escape(entry.problem or '')}",
                escape(entry.path.name),
            )  # fmt: skip
            continue
        options = option_flags(rec.options)
        table.add_row(
            _date(entry.path),
            escape(rec.game) + (f"\n[dim]{escape(options)}[/]" if options else ""),
            # Each seat in a word ("hard", not "flat:worlds=60,rollout=deep,..." folded
            # mid-word), a line each where narrow: the file holds the whole spec.
            escape(
                ("\n" if narrow else ", ").join(
                    seat if seat == HUMAN else agent_word(rec.game, seat) for seat in rec.seats
                )
            ),
            escape(result_text(rec.result, len(rec.moves))),
            escape(entry.path.name),
        )
    console.print(table)
    console.print(f"Folder: {escape(str(folder))} (set {HISTORY_ENV} to use another).")
