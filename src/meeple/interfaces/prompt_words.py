"""What a person may type at ``meeple play``'s prompt besides a move: ``help``, ``moves``,
``board``, ``undo`` and the words games and solvers add (``hint``, ``legend``), and the
take-back rules ``undo`` follows.

Words come from a small registry: a game or a solver adds its own with
:func:`prompt_command` (see its docstring).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rich.markup import escape

from meeple.core.errors import MeepleError
from meeple.core.game import Game, Player, State
from meeple.core.record import Playthrough
from meeple.core.registry import game_class
from meeple.core.rng import make_rng
from meeple.core.simultaneous import hidden_from_others
from meeple.core.words import counted
from meeple.interfaces.console import console, print_wrapped
from meeple.interfaces.launcher import QUIT_WORDS, Quit


# -- words the prompt understands -------------------------------------------------------------
@dataclass
class Turn:
    """A human seat's turn at the prompt: what a prompt command may look at or change."""

    play: Playthrough
    """The game so far; a command that changes it (undo) replaces its state and moves."""
    player: Player
    """The seat whose turn it is."""
    humans: tuple[Player, ...]
    """Every seat played by a person at this terminal."""


@dataclass(frozen=True)
class PromptCommand:
    """A word the human prompt understands besides a move (``help``, ``undo``, ``hint``)."""

    names: tuple[str, ...]
    """What a person types (the first is the one ``help`` shows); lower case."""
    help: str
    """A few words for the ``help`` list."""
    run: Callable[[Turn, str], bool]
    """Does the command; gets the turn and the rest of the line after the word. Returns True
    when the turn is over (the state changed: the loop looks again at who is to act)."""
    games: tuple[str, ...] = ()
    """The games (registry names) it is for; empty: every game."""

    def applies(self, game: Game) -> bool:
        """Whether the command is offered in ``game``."""
        return not self.games or game.name in self.games


_COMMANDS: list[PromptCommand] = []


def prompt_command(
    *names: str, help: str, games: tuple[str, ...] = ()
) -> Callable[[Callable[[Turn, str], bool]], Callable[[Turn, str], bool]]:
    """Register a word for the human prompt (a decorator). How a game or solver adds one::

        from meeple.interfaces.prompt_words import Turn, prompt_command

        @prompt_command("hint", help="the solver's best move", games=("edges",))
        def hint(turn: Turn, rest: str) -> bool:
            console.print(...)  # look at turn.play.state, turn.player
            return False  # the person still has to move

    The module defining it must be imported by the ``meeple`` command (``cli.py``
    imports the interface modules). A name already taken raises ValueError.
    """

    def register(run: Callable[[Turn, str], bool]) -> Callable[[Turn, str], bool]:
        taken = {n for c in _COMMANDS for n in c.names if not c.games or set(c.games) & set(games)}
        clash = taken & set(names) | (set(names) & set(QUIT_WORDS))
        if clash:
            raise ValueError(f"prompt command {sorted(clash)} is already taken")
        _COMMANDS.append(PromptCommand(tuple(n.lower() for n in names), help, run, games))
        return run

    return register


@contextlib.contextmanager
def input_end_quits() -> Iterator[None]:
    """Around a prompt's read: the end of the input (EOF) or Ctrl-C there quits the game,
    what follows printed below the prompt's line."""
    try:
        yield
    except (EOFError, KeyboardInterrupt):
        console.print()  # the input ended on the prompt's line: what follows, below
        raise Quit from None


def prompt_commands(game: Game) -> list[PromptCommand]:
    """The commands offered in ``game``, in the order they were registered."""
    return [c for c in _COMMANDS if c.applies(game)]


def offered_elsewhere(word: str, game: Game) -> str:
    """Where a word typed at ``game``'s prompt is a command of other games only ('hint' is
    Edges'), a clause saying so for the refusal, which alone would read as if the word were
    a bad move; "" otherwise."""
    games = sorted(
        {g for c in _COMMANDS if word in c.names and not c.applies(game) for g in c.games}
    )
    if not games:
        return ""
    titles = " and ".join(game_class(g).title for g in games)
    return f"; {word} is a command in {titles} only"


@prompt_command("help", "?", help="how to write a move, and these commands")
def _help(turn: Turn, rest: str) -> bool:
    game = turn.play.game
    words = ", ".join(f"{c.names[0]} ({c.help})" for c in prompt_commands(game))
    console.print(f"{escape(game.notation_help())}.\nCommands: {escape(words)}, quit.")
    for command in prompt_commands(game):
        if "legend" in command.names:  # the marks on the board, explained with the rest
            command.run(turn, "")
    return False


@prompt_command("moves", help="list the legal moves")
def _moves(turn: Turn, rest: str) -> bool:
    moves = [str(a) for a in turn.play.state.legal_actions(turn.player)]
    console.print(escape(describe_moves(moves, console.width)))
    return False


@prompt_command("board", help="show the board")
def _board(turn: Turn, rest: str) -> bool:
    console.print(turn.play.game.render(turn.play.state, turn.player))
    return False


