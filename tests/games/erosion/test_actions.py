"""The four player actions and pass, clause by clause (seed 003_56c9e64755493b11.txt).

Positions are built card by card (see conftest.position); mountains are written top first.
Card numbers used here, from cards.json: WX02 Root Wedging (2, hardness <= 6, hill icon),
WX04/WX11 Wetting-Drying (all shale), WX08 Frost Wedging (3, <= 8, mountain icon),
WX12 Salt Crystallization (2, <= 7, hill), WX19 Thermal Expansion (1, <= 8, no icon),
H41 Slump (2), H45 Sheetwash (2, hill), H43 Landslide (3, mountain), F74 Meandering (2),
F76 Braided (3), F85 Straight (1).
"""

from __future__ import annotations

import pytest

from meeple.core.errors import IllegalAction, NotationError
from meeple.games.erosion.rules import WX, F, H

from .conftest import cards, legal, make, play, position

SHALES = ["WX06", "WX07", "WX09", "WX10", "WX11", "WX03", "WX05", "WX02"]
EIGHT = ["WX20", "WX21", "WX13", "WX14", "WX17", "WX18", "WX16", "WX15"]  # limestones


def ids(state, pile):
    return [state.game.catalog.ids[c] for c in pile]


# -- weathering -----------------------------------------------------------------------------
def test_clause_weathering_any_one_mountain_including_yours():
    """'weather rocks, up to the number specified, in any one mountain (including yours)'."""
    game = make(3)
    state = position(
        game,
        hands={0: ["WX19"]},
        mountains={0: ["WX06", "WX07"], 1: ["WX09", "WX10"], 2: ["WX11"]},
    )
    assert {"weather WX19 on 0 x1", "weather WX19 on 1 x1", "weather WX19 on 2 x1"} <= legal(state)
    after = play(state, "weather WX19 on 0 x1")
    assert after.weathered == (1, 0, 0)
    assert ids(after, after.discards[0]) == ["WX19"], "'place it in your discards face up'"


def test_clause_weathering_up_to_the_number_specified():
    """'weather rocks, up to the number specified': a numeric card weathers 1 to n rocks."""
    game = make()
    state = position(game, hands={0: ["WX12"]}, mountains={1: ["WX06", "WX07", "WX09"]})
    plays = {a for a in legal(state) if a.startswith("weather WX12 on 1")}
    assert plays == {"weather WX12 on 1 x1", "weather WX12 on 1 x2"}
    assert play(state, "weather WX12 on 1 x2").weathered[1] == 2


def test_clause_weathering_occurs_from_the_top_rock_down_passing_weathered_rocks():
    """'Weathering occurs from the top rock of a mountain down'; 'Each rock may only be
    weathered once': weathered rocks on top are passed over."""
    game = make()
    state = position(
        game,
        hands={0: ["WX12"]},
        mountains={1: ["H41", "WX06", "WX07", "WX09"]},
        weathered={1: 1},
    )
    after = play(state, "weather WX12 on 1 x2")
    assert after.weathered[1] == 3, "the weathered basalt is passed over, two shales below"


def test_clause_shielding_a_rock_that_cannot_be_weathered_shields_all_beneath():
    """'If a rock cannot be weathered, all rocks beneath it are shielded from weathering!'
    Salt Crystallization weathers up to hardness 7: the basalt (8) stops it, and the shale
    under the basalt is shielded."""
    game = make()
    state = position(game, hands={0: ["WX12"]}, mountains={1: ["WX06", "H41", "WX07"]})
    plays = {a for a in legal(state) if a.startswith("weather WX12 on 1")}
    assert plays == {"weather WX12 on 1 x1"}
    with pytest.raises(
        IllegalAction,
        match=r"only 1 rock of mountain 1 .write x1.: the next rock, H41 .* shields those below",
    ):
        state.apply(0, game.parse_action("weather WX12 on 1 x2"))


