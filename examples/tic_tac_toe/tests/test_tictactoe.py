"""The example game's own tests: meeple's conformance suite, and a few of its own rules."""

from __future__ import annotations

import pytest

import meeple
from meeple.agents.play import play_game
from meeple.agents.spec import make_agent
from meeple.core.conformance import check_game
from meeple.core.errors import IllegalAction, NotationError, PositionError


@pytest.mark.parametrize("size", [3, 4, 5])
def test_the_game_passes_meeple_s_conformance_suite(size: int) -> None:
    assert check_game(meeple.make("tic-tac-toe", size=size), seeds=range(10)) > 50


def test_a_line_wins_and_a_taken_square_is_refused() -> None:
    game = meeple.make("tic-tac-toe")
    state = game.new_game(0)
    for seat, square in enumerate(["a1", "a2", "b1", "b2"]):
        state = state.apply_text(seat % 2, square)
    with pytest.raises(IllegalAction, match="b2 already holds O"):
        state.apply_text(0, "b2")
    state = state.apply_text(0, "C1")
    assert state.is_over and state.returns == (1.0, -1.0)
    assert state.result == {"winner": 0, "reason": "X made a line of 3"}


def test_bad_input_says_what_is_allowed() -> None:
    with pytest.raises(NotationError, match="column a-c and row 1-3"):
        meeple.make("tic-tac-toe").parse_action("d1")
    with pytest.raises(PositionError, match="X moves first"):
        meeple.make("tic-tac-toe").from_position(
            'meeple tic-tac-toe position\nboard: ["OO.", "...", "..."]'
        )


def test_the_heuristic_never_loses_to_random() -> None:
    """On the 3 x 3 board, winning, blocking and the centre are enough not to lose."""
    game = meeple.make("tic-tac-toe")
    for seed in range(20):
        seat = seed % 2
        agents = [make_agent("random", game, seed), make_agent("random", game, seed)]
        agents[seat] = make_agent("heuristic", game, seed)
        assert play_game(game, agents, seed).state.returns[seat] >= 0, f"lost game {seed}"
