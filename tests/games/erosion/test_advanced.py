"""Advanced Rules (Montane Architecture, Atmospheric Triggers) and the Montane Legend
Variant (seed 003_56c9e64755493b11.txt; architecture effects as proposed in cards.json)."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from rich.console import Console

from meeple.games.erosion.rules import WX, F, H

from .conftest import cards, legal, make, play, position

SHALES = ["WX06", "WX07", "WX09", "WX10", "WX11", "WX03", "WX05", "WX02"]


def atm(game, name: str) -> int:
    return game.catalog.atm_index[name]


# -- Montane Architecture -------------------------------------------------------------------
def test_clause_architecture_is_ignored_unless_playing_advanced_rules():
    """'Ignore text in the rock portion unless playing with Advanced rules (Montane
    Architecture).' A Batholith is weathered by a hill-icon card in the basic game."""
    for advanced, playable in ((False, True), (True, False)):
        game = make(advanced=advanced)
        state = position(game, hands={0: ["WX12"]}, mountains={1: ["H51"]})
        assert ("weather WX12 on 1 x1" in legal(state)) is playable


def test_clause_upon_uplift_architecture_never_fires_for_a_starting_mountain():
    """'Rules that say "upon uplift" apply only when the card is first uplifted': a starting
    mountain is dealt, not uplifted, so its Black Shale, Flood Basalt or Earthquake Fault
    does nothing; the first turn starts with every Atmosphere at its normal end."""
    game = make(4, advanced=True)
    seen = 0
    for seed in range(20):
        state = game.new_game(seed)
        architectures = [
            game.catalog.process_cards[r].architecture for m in state.mountains for r in m
        ]
        seen += sum(a is not None and a.upon_uplift for a in architectures)
        assert not any(state.aged) and state.agenda == () and state.river == ()
        assert state.phase == "turn"
    assert seen, "some starting mountain holds an 'upon uplift' card"


def test_batholith_cannot_be_weathered_by_hill_icon_cards_and_shields_beneath():
    """H51 Batholith (red): 'cannot be weathered by cards with a hill icon'; like any rock
    that cannot be weathered, it shields the rocks beneath."""
    game = make(advanced=True)
    state = position(game, hands={0: ["WX12", "WX19"]}, mountains={1: ["WX06", "H51", "WX07"]})
    moves = legal(state)
    assert "weather WX12 on 1 x1" in moves and "weather WX12 on 1 x2" not in moves
    state = play(state, "weather WX12 on 1 x1", "draw WX1 H0 F0")
    assert "weather WX19 on 1 x1" in legal(play(state, "pass")), "no icon: weathers it"


def test_resistant_caprock_only_frost_wedging_weathers_it():
    """F71 Resistant Caprock (red): 'cannot be weathered except by Frost Wedging'."""
    game = make(advanced=True)
    state = position(game, hands={0: ["WX19", "WX08"]}, mountains={1: ["F71", *SHALES[:7]]})
    moves = legal(state)
    assert not any(m.startswith("weather WX19 on 1") for m in moves)
    assert "weather WX08 on 1 x3" in moves


def test_exfoliation_dome_numeric_wx_cards_weather_one_more_rock():
    """H53 Exfoliation Dome (red): 'your numeric WX cards weather +1 rock' — while it stays
    unweathered in your mountain."""
    game = make(advanced=True)
    state = position(game, hands={0: ["WX12"]}, mountains={0: ["H53"], 1: ["WX06", "WX07", "WX09"]})
    assert "weather WX12 on 1 x3" in legal(state)
    weathered = position(
        game,
        hands={0: ["WX12"]},
        mountains={0: ["H53"], 1: ["WX06", "WX07", "WX09"]},
        weathered={0: 1},
    )
    assert "weather WX12 on 1 x3" not in legal(weathered), "a weathered Dome gives nothing"


