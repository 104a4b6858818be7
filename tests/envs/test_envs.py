"""meeple's games in PettingZoo, OpenSpiel and Gymnasium, checked by their own test suites."""

from __future__ import annotations

import json
import math
import pickle
import random
import re
import warnings

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from gymnasium.envs.registration import EnvSpec  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import (  # noqa: E402
    api_test,
    parallel_api_test,
    render_test,
    seed_test,
)
from pettingzoo.utils.conversions import aec_to_parallel  # noqa: E402

from meeple.core.errors import IllegalAction, MeepleError  # noqa: E402
from meeple.core.registry import make  # noqa: E402
from meeple.envs import openspiel as mos  # noqa: E402
from meeple.envs import pettingzoo as mpz  # noqa: E402
from meeple.envs.encoding import encoder_for  # noqa: E402
from meeple.envs.gym import MeepleGymEnv  # noqa: E402

GAMES = ["edges", "erd", "erosion", "triangle-clock", "squad-combat"]


# -- PettingZoo -----------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_s_own_tests_pass(game):
    api_test(mpz.env(game), num_cycles=200)
    seed_test(lambda: mpz.env(game), num_cycles=60)
    render_test(lambda render_mode="ansi": mpz.env(game, render_mode=render_mode))


def _first_legal_games(env, seeds):
    """The seed and the agents and actions of a game per entry of ``seeds`` (None:
    ``reset()`` unseeded), each seat playing its last legal id."""
    games = []
    for seed in seeds:
        env.reset(seed=seed)
        moves = [env.unwrapped.seed_used]
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            legal = observation["action_mask"].nonzero()[0]
            action = None if terminated or truncated else int(legal[-1])
            moves.append((agent, action))
            env.step(action)
        games.append(moves)
    return games


def test_an_unseeded_reset_after_a_seeded_one_replays():
    """``reset(seed=s)`` then ``reset()`` replays the same games, as in Gymnasium and
    PettingZoo (the unseeded reset drew a fresh seed from the system)."""
    seeds = [3, None, None]
    first = _first_legal_games(mpz.env("edges", board="2x3"), seeds)
    again = _first_legal_games(mpz.env("edges", board="2x3"), seeds)
    assert first == again
    assert first[1][0] != first[2][0]  # each unseeded reset is a new game of the stream
    # NumPy's integers seed as the ints they are, negative ones too
    numpy_seeded = mpz.env("edges", board="2x3")
    assert _first_legal_games(numpy_seeded, [np.int64(3), None])[1] == first[1]
    assert _first_legal_games(numpy_seeded, [-3, None]) == _first_legal_games(
        mpz.env("edges", board="2x3"), [np.int64(-3), None]
    )
    parallel = [mpz.parallel_env("triangle-clock") for _ in range(2)]
    for p in parallel:
        p.reset(seed=5)
    first_obs, again_obs = (p.reset()[0]["player_0"]["observation"] for p in parallel)
    assert np.array_equal(first_obs, again_obs)


@pytest.mark.parametrize(
    ("seed", "refusal"),
    [
        (1.5, "seed must be a whole number, not 1.5"),
        (np.float64(3.0), "seed must be a whole number, not np.float64(3.0)"),
        (True, "seed must be a whole number, not True"),
        ("3", "seed must be a whole number, not '3'"),
        (2**63, "seed must be a 64-bit integer, -2**63 to 2**63 - 1, not 9223372036854775808"),
    ],
)
def test_a_reset_seed_is_a_64_bit_whole_number_in_every_adapter(seed, refusal):
    """A seed is what a record holds and the batched games take: the one-game adapters
    started a game from any value's text (3.0 a game other than 3's, True other than 1's),
    and the single-seat env refused a negative or NumPy seed in Gymnasium's words."""
    envs = [mpz.env("edges", board="2x3"), mpz.parallel_env("erd"), MeepleGymEnv("edges")]
    for env in envs:
        with pytest.raises(MeepleError, match=f"^{re.escape(refusal)}$"):
            env.reset(seed=seed)
    gym = MeepleGymEnv("edges", board="2x3")
    for accepted in (-5, np.int64(-5), -(2**63), 2**63 - 1):
        assert np.array_equal(gym.reset(seed=accepted)[0], gym.reset(seed=int(accepted))[0])
    gym.reset(seed=-5)
    assert gym.game_state == make("edges", board="2x3").new_game(-5)


