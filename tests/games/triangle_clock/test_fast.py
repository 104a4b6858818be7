"""The compiled Triangle Clock rules (:mod:`meeple.games.triangle_clock.compiled.rules`) against the
rules engine.

One set of rules: the readable engine is the reference, and the compiled copy must agree
with it on every state, every list of legal actions and every outcome of random games,
with every option that changes the rules. Chance follows the engine exactly: the compiled
rules read the words of the engine's own random streams (``fast.reference_chance``).
``MEEPLE_FUZZ=long`` plays twenty times as many games.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import meeple
from meeple.games.triangle_clock import TriangleClockGame, TriangleClockState
from meeple.games.triangle_clock.compiled import rules as fast
from meeple.games.triangle_clock.position import check
from meeple.games.triangle_clock.rules import MEMORISED, MULLIGAN, Mulligan, Phase, Supply
from tests.designer_edits import edited_games

LONG = 20 if os.environ.get("MEEPLE_FUZZ") == "long" else 1

CUSTOM_RANKING = """
[[rank]]
name = "Flush Pair"
pattern = "kind"
size = 2
flush = true
strength = 9

[[rank]]
name = "3 Set Rotate"
pattern = "rotate"
size = 3
strength = 4

[[rank]]
name = "Pair"
pattern = "kind"
size = 2
strength = 2

[[rank]]
name = "Nothing"
pattern = "nothing"
strength = 1
"""

VARIANTS = [
    ({}, 100),  # the seed's items, new-first Mulligan, the shipped ranking
    ({"items": "all/all"}, 30),  # both seats hold every item: Mulligans on both sides
    ({"items": "all/all", "mulligan_order": "literal"}, 30),
    ({"items": "none/none", "tie_break": "whole-hand"}, 20),  # equal scores draw
    ({"items": "mulligan/palette-swap+right-angle", "ranking": "custom"}, 20),
]


def _make(options: dict, tmp_path: Path) -> TriangleClockGame:
    if options.get("ranking") == "custom":
        path = tmp_path / "ranking.toml"
        path.write_text(CUSTOM_RANKING, encoding="utf-8")
        options = {**options, "ranking": str(path)}
    game = meeple.make("triangle-clock", **options)
    assert isinstance(game, TriangleClockGame)
    return game


def _winner(state: TriangleClockState) -> int:
    return -1 if state.winner is None else state.winner


def _step(
    state: TriangleClockState, array: np.ndarray, t: fast.Tables, seat: int, action: object
) -> TriangleClockState:
    """``seat`` takes ``action`` in both, chance from the engine's streams; the states agree."""
    chance = fast.reference_chance(state, seat, action)
    state = state.apply(seat, action)
    fast.apply(array, seat, state.game.action_id(action), *t, chance)
    assert np.array_equal(array, fast.encode(state))
    return state


@pytest.mark.fuzz
@pytest.mark.parametrize(
    ("options", "games"),
    VARIANTS,
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) if isinstance(o, dict) else "",
)
def test_compiled_rules_agree_with_the_engine_on_every_state(
    options: dict, games: int, tmp_path: Path
) -> None:
    game = _make(options, tmp_path)
    rng = random.Random(7)
    seen = {"mulligans": 0, "reshuffles": 0}
    for seed in range(games * LONG):
        play_both(game, seed, rng, seen)
    # the games met the chance this variant can give
    assert seen["reshuffles"] >= games * LONG
    if "mulligan" in game.options.items or game.options.items.startswith("all"):
        assert seen["mulligans"] > 0


def play_both(game: TriangleClockGame, seed: int, rng: random.Random, seen: dict) -> None:
    """One random game (``seed``: its deal) through both rules, comparing the legal actions,
    the seat to act and the whole state after every action; mulligans and reshuffles are
    counted in ``seen``."""
    t = fast.tables(game)
    moves = np.empty(fast.MAX_ACTIONS, dtype=np.int16)
    state = game.new_game(seed)
    array = fast.encode(state)
    assert fast.decode(game, array, seed) == state
    while True:
        for seat in (0, 1):
            legal = [game.action_id(a) for a in state.legal_actions(seat)]
            count = fast.legal_actions(array, seat, moves)
            assert moves[:count].tolist() == legal
        seat = fast.to_act(array)
        assert seat == (state.to_act[0] if state.to_act else -1)
        if seat < 0:
            break
        legal_actions = state.legal_actions(seat)
        action = legal_actions[rng.randrange(len(legal_actions))]
        seen["mulligans"] += isinstance(action, Mulligan)
        state = _step(state, array, t, seat, action)
        if state.round == 29 and state.phase is Phase.THIRD:  # mid-round, after a deal
            assert fast.decode(game, array, seed) == state
    assert state.phase is Phase.OVER
    assert fast.decode(game, array, seed) == state
    assert fast.outcome(array, t.rules) == _winner(state)
    seen["reshuffles"] += state.supply.reshuffles


@pytest.mark.fuzz
def test_a_designers_edits_in_place_play_the_same_through_both(tmp_path: Path) -> None:
    """Edit after edit of one ranking table (tests/designer_edits.py), the games made from
    it kept in use: each table the game accepts plays the same through both rules."""
    rng = random.Random(11)
    made = edited_games("triangle-clock", tmp_path, 24 * LONG, rng)
    assert len(made) >= 2 * LONG
    for seed, game in enumerate(made):
        play_both(game, seed, rng, {"mulligans": 0, "reshuffles": 0})


