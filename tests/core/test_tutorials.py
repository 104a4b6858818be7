"""Every game's tutorial file replays legally through the rules (meeple.core.tutorial)."""

from __future__ import annotations

import pytest

import meeple.games  # noqa: F401  (registers the games)
from meeple.core.registry import games
from meeple.core.tutorial import (
    TutorialError,
    has_tutorial,
    load_tutorial,
    parse_tutorial,
    replay,
)

WITH_TUTORIAL = [info.name for info in games() if has_tutorial(info.name)]


def test_the_shipped_games_have_tutorials():
    assert set(WITH_TUTORIAL) == {"edges", "erd", "triangle-clock", "erosion", "squad-combat"}


@pytest.mark.parametrize("game", WITH_TUTORIAL)
def test_a_tutorial_replays_to_its_end(game):
    lesson = load_tutorial(game)
    moves = replay(lesson)
    assert sum(1 for player, _ in moves if player == lesson.learner) == len(lesson.steps)
    assert 4 <= len(lesson.steps) <= 14, "a first game is short: about 6-12 moves"
    game_obj = lesson.make_game()
    for step in lesson.steps:
        # Each why is said after a click on another move: it must not be the prompt again.
        assert step.why != step.prompt
        game_obj.parse_action(step.move)  # the notation reads
    # A move the page warns against (State.move_warnings) is one the lesson says it warns
    # of: Erd's learner was told to keep both Lights, then warned of the mercy rule unsaid.
    state, taken = game_obj.new_game(lesson.seed), 0
    for player, text in moves:
        if player == lesson.learner:
            warned = state.move_warnings(player).get(text)
            prompt = lesson.steps[taken].prompt
            assert warned is None or "warn" in prompt, (taken + 1, warned, prompt)
            taken += 1
        state = state.apply_text(player, text)


EDGES = """
title = "t"
seed = 1
end = "done"
opening = ["L v0,1"]
[options]
board = "2x2"
stash = "2/2/2"
first = 1
[[step]]
prompt = "p"
move = "{move}"
why = "w"
"""


def test_an_illegal_step_is_named():
    lesson = parse_tutorial("edges", EDGES.format(move="L v0,1"))
    with pytest.raises(TutorialError, match=r"step 1: 'L v0,1' is not legal"):
        replay(lesson)


def test_a_script_that_stalls_is_named():
    lesson = parse_tutorial(
        "edges", EDGES.format(move="pie L") + '[[step]]\nprompt = "p"\nmove = "L h0,0"\nwhy = "w"\n'
    )
    with pytest.raises(TutorialError, match="the script has no move"):
        replay(lesson)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('seed = 1\n[[step]]\nprompt = "p"\nmove = "pie L"\nwhy = "w"', "'title' must be"),
        ('title = "t"\nseed = -1\nend = "e"', "'seed' must be a whole number"),
        ('title = "t"\nseed = 1\nend = "e"\nfoo = 1', "unknown keys \\['foo'\\]"),
        ('title = "t"\nseed = 1\nend = "e"', "at least one \\[\\[step\\]\\]"),
        ("title = ", "is not TOML"),
    ],
)
def test_a_bad_file_says_what_is_wrong(text, message):
    with pytest.raises(TutorialError, match=message):
        parse_tutorial("edges", text)


def test_a_game_without_a_tutorial_file_has_none(tictactoe):
    """A game added from outside meeple (the example) ships no tutorial: none is offered, and
    asking for it says so."""
    assert not has_tutorial("tic-tac-toe")
    with pytest.raises(TutorialError, match="tic-tac-toe has no tutorial"):
        load_tutorial("tic-tac-toe")
