"""Property tests: thousands of random Triangle Clock games keep every invariant."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.core.conformance import check_playthrough, random_end, random_playthrough
from meeple.games.triangle_clock import Item, Phase, TriangleClockState
from meeple.games.triangle_clock.rules import BLOCK, ITEM_USES, ROUNDS

VARIANTS = [
    {},
    {"items": "mulligan/palette-swap+right-angle"},
    {"items": "palette-swap+right-angle+mulligan/palette-swap+right-angle+mulligan"},
    {"items": "none/none", "tie_break": "whole-hand"},
]

seeds = st.integers(min_value=0, max_value=2**31 - 1)


def assert_cards_conserved(state: TriangleClockState) -> None:
    """Each of the 120 cards is in exactly one hand, the deck or the discard pile."""
    cards = [c for seat in state.seats for c in seat.hand]
    cards += list(state.supply.deck) + list(state.supply.discards)
    assert sorted(cards) == list(range(120))
    assert list(state.supply.discards) == sorted(state.supply.discards)


def assert_items_within_limits(state: TriangleClockState) -> None:
    """Uses left never go below zero nor above the seed's limits; an item a seat does not
    hold has no uses; Palette Swap and Right Angle at most once in any round."""
    game = state.game
    for p, seat in enumerate(state.seats):
        for item in Item:
            held = item in game.holdings[p]
            assert 0 <= seat.uses[item] <= (ITEM_USES[item] if held else 0)
        assert sum(pick.palette_swap for pick in seat.picks) <= 1
        assert sum(pick.right_angle for pick in seat.picks) <= 1
        assert len(seat.picks) == max(0, state.phase - 1) if state.phase <= Phase.THIRD else True


def assert_final_state(state: TriangleClockState) -> None:
    """The end of a game: 32 rounds, each shared order a permutation of the 16 symbols, the
    scores the sum of each round's points, each round won by the higher hand for the
    strength of the lower one, and item uses matching the picks of the record."""
    game = state.game
    assert state.is_over and len(state.history) == ROUNDS
    shared = [r.shared for r in state.history]
    for block in range(ROUNDS // BLOCK):
        assert sorted(shared[block * BLOCK : (block + 1) * BLOCK]) == list(range(16))
    scores = [0, 0]
    used = [Counter(), Counter()]
    for r in state.history:
        values = [game.ranking.evaluate(s.hand) for s in r.seats]
        assert [v.name for v in values] == [s.rank for s in r.seats]
        assert all(s.hand[0] == r.shared for s in r.seats)
        if values[0].key == values[1].key:
            assert r.winner is None and r.points == 0
        else:
            winner = 0 if values[0].key < values[1].key else 1
            assert r.winner == winner and r.points == values[1 - winner].strength
            scores[winner] += r.points
        for p, s in enumerate(r.seats):
            assert len(s.cards) == 2 and len(s.picks) == 3
            used[p].update(item for pick in s.picks for item in pick.items)
    assert list(state.scores) == scores
    for p, seat in enumerate(state.seats):
        for item in (Item.PALETTE_SWAP, Item.RIGHT_ANGLE):
            start = ITEM_USES[item] if item in game.holdings[p] else 0
            assert seat.uses[item] == start - used[p][item]
    a, b = scores
    if a != b:
        assert state.returns == ((1.0, -1.0) if a > b else (-1.0, 1.0))
    result = state.result
    assert result["over"] and result["scores"] == scores


@settings(max_examples=1000, deadline=None)
@given(seed=seeds, options=st.sampled_from(VARIANTS))
def test_random_games_keep_every_invariant(seed, options):
    """A thousand random games: cards conserved, items within their limits, scores the sum
    of the rounds' points, every round won by the higher hand."""
    state = random_end(meeple.make("triangle-clock", **options), seed)
    assert isinstance(state, TriangleClockState)
    assert_cards_conserved(state)
    assert_items_within_limits(state)
    assert_final_state(state)


@settings(max_examples=120, deadline=None)
@given(seed=seeds, options=st.sampled_from(VARIANTS))
def test_every_intermediate_state_keeps_the_invariants(seed, options):
    """Every state of a random game, replayed from its record."""
    game = meeple.make("triangle-clock", **options)
    for state in random_playthrough(game, seed).record().states():
        assert isinstance(state, TriangleClockState)
        assert_cards_conserved(state)
        assert_items_within_limits(state)
        assert all(len(seat.hand) == 4 for seat in state.seats) or state.is_over
        assert state.is_over == (state.phase is Phase.OVER)


@pytest.mark.parametrize(
    ("options", "games"),
    [(VARIANTS[0], 120), (VARIANTS[1], 30), (VARIANTS[2], 30), (VARIANTS[3], 30)],
    ids=["seed-items", "items-swapped", "all-items", "no-items-whole-hand"],
)
def test_contracts_hold_over_many_random_games(options, games):
    """The core conformance suite over 210 seeds in all: legal actions apply, illegal ones
    are refused, notation and ids round-trip, views are JSON-safe and unchanged by
    determinization, which depends only on what the seat sees; records replay exactly."""
    game = meeple.make("triangle-clock", **options)
    for seed in range(games):
        check_playthrough(game, seed)
