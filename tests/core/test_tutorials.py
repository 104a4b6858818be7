"""Every game's tutorial file replays legally through the rules (meeple.core.tutorial)."""

from __future__ import annotations

import re

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


DIRECTIONS = {
    "North": "N", "North-East": "NE", "East": "E", "South-East": "SE",
    "South": "S", "South-West": "SW", "West": "W", "North-West": "NW",
}  # fmt: skip
SAID = re.compile(
    r"\b(?:(clear|solid) )?(" + "|".join(sorted(DIRECTIONS, key=len, reverse=True)) + r")s?\b"
)


NOTATION = re.compile(r"\b(N|NE|E|SE|S|SW|W|NW)(c|s)\b")  # "G (Ec)"
WORDS = {short: word for word, short in DIRECTIONS.items()}


def in_words(symbol: re.Match[str]) -> str:
    """A symbol's notation (``Ec``) in the lessons' words (``clear East``)."""
    return f"{'clear' if symbol[2] == 'c' else 'solid'} {WORDS[symbol[1]]}"


def test_the_clock_lesson_says_the_symbol_of_each_letter_it_asks_for():
    """A newcomer read "Finish with A, the other symbol of that card: three clear
    North-Wests again" and found A a clear South-West: the first symbol a step's words give
    after the letter it asks for is that letter's symbol on the learner's cards."""
    lesson = load_tutorial("triangle-clock")
    game = lesson.make_game()
    state, taken, checked = game.new_game(lesson.seed), 0, 0
    for player, text in replay(lesson):
        if player == lesson.learner:
            step = lesson.steps[taken]
            letter = step.move.split()[0]
            if re.fullmatch("[A-H]", letter):
                cards = state.view(player)["hand"]
                symbols = {
                    k: s for c in cards for k, s in zip(c["letters"], c["symbols"], strict=True)
                }
                for words in (step.prompt, step.why):
                    words = NOTATION.sub(in_words, " ".join(words.split()))
                    at = re.search(rf"\b{letter}\b", words)
                    said = at and SAID.search(words, at.end())
                    assert said, (taken + 1, words)
                    fill, direction = said.groups()
                    symbol = symbols[letter]
                    assert symbol[:-1] == DIRECTIONS[direction], (taken + 1, said[0], symbol)
                    assert fill is None or symbol[-1] == fill[0], (taken + 1, said[0], symbol)
                    checked += 1
            taken += 1
        state = state.apply_text(player, text)
    assert checked == 2 * 6  # each letter asked for, in its prompt and its why
