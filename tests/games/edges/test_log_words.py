"""Edges' moves in words for the move log (``Game.log_words``): a placement and a pie-rule
take-over, with the pyramid's size and strength and where its edge lies."""

from __future__ import annotations

import pytest

from .conftest import play


@pytest.mark.parametrize(
    ("move", "where"),
    [
        ("M h1,1", "the edge between squares (0,1) and (1,1)"),
        ("M v2,2", "the edge between squares (2,1) and (2,2)"),
        ("M h0,3", "the top edge of square (0,3)"),
        ("M h3,0", "the bottom edge of square (2,0)"),
        ("M v1,0", "the left edge of square (1,0)"),
        ("M v0,4", "the right edge of square (0,3)"),
    ],
)
def test_a_placement_names_the_pyramid_and_the_squares_its_edge_bounds(standard, move, where):
    state = standard.new_game(1)
    words = standard.log_words(state, 0, standard.parse_action(move))
    assert words == f"placed a Medium pyramid (strength 2) on {where}"


def test_a_take_over_says_whose_pyramid_went_back_and_which_took_its_place(standard):
    state = play(standard.new_game(1), "L h0,1")
    assert standard.log_words(state, 1, standard.parse_action("pie S")) == (
        "took over the first pyramid (pie rule): Red's Large pyramid on h0,1 (the top edge "
        "of square (0,1)) went back to Red's stash, and a Small pyramid (strength 1) of "
        "their own took its place"
    )


def test_double_edges_names_the_seats_by_team_position():
    import meeple

    game = meeple.make("edges", double=True, first=0)
    state = play(game.new_game(1), "S v0,0")
    assert "A1's Small pyramid" in game.log_words(state, 1, game.parse_action("pie L"))