@prompt_command("undo", "takeback", help="take back your last move, against agents")
def _undo(turn: Turn, rest: str) -> bool:
    try:
        undone = take_back(turn.play, turn.player, turn.humans)
    except UndoRefused as exc:
        print_wrapped(f"[yellow]Cannot take back:[/] {escape(str(exc))}.")
        return False
    replies = len(undone) - 1
    also = f" and {counted(replies, 'move')} after it" if replies else ""
    console.print(f"Took back your move [bold]{escape(undone[0][1])}[/]{also}.")
    return True


# -- undo ---------------------------------------------------------------------------------------
class UndoRefused(MeepleError):
    """A take-back is not allowed now; the message says why."""


UNDO_SAMPLES = 16
"""Determinizations a take-back is checked against: each must see exactly what the
person saw, or something hidden was revealed since the move."""


def why_no_take_back(states: list[State], moves: list[tuple[Player, str]], player: Player) -> str:
    """Why taking back ``moves`` (played from ``states[0]``, giving ``states[1:]``) would let
    ``player`` use something they learnt since: empty when it would not.

    A simultaneous decision among them revealed (or will reveal) the others' choices. With
    hidden information, the moves are replayed from states ``player`` could not tell from
    ``states[0]`` (determinizations: other hands, deck orders and future dice); if any replay
    looks different to ``player``, a card drawn, a die rolled or a hidden card played showed
    them something they did not know when they moved.
    """
    if any(hidden_from_others(s) for s in states[:-1]):
        return (
            "a simultaneous decision was made since your move, and its choices are (or will "
            "be) revealed; taking it back would let you choose again knowing them"
        )
    game = states[0].game
    if game.perfect_information:
        return ""
    seen = [s.view(player) for s in states[1:]]
    rng = make_rng(0, "undo", len(moves))
    for _ in range(UNDO_SAMPLES):
        state = states[0].determinize(player, random.Random(rng.getrandbits(64)))
        try:
            for (seat, text), view in zip(moves, seen, strict=True):
                state = state.apply_text(seat, text)
                if state.view(player) != view:
                    raise MeepleError("differs")
        except MeepleError:
            return (
                "something hidden from you has been shown since your move (a card drawn, a "
                "die rolled or a hidden card played); taking it back would let you use it"
            )
    return ""


def take_back(
    play: Playthrough, player: Player, humans: tuple[Player, ...]
) -> list[tuple[Player, str]]:
    """Take back ``player``'s last move and every move since, by replaying the record
    without them; returns the moves taken back. UndoRefused says why not."""
    if len(humans) > 1:
        raise UndoRefused(
            f"undo is for games against agents, and {len(humans)} people play at this "
            "terminal (taking back a move changes the game for the others too)"
        )
    mine = [k for k, (seat, _) in enumerate(play.moves) if seat == player]
    if not mine:
        raise UndoRefused("you have not moved yet in this game")
    first = mine[-1]
    record = play.record(pending=True)
    states = record.states()
    undone = list(play.moves[first:])
    reason = why_no_take_back(states[first:], undone, player)
    if reason:
        raise UndoRefused(reason)
    rebuilt = Playthrough.from_record(record.model_copy(update={"moves": play.moves[:first]}))
    play.state, play.moves, play.secret_from = rebuilt.state, rebuilt.moves, rebuilt.secret_from
    return undone


def describe_moves(moves: list[str], width: int = 80) -> str:
    """Legal moves for a person: grouped by their first word when that makes a short list;
    lines fit in ``width`` columns and break between moves, never inside one."""
    groups: dict[str, list[str]] = {}
    for move in moves:
        head, _, rest = move.partition(" ")
        groups.setdefault(head, []).append(rest)
    rests = [rest for g in groups.values() for rest in g]
    title = f"{counted(len(moves), 'legal move')}:"
    if len(groups) * 2 > len(moves) or any(not rest or " " in rest for rest in rests):
        items = [f"{move}," for move in moves[:-1]] + moves[-1:]
        return "\n".join(_fill(title, items, width, "  "))
    lines = [f"{title[:-1]} (each line: its first word, then one of the others):"]
    for head, group in groups.items():
        lines += _fill(f"  {head}", group, width, "    ")
    return "\n".join(lines)


def _fill(first: str, items: list[str], width: int, indent: str) -> list[str]:
    """``first`` then ``items`` separated by spaces, in lines of at most ``width`` columns
    (an item longer than a line has one to itself); lines after the first are indented."""
    lines = [first]
    for item in items:
        if len(lines[-1]) + 1 + len(item) > width and lines[-1].strip():
            lines.append(indent + item)
        else:
            lines[-1] += f" {item}"
    return lines


__all__ = [
    "PromptCommand",
    "Turn",
    "UndoRefused",
    "describe_moves",
    "input_end_quits",
    "offered_elsewhere",
    "prompt_command",
    "prompt_commands",
    "take_back",
    "why_no_take_back",
]
