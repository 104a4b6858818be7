"""Property tests: thousands of random Erosion games, 2 to 5 players, keep every invariant."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.core.conformance import check_playthrough
from meeple.games.erosion import ErosionGame, ErosionState
from meeple.games.erosion.rules import HAND_SIZE

seeds = st.integers(min_value=0, max_value=2**31 - 1)
VARIANTS = [
    {},
    {"advanced": True},
    {"legend": "basic"},
    {"advanced": True, "legend": "advanced"},
]


@cache
def _game(players: int, **variant: Any) -> Any:
    """One game per size and variant, as a server holds one for all its matches (making
    one, its table of actions, was a seventh of a game's time here)."""
    return meeple.make("erosion", players=players, **variant)


MAX_ACTIONS = 5000
"""Far more than any game takes; a game still going after this many actions fails."""


def assert_every_card_in_exactly_one_place(state: ErosionState) -> None:
    """The 90 process cards lie in the decks, hands, mountains, deltas, discards, the River
    or the tie-breaker's shown cards, each exactly once."""
    piles = [*state.decks, *state.hands, *state.mountains, *state.deltas, *state.discards]
    piles.append(state.river)
    if state.tie is not None:
        piles.append(tuple(c for c in state.tie.cards if c >= 0))
    everything = [c for pile in piles for c in pile]
    assert sorted(everything) == list(range(state.game.catalog.num_process))


def assert_counts_make_sense(state: ErosionState) -> None:
    n = state.game.num_players
    for p in range(n):
        assert 0 <= state.weathered[p] <= len(state.mountains[p])
        assert state.hands[p] == tuple(sorted(state.hands[p]))
    assert all(limit >= 0 for limit in (state.draw_limit(d) for d in range(3)))
    assert len(state.scores) == n and all(s >= 0 for s in state.scores)


def play_randomly(game: ErosionGame, seed: int) -> ErosionState:
    """A random game, checking the invariants at every state; returns the final state."""
    rng = random.Random(seed)
    state = game.new_game(seed)
    for _ in range(MAX_ACTIONS):
        assert_every_card_in_exactly_one_place(state)
        assert_counts_make_sense(state)
        if state.is_over:
            return state
        if not state.agenda:
            # the start of a turn: every hand is within the limit after the last turn
            assert all(len(h) <= HAND_SIZE for h in state.hands), "hand over 6 after a turn"
        seat = state.to_act[0]
        # legal by construction (the conformance test below checks apply() itself)
        state = state._next(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError(f"seed {seed}: no end after {MAX_ACTIONS} actions")


def assert_final_result(state: ErosionState) -> None:
    game = state.game
    result = state.result
    assert result["over"] and len(state.era_scores) == game.eras == state.era
    totals = [sum(era[p] for era in state.era_scores) for p in range(game.num_players)]
    assert result["scores"] == totals
    top = max(totals)
    assert all(totals[w] == top for w in state.winners), "only a top scorer can win"
    if len(state.winners) == 1:
        assert sorted(state.returns) == [-1.0] * (game.num_players - 1) + [1.0]
    else:
        assert all(
            state.returns[p] == (0.0 if p in state.winners else -1.0) for p in range(len(totals))
        )


@settings(max_examples=1000, deadline=None)
@given(seed=seeds, players=st.integers(2, 5), variant=st.sampled_from(VARIANTS))
def test_random_games_keep_every_invariant_and_end(seed, players, variant):
    """Every card in exactly one place at every step, no hand over 6 at the start of a
    turn, the game ends by the seed's era rules, and the result adds up."""
    game = _game(players, **variant)
    final = play_randomly(game, seed)
    assert_final_result(final)


@pytest.mark.parametrize(
    ("players", "games"),
    [(2, 70), (3, 55), (4, 35), (5, 35)],
)
def test_contracts_hold_over_many_random_games(players, games):
    """The core conformance suite (legal actions apply, illegal ones are refused, notation
    and ids round-trip, views are JSON-safe, determinize(p).view(p) == view(p), records
    replay to the identical state) on random games of every size and variant."""
    for seed in range(games):
        variant = VARIANTS[seed % len(VARIANTS)]
        check_playthrough(_game(players, **variant), seed)