def test_playing_before_a_reset_or_as_no_agent_is_refused_in_one_line():
    """Before ``reset()`` step and last raised AttributeError (no ``agent_selection``), the
    parallel step a bare AssertionError; an unknown agent a KeyError; the single-seat env's
    action None a TypeError."""
    aec, parallel = mpz.env("edges", board="2x3"), mpz.parallel_env("erd")
    gym = MeepleGymEnv("edges", board="2x3")
    for call in (lambda: aec.step(0), aec.last, lambda: parallel.step({}), lambda: gym.step(0)):
        with pytest.raises(MeepleError, match=r"^there is no game yet: call reset\(\) before"):
            call()
    aec.reset(seed=1)
    with pytest.raises(MeepleError, match=r"^there is no agent 'bob'; agents: player_0, player_1$"):
        aec.observe("bob")
    gym.reset(seed=1)
    with pytest.raises(IllegalAction, match=r"^an action is an integer id, not None$"):
        gym.step(None)


def test_an_action_that_is_no_whole_number_is_refused_not_rounded():
    """PettingZoo's and the single-seat env's steps took ``int(action)``: 3.7 played id 3,
    True id 1, "3" id 3, and infinity raised OverflowError. A NumPy integer, 0-d array too,
    is an id."""
    aec, parallel = mpz.env("edges", board="2x3"), mpz.parallel_env("erd")
    gym = MeepleGymEnv("edges", board="2x3", illegal_action="raise")
    observations, _ = parallel.reset(seed=0)
    erd = int(np.flatnonzero(observations["player_0"]["action_mask"])[0])
    steps = (
        aec.step,
        gym.step,
        lambda action: parallel.step({"player_0": action, "player_1": erd}),
    )
    for step in steps:
        aec.reset(seed=1)
        gym.reset(seed=1)
        for wrong in (3.7, 3.0, True, "3", math.inf, np.float64(3)):
            with pytest.raises(IllegalAction, match=r"^an action is an integer id, not "):
                step(wrong)
    assert parallel.game_state.to_act == (0, 1)  # nothing was played
    for env, step, legal in (
        (aec, aec.step, aec.game_state.legal_action_ids(aec.game_state.to_act[0])[0]),
        (gym, gym.step, gym.game_state.legal_action_ids(gym.seat)[0]),
    ):
        before = env.game_state
        step(np.int64(legal))
        assert env.game_state is not before
    gym.reset(seed=1)
    before = gym.game_state
    gym.step(np.array(gym.game_state.legal_action_ids(gym.seat)[0]))
    assert gym.game_state is not before


def test_ansi_rendering_returns_the_board_as_text():
    """render_mode="ansi" gives the game's terminal board (render_test only checks the type:
    every render was an empty string, rich's capture leaving nothing to export)."""
    aec = mpz.env("edges", board="2x3", render_mode="ansi")
    aec.reset(seed=0)
    parallel = mpz.parallel_env("erd", render_mode="ansi")
    parallel.reset(seed=0)
    gym_env = MeepleGymEnv("edges", board="2x3", render_mode="ansi")
    gym_env.reset(seed=0)
    assert "h0" in aec.render()
    assert "Reserve" in parallel.render()
    assert "h0" in (gym_env.render() or "")
    assert mpz.env("edges").render() is None  # no mode: nothing drawn


def test_human_rendering_prints_the_board_and_returns_none(capsys):
    """render_mode="human" rendered an empty string, silently: it prints the board (and
    returns None, as PettingZoo's render_test and Gymnasium expect of it)."""
    for make_env, game, seen in (
        (mpz.env, "edges", "h0"),
        (mpz.parallel_env, "erd", "Reserve"),
        (MeepleGymEnv, "edges", "h0"),
    ):
        env = make_env(game, render_mode="human")
        env.reset(seed=0)
        assert env.render() is None
        assert seen in capsys.readouterr().out


@pytest.mark.parametrize("mode", ["rgb_array", "ANSI"])
def test_a_render_mode_the_environments_do_not_draw_is_refused_when_made(mode):
    """A mode the environments do not draw is refused when made, saying what is offered, not
    answered with nothing at every render()."""
    expected = f"render_mode '{mode}' is not offered; allowed: 'human'"
    for make_env in (mpz.env, mpz.parallel_env, MeepleGymEnv):
        with pytest.raises(MeepleError, match=expected):
            make_env("erd", render_mode=mode)


@pytest.mark.parametrize("game", mpz.SIMULTANEOUS_GAMES)
def test_the_simultaneous_games_pass_the_parallel_api_test(game):
    parallel_api_test(mpz.parallel_env(game), num_cycles=200)