def test_clause_shielding_a_hard_top_rock_shields_the_whole_mountain():
    """Root Wedging (hardness 6) cannot weather basalt on top: nothing beneath can be
    weathered, so the card may not be played there at all."""
    game = make()
    state = position(game, hands={0: ["WX02"]}, mountains={1: ["H41", "WX06", "WX07"]})
    assert not any(a.startswith("weather WX02 on 1") for a in legal(state))
    with pytest.raises(IllegalAction, match="at least one rock") as refused:
        state.apply(0, game.parse_action("weather WX02 on 1 x1"))
    # Why, in the rock's numbers (a mountain is drawn without its rocks' hardness).
    assert (
        "WX02 weathers rocks of hardness 6 or less, and the top unweathered rock of mountain 1"
        " is basalt, hardness 8" in str(refused.value)
    )


def test_clause_typed_card_weathers_all_unshielded_rocks_of_its_types():
    """'If a WX card lists types of rocks, it weathers all unshielded rocks of those types':
    Wetting-Drying (shale) weathers the shales down to the first rock of another type, which
    shields the shale beneath it."""
    game = make()
    state = position(
        game,
        hands={0: ["WX04"]},
        mountains={1: ["WX06", "WX07", "WX09", "H41", "WX10"]},
        weathered={1: 1},
    )
    assert "weather WX04 on 1" in legal(state)
    after = play(state, "weather WX04 on 1")
    assert after.weathered[1] == 3
    assert after.phase == "draw" and after.agenda[0].number == 2, "two rocks: two cards drawn"


def test_typed_card_cannot_be_played_where_its_type_is_not_on_top():
    """'You may not play a WX, H, or F card unless it processes at least one rock.'"""
    game = make()
    state = position(game, hands={0: ["WX04"]}, mountains={1: ["H41", "WX06"]})
    assert "weather WX04 on 1" not in legal(state)


@pytest.mark.parametrize(("rocks", "hill", "mountain"), [(7, True, False), (8, False, True)])
def test_clause_elevation_limits_hill_icon_below_4000_m_mountain_icon_at_4000_m(
    rocks, hill, mountain
):
    """'Cards with a hill icon may only be played on mountains that begin your turn less than
    4000 meters. Conversely, cards with a mountain icon are used if starting at 4000 meters
    or more.' A mountain of 8 rocks is exactly 4000 m."""
    game = make()
    state = position(game, hands={0: ["WX12", "WX08"]}, mountains={1: SHALES[:rocks]})
    assert state.height_m(1) == rocks * 500
    moves = legal(state)
    assert ("weather WX12 on 1 x1" in moves) is hill
    assert ("weather WX08 on 1 x1" in moves) is mountain
    card = "WX12 on 1 x1" if not hill else "WX08 on 1 x1"
    with pytest.raises(IllegalAction, match="icon"):
        state.apply(0, game.parse_action(f"weather {card}"))


def test_clause_weathered_rock_counts_toward_height_not_toward_victory():
    """'Weathered rock counts toward the height of a mountain, but does not count toward
    victory.' Eight shales, seven of them weathered, stand 4000 m: the mountain icon applies
    and the hill icon does not; the six weathered shales without a fossil score nothing
    (WX03's fossil 3, the unweathered WX02 1)."""
    game = make()
    state = position(game, hands={0: ["WX12", "WX08"]}, mountains={1: SHALES}, weathered={1: 7})
    assert state.height_m(1) == 4000
    moves = legal(state)
    assert "weather WX08 on 1 x1" in moves
    assert not any(a.startswith("weather WX12 on 1") for a in moves)
    assert state.points(1) == 3 + 1


def test_elevation_icons_apply_to_hillslope_cards_too():
    """The H deck carries hill and mountain icons as well (cards.json): Sheetwash (hill)
    cannot hillslope a 4000 m mountain, Landslide (mountain) can."""
    game = make()
    state = position(game, hands={0: ["H45", "H43"]}, mountains={1: SHALES}, weathered={1: 2})
    moves = legal(state)
    assert "hillslope H45 on 1 x1" not in moves
    assert "hillslope H43 on 1 x2" in moves


