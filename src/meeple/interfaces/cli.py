"""The ``meeple`` command: list games, read rules, play in the terminal, replay records."""

from __future__ import annotations

import errno
import inspect
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from meeple.agents import (
    HUMAN,
    available_agents,
)
from meeple.agents.levels import (
    DESIGNER_LEVEL,
    LEVEL_NAMES,
    level_spec,
    measured,
    strongest_note,
)
from meeple.core.about import meeple_version
from meeple.core.errors import MeepleError
from meeple.core.game import shorten
from meeple.core.options import describe_options, shown_default
from meeple.core.registry import (
    RANDOM_ROLLOUT,
    game_class,
    games,
    make,
    opponent_policies,
    rollout_policies,
)
from meeple.interfaces import (
    analyse_cli,
    compare_cli,
    compile_cli,
    content_cli,
    design_cli,
    doc_text,
    history,
    lab_cli,
    levers_cli,
    play_cli,
    replay_cli,
    results_cli,
    serve_cli,
    solve_cli,
    tournament_cli,
)
from meeple.interfaces.console import console, fail, print_error, print_markdown, print_table
from meeple.interfaces.game_help import GameOptionsCommand
from meeple.interfaces.help_labels import Command, Group
from meeple.interfaces.options_cli import flag, parse_option_flags


def _os_error_line(exc: OSError) -> str:
    """What the system refused, in one line: the file it names and the system's reason."""
    names = [shorten(str(name), 80) for name in (exc.filename, exc.filename2) if name]
    reason = exc.strerror or str(exc)
    return f"cannot use {' or '.join(names)}: {reason}" if names else reason


class _Meeple(Group):
    """The ``meeple`` command, which says in one line what the system refused of a path a
    command was given, where the command itself did not.

    Each command says what was wrong with the files it is given where it reads and writes
    them, and what to give instead; before that, a question the system can refuse to answer
    passes unseen: on Python 3.11 ``Path.exists()`` raises for a name longer than the file
    system allows, and a symbolic link that loops fails where a missing file was looked for.
    Those reached the terminal as a traceback. A closed pipe (``meeple rules erd | head``)
    is left to Click, which ends the command quietly.
    """

    def invoke(self, ctx: Any) -> Any:
        """Run the command, an OSError that reaches here printed as :func:`_os_error_line`."""
        try:
            return super().invoke(ctx)
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise
            raise fail(_os_error_line(exc)) from None


app = typer.Typer(
    name="meeple",
    cls=_Meeple,
    help="Rules engines, AI opponents and a design lab for five tabletop games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # -h as well as --help: what a newcomer types first; every command inherits it.
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        console.print(f"meeple {meeple_version()}", highlight=False)
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            "-V",
            callback=_print_version,
            is_eager=True,
            help="Print meeple's version and exit.",
        ),
    ] = False,
) -> None:
    # The options every command shares, before the command's name: only --version so far.
    pass


# Commands that take a game's options as flags after the game read them from the extra words.
_EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}


# -- meeple games / rules / agents ----------------------------------------------------------
@app.command("games", cls=Command)
def games_command() -> None:
    """List the games with their players and options."""
    listed = games()
    flags = [[flag(o.name) for o in info.options] for info in listed]
    table = Table(title="meeple games")
    table.add_column("name", style="bold")
    table.add_column("game")
    table.add_column("players", max_width=9)
    # As wide as the longest flag: a narrow terminal (80 columns) wraps the summaries and
    # the players' notes, never cuts a flag a person would type.
    longest = max((len(f) for names in flags for f in names), default=0)
    table.add_column("options", min_width=longest)
    for info, names in zip(listed, flags, strict=True):
        table.add_row(
            info.name, f"{info.title}: [dim]{info.summary}[/]", info.players, " ".join(names)
        )
    console.print(table)
    console.print("Options and their values: meeple rules <name>.")


@app.command(
    "rules",
    cls=Command,
    context_settings=_EXTRA,
)
def rules_command(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="game name, e.g. edges")],
    full: Annotated[
        bool,
        typer.Option(
            "--full",
            help="the complete reference instead: the rules as implemented, every "
            "interpretation and reading",
        ),
    ] = False,
) -> None:
    """Show how to play a game, and its options.

    The rules follow the options given as flags (meeple rules erd --rules original);
    --full shows the complete reference rules, with every interpretation.
    """
    try:
        cls = game_class(game)
        played = make(game, **parse_option_flags(game, list(ctx.args)))
        text = cls.rules_markdown() if full else played.player_rules()
    except MeepleError as exc:
        raise fail(str(exc)) from None
    print_markdown(text)
    # An option's flag is what a person types: never cut. Where the table would not fit the
    # terminal unbroken (a default such as palette-swap+right-angle/mulligan at 80 columns
    # was folded mid-word onto three lines), each option is a block of whole lines.
    options = describe_options(cls.Options)
    rows = [[flag(o.name), shown_default(o), o.allowed, o.help] for o in options]
    headers = ["option", "default", "allowed", "meaning"]
    print_table(f"{cls.title} options", headers, rows, prose=(2, 3))
    if not full:
        console.print(f"The complete rules, with every interpretation: meeple rules {game} --full")
    elif ctx.args:
        # The reference is one text, of the shipped game: a designer's card file given with
        # --full would otherwise seem to be read, its edits nowhere in the tables.
        console.print(
            f"The reference above is the shipped game's, its tables of the shipped data; the "
            f"rules for {escape(' '.join(ctx.args))}: meeple rules {game} "
            f"{escape(' '.join(ctx.args))}",
            soft_wrap=True,
        )


