"""End of an era, scoring, the second era and the tie-breaker (seed 003_56c9e64755493b11.txt)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from meeple.core.errors import IllegalAction
from meeple.games.erosion.rules import WX, F, H, Pass

from .conftest import cards, legal, make, play, position

UNTIED = {0: ["H60", "H61", "H62"], 1: ["H63", "H64"], 2: ["H65"]}
"""Mountains that score 3, 2 and 1 points, so that an era end needs no tie-breaker."""


# -- ending the era -------------------------------------------------------------------------
def test_clause_the_era_ends_if_all_players_pass_in_a_row():
    """'The era ends if all players pass in a row.'"""
    game = make(3)
    state = position(game, hands={0: ["WX06"], 1: ["WX07"], 2: ["WX09"]}, mountains=UNTIED)
    state = play(state, "pass", "pass")
    assert not state.over and state.to_act == (2,)
    state = play(state, "pass")
    assert state.over
    assert state.result["reason"] == "all players passed in a row"


def test_passes_not_in_a_row_do_not_end_the_era():
    game = make(3)
    state = position(game, hands={0: ["WX06"], 1: ["WX07"], 2: ["WX09", "WX10"]}, mountains=UNTIED)
    state = play(state, "pass", "pass", "draw WX2 H2 F0", "pass", "pass")
    assert not state.over, "seat 2 drew between the passes"
    assert play(state, "pass").over


def test_clause_the_era_ends_if_the_same_person_passes_a_second_time_after_a_deck_ran_out():
    """'The era also ends if the same person passes the second time after the last card has
    been drawn from any deck.'"""
    game = make(3)
    state = position(
        game, hands={0: ["WX06"], 1: ["WX07"], 2: []}, mountains=UNTIED, empty_decks=[F]
    )
    assert state.runout_passes == (0, 0, 0)
    state = play(state, "pass", "draw WX2 H2 F0", "draw WX2 H2 F0")
    assert not state.over
    state = play(state, "pass")
    assert state.over, "seat 0 passed for the second time since the F deck ran out"
    assert "passed a second time after a deck ran out" in state.result["reason"]


def test_passes_before_the_deck_ran_out_do_not_count():
    """Only passes after the last card was drawn count toward the second pass."""
    game = make(3)
    hands = {0: ["H41"], 1: [], 2: ["H42"]}
    state = position(game, hands=hands, mountains=UNTIED)
    # keep two cards in the WX deck, the rest in seat 0's discards
    two_left = tuple(state.decks[WX][-2:])
    moved = tuple(c for c in state.decks[WX] if c not in two_left)
    state = replace(
        state, decks=(two_left, state.decks[H], state.decks[F]), discards=(moved, (), ())
    )
    assert state.runout_passes is None
    state = play(state, "pass")  # before any deck ran out: not counted
    state = play(state, "draw WX2 H2 F2")  # seat 1 draws the last WX cards
    assert state.runout_passes == (0, 0, 0)
    state = play(state, "draw WX0 H2 F2", "pass")
    assert not state.over, "seat 0's first pass after the run-out"
    state = play(state, "redraw WX0 H2 F2", "draw WX0 H0 F1", "pass")
    assert state.over


# -- scoring --------------------------------------------------------------------------------
def test_clause_scoring_one_per_unweathered_two_per_delta_three_per_weathered_fossil():
    """'one point for each unweathered rock in your mountain, two points for each rock in
    your delta, and three points for each weathered rock in your mountain that contains one
    of the fossil icons'; a weathered rock without a fossil scores nothing, an unweathered
    fossil rock scores 1."""
    game = make()
    state = position(
        game,
        mountains={0: ["WX01", "WX06", "WX02", "H41", "WX12"], 1: ["H42"]},
        weathered={0: 2},
        deltas={0: ["F85", "F86"]},
    )
    # WX01 fish weathered: 3; WX06 weathered: 0; WX02 fish, H41, WX12 snail unweathered: 3
    assert state.points(0) == 3 + 0 + 3 + 2 * 2
    assert state.points(1) == 1
    over = play(state, "pass", "pass")
    assert over.result["scores"] == [10, 1]
    assert over.returns == (1.0, -1.0)
    assert over.result["winner"] == 0