# -- hillslope ------------------------------------------------------------------------------
def test_clause_hillslope_moves_weathered_rocks_to_the_river():
    """'hillslope weathered rocks by moving them to the River, up to the number specified.
    The mountain hillsloped can be yours or an opponent's.'"""
    game = make()
    state = position(
        game,
        hands={0: ["H41"]},
        mountains={0: ["WX11", "WX06"], 1: ["WX06", "WX07", "WX09"]},
        weathered={0: 1, 1: 2},
    )
    moves = legal(state)
    assert {"hillslope H41 on 1 x1", "hillslope H41 on 1 x2", "hillslope H41 on 0 x1"} <= moves
    assert "hillslope H41 on 0 x2" not in moves, "only weathered rocks can be hillsloped"
    after = play(state, "hillslope H41 on 1 x2")
    assert ids(after, after.river) == ["WX06", "WX07"]
    assert ids(after, after.mountains[1]) == ["WX09"] and after.weathered[1] == 0


def test_hillslope_needs_a_weathered_rock():
    """A card may not be played unless it processes at least one rock."""
    game = make()
    state = position(game, hands={0: ["H41"]}, mountains={1: ["WX06"]})
    assert not any(a.startswith("hillslope") for a in legal(state))
    with pytest.raises(IllegalAction, match="no weathered rock"):
        state.apply(0, game.parse_action("hillslope H41 on 1 x1"))


# -- uplift ---------------------------------------------------------------------------------
def test_clause_uplift_draw_a_card_for_each_rock_weathered():
    """'For each card that you weather or hillslope, draw a card into your hand, respecting
    draw limits.' The decks are chosen before looking."""
    game = make()
    state = position(game, hands={0: ["WX12", "H42"]}, mountains={1: ["WX06", "WX07", "WX09"]})
    state = play(state, "weather WX12 on 1 x2")
    assert state.phase == "draw" and state.to_act == (0,)
    assert legal(state) == {
        "draw WX2 H0 F0",
        "draw WX0 H2 F0",
        "draw WX0 H0 F2",
        "draw WX1 H1 F0",
        "draw WX1 H0 F1",
        "draw WX0 H1 F1",
    }
    after = play(state, "draw WX1 H0 F1")
    assert len(after.hands[0]) == 3 and after.to_act == (1,)


def test_clause_uplift_reduces_the_hand_to_six_into_the_mountain_base():
    """'If you then have more cards than 6, reduce your hand to 6 by choosing cards to play as
    uplifted rocks. These rocks are added into your mountain from the bottom up ... They can
    be of any type.'"""
    game = make()
    state = position(
        game,
        hands={0: ["WX08", "H42", "H47", "F74", "F85", "WX19"]},
        mountains={0: ["WX13"], 1: SHALES},
        deck_tops={WX: ["WX30"], H: ["H48", "H49"]},
    )
    state = play(state, "weather WX08 on 1 x3")
    with pytest.raises(IllegalAction, match="at most WX2 H2 F2"):
        state.apply(0, game.parse_action("draw WX0 H3 F0"))
    state = play(state, "draw WX1 H2 F0")
    assert len(state.hands[0]) == 8 and state.phase == "uplift"
    assert {f"uplift {c}" for c in ["H42", "H47", "F74", "F85", "WX19", "WX30", "H48", "H49"]} == (
        legal(state)
    ), "any card of the hand, of any type"
    state = play(state, "uplift F85")
    assert state.phase == "uplift", "still 7 cards"
    state = play(state, "uplift WX19")
    assert ids(state, state.mountains[0]) == ["WX13", "F85", "WX19"], "added from the bottom"
    assert len(state.hands[0]) == 6 and state.to_act == (1,)
    assert state.weathered[0] == 0, "uplifted rocks are unweathered"


