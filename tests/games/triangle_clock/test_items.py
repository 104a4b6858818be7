"""The Final Match items and their limits, clause by clause against the seed."""

from __future__ import annotations

import pytest

import meeple
from meeple.core.errors import IllegalAction
from meeple.games.triangle_clock import Item, Phase, Pick
from meeple.games.triangle_clock.cards import SYMBOL_NAMES, card_name
from meeple.games.triangle_clock.rules import MULLIGAN

from .conftest import arrange, both, cards_in_game, play_round

HANDS = (
    "Es+Ss Ws+NWc SWs+SWc Ec+Wc",
    "Nc+NEs Sc+SWc SEs+SEc NEc+Wc",
)


def revealed(state, seat):
    return [p["symbol"] for p in state.view(1 - seat)["revealed"][seat]]


# -- Palette Swap and Right Angle -----------------------------------------------------------
def test_clause_palette_swap_changes_the_colour_of_the_symbol_about_to_be_revealed(game):
    """Palette Swap: 'change a symbol in your hand from clear to solid, or a solid to clear.
    Use on a symbol you are about to reveal.'"""
    state = both(arrange(game, HANDS, shared="Ns"), "A +palette-swap", "A")
    assert revealed(state, 0) == ["Ec"]  # Es printed, revealed clear
    assert state.view(1)["revealed"][0][0]["items"] == ["palette-swap"]
    assert card_name(state.seats[0].hand[0]) == "Es+Ss"  # the card itself is unchanged
    assert state.seats[0].uses[Item.PALETTE_SWAP] == 2


def test_clause_right_angle_turns_the_symbol_about_to_be_revealed(game):
    """Right Angle: 'change a symbol in your hand by rotating a triangle 90 degrees
    clockwise. Use on a symbol you are about to reveal.'"""
    state = both(arrange(game, HANDS, shared="Ns"), "D +right-angle", "A")
    assert revealed(state, 0) == ["NEc"]  # NWc turned a quarter clockwise
    assert state.seats[0].uses[Item.RIGHT_ANGLE] == 2


def test_both_items_may_change_one_symbol(game):
    state = both(arrange(game, HANDS, shared="Ns"), "A +palette-swap +right-angle", "A")
    assert revealed(state, 0) == ["Sc"]


def test_the_changed_symbol_counts_in_the_hand(game):
    """Tick turns Ws into Ns: the hand is ranked as revealed, Ns Es Ns Ss (a Flush 3 Set
    Rotate), not as printed, Ns Es Ws Ss (a Flush 4 Set Rotate)."""
    state = play_round(
        arrange(game, HANDS, shared="Ns"), ("A", "C +right-angle", "B"), ("A", "D", "B")
    )
    tick = state.history[-1].seats[0]
    assert [SYMBOL_NAMES[s] for s in tick.hand] == ["Ns", "Es", "Ns", "Ss"]
    assert tick.rank == "Flush 3 Set Rotate"


def test_an_unrevealed_item_use_is_hidden_from_the_opponent(game):
    """The item is used on the symbol as it is revealed: before that, nothing shows."""
    state = arrange(game, HANDS, shared="Ns").apply_text(0, "A +palette-swap")
    assert state.view(1)["items"][0] == {"palette-swap": 3, "right-angle": 3}
    assert state.view(1) == arrange(game, HANDS, shared="Ns").apply_text(0, "B").view(1)


@pytest.mark.parametrize("item", ["palette-swap", "right-angle"])
def test_clause_item_not_more_than_once_on_a_single_round(game, item):
    """'It may not be used more than once on a single round.'"""
    state = both(arrange(game, HANDS, shared="Ns"), f"A +{item}", "A")
    with pytest.raises(IllegalAction, match="may not be used more than once in a round"):
        state.apply_text(0, f"C +{item}")
    assert all(item not in str(a) for a in state.legal_actions(0))
    state = both(state, "C", "C")
    with pytest.raises(IllegalAction, match="more than once in a round"):
        state.apply_text(0, f"B +{item}")


def test_palette_swap_and_right_angle_in_the_same_round(game):
    """The once-a-round limit is per item: one of each in a round is allowed."""
    state = both(arrange(game, HANDS, shared="Ns"), "A +palette-swap", "A")
    state = both(state, "C +right-angle", "C")
    assert state.seats[0].uses[:2] == (2, 2)


@pytest.mark.parametrize("item", [Item.PALETTE_SWAP, Item.RIGHT_ANGLE])
def test_clause_item_can_be_used_3_times_throughout_the_game(game, item):
    """'This can be used 3 times throughout the game.' A fourth use is refused."""
    word = f" +{item.label}"
    state = arrange(game, HANDS, shared="Ns Es Ss Ws")
    for _ in range(3):
        state = play_round(state, ("A" + word, "C", "B"), ("A", "C", "B"))
    assert state.seats[0].uses[item] == 0
    with pytest.raises(IllegalAction, match=f"used the {item.title} all 3 times"):
        state.apply_text(0, "A" + word)
    assert all(item.label not in str(a) for a in state.legal_actions(0))