def test_a_refused_parallel_step_moves_no_seat():
    """An illegal id of the second seat was refused after the first seat's had been played."""
    parallel = mpz.parallel_env("erd")
    observations, _ = parallel.reset(seed=0)
    legal = int(np.flatnonzero(observations["player_0"]["action_mask"])[0])
    with pytest.raises(IllegalAction, match="not legal for player_1"):
        parallel.step({"player_0": legal, "player_1": 10**6})
    assert parallel.game_state.to_act == (0, 1)


def _finished_aec() -> mpz.MeepleAEC:
    """An AEC environment whose game is over and whose agents have all left it."""
    aec = mpz.env("edges", board="1x1")
    aec.reset(seed=0)
    for _ in aec.agent_iter():
        seen, _, ended, cut, _ = aec.last()
        aec.step(None if ended or cut else int(np.flatnonzero(seen["action_mask"])[0]))
    return aec


def test_a_step_past_the_end_or_of_the_wrong_shape_says_what_to_do():
    """A step after the end failed inside the adapter or PettingZoo (KeyError 'player_1',
    "zip() argument 2 is longer"); a parallel step given a list said only that player_0
    gave no action, and an agent's name misspelt was ignored."""
    aec = _finished_aec()
    for call in (lambda: aec.step(0), aec.last):
        with pytest.raises(MeepleError, match=r"^the game is over and every agent has left"):
            call()
    parallel = mpz.parallel_env("erd")
    observations, _ = parallel.reset(seed=0)
    with pytest.raises(IllegalAction, match=r"^step takes a dict of each agent's action id"):
        parallel.step([1, 2])
    legal = int(np.flatnonzero(observations["player_0"]["action_mask"])[0])
    with pytest.raises(MeepleError, match=r"^there is no agent 'player_7'; agents: player_0,"):
        parallel.step({"player_0": legal, "player_1": legal, "player_7": 3})
    assert parallel.game_state.to_act == (0, 1)
    rng = random.Random(0)
    while parallel.agents:
        actions = {
            agent: rng.choice(np.flatnonzero(seen["action_mask"]).tolist() or [0])
            for agent, seen in observations.items()
        }
        observations, *_ = parallel.step(actions)
    with pytest.raises(MeepleError, match=r"^the game is over: call reset\(\)"):
        parallel.step(actions)


def test_the_single_seat_env_s_illegal_loss_ends_the_episode():
    """An illegal id lost the game (reward -1, terminated) with no result in info and every
    legal id still in the mask; a step after it played on from the position before, and the
    real end paid -1 a second time. A step past any end is refused until reset."""
    gym = MeepleGymEnv("edges", board="2x3")
    gym.reset(seed=0)
    _, reward, terminated, _, info = gym.step(1000)
    assert (reward, terminated) == (-1.0, True)
    assert info["result"] == {"reason": "illegal action", "seat": 0, "action": 1000}
    assert not info["action_mask"].any() and not gym.action_masks().any()
    with pytest.raises(MeepleError, match=r"^the episode is over \(terminated\): call reset"):
        gym.step(0)
    _, info = gym.reset(seed=0)
    assert info["action_mask"].any()
    terminated = False
    while not terminated:
        _, _, terminated, _, info = gym.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert "result" in info
    with pytest.raises(MeepleError, match=r"^the episode is over"):
        gym.step(0)


def test_one_opponent_spec_as_text_is_every_opponent_s():
    """``opponents="greedy"`` was read letter by letter: "needs 1 opponent, got 6"."""
    assert MeepleGymEnv("edges", board="2x3", opponents="greedy").opponent_specs == ["greedy"]
    three = MeepleGymEnv("erosion", players=3, opponents="random")
    assert three.opponent_specs == ["random", "random"]


@pytest.mark.parametrize("game", GAMES)
def test_an_aec_env_that_says_it_is_parallelizable_is(game):
    """PettingZoo's own aec_to_parallel plays whole games of every game that declares it (The
    Triangle Clock did, and its conversion failed at a Mulligan: one seat chooses alone)."""
    if not mpz.env(game, observation="designed").metadata["is_parallelizable"]:
        assert game not in mpz.PARALLELIZABLE_GAMES
        return
    parallel_api_test(aec_to_parallel(mpz.env(game)), num_cycles=100)
    for seed in range(4):
        parallel = aec_to_parallel(mpz.env(game))
        observations, _ = parallel.reset(seed=seed)
        rng = random.Random(seed)
        while parallel.agents:
            actions = {
                agent: rng.choice(np.flatnonzero(seen["action_mask"]).tolist() or [0])
                for agent, seen in observations.items()
            }
            observations, *_ = parallel.step(actions)


