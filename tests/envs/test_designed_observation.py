"""The one-game adapters' designed observation (``observation="designed"``) against the
batched environment: the same seeds and random legal actions through both, every
observation compared number for number; the frameworks' own checks with it; no leak; a
configuration the batched rules would not serve refused in one line."""

from __future__ import annotations

import pickle
import random
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

from meeple.core.errors import MeepleError  # noqa: E402
from meeple.core.registry import batch_rules, make  # noqa: E402
from meeple.envs import openspiel as mos  # noqa: E402
from meeple.envs import pettingzoo as mpz  # noqa: E402
from meeple.envs.gym import MeepleGymEnv  # noqa: E402
from meeple.envs.observation import (  # noqa: E402
    DesignedObservation,
    _designed,
    designed_observation,
    observation_for,
)
from meeple.envs.vector import MeepleVectorEnv  # noqa: E402
from meeple.games.erosion.compiled import batch as erosion_batch  # noqa: E402

SQUAD_CONTENT = Path(__file__).parents[1] / "games" / "squad_combat" / "content"

GAMES = ["edges", "erd", "erosion", "triangle-clock", "squad-combat"]

# (game, options, games to finish): each configuration plays two games side by side until
# that many have ended, so each also checks the observation a game ends on and a reset.
CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("edges", {}, 2),
    ("edges", {"board": "2x3", "stash": "3/3/2", "pie": False}, 2),
    ("edges", {"double": True}, 1),
    ("erd", {}, 2),
    ("erd", {"rules": "original", "best_of": 3}, 1),
    ("erosion", {}, 1),
    ("erosion", {"players": 3}, 1),
    ("erosion", {"players": 4, "draw_from": "one"}, 1),
    ("erosion", {"players": 5}, 1),
    ("erosion", {"players": 3, "advanced": True, "legend": "advanced"}, 1),
    ("triangle-clock", {}, 1),
    ("triangle-clock", {"items": "all/all"}, 1),
    ("squad-combat", {"turn_limit": 10}, 1),
    ("squad-combat", {"players": 3, "turn_limit": 6}, 1),
    ("squad-combat", {"players": 4, "lead": "rotate", "turn_limit": 5}, 1),
]

SEEDS = 1000
"""OpenSpiel's chance node picks the seed among this many; every seed played is below."""


