"""The terminal every command module prints to: errors, clearing it, timed reads, and the
indicator shown while an agent thinks."""

from __future__ import annotations

import contextlib
import os
import re
import select
import sys
import time
from collections.abc import Iterator
from typing import IO, Any

import typer
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.live import Live
from rich.markup import escape
from rich.spinner import Spinner
from rich.table import Table
from rich.text import Text

from meeple.agents import AgentSpec, available_agents
from meeple.agents.spec import coerce_params
from meeple.core.game import Game
from meeple.core.text import visible

console = Console(highlight=False)

WIPE = "\x1b[2J\x1b[3J\x1b[H"
"""Clear the screen (2J), the terminal's scrollback (3J), and go to the top (H)."""


def print_markdown(text: str) -> None:
    """Show Markdown (a game's rules, its legend) at the terminal."""
    # Imported here: the Markdown renderer and its highlighter are a tenth of the start of
    # every command, and only the rules and the legend print Markdown.
    from rich.markdown import Markdown

    console.print(Markdown(text))


def text_table(
    title: str,
    headers: list[str],
    rows: list[list[str]],
    whole: int = 0,
    widths: list[int | None] | None = None,
) -> Table:
    """A table of plain text (a person's labels, a game's words: never read as Rich
    markup). The first ``whole`` columns are never broken; in the others a cell too wide
    for the terminal folds onto more lines instead of being cut to an ellipsis, so two
    long labels that differ at their end still differ on the screen. ``widths`` fixes a
    column's width where it is not None (Rich never narrows such a column)."""
    table = Table(title=escape(title))
    for k, header in enumerate(headers):
        width = widths[k] if widths else None
        table.add_column(escape(header), no_wrap=k < whole, overflow="fold", width=width)
    for row in rows:
        table.add_row(*(escape(cell) for cell in row))
    return table


def print_table(
    title: str,
    headers: list[str],
    rows: list[list[str]],
    whole: int = 1,
    prose: tuple[int, ...] = (),
    out: Console | None = None,
    labelled: tuple[int, ...] = (),
) -> None:
    """Print a table of plain text whose cells are never broken mid-word: each cell whole,
    except in the ``prose`` columns (by index), which wrap between words. Where the
    terminal is too narrow for that (nine columns of figures with intervals at 80 columns
    folded a number onto four lines, '[3.00' ',' '3.00]'), each row is a block instead: its
    first ``whole`` cells as a heading (those of the ``labelled`` columns after their
    header: ``seat 0``), then one ``header: value`` line per column."""
    out = out or console
    wrapping = {k % len(headers) for k in prose} - set(range(whole))
    cells = [
        max(
            (
                cell_len(word)
                for text in (row[k] for row in rows)
                for word in (text.split() if k in wrapping else [text])
            ),
            default=1,
        )
        for k in range(len(headers))
    ]

    def longest_word(header: str) -> int:
        return max(map(cell_len, header.split()), default=1)

    # A header on one line where there is room for it, else wrapped between its words.
    for head in (cell_len, longest_word):
        widths = [
            max(width, (longest_word if k in wrapping else head)(header))
            for k, (width, header) in enumerate(zip(cells, headers, strict=True))
        ]
        if sum(widths) + 3 * len(headers) + 1 <= out.width:  # a cell's padding and rule: 3
            break
    else:
        widths = []
    if widths:
        # A column of whole cells has its width (its header wraps within it); the prose
        # columns share what is left, between words.
        fixed = [None if k in wrapping else width for k, width in enumerate(widths)]
        out.print(text_table(title, headers, rows, whole, fixed))
        return
    named = max(whole, 1)
    out.print(Text(title, style="italic"))
    for row in rows:
        # A bare number ("0") lost its meaning with the table's header row: "seat 0".
        heads = [f"{headers[k]} {c}" if k in labelled else c for k, c in enumerate(row[:named])]
        out.print(Text(" · ".join(heads), style="bold"))
        for header, cell in zip(headers[named:], row[named:], strict=True):
            out.print(Text(f"  {' '.join(header.split())}: {cell}"))


def print_wrapped(markup: str, command: str | None = None, out: Console | None = None) -> None:
    """Print a sentence (Rich markup) wrapped between words at the console's width, as the
    rest of a screen is, then ``command`` (plain text: one a person copies) whole on a line
    of its own.

    A word longer than a line (a path) is set on a line of its own and left whole for the
    terminal to fold, never folded or cut by Rich. The command is not wrapped: a command
    parted between two lines would be copied as two, and the first run alone when pasted.
    """
    out = out or console
    # soft_wrap alone, as these lines had, leaves the wrapping to the terminal, which cuts
    # words at its last column ("this allocat" / "ion uses 6"); Rich's own wrapping folds a
    # word longer than a line, and its overflow "ignore" does not wrap at all.
    lines = Text.from_markup(markup).split("\n", allow_blank=True)
    parted = [part for line in lines for part in line.divide(_word_breaks(line.plain, out.width))]
    for part in parted:
        part.rstrip()
    out.print(Text("\n").join(parted), soft_wrap=True)
    if command is not None:
        out.print(Text(command), soft_wrap=True)


def _word_breaks(line: str, width: int) -> list[int]:
    """Where to part ``line`` so that each part fits ``width`` cells, between words only: a
    word longer than ``width`` is a part of its own, whole."""
    breaks: list[int] = []
    used = 0  # the cells of the part so far, the blanks after its last word included
    for word in re.finditer(r"\S+\s*", line):
        if used and used + cell_len(word.group().rstrip()) > width:
            breaks.append(word.start())
            used = 0
        used += cell_len(word.group())
    return breaks


