"""The batched Erd against its readable rules: states, masks, seats, observations, rewards
and ends, step by step over thousands of random matches; and the observation's no-leak
check."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

import meeple
from meeple.core.errors import IllegalAction, MeepleError
from meeple.envs.vector import MeepleVectorEnv
from meeple.games.erd import ErdState
from meeple.games.erd.compiled import rules as fast
from meeple.games.erd.compiled.batch import OBSERVATION_SIZE, observation_of_view
from meeple.games.erd.compiled.rules import encode

CONFIGS: list[dict[str, Any]] = [
    {},  # patch 0.02, best of 5
    {"rules": "original", "rush_tiebreak": "cards", "turret_lifetime": "one_combat"},
    {"rules": "0.01", "escalation_lights": "own", "best_of": 1},
    {"mercy": "empty", "match_draws": "replay", "round_limit": 4, "best_of": 3},
    {"rules": "original", "mercy": "0.02", "reserve": "HHHHLLLLLDD", "best_of": 3},
]


def random_actions(info: dict[str, Any], rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal id for each acting seat; -1 (ignored) for the others."""
    masks, acting = info["action_mask"], info["acting"]
    out = np.full(acting.shape, -1, dtype=np.int64)
    for k, p in np.argwhere(acting).tolist():
        out[k, p] = rng.choice(np.flatnonzero(masks[k, p]))
    return out


def play_along(
    options: dict[str, Any], matches: int, batch: int, seed: int, observe: bool = True
) -> Counter[str]:
    """Step ``batch`` matches with random legal actions until ``matches`` have ended,
    playing the same actions on the readable rules beside them and comparing everything at
    every step (observations and whole states only when ``observe``). Counts the matches
    ended, the games ended inside them and the Escalations met."""
    env = MeepleVectorEnv("erd", num_envs=batch, **options)
    game = env.game
    obs, info = env.reset(seed=seed)
    readable: list[ErdState] = [game.new_game(seed + k) for k in range(batch)]
    rng = np.random.default_rng(seed)
    seen: Counter[str] = Counter()
    while seen["ended"] < matches:
        for k, state in enumerate(readable):
            for p in range(2):
                assert info["acting"][k, p] == (p in state.to_act)
                legal = state.legal_action_ids(p) if p in state.to_act else []
                assert np.flatnonzero(info["action_mask"][k, p]).tolist() == sorted(legal)
                if observe:
                    expected = observation_of_view(game, state.view(p), p)
                    np.testing.assert_array_equal(obs[k, p], expected)
            if observe:
                assert np.array_equal(env._states[k], encode(state))
        actions = random_actions(info, rng)
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        assert info["acted"].all()  # both seats allocate in every step
        for k, state in enumerate(readable):
            after = state
            for p in sorted(state.to_act):
                after = after.apply(p, game.action_from_id(int(actions[k, p])))
            assert terminated[k] == after.is_over
            assert list(reward[k]) == list(after.returns)
            assert list(info["rewards"][k]) == list(after.returns)
            assert after.last is not None
            seen["escalations"] += after.last.escalation
            seen["games"] += after.last.ending is not None
            if after.is_over:
                seen["ended"] += 1
                assert info["_final_obs"][k]
                for p in range(2):
                    np.testing.assert_array_equal(
                        info["final_obs"][k, p], observation_of_view(game, after.view(p), p)
                    )
                after = game.new_game(int(env._seeds[k]))
            elif observe:
                assert env.rules.decode(env._states[k]) == after
            readable[k] = after
    return seen


@pytest.mark.parametrize(
    "options", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "seed"
)
def test_the_batched_erd_is_the_readable_rules(options: dict[str, Any]) -> None:
    """Random matches through both, every state and observation compared, across resets."""
    seen = play_along(options, matches=40, batch=8, seed=21)
    assert seen["ended"] >= 40
    if options.get("best_of") != 1:
        assert seen["games"] > seen["ended"]  # the matches went past their first game
    assert seen["escalations"] > 0


@pytest.mark.parametrize("part", range(2))
def test_thousands_of_random_matches_end_as_the_readable_rules_say(part: int) -> None:
    """Masks, seats, rewards and ends at every step of 2,000 random matches, in two parts
    the suite's workers share."""
    seen = play_along({}, matches=1000, batch=200, seed=5 + 10_000 * part, observe=False)
    assert seen["ended"] >= 1000 and seen["games"] > 2000


