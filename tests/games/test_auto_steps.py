"""Issue 34.3: under ``auto_steps=false`` no engine takes a single possible choice for a
player, and taking those choices by hand plays the same game as letting the engine take
them."""

from __future__ import annotations

import random
import typing
from typing import Any

import pytest

import meeple
from meeple.core.errors import OptionError
from meeple.core.options import describe_options
from meeple.games.erosion.rules import Phase as ErosionPhase
from meeple.games.squad_combat.pieces import STEP_KINDS
from meeple.games.triangle_clock.rules import Phase as TrianglePhase

GAMES = ["edges", "erd", "erosion", "squad-combat", "triangle-clock"]


def test_every_game_has_the_option_last_in_its_list() -> None:
    """One option shared by all games (GameOptions), listed after each game's own."""
    for name in GAMES:
        game = meeple.make(name, auto_steps=False)
        assert game.options.auto_steps is False
        assert meeple.make(name).options.auto_steps is True
        infos = describe_options(type(game.options))
        assert infos[-1].name == "auto_steps"
    with pytest.raises(OptionError, match="auto_steps"):
        meeple.make("erd", auto_steps="sometimes")


def play_asking_every_step(name: str, seed: int, options: dict[str, Any]) -> tuple[Any, list]:
    """A random game under auto_steps=false: its end, and every move with whether it was
    the only choice."""
    game = meeple.make(name, auto_steps=False, **options)
    state = game.new_game(seed)
    rng = random.Random(seed)
    moves = []
    while not state.is_over:
        seat = rng.choice(state.to_act)
        legal = state.legal_actions(seat)
        action = rng.choice(legal)
        moves.append((seat, action, len(legal) == 1))
        state = state.apply(seat, action)
    return state, moves


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("erosion", {}),
        ("erosion", {"players": 3, "advanced": True}),
        ("squad-combat", {}),
        ("squad-combat", {"players": 3, "reaction_prompts": "always"}),
    ],
)
def test_single_choices_are_asked_and_change_nothing(name: str, options: dict[str, Any]) -> None:
    """Every move of a game played asking every step is either made the same way with the
    engine taking single choices, or was a single choice the engine takes there itself;
    the two games end in the same position. Single choices do come up (the option matters)."""
    singles_asked = 0
    for seed in range(12):
        end, moves = play_asking_every_step(name, seed, options)
        game = meeple.make(name, **options)
        state = game.new_game(seed)
        for seat, action, single in moves:
            if single and not (seat in state.to_act and state.legal_actions(seat) == [action]):
                singles_asked += 1  # the engine took this one by itself
                continue
            state = state.apply(seat, action)
        assert state.is_over
        assert state.result == end.result
        body = [line for line in state.position().splitlines() if not line.startswith("options")]
        other = [line for line in end.position().splitlines() if not line.startswith("options")]
        assert body[1:] == other[1:]
    assert singles_asked > 0


def steps_section(name: str) -> str:
    """The "Steps and phases" section of a game's rules.md."""
    rules = meeple.make(name).rules_markdown()
    return rules.split("## Steps and phases", 1)[1].split("\n## ", 1)[0]


def names_seen(name: str, name_of: Any, seeds: int = 15, **options: Any) -> set[str]:
    """Every step name ``name_of(state)`` gives over random games, with every step asked."""
    seen = set()
    for seed in range(seeds):
        game = meeple.make(name, auto_steps=False, **options)
        state = game.new_game(seed)
        rng = random.Random(seed)
        while True:
            seen.add(name_of(state))
            if state.is_over:
                break
            seat = rng.choice(state.to_act)
            state = state.apply(seat, rng.choice(state.legal_actions(seat)))
    return seen


@pytest.mark.parametrize(
    ("name", "options", "expected"),
    [
        ("edges", {}, {"place", "pie", "over"}),
        ("erd", {}, {"allocate", "over"}),
        ("erosion", {"players": 3, "advanced": True}, {"turn", "draw", "pay", "over"}),
        ("squad-combat", {}, {"action phase", "target choice", "die payment", "game over"}),
        ("triangle-clock", {}, {"memorise", "first", "second", "third", "over"}),
    ],
)
def test_step_names_are_one_documented_enumeration(
    name: str, options: dict[str, Any], expected: set[str]
) -> None:
    """Every step met in play (every step asked) is named in ``game.step_names``, and the
    game's rules.md lists each of those names."""
    game = meeple.make(name, **options)
    seen = names_seen(
        name, lambda s: s.step_name, seeds=4 if name == "triangle-clock" else 12, **options
    )
    assert seen <= set(game.step_names)
    assert expected <= seen
    section = steps_section(name)
    assert all(f"`{step}`" in section for step in game.step_names)


def test_the_enumerations_are_the_games_own() -> None:
    """The names come from each game's own enumeration, not a copy."""
    assert meeple.make("erosion").step_names == typing.get_args(ErosionPhase)
    assert meeple.make("squad-combat").step_names == STEP_KINDS
    assert meeple.make("triangle-clock").step_names == tuple(p.label for p in TrianglePhase)


@pytest.mark.parametrize("name", GAMES)
def test_every_rules_md_names_the_option(name: str) -> None:
    """Each game says what auto_steps does in it."""
    assert "`auto_steps`" in steps_section(name)


def random_moves(name: str, seed: int, auto_steps: bool) -> list[tuple[int, str]]:
    """Every move of a random game, picked from each seat's legal moves by a seeded stream."""
    state = meeple.make(name, auto_steps=auto_steps).new_game(seed)
    rng = random.Random(seed)
    moves = []
    while not state.is_over:
        seat = rng.choice(state.to_act)
        action = rng.choice(state.legal_actions(seat))
        moves.append((seat, str(action)))
        state = state.apply(seat, action)
    return moves


@pytest.mark.parametrize("name", GAMES)
def test_the_option_s_help_says_what_it_does_in_each_game(name: str) -> None:
    """A newcomer read Edges' help ("the engine takes a step for a player when it has a
    single possible choice") and waited for the engine to make their one legal move. Where
    no step is ever taken for a player, the help says the option changes nothing, and it
    does not (the same picks play the same moves either way); elsewhere it says what the
    engine takes."""
    infos = {i.name: i for i in describe_options(type(meeple.make(name).options))}
    nothing = infos["auto_steps"].help.startswith("changes nothing in this game")
    assert nothing == (name in ("edges", "erd", "triangle-clock"))
    assert nothing == ("changes nothing" in steps_section(name))
    if nothing:
        for seed in range(3):
            assert random_moves(name, seed, True) == random_moves(name, seed, False)
