"""A seat given up in a match of three or more (docs/api.md, "Presence, clocks, resigning"):
the computer plays it to the game's end, and it still counts as a loss."""

from __future__ import annotations

import random
from typing import Any

from meeple.core.registry import make
from meeple.interfaces.web.referee import final_result


def _played_out(name: str, seed: int) -> tuple[Any, Any]:
    """A three-seat game of ``name`` played to its end by random moves: (game, state)."""
    game = make(name, players=3)
    state, rng = game.new_game(seed), random.Random(seed)
    while not state.is_over:
        seat = state.to_act[0]
        state = state.apply(seat, rng.choice(state.legal_actions(seat)))
    return game, state


def _seats(resigned: tuple[int, ...] = (), abandoned: tuple[int, ...] = ()) -> list[dict]:
    return [
        {"resigned": p in resigned or p in abandoned, "abandoned": p in abandoned} for p in range(3)
    ]


def test_a_resigned_seat_the_computer_played_to_a_win_does_not_win():
    game, state = _played_out("squad_combat", 0)
    assert state.returns[0] == max(state.returns)  # the seat played on came out best
    result = final_result(game, state, _seats(resigned=(0,)))
    assert 0 not in result["winners"] and result["winners"]
    assert result["resigned"] == [0] and "winner" not in result
    assert result["reason"].endswith("; Red (seat 0) resigned")


def test_a_seat_claimed_from_is_named_as_having_left():
    game, state = _played_out("erosion", 1)
    assert state.returns[0] == max(state.returns)
    result = final_result(game, state, _seats(abandoned=(0,)))
    assert 0 not in result["winners"] and result["abandoned"] == [0]
    assert "Alps (seat 0) left the match" in result["reason"]


def test_with_nobody_given_up_the_game_s_result_stands():
    game, state = _played_out("erosion", 0)
    result = final_result(game, state, _seats())
    assert result["winners"] == [2] and result["reason"] == state.result["reason"]
    assert "resigned" not in result and result["winner"] == 2
