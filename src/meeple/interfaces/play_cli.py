"""``meeple play``: a game at the terminal, people and agents in any seats.

The loop asks each human seat for a move at a prompt, lets agents move (with a "thinking"
indicator), runs memorise steps on a timer, hands the terminal over between people when
the next decision is secret, keeps every game in the history folder, and offers another
game when one ends.

Words the prompt understands besides moves, and the take-back rules of ``undo``, are in
:mod:`meeple.interfaces.prompt_words`.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.text import Text

from meeple.agents import HUMAN, AgentSpec, parse_spec
from meeple.agents.levels import DEFAULT_LEVEL, LEVELS, level_spec, seat_spec
from meeple.agents.spec import agent_builder
from meeple.agents.warm import compiled_ahead, compiled_job, small_specs, warm_spec
from meeple.core.agent import Agent, Observation, catch_up
from meeple.core.errors import MeepleError, RecordError
from meeple.core.game import Game, Player, State, seats_text
from meeple.core.kernel_cache import needs_compiling
from meeple.core.position import named_game, position_argument, position_game
from meeple.core.record import GameRecord, Playthrough
from meeple.core.registry import game_class, make
from meeple.core.rng import derive_seed
from meeple.core.simultaneous import chooses_again, hidden_from_others, reveals, secret
from meeple.core.words import counted
from meeple.interfaces import move_log
from meeple.interfaces.console import (
    console,
    discard_typed_ahead,
    fail,
    preparing_agents,
    print_note,
    print_wrapped,
    solver_ready,
    thinking,
    wipe,
)
from meeple.interfaces.console import read_within as terminal_read_within
from meeple.interfaces.history import (
    HISTORY_REMEDY,
    history_file,
    in_history,
    kept_file,
    new_history_path,
    no_such_game,
)
from meeple.interfaces.launcher import QUIT_WORDS, Quit, launcher
from meeple.interfaces.options_cli import option_flags, parse_option_flags, with_typed_files
from meeple.interfaces.prompt_words import (
    Turn,
    input_end_quits,
    offered_elsewhere,
    prompt_commands,
)

Read = Callable[[str], str]
"""Ask a question and return the line typed (EOFError at the end of the input)."""
ReadWithin = Callable[[str, float], "str | None"]
"""Ask a question and return the line typed within the seconds given, or None."""


# -- meeple play --------------------------------------------------------------------------------
def play_command(
    ctx: typer.Context,
    game: Annotated[
        str | None, typer.Argument(help="game to play; leave out to be asked everything")
    ] = None,
    seat: Annotated[
        list[str] | None,
        typer.Option(
            help="who plays a seat, one --seat per seat in seat order: human, random, greedy, ..."
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="seed of the game (default: random)")] = None,
    save: Annotated[
        Path | None, typer.Option(help="write the game record here after every move")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(help="continue a saved game record (and keep saving to it)")
    ] = None,
    position: Annotated[
        str | None,
        typer.Option(
            help="start from a position: the text state.position() writes, or a file holding "
            "it (the game's options come from it)"
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="show only the final position")] = False,
    history: Annotated[
        bool, typer.Option(help="keep the game in the history folder (meeple history)")
    ] = True,
    level: Annotated[
        str,
        typer.Option(
            help="how strong the agents in seats not given are: easy, medium or hard "
            "(the strongest meeple offers), or designer (the lab's agent to balance with, "
            "docs/lab.md); a --seat may also be a level"
        ),
    ] = DEFAULT_LEVEL,
) -> None:
    """Play a game in the terminal. Game options follow as flags, e.g. --board 3x3.

    Example: meeple play edges --board 3x3 --seat random --seat human --seed 7 --save game.json

    Example: meeple play erd --level medium   (you against the medium opponent)

    At the prompt: a move, or help, moves, board, legend, undo, hint, quit. Every
    game is kept in the history folder (meeple history lists them).
    """
    try:
        if resume is not None and position is not None:
            raise MeepleError("--resume continues a saved game; --position starts a new one")
        if resume is not None:
            resume = history_file(resume)
            if not resume.exists():
                raise MeepleError(no_such_game(resume))
            # File options come only from this command line, never from the record.
            # Click hands the first unknown flag to GAME when no game is named.
            typed = [game, *ctx.args] if game is not None and game.startswith("--") else ctx.args
            source = f"the record {resume}"
            record = with_typed_files(GameRecord.load(resume), list(typed), source)
            if game is not None and not game.startswith("--"):
                named = game_class(game).name
                if named != record.game:
                    raise MeepleError(
                        f"{resume} holds a game of {record.game}, not {named}; to go on with "
                        f"it: meeple play --resume {resume}"
                    )
            states = record.states()  # once: the agents catch up on them below
            play = Playthrough.from_record(record, states)
            specs = complete_seats(play.game, list(seat) if seat else list(record.seats), level)
            play.seats = specs  # the record names who plays from now on
            save = save or resume
            if save != resume:
                play.check_save_target(save)
        else:
            start = None if position is None else _start_position(position)
            flags = list(ctx.args)
            if game is not None and game.startswith("--"):  # Click's first unknown flag
                flags = [game, *flags]
                game = None
            if start is not None and game is None:  # the position names its game
                game = named_game(start)
            if game is None and flags:
                raise MeepleError(
                    f"{flags[0]} is a game's option: name the game first, as in meeple play "
                    f"edges {' '.join(flags)} (meeple games lists them)"
                )
            if game is None:
                chosen = launcher(console.input)
                if chosen is None:
                    from meeple.interfaces.serve_cli import serve_lobby

                    serve_lobby()
                    return
                game, options, specs, seed = chosen
            else:
                options = parse_option_flags(game, flags)
                specs = list(seat or [])
            g = make(game, **options) if start is None else position_game(game, start, options)
            if seed is None:
                seed = secrets.randbelow(2**31)
            specs = complete_seats(g, specs, level)
            play = Playthrough(g, seed, specs, start=start)
            # Said before the first move: played as asked, but perhaps not what was meant.
            for note in g.configuration_notes():
                print_note(note)
            if save is not None:
                play.check_save_target(save)
        agents = build_agents(play.game, specs, play.seed)
        if resume is not None:
            # Made again, each agent is told what its seat did before the game was saved.
            for player, agent in enumerate(agents):
                if agent is not None:
                    catch_up(agent, player, states, record.moves)
        if any(parse_spec(s).name == "perfect" for s in specs):
            solver_ready()  # its first move would otherwise wait silently on the compiler
        if save is not None:
            play.record().save(save)  # an unwritable place is found before anyone plays
    except MeepleError as exc:
        raise fail(str(exc)) from None
    except Quit:
        console.print("Bye.")
        return
    # A game resumed goes on in its own file of the history, not in a second one: the file
    # resumed, or the one a game played with --save was kept in beside it.
    kept_in = None
    if history and resume is not None:
        kept_in = resume if in_history(resume) else kept_file(record)
    try:
        while True:
            session = TerminalGame(
                play, agents, save=save, quiet=quiet, history=history, history_path=kept_in
            )
            kept_in = None
            if not session.run() or all(a is not None for a in agents):
                return
            next_specs = session.end_menu()
            if next_specs is None:
                return
            play = Playthrough(play.game, secrets.randbelow(2**31), next_specs)
            agents = build_agents(play.game, next_specs, play.seed)
            save = None  # --save named the first game's file; later ones go to the history
    except RecordError as exc:
        raise fail(str(exc)) from None


def complete_seats(game: Game, specs: list[str], level: str = DEFAULT_LEVEL) -> list[str]:
    """Check the seat list; missing seats go to a human (seat 0) and the agent of ``level``
    (the strongest by default); a seat given as a level name (easy, medium, hard) is that
    level's agent."""
    if len(specs) > game.num_players:
        raise MeepleError(
            f"{game.title} has {game.num_players} seats but {len(specs)} --seat were given"
        )
    default_agent = level_spec(game, level)
    out = [seat_spec(game, s) for s in specs]
    while len(out) < game.num_players:
        out.append(HUMAN if not out else default_agent)
    return out


