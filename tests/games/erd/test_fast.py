"""The compiled Erd rules (:mod:`meeple.games.erd.compiled.rules`) against the rules engine.

One set of rules: the readable engine is the reference, and the compiled copy must agree
with it on every state, every list of legal actions and every outcome of random matches,
in every rules version and with every option that changes the rules.
``MEEPLE_FUZZ=long`` plays twenty times as many matches.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

import meeple
from meeple.games.erd import ErdGame, ErdState
from meeple.games.erd.compiled import rules as fast

LONG = 20 if os.environ.get("MEEPLE_FUZZ") == "long" else 1

VARIANTS: list[tuple[dict[str, Any], int]] = [
    ({}, 300),  # patch 0.02, best of 5
    ({"rules": "0.01"}, 200),
    ({"rules": "original", "best_of": 3}, 200),
    ({"rules": "original", "rush_tiebreak": "cards", "turret_lifetime": "one_combat"}, 150),
    ({"rules": "0.01", "escalation_lights": "own", "mercy": "none"}, 150),
    ({"mercy": "empty", "match_draws": "replay", "round_limit": 4, "best_of": 3}, 150),
    ({"rules": "original", "mercy": "0.02", "reserve": "HHHHLLLLLDD"}, 150),
    ({"rules": "0.02", "mercy": "0.01", "reserve": "HHLLLLDDDDDDDD", "best_of": 1}, 150),
    ({"rules": "original", "reserve": "HHHHHHHLD", "round_limit": 30, "best_of": 7}, 100),
    ({"rules": "0.01", "reserve": "LLLDDDDDD", "best_of": 1}, 60),
]


def _ids(options: object) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) if isinstance(options, dict) else ""


def _winner(state: ErdState) -> int:
    return -1 if state.winner is None else state.winner


def play_along(game: ErdGame, matches: int, seed: int) -> Counter[str]:
    """Random matches through both, every state, legal list and seat compared; counts what
    happened on the way (game endings, combat outcomes, Escalations)."""
    t = fast.tables(game)
    moves = np.empty(game.num_actions, dtype=np.int16)
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    start = game.new_game(seed)
    for _ in range(matches):
        state, array = start, fast.encode(start)
        assert len(array) == fast.size(game)
        while True:
            for seat in (0, 1):
                legal = [game.action_id(a) for a in state.legal_actions(seat)]
                count = fast.legal_actions(array, seat, t.actions, t.rules, moves)
                assert moves[:count].tolist() == legal
            assert fast.to_act(array) == (state.to_act[0] if state.to_act else -1)
            if not state.to_act:
                break
            # one seat at a time, either first, so a pending allocation shows in the array
            seat = rng.choice(state.to_act)
            legal_actions = state.legal_actions(seat)
            action = legal_actions[rng.randrange(len(legal_actions))]
            before = state
            state = state.apply(seat, action)
            fast.apply(array, seat, game.action_id(action), t.actions, t.rules)
            assert np.array_equal(array, fast.encode(state))
            if state.last is not before.last:
                assert fast.decode(game, array) == state
                seen[state.last.outcome] += 1
                seen["escalation"] += state.last.escalation
                if state.last.ending is not None:
                    seen[state.last.ending.reason] += 1
        assert fast.decode(game, array) == state
        assert fast.winner(array) == _winner(state)
        seen["matches"] += 1
    return seen


@pytest.mark.fuzz
@pytest.mark.parametrize(("options", "matches"), VARIANTS, ids=_ids)
def test_compiled_rules_agree_with_the_engine_on_every_state(
    options: dict[str, Any], matches: int
) -> None:
    game = meeple.make("erd", **options)
    assert isinstance(game, ErdGame)
    seen = play_along(game, matches * LONG, seed=7)
    assert seen["matches"] == matches * LONG
    assert seen["held"] > 0 and seen["one_rush"] > 0


def test_every_ending_and_outcome_is_met() -> None:
    """Across the variants, random matches meet every way a game ends and every combat
    outcome, Escalations included (the mercy draw needs a Reserve without Heavies, so no
    Escalation comes first)."""
    seen: Counter[str] = Counter()
    for options, matches in VARIANTS:
        seen += play_along(meeple.make("erd", **options), matches // 3, seed=11)
    for name in ("one_rush", "both_total", "both_rush", "exact_tie", "held", "escalation"):
        assert seen[name] > 0, name
    for reason in fast.REASONS:
        assert seen[reason] > 0, reason


def test_random_games_play_whole_matches() -> None:
    """The compiled random playouts end every match, decided or drawn."""
    game = meeple.make("erd", best_of=3)
    won, drawn, lost = fast.playouts(game.new_game(0), 2000, seed=3)
    assert won + drawn + lost == 2000
    assert won > 500 and lost > 500


def test_a_round_limit_beyond_an_int16_is_refused_in_one_line() -> None:
    game = meeple.make("erd", round_limit=40_000)
    with pytest.raises(ValueError, match=r"serve round_limit up to 32767 \(.*\), not 40000"):
        fast.tables(game)


def test_an_option_the_compiled_rules_do_not_know_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fast, "_SERVED", fast._SERVED - {"mercy"})
    with pytest.raises(ValueError, match="do not serve option mercy; they serve auto_steps"):
        fast.tables(meeple.make("erd"))