def test_every_option_and_player_count_is_passable():
    env = mpz.env("erosion", players=4, advanced=True)
    env.reset(seed=3)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    env = mpz.env("edges", board="5x5", double=True)
    assert len(env.possible_agents) == 4


def test_the_games_are_in_pettingzoo_s_registry():
    env = pettingzoo.make("aec", "meeple/erd-v0", best_of=3)
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1"]
    assert env.unwrapped.game.options.best_of == 3
    parallel = pettingzoo.make("parallel", "meeple/triangle-clock-v0")
    observations, _ = parallel.reset(seed=1)
    assert set(observations) == {"player_0", "player_1"}


def test_a_whole_game_rewards_the_returns_and_masks_are_the_legal_moves():
    env = mpz.env("edges", board="2x3", stash="3/3/2")
    env.reset(seed=5)
    rng = random.Random(5)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        state = env.unwrapped.game_state
        mask = observation["action_mask"]
        assert set(np.flatnonzero(mask)) == set(state.legal_action_ids(int(agent[-1])))
        env.step(rng.choice(list(np.flatnonzero(mask))))
    final = env.unwrapped.game_state
    assert list(total.values()) == [float(r) for r in final.returns]


@pytest.mark.parametrize("game", ["erd", "erosion", "triangle-clock", "squad-combat"])
def test_an_observation_holds_only_the_seat_s_view(game):
    """States a seat cannot tell apart (determinizations) give it the same observation."""
    g = make(game)
    encoder = encoder_for(g)
    rng = random.Random(2)
    state = g.new_game(2)
    for _ in range(30):
        if state.is_over:
            break
        for seat in range(g.num_players):
            seen = encoder.encode(state.view(seat))
            twin = state.determinize(seat, rng)
            assert np.array_equal(seen, encoder.encode(twin.view(seat)))
        player = state.to_act[0]
        state = state.apply(player, rng.choice(state.legal_actions(player)))


def test_every_slot_has_a_name():
    encoder = encoder_for(make("erd"))
    names = encoder.describe()
    assert len(names) == encoder.size == len(set(names))
    assert "sides[0].reserve.H" in names


# -- OpenSpiel ------------------------------------------------------------------------------
def test_a_resampled_state_s_information_states_end_with_its_observations():
    """The resampled state kept the original's last state: seat 1's information state ended
    with its real view, its observation string was the sampled world's."""
    loaded = pyspiel.load_game("python_meeple_erosion(observation=designed)")
    state = loaded.new_initial_state()
    state.apply_action(5)
    rng = random.Random(0)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    sampled = state.resample_from_infostate(0, np.random.RandomState(1).rand)
    assert sampled.observation_string(1) != state.observation_string(1)  # the test bites
    assert sampled.information_state_string(0) == state.information_state_string(0)
    for seat in (0, 1):
        last = sampled.information_state_string(seat).split("\n")[-1]
        assert last == sampled.observation_string(seat)


def _random_move(state: pyspiel.State, rng: random.Random) -> None:
    """A random legal move (every acting seat's at a simultaneous node)."""
    if state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
        seats = range(state.num_players())
        state.apply_actions([rng.choice(state.legal_actions(seat) or [0]) for seat in seats])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def _recall_from_scratch(state: mos.MeepleSpielState, seat: int) -> str:
    """The information state by its definition, written afresh from every state passed
    through: the seat's views (each change once) with its own moves between them."""
    lines: list[str] = []
    for step, passed, *_ in state._trail.value:
        if step is not None and step[0] == seat:
            lines.append(f"> {step[1]}")
        text = json.dumps(passed.view(seat), sort_keys=True)
        if not lines or lines[-1] != text:
            lines.append(text)
    return "\n".join(lines)


def _play_asking(state: pyspiel.State, rng: random.Random) -> list[pyspiel.State]:
    """Plays ``state`` to its end at random, asking random seats' information states at
    random moments and every seat's at the end (of the state or of its pickle, which leaves
    out what was written), each checked against the one written from scratch. Returns a
    clone of the state after every move."""
    seats = range(state.num_players())
    passed = []
    while not state.is_terminal():
        _random_move(state, rng)
        passed.append(state.clone())
        if rng.random() < 0.05:
            seat = rng.choice(seats)
            assert state.information_state_string(seat) == _recall_from_scratch(state, seat)
    if rng.random() < 0.5:
        state = pickle.loads(pickle.dumps(state))
    for seat in seats:
        assert state.information_state_string(seat) == _recall_from_scratch(state, seat)
    return passed