def test_uplift_only_when_the_hand_overflows():
    """With five cards after the play and two drawn, the hand holds 6: nothing is uplifted."""
    game = make()
    state = position(
        game,
        hands={0: ["WX12", "H42", "H47", "F74", "F85"]},
        mountains={0: ["WX13"], 1: ["WX06", "WX07"]},
    )
    after = play(state, "weather WX12 on 1 x2", "draw WX2 H0 F0")
    assert len(after.hands[0]) == 6 and after.mountains[0] == cards(game, ["WX13"])


def test_clause_uplift_draw_respects_draw_limits():
    """'draw a card into your hand, respecting draw limits': the H deck in an Ice Age (both
    Ice Age cards rotated) allows no H card; a short deck allows what it has."""
    game = make()
    aged = tuple(atm.age == "ice" for atm in game.catalog.atmospheres)
    state = position(
        game,
        hands={0: ["WX08"]},
        mountains={1: SHALES},
        aged=aged,
        deck_tops={WX: []},
    )
    state = play(state, "weather WX08 on 1 x3")
    assert state.draw_caps(0) == (2, 0, 2)
    assert all(" H0 " in move for move in legal(state))


def test_clause_uplift_occurs_only_with_the_play_of_wx_or_h_cards():
    """'Uplift occurs only with the play of WX or H cards': a Fluvial play draws no card for
    the rock it transports (the architecture half of the clause: test_advanced's Earthquake
    Fault)."""
    game = make()
    state = position(game, hands={0: ["F85", "WX11", "H41", "H42"]}, river=["WX09"])
    after = play(state, "fluvial F85 x1")
    assert ids(after, after.deltas[0]) == ["WX09"]
    assert ids(after, after.hands[0]) == ["H41", "H42"], "the F card and its payment, no draw"
    assert after.phase == "turn" and after.to_act == (1,)


# -- fluvial --------------------------------------------------------------------------------
def test_clause_fluvial_transport_exactly_n_rocks_each_paid_with_the_same_rock_type():
    """'transport from the River to your delta exactly the number of rocks specified on the F
    card. For each rock transported, you must discard the same rock type from your hand.'"""
    game = make()
    state = position(
        game,
        hands={0: ["F74", "WX11", "H41", "WX06"]},
        river=["WX09", "H42", "F85"],
    )
    assert "fluvial F74 x2" in legal(state)
    state = play(state, "fluvial F74 x2")
    assert state.phase == "transport"
    assert legal(state) == {"transport WX09", "transport H42"}, "no schist in hand for F85"
    state = play(state, "transport WX09")
    assert legal(state) == {"pay WX06", "pay WX11"}
    with pytest.raises(IllegalAction, match="pay with a shale"):
        state.apply(0, game.parse_action("pay H41"))
    state = play(state, "pay WX06")  # the basalt is then the only choice: taken at once
    assert ids(state, state.deltas[0]) == ["WX09", "H42"]
    assert ids(state, state.river) == ["F85"]
    assert sorted(ids(state, state.discards[0])) == ["F74", "H41", "WX06"]
    assert ids(state, state.hands[0]) == ["WX11"] and state.to_act == (1,)


def test_clause_fluvial_needs_exactly_n_payable_rocks():
    """Braided (3) cannot be played when only two River rocks can be paid for: 'exactly the
    number of rocks specified'."""
    game = make()
    state = position(game, hands={0: ["F76", "WX11", "H41"]}, river=["WX09", "H42", "F85", "WX13"])
    assert not any(a.startswith("fluvial") for a in legal(state))
    with pytest.raises(IllegalAction, match="only 2 River rocks"):
        state.apply(0, game.parse_action("fluvial F76"))
    # One rock, not "1 rocks".
    with pytest.raises(NotationError, match=r"F73 transports exactly 1 rock \(one more"):
        game.parse_action("fluvial F73 x3")


def test_clause_fluvial_the_f_card_itself_cannot_pay():
    """The F card goes to the discards as the process: it is not a payment (the seed's
    example discards one shale besides the 'Straight' card)."""
    game = make()
    state = position(game, hands={0: ["F85"]}, river=["F86"])
    assert "fluvial F85 x1" not in legal(state)


