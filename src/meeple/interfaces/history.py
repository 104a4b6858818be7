"""Every game played at the terminal, kept as a record in a history folder, and the
``meeple history`` command that lists them."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.cells import cell_len
from rich.markup import escape
from rich.table import Table
from rich.text import Text

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


def kept_file(record: GameRecord) -> Path | None:
    """The history's file of this very game, where it has one: a record that
    :meth:`~GameRecord.leads_to` ``record``, the one furthest on where several do (the same
    seed played again from its start leads there too), else the last written.

    A game played with --save is kept in the history as well, as it is played: resumed from
    its --save file, it goes on in its history file, not in a second one (a finished game
    resumed so was listed twice)."""
    folder = history_dir()
    try:
        files = [p for p in folder.iterdir() if p.suffix == ".json"]
    except OSError:  # no history yet, or one that cannot be read: a file of its own
        return None
    found: list[tuple[int, tuple[int, str], Path]] = []
    for path in files:
        try:
            kept = GameRecord.load(path)
        except MeepleError:
            continue
        if kept.leads_to(record):
            found.append((len(kept.moves), _last_written(path), path))
    return max(found)[2] if found else None


def result_text(
    result: dict[str, Any] | None, moves: int, seat_name: Callable[[int], str] | None = None
) -> str:
    """The outcome in a few words: who won (or a draw) and the score, if the game has one.

    The winner is the result's ``winner_name`` where the game writes one, else its
    ``winner`` (a seat) named by ``seat_name``: docs/new-game.md asks a game's result for
    the ``winner`` only, and a game added so was listed as a draw whoever won."""
    if result is None:
        return f"unfinished ({counted(moves, 'move')})"
    winner = result.get("winner_name")
    seat = result.get("winner")
    if (
        not winner
        and seat_name is not None
        and isinstance(seat, int)
        and not isinstance(seat, bool)
    ):
        winner = seat_name(seat)
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
narrower than that lists the seats a line each."""


COLUMNS = (("date", 10), ("game", 14), ("seats", 6), ("result", 10))
"""The columns beside the file, each with the width that keeps a date, a game's name
("triangle-clock"), a seat's word and "unfinished" whole at 80 columns."""


def _row(entry: HistoryEntry, narrow: bool) -> list[Text]:
    """The cells of ``entry`` under COLUMNS; with ``narrow``, a seat a line."""
    rec = entry.record
    if rec is None:
        return [
            Text(_date(entry.path)), Text("?"), Text(""),
            Text.assemble(("unreadable:", "red"), f" {entry.problem or ''}"),
        ]  # fmt: skip
    game = Text(rec.game)
    if options := option_flags(rec.options):
        game.append(f"\n{options}", style="dim")
    # Each seat in a word ("hard", not "flat:worlds=60,rollout=deep,..." folded mid-word),
    # a line each where narrow: the file holds the whole spec.
    seats = [seat if seat == HUMAN else agent_word(rec.game, seat) for seat in rec.seats]
    return [
        Text(_date(entry.path)),
        game,
        Text(("\n" if narrow else ", ").join(seats)),
        # The game is made only for a result that names its winner by seat alone.
        Text(result_text(rec.result, len(rec.moves), lambda seat: rec.make_game().seat_name(seat))),
    ]


def _column_widths(columns: list[list[Text]], room: int) -> list[int]:
    """The widths of COLUMNS (given each column's cells) in ``room`` columns: each at least
    its longest word, so that a cell wraps between words and never parts one, where the
    room holds them all (else at least its width in COLUMNS, the longer words folded);
    what room is left goes first to the columns that need least of it to be on one line.

    Rich shares a table's width out by itself, narrowing the widest column first whatever
    its words: at 100 columns "--memorise-seconds 5.0" was folded into "--memorise-secon" /
    "ds 5.0" beside a long file name."""
    words = [
        max((cell_len(w) for c in cells for w in c.plain.split()), default=0) for cells in columns
    ]
    least = [max(word, width) for word, (_, width) in zip(words, COLUMNS, strict=True)]
    if sum(least) > room:
        least = [width for _, width in COLUMNS]
    lines = [
        max((cell_len(line) for c in cells for line in c.plain.splitlines()), default=0)
        for cells in columns
    ]
    widths = list(least)
    spare = room - sum(widths)
    for k in sorted(range(len(widths)), key=lambda k: lines[k] - widths[k]):
        given = max(0, min(spare, lines[k] - widths[k]))
        widths[k] += given
        spare -= given
    return widths


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
    # The file is what a person copies to replay or resume a game: on one line and whole,
    # the other columns given the width left beside it (Rich gave them more, and cut the
    # file's end).
    widest = max(len(entry.path.name) for entry in shown)
    narrow = console.width < sum(w for _, w in COLUMNS) + widest + len(COLUMNS) + ONE_LINE_ROOM
    rows = [_row(entry, narrow) for entry in shown]
    room = console.width - widest - len(COLUMNS)  # one blank after each of these columns
    widths = _column_widths([[row[k] for row in rows] for k in range(len(COLUMNS))], room)
    for (column, _), width in zip(COLUMNS, widths, strict=True):
        # Held to it (not width=, which Rich would narrow with every other column where
        # even the widths of COLUMNS do not fit: these columns stay readable there).
        table.add_column(column, min_width=width, max_width=width, overflow="fold")
    table.add_column("file", no_wrap=True, min_width=widest)
    for entry, row in zip(shown, rows, strict=True):
        table.add_row(*row, Text(entry.path.name))
    console.print(table)
    console.print(f"Folder: {escape(str(folder))} (set {HISTORY_ENV} to use another).")
