"""``meeple content copy`` and ``meeple content check``: a game's data as a designer's files."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from meeple.core.designer import check_data, copy_data, data_flags, data_paths
from meeple.core.errors import MeepleError
from meeple.core.registry import game_class, make
from meeple.interfaces.console import console, fail, print_error
from meeple.interfaces.help_labels import Command, Group
from meeple.interfaces.web.content_sets import NAME

app = typer.Typer(
    name="content",
    cls=Group,
    help="Copy a game's shipped data (cards, decks, ranking table) into a folder to edit, "
    "and check an edited copy.",
    no_args_is_help=True,
    add_completion=False,
)

GameArg = Annotated[
    str, typer.Argument(help="squad-combat, triangle-clock or erosion: the games with data")
]
FolderArg = Annotated[Path, typer.Argument(help="the designer's folder of the data")]


@app.command("copy", cls=Command)
def copy_command(game: GameArg, folder: FolderArg) -> None:
    """Write the game's shipped data files into FOLDER (made if missing), to edit.

    A file already in FOLDER is never overwritten. Play with the copy through the option
    it prints, e.g. meeple simulate erosion --cards FOLDER/cards.json.
    """
    try:
        name = game_class(game).name
        written = copy_data(name, folder)
        flags = data_flags(name, folder)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    console.print(f"Wrote {escape(', '.join(str(p) for p in written))}.", soft_wrap=True)
    console.print(
        f"Check an edit: meeple content check {name} {escape(str(folder))}", soft_wrap=True
    )
    console.print(
        f"Play with it: meeple simulate {name} {escape(flags)}; beside the shipped data: "
        f"meeple compare {name} --variant {escape(_variant(name, folder, shipped=True))} "
        f"--variant {escape(_variant(name, folder))}",
        soft_wrap=True,
    )
    console.print(escape(_serve_words(name, folder)), soft_wrap=True)


def _serve_words(game: str, folder: Path) -> str:
    """How to offer the copy to matches in the browser: ``meeple serve --content DIR``,
    where ``DIR/<game>/<set>/`` holds it (a folder laid out so is named as it is)."""
    if folder.parent.name == game and NAME.match(folder.name):
        root = folder.parent.parent
        return (
            f"Offer it in the browser: meeple serve --content {root}; a match of {game} "
            f"asks for set:{folder.name}"
        )
    return (
        f"Offer it in the browser: put it in a folder DIR/{game}/<set>/ and start meeple "
        f"serve --content DIR; a match of {game} asks for set:<set> (docs/security.md)"
    )


def _variant(game: str, folder: Path, shipped: bool = False) -> str:
    """The data in ``folder`` as a variant of ``meeple compare``: ``content=my-squad`` (or
    ``content=default``, the shipped data)."""
    paths = data_paths(game, folder).items()
    return ",".join(f"{k}={'default' if shipped else v}" for k, v in paths)


@app.command("check", cls=Command)
def check_command(game: GameArg, folder: FolderArg) -> None:
    """Check the data in FOLDER as the game would read it: one line per problem, naming the
    file, the entry and the field, and what is allowed; exit status 1 if there is any."""
    try:
        name = game_class(game).name
        problems = check_data(name, folder)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    if problems:
        for line in problems:
            print_error(line)
        raise typer.Exit(1)
    console.print(
        f"{escape(str(folder))}: {name} plays with it ({escape(data_flags(name, folder))}).",
        soft_wrap=True,
    )
    # What the lab notes before it plays (decks of different sizes, a rank scoring more
    # than one above it), said here too: allowed, but seldom meant.
    from meeple.interfaces.lab_common import print_notes  # the lab's, loaded only here

    print_notes(make(name, **{k: str(v) for k, v in data_paths(name, folder).items()}))


__all__ = ["app", "check_command", "copy_command"]