# -- draw cards -----------------------------------------------------------------------------
def test_clause_draw_cards_replenish_the_hand_to_six_within_draw_limits():
    """'Draw a number of cards from any of the 3 process decks to replenish your hand back up
    to a full 6 cards.' 'You may not draw more cards from a deck than the sum of its two
    visible draw limits.'"""
    game = make()
    state = position(game, hands={0: ["WX06", "WX07"]})
    draws = {a for a in legal(state) if a.startswith("draw")}
    assert draws == {
        "draw WX2 H2 F0",
        "draw WX2 H0 F2",
        "draw WX0 H2 F2",
        "draw WX2 H1 F1",
        "draw WX1 H2 F1",
        "draw WX1 H1 F2",
    }
    after = play(state, "draw WX2 H0 F2")
    assert len(after.hands[0]) == 6 and after.to_act == (1,)


def test_clause_draw_limits_can_keep_the_hand_below_six():
    """With the H deck in an Ice Age (limit 0) only 4 cards can be drawn."""
    game = make()
    aged = tuple(atm.age == "ice" for atm in game.catalog.atmospheres)
    state = position(game, hands={0: []}, aged=aged)
    draws = {a for a in legal(state) if a.startswith("draw")}
    assert draws == {"draw WX2 H0 F2"}


def test_full_hand_cannot_draw_but_can_discard_and_redraw():
    game = make()
    hand = ["WX06", "WX07", "WX09", "H41", "H42", "F85"]
    state = position(game, hands={0: hand})
    moves = legal(state)
    assert not any(a.startswith("draw") for a in moves)
    with pytest.raises(IllegalAction, match="hand is full"):
        state.apply(0, game.parse_action("draw WX1 H0 F0"))
    assert "redraw WX2 H2 F2" in moves


def test_clause_draw_alternatively_discard_all_and_draw_a_new_hand():
    """'Alternatively, you may discard all of your cards, and draw a new hand.'"""
    game = make()
    state = position(game, hands={0: ["WX06", "H41", "F85"]}, deck_tops={WX: ["WX30", "WX29"]})
    after = play(state, "redraw WX2 H2 F2")
    assert sorted(ids(after, after.discards[0])) == ["F85", "H41", "WX06"]
    assert len(after.hands[0]) == 6
    assert set(cards(game, ["WX30", "WX29"])) <= set(after.hands[0]), "drawn from the top"


def test_clause_an_emptied_hand_draws_six_and_ends_the_turn():
    """'If your play empties your hand, draw 6 new cards, observing draw limits. This ends
    your turn.'"""
    game = make()
    state = position(game, hands={0: ["F85", "WX11"]}, river=["WX09"])
    after = play(state, "fluvial F85 x1")
    assert ids(after, after.deltas[0]) == ["WX09"]
    assert len(after.hands[0]) == 6
    assert after.to_act == (1,)


def test_an_emptied_hand_draws_only_what_the_draw_limits_allow():
    game = make()
    aged = tuple(atm.age in ("ice", "arid") for atm in game.catalog.atmospheres)
    state = position(game, hands={0: ["F85", "WX11"]}, river=["WX09"], aged=aged)
    after = play(state, "fluvial F85 x1")
    assert len(after.hands[0]) == 2 and after.to_act == (1,)


def test_clause_pass_then_the_next_player_clockwise():
    """'On your turn, choose one of the following four actions, or else pass. Then go to the
    next player in clockwise order.'"""
    game = make(4)
    state = position(game, current=2)
    assert "pass" in legal(state)
    assert play(state, "pass").to_act == (3,)
    assert play(state, "pass", "pass").to_act == (0,)


def test_pass_is_always_possible():
    game = make()
    state = position(game, hands={0: []}, empty_decks=[WX, H, F])
    assert legal(state) == {"pass"}