def test_two_exfoliation_domes_in_force_add_both_and_every_such_move_has_an_id(tmp_path):
    """A designer's card file may print a second Exfoliation Dome; both standing in one
    mountain add both bonuses, and the game's list of every action (its ids: what the
    server, the environments and the search read) holds those moves too. It held one
    Dome's bonus, so the legal move had no id."""
    data = json.loads(resources.files("meeple.games.erosion").joinpath("cards.json").read_text())
    dome = next(c for c in data["cards"] if c["id"] == "H53")["architecture"]
    next(c for c in data["cards"] if c["id"] == "H60")["architecture"] = dome
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data))
    game = make(advanced=True, cards=str(path))
    state = position(game, hands={0: ["WX12"]}, mountains={0: ["H53", "H60"], 1: SHALES[:5]})
    assert "weather WX12 on 1 x4" in legal(state) and "weather WX12 on 1 x5" not in legal(state)
    for action in state.legal_actions(0):
        assert game.action_from_id(game.action_id(action)) == action


def test_caldera_counts_as_4000_m_for_elevation_icons():
    """H64 Caldera (red): 'your mountain counts as >=4000 m for elevation icons'."""
    game = make(advanced=True)
    state = position(game, hands={0: ["WX12", "WX08"]}, mountains={1: ["WX06", "H64"]})
    moves = legal(state)
    assert "weather WX08 on 1 x1" in moves and "weather WX12 on 1 x1" not in moves


def test_glacier_f_cards_may_transport_one_more_rock_at_4000_m():
    """F73 Glacier (red): 'if your mountain is >=4000 m, your F cards may transport +1
    rock'."""
    game = make(advanced=True)
    hand = ["F74", "WX11", "WX12", "WX13"]
    river = ["WX04", "WX14", "WX15"]
    basalts = ["H43", "H44", "H45", "H46", "H47", "H48", "H49"]
    high = position(game, hands={0: hand}, river=river, mountains={0: ["F73", *basalts]})
    assert {"fluvial F74 x2", "fluvial F74 x3"} <= legal(high)
    low = position(game, hands={0: hand}, river=river, mountains={0: ["F73", *basalts[:6]]})
    assert "fluvial F74 x3" not in legal(low)


def test_aquifer_raises_your_f_draw_limit():
    """WX24 Aquifer (red): 'your draw limit from the F deck is +1'."""
    game = make(advanced=True)
    state = position(game, hands={0: []}, mountains={0: ["WX24"]})
    assert state.draw_limit(F, 0) == 3 and state.draw_limit(F, 1) == 2
    assert "draw WX1 H2 F3" in legal(state)


def test_reef_scores_one_more_point_while_unweathered():
    """WX17 Reef (red): '+1 point at era end while unweathered'."""
    game = make(advanced=True)
    assert position(game, mountains={0: ["WX17"]}).points(0) == 2
    assert position(game, mountains={0: ["WX17"]}, weathered={0: 1}).points(0) == 0


# -- Atmospheric Triggers -------------------------------------------------------------------
def uplift_two(game, pair: list[str]):
    """Seat 0 weathers 3 rocks with a full hand holding ``pair``: 2 cards to uplift."""
    state = position(
        game,
        hands={0: ["WX08", *pair, "F85", "F86", "F87"]},
        mountains={1: SHALES},
        deck_tops={WX: ["WX30", "WX29"], H: ["H48"]},
    )
    return play(state, "weather WX08 on 1 x3", "draw WX2 H1 F0")


def test_clause_trigger_rotates_an_atmosphere_and_changes_the_draw_limit_at_once():
    """'If an architecture specifies one or more Atmospheres to be triggered, rotate the
    cards by 180 degrees ... This immediately changes its draw limit.' H39 Flood Basalt:
    'upon uplift: trigger one Ice Age atmosphere'; the next draw respects the new limit."""
    game = make(advanced=True)
    state = uplift_two(game, ["H39", "H42"])
    state = play(state, "uplift H39")
    assert state.phase == "trigger" and legal(state) == {"trigger ATM3", "trigger ATM4"}
    state = play(state, "trigger ATM3")
    assert state.aged[atm(game, "ATM3")] and state.draw_limit(H) == 1
    state = play(state, "uplift H42")
    assert state.to_act == (1,)
    # seat 1 draws a new hand: at most one card from the H deck now
    draws = {m for m in legal(state) if m.startswith("draw")}
    assert draws and all(" H0 " in m or " H1 " in m for m in draws)