def _start_position(position: str) -> str:
    """The text of ``--position`` (itself, or the file it names); MeepleError otherwise."""
    text = position_argument(position)
    if text is None:
        raise MeepleError(f"{position} holds no position; a saved game goes on with --resume")
    return text


def build_agents(game: Game, specs: list[str], seed: int) -> list[Agent | None]:
    """One agent per seat (None for a human), each seeded from the game's seed and its seat;
    a wait of more than a moment (Erd's solved agents) is announced while it lasts."""
    if len(specs) != game.num_players:
        raise MeepleError(f"{game.title} needs {game.num_players} seats, got {len(specs)}")
    parsed = [parse_spec(text) for text in specs]
    # Every seat is checked before a wait is announced: a typo in one seat is answered at
    # once, not after "solving Erd ... half a minute" for another seat's agent.
    builders = [None if spec.is_human else agent_builder(spec, game) for spec in parsed]
    wait = preparing_agents(game, [s for s in parsed if not s.is_human])
    if wait is not None and not console.is_terminal:
        console.print(wait)  # a log gets the reason for the wait as a line
    with console.status(wait) if wait is not None else contextlib.nullcontext():
        agents = [
            None if build is None else build(derive_seed(seed, "seat", player))
            for player, build in enumerate(builders)
        ]
    compile_first(game, [s for s in parsed if not s.is_human])
    return agents


