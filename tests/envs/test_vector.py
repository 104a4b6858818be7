"""The batched environments against the readable rules: every state, mask, seat and reward."""

from __future__ import annotations

import numpy as np
import pytest

import meeple
from meeple.core.batch import random_legal_ids
from meeple.core.errors import IllegalAction, MeepleError
from meeple.envs.vector import MeepleVectorEnv
from meeple.games.edges.compiled.batch import observation_of_view
from meeple.games.edges.compiled.rules import encode

CONFIGS = [
    {"board": "2x2"},
    {"board": "3x4"},
    {"board": "2x3", "pie": False},
    {"double": True},
    {"board": "2x3", "first": 1},
]


def play_along(options: dict[str, object], games: int, batch: int, seed: int) -> int:
    """Step ``batch`` games with random legal actions until ``games`` have ended, playing the
    same actions on the readable rules beside them and comparing everything; the games
    ended."""
    env = MeepleVectorEnv("edges", num_envs=batch, **options)
    game = meeple.make("edges", **options)
    obs, info = env.reset(seed=seed)
    readable = [game.new_game(seed + k) for k in range(batch)]
    rng = np.random.default_rng(seed)
    ended = 0
    while ended < games:
        for k, state in enumerate(readable):
            seat = state.to_act[0]
            assert info["to_act"][k] == seat
            assert np.flatnonzero(info["action_mask"][k]).tolist() == sorted(
                state.legal_action_ids(seat)
            )
            assert np.array_equal(env._states[k], encode(state))
            np.testing.assert_allclose(obs[k], observation_of_view(game, state.view(seat)))
        actions = random_legal_ids(info["action_mask"], rng)
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for k, state in enumerate(readable):
            seat = state.to_act[0]
            after = state.apply(seat, game.action_from_id(int(actions[k])))
            assert terminated[k] == after.is_over
            assert info["acted"][k] == seat
            assert list(info["rewards"][k]) == list(after.returns)
            assert reward[k] == after.returns[seat]
            if after.is_over:
                ended += 1
                assert info["_final_obs"][k]
                np.testing.assert_allclose(
                    info["final_obs"][k], observation_of_view(game, after.view(0))
                )
                after = game.new_game(int(info_seed(env, k)))
            readable[k] = after
    return ended


def info_seed(env: MeepleVectorEnv, k: int) -> int:
    """The seed of the game slot ``k`` plays now."""
    return int(env._seeds[k])


