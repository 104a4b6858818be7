"""Guided first games: a fixed deal against a scripted opponent, one prompt per rule.

A game that has a tutorial keeps it as data beside its code, ``tutorial.toml`` in the
game's package (docs/web.md, "Tutorials")::

    title = "Learn Edges"
    seed = 7                  # the fixed deal
    learner = 0               # the seat the player takes; the other seat is scripted
    opening = []              # the scripted seat's moves before the first step
    end = "closing prompt"
    [options]
    board = "2x2"
    [[step]]
    prompt = "what this step teaches"
    move = "L h0,0"           # the player's expected move, in the game's notation
    why = "why this lesson wants that move (said after another move)"
    replies = ["M h2,0"]      # the scripted seat's moves once the player has made it

The scripted seat plays its released moves (the opening, then each step's replies once
the player has made that step's move) in order, whenever it is to act; the player makes
the steps' moves. :func:`replay` plays a tutorial through the real rules and names the
first thing wrong; the server follows the same order (:func:`script_move`).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meeple.core.errors import MeepleError
from meeple.core.files import Unreadable, parse_toml
from meeple.core.game import Game, Player, State
from meeple.core.registry import game_class, make

FILE_NAME = "tutorial.toml"
"""The file a game's package keeps its tutorial in."""


class TutorialError(MeepleError):
    """A tutorial file that cannot be read, or that does not replay under the rules."""


@dataclass(frozen=True)
class Step:
    """One move the player makes, with the prompt that introduces it."""

    prompt: str
    move: str
    why: str
    replies: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tutorial:
    """A game's guided first game, as read from its ``tutorial.toml``."""

    game: str
    title: str
    seed: int
    learner: Player
    steps: tuple[Step, ...]
    end: str
    opening: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def scripted(self) -> Player:
        """The seat the script plays."""
        return 1 - self.learner

    def make_game(self) -> Game[Any, Any, Any]:
        """The game with the tutorial's options."""
        return make(self.game, **self.options)

    def released(self, player_moves: int) -> tuple[str, ...]:
        """The scripted seat's moves it may have made once the player has made
        ``player_moves`` of the steps' moves."""
        out = list(self.opening)
        for step in self.steps[:player_moves]:
            out.extend(step.replies)
        return tuple(out)

    def step_at(self, moves: list[tuple[Player, str]]) -> int:
        """The index of the step the player is at after ``moves`` (``len(steps)``: done)."""
        return sum(1 for player, _ in moves if player == self.learner)


def tutorial_path(game: str) -> Path | None:
    """Where the game called ``game`` keeps its tutorial (the file may not exist); None for
    a game class with no source file (made at run time)."""
    try:
        source = inspect.getfile(game_class(game))
    except (TypeError, OSError):
        return None
    return Path(source).parent / FILE_NAME


def has_tutorial(game: str) -> bool:
    """Whether the game called ``game`` ships a tutorial."""
    path = tutorial_path(game)
    return path is not None and path.is_file()