def test_items_are_only_for_the_seat_that_holds_them(game):
    """Default allocation: Tick holds Palette Swap and Right Angle, Tock the Mulligan."""
    state = arrange(game, HANDS, shared="Ns")
    with pytest.raises(IllegalAction, match="Tock does not hold the Palette Swap"):
        state.apply_text(1, "A +palette-swap")
    with pytest.raises(IllegalAction, match="Tick does not hold the Mulligan"):
        state.apply(0, MULLIGAN)
    assert MULLIGAN in state.legal_actions(1) and MULLIGAN not in state.legal_actions(0)


# -- Mulligan -------------------------------------------------------------------------------
def test_clause_mulligan_scraps_four_cards_and_draws_four_new(game):
    """Mulligan: 'Scrap your hand of 4 cards, and re add them to the draw deck, then draw 4
    new cards.'"""
    state = arrange(game, HANDS, shared="Ns")
    old = set(state.seats[1].hand)
    after = state.apply(1, MULLIGAN)
    new = set(after.seats[1].hand)
    assert len(new) == 4 and not new & old
    assert old <= set(after.supply.deck)
    assert len(after.supply.deck) == len(state.supply.deck)
    assert sorted(cards_in_game(after)) == list(range(120))
    assert after.seats[1].uses[Item.MULLIGAN] == 1
    assert after.to_act == (0, 1)  # still to choose its first symbol
    assert after.view(0)["items"][1] == {"mulligan": 1}  # a Mulligan is public


def test_clause_mulligan_only_before_submitting_the_first_symbol(game):
    """'Use before submitting your first symbol for a round.'"""
    state = both(arrange(game, HANDS, shared="Ns"), "A", "A")
    assert state.phase is Phase.SECOND and MULLIGAN not in state.legal_actions(1)
    with pytest.raises(IllegalAction, match="before submitting your first symbol"):
        state.apply(1, MULLIGAN)
    submitted = arrange(game, HANDS, shared="Ns").apply_text(1, "A")
    with pytest.raises(IllegalAction, match="not to act"):
        submitted.apply(1, MULLIGAN)


def test_clause_mulligan_can_be_used_2_times_a_third_is_rejected(game):
    """'This can be used 2 times throughout the game.' The seed sets no limit per round,
    so both may be spent in one round; a third is refused."""
    state = arrange(game, HANDS, shared="Ns Es").apply(1, MULLIGAN).apply(1, MULLIGAN)
    assert state.seats[1].uses[Item.MULLIGAN] == 0
    assert MULLIGAN not in state.legal_actions(1)
    with pytest.raises(IllegalAction, match="used both Mulligans"):
        state.apply(1, MULLIGAN)
    state = play_round(state, ("A", "C", "B"), ("A", "C", "B"))
    with pytest.raises(IllegalAction, match="used both Mulligans"):
        state.apply(1, MULLIGAN)


def test_mulligan_keeps_the_opponents_hidden_submission(game):
    state = arrange(game, HANDS, shared="Ns").apply_text(0, "A +palette-swap")
    after = state.apply(1, MULLIGAN)
    assert after.pending == state.pending
    assert isinstance(after.pending.of(0), Pick)


def test_item_allocation_option_moves_the_items():
    """Option items: here Tick holds the Mulligan and Tock the other two."""
    game = meeple.make("triangle-clock", items="mulligan/palette-swap+right-angle")
    state = arrange(game, HANDS, shared="Ns")
    assert MULLIGAN in state.legal_actions(0)
    assert any("+right-angle" in str(a) for a in state.legal_actions(1))
    assert state.view(0)["items"] == [{"mulligan": 2}, {"palette-swap": 3, "right-angle": 3}]


@pytest.mark.parametrize(
    ("items", "order", "noted"),
    [
        ("palette-swap+right-angle/none", "literal", True),
        ("none/none", "literal", True),
        ("palette-swap+right-angle/mulligan", "literal", False),
        ("all/none", "literal", False),
        ("palette-swap+right-angle/none", "new-first", False),
    ],
)
def test_a_mulligan_order_where_no_seat_holds_a_mulligan_is_noted(items, order, noted):
    """The Mulligan's order matters only where a seat holds a Mulligan; set where none does,
    the game is played with a note that it ignores the option, as an option another makes
    moot is (``items`` names the holdings in a syntax of its own, so the option's
    ``applies_when`` cannot say it)."""
    game = meeple.make("triangle-clock", items=items, mulligan_order=order)
    said = [n for n in game.configuration_notes() if n.startswith("mulligan_order=")]
    assert said == (
        [
            f"mulligan_order=literal matters only where a seat holds a Mulligan (items={items}): "
            "this game ignores it"
        ]
        if noted
        else []
    )