class OneGame:
    """One game through the one-game adapters (PettingZoo's AEC or parallel env, and
    OpenSpiel), each observing with ``observation="designed"``."""

    def __init__(self, game: str, options: dict[str, Any], seed: int, parallel: bool) -> None:
        assert seed < SEEDS
        self.parallel = parallel
        maker = mpz.parallel_env if parallel else mpz.env
        self.pz = maker(game, observation="designed", **options)
        reset = self.pz.reset(seed=seed)
        self.observations = reset[0] if parallel else None
        spiel = pyspiel.load_game(
            mos.short_name(game), {**options, "seeds": SEEDS, "observation": "designed"}
        )
        self.spiel = spiel.new_initial_state()
        self.spiel.apply_action(seed)

    def observe(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """``seat``'s designed observation and mask from PettingZoo, after checking that
        OpenSpiel's observation tensor is the same."""
        agent = mpz.agent_name(seat)
        seen = self.observations[agent] if self.parallel else self.pz.observe(agent)
        tensor = np.asarray(self.spiel.observation_tensor(seat), dtype=np.float32)
        np.testing.assert_array_equal(tensor, seen["observation"])
        return seen["observation"], seen["action_mask"]

    def play(self, actions: dict[int, int]) -> None:
        """The seats' actions (one seat's in a game with turns) through both adapters."""
        if self.parallel:
            step = self.pz.step({mpz.agent_name(p): a for p, a in actions.items()})
            self.observations = step[0]
        else:
            ((seat, action),) = actions.items()
            assert self.pz.agent_selection == mpz.agent_name(seat)
            self.pz.step(action)
        if len(actions) > 1:
            self.spiel.apply_actions([actions.get(p, 0) for p in range(self.spiel.num_players())])
        else:
            self.spiel.apply_action(next(iter(actions.values())))


def play_along(
    game: str,
    options: dict[str, Any],
    games: int,
    batch: int,
    seed: int,
    prefer: frozenset[int] = frozenset(),
) -> int:
    """Step a batch and one-game adapters from the same seeds with the same random legal
    actions (one of ``prefer`` where one is legal) until ``games`` have ended, comparing
    every observation and checking that it lies in [0, 1]; the games ended."""
    env = MeepleVectorEnv(game, num_envs=batch, **options)
    parallel = env.simultaneous
    seats = env.num_seats
    obs, info = env.reset(seed=seed)
    ones = [OneGame(game, options, seed + k, parallel) for k in range(batch)]
    rng = np.random.default_rng(seed)
    ended = 0
    while ended < games:
        chosen: list[dict[int, int]] = []
        for k, one in enumerate(ones):
            if parallel:
                acting = np.flatnonzero(info["acting"][k]).tolist()
                views = {p: (obs[k, p], info["action_mask"][k, p]) for p in range(seats)}
            else:
                acting = [int(info["to_act"][k])]
                views = {acting[0]: (obs[k], info["action_mask"][k])}
            for p, (expected, mask) in views.items():
                observation, own_mask = one.observe(p)
                np.testing.assert_array_equal(observation, expected)
                assert np.array_equal(own_mask.astype(bool), mask)
                assert observation.min() >= 0.0 and observation.max() <= 1.0
            picks = {}
            for p in acting:
                legal = np.flatnonzero(views[p][1])
                preferred = [a for a in legal.tolist() if a in prefer]
                picks[p] = int(rng.choice(preferred or legal))
            chosen.append(picks)
        if parallel:
            actions = np.full((batch, seats), -1, dtype=np.int64)
            for k, picks in enumerate(chosen):
                for p, a in picks.items():
                    actions[k, p] = a
        else:
            actions = np.array([next(iter(picks.values())) for picks in chosen])
        obs, _, done, _, info = env.step(actions)
        for k, one in enumerate(ones):
            one.play(chosen[k])
            assert bool(done[k]) == one.spiel.is_terminal()
            if not done[k]:
                continue
            ended += 1
            # the batch's last observation: each seat's in a simultaneous game, else the
            # seat the batched rules observe at the end (Edges and Erosion seat 0, Squad
            # Combat the last mover)
            last = range(seats) if parallel else [0 if game != "squad-combat" else info["acted"][k]]
            for p in last:
                final = info["final_obs"][k, p] if parallel else info["final_obs"][k]
                np.testing.assert_array_equal(one.observe(int(p))[0], final)
                assert final.min() >= 0.0 and final.max() <= 1.0
            ones[k] = OneGame(game, options, int(env._seeds[k]), parallel)
    return ended


@pytest.mark.parametrize(
    ("game", "options", "games"),
    CONFIGS,
    ids=[f"{g}-{','.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, o, _ in CONFIGS],
)
def test_the_adapters_observe_as_the_batch(game: str, options: dict[str, Any], games: int):
    assert play_along(game, options, games=games, batch=2, seed=11) >= games


def test_edges_progress_stays_in_range_after_a_pie_take_over():
    """A pie take-over is a turn that places no pyramid: progress counts pyramids placed
    (it once counted turns and passed 1 at the end of such a game)."""
    game = make("edges")
    pie = frozenset(k for k in range(game.num_actions) if str(game.action_from_id(k))[:3] == "pie")
    assert pie
    assert play_along("edges", {}, games=2, batch=2, seed=5, prefer=pie) >= 2


# -- the frameworks' own checks --------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test_passes_with_the_designed_observation(game):
    env = mpz.env(game, observation="designed")
    api_test(env, num_cycles=200)
    assert env.observation_space("player_0")["observation"].shape == (
        designed_observation(env.game).size,
    )


@pytest.mark.parametrize("game", mpz.SIMULTANEOUS_GAMES)
def test_parallel_api_test_passes_with_the_designed_observation(game):
    parallel_api_test(mpz.parallel_env(game, observation="designed"), num_cycles=200)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env_passes_with_the_designed_observation(game):
    env = MeepleGymEnv(game, observation="designed")
    check_env(env, skip_render_check=True)
    observation, _ = env.reset(seed=4)
    assert np.array_equal(observation, designed_observation(env.game).encode(env.game_state, 0))


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_random_sim_test_passes_with_the_designed_observation(game):
    short = ",turn_limit=8" if game == "squad-combat" else ""
    loaded = pyspiel.load_game(f"{mos.short_name(game)}(observation=designed{short})")
    size = designed_observation(loaded.meeple).size
    assert loaded.observation_tensor_shape() == [size]
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=False, verbose=False)


def test_an_openspiel_observer_parameter_chooses_the_observation():
    game = pyspiel.load_game("python_meeple_erosion")
    state = game.new_initial_state()
    state.apply_action(4)
    designed = make_observation(game, params={"observation": "designed"})
    designed.set_from(state, 1)
    expected = designed_observation(game.meeple).encode(state.inner, 1)
    assert np.array_equal(designed.tensor, expected)
    assert len(state.observation_tensor(1)) == observation_for(game.meeple).size  # the view
    with pytest.raises(ValueError, match="observation only"):
        make_observation(game, params={"colour": "blue"})


# -- what a seat may know ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("erd", {}),
        ("erosion", {}),
        ("erosion", {"players": 4}),
        ("erosion", {"players": 3, "advanced": True, "legend": "basic"}),
        ("triangle-clock", {}),
        ("squad-combat", {}),
        ("squad-combat", {"players": 3}),
    ],
)
def test_states_a_seat_cannot_tell_apart_give_it_the_same_designed_observation(game, options):
    env = mpz.env(game, observation="designed", **options)
    env.reset(seed=2)
    rng = random.Random(2)
    for _ in range(40):
        state = env.game_state
        if state.is_over:
            break
        for seat in range(state.game.num_players):
            agent = mpz.agent_name(seat)
            seen = env.observe(agent)["observation"]
            env.game_state = state.determinize(seat, rng)
            assert np.array_equal(seen, env.observe(agent)["observation"])
            env.game_state = state
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