@pytest.mark.parametrize("game", GAMES)
def test_information_states_are_those_written_from_scratch(game):
    """Random games, and games branching from them at a clone and at a resample (which share
    what the first wrote), asked their information states: each is the one written from the
    states passed through."""
    # The observation is the designed one, which needs no encoder learnt, and Squad Combat's
    # games are cut at turn 4: the strings written from scratch cost the square of a game.
    short = ",turn_limit=4" if game == "squad-combat" else ""
    loaded = pyspiel.load_game(f"{mos.short_name(game)}(observation=designed{short})")
    for seed in range(3):
        rng = random.Random(seed)
        state = loaded.new_initial_state()
        state.apply_action(seed)
        passed = _play_asking(state, rng)
        _play_asking(rng.choice(passed), rng)
        seat = rng.randrange(loaded.num_players())
        _play_asking(rng.choice(passed).resample_from_infostate(seat, rng.random), rng)


def test_a_walk_asking_every_information_state_writes_each_view_once(monkeypatch):
    """Asked every seat's information state after every move, of the state and of a clone,
    a game wrote each seat's view of each state once: information states were written
    afresh at each ask, every view so far again, so a walk cost the square of its length."""
    loaded = pyspiel.load_game("python_meeple_erosion")
    state = loaded.new_initial_state()
    state.apply_action(3)
    views = 0
    view = type(state.inner).view

    def counted_view(inner, seat):
        nonlocal views
        views += 1
        return view(inner, seat)

    monkeypatch.setattr(type(state.inner), "view", counted_view)
    rng = random.Random(3)
    for _ in range(40):
        for copy in (state, state.clone()):
            for seat in range(2):
                copy.information_state_string(seat)
        _random_move(state, rng)
    assert views == 2 * 40


def test_the_registered_game_types_hold_for_every_player_count():
    """Erosion, Squad Combat and Edges were registered with two players only, and zero-sum;
    then Double Edges, whose two teams' returns cancel, was loaded as general-sum."""
    registered = {t.short_name: t for t in pyspiel.registered_games()}
    general, zero = pyspiel.GameType.Utility.GENERAL_SUM, pyspiel.GameType.Utility.ZERO_SUM
    seats = {"edges": (2, 4), "erd": (2, 2), "erosion": (2, 5), "squad-combat": (2, 4)}
    seats["triangle-clock"] = (2, 2)
    for game, (fewest, most) in seats.items():
        kind = registered[mos.short_name(game)]
        assert (kind.min_num_players, kind.max_num_players) == (fewest, most)
        assert kind.utility == (general if game in ("erosion", "squad-combat") else zero)
    for game_string, players, utility in [
        ("python_meeple_erosion(players=5,observation=designed)", 5, general),
        ("python_meeple_squad_combat(players=4,observation=designed)", 4, general),
        ("python_meeple_edges(board=5x5,double=True,observation=designed)", 4, zero),
        ("python_meeple_erosion(observation=designed)", 2, zero),
    ]:
        loaded = pyspiel.load_game(game_string)
        kind = loaded.get_type()
        assert loaded.num_players() == players
        assert kind.min_num_players <= players <= kind.max_num_players
        assert kind.utility == utility
        assert loaded.utility_sum() == (0.0 if utility == zero else None)
    # OpenSpiel's own test of a zero-sum game checks that every end's returns sum to zero.
    double = pyspiel.load_game("python_meeple_edges(board=2x2,stash=1/1/1,double=True)")
    pyspiel.random_sim_test(double, num_sims=5, serialize=False, verbose=False)


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_random_sim_test_with_serialisation_and_pickling(game):
    # OpenSpiel rebuilds every state of the game from its history to check serialisation,
    # so the time grows with the square of the game's length: Squad Combat's random games run
    # to hundreds of moves (35 s), so its test plays games cut at turn 8.
    short = "(turn_limit=8)" if game == "squad-combat" else ""
    loaded = pyspiel.load_game(mos.short_name(game) + short)
    pyspiel.random_sim_test(loaded, num_sims=2, serialize=True, verbose=False)
    state = loaded.new_initial_state()
    state.apply_action(7)
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state)
    assert pickle.loads(pickle.dumps(loaded)).get_type().short_name == mos.short_name(game)


def test_openspiel_refuses_a_seed_outside_the_chance_outcomes():
    """The chance node's outcomes are 0 to seeds - 1: seeds=0 left it with none, and an
    outcome past them was played as a seed no algorithm could reach."""
    with pytest.raises(MeepleError, match="seeds must be a whole number from 1 up, not 0"):
        pyspiel.load_game("python_meeple_edges(seeds=0)")
    state = pyspiel.load_game("python_meeple_edges(board=2x3,seeds=10)").new_initial_state()
    with pytest.raises(MeepleError, match="chance outcome 10 is not a seed of this game"):
        state.apply_action(10)
    state.apply_action(9)
    assert not state.is_chance_node()


