"""Double Edges' order of play and seat names (issue 34, item 4)."""

from __future__ import annotations

import pytest

import meeple
from meeple.core.errors import OptionError

ORDER = "Team A, 1st player; Team B, 1st player; Team A, 2nd player; Team B, 2nd player"


def first_movers(**options: object) -> set[str]:
    """The names of the seats that placed the first pyramid, over 40 seeds."""
    game = meeple.make("edges", double=True, **options)
    return {game.seat_name(game.new_game(seed).to_act[0]) for seed in range(40)}


def test_by_default_any_of_the_four_seats_may_start_so_a1_may_move_third():
    """Before issue 34: the first seat is drawn among all four; the names stay by seat."""
    assert first_movers() == {"A1", "B1", "A2", "B2"}


def test_double_start_a1_makes_the_names_follow_the_order_of_play():
    """ORDER: with double_start=a1 whoever starts is A1, and play runs A1, B1, A2, B2."""
    assert first_movers(double_start="a1") == {"A1"}
    game = meeple.make("edges", double=True, double_start="a1", pie=False)
    state = game.new_game(7)
    seen = []
    for _ in range(8):
        player = state.to_act[0]
        seen.append(game.seat_name(player))
        state = state.apply(player, state.legal_actions(player)[0])
    assert seen == ["A1", "B1", "A2", "B2"] * 2


def test_double_start_a1_refuses_another_first_seat():
    with pytest.raises(OptionError, match="double_start=a1"):
        meeple.make("edges", double=True, double_start="a1", first=2)
