"""Edges rules, clause by clause against the seed (001_0fa93ce5fc4f8ad0.txt)."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple.core.errors import IllegalAction, NotationError, OptionError
from meeple.core.game import ActionIdError
from meeple.games.edges import Edge, EdgesGame, Place, Pyramid, Stash, TakeOver
from meeple.games.edges.board import board
from meeple.games.edges.rules import SEED_STASHES, even_stash, score_square

from .conftest import play


# -- equipment ------------------------------------------------------------------------------
def test_clause_31_edges_of_a_three_by_four_grid():
    """'played on the 31 edges ... of a three by four rectangular grid'."""
    assert board(3, 4).num_edges == 31


@pytest.mark.parametrize(("rows", "cols", "edges"), [(3, 3, 24), (4, 4, 40), (5, 5, 60)])
def test_other_boards_have_the_expected_edges(rows, cols, edges):
    assert board(rows, cols).num_edges == edges


def test_square_is_bounded_by_its_four_edges():
    """Square (r, c) is bounded by h r,c / h r+1,c / v r,c / v r,c+1 (gaps.md)."""
    b = board(3, 4)
    top, bottom, left, right = b.square_edges[1 * 4 + 2]
    assert [b.edges[e] for e in (top, bottom, left, right)] == [
        Edge("h", 1, 2),
        Edge("h", 2, 2),
        Edge("v", 1, 2),
        Edge("v", 1, 3),
    ]
    # an inner edge bounds two squares, an outer edge one
    assert len(b.edge_squares[b.index[Edge("v", 1, 2)]]) == 2
    assert len(b.edge_squares[b.index[Edge("h", 0, 0)]]) == 1


def test_clause_pyramid_strengths_large_3_medium_2_small_1():
    """'Large 3 points, Medium 2 points, Small 1 point'."""
    assert (Pyramid.LARGE, Pyramid.MEDIUM, Pyramid.SMALL) == (3, 2, 1)


def test_clause_stash_of_fifteen_five_of_each_size():
    """'a differently-colored stash of fifteen Icehouse pyramids per player (five large,
    five medium and five small each)'."""
    state = meeple.make("edges").new_game(0)
    assert state.stashes == (Stash(5, 5, 5), Stash(5, 5, 5))


@pytest.mark.parametrize(
    ("board_text", "stash"),
    [("3x3", Stash(4, 4, 4)), ("4x4", Stash(7, 7, 6)), ("5x5", Stash(10, 10, 10))],
)
def test_clause_other_boards_table(board_text, stash):
    """The seed's table: 3x3 4/4/4, 4x4 7/7/6, 5x5 10/10/10."""
    state = meeple.make("edges", board=board_text).new_game(0)
    assert state.stashes == (stash, stash)


