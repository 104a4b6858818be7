"""Erosion's open readings as options (issue 34, item 4); each test quotes its sentence."""

from __future__ import annotations

import pytest

from meeple.games.erosion.rules import WX, H

from .conftest import cards, legal, make, play, position

SHALES = ["WX06", "WX07", "WX09", "WX10", "WX11", "WX03", "WX05", "WX02"]


@pytest.mark.parametrize(
    ("when", "hand", "uplifted"), [("after-uplift", 2, 0), ("before-uplift", 6, 2)]
)
def test_an_emptied_hand_draws_six_before_or_after_the_uplift_draws(when, hand, uplifted):
    """'If your play empties your hand, draw 6 new cards, observing draw limits.' Red plays
    its only card, weathering two rocks. After the uplift draws (as before), the two cards
    drawn leave the hand non-empty: no six. Literally at once, the six come first and the
    two uplift draws on top of them are uplifted into Red's mountain."""
    game = make(empty_hand=when)
    state = position(game, hands={0: ["WX12"]}, mountains={0: ["WX13"], 1: ["WX06", "WX07"]})
    state = play(state, "weather WX12 on 1 x2")
    if when == "before-uplift":
        assert len(state.hands[0]) == 6 and state.phase == "draw"  # the six, then the two
    state = play(state, "draw WX2 H0 F0")
    while state.phase == "uplift":
        state = play(state, sorted(legal(state))[0])
    assert len(state.hands[0]) == hand and len(state.mountains[0]) == 1 + uplifted
    assert state.to_act == (1,)


@pytest.mark.parametrize("source", ["several", "one"])
def test_draw_cards_from_several_decks_or_from_one(source):
    """'Draw a number of cards from any of the 3 process decks to replenish your hand back
    up to a full 6 cards': from several decks at once (as before), or all from one deck
    (as many as its draw limit allows)."""
    state = position(make(draw_from=source), hands={0: ["WX06", "H41", "F85"]})
    draws = {a for a in legal(state) if a.startswith("draw")}
    redraws = {a for a in legal(state) if a.startswith("redraw")}
    if source == "one":
        assert draws == {"draw WX2 H0 F0", "draw WX0 H2 F0", "draw WX0 H0 F2"}
        assert redraws == {"redraw WX2 H0 F0", "redraw WX0 H2 F0", "redraw WX0 H0 F2"}
    else:
        assert "draw WX1 H1 F1" in draws and len(draws) == 7
        assert redraws == {"redraw WX2 H2 F2"}


def test_the_player_rules_say_a_redraw_is_drawn_as_a_draw_is():
    """'Alternatively, you may discard all of your cards, and draw a new hand': under
    draw_from=one the new hand comes from one deck too (2 cards at the starting draw
    limits), so the player rules do not promise six."""
    text = make(draw_from="one").player_rules()
    assert "from **one** deck" in text
    assert "draw a new one the same way" in text and "draw 6 anew" not in text


@pytest.mark.parametrize(("reading", "triggers"), [("every", True), ("once", False)])
def test_upon_uplift_architecture_fires_every_time_or_only_the_first(reading, triggers):
    """'Rules that say "upon uplift" apply only when the card is first uplifted.' Black
    Shale (WX05: trigger one Hypoxic Age atmosphere) has fired once this game already: it
    fires again at every uplift, or (once) no more."""
    game = make(advanced=True, uplift_architecture=reading)
    state = position(
        game,
        hands={0: ["WX08", "WX05", "H42", "F85", "F86", "F87"]},
        mountains={1: SHALES},
        deck_tops={WX: ["WX30", "WX29"], H: ["H48"]},
        fired=cards(game, ["WX05"]),
    )
    state = play(state, "weather WX08 on 1 x3", "draw WX1 H1 F1", "uplift WX05")
    assert (state.phase == "trigger") == triggers
    first = position(
        game,
        hands={0: ["WX08", "WX05", "H42", "F85", "F86", "F87"]},
        mountains={1: SHALES},
        deck_tops={WX: ["WX30", "WX29"], H: ["H48"]},
    )
    first = play(first, "weather WX08 on 1 x3", "draw WX1 H1 F1", "uplift WX05")
    assert first.phase == "trigger", "the first uplift fires under both readings"
    assert first.fired == (cards(game, ["WX05"]) if reading == "once" else ())


@pytest.mark.parametrize("reading", ["shield", "pass-over"])
def test_a_typed_card_is_shielded_by_an_unlisted_rock_or_passes_over_it(reading):
    """'Shielding: ... If a rock cannot be weathered, all rocks beneath it are shielded from
    weathering!' and 'If a WX card lists types of rocks, it weathers all unshielded rocks of
    those types'. WX04 lists shale; mountain 1 is limestone, shale, basalt, shale from the
    top. Shielded by the limestone, it cannot be played there; passing over the limestone
    and the basalt, it weathers both shales, which then lie below unweathered rocks."""
    game = make(typed_weathering=reading)
    state = position(
        game,
        hands={0: ["WX04", "F85"]},
        mountains={0: ["WX13"], 1: ["WX12", "WX06", "H41", "WX09"]},
    )
    if reading == "shield":
        assert "weather WX04 on 1" not in legal(state)
        return
    assert "weather WX04 on 1" in legal(state)
    state = play(state, "weather WX04 on 1", "draw WX2 H0 F0")
    assert state.weathered[1] == 0 and state.below(1) == cards(game, ["WX06", "WX09"])
    assert state.unweathered_rocks(1) == list(cards(game, ["WX12", "H41"]))
    assert state.points(1) == 2  # two unweathered rocks, no fossil among the shales
    assert state.view(1)["mountains"][1]["weathered_below"] == ["WX06", "WX09"]
    # Once the limestone on top is weathered, the shale below joins the run at the top.
    joined = state._weather(1, list(cards(game, ["WX12"])))
    assert joined.weathered[1] == 2 and joined.below(1) == cards(game, ["WX09"])
    # Hillslope takes the run from the top: the weathered shale left below stays.
    eroded = joined._erode(1, 2)
    assert eroded.weathered[1] == 0 and eroded.below(1) == cards(game, ["WX09"])
    assert eroded.mountains[1] == cards(game, ["H41", "WX09"])
