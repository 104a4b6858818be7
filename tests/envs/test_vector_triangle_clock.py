"""The batched Triangle Clock against its readable rules: states, masks, seats, observations,
rewards and ends, step by step over thousands of random games; and the observation's no-leak
check."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import meeple
from meeple.core.errors import IllegalAction, MeepleError
from meeple.envs.vector import MeepleVectorEnv
from meeple.games.triangle_clock.compiled import rules as fast
from meeple.games.triangle_clock.compiled.batch import (
    OBSERVATION_SIZE,
    SIZE,
    observation_of_view,
)
from meeple.games.triangle_clock.compiled.rules import encode

CUSTOM_RANKING = """
[[rank]]
name = "Flush Pair"
pattern = "kind"
size = 2
flush = true
strength = 9

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

CONFIGS: list[dict[str, Any]] = [
    {},
    {"items": "all/all"},  # both seats may take a Mulligan in the same step
    {"items": "all/all", "mulligan_order": "literal"},
    {"items": "none/none", "tie_break": "whole-hand"},
    {"items": "mulligan/palette-swap+right-angle", "ranking": "custom"},
]


def random_actions(info: dict[str, Any], rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal id for each acting seat; -1 (ignored) for the others."""
    masks, acting = info["action_mask"], info["acting"]
    out = np.full(acting.shape, -1, dtype=np.int64)
    for k, p in np.argwhere(acting).tolist():
        out[k, p] = rng.choice(np.flatnonzero(masks[k, p]))
    return out


def play_along(
    options: dict[str, Any], games: int, batch: int, seed: int, observe: bool = True
) -> Counter[str]:
    """Step ``batch`` games with random legal actions until ``games`` have ended, playing the
    same actions on the readable rules beside them and comparing everything at every step
    (observations and whole states only when ``observe``). Counts the games ended and the
    chance met on the way: Mulligans, steps where both seats took one, reshuffles."""
    env = MeepleVectorEnv("triangle-clock", num_envs=batch, **options)
    game = env.game
    obs, info = env.reset(seed=seed)
    readable = [game.new_game(seed + k) for k in range(batch)]
    rng = np.random.default_rng(seed)
    seen: Counter[str] = Counter()
    while seen["ended"] < games:
        for k, state in enumerate(readable):
            for p in range(2):
                assert info["acting"][k, p] == (p in state.to_act)
                legal = state.legal_action_ids(p) if p in state.to_act else []
                assert np.flatnonzero(info["action_mask"][k, p]).tolist() == sorted(legal)
                if observe:
                    expected = observation_of_view(game, state.view(p), p)
                    np.testing.assert_array_equal(obs[k, p], expected)
            if observe:
                assert np.array_equal(env._states[k, :SIZE], encode(state))
        actions = random_actions(info, rng)
        mulligans = (actions == fast.MULLIGAN_ID).sum(axis=1)
        seen["mulligans"] += int(mulligans.sum())
        seen["both mulligan"] += int((mulligans == 2).sum())
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for k, state in enumerate(readable):
            after = state
            for p in sorted(state.to_act):
                after = after.apply(p, game.action_from_id(int(actions[k, p])))
            assert terminated[k] == after.is_over
            assert list(reward[k]) == list(after.returns)
            assert list(info["rewards"][k]) == list(after.returns)
            seen["reshuffles"] += after.supply.reshuffles - state.supply.reshuffles
            if after.is_over:
                seen["ended"] += 1
                assert info["_final_obs"][k]
                assert env.rules.decode(env._states[k]).seed == env._seeds[k]
                for p in range(2):
                    np.testing.assert_array_equal(
                        info["final_obs"][k, p], observation_of_view(game, after.view(p), p)
                    )
                after = game.new_game(int(env._seeds[k]))
            readable[k] = after
    return seen


@pytest.fixture
def custom_ranking(tmp_path: Path) -> str:
    """A ranking table of three ranks, written to a file."""
    path = tmp_path / "ranking.toml"
    path.write_text(CUSTOM_RANKING)
    return str(path)


@pytest.mark.parametrize(
    "options", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "seed"
)
def test_the_batched_triangle_clock_is_the_readable_rules(
    options: dict[str, Any], custom_ranking: str
) -> None:
    """Random games through both, every state and observation compared, across resets."""
    if options.get("ranking") == "custom":
        options = {**options, "ranking": custom_ranking}
    seen = play_along(options, games=12, batch=6, seed=21)
    assert seen["ended"] >= 12 and seen["reshuffles"] >= 12
    if "mulligan" in options.get("items", "mulligan"):
        assert seen["mulligans"] >= 12
    if options.get("items") == "all/all":
        assert seen["both mulligan"] > 0


@pytest.mark.parametrize("part", range(4))
def test_thousands_of_random_games_end_as_the_readable_rules_say(part: int) -> None:
    """Masks, seats, rewards and ends at every step of 2,000 random games, in four parts of
    500 that the suite's workers share (both seats holding every item, so Mulligans and
    reshuffles come often)."""
    seen = play_along(
        {"items": "all/all"}, games=500, batch=100, seed=5 + 10_000 * part, observe=False
    )
    assert seen["ended"] >= 500 and seen["both mulligan"] > 25


def positions(game: Any, games: int, seed: int) -> list[Any]:
    """Every position of a few random games of the readable rules, one seat submitting at
    a time (so a seat's pending submission shows too)."""
    rng = random.Random(seed)
    found = []
    for g in range(games):
        state = game.new_game(seed + g)
        while not state.is_over:
            found.append(state)
            seat = rng.choice(state.to_act)
            state = state.apply(seat, rng.choice(state.legal_actions(seat)))
        found.append(state)
    return found


@pytest.mark.parametrize("options", [{}, {"items": "all/all"}])
def test_what_a_seat_cannot_see_never_changes_its_observation(options: dict[str, Any]) -> None:
    """No leak: re-dealing what a seat cannot know (the other hand and its pending choice,
    the deck's order, shared symbols not yet revealed; ``determinize``) leaves the seat's
    observation as it was, from the batched kernel and from the view alike."""
    game = meeple.make("triangle-clock", **options)
    rules = MeepleVectorEnv("triangle-clock", num_envs=1, **options).rules
    rng = random.Random(0)
    states = positions(game, 2, seed=40)
    rows, samples = [], []
    for state in states:
        for seat in range(2):
            for _ in range(2):
                sample = state.determinize(seat, rng)
                rows += [rules.initial(0), rules.initial(0)]
                rows[-2][:SIZE], rows[-1][:SIZE] = encode(state), encode(sample)
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
    assert changed > 0.9 * len(samples)  # the samples did re-deal


def test_a_run_replays_from_its_seed() -> None:
    """The same seed and actions give the same observations and rewards."""
    runs = []
    for _ in range(2):
        env = MeepleVectorEnv("triangle-clock", num_envs=4, items="all/all")
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
    """An acting seat's illegal id: IllegalAction naming game and seat, nothing changed; a
    seat not to act may send anything."""
    env = MeepleVectorEnv("triangle-clock", num_envs=3)
    _, info = env.reset(seed=0)
    assert info["acting"].all()
    before = env._states.copy()
    actions = np.full((3, 2), fast.MEMORISED_ID, dtype=np.int64)
    actions[1, 1] = 0  # a pick during the memorise step
    with pytest.raises(IllegalAction, match="not legal in game 1 for seat 1; legal ids: \\[33\\]"):
        env.step(actions)
    assert np.array_equal(env._states, before)
    with pytest.raises(MeepleError, match="3 x 2 integer action ids"):
        env.step(np.zeros(3, dtype=np.int64))
    _, _, _, _, info = env.step(np.full((3, 2), fast.MEMORISED_ID))
    assert info["acting"].all() and not info["action_mask"][:, :, fast.MEMORISED_ID].any()


def test_a_mulligan_leaves_the_other_seat_waiting_and_its_entry_ignored() -> None:
    """Tock (holding the Mulligan) scraps its hand while Tick picks: next step only Tock
    acts, Tick's entry is ignored whatever it is, and Tick's observation shows its own
    hidden pick."""
    env = MeepleVectorEnv("triangle-clock", num_envs=1)
    _, info = env.reset(seed=0)
    _, _, _, _, info = env.step(np.full((1, 2), fast.MEMORISED_ID))
    assert info["action_mask"][0, 1, fast.MULLIGAN_ID]
    obs, _, _, _, info = env.step(np.array([[0, fast.MULLIGAN_ID]]))
    assert info["acting"][0].tolist() == [False, True]
    assert not info["action_mask"][0, 0].any()
    slots = env.observation_slots()
    assert obs[0, 0, slots.index("pending.A")] == 1.0
    assert obs[0, 1, slots.index("pending.A")] == 0.0  # Tock never sees Tick's choice
    pick = int(np.flatnonzero(info["action_mask"][0, 1])[0])
    _, _, _, _, info = env.step(np.array([[999, pick]]))
    assert info["acting"][0].tolist() == [True, True]
    assert env.states()[0].phase.label == "second"


def test_an_option_the_compiled_rules_do_not_serve_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A configuration with an option the compiled rules do not know: one line naming it."""
    monkeypatch.setattr(fast, "_SERVED", fast._SERVED - {"tie_break"})
    fast.tables.cache_clear()
    with pytest.raises(MeepleError, match="do not serve option tie_break; they serve auto_steps"):
        MeepleVectorEnv("triangle-clock", num_envs=2, tie_break="whole-hand")


def test_the_observation_names_every_slot_and_stays_in_the_unit_box() -> None:
    """336 named slots per seat, every value in [0, 1], in the declared spaces."""
    env = MeepleVectorEnv("triangle-clock", num_envs=16, items="all/all")
    obs, info = env.reset(seed=2)
    slots = env.observation_slots()
    assert len(slots) == len(set(slots)) == obs.shape[2] == OBSERVATION_SIZE == 336
    assert obs.shape == (16, 2, 336)
    rng = np.random.default_rng(0)
    for _ in range(150):
        assert env.observation_space.contains(obs)
        assert ((obs >= 0) & (obs <= 1)).all()
        actions = random_actions(info, rng)
        assert env.action_space.contains(np.maximum(actions, 0))
        obs, *_, info = env.step(actions)
