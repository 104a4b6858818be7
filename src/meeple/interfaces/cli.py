"""The ``meeple`` command: list games, read rules, play in the terminal, replay records."""

from __future__ import annotations

import inspect
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

from meeple.agents import (
    HUMAN,
    agent_names,
    available_agents,
    make_agent,
    parse_spec,
)
from meeple.core.agent import Agent, Observation
from meeple.core.errors import MeepleError, RecordError
from meeple.core.game import Game, Player, seats_text
from meeple.core.options import describe_options
from meeple.core.record import GameRecord, Playthrough
from meeple.core.registry import game_class, games, make
from meeple.core.rng import derive_seed
from meeple.core.simultaneous import hidden_from_others
from meeple.interfaces import doc_text, lab_cli, serve_cli, solve_cli
from meeple.interfaces.console import console, fail
from meeple.interfaces.options_cli import parse_option_flags

app = typer.Typer(
    name="meeple",
    help="Rules engines, AI opponents and a design lab for five tabletop games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class Quit(Exception):
    """The person at the prompt asked to stop (quit, or end of input)."""


# -- meeple games / rules / agents ----------------------------------------------------------
@app.command("games")
def games_command() -> None:
    """List the games with their players and options."""
    table = Table(title="meeple games")
    table.add_column("name", style="bold")
    table.add_column("game")
    table.add_column("players")
    table.add_column("options")
    for info in games():
        opts = " ".join(f"--{o.name.replace('_', '-')}" for o in info.options)
        table.add_row(info.name, f"{info.title}: [dim]{info.summary}[/]", info.players, opts)
    console.print(table)
    console.print("Options and their values: meeple rules <name>.")


@app.command("rules")
def rules_command(game: Annotated[str, typer.Argument(help="game name, e.g. edges")]) -> None:
    """Show a game's rules as implemented, and its options."""
    try:
        cls = game_class(game)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    console.print(Markdown(cls.rules_markdown()))
    table = Table(title=f"{cls.title} options")
    for column in ("option", "default", "allowed", "meaning"):
        table.add_column(column)
    for o in describe_options(cls.Options):
        table.add_row(f"--{o.name.replace('_', '-')}", str(o.default), o.allowed, o.help)
    console.print(table)


@app.command("agents")
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


# -- meeple play ----------------------------------------------------------------------------
@app.command(
    "play",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def play_command(
    ctx: typer.Context,
    game: Annotated[
        str | None, typer.Argument(help="game to play; leave out to be asked everything")
    ] = None,
    seat: Annotated[
        list[str] | None,
        typer.Option(help="who plays each seat, in seat order: human, random, greedy, ..."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="seed of the game (default: random)")] = None,
    save: Annotated[
        Path | None, typer.Option(help="write the game record here after every move")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(help="continue a saved game record (and keep saving to it)")
    ] = None,
    quiet: Annotated[bool, typer.Option(help="show only the final position")] = False,
) -> None:
    """Play a game in the terminal. Game options follow as flags, e.g. --board 3x3.

    Example: meeple play edges --board 3x3 --seat random --seat human --seed 7 --save game.json
    """
    try:
        if resume is not None:
            record = GameRecord.load(resume)
            play = Playthrough.from_record(record)
            specs = complete_seats(play.game, list(seat) if seat else list(record.seats))
            play.seats = specs  # the record names who plays from now on
            save = save or resume
            if save != resume:
                play.check_save_target(save)
        else:
            if game is None:
                game, options, specs, seed = launcher(console.input)
            else:
                options = parse_option_flags(game, list(ctx.args))
                specs = list(seat or [])
            g = make(game, **options)
            if seed is None:
                seed = secrets.randbelow(2**31)
            specs = complete_seats(g, specs)
            play = Playthrough(g, seed, specs)
            if save is not None:
                play.check_save_target(save)
        agents = build_agents(play.game, specs, play.seed)
        if save is not None:
            play.record().save(save)  # an unwritable place is found before anyone plays
    except MeepleError as exc:
        raise fail(str(exc)) from None
    except Quit:
        console.print("Bye.")
        return
    try:
        run_game(play, agents, save=save, quiet=quiet)
    except RecordError as exc:
        raise fail(str(exc)) from None


def complete_seats(game: Game, specs: list[str]) -> list[str]:
    """Check the seat list; missing seats go to a human (seat 0) and the game's best agent."""
    if len(specs) > game.num_players:
        raise MeepleError(
            f"{game.title} has {game.num_players} seats but {len(specs)} --seat were given"
        )
    default_agent = game.heuristic_agent or "random"
    out = list(specs)
    while len(out) < game.num_players:
        out.append(HUMAN if not out else default_agent)
    return out


def build_agents(game: Game, specs: list[str], seed: int) -> list[Agent | None]:
    """One agent per seat (None for a human), each seeded from the game's seed and its seat."""
    if len(specs) != game.num_players:
        raise MeepleError(f"{game.title} needs {game.num_players} seats, got {len(specs)}")
    agents: list[Agent | None] = []
    for player, text in enumerate(specs):
        spec = parse_spec(text)
        if spec.is_human:
            agents.append(None)
        else:
            agents.append(make_agent(spec, game, derive_seed(seed, "seat", player)))
    return agents


def run_game(
    play: Playthrough,
    agents: list[Agent | None],
    save: Path | None,
    quiet: bool,
    read: Callable[[str], str] | None = None,
) -> None:
    """Play to the end (or until a person quits), saving the record after every move."""
    game = play.game
    read = read or console.input
    console.print(game_banner(game, play.seed, play.seats))
    try:
        while not play.state.is_over:
            player = play.state.to_act[0]
            agent = agents[player]
            if agent is None:
                seconds = game.memorise_seconds(play.state, player)
                if seconds is not None:
                    memorise(play, player, seconds)
                    continue
                console.print(game.render(play.state, player))
                ask_human(play, player, read)
            else:
                # A choice in a simultaneous decision stays secret, the last seat's too (its
                # text can carry what only it may know: a Triangle Clock hand letter).
                hidden = hidden_from_others(play.state)
                action = agent.act(Observation(play.state, player))
                play.play(player, action)
                if not quiet:
                    console.print(
                        f"{escape(seats_text(game, [player]))} has chosen (hidden until all have)"
                        if hidden
                        else f"{escape(seats_text(game, [player]))}: [bold]{escape(str(action))}[/]"
                    )
            if save is not None:
                play.record().save(save)
    except Quit:
        where = f"; the game so far is saved in {save}" if save else ""
        console.print(f"Stopped after {len(play.moves)} moves{where}.")
        return
    console.print(game.render(play.state, None))
    if save is not None:
        console.print(f"Record saved to {save}.")


def memorise(play: Playthrough, player: Player, seconds: float) -> None:
    """Show a memorise step for ``seconds``, clear the screen, then take its only action."""
    game = play.game
    console.print(game.render(play.state, player))
    console.print(f"[bold]Memorise this.[/] The screen clears in {seconds:g} seconds.")
    time.sleep(seconds)
    console.clear()
    legal = play.state.legal_actions(player)
    if len(legal) != 1:
        raise MeepleError(f"a memorise step must have exactly one action, not {len(legal)}")
    play.play(player, legal[0])


def game_banner(game: Game, seed: int, seats: list[str]) -> str:
    """One line: the game, its non-default options, the seed and who plays each seat."""
    options = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in game.options.changed().items())
    players = "  ".join(f"{game.seat_name(p)}: {s}" for p, s in enumerate(seats))
    return f"[bold]{escape(game.title)}[/] {escape(options)}  seed {seed}  {escape(players)}"


def ask_human(play: Playthrough, player: Player, read: Callable[[str], str]) -> None:
    """Prompt until the person enters a legal action (or quits); bad input never breaks."""
    game = play.game
    # Rich reads the prompt and every line below as markup: text from the game or from
    # the person (a move typed as "[/]") is escaped, so it is shown, never interpreted.
    name = escape(seats_text(game, [player]))
    while True:
        try:
            text = read(f"{name} > ").strip()
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
        if not text:
            continue
        word = text.lower()
        if word in ("quit", "exit", "q"):
            raise Quit
        if word in ("help", "?"):
            console.print(
                f"{escape(game.notation_help())}.\nCommands: moves (list legal moves), "
                "board (show the board), help, quit."
            )
            continue
        if word == "moves":
            console.print(
                escape(describe_moves([str(a) for a in play.state.legal_actions(player)]))
            )
            continue
        if word == "board":
            console.print(game.render(play.state, player))
            continue
        try:
            play.play(player, game.parse_action(text))
            return
        except MeepleError as exc:
            console.print(
                f"[red]Not allowed:[/] {escape(str(exc))}. Type help for how to write a move.",
                soft_wrap=True,
            )


def describe_moves(moves: list[str]) -> str:
    """Legal moves for a person: grouped by their first word when that makes a short list."""
    groups: dict[str, list[str]] = {}
    for move in moves:
        head, _, rest = move.partition(" ")
        groups.setdefault(head, []).append(rest)
    rests = [rest for g in groups.values() for rest in g]
    if len(groups) * 2 > len(moves) or any(not rest or " " in rest for rest in rests):
        return f"{len(moves)} legal moves: " + ", ".join(moves)
    lines = [f"{len(moves)} legal moves:"]
    lines += [f"  {head} {' '.join(rests)}" for head, rests in groups.items()]
    return "\n".join(lines)


def launcher(read: Callable[[str], str]) -> tuple[str, dict[str, Any], list[str], int]:
    """Ask which game, which options, who plays each seat, and the seed."""
    infos = games()
    console.print("[bold]meeple[/]: choose a game.")
    for k, info in enumerate(infos, start=1):
        console.print(escape(f"  {k}. {info.title} ({info.name}): {info.players} players"))
    name = _ask(
        read,
        "Game (number or name)",
        default=infos[0].name,
        check=lambda t: infos[int(t) - 1].name if t.isdigit() else game_class(t).name,
    )
    cls = game_class(name)
    while True:
        options: dict[str, Any] = {}
        console.print("Options (Enter keeps the default):")
        for o in describe_options(cls.Options):
            console.print(f"  [dim]{escape(f'{o.name}: {o.help}')}[/]")
            text = _ask(read, escape(f"  {o.name} ({o.allowed}) [default {o.default}]"), "")
            if text:
                options[o.name] = text
        try:
            g = make(name, **options)
            break
        except MeepleError as exc:
            console.print(f"[red]{escape(str(exc))}[/]; let us try the options again.")
    choices = agent_names(g)
    specs = []
    for p in range(g.num_players):
        default = HUMAN if p == 0 else (g.heuristic_agent or "random")

        def check(t: str) -> str:
            make_agent(t, g) if parse_spec(t).name != HUMAN else None
            return t

        specs.append(
            _ask(
                read, escape(f"{g.seat_name(p)} (seat {p}): {' / '.join(choices)}"), default, check
            )
        )
    seed_text = _ask(read, "Seed (blank for a random one)", default="", check=lambda t: str(int(t)))
    seed = int(seed_text) if seed_text else secrets.randbelow(2**31)
    return name, options, specs, seed


def _ask(
    read: Callable[[str], str],
    question: str,
    default: str,
    check: Callable[[str], Any] | None = None,
) -> str:
    shown = escape(f" [{default}]") if default else ""
    while True:
        try:
            text = read(f"{question}{shown}: ").strip() or default
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
        if text.lower() in ("quit", "exit"):
            raise Quit
        if check is None or not text:
            return text
        try:
            value = check(text)
            return str(value) if value is not None else text
        except (MeepleError, ValueError, IndexError) as exc:
            console.print(f"[red]{escape(str(exc) or 'not one of the choices')}[/]")


# -- meeple replay --------------------------------------------------------------------------
@app.command("replay")
def replay_command(
    record: Annotated[Path, typer.Argument(help="a game record written by meeple play --save")],
    step: Annotated[bool, typer.Option(help="show the board after every move")] = False,
) -> None:
    """Replay a saved game move by move and show how it ended."""
    try:
        rec = GameRecord.load(record)
        states = rec.states()
    except MeepleError as exc:
        raise fail(str(exc)) from None
    game = states[0].game
    console.print(game_banner(game, rec.seed, rec.seats))
    for number, ((player, text), state) in enumerate(zip(rec.moves, states[1:], strict=True), 1):
        console.print(f"{number:3}. {escape(seats_text(game, [player]))}: [bold]{escape(text)}[/]")
        if step:
            console.print(game.render(state, None))
    final = states[-1]
    console.print(game.render(final, None))
    if rec.result is not None and final.is_over and rec.result != final.result:
        console.print("[yellow]warning:[/] the stored result differs from the replayed one")
    if not final.is_over:
        console.print(f"The game is not over ({len(rec.moves)} moves so far).")


_EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}
app.command("simulate", context_settings=_EXTRA)(lab_cli.simulate_command)
app.command("compare", context_settings=_EXTRA)(lab_cli.compare_command)
app.command("tournament", context_settings=_EXTRA)(lab_cli.tournament_command)
app.command("results")(lab_cli.results_command)
app.command("solve")(solve_cli.solve_command)
app.command("serve")(serve_cli.serve_command)


def main() -> None:
    """Entry point of the ``meeple`` command."""
    app()


__all__ = ["app", "main"]
