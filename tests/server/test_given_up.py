"""A seat given up in a match of three or more (docs/api.md, "Presence, clocks, resigning"):
the computer plays it to the game's end, and it still counts as a loss."""

from __future__ import annotations

import random
from typing import Any

import pytest

from meeple.core.record import final_result, result_agrees
from meeple.core.registry import make


def _played_out(name: str, seed: int) -> Any:
    """A three-seat game of ``name`` played to its end by random moves."""
    game = make(name, players=3)
    state, rng = game.new_game(seed), random.Random(seed)
    while not state.is_over:
        seat = state.to_act[0]
        state = state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def test_a_resigned_seat_the_computer_played_to_a_win_does_not_win():
    state = _played_out("squad_combat", 0)
    assert state.returns[0] == max(state.returns)  # the seat played on came out best
    result = final_result(state, resigned=[0])
    assert 0 not in result["winners"] and result["winners"]
    assert result["resigned"] == [0] and "winner" not in result
    assert result["reason"].endswith("; Red (seat 0) resigned")


def test_a_seat_claimed_from_is_named_as_having_left():
    state = _played_out("erosion", 1)
    assert state.returns[0] == max(state.returns)
    result = final_result(state, left=[0])
    assert 0 not in result["winners"] and result["abandoned"] == [0]
    # The others both lost to Alps (-1 each): the one with more points wins.
    scores = state.result["scores"]
    assert result["winners"] == [max((1, 2), key=lambda p: scores[p])] and scores[1] != scores[2]
    assert "Alps (seat 0) left the match" in result["reason"]


def test_with_nobody_given_up_the_game_s_result_stands():
    state = _played_out("erosion", 0)
    result = final_result(state)
    assert result["winners"] == [2] and result["reason"] == state.result["reason"]
    assert "resigned" not in result and result["winner"] == 2


def test_a_record_of_a_match_with_a_seat_given_up_replays_to_its_stored_result():
    """`meeple replay` of such a match's record (downloaded from the server) checks its
    result against the moves and the seats it says were given up; a forged one fails."""
    state = _played_out("squad_combat", 0)
    stored = final_result(state, resigned=[0])
    assert result_agrees(stored, state)
    assert not result_agrees({**stored, "winners": [0]}, state)
    assert not result_agrees({**stored, "resigned": [1]}, state)


@pytest.mark.parametrize("given_up", [5, None, ["x"], [7], [0, "a"], [-1]])
def test_a_record_s_list_of_seats_given_up_that_names_no_seats_agrees_with_nothing(given_up):
    """A record is a file from outside: a list that is no list of the game's seats makes its
    result disagree (`meeple replay` warns, `meeple history` calls it unreadable), never a
    TypeError or IndexError."""
    state = _played_out("squad_combat", 0)
    assert not result_agrees({**final_result(state, resigned=[0]), "resigned": given_up}, state)