@app.command("agents", cls=Command)
def agents_command(
    game: Annotated[str, typer.Argument(help="game whose agents to list")] = "edges",
) -> None:
    """List the agents that can take a seat in a game, with their parameters."""
    try:
        g = make(game)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    table = Table(title=f"agents for {g.title}")
    table.add_column("spec", style="bold")
    table.add_column("parameters")
    table.add_column("what it does")
    table.add_row(HUMAN, "", "a person at the prompt")
    for name, factory in available_agents(g).items():
        params = list(inspect.signature(factory).parameters.values())[1:]
        # Docstrings are plain text, not Rich markup: escaped, "[3]" in one stays visible.
        table.add_row(
            escape(name),
            escape(", ".join(f"{p.name}={p.default}" for p in params)),
            escape(doc_text.summary(factory)),
        )
    console.print(table)
    rollouts = sorted({RANDOM_ROLLOUT, *rollout_policies(g.name)})
    console.print(
        f"Search (mcts, ismcts, flat) here can roll out with rollout={', '.join(rollouts)}."
    )
    if models := opponent_policies(g.name):
        console.print(
            f"Its opponent inside the tree can be searched (opponent=search) or play a policy "
            f"(opponent={', '.join(models)}); flat's opponent chooses at random "
            "(opponent=random) or plays one of those; candidates=K and widen=W need the "
            "rollout to be one of those."
        )
    levels = Table(title=f"opponents by level in {g.title} (meeple play --level)")
    levels.add_column("level", style="bold")
    levels.add_column("agent", overflow="fold")
    for level in LEVEL_NAMES:
        named = f"{level} (the default)" if level == "hard" else level
        levels.add_row(named, escape(level_spec(g, level)))
    console.print(levels)
    designer = level_spec(g, DESIGNER_LEVEL)
    if measured(g):
        console.print("Each level beats the one below it on the ladder (docs/agents.md).")
        console.print(
            escape(
                f"For balancing in the lab, --seat {DESIGNER_LEVEL} plays {designer}, which "
                "beats the hand-written agent fast enough for hundreds of games (docs/lab.md)."
            )
        )
    else:
        # A game added from outside: nothing was measured, and medium is hard's agent.
        console.print(
            escape(
                f"meeple has not measured these levels against each other in {g.title}: "
                f"medium and hard both play {level_spec(g, 'hard')}, and --seat "
                f"{DESIGNER_LEVEL} in the lab plays {designer} (docs/new-game.md)."
            )
        )
    console.print(escape(strongest_note(g)))


# Its --help ends with the game's options, as the lab's commands' do: the variants a seed
# names (Double Edges, Erosion's Advanced Rules) are flags of meeple play GAME.
app.command("play", cls=GameOptionsCommand, context_settings=_EXTRA)(play_cli.play_command)


# -- meeple replay (interfaces/replay_cli.py) -------------------------------------------
app.command("replay", cls=Command, context_settings=_EXTRA)(replay_cli.replay_command)


# The lab's commands take the game's options after the game: their --help lists them.
_LAB: dict[str, Any] = {"context_settings": _EXTRA, "cls": GameOptionsCommand}
app.command("simulate", **_LAB)(lab_cli.simulate_command)
app.command("compare", **_LAB)(compare_cli.compare_command)
app.command("tournament", **_LAB)(tournament_cli.tournament_command)
app.command("sweep", **_LAB)(compare_cli.sweep_command)
app.command("design", **_LAB)(design_cli.design_command)
app.command("results", cls=Command)(results_cli.results_command)
app.command("cards", cls=Command)(levers_cli.cards_command)
app.command("ranking", cls=Command)(levers_cli.ranking_command)
app.command("history", cls=Command)(history.history_command)
app.command("solve", cls=Command, context_settings=_EXTRA)(solve_cli.solve_command)
app.command("analyse", cls=Command)(analyse_cli.analyse_command)
app.command("serve", cls=Command)(serve_cli.serve_command)
app.command("compile", cls=Command)(compile_cli.compile_command)
app.add_typer(content_cli.app, name="content")


def _one_line_paragraphs(commands: list[typer.models.CommandInfo]) -> None:
    """Give each command its docstring with every paragraph on one line.

    Typer's rich help keeps the single line breaks of a docstring's later paragraphs, so a
    paragraph wrapped at the source's 100 columns came out ragged in an 80-column terminal;
    unbroken, the terminal wraps it at its own width.
    """
    for command in commands:
        text = command.help or inspect.getdoc(command.callback) or ""
        command.help = "\n\n".join(p.replace("\n", " ") for p in text.split("\n\n"))


_one_line_paragraphs(app.registered_commands)


def main() -> None:
    """Entry point of the ``meeple`` command. A MeepleError no command refused itself (an
    installed game package that does not load, met while the command is set up) is printed
    in one line, as the commands print theirs."""
    try:
        app()
    except MeepleError as exc:
        print_error(str(exc))
        raise SystemExit(2) from None


__all__ = ["app", "main"]
