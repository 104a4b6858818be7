"""What each seat may see, determinization, notation and the integer encoding."""

from __future__ import annotations

import json
import random

import pytest

import meeple
from meeple.core.conformance import random_playthrough
from meeple.core.errors import IllegalAction, NotationError
from meeple.games.erosion import Draw, Fluvial, Weather

from .conftest import make, play, position


def test_views_hide_hands_decks_and_other_deltas():
    """'[the hand is] kept concealed from the others'; 'These decks may not be examined or
    counted'; 'Delta cards are played face down, whereas discards go face up.'"""
    game = make(3)
    state = position(
        game,
        hands={0: ["WX06", "H41"], 1: ["F85"]},
        mountains={0: ["WX07"], 1: ["H42", "H43"]},
        weathered={1: 1},
        deltas={1: ["F86", "F87"]},
        river=["WX09"],
    )
    state = play(state, "pass")
    deck_cards = {game.catalog.ids[c] for deck in state.decks for c in deck}
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        words = set(json.dumps(view).replace('"', " ").replace(",", " ").split())
        assert not deck_cards & words, "no deck card appears in any view"
        assert view["hands"][0]["count"] == 2 and view["hands"][0]["by_deck"]["WX"] == 1
        assert view["deltas"][1]["count"] == 2
        assert view["river"] == ["WX09"]
        assert view["mountains"][1] == {"rocks": ["H42", "H43"], "weathered": 1, "height_m": 1000}
        assert view["discards"] == state.view(None)["discards"]
        assert view["hands"][0]["cards"] == (["WX06", "H41"] if seat == 0 else None)
        assert view["deltas"][1]["cards"] == (["F86", "F87"] if seat == 1 else None)
    assert set(state.view(None)["decks"]["WX"]) == {"empty", "draw_limit"}


def test_determinize_resamples_only_what_the_seat_cannot_see():
    game = meeple.make("erosion", players=4, advanced=True)
    play_ = random_playthrough(game, 5)
    states = play_.record().model_copy(update={"moves": play_.moves[:30]}).states()
    state = states[-1]
    rng = random.Random(1)
    changed = False
    for seat in range(4):
        for _ in range(5):
            sample = state.determinize(seat, rng)
            assert sample.view(seat) == state.view(seat)
            assert sample.hands[seat] == state.hands[seat]
            assert sample.deltas[seat] == state.deltas[seat]
            assert sample.mountains == state.mountains and sample.river == state.river
            assert sample.seed != state.seed, "later chance events are resampled too"
            changed |= sample.hands != state.hands or sample.decks != state.decks
    assert changed


def test_determinize_mid_fluvial_keeps_a_hand_that_can_pay():
    """Everyone saw the F card played: its player must be able to pay for the rest."""
    game = make()
    state = position(
        game,
        hands={0: ["F76", "F84", "F83", "H41", "WX13"], 1: ["WX06"]},
        river=["F85", "F86", "H42", "WX14"],
    )
    state = play(state, "fluvial F76 x3", "transport F85")
    assert state.phase == "pay"
    rng = random.Random(3)
    for _ in range(200):
        sample = state.determinize(1, rng)
        assert sample.can_pay(0, sample.hands[0])
        assert sample.legal_actions(0)


# -- notation -------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 5])
def test_every_action_id_round_trips_through_its_notation(players):
    game = meeple.make("erosion", players=players)
    for i in range(game.num_actions):
        action = game.action_from_id(i)
        assert game.action_id(action) == i
        assert game.parse_action(str(action)) == action


def test_notation_is_forgiving_about_case_and_spacing():
    game = make()
    assert game.parse_action("Weather wx12 ON seat 1 X2") == Weather("WX12", 1, 2)
    assert game.parse_action("weather WX04 1") == Weather("WX04", 1, 0)
    assert game.parse_action("fluvial F74") == Fluvial("F74", 2), "an F card's own number"
    assert game.parse_action("draw H1 WX2") == Draw(2, 1, 0)
    assert str(game.parse_action(" PASS ")) == "pass"
    # and about a card number's leading zero: "WX9" was refused as no card, WX01-WX38 beside
    assert game.parse_action("weather WX4 on 1") == Weather("WX04", 1, 0)
    assert str(game.parse_action("uplift wx005")) == "uplift WX05"
    assert game.parse_action("hillslope H042 on 0 x1") == game.parse_action("hillslope H42 on 0 x1")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("dance", "not an Erosion action"),
        ("weather H41 on 1 x1", "not a WX card"),
        ("weather WX99 on 1 x1", "no process card WX99"),
        ("weather WX039 on 1 x1", "no process card WX039"),
        ("weather WX04 on 1 x2", "without a count"),
        ("weather WX12 on 1", "say how many rocks"),
        ("weather WX12 on 7 x1", "no mountain 7"),
        ("hillslope H42 on 0 x3", "x1 to x1"),
        ("fluvial F85 x3", "exactly 1"),
        ("draw", "write the cards from each deck"),
        ("draw WX9", "1 to 6 cards"),
        ("trigger ATM9", "no Atmosphere card ATM9"),
        ("guess 11", "out of range"),
    ],
)
def test_bad_notation_says_what_is_expected(text, message):
    with pytest.raises(NotationError, match=message):
        make().parse_action(text)