def print_error(message: str) -> None:
    """Print an error for a person, unwrapped, so it can be copied."""
    # Messages quote what a person typed, or a file sent to them: escaped, "[/]" in it is
    # shown instead of read as Rich markup (which would raise instead of reporting), and a
    # terminal escape is shown instead of acted on.
    console.print(f"[bold red]error:[/] {escape(visible(message))}", soft_wrap=True)


def print_note(text: str) -> None:
    """Print a note on what a command was given: allowed, said in case it is not meant."""
    console.print(f"[bold]Note:[/] {escape(text)}.", soft_wrap=True)


def fail(message: str) -> typer.Exit:
    """Print an error (:func:`print_error`) and return the exit that ends the command."""
    print_error(message)
    return typer.Exit(code=2)


def wipe(out: Console | None = None) -> None:
    """Clear the screen and the scrollback, so that what was shown cannot be scrolled back to.

    Rich's ``clear()`` clears only the visible screen (and nothing when the output is not a
    terminal); a secret must leave the scrollback too, so the codes are always written.
    """
    out = out or console
    out.file.write(WIPE)
    out.file.flush()


def _terminal_fd(stream: IO[str]) -> int | None:
    """The file descriptor of ``stream`` when it is a terminal that select() can watch."""
    if os.name == "nt":
        return None
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None
    return fd if os.isatty(fd) else None


_LONGEST_SELECT = 86400.0
"""The longest single wait handed to select() (a day): every platform's time_t holds it."""


def read_within(prompt: str, seconds: float, stream: IO[str] | None = None) -> str | None:
    """A line typed within ``seconds`` (without its newline), or None when time runs out.

    Only a terminal can be waited on with a limit: typed input arrives a line at a time.
    Input that is piped or scripted (tests) has its lines ready, so it is read at once.
    EOFError at the end of the input, as ``input()`` raises.
    """
    stream = stream or sys.stdin
    fd = _terminal_fd(stream)
    if fd is None:
        return console.input(prompt)
    console.print(prompt, end="")
    deadline = time.monotonic() + max(seconds, 0.0)
    while True:
        # select() refuses a timeout past the platform's time_t (an option of 1e308 seconds
        # is a valid "no hurry"): a long wait is waited in slices.
        left = min(deadline - time.monotonic(), _LONGEST_SELECT)
        ready, _, _ = select.select([fd], [], [], max(left, 0.0))
        if ready or deadline - time.monotonic() <= 0:
            break
    if not ready:
        console.print()
        discard_typed_ahead(stream)
        return None
    line = stream.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")


def discard_typed_ahead(stream: IO[str] | None = None) -> None:
    """Forget what was typed but not yet read (a half-typed line when time ran out), so it
    is not taken as the answer to the next question."""
    fd = _terminal_fd(stream or sys.stdin)
    if fd is None:
        return
    with contextlib.suppress(ImportError, OSError):
        import termios

        termios.tcflush(fd, termios.TCIFLUSH)


class _Thinking:
    """A spinner with who is thinking and for how long; re-rendered by Live several times
    a second, so the seconds count up."""

    def __init__(self, who: str, start: float) -> None:
        self.start = start
        self.who = who
        self.spinner = Spinner("dots", style="cyan")

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        elapsed = time.monotonic() - self.start
        self.spinner.text = Text(f"{self.who} is thinking... {elapsed:.0f} s")
        yield self.spinner


@contextlib.contextmanager
def thinking(who: str, out: Console | None = None) -> Iterator[Any]:
    """Show "<who> is thinking... N s" while the block runs, and remove it when it ends.

    ``who`` is plain text (it is not read as markup). On output that is not a terminal
    nothing is shown: a log or a pipe gets only the move.
    """
    out = out or console
    indicator = _Thinking(who, time.monotonic())
    with Live(indicator, console=out, transient=True, refresh_per_second=8):
        yield indicator


def preparing_agents(game: Game[Any, Any, Any], specs: list[AgentSpec]) -> str | None:
    """What making these agents waits for, where it is more than a moment: an agent class
    says so with ``wait_to_make(game, **parameters)``, given each spec's parameters (Erd's
    agents that play the solved game: reading it back, or solving the rules first where the
    spec lets them solve)."""
    factories = available_agents(game)
    for spec in specs:
        factory = factories.get(spec.name)
        wait_to_make = getattr(factory, "wait_to_make", None)
        if factory is None or wait_to_make is None:
            continue
        parameters = coerce_params(spec, factory, spec.params)
        if (text := wait_to_make(game, **parameters)) is not None:
            return str(text)
    return None


def solver_ready() -> None:
    """Load the compiled solver before its first search, with a notice while numba compiles
    it (on first use on a machine: about 20 s, a minute when the machine is busy), so the
    wait is not in silence. Nothing is shown when it is already loaded."""
    from meeple.solvers.edges_solver import compiled_state, warm_up

    state = compiled_state()
    if state == "loaded":
        return
    if state == "cached":
        text = "loading the solver..."
    else:
        text = "compiling the solver (first use: 20 s, a minute on a busy machine)..."
        if state == "cold" and not console.is_terminal:
            console.print(text)  # a log gets the reason for the wait as a line
    with console.status(text):
        warm_up()