def test_even_split_reproduces_the_seed_table():
    """Custom boards default to floor(edges/2) split evenly, larger first: the same rule
    gives every stash of the seed's table, so named and custom boards agree."""
    for (rows, cols), stash in SEED_STASHES.items():
        assert even_stash(board(rows, cols).num_edges // 2) == stash
    assert meeple.make("edges", board="2x3").new_game(0).stashes[0] == Stash(3, 3, 2)


def test_custom_stash_option():
    state = meeple.make("edges", board="2x2", stash="2/2/1").new_game(0)
    assert state.stashes == (Stash(2, 2, 1), Stash(2, 2, 1))


# -- scoring --------------------------------------------------------------------------------
def test_clause_higher_strength_scores_one_point():
    """'You score one point per square where you have more strength points ... than your
    opponent'."""
    assert score_square((3, 2)) == ((3, 2), 0, 1)
    assert score_square((1, 4)) == ((1, 4), 1, 1)


def test_clause_only_pyramids_score_two_points():
    """'and two points if you have the only pyramids surrounding it'."""
    assert score_square((1, 0)).points == 2
    assert score_square((0, 6)) == ((0, 6), 1, 2)


def test_clause_equal_strengths_score_nothing():
    """'Squares surrounded by equal strengths of pyramids are worth no points to either
    player.'"""
    assert score_square((4, 4)) == ((4, 4), None, 0)
    assert score_square((0, 0)).points == 0


def test_scoring_on_the_board(standard):
    # Red L on top of square (0,0); Blue S on its left; Red M alone on square (2,3).
    state = play(standard.new_game(0), "L h0,0", "S v0,0", "M h3,3")
    squares = state.square_scores()
    assert squares[0] == ((3, 1), 0, 1)  # Red 3 vs Blue 1: one point
    assert squares[2 * 4 + 3] == ((2, 0), 0, 2)  # only Red's pyramid: two points
    assert state.scores() == (3, 0)


def test_clause_higher_total_wins_and_equal_totals_draw():
    """'add up the score and determine who has won' - equal totals are a draw."""
    game = meeple.make("edges", board="1x1", stash="1/0/0", first=0, pie=False)
    # Red and Blue each place one Large on the single square: 3 vs 3, a draw.
    end = play(game.new_game(0), "L h0,0", "L h1,0")
    assert end.is_over and end.returns == (0.0, 0.0)
    assert end.result["winner"] is None
    game = meeple.make("edges", board="1x2", stash="1/0/1", first=0, pie=False)
    end = play(game.new_game(0), "L v0,0", "S v0,2", "S h0,0", "L h1,1")
    # square 0: Red 3+1 vs 0 -> Red 2; square 1: Blue 1+3 vs 0 -> Blue 2; draw 2-2
    assert end.scores() == (2, 2)
    end = play(game.new_game(0), "L v0,1", "S v0,2", "S h0,0", "L h1,0")
    # square 0: Red 3+1 vs Blue 3 -> Red 1; square 1: Red 3 vs Blue 1 -> Red 1
    assert end.scores() == (2, 0)
    assert end.returns == (1.0, -1.0)
    assert end.result["winner_name"] == "Red"


# -- turn order, pie rule, end --------------------------------------------------------------
def test_clause_first_player_is_random_but_fixed_by_the_seed():
    """'Randomly determine who moves first.' Random across seeds, repeatable per seed."""
    game = meeple.make("edges")
    firsts = {game.new_game(seed).to_act[0] for seed in range(40)}
    assert firsts == {0, 1}
    assert all(game.new_game(s).to_act == game.new_game(s).to_act for s in range(10))
    assert meeple.make("edges", first=1).new_game(3).to_act == (1,)


def test_clause_first_player_plays_any_pyramid_on_any_edge(standard):
    """'The first player then plays any of their fifteen pyramids onto any edge'."""
    state = standard.new_game(0)
    assert len(state.legal_actions(0)) == 3 * 31
    assert state.legal_actions(1) == []


def test_clause_pie_rule_second_player_may_take_over(standard):
    """'The second player then has a choice: they may either play a pyramid onto any empty
    edge on the board, or they may remove the first player's pyramid (returning it to the
    first player), and place one of their own pyramids on the edge on which the first
    player's pyramid had been played'."""
    state = play(standard.new_game(0), "L v1,2")
    # 'The second player then has a choice': any pyramid on any of the 30 empty edges, or a
    # take-over with any size
    assert len(state.legal_actions(1)) == 3 * 30 + 3
    assert TakeOver(Pyramid.SMALL) in state.legal_actions(1)
    after = state.apply(1, TakeOver(Pyramid.SMALL))
    i = standard.board.index[Edge("v", 1, 2)]
    assert after.owner[i] == 1 and after.pyramid[i] == Pyramid.SMALL
    assert after.stashes == (Stash(5, 5, 5), Stash(5, 5, 4))  # Red's Large went back
    assert after.to_act == (0,)  # the first player moves next
    assert after.took_over


def test_clause_pie_rule_takes_over_only_with_a_size_still_in_the_stash():
    """rules.md, Play 3: 'a pyramid of their own, of any size they still have'."""
    game = meeple.make("edges", board="1x2", stash="1/0/1", first=0)
    state = play(game.new_game(0), "L v0,0")
    assert TakeOver(Pyramid.MEDIUM) not in state.legal_actions(1)
    with pytest.raises(IllegalAction, match="no medium pyramid left"):
        state.apply(1, TakeOver(Pyramid.MEDIUM))
    assert state.apply(1, TakeOver(Pyramid.LARGE)).stashes[1] == Stash(0, 0, 1)


def test_clause_pie_rule_only_on_the_second_move(standard):
    state = play(standard.new_game(0), "L v1,2", "M h0,0")
    assert not any(isinstance(a, TakeOver) for a in state.legal_actions(0))
    with pytest.raises(IllegalAction, match="only on the second move"):
        state.apply(0, TakeOver(Pyramid.LARGE))
    first = standard.new_game(0)
    with pytest.raises(IllegalAction, match="only on the second move"):
        first.apply(0, TakeOver(Pyramid.LARGE))


def test_pie_rule_option_off():
    game = meeple.make("edges", first=0, pie=False)
    state = play(game.new_game(0), "L v1,2")
    assert not any(isinstance(a, TakeOver) for a in state.legal_actions(1))
    with pytest.raises(IllegalAction, match="pie rule is off"):
        state.apply(1, TakeOver(Pyramid.MEDIUM))


def test_clause_thereafter_each_player_places_on_an_unoccupied_edge(standard):
    """'each player places a pyramid on an unoccupied edge in turn'."""
    state = play(standard.new_game(0), "L v1,2", "M h0,0")
    with pytest.raises(IllegalAction, match="already holds Blue's M"):
        state.apply(0, Place(Pyramid.SMALL, Edge("h", 0, 0)))
    assert state.to_act == (0,)
    with pytest.raises(IllegalAction, match="not to act"):
        state.apply(1, Place(Pyramid.SMALL, Edge("h", 1, 0)))


def test_a_size_not_in_the_stash_is_refused():
    game = meeple.make("edges", board="2x2", stash="1/1/1", first=0, pie=False)
    state = play(game.new_game(0), "L h0,0", "S h0,1")
    state = play(state, "M h1,0", "M h1,1")
    with pytest.raises(IllegalAction, match="no large pyramid left"):
        state.apply(0, Place(Pyramid.LARGE, Edge("h", 2, 0)))


def test_illegal_action_leaves_the_state_untouched(standard):
    state = play(standard.new_game(0), "L v1,2")
    snapshot = (state.owner, state.pyramid, state.stashes, state.turn)
    with pytest.raises(IllegalAction):
        state.apply(1, Place(Pyramid.LARGE, Edge("v", 1, 2)))
    assert (state.owner, state.pyramid, state.stashes, state.turn) == snapshot


@pytest.mark.parametrize(
    ("board_text", "empty_at_end"), [("3x4", 1), ("3x3", 0), ("4x4", 0), ("5x5", 0)]
)
@pytest.mark.parametrize("pie", [True, False])
def test_clause_game_ends_when_all_pyramids_are_placed(board_text, empty_at_end, pie):
    """'until all pyramids have been placed (there will be one unoccupied edge)' on 3x4;
    the larger boards of the table fill every edge."""
    game = meeple.make("edges", board=board_text, first=0, pie=pie)
    state = game.new_game(0)
    while not state.is_over:
        legal = state.legal_actions(state.to_act[0])
        # take the pie rule whenever offered, to cover that path too
        take = [a for a in legal if isinstance(a, TakeOver)]
        state = state.apply(state.to_act[0], take[0] if take else legal[0])
    assert all(s.total == 0 for s in state.stashes)
    assert state.owner.count(-1) == empty_at_end
    assert state.to_act == () and state.result["over"]
    assert state.turn == 2 * game.stash.total + (1 if pie else 0)
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply(0, Place(Pyramid.SMALL, Edge("h", 0, 0)))


# -- Double Edges -----------------------------------------------------------------------------
def test_clause_double_edges_four_standard_stashes_on_five_by_five():
    """'The 5 x 5 game can be played as a team game (Double Edges), where each player has a
    standard stash of 15 pyramids'."""
    game = meeple.make("edges", double=True)
    state = game.new_game(0)
    assert game.num_players == 4 and str(game.board) == "5x5"
    assert state.stashes == (Stash(5, 5, 5),) * 4


def seat_order(first: int, moves: int) -> list[str]:
    """Who moves, by seat name, over the first ``moves`` moves of a Double Edges game."""
    game = meeple.make("edges", double=True, first=first, pie=False)
    state = game.new_game(0)
    seen = []
    for _ in range(moves):
        seen.append(game.seat_name(state.to_act[0]))
        state = state.apply(state.to_act[0], state.legal_actions(state.to_act[0])[0])
    return seen


def test_clause_double_edges_turn_order_a1_b1_a2_b2():
    """'play rotates: Team A, 1st player; Team B, 1st player; Team A, 2nd player; Team B,
    2nd player'."""
    assert seat_order(first=0, moves=8) == ["A1", "B1", "A2", "B2"] * 2


def test_double_edges_when_team_b_starts():
    assert seat_order(first=1, moves=4) == ["B1", "A1", "B2", "A2"]


def test_double_edges_begins_at_the_drawn_seat_with_its_team_first_as_the_rules_say():
    """The drawn seat's team plays the seed's Team A and play begins at that seat: a
    newcomer whose B2 started read "the order turns from whoever starts" and expected A1
    next, not A2. The order of every start, and the rules' words for it."""
    assert seat_order(first=2, moves=4) == ["A2", "B2", "A1", "B1"]
    assert seat_order(first=3, moves=4) == ["B2", "A2", "B1", "A1"]
    rules = " ".join(
        (Path(meeple.games.__file__).parent / "edges" / "rules.md").read_text().split()
    )
    assert "B1, A1, B2, A2 when team B starts" in rules and "B2 starts: B2, A2, B1, A1" in rules
    player = " ".join(meeple.make("edges", double=True).player_rules().split())
    assert "(when B2 starts: B2, A2, B1, A1)" in player


def test_double_edges_scores_teams():
    """Teammates' pyramids add up; a square with only one team's pyramids scores 2."""
    game = meeple.make("edges", double=True, first=0, pie=False)
    state = play(game.new_game(0), "L h0,0", "S v0,0", "M h1,0", "S v4,5")
    # square (0,0): A1 L(3) + A2 M(2) = 5 vs B1 S(1) -> team A 1 point
    assert state.square_scores()[0] == ((5, 1), 0, 1)
    # square (1,0): A2 M on its top only -> team A 2 points; square (4,4): B2 alone -> B 2
    assert state.square_scores()[5] == ((2, 0), 0, 2)
    assert state.square_scores()[24] == ((0, 1), 1, 2)
    assert state.scores() == (3, 2)
    assert state.result["sides"] == ["Team A", "Team B"]


def test_double_edges_pie_rule_applies_to_the_first_move_only():
    game = meeple.make("edges", double=True, first=0)
    state = play(game.new_game(0), "L h2,2")
    assert state.to_act == (1,) and TakeOver(Pyramid.MEDIUM) in state.legal_actions(1)
    state = play(state, "pie M")
    assert state.stashes[0] == Stash(5, 5, 5) and state.to_act == (2,)
    state = play(state, "S h0,0")
    assert not any(isinstance(a, TakeOver) for a in state.legal_actions(state.to_act[0]))


@pytest.mark.parametrize(
    ("options", "next_text", "next_seat"),
    [({}, "Then the first player moves again.", 0),
     ({"double": True}, "the third player moves next.", 2)],
)  # fmt: skip
def test_player_rules_name_who_moves_after_a_take_over(options, next_text, next_seat):
    """After the pie rule's take-over the turn order goes on: the first player in a game of
    two, the third seat of the order in Double Edges; the player rules say which."""
    game = meeple.make("edges", first=0, **options)
    state = play(game.new_game(0), "L h2,2", "pie M")
    assert state.to_act == (next_seat,)
    assert next_text in " ".join(game.player_rules().split())


def test_double_edges_returns_go_to_both_teammates():
    game = meeple.make("edges", double=True, first=0, pie=False)
    state = game.new_game(0)
    while not state.is_over:
        p = state.to_act[0]
        state = state.apply(p, state.legal_actions(p)[0])
    r = state.returns
    assert r[0] == r[2] and r[1] == r[3] and r[0] == -r[1]


# -- notation and encoding --------------------------------------------------------------------
def test_notation_round_trips(standard):
    for text in ("L h0,0", "M v2,4", "S h3,3", "pie L", "pie S"):
        assert str(standard.parse_action(text)) == text


def test_notation_is_forgiving_on_input(standard):
    assert standard.parse_action("l H2 3") == Place(Pyramid.LARGE, Edge("h", 2, 3))
    assert standard.parse_action("  PIE m ") == TakeOver(Pyramid.MEDIUM)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X h0,0", "not an Edges move"),
        ("L q0,0", "not an Edges move"),
        ("L h9,9", "no edge h9,9 on a 3x4 board"),
        ("L v0,5", "no edge v0,5"),
        ("pie", "not an Edges move"),
        ("", "not an Edges move"),
    ],
)
def test_bad_notation_says_what_is_expected(standard, text, message):
    with pytest.raises(NotationError, match=message):
        standard.parse_action(text)