def test_clause_two_or_three_players_play_one_era():
    """'The two or three-player game lasts one era'."""
    game = make(3)
    state = play(position(game), "pass", "pass", "pass")
    assert state.over and state.era == 1 and len(state.era_scores) == 1


@pytest.mark.parametrize(("players", "second_era"), [(2, False), (3, False), (4, True), (5, True)])
def test_the_player_rules_tell_of_a_second_era_only_where_there_is_one(players, second_era):
    """'The two or three-player game lasts one era; and the four- or five-player game lasts
    two eras': the rules a player reads spoke of a new era's set-up in every game."""
    text = " ".join(make(players).player_rules().split())
    assert ("The game lasts 2 eras." in text) is second_era
    assert ("In the second era everything but the mountains" in text) is second_era
    assert ("lowest scorer" in text) is second_era


@pytest.mark.parametrize(
    ("players", "status", "heading"),
    [
        (3, "Turn 1: ", None),
        (4, "Era 1/2, turn 1: ", "Era 1 of 2"),
    ],
)
def test_the_era_is_named_only_where_there_is_a_second(players, status, heading):
    """A game of one era said "Era 1/1" on its board and "Era 1 of 1" as its log's heading:
    the seed speaks of "the era" of a two or three-player game, which has no other."""
    from meeple.interfaces.move_log import chapter

    game = make(players)
    state = game.new_game(1)
    assert game.render_text(state, 0).splitlines()[-1].startswith(status)
    assert chapter(None, state) == heading


# -- a two-era game -------------------------------------------------------------------------
def test_clause_four_players_play_two_eras_with_a_new_era_set_up():
    """'the four- or five-player game lasts two eras.' 'After each player has recorded his
    score, all cards except the Atmospheres and mountains (i.e., River, hands, discards,
    etc.) are separated into 3 process decks and shuffled/arranged as in Set Up. The
    lowest-scoring player starts the new era by taking his turn.'"""
    game = make(4)
    aged = tuple(atm.age == "arid" for atm in game.catalog.atmospheres)
    state = position(
        game,
        hands={0: ["WX06"], 1: ["WX07", "H41"], 2: ["F85"], 3: []},
        mountains={0: ["WX11", "WX09"], 1: ["H42"], 2: ["H43", "H44", "H45"], 3: ["H46", "F86"]},
        weathered={3: 2},
        river=["WX10"],
        deltas={0: ["F87", "F89"], 3: ["F88"]},
        aged=aged,
        current=1,
    )
    mountains = state.mountains
    state = play(state, "pass", "pass", "pass", "pass")
    assert not state.over and state.era == 2
    assert state.era_scores == ((6, 1, 3, 2),)
    assert state.scores == (6, 1, 3, 2)
    assert state.current == 1 and state.to_act == (1,), "the lowest scorer starts"
    assert state.mountains == mountains and state.weathered == (0, 0, 0, 2)
    assert state.river == () and all(not d for d in state.deltas + state.discards)
    for hand in state.hands:
        assert Counter(game.catalog.deck[c] for c in hand) == {WX: 3, H: 2, F: 1}
    assert state.aged == aged, "the Atmospheres are not part of the new set-up"
    in_mountains = sum(len(m) for m in mountains)
    assert sum(len(d) for d in state.decks) + 6 * 4 + in_mountains == 90
    # era 2: seat 3 has lost its delta; scores add up over both eras
    state = play(state, "pass", "pass", "pass", "pass")
    assert state.over
    assert state.era_scores == ((6, 1, 3, 2), (2, 1, 3, 0))
    assert state.result["scores"] == [8, 2, 6, 2]
    assert state.result["era_scores"] == [[6, 1, 3, 2], [2, 1, 3, 0]]


# -- the tie-breaker ------------------------------------------------------------------------
def tied_final(game, hands):
    """Two seats with 2 points each at the end, holding the given hands."""
    return position(game, hands=hands, mountains={0: ["H41", "H42"], 1: ["H43", "H44"]})