@pytest.mark.parametrize("order", ["new-first", "literal"])
@pytest.mark.parametrize("left", [0, 1, 3])
def test_a_short_deck_is_reshuffled_as_the_engine_does(order: str, left: int) -> None:
    # Rare in random games: a Mulligan, or the replacement deal, with fewer cards in the
    # deck than it draws (the deal then takes the last ones and goes on from the pile).
    game = meeple.make("triangle-clock", items="all/all", mulligan_order=order)
    t = fast.tables(game)
    start = game.new_game(8).apply(0, MEMORISED).apply(1, MEMORISED)
    deck = start.supply.deck
    start = replace(start, supply=Supply(deck[:left], tuple(sorted(deck[left:])), 0))
    assert check(start) is None
    for mulligan in (True, False):
        state, array = start, fast.encode(start)
        if mulligan:
            state = _step(state, array, t, 1, MULLIGAN)
        for letter in "ACB":
            for seat in (0, 1):
                state = _step(state, array, t, seat, game.parse_action(letter))
        assert state.round == 2 and state.supply.reshuffles == 1


def test_shuffles_read_the_engines_words_as_random_shuffle_does() -> None:
    for size in (0, 1, 2, 3, 17, 64, 112, 120):
        for seed in range(3):
            expected = list(range(size))
            random.Random(seed).shuffle(expected)
            source = random.Random(seed)
            words = np.array([[source.getrandbits(32) for _ in range(fast.CHANCE_WORDS)]] * 2)
            items = np.arange(size, dtype=np.int16)
            fast._shuffle(items, size, words, np.zeros(2, dtype=np.int64), 1)
            assert list(items) == expected


def test_compiled_chance_keeps_every_card_once(tmp_path: Path) -> None:
    # Without the engine's words the compiled rules shuffle with numba's generator: every
    # state they reach is still a whole, valid game (checked as a position is).
    game = _make({"items": "all/all", "mulligan_order": "literal"}, tmp_path)
    t = fast.tables(game)
    moves = np.empty(fast.MAX_ACTIONS, dtype=np.int16)
    fast.playouts(game.new_game(0), 1, seed=11)  # seeds numba's generator
    rng = random.Random(3)
    shuffled = 0
    for seed in range(6):
        array = fast.encode(game.new_game(seed))
        seat = fast.to_act(array)
        while seat >= 0:
            count = fast.legal_actions(array, seat, moves)
            action = int(moves[rng.randrange(count)])  # an int, as callers pass it
            before = array[fast.RESHUFFLES]
            fast.apply(array, seat, action, *t, fast.NO_CHANCE)
            if action == fast.MULLIGAN_ID or array[fast.RESHUFFLES] != before:
                shuffled += 1
                assert check(fast.decode(game, array, seed)) is None
            seat = fast.to_act(array)
        assert check(fast.decode(game, array, seed)) is None
    assert shuffled >= 6


def test_random_playouts_are_seeded_and_count_every_game() -> None:
    game = meeple.make("triangle-clock", items="none/none")
    state = game.new_game(0)
    first = fast.playouts(state, 400, seed=3)
    assert sum(first) == 400
    assert min(first) > 0  # wins both ways, and draws on equal scores
    assert fast.playouts(state, 400, seed=3) == first
    assert fast.playouts(state, 400, seed=4) != first


def test_random_playouts_match_the_engines_odds() -> None:
    # From round 27 at 19 points each (a reshuffle and four Mulligans still to come; equal
    # holdings, so equal scores draw), the same uniform policy through both gives the same
    # odds within sampling error.
    game = meeple.make("triangle-clock", items="all/all")
    rng = random.Random(4)
    state = game.new_game(11)
    while state.round < 27:
        seat = state.to_act[0]
        keep = [a for a in state.legal_actions(seat) if not isinstance(a, Mulligan)]
        state = state.apply(seat, rng.choice(keep))
    assert state.scores == (19, 19) and state.supply.reshuffles == 0
    won, drawn, lost = fast.playouts(state, 20_000, seed=1)
    assert won + drawn + lost == 20_000
    engine = [0, 0, 0]
    for _ in range(800):
        s = state
        while not s.is_over:
            seat = s.to_act[0]
            s = s.apply(seat, rng.choice(s.legal_actions(seat)))
        engine[0 if s.winner == 0 else (2 if s.winner == 1 else 1)] += 1
    # Standard errors of the differences: about 0.018 (wins), 0.009 (draws); five of them
    # is a failure.
    assert abs(won / 20_000 - engine[0] / 800) < 0.09
    assert abs(drawn / 20_000 - engine[1] / 800) < 0.045


def test_options_the_compiled_rules_do_not_know_are_refused(monkeypatch) -> None:
    monkeypatch.setattr(fast, "_SERVED", fast._SERVED - {"tie_break"})
    with pytest.raises(ValueError, match="do not serve option tie_break"):
        fast.tables(meeple.make("triangle-clock"))


def test_one_playout_gives_the_returns_of_the_game_playouts_counts() -> None:
    # A search's rollout: one game, the winner as the engine's returns; with the same seed
    # it is the game that playouts(state, 1, seed) counts.
    game = meeple.make("triangle-clock", items="none/none")
    state = game.new_game(2)
    returns = {(1, 0, 0): (1.0, -1.0), (0, 1, 0): (0.0, 0.0), (0, 0, 1): (-1.0, 1.0)}
    seen = set()
    for seed in range(60):
        result = fast.playout(state, seed)
        assert result == returns[fast.playouts(state, 1, seed)]
        seen.add(result)
    assert len(seen) >= 2
