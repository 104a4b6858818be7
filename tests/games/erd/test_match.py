"""Patch 0.01: 'it is recommended to play best-of-2N+1 matches': a state is a whole match."""

from __future__ import annotations

import meeple
from meeple.games.erd import Cards, ErdState

from .conftest import erd, play_round

RED_WINS = ("rush=HHH defense=LLD", "rush=LDD defense=HLD")
"""Red's Rush (6) breaks Blue's Defense (4); Blue's (1) does not break Red's (2)."""
BLUE_WINS = (RED_WINS[1], RED_WINS[0])
STALL = ("rush=- defense=-", "rush=- defense=-")
"""Original rules: nobody commits anything (a draw with round_limit=1)."""


def test_default_match_is_best_of_5_first_to_three_games():
    state = meeple.make("erd").new_game(0)
    assert isinstance(state, ErdState)
    for number in (1, 2):
        state = play_round(state, *RED_WINS)
        assert not state.is_over and state.game_number == number + 1 and state.score == (number, 0)
    state = play_round(state, *RED_WINS)
    assert state.is_over and state.score == (3, 0) and state.returns == (1.0, -1.0)
    result = state.result
    assert result["winner"] == 0 and result["best_of"] == 5 and result["score"] == [3, 0]
    assert result["reason"].startswith("Red won the match 3 games to 0")
    assert "broke through" in result["reason"] and result["ending"] == "rush"
    assert [g["reason"] for g in result["games"]] == ["rush"] * 3


def test_each_game_of_a_match_starts_from_full_reserves():
    game = erd(best_of=3)
    state = play_round(game.new_game(0), "rush=LLL defense=HDD", "rush=DDD defense=LLL")
    assert state.round == 2 and state.sides[0].reserve != Cards(3, 3, 6)
    state = play_round(state, *BLUE_WINS)
    assert state.game_number == 2 and state.round == 1 and state.score == (0, 1)
    assert state.sides == game.new_game(0).sides
    assert state.last is not None and state.last.ending is not None  # how game 1 ended


def test_match_ends_when_the_lead_cannot_be_caught_drawn_games_count_as_played():
    """Best of 5 after a draw: 3-0 with one game left ends the match."""
    state = erd(rules="original", best_of=5, round_limit=1).new_game(0)
    state = play_round(state, *STALL)
    assert state.score == (0, 0) and len(state.games) == 1 and not state.is_over
    for _ in range(2):
        state = play_round(state, *BLUE_WINS)
    assert not state.is_over  # 0-2 with two games left
    state = play_round(state, *BLUE_WINS)
    assert state.is_over and state.score == (0, 3) and len(state.games) == 4
    assert state.returns == (-1.0, 1.0)


def test_a_match_of_equal_wins_is_drawn():
    state = erd(rules="original", best_of=3, round_limit=1).new_game(0)
    state = play_round(state, *RED_WINS)
    state = play_round(state, *BLUE_WINS)
    state = play_round(state, *STALL)
    assert state.is_over and state.score == (1, 1) and state.returns == (0.0, 0.0)
    assert state.result["winner"] is None
    assert state.result["reason"].startswith("the match is drawn, 1 game each")
    assert "draw by round limit" in state.result["reason"]


def test_best_of_1_is_a_single_game_whose_result_says_why():
    state = play_round(erd(best_of=1).new_game(0), *BLUE_WINS)
    assert state.is_over and state.result["winner_name"] == "Blue"
    assert state.result["reason"] == "Blue's Rush (6) broke through Red's Defense (4) in round 1"
    assert state.result["games"][0]["reason_text"] == "Rush broke through"


def test_result_is_in_every_view():
    state = play_round(erd().new_game(0), *RED_WINS)
    for viewer in (0, 1, None):
        assert state.view(viewer)["result"] == state.result
