"""``--help`` that lists a game's options, for commands whose first argument is a game.

``meeple play`` and the lab commands take the game's options as flags after the game
(``meeple simulate squad-combat --content my-squad``), which click cannot list among the
command's own: they depend on the game. :class:`GameOptionsCommand` ends the help with
them, read from the game's option schema: ``meeple simulate squad-combat --help`` lists
Squad Combat's options, each with its default, what it allows and what it means; ``meeple
simulate --help`` lists every game's option flags.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape

from meeple.core.errors import MeepleError
from meeple.core.options import describe_options, shown_default
from meeple.core.registry import game_class, games
from meeple.interfaces.help_labels import Command
from meeple.interfaces.options_cli import flag

if TYPE_CHECKING:
    # typer bundles its own click (typer._click): its commands are handed that click's Context.
    from typer._click.core import Context

_ARGS = "meeple.command_args"
"""Where :meth:`GameOptionsCommand.parse_args` keeps the words typed, for the help."""


def game_options_epilog(words: list[str], command: str) -> str:
    """The help's last part: the options of the first game named in ``words`` (each a
    paragraph: flag, default, allowed values, meaning), or every game's option flags when
    no game is named. Rich markup, escaped: option texts hold brackets (``[[cards]]``)."""
    cls = None
    for word in words:
        # The first word that names a game (an option's value may come before it).
        if not word.startswith("-"):
            try:
                cls = game_class(word)
                break
            except MeepleError:
                continue
    if cls is None:
        like_play = "" if command == "play" else ", as for meeple play"
        lines = [
            f"Game options follow the game{like_play}; meeple {command} GAME --help lists "
            "them with their values:"
        ]
        for info in games():
            flags = " ".join(flag(o.name) for o in info.options)
            lines.append(f"{info.name}: {flags}")
        return "\n\n".join(escape(line) for line in lines)
    lines = [f"Options of {cls.title}, given after the game (--name value):"]
    for o in describe_options(cls.Options):
        lines.append(f"{flag(o.name)}  (default {shown_default(o)}; allowed: {o.allowed}) {o.help}")
    return "\n\n".join(escape(line) for line in lines)


class GameOptionsCommand(Command):
    """A command whose first argument is a game and whose ``--help`` ends with that
    game's options (every game's flags when no game is given)."""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        """Keep the words typed: ``--help`` is answered while they are parsed, before the
        game argument is read."""
        ctx.meta[_ARGS] = list(args)
        return super().parse_args(ctx, args)

    def format_help(self, ctx: Context, formatter: Any) -> None:
        """The command's help, then the game's options."""
        self.epilog = game_options_epilog(ctx.meta.get(_ARGS, []), self.name or "simulate")
        super().format_help(ctx, formatter)
