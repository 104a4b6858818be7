"""Property tests: thousands of random Edges games keep every invariant."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.core.conformance import check_playthrough, random_playthrough
from meeple.games.edges import EdgesState, Pyramid

BOARDS = [
    {},
    {"board": "3x3"},
    {"board": "4x4"},
    {"board": "5x5"},
    {"double": True},
    {"board": "2x3", "pie": False},
    {"board": "1x4", "stash": "1/1/1", "first": 1},
]

seeds = st.integers(min_value=0, max_value=2**31 - 1)


def assert_pyramids_conserved(state: EdgesState) -> None:
    """Every pyramid is in its owner's stash or on the board, never both, never lost."""
    initial = state.game.stash
    on_board = Counter(
        (o, Pyramid(p)) for o, p in zip(state.owner, state.pyramid, strict=True) if o >= 0
    )
    for seat, stash in enumerate(state.stashes):
        for size in Pyramid:
            assert stash.count(size) >= 0
            assert stash.count(size) + on_board[(seat, size)] == initial.count(size)


def assert_scores_match_square_owners(state: EdgesState) -> None:
    result = state.result
    totals = [0, 0]
    for square in result["squares"]:
        a, b = square["strength"]
        if a == b:
            assert square["side"] is None and square["points"] == 0
        else:
            winner = 0 if a > b else 1
            assert square["side"] == winner
            assert square["points"] == (2 if min(a, b) == 0 else 1)
            totals[winner] += square["points"]
    assert totals == result["scores"]
    assert result["margin"] == abs(totals[0] - totals[1])


@settings(max_examples=1500, deadline=None)
@given(seed=seeds)
def test_random_standard_games_keep_every_invariant(seed):
    play = random_playthrough(meeple.make("edges"), seed)
    state = play.state
    assert isinstance(state, EdgesState)
    assert_pyramids_conserved(state)
    assert_scores_match_square_owners(state)
    assert state.owner.count(-1) == 1, "3x4 ends with exactly one empty edge"
    expected = (state.scores()[0] > state.scores()[1]) - (state.scores()[0] < state.scores()[1])
    assert state.returns == (expected, -expected)


@settings(max_examples=600, deadline=None)
@given(seed=seeds, options=st.sampled_from(BOARDS), stop=st.integers(0, 80))
def test_every_intermediate_position_keeps_the_invariants(seed, options, stop):
    """Stop a random game part-way: conservation and scoring hold at every point, and every
    seat sees the same (Edges has no hidden information)."""
    game = meeple.make("edges", **options)
    play = random_playthrough(game, seed)
    states = play.record().model_copy(update={"moves": play.moves[:stop]}).states()
    state = states[-1]
    assert isinstance(state, EdgesState)
    assert_pyramids_conserved(state)
    assert_scores_match_square_owners(state)
    views = [state.view(p) for p in range(game.num_players)]
    assert all(v == state.view(None) for v in views)


@pytest.mark.parametrize(
    "options", BOARDS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_contracts_hold_over_many_random_games(options):
    """The core conformance suite: legal actions apply, illegal ones are refused, notation
    and ids round-trip, views are JSON-safe, records replay to the identical state."""
    game = meeple.make("edges", **options)
    games = 15 if options.get("double") or options.get("board") in ("4x4", "5x5") else 40
    for seed in range(games):
        check_playthrough(game, seed)


@settings(max_examples=200, deadline=None)
@given(seed=seeds)
def test_records_replay_identically(seed):
    game = meeple.make("edges", board="3x3")
    play = random_playthrough(game, seed)
    replayed = meeple.GameRecord.from_json(play.record().model_dump_json()).replay()
    assert replayed == play.state
    assert replayed.result == play.state.result