def test_action_ids_are_dense_and_round_trip(standard):
    ids = set()
    for action_id in range(standard.num_actions):
        action = standard.action_from_id(action_id)
        assert standard.action_id(action) == action_id
        ids.add(str(action))
    assert len(ids) == standard.num_actions == 3 * 31 + 3
    with pytest.raises(ActionIdError, match="no action id"):
        standard.action_from_id(standard.num_actions)


# -- options ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"bord": "3x3"}, r"unknown option 'bord' \(did you mean 'board'\?\) for edges;"),
        ({"colour": "red"}, "unknown option 'colour' for edges; its options are: board"),
        ({"board": "3by3"}, "option 'board' of edges: '3by3' is not a board size"),
        ({"board": "0x4"}, "1 to 9 rows and columns"),
        ({"stash": "5/5"}, "option 'stash' of edges"),
        ({"stash": "9/9/9"}, "do not fit the 31 edges"),
        # Double Edges keeps its 5/5/5 on any board: the message names a stash that fits
        (
            {"double": "true", "board": "2x2"},
            r"4 stashes of 15 pyramids \(5/5/5\) do not fit the 12 edges of a 2x2 board; a "
            r"stash of at most 3 pyramids fits, such as 1/1/1",
        ),
        ({"first": 2}, "first must be random or a seat from 0 to 1"),
        ({"first": "later"}, "option 'first' of edges"),
        ({"pie": "maybe"}, "option 'pie' of edges"),
    ],
)
def test_bad_options_name_the_option_and_what_is_allowed(options, message):
    with pytest.raises(OptionError, match=message):
        meeple.make("edges", **options)


def test_options_accept_dashes_and_text_values():
    game = meeple.make("edges", board="3X3", pie="false", first="1")
    assert isinstance(game, EdgesGame)
    assert str(game.board) == "3x3" and not game.options.pie and game.options.first == 1
    assert game.options.changed() == {"board": "3x3", "pie": False, "first": 1}