def test_clause_each_atmosphere_triggered_at_most_once_per_turn():
    """'You may trigger each Atmosphere card no more than once in your turn.' Two Flood
    Basalts uplifted in one turn rotate both Ice Age cards (the second has one choice left),
    closing the H deck: 'may not be drawn from, since the sum of its two draw limits is
    zero'."""
    game = make(advanced=True)
    state = uplift_two(game, ["H39", "H40"])
    state = play(state, "uplift H39", "trigger ATM4", "uplift H40")
    assert state.aged[atm(game, "ATM3")] and state.aged[atm(game, "ATM4")]
    assert state.draw_limit(H) == 0 and state.to_act == (1,)
    assert all(" H0 " in m for m in legal(state) if "draw" in m)


def test_a_trigger_with_no_atmosphere_left_this_turn_does_nothing():
    """Supervolcano after both Ice Age cards were triggered this turn: only its Hypoxic
    trigger happens."""
    game = make(advanced=True)
    state = position(
        game,
        hands={0: ["WX08", "H39", "H40", "H63", "F85", "F86"]},
        mountains={0: ["H53"], 1: SHALES},
        deck_tops={WX: ["WX30", "WX29"], H: ["H48"], F: ["F87"]},
    )
    state = play(state, "weather WX08 on 1 x4", "draw WX2 H1 F1")
    state = play(state, "uplift H39", "trigger ATM3", "uplift H40", "uplift H63")
    assert state.phase == "trigger" and legal(state) == {"trigger ATM1", "trigger ATM2"}
    state = play(state, "trigger ATM2")
    assert state.to_act == (1,) and sum(state.aged) == 3


def test_triggering_an_aged_atmosphere_rotates_it_back():
    """'rotate the cards by 180 degrees, exposing or hiding their ... legend'."""
    game = make(advanced=True)
    aged = tuple(a.id == "ATM1" for a in game.catalog.atmospheres)
    state = position(
        game,
        hands={0: ["WX08", "WX05", "H42", "F85", "F86", "F87"]},
        mountains={1: SHALES},
        deck_tops={WX: ["WX30", "WX29"], H: ["H48"]},
        aged=aged,
    )
    assert state.draw_limit(WX) == 1
    state = play(state, "weather WX08 on 1 x3", "draw WX1 H1 F1", "uplift WX05")
    state = play(state, "trigger ATM1", "uplift H42")
    assert not any(state.aged) and state.draw_limit(WX) == 2


def test_impact_breccia_triggers_any_one_atmosphere():
    game = make(advanced=True)
    state = uplift_two(game, ["WX31", "H42"])
    state = play(state, "uplift WX31")
    assert legal(state) == {f"trigger ATM{i}" for i in range(1, 7)}


def test_earthquake_fault_hillslopes_one_weathered_rock_without_uplift_draw():
    """F81 Earthquake Fault: 'upon uplift: hillslope 1 weathered rock from any mountain';
    'Uplift occurs only with the play of WX or H cards, not by architecture WX or H
    effects.'"""
    game = make(advanced=True)
    state = position(
        game,
        hands={0: ["WX08", "F81", "H42", "F85", "F86", "F87"]},
        mountains={0: ["WX13", "WX14"], 1: SHALES},
        weathered={0: 1},
        deck_tops={WX: ["WX30", "WX29"], H: ["H48"]},
    )
    state = play(state, "weather WX08 on 1 x3", "draw WX2 H1 F0", "uplift F81")
    assert state.phase == "fault" and legal(state) == {"fault on 0", "fault on 1"}
    state = play(state, "fault on 1")
    assert state.river == cards(game, ["WX06"]) and state.weathered[1] == 2
    assert len(state.hands[0]) == 7 and state.phase == "uplift", "no card drawn for it"