@pytest.mark.parametrize("advanced", [False, True])
def test_a_count_left_out_is_asked_with_the_bonus_only_where_there_is_architecture(advanced):
    """The basic rules have no architecture: a count left out was answered with "up to x3
    with your architecture's bonus" all the same."""
    import meeple

    with pytest.raises(NotationError) as refused:
        meeple.make("erosion", advanced=advanced).parse_action("weather WX16 on 1")
    said = str(refused.value)
    assert "say how many rocks WX16 weathers: x1 to x2" in said
    assert ("architecture's bonus" in said) is advanced


def test_illegal_actions_give_a_reason_and_change_nothing():
    game = make()
    state = position(game, hands={0: ["WX12"]}, mountains={1: ["WX06"]})
    before = state.view(0)
    with pytest.raises(IllegalAction, match="WX13 is not in your hand"):
        state.apply(0, game.parse_action("weather WX13 on 1 x1"))
    with pytest.raises(IllegalAction, match="not to act"):
        state.apply(1, game.parse_action("pass"))
    with pytest.raises(IllegalAction, match="now choose the cards to draw"):
        play(state, "weather WX12 on 1 x1").apply(0, game.parse_action("pass"))
    assert state.view(0) == before


def test_a_wrong_count_of_rocks_says_what_the_card_and_the_mountain_allow():
    """WX12 weathers up to 2 rocks of hardness 7 or less: past its number the refusal says
    its number; where a harder rock stops it sooner, it names that rock, and never offers
    a count it then refuses (as 'x1 to x2' followed by 'x1 to x1' once did)."""
    game = make()
    soft = position(game, hands={0: ["WX12"]}, mountains={1: ["WX06", "WX03", "WX09"]})
    with pytest.raises(IllegalAction, match=r"WX12 weathers at most 2 rocks: write x1 to x2$"):
        soft.apply(0, game.parse_action("weather WX12 on 1 x3"))
    hard = position(game, hands={0: ["WX12"]}, mountains={1: ["WX06", "H41"]})
    with pytest.raises(IllegalAction) as refused:
        hard.apply(0, game.parse_action("weather WX12 on 1 x2"))
    assert str(refused.value).endswith(
        "WX12 can weather only 1 rock of mountain 1 (write x1): the next rock, H41 (basalt, "
        "hardness 8), is harder than the 7 it weathers, and shields those below"
    )
    play(hard, "weather WX12 on 1 x1")  # what it said to write is legal


def test_the_cards_no_action_can_play_are_named_with_why():
    """'A card may not be played unless it processes at least one rock': a page greys out
    the cards of the hand that no action of the turn can play, and says why. The cards
    named are exactly the hand's cards that no legal action plays, at every turn's choice
    of action; at any other step none is named."""
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        game = meeple.make("erosion", players=players, advanced=True)
        for state in random_playthrough(game, seed).record().states():
            for seat in state.to_act:
                named = state.unplayable(seat)
                if state.agenda:
                    assert named == {}
                    continue
                played = {getattr(a, "card", None) for a in state.legal_actions(seat)}
                hand = {game.catalog.ids[c] for c in state.hands[seat]}
                assert set(named) == hand - played
                assert all(why.startswith(card) for card, why in named.items())
    game = make()
    state = position(game, hands={0: ["H43", "WX12", "F79"]}, mountains={1: ["WX06"]})
    assert state.unplayable(0) == {
        "H43": "H43 has a mountain icon: it plays only on a mountain of 4000 m or more (as at "
        "the start of your turn), and none is",
        "F79": "F79 transports rocks from the River, and the River is empty",
    }
    assert state.unplayable(1) == {}, "not to act"


def test_why_illegal_agrees_with_legal_actions_for_every_action():
    """Every id is either legal or refused with a reason, never both."""
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        game = meeple.make("erosion", players=players, advanced=True)
        play_ = random_playthrough(game, seed)
        for state in play_.record().states()[::7]:
            if state.is_over:
                continue
            seat = state.to_act[0]
            allowed = set(state.legal_action_ids(seat))
            for i in range(game.num_actions):
                reason = state.why_illegal(seat, game.action_from_id(i))
                assert (reason is None) == (i in allowed)