def test_clause_tie_breaker_closest_mohs_guess_chooses_the_tie():
    """'have the competing players draw a card at random from their own hands, and then
    guess the Mohs hardness of the rock type ... The player guessing the closest chooses the
    tie.'"""
    game = make()
    state = play(tied_final(game, {0: ["WX06"], 1: ["H45"]}), "pass", "pass")
    assert not state.over and state.phase == "guess" and state.to_act == (0,)
    assert state.tie is not None and state.tie.cards == cards(game, ["WX06", "H45"])
    assert state.hands == ((), ()), "the drawn cards are shown, out of the hands"
    assert len(legal(state)) == 10 and "guess 1" in legal(state) and "guess 10" in legal(state)
    state = play(state, "guess 4")  # shale is 3: one off
    state = play(state, "guess 6")  # basalt is 8: two off
    assert state.phase == "choose" and state.to_act == (0,)
    assert legal(state) == {"choose 0", "choose 1"}
    with pytest.raises(IllegalAction):
        state.apply(1, game.parse_action("choose 1"))
    state = play(state, "choose 0")
    assert state.over and state.result["winner"] == 0 and state.returns == (1.0, -1.0)
    # The end says how the win came among equals (a page shows the reason, not the log).
    assert state.result["reason"] == (
        "all players passed in a row; Alps won on the tie-breaker, level with Andes on 2"
    )
    assert state.hands == (cards(game, ["WX06"]), cards(game, ["H45"])), "cards go back"


def test_tie_breaker_equally_close_guesses_share_the_win():
    """Two equally close guesses leave the tie standing: a shared first place (0 each)."""
    game = make()
    state = play(tied_final(game, {0: ["WX06"], 1: ["H45"]}), "pass", "pass", "guess 3", "guess 8")
    assert state.over and state.result["winners"] == [0, 1] and state.returns == (0.0, 0.0)
    assert state.result["reason"].endswith(
        "; Alps and Andes were level on 2, and the tie-breaker left them level"
    )


def test_tie_breaker_a_seat_without_a_card_loses_it():
    """A seat with an empty hand has nothing to draw: the other tied seat chooses."""
    game = make()
    state = play(tied_final(game, {0: [], 1: ["H45"]}), "pass", "pass")
    assert state.phase == "choose" and state.to_act == (1,)
    assert play(state, "choose 1").result["winner"] == 1


def test_tie_for_the_lowest_score_decides_who_starts_the_next_era():
    """The lowest scorer starts the new era; a tie for lowest goes to the tie-breaker, whose
    winner chooses which tied seat starts."""
    game = make(4)
    state = position(
        game,
        hands={0: ["WX06"], 1: ["H45"], 2: [], 3: []},
        mountains={0: ["H41"], 1: ["H42"], 2: ["H43", "H44"], 3: ["H46", "H47"]},
    )
    state = play(state, "pass", "pass", "pass", "pass")
    assert state.tie is not None and state.tie.purpose == "start" and state.tie.seats == (0, 1)
    state = play(state, "guess 3", "guess 7", "choose 1")
    assert state.era == 2 and state.current == 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_view_says_whether_a_pass_ends_the_era_as_the_rules_decide_it(players):
    """The page warns before a pass that ends the era from the view's ``pass_ends_era``:
    over random games it is true exactly when the seat's pass scores the era."""
    rng = random.Random(players)
    checked = Counter()
    for seed in range(12):
        state = make(players, **({"advanced": True} if seed % 2 else {})).new_game(seed)
        while not state.is_over:
            seat = state.to_act[0]
            actions = state.legal_actions(seat)
            passes = [a for a in actions if isinstance(a, Pass)]
            for a in passes:
                ends = len(state._next(seat, a).era_scores) > len(state.era_scores)
                assert state.view(seat)["pass_ends_era"] is ends
                checked[ends] += 1
            # Pass often enough that eras end by passing, not only by the decks.
            state = state._next(
                seat, passes[0] if passes and rng.random() < 0.3 else rng.choice(actions)
            )
    assert checked[True] and checked[False], checked
    assert make(players).new_game(0).view(None)["pass_ends_era"] is None