COMPILING = "compiling the computer's search for this machine (once: up to about a minute)..."
"""Said while :func:`compile_first` compiles."""


def compile_first(game: Game, specs: list[AgentSpec]) -> None:
    """Compile what these agents run where this machine has not yet (``meeple compile`` does
    it for every agent; a fresh install has done nothing), announced: else the computer's
    first move says "thinking" for half a minute of compiling. Agents whose compiled code
    ``meeple compile`` does not know compile at their first move, as before."""
    if not specs:
        return
    known = small_specs(game.name)
    ahead = (compiled_ahead(game.name, str(spec), known) for spec in specs)
    todo = [
        small
        for small in dict.fromkeys(ahead)
        if small is not None and needs_compiling(compiled_job(game.name, small))
    ]
    if not todo:
        return
    if not console.is_terminal:
        console.print(COMPILING)  # a log gets the reason for the wait as a line
    with console.status(COMPILING):
        for small in todo:
            warm_spec(game.name, small)


def needs_hand_over(state: State, player: Player, humans: tuple[Player, ...]) -> bool:
    """Whether the terminal must be cleared and handed to ``player`` before it decides: the
    decision is simultaneous (a secret choice is being made), or ``player`` sees something
    another person at the terminal may not (its view differs from theirs)."""
    if hidden_from_others(state):
        return True
    mine = state.view(player)
    return any(state.view(other) != mine for other in humans if other != player)