def test_openspiel_takes_one_action_a_seat_and_none_at_the_end():
    """apply_actions given four actions in a two-seat game kept them all in the history
    (which serialises the state) as seats 2 and 3; given one, IndexError; an action on a
    terminal state, IndexError."""
    state = pyspiel.load_game("python_meeple_erd").new_initial_state()
    state.apply_action(0)
    legal = [state.legal_actions(seat)[0] for seat in range(2)]
    for wrong in ([*legal, 7, 9], legal[:1]):
        with pytest.raises(IllegalAction, match=r"^apply_actions takes one action a seat \(2\)"):
            state.apply_actions(wrong)
    assert state.history() == [0]
    rng = random.Random(1)
    while not state.is_terminal():
        _random_move(state, rng)
    with pytest.raises(IllegalAction, match=r"^the game is over: a terminal state takes no"):
        state.apply_action(0)


def test_chance_outcomes_are_refused_past_the_chance_node():
    """As OpenSpiel's own games do (``CHECK_TRUE(IsChanceNode())``): every seed was listed
    at every node, so an algorithm testing for chance by its outcomes saw chance everywhere."""
    state = pyspiel.load_game("python_meeple_edges(board=2x3,seeds=10)").new_initial_state()
    assert len(state.chance_outcomes()) == 10
    state.apply_action(3)
    with pytest.raises(pyspiel.SpielError, match=r"^chance_outcomes\(\) is asked at a chance"):
        state.chance_outcomes()


def test_asking_for_an_information_state_tensor_is_refused():
    """The type says there is none; the perfect-recall observer handed out the observation
    tensor (the present view, no recall) under that name."""
    game = pyspiel.load_game("python_meeple_edges(board=2x3)")
    state = game.new_initial_state()
    state.apply_action(0)
    assert not game.get_type().provides_information_state_tensor
    with pytest.raises(pyspiel.SpielError, match="no information state tensor"):
        state.information_state_tensor(0)
    assert state.information_state_string(0)


def test_openspiel_game_types():
    erd = pyspiel.load_game("python_meeple_erd").get_type()
    assert erd.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert erd.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    edges = pyspiel.load_game("python_meeple_edges").get_type()
    assert edges.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert edges.information == pyspiel.GameType.Information.PERFECT_INFORMATION


def test_openspiel_s_game_length_is_the_rules_bound_on_decisions():
    """max_game_length follows the loaded options (AlphaZero sizes a histogram by it, and
    OpenSpiel's random simulations check every game's decisions, its chance nodes not
    counted, against it); a game whose rules give no bound keeps the adapter's cap."""
    lengths = {
        "python_meeple_edges": 31,
        "python_meeple_edges(board=2x2,pie=false)": 12,
        "python_meeple_erd": 1000,
        "python_meeple_erd(best_of=3,round_limit=100000,match_draws=replay)": 600_000,
        "python_meeple_triangle_clock(items=all/all)": 102,
        "python_meeple_erosion": 455,
        "python_meeple_erosion(players=5)": 2002,
        "python_meeple_squad_combat": mos.MAX_GAME_LENGTH,
    }
    for name, length in lengths.items():
        game = pyspiel.load_game(name)
        assert game.max_game_length() == length, name
        assert game.max_game_length() == mos.max_game_length(game.meeple)
    # OpenSpiel's own random games hold each game to its bound (Erosion's the rules prove).
    for name in ("python_meeple_edges(board=2x2)", "python_meeple_erosion(players=3)"):
        pyspiel.random_sim_test(
            pyspiel.load_game(name), num_sims=10, serialize=False, verbose=False
        )


def test_openspiel_parameters_are_the_game_s_options():
    game = pyspiel.load_game("python_meeple_erd(rules=original,best_of=3)")
    state = game.new_initial_state()
    state.apply_action(0)
    assert '"rules": "original"' in str(state)
    patched = pyspiel.load_game("python_meeple_erd(rules=v0.01)")
    patched_state = patched.new_initial_state()
    patched_state.apply_action(0)
    assert '"rules": "0.01"' in str(patched_state)