def positions(game: Any, matches: int, seed: int) -> list[ErdState]:
    """Every position of a few random matches of the readable rules, one seat allocating at
    a time (so a seat's pending allocation shows too)."""
    rng = random.Random(seed)
    found = []
    for g in range(matches):
        state = game.new_game(seed + g)
        while not state.is_over:
            found.append(state)
            seat = rng.choice(state.to_act)
            state = state.apply(seat, rng.choice(state.legal_actions(seat)))
        found.append(state)
    return found


@pytest.mark.parametrize("options", [{}, {"rules": "original"}])
def test_what_a_seat_cannot_see_never_changes_its_observation(options: dict[str, Any]) -> None:
    """No leak: re-drawing the other seat's pending allocation (the one thing Erd hides;
    ``determinize``) leaves the seat's observation as it was, from the batched kernel and
    from the view alike."""
    game = meeple.make("erd", **options)
    rules = MeepleVectorEnv("erd", num_envs=1, **options).rules
    rng = random.Random(0)
    rows, samples = [], []
    for state in positions(game, 6, seed=40):
        for seat in range(2):
            for _ in range(2):
                sample = state.determinize(seat, rng)
                rows += [encode(state), encode(sample)]
                samples.append((state, sample, seat))
    observed = np.empty((len(rows), 2, OBSERVATION_SIZE), dtype=np.float32)
    rules.observe(np.stack(rows), observed)
    changed = 0
    for n, (state, sample, seat) in enumerate(samples):
        changed += encode(state).tolist() != encode(sample).tolist()
        np.testing.assert_array_equal(observed[2 * n, seat], observed[2 * n + 1, seat])
        np.testing.assert_array_equal(
            observation_of_view(game, sample.view(seat), seat), observed[2 * n, seat]
        )
        # the seat's own pending allocation does show
        if state.pending.of(seat) is not None:
            assert observed[2 * n, seat].any()
    assert changed > 0.2 * len(samples)  # the samples did re-draw


def test_a_run_replays_from_its_seed() -> None:
    """The same seed and actions give the same observations and rewards."""
    runs = []
    for _ in range(2):
        env = MeepleVectorEnv("erd", num_envs=4)
        obs, info = env.reset(seed=9)
        rng = np.random.default_rng(1)
        trace = [obs]
        for _ in range(60):
            obs, reward, _, _, info = env.step(random_actions(info, rng))
            trace += [obs, reward]
        runs.append(trace)
    for a, b in zip(*runs, strict=True):
        assert np.array_equal(a, b)


def test_an_illegal_action_is_refused_before_any_game_moves() -> None:
    """An acting seat's illegal id: IllegalAction naming game and seat, nothing changed."""
    env = MeepleVectorEnv("erd", num_envs=3)
    _, info = env.reset(seed=0)
    assert info["acting"].all()
    before = env._states.copy()
    legal = int(np.flatnonzero(info["action_mask"][0, 0])[0])
    actions = np.full((3, 2), legal, dtype=np.int64)
    actions[1, 1] = 0  # rush=- defense=-: patch 0.02 wants three cards in each pile
    with pytest.raises(IllegalAction, match="not legal in game 1 for seat 1; legal ids: \\["):
        env.step(actions)
    assert np.array_equal(env._states, before)
    with pytest.raises(MeepleError, match="3 x 2 integer action ids"):
        env.step(np.zeros(3, dtype=np.int64))


def test_an_option_the_compiled_rules_do_not_serve_is_refused_in_one_line() -> None:
    """A round limit beyond an int16: one line naming it."""
    with pytest.raises(MeepleError, match="serve round_limit up to 32767"):
        MeepleVectorEnv("erd", num_envs=2, round_limit=40_000)


def test_the_observation_names_every_slot_and_stays_in_the_unit_box() -> None:
    """66 named slots per seat, every value in [0, 1], in the declared spaces."""
    env = MeepleVectorEnv("erd", num_envs=16, rules="original", reserve="HHHHHHLD")
    obs, info = env.reset(seed=2)
    slots = env.observation_slots()
    assert len(slots) == len(set(slots)) == obs.shape[2] == OBSERVATION_SIZE == 66
    assert obs.shape == (16, 2, 66)
    rng = np.random.default_rng(0)
    for _ in range(150):
        assert env.observation_space.contains(obs)
        assert ((obs >= 0) & (obs <= 1)).all()
        actions = random_actions(info, rng)
        assert env.action_space.contains(np.maximum(actions, 0))
        obs, *_, info = env.step(actions)
    assert fast.size(env.game) == env._states.shape[1]