def _text(data: dict[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise TutorialError(f"{where}: {key!r} must be a non-empty text")
    return value.strip()


def _moves(data: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TutorialError(f"{where}: {key!r} must be a list of moves as texts")
    return tuple(value)


def parse_tutorial(game: str, text: str, where: str = FILE_NAME) -> Tutorial:
    """Read a tutorial's TOML text for ``game``; raises TutorialError naming what is wrong."""
    try:
        data = parse_toml(text)
    except Unreadable as exc:
        raise TutorialError(f"{where} is {exc}") from None
    known = {"title", "seed", "learner", "opening", "end", "options", "step"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise TutorialError(f"{where}: unknown keys {unknown}; the keys are {sorted(known)}")
    seed, learner = data.get("seed"), data.get("learner", 0)
    if not isinstance(seed, int) or seed < 0:
        raise TutorialError(f"{where}: 'seed' must be a whole number 0 or more")
    if learner not in (0, 1):
        raise TutorialError(f"{where}: 'learner' must be seat 0 or 1")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise TutorialError(f"{where}: [options] must be a table of the game's options")
    raw_steps = data.get("step", [])
    if not isinstance(raw_steps, list) or not raw_steps:
        raise TutorialError(f"{where}: a tutorial needs at least one [[step]]")
    steps = []
    for number, raw in enumerate(raw_steps, start=1):
        here = f"{where}, step {number}"
        extra = sorted(set(raw) - {"prompt", "move", "why", "replies"})
        if extra:
            raise TutorialError(
                f"{here}: unknown keys {extra}; a step has prompt, move, why, replies"
            )
        steps.append(
            Step(
                prompt=_text(raw, "prompt", here),
                move=_text(raw, "move", here),
                why=_text(raw, "why", here),
                replies=_moves(raw, "replies", here),
            )
        )
    return Tutorial(
        game=game,
        title=_text(data, "title", where),
        seed=seed,
        learner=learner,
        steps=tuple(steps),
        end=_text(data, "end", where),
        opening=_moves(data, "opening", where),
        options=options,
    )


def load_tutorial(game: str) -> Tutorial:
    """The tutorial the game called ``game`` ships; TutorialError when it has none."""
    path = tutorial_path(game)
    if path is None or not path.is_file():
        raise TutorialError(f"{game} has no tutorial")
    return parse_tutorial(game_class(game).name, path.read_text(encoding="utf-8"), path.name)


def script_move(
    tutorial: Tutorial, state: State[Any], moves: list[tuple[Player, str]]
) -> str | None:
    """The scripted seat's next move after ``moves``, if it is to act and has one released."""
    if state.is_over or tutorial.scripted not in state.to_act:
        return None
    released = tutorial.released(tutorial.step_at(moves))
    made = sum(1 for player, _ in moves if player == tutorial.scripted)
    return released[made] if made < len(released) else None


def finished(tutorial: Tutorial, state: State[Any], moves: list[tuple[Player, str]]) -> bool:
    """Whether the lesson is over: the game ended, or every step and reply was played."""
    if state.is_over:
        return True
    made = sum(1 for player, _ in moves if player == tutorial.scripted)
    return tutorial.step_at(moves) == len(tutorial.steps) and made == len(
        tutorial.released(len(tutorial.steps))
    )


def is_expected(game: Game[Any, Any, Any], step: Step, action: Any) -> bool:
    """Whether ``action`` is the move ``step`` asks for (compared in canonical notation)."""
    return str(game.parse_action(step.move)) == str(action)


def replay(tutorial: Tutorial) -> list[tuple[Player, str]]:
    """Play the tutorial through the rules to its end; returns the moves. Raises
    TutorialError naming the first move that is illegal or the place the script stalls."""
    game = tutorial.make_game()
    if game.num_players != 2:
        raise TutorialError(f"a tutorial is for two seats; {game.title} has {game.num_players}")
    state = game.new_game(tutorial.seed)
    moves: list[tuple[Player, str]] = []

    def play(player: Player, text: str, what: str) -> None:
        nonlocal state
        try:
            action = game.parse_action(text)
        except MeepleError as exc:
            raise TutorialError(f"{what}: {text!r} does not read: {exc}") from None
        why = state.why_illegal(player, action)
        if why is not None:
            legal = ", ".join(str(a) for a in state.legal_actions(player)[:12])
            raise TutorialError(f"{what}: {text!r} is not legal: {why} (legal: {legal})")
        state = state.apply(player, action)
        moves.append((player, str(action)))

    while not finished(tutorial, state, moves):
        step = tutorial.step_at(moves)
        reply = script_move(tutorial, state, moves)
        if reply is not None:
            play(tutorial.scripted, reply, f"the scripted seat's move after step {step}")
        elif tutorial.learner in state.to_act and step < len(tutorial.steps):
            play(tutorial.learner, tutorial.steps[step].move, f"step {step + 1}")
        else:
            raise TutorialError(
                f"after step {step} the game waits on seat(s) {list(state.to_act)}, "
                "and the script has no move for them"
            )
    step = tutorial.step_at(moves)
    if step < len(tutorial.steps):
        raise TutorialError(f"the game ended after step {step} of {len(tutorial.steps)}")
    return moves