@dataclass
class TerminalGame:
    """One game at the terminal, from its current state to its end (or a quit)."""

    play: Playthrough
    agents: list[Agent | None]
    save: Path | None = None
    quiet: bool = False
    history: bool = True
    read: Read = field(default=console.input)
    read_within: ReadWithin = field(default=terminal_read_within)
    at_screen: Player | None = None
    """The person who last saw the screen (for hand-overs between people)."""
    said: dict[int, tuple[State, Player, str]] = field(default_factory=dict)
    """Each move made at this terminal, by its number from 0: the state before it, the seat
    and the move, to tell a person after a hand-over what happened while they were away."""
    seen: dict[Player, int] = field(default_factory=dict)
    """For each person, how many moves had been made when their screen was last cleared."""
    on_screen: set[Player] = field(default_factory=set)
    """The people who have had the screen since it was last cleared."""
    history_path: Path | None = None
    told_how: bool = False
    """Whether the one-line guide to the prompt was shown (before a person's first move)."""
    unrevealed: list[tuple[State, Player, str]] = field(default_factory=list)
    """In a game among agents, the choices made in the simultaneous decision under way (the
    state before each, the seat, the move), shown when the rules reveal them."""

    def __post_init__(self) -> None:
        if self.history and self.history_path is None:
            self.history_path = new_history_path(self.play.game.name)

    @property
    def humans(self) -> tuple[Player, ...]:
        """The seats played by people at this terminal."""
        return tuple(p for p, a in enumerate(self.agents) if a is None)

    def run(self) -> bool:
        """Play to the end, saving after every move; False if a person quit."""
        game = self.play.game
        console.print(game_banner(game, self.play.seed, self.play.seats))
        self.tell_heading(None)
        try:
            while not self.play.state.is_over:
                player = self.play.state.to_act[0]
                agent = self.agents[player]
                made, before = len(self.play.moves), self.play.state
                opened = self.play.secret_from  # the decision under way's first move
                if agent is None:
                    self.hand_over(player)
                    seconds = game.memorise_seconds(self.play.state, player)
                    if seconds is not None:
                        self.memorise(player, seconds)
                    else:
                        console.print(game.render(self.play.state, player))
                        self.ask_human(player)
                else:
                    self.agent_moves(player, agent)
                if len(self.play.moves) == made + 1:
                    self.said[made] = (before, *self.play.moves[made])
                    self.tell_chosen_again(before, range(opened, made + 1))
                self.tell_heading(before)
                # With a person playing, every move is kept at once; a game among agents
                # only at its end (a file written per move would slow it for nothing).
                self.keep(history=bool(self.humans))
        except (Quit, KeyboardInterrupt):
            self.keep()
            # The history keeps a game stopped without --save: it goes on from there too
            # (a player who typed quit was not told the game could be taken up again).
            kept = self.save or self.history_path
            where = f"; the game so far is saved in {self.save}" if self.save else ""
            print_wrapped(
                f"Stopped after {counted(len(self.play.moves), 'move')}{escape(where)}."
                + (" Go on with:" if kept else ""),
                f"meeple play --resume {kept}" if kept else None,
            )
            self.say_kept()
            return False
        self.keep()
        console.print(game.render(self.play.state, None))
        if self.save is not None:
            console.print(f"Record saved to {escape(str(self.save))}.")
        self.say_kept()
        return True

    def keep(self, history: bool = True) -> None:
        """Write the record to --save and (with ``history``) to the history. RecordError for
        --save only: a game is not stopped because the history cannot be written."""
        record = self.play.record()
        if self.save is not None:
            record.save(self.save)
        if history and self.history_path is not None:
            try:
                # The person never chose this file: say how to choose another, or none.
                record.save(self.history_path, HISTORY_REMEDY)
            except RecordError as exc:
                console.print(f"[yellow]warning:[/] not kept in the history: {escape(str(exc))}")
                self.history_path = None

    def say_kept(self) -> None:
        """Tell where the game is kept."""
        if self.history_path is not None and not self.quiet:
            print_wrapped(f"[dim]Kept in the history: {escape(str(self.history_path))}[/]")

    def agent_moves(self, player: Player, agent: Agent) -> None:
        """Let an agent move, with a "thinking..." indicator while it decides."""
        game = self.play.game
        name = seats_text(game, [player])
        # A choice in a simultaneous decision stays secret, the last seat's too (its text
        # can carry what only it may know: a Triangle Clock hand letter).
        hidden = secret(self.play.state, player)
        start = time.monotonic()
        if self.quiet:
            action = agent.act(Observation(self.play.state, player))
        else:
            with thinking(name):
                action = agent.act(Observation(self.play.state, player))
        seconds = time.monotonic() - start
        before = self.play.state
        self.play.play(player, action)
        if self.quiet:
            return
        took = f" [dim]({seconds:.1f} s)[/]" if seconds >= 0.1 else ""
        if hidden:
            self.tell_hidden(before, player, str(action), took)
        else:
            # In the game's words (the steps the engine then took itself, too).
            words = move_log.move_words(before, player, str(action))
            console.print(Text(f"{name}: ").append_text(words), Text.from_markup(took), sep="")

    def tell_heading(self, before: State | None) -> None:
        """Among agents, the part of the game (a round, an era) the move from ``before`` began
        (None: the start); with a person seated, the board they move on says it."""
        heading = move_log.heading(before, self.play.state)
        if heading is not None and not self.humans and not self.quiet:
            console.print(heading)

    def tell_hidden(self, before: State, player: Player, text: str, took: str) -> None:
        """An agent's choice in a simultaneous decision: that it was made; in a game among
        agents, once it completes the decision, every choice the rules then reveal, in the
        log's words (with what followed: a combat, a round's result). A watcher would
        otherwise see only "has chosen" until the final board; a person seated sees the
        reveal on the board before their next choice."""
        name = escape(seats_text(self.play.game, [player]))
        last = reveals(before, self.play.state)
        if self.humans or not last:
            if not self.humans:
                self.unrevealed.append((before, player, text))
            # The choice that completes the decision hides nothing any more: the board
            # next drawn shows it with the others.
            console.print(f"{name} {'has chosen' if last else move_log.HIDDEN_CHOICE}{took}")
            return
        console.print(f"{name} has chosen{took}; {move_log.ALL_REVEALED}")
        for line in move_log.revealed([*self.unrevealed, (before, player, text)]):
            console.print(line)
        self.unrevealed.clear()

    def chose_again(self, number: int) -> bool:
        """Whether the move ``number`` (from 0) made at this terminal was made in a
        simultaneous decision and submitted nothing (a Triangle Clock mulligan:
        :func:`~meeple.core.simultaneous.chooses_again`)."""
        if number not in self.said:
            return False
        before, seat, text = self.said[number]
        return chooses_again(before, before.apply(seat, before.game.parse_action(text)))

    def tell_chosen_again(self, before: State, numbers: range) -> None:
        """With a person seated, once the move from ``before`` completes a simultaneous
        decision (whose moves are ``numbers``): the moves of it that submitted nothing (a
        Triangle Clock mulligan), in the log's words, as a replay tells them. The board
        draws the revealed choices, not these, and until now the screen said of them only
        "has chosen": the person saw a Mulligan's count go down and no word of why. Among
        agents :meth:`tell_hidden` has told the whole reveal already."""
        if not self.humans or self.quiet or not reveals(before, self.play.state):
            return
        told = [self.said[k] for k in numbers if self.chose_again(k)]
        if told:
            console.print(move_log.REVEALED_BESIDES)
            for line in move_log.revealed(told):
                console.print(line)

    def hand_over(self, player: Player) -> None:
        """Between two people at one terminal, before a secret decision: clear the screen
        and its scrollback, and wait until the next person says they are ready."""
        humans = self.humans
        if len(humans) < 2 or self.at_screen == player:
            return
        if needs_hand_over(self.play.state, player, humans):
            for person in self.on_screen:
                self.seen[person] = len(self.play.moves)
            self.on_screen = set()
            wipe()
            name = escape(seats_text(self.play.game, [player]))
            console.print(f"[bold]Pass to {name}[/]; press Enter when ready.")
            while True:
                with input_end_quits():
                    typed = self.read("").strip().lower()
                if typed in QUIT_WORDS:
                    raise Quit
                if not typed:
                    break
                # A move typed here is not taken: its player has not seen the board yet.
                console.print(f"Only Enter here (or quit): then {name} sees the board and moves.")
            self.recap(player)
        self.on_screen.add(player)
        self.at_screen = player

    def recap(self, player: Player) -> None:
        """After a hand-over, the moves made since ``player``'s screen was last cleared (the
        clearing took them off the screen), as they were shown then; secret choices are left
        out, the board shows what they revealed, but not a move that submitted nothing (a
        Triangle Clock mulligan), told once its decision is complete, as at the reveal."""
        if self.quiet:
            return
        game = self.play.game
        lines = [
            Text(f"  {seats_text(game, [seat])}: ").append_text(
                move_log.move_words(before, seat, text)
            )
            for k in range(self.seen.get(player, 0), len(self.play.moves))
            if k in self.said
            for before, seat, text in [self.said[k]]
            if not hidden_from_others(before) or (k < self.play.secret_from and self.chose_again(k))
        ]
        if lines:
            console.print("Since your last turn:")
            for line in lines:
                console.print(line)

    def memorise(self, player: Player, seconds: float) -> None:
        """A memorise step: show what to memorise until the person types 'memorised' (or
        just Enter) or the time is up; then clear the screen and its scrollback, and take
        the step's only action."""
        game = self.play.game
        legal = self.play.state.legal_actions(player)
        if len(legal) != 1:
            raise MeepleError(f"a memorise step must have exactly one action, not {len(legal)}")
        console.print(game.render(self.play.state, player))
        console.print(
            f"[bold]Memorise this.[/] The screen clears in {seconds:g} seconds, or as soon as "
            "you type 'memorised' or press Enter."
        )
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            with input_end_quits():
                typed = self.read_within("memorised? > ", left)
            if typed is None:
                console.print("Time is up.")
                break
            word = typed.strip().lower()
            if word in QUIT_WORDS:
                raise Quit
            if word in ("", "memorised", "memorized", str(legal[0]).lower()):
                break
            console.print("Type 'memorised' or press Enter when you have it in mind.")
        wipe()
        discard_typed_ahead()
        self.play.play(player, legal[0])

    def ask_human(self, player: Player) -> None:
        """Prompt until the person enters a legal action, a command that ends the turn, or
        quits; bad input never breaks."""
        game = self.play.game
        turn = Turn(self.play, player, self.humans)
        # Rich reads the prompt and every line below as markup: text from the game or from
        # the person (a move typed as "[/]") is escaped, so it is shown, never interpreted.
        name = escape(seats_text(game, [player]))
        commands = {n: c for c in prompt_commands(game) for n in c.names}
        if not self.told_how:
            self.told_how = True
            console.print("Type a move, or help (how to write one), moves (the legal ones), quit.")
        warned: str | None = None  # a move said to lose, played once typed again
        while True:
            with input_end_quits():
                text = self.read(f"{name} > ").strip()
            if not text:
                continue
            word, _, rest = text.partition(" ")
            if word.lower() in QUIT_WORDS and not rest:
                raise Quit
            command = commands.get(word.lower())
            if command is not None:
                if command.run(turn, rest.strip()):
                    return
                continue
            try:
                before = self.play.state
                action = game.parse_action(text)
                # A move that loses the game (State.move_warnings) is said first, and played
                # when typed again: a newcomer lost Erd by the mercy rule with no word before.
                warning = before.move_warnings(player).get(str(action))
                if warning is not None and warned != str(action):
                    warned = str(action)
                    print_wrapped(
                        f"[bold yellow]Careful:[/] {escape(warning)}. Type it again to play it, "
                        "or another move."
                    )
                    continue
                self.play.play(player, action)
                # Said as the notation writes it ('L h1,0'), as the record and replay have it,
                # not as typed ('l  h1,0').
                written = str(action)
                words = move_log.move_words(before, player, written)
                if words.plain != written and not hidden_from_others(before):
                    console.print(Text(f"{seats_text(game, [player])}: ").append_text(words))
                return
            except MeepleError as exc:
                elsewhere = offered_elsewhere(word.lower(), game) if not rest else ""
                print_wrapped(
                    f"[red]Not allowed:[/] {escape(str(exc) + elsewhere)}. Type help for how to "
                    "write a move."
                )

    def end_menu(self) -> list[str] | None:
        """After a game: play again (same seats or swapped), save, or quit. The seats of the
        next game, or None to stop."""
        specs = list(self.play.seats)
        swapped = specs[1:] + specs[:1]
        question = escape("Play again (a), swap seats (s), save (w) or quit (q)? [q]: ")
        while True:
            try:
                word = self.read(question).strip().lower()
            except (EOFError, KeyboardInterrupt):
                return None
            if word in ("", *QUIT_WORDS):
                return None
            if word in ("a", "again"):
                return specs
            if word in ("s", "swap"):
                console.print(escape("Seats now: " + ", ".join(swapped)))
                return swapped
            if word in ("w", "save"):
                self.save_as()
                continue
            console.print("Type a (again), s (swap seats), w (save) or q (quit).")

    def save_as(self) -> None:
        """Ask for a file and write the game's record there."""
        default = f"{self.play.game.name}-{self.play.seed}.json"
        try:
            text = self.read(escape(f"Save to [{default}]: ")).strip() or default
        except (EOFError, KeyboardInterrupt):
            return
        # A record is JSON: a name typed without a suffix ("zz") gets the record's, as the
        # default has it, so that the file says what it holds.
        if not Path(text).suffix:
            text += ".json"
        try:
            self.play.check_save_target(text)
            self.play.record().save(text)
        except MeepleError as exc:
            console.print(f"[red]{escape(str(exc))}[/]")
            return
        print_wrapped(f"Saved to {escape(text)}; replay it with:", f"meeple replay {text}")


def game_banner(
    game: Game, seed: int, seats: list[str], options: Mapping[str, Any] | None = None
) -> str:
    """One line: the game, its non-default options (``options`` where given: a record's,
    which names a file as its player did), the seed and who plays each seat."""
    flags = option_flags(dict(options) if options is not None else game.options.changed())
    levels = {spec: level for level, spec in reversed(LEVELS.get(game.name, {}).items())}
    players = "  ".join(
        f"{game.seat_name(p)}: {f'{levels[s]} ({s})' if s in levels else s}"
        for p, s in enumerate(seats)
    )
    return f"[bold]{escape(game.title)}[/] {escape(flags)}  seed {seed}  {escape(players)}"


__all__ = [
    "TerminalGame",
    "build_agents",
    "complete_seats",
    "game_banner",
    "play_command",
]