@pytest.mark.parametrize(
    "text",
    ["3-4-5", "-", "1.2.3", "0.02", "12", "TRUE", "True", "false", "3/4/5", "any", "a1", "e"],
)
def test_a_text_value_openspiel_reads_otherwise_is_marked_with_a_v(text: str) -> None:
    """A value is marked exactly where OpenSpiel's game strings would not read it as the
    text it is: a number (or a refusal: "3-4-5" is no number), a bool. A game's text
    option of "3-4-5" was written bare, and its game string could not be loaded back."""
    try:
        read = pyspiel.game_parameters_from_string(f"g(a={text})")["a"]
    except pyspiel.SpielError:
        read = None
    assert mos._looks_numeric(text) == (read != text or not isinstance(read, str)), read
    assert pyspiel.game_parameters_from_string(f"g(a=v{text})")["a"] == f"v{text}"


def test_openspiel_observations_are_the_seat_s_view():
    game = pyspiel.load_game("python_meeple_erosion")
    state = game.new_initial_state()
    state.apply_action(4)
    inner = state.inner
    observer = game.make_py_observer()
    observer.set_from(state, 1)
    assert np.array_equal(observer.tensor, encoder_for(inner.game).encode(inner.view(1)))
    assert '"cards": null' in observer.string_from(state, 1)  # others' deltas stay hidden
    assert state.observation_string(1) == observer.string_from(state, 1)
    assert state.information_state_string(0).count("\n") == 0


def test_openspiel_s_bots_play_our_games():
    from open_spiel.python.algorithms import ismcts, mcts

    edges = pyspiel.load_game("python_meeple_edges(board=2x3,stash=3/3/2)")
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(edges, 1.4, 40, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = edges.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(3)
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.returns()) == 0

    erosion = pyspiel.load_game("python_meeple_erosion")
    bot = ismcts.ISMCTSBot(erosion, mcts.RandomRolloutEvaluator(1, rng), 1.4, 10, random_state=rng)
    state = erosion.new_initial_state()
    state.apply_action(2)
    for _ in range(6):
        if state.is_terminal():
            break
        action = (
            bot.step(state) if state.current_player() == 0 else rng.choice(state.legal_actions())
        )
        state.apply_action(action)
    assert state.move_number() >= 2


@pytest.mark.parametrize("game", mpz.SIMULTANEOUS_GAMES)
def test_a_simultaneous_node_takes_flat_joint_actions_as_openspiel_s_own_games(game):
    """``legal_actions()`` with no seat at a simultaneous node gave [] (OpenSpiel's C++
    games give the flat joint actions), and ``apply_action`` there played the number as the
    first seat's action alone, leaving the others to act: a generic algorithm walking a game
    by ``legal_actions()`` and ``apply_action`` could not play it, or played it wrong; and
    ``action_to_string`` read a flat joint action as one seat's action id."""
    state = pyspiel.load_game(mos.short_name(game)).new_initial_state()
    state.apply_action(3)
    seat_names = [make(game).seat_name(p) for p in range(2)]
    rng = random.Random(5)
    joint_nodes = 0
    while not state.is_terminal():
        if state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
            seats = [state.legal_actions(p) for p in range(state.num_players())]
            count = math.prod(len(moves) for moves in seats if moves)
            assert state.legal_actions() == list(range(count))
            flat = rng.randrange(count)
            # OpenSpiel's decoding (ApplyFlatJointAction): the first seat is the lowest digit.
            each, rest = [], flat
            for moves in seats:
                rest, digit = divmod(rest, len(moves)) if moves else (rest, -1)
                each.append(moves[digit] if moves else -1)
            # Said as every seat's move, not as one seat's id.
            said = state.action_to_string(pyspiel.PlayerId.SIMULTANEOUS, flat)
            assert said == ", ".join(
                f"{name}: {state.action_to_string(p, a)}"
                for p, (name, a) in enumerate(zip(seat_names, each, strict=True))
            )
            twin = state.clone()
            twin.apply_actions(each)
            with pytest.raises(IllegalAction, match=f"from 0 to {count - 1}"):
                state.clone().apply_action(count)
            state.apply_action(flat)
            assert str(state) == str(twin)
            joint_nodes += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert joint_nodes >= 3


def test_erd_runs_as_a_turn_based_conversion():
    game = pyspiel.convert_to_turn_based(pyspiel.load_game("python_meeple_erd(best_of=1)"))
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


# -- Gymnasium ------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_the_single_seat_env_passes_gymnasium_s_check(game):
    """Rendering included, made from a spec as ``gymnasium.make`` makes it so that every
    render mode is checked, without a warning (one was: no ``render_fps``)."""
    spec = EnvSpec(f"meeple/{game}-v0", entry_point=MeepleGymEnv, kwargs={"game": game})
    env = MeepleGymEnv(game, seat=0, opponents=["random"], render_mode="ansi")
    env.spec = spec
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        check_env(env)