# -- refusals ------------------------------------------------------------------------------
def test_erosion_serves_every_option_and_a_refused_one_is_named(monkeypatch):
    """The designed observation serves the Advanced Rules and the Legend variant (slots of
    their own); were the batched rules to refuse an option, every adapter would name it in
    one line and point to the view."""
    options = {"advanced": True, "legend": "basic"}
    env = mpz.env("erosion", observation="designed", **options)
    env.reset(seed=1)
    size = designed_observation(env.game).size
    assert env.observe(env.agent_selection)["observation"].shape == (size,)
    assert size > designed_observation(make("erosion")).size
    monkeypatch.setattr(erosion_batch, "BATCH_SERVED", (("legend", "off"),))
    _designed.cache_clear()
    try:
        for make_env in (
            lambda: mpz.env("erosion", observation="designed", **options),
            lambda: MeepleGymEnv("erosion", observation="designed", **options),
            lambda: pyspiel.load_game(
                "python_meeple_erosion", {**options, "observation": "designed"}
            ),
        ):
            with pytest.raises(MeepleError) as caught:
                make_env()
            message = str(caught.value)
            assert "\n" not in message
            assert message.startswith('observation="designed" is not offered')
            assert (
                "legend='basic'" in message and 'observation="view" serves every option' in message
            )
        env = mpz.env("erosion", **options)  # the view serves it
        env.reset(seed=1)
        observation = env.observe(env.agent_selection)["observation"]
        assert observation.size == observation_for(env.game).size
    finally:
        _designed.cache_clear()


def test_a_content_folder_edited_in_place_is_observed_anew(tmp_path):
    """The designed observation is made once per configuration: after a card is renamed in
    the folder a game names, a game made again from it is observed by its own batched rules
    (its slots name the new card), not the first game's."""
    shutil.copytree(SQUAD_CONTENT, tmp_path, dirs_exist_ok=True)
    before = observation_for(make("squad-combat", content=str(tmp_path)), "designed")
    for name in ("cards.toml", "decks.toml"):
        path = tmp_path / name
        path.write_text(path.read_text().replace("jab", "poke"))
    after = make("squad-combat", content=str(tmp_path))
    assert "own.jab" in before.describe()
    observed = observation_for(after, "designed")
    assert "own.poke" in observed.describe() and "own.jab" not in observed.describe()
    state = after.new_game(0)
    fresh = DesignedObservation(batch_rules(after))
    np.testing.assert_array_equal(observed.encode(state, 0), fresh.encode(state, 0))


def test_an_unknown_observation_is_refused_naming_the_allowed_ones():
    with pytest.raises(MeepleError, match="observation must be one of 'view', 'designed'"):
        mpz.env("erd", observation="pixels")
    with pytest.raises(MeepleError, match="not 'pixels'"):
        observation_for(make("erd"), "pixels")


def test_an_unpickled_openspiel_game_plays_and_keeps_its_parameters():
    loaded = pyspiel.load_game("python_meeple_erd(best_of=3,observation=designed)")
    copy = pickle.loads(pickle.dumps(loaded))
    assert copy.meeple.options.best_of == 3
    assert copy.observation_tensor_shape() == [designed_observation(copy.meeple).size]
    state = copy.new_initial_state()
    state.apply_action(3)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
