"""The compiled Edges rules (:mod:`meeple.games.edges.compiled.rules`) against the rules engine.

One set of rules: the readable engine is the reference, and the compiled copy must agree
with it on every state and every list of legal actions of thousands of random games, on
every board shape and variant the compiled copy serves.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import meeple
from meeple.games.edges.compiled import rules as fast

VARIANTS = [
    {},  # 3x4, 5/5/5, pie rule
    {"pie": False},
    {"board": "3x3"},
    {"board": "2x3", "stash": "3/3/2"},
    {"board": "1x1", "stash": "1/1/0"},
    {"double": True},
    {"double": True, "double_start": "a1"},
    {"board": "4x4", "first": 1},
]


@pytest.mark.parametrize(
    "options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default"
)
def test_compiled_rules_agree_with_the_engine_on_every_state(options: dict) -> None:
    game = meeple.make("edges", **options)
    shape = fast.layout(game)
    moves = np.empty(3 * shape.edges + 3, dtype=np.int16)
    rng = random.Random(5)
    games = 2000 if not options else 300
    for seed in range(games):
        state = game.new_game(seed)
        array = fast.encode(state)
        while True:
            seat = state.to_act[0] if state.to_act else -1
            assert fast.to_act(array, shape.edges, shape.players) == seat
            legal = [game.action_id(a) for a in state.legal_actions(seat)] if seat >= 0 else []
            count = fast.legal_actions(array, shape.edges, shape.players, shape.pie, moves)
            assert list(moves[:count]) == legal
            if not legal:
                break
            k = rng.randrange(len(legal))
            state = state.apply(seat, game.action_from_id(legal[k]))
            fast.apply(array, shape.edges, shape.players, legal[k])
            assert np.array_equal(array, fast.encode(state))
            assert fast.decode(game, array) == state
        assert state.is_over
        scores = state.scores()
        assert (
            fast.score_difference(array, shape.edges, shape.square_edges) == scores[0] - scores[1]
        )
        assert fast.outcome(array, shape.edges, shape.square_edges) == state.returns[0]


def test_random_playouts_are_seeded_and_count_every_game() -> None:
    game = meeple.make("edges")
    state = game.new_game(0)
    first = fast.playouts(state, 500, seed=3)
    assert sum(first) == 500
    assert fast.playouts(state, 500, seed=3) == first
    assert fast.playouts(state, 500, seed=4) != first


def test_random_playouts_match_the_engines_odds() -> None:
    # The same uniform policy through both: side 0's win rate agrees within sampling error.
    game = meeple.make("edges", board="2x2", stash="2/1/1")
    state = game.new_game(0)
    won = fast.playouts(state, 20_000, seed=1)[0]
    rng = random.Random(2)
    engine = [0, 0, 0]
    for _ in range(4000):
        s = state
        while not s.is_over:
            seat = s.to_act[0]
            s = s.apply(seat, rng.choice(s.legal_actions(seat)))
        engine[int(s.returns[0]) + 1] += 1
    compiled_rate = won / 20_000
    engine_rate = engine[2] / 4000
    # Standard error of the difference is about 0.009; five of them is a failure.
    assert abs(compiled_rate - engine_rate) < 0.045