def test_the_games_are_in_gymnasium_s_registry():
    """``gymnasium.make`` and ``make_vec`` make every game by its id, with its options, and
    the checker ``make`` adds finds nothing to warn of."""
    import gymnasium

    for game in GAMES:
        assert gymnasium.spec(f"meeple/{game}-v0").kwargs == {"game": game}
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        env = gymnasium.make("meeple/edges-v0", board="2x3", opponents=["greedy"])
        _, info = env.reset(seed=1)
        env.step(int(info["action_mask"].argmax()))
    assert env.unwrapped.game.options.board == "2x3"
    vector = gymnasium.make_vec("meeple/edges-v0", num_envs=2, board="2x3")
    observations, info = vector.reset(seed=0)
    assert observations.shape == (2, 273) and info["action_mask"].shape == (2, 54)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_keeps_each_env_s_result_whole_won_or_drawn(mode: str) -> None:
    """Edges on 2x3 ends in a win or a draw: two envs ending in one step, one won (winner
    0) and one drawn (None), made ``make_vec``'s array of winners raise TypeError."""
    import gymnasium

    vector = gymnasium.make_vec("meeple/edges-v0", num_envs=8, board="2x3", vectorization_mode=mode)
    _, info = vector.reset(seed=0)
    rng = np.random.default_rng(0)
    winners = set()
    for _ in range(60):
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        _, rewards, terminated, _, info = vector.step(actions)
        for env in np.flatnonzero(info.get("_result", [])):
            result = info["result"][env]
            assert terminated[env] and set(result) >= {"winner", "reason"}
            winners.add(result["winner"])
            assert (rewards[env] == 0.0) == (result["winner"] is None)
    vector.close()
    assert None in winners and winners & {0, 1}  # draws and wins both came


def test_the_single_seat_env_refuses_an_unknown_illegal_action_rule():
    """A misspelt ``illegal_action`` was taken as "lose" without a word."""
    with pytest.raises(MeepleError, match="illegal_action must be one of 'lose', 'raise'"):
        MeepleGymEnv("edges", board="2x3", illegal_action="ignore")


def test_a_human_opponent_is_refused_in_words_that_fit():
    """'human' was refused as "no agent called 'human' (did you mean 'human'?)", then listed
    among the agents to choose."""
    with pytest.raises(MeepleError) as refused:
        MeepleGymEnv("edges", board="2x3", opponents=["human"])
    message = str(refused.value)
    assert message.startswith("'human' is a person at a prompt, not an agent")
    assert "human" not in message.split("or an agent:")[1]


def test_the_single_seat_env_plays_against_its_agents():
    env = MeepleGymEnv("edges", seat=1, opponents=["greedy"], board="2x3", stash="3/3/2")
    observation, info = env.reset(seed=4)
    assert observation.shape == env.observation_space.shape
    done = False
    reward = 0.0
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        _, reward, done, _, info = env.step(int(legal[0]))
    assert reward in (-1.0, 0.0, 1.0)
    assert env.game_state.is_over


def test_a_wrong_number_of_opponents_is_refused_counting_them():
    """Edges has one opponent: "needs 1 opponent", never "1 opponents"."""
    with pytest.raises(MeepleError, match=r"Edges needs 1 opponent, got 2$"):
        MeepleGymEnv("edges", seat=0, opponents=["greedy", "greedy"])


@pytest.mark.parametrize("game", ["edges", "erosion", "squad-combat"])
def test_a_parallel_env_of_a_game_with_turns_is_refused_as_no_illegal_action(game: str) -> None:
    """Asking for the wrong kind of environment is no illegal move: a learner's loop that
    catches IllegalAction must not take it for one."""
    with pytest.raises(
        MeepleError, match=r"has turns, not simultaneous decisions; use env\(\)"
    ) as refused:
        mpz.parallel_env(game)
    assert not isinstance(refused.value, IllegalAction)


def test_pettingzoo_s_state_method_is_not_hidden_by_the_game_s_state() -> None:
    """The game's state was the attribute ``state``, so PettingZoo's ``state()`` raised
    "'EdgesState' object is not callable"; it is ``game_state``, and ``state()`` says it is
    not offered, as PettingZoo's envs without a global state do."""
    for env in (mpz.env("edges", board="2x3"), mpz.parallel_env("erd")):
        env.reset(seed=1)
        assert env.game_state is not None and not env.game_state.is_over
        with pytest.raises(NotImplementedError):
            env.state()