# -- Montane Legend Variant -----------------------------------------------------------------
def test_clause_legend_claimed_once_its_height_and_capstone_are_met():
    """'You can claim a legend card at any time after you meet the conditions (height and
    capstone rock type) stated on it.' Everest: 5000 m capped by limestone or shale."""
    game = make(legend="basic")
    tall = ["WX13", *SHALES, "H41"]
    hunter = next(i for i, c in enumerate(game.challenge_cards) if c.id == "C3")
    state = position(game, mountains={1: tall}, challenges=(hunter, hunter))
    assert state.legends == (-1, -1, -1, -1)
    state = play(state, "pass")
    assert state.legends[0] == 1, "claimed as soon as met"
    everest = game.legend_cards[0]
    assert state.points(1) == 10 + everest.points
    # a claimed legend stays claimed even if the mountain later loses the condition
    assert play(state, "pass").result["scores"][1] == 10 + everest.points


def test_clause_advanced_legend_claim_needs_both_rock_types_on_top():
    """'To claim a legend card, you need both listed rock types on your mountaintop, instead
    of just one, in any order.'"""
    game = make(legend="advanced")
    one = position(game, mountains={1: ["WX13", "H41", *SHALES]})
    assert play(one, "pass").legends[0] == -1
    both = position(game, mountains={1: ["WX06", "WX13", "H41", *SHALES[1:]]})
    assert play(both, "pass").legends[0] == 1


@pytest.mark.parametrize(
    ("claims", "everest"),
    [("basic", "capped by limestone or shale"),
     ("advanced", "5000 m or more, the top two rocks limestone and shale in any order")],
)  # fmt: skip
def test_the_legend_conditions_a_player_reads_follow_the_claims(claims, everest):
    """'Advanced Legend Claim: ... you need both listed rock types on your mountaintop,
    instead of just one': with advanced claims the player rules' table and the board's
    legends line gave the printed 'capped by limestone or shale', a claim that is not
    enough."""
    game = make(legend=claims)
    words = " ".join(game.player_rules().split())
    console = Console(width=400, record=True, color_system=None)
    console.print(game.render(game.new_game(0), 0))
    board = console.export_text()
    for text in (words, board):
        assert everest in text
        assert ("capped by limestone or shale" in text) is (claims == "basic")


def test_clause_challenge_card_bonus_at_each_scoring():
    """'If you meet your challenge card condition during each scoring, you earn the bonus
    points listed.' Delta Builder: 4 or more rocks in your delta."""
    game = make(legend="basic")
    builder = next(i for i, c in enumerate(game.challenge_cards) if c.id == "C2")
    summit = next(i for i, c in enumerate(game.challenge_cards) if c.id == "C1")
    state = position(
        game,
        deltas={0: ["F85", "F86", "F87", "F88"], 1: ["F89"]},
        challenges=(builder, summit),
    )
    assert state.view(1)["challenges"] == [None, "C1"], "a challenge card is secret"
    over = play(state, "pass", "pass")
    assert over.result["scores"] == [8 + game.challenge_cards[builder].points, 2]
    assert over.view(1)["challenges"] == ["C2", "C1"], "shown at the scoring"


def test_clause_the_four_legend_cards_lie_face_up():
    """'Place all four montane legend cards face up near the Process Decks': every seat (and
    an onlooker) sees the four legend cards, unclaimed at the start."""
    state = make(3, legend="basic").new_game(3)
    face_up = [{"card": f"L{i}", "owner": None} for i in range(1, 5)]
    for seat in (None, 0, 1, 2):
        assert state.view(seat)["legends"] == face_up


def test_legend_variant_deals_one_challenge_per_player():
    """'Each player is dealt one montane challenge card.'"""
    state = make(5, legend="basic").new_game(4)
    assert len(set(state.challenges)) == 5
    assert make(2).new_game(4).challenges == ()