@pytest.mark.parametrize(
    "options", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_the_batched_edges_is_the_readable_rules(options: dict[str, object]) -> None:
    """Random games through both, compared after every step, across resets."""
    assert play_along(options, games=60, batch=16, seed=11) >= 60


def test_thousands_of_random_games_end_as_the_readable_rules_say() -> None:
    """The whole batch plays on to thousands of games on the standard board."""
    assert play_along({"board": "2x2"}, games=2000, batch=64, seed=3) >= 2000


def test_a_run_replays_from_its_seed() -> None:
    """The same seed and actions give the same observations and rewards."""
    runs = []
    for _ in range(2):
        env = MeepleVectorEnv("edges", num_envs=8, board="2x3")
        obs, info = env.reset(seed=5)
        rng = np.random.default_rng(1)
        trace = [obs]
        for _ in range(40):
            actions = random_legal_ids(info["action_mask"], rng)
            obs, reward, _, _, info = env.step(actions)
            trace += [obs, reward]
        runs.append(trace)
    for a, b in zip(*runs, strict=True):
        assert np.array_equal(a, b)


def test_a_reset_takes_a_seed_per_game_as_gymnasium_s_vector_envs_do() -> None:
    """A list, tuple or array of seeds seeds game by game (an array was read as one seed
    and added to ``k``), None in it is drawn (it raised a TypeError), and a seed that is not
    a whole number is refused in one line."""
    env = MeepleVectorEnv("edges", num_envs=3, board="2x3")
    for seeds in ([4, 9, 2], (4, 9, 2), np.array([4, 9, 2])):
        assert env.reset(seed=seeds)[1]["seed"].tolist() == [4, 9, 2]
    assert env.reset(seed=np.int64(4))[1]["seed"].tolist() == [4, 5, 6]
    drawn = env.reset(seed=[4, None, 2])[1]["seed"]
    assert drawn[0] == 4 and drawn[2] == 2
    for wrong in (1.5, [4, 9.5, 2], "4"):
        with pytest.raises(MeepleError, match="seed must be a whole number, or a list of 3 seeds"):
            env.reset(seed=wrong)


def test_a_seed_past_64_bits_is_refused_in_one_line() -> None:
    """Games start from 64-bit seeds: one that does not fit (alone, or with the games' k
    added) is refused saying what fits; it was an OverflowError from NumPy."""
    env = MeepleVectorEnv("edges", num_envs=3, board="2x3")
    for wrong in (2**64, 2**63 - 2, [4, 2**63, 2], [-(2**63) - 1, 9, 2]):
        with pytest.raises(MeepleError, match="seed must be a 64-bit integer, -2\\*\\*63 to"):
            env.reset(seed=wrong)
    assert env.reset(seed=2**63 - 3)[1]["seed"].tolist() == [2**63 - 3, 2**63 - 2, 2**63 - 1]
    assert env.reset(seed=[2**63 - 1, -(2**63), 2])[1]["seed"].tolist()[:2] == [2**63 - 1, -(2**63)]


def test_a_negative_seed_starts_the_readable_rules_games_and_replays() -> None:
    """A negative seed is a 64-bit seed like another (a list of seeds took one already):
    game k is ``new_game(seed + k)``, and an unseeded reset after it replays. A whole seed
    below 0 was refused by Gymnasium's "Seed must be greater or equal to zero"."""
    game = meeple.make("edges", board="2x3")
    env = MeepleVectorEnv("edges", num_envs=3, board="2x3")
    _, info = env.reset(seed=-5)
    assert info["seed"].tolist() == [-5, -4, -3]
    for k in range(3):
        assert np.array_equal(env._states[k], encode(game.new_game(-5 + k)))
    drawn = env.reset()[1]["seed"]
    env.reset(seed=-5)
    assert np.array_equal(env.reset()[1]["seed"], drawn)
    assert env.reset(seed=-(2**63))[1]["seed"].tolist() == [-(2**63), 1 - 2**63, 2 - 2**63]


def test_a_slot_s_seeds_wrap_round_past_64_bits() -> None:
    """Slot k plays seeds s + k, s + k + B, ...: past 2**63 - 1 they wrap round to -2**63
    (the rows keep 64-bit seeds), and the game started there is that seed's."""
    game = meeple.make("edges", board="2x2")
    env = MeepleVectorEnv("edges", num_envs=3, board="2x2")
    _, info = env.reset(seed=2**63 - 3)
    rng = np.random.default_rng(0)
    ended = np.zeros(3, dtype=np.bool_)
    while not ended.all():
        *_, terminated, _, info = env.step(random_legal_ids(info["action_mask"], rng))
        ended |= terminated
        for k in np.flatnonzero(terminated):
            wrapped = -(2**63) + int(k)  # (2**63 - 3 + k) + 3 - 2**64
            assert env._seeds[k] == wrapped
            assert np.array_equal(env._states[k], encode(game.new_game(wrapped)))


def test_a_batch_size_may_be_a_numpy_integer() -> None:
    """``num_envs=np.int64(4)`` (a size worked out with NumPy) was refused as "not a whole
    number"."""
    assert MeepleVectorEnv("edges", num_envs=np.int64(4), board="2x2").num_envs == 4
    for wrong in (True, 4.0, "4"):
        with pytest.raises(MeepleError, match="num_envs must be a whole number, not"):
            MeepleVectorEnv("edges", num_envs=wrong, board="2x2")


def test_an_illegal_action_is_refused_before_any_game_moves() -> None:
    """One illegal id among legal ones: IllegalAction naming the game, nothing changed."""
    env = MeepleVectorEnv("edges", num_envs=4, board="2x2")
    _, info = env.reset(seed=0)
    actions = np.array([np.flatnonzero(row)[0] for row in info["action_mask"]])
    env.step(actions)  # the same edges are now taken
    before = env._states.copy()
    with pytest.raises(IllegalAction, match="not legal in game 0; legal ids"):
        env.step(actions)
    assert np.array_equal(env._states, before)
    with pytest.raises(MeepleError, match="4 integer action ids"):
        env.step(np.zeros(3, dtype=np.int64))
    # a float, NaN or bool action is refused, never rounded into another id
    for wrong in (actions + 0.5, np.full(4, np.nan), actions > 0):
        with pytest.raises(MeepleError, match=r"^step takes 4 integer action ids, got shape"):
            env.step(wrong)
    assert np.array_equal(env._states, before)
    with pytest.raises(MeepleError, match="num_envs must be 1 to"):
        MeepleVectorEnv("edges", num_envs=0)


def test_a_game_without_batched_rules_is_refused_by_name(monkeypatch) -> None:
    """Asking for a game that has no batched rules names the games that have them (every
    shipped game has them: a game added without, as Erd is here, is refused)."""
    from meeple.core import registry

    monkeypatch.setattr(
        registry, "_BATCHES", {k: v for k, v in registry._BATCHES.items() if k != "erd"}
    )
    with pytest.raises(
        MeepleError,
        match="no batched rules yet; games that have: edges, erosion, squad-combat, triangle",
    ):
        MeepleVectorEnv("erd", num_envs=2)


def test_the_observation_names_every_slot_and_stays_in_the_unit_box() -> None:
    """101 named slots on the standard board, every value in [0, 1]."""
    env = MeepleVectorEnv("edges", num_envs=32)
    obs, info = env.reset(seed=2)
    assert len(env.observation_slots()) == obs.shape[1] == 101
    rng = np.random.default_rng(0)
    for _ in range(50):
        assert env.single_observation_space.contains(obs[0])
        assert ((obs >= 0) & (obs <= 1)).all()
        actions = random_legal_ids(info["action_mask"], rng)
        obs, *_, info = env.step(actions)


@pytest.mark.parametrize("name", ["edges", "triangle-clock"])
def test_active_moves_only_the_games_it_marks(name: str) -> None:
    """The games ``active`` leaves out keep their state, are not checked and pay nothing;
    the others move exactly as a full step would move them."""
    batch = 8
    env, full = (MeepleVectorEnv(name, num_envs=batch) for _ in range(2))
    _, info = env.reset(seed=5)
    full.reset(seed=5)
    rng = np.random.default_rng(2)
    active = np.arange(batch) % 3 != 0
    for _ in range(12):
        mask = info["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(axis=-1)
        waiting = actions.copy()
        waiting[~active] = 10_000  # never read: not legal anywhere
        before = env._states.copy()
        # the full step starts from the same games
        full._states[:], full._masks[:], full._seeds[:] = before, mask, env._seeds
        _, reward, done, _, info = env.step(waiting, active=active)
        full.step(actions)
        assert np.array_equal(env._states[~active], before[~active])
        assert np.array_equal(env._states[active], full._states[active])
        assert not reward[~active].any() and not done[~active].any()
        if env.simultaneous:
            assert not info["acted"][~active].any()
        else:
            assert (info["acted"][~active] == -1).all()
    with pytest.raises(MeepleError, match=f"active must be {batch} booleans"):
        env.step(actions, active=np.ones(batch, dtype=int))


def test_gymnasium_s_episode_statistics_count_each_game_of_turns() -> None:
    """Gymnasium's ``RecordEpisodeStatistics`` reads the same-step autoreset from the env's
    metadata: each finished game is one episode, as long as its steps."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    env = RecordEpisodeStatistics(MeepleVectorEnv("edges", num_envs=4, board="2x2"))
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    lengths, steps = [], np.zeros(4, dtype=int)
    while len(lengths) < 8:
        *_, terminated, _, info = env.step(random_legal_ids(info["action_mask"], rng))
        steps += 1
        lengths += steps[terminated].tolist()
        steps[terminated] = 0
    assert list(env.length_queue) == lengths[: len(env.length_queue)]
    assert set(env.return_queue) <= {-1.0, 0.0, 1.0}
