"""The learned baseline's environment (one seat against a batched opponent, SB3's VecEnv
meaning, no torch) checked game by game against the readable rules, on every batched game;
the policy's evaluation on the readable rules (lab.policy); and the baseline table's agents
and scoring (benchmarks/baselines.py) on a few games."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import meeple
from meeple.core.agent import Observation
from meeple.core.batch import random_legal_ids
from meeple.core.errors import MeepleError
from meeple.envs.opponent import OpponentVecEnv
from meeple.envs.vector import MeepleVectorEnv
from meeple.games.edges.compiled.batch import observation_of_view
from meeple.games.triangle_clock.compiled.rules import SIZE, encode
from meeple.lab.policy import PolicyAgent, evaluate_policy, observer, outcome, random_policy
from meeple.store import ResultStore
from tests.compiled_versions import compiled_versions

GAMES = [
    ("edges", {"board": "3x4"}),
    ("erd", {"best_of": 1}),
    ("triangle-clock", {}),
    ("squad-combat", {"players": 2}),
    ("erosion", {"players": 2}),
    ("erosion", {"players": 3}),
]
"""Each batched game, as the learned baselines train on it (and Erosion at three seats)."""

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("baselines", ROOT / "benchmarks/baselines.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("baselines", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("options", [{"board": "2x2"}, {"board": "3x4"}])
def test_the_learner_moves_in_turn_and_is_paid_its_own_return(options):
    batch, seed = 6, 11
    env = OpponentVecEnv("edges", num_envs=batch, seed=seed, **options)
    game = meeple.make("edges", **options)
    obs = env.reset()
    # The readable game beside each slot, at the learner's turn: seat k % 2, the opponent
    # opening where that seat does not.
    readable = [_at_learners_turn(game, game.new_game(seed + k), env, k) for k in range(batch)]
    assert env.learner.tolist() == [k % 2 for k in range(batch)]
    rng = np.random.default_rng(0)
    seats, ended = set(), 0
    while ended < 60:
        masks = env.action_masks()
        for k, state in enumerate(readable):
            # Every step, every game waits for the learner, who sees its own view.
            assert state.to_act == (int(env.learner[k]),)
            assert np.flatnonzero(masks[k]).tolist() == sorted(
                state.legal_action_ids(state.to_act[0])
            )
            np.testing.assert_allclose(
                obs[k], observation_of_view(game, state.view(env.learner[k]))
            )
        actions = random_legal_ids(masks, rng)
        before = env.env._seeds.copy()
        learner = env.learner.copy()
        obs, rewards, dones, infos = env.step(actions)
        for k in range(batch):
            seat = int(learner[k])
            state = readable[k].apply(seat, game.action_from_id(int(actions[k])))
            if not state.is_over:
                # The opponent's reply: the legal move that leads where the batch's game is
                # (or, when it ended the game, to the last observation reported).
                replies = [state.apply(1 - seat, a) for a in state.legal_actions(1 - seat)]
                state = _find(game, replies, env, k, infos[k].get("terminal_observation"))
            if dones[k]:
                assert state.is_over
                assert rewards[k] == state.returns[seat]
                assert infos[k]["learner_seat"] == seat
                assert env.env._seeds[k] == before[k] + batch
                assert env.learner[k] == 1 - seat  # the next game, the other seat
                seats.add(seat)
                ended += 1
                state = _at_learners_turn(game, game.new_game(int(env.env._seeds[k])), env, k)
            else:
                assert rewards[k] == 0
                assert "terminal_observation" not in infos[k]
            readable[k] = state
    assert seats == {0, 1}, "the learner plays both seats"
    assert env.episodes == ended


def _at_learners_turn(game, state, env, k):
    """A new game of slot k after the opponent's opening move where the learner does not
    open it."""
    if state.to_act == (int(env.learner[k]),):
        return state
    opener = state.to_act[0]
    return _find(game, [state.apply(opener, a) for a in state.legal_actions(opener)], env, k, None)


def _find(game, states, env, k, terminal):
    """The one state among ``states`` that is the batch's game k now, or, given the
    observation a game ended on, the finished one it was."""
    from meeple.games.edges.compiled.rules import encode

    if terminal is not None:
        found = [
            s
            for s in states
            if s.is_over and np.allclose(observation_of_view(game, s.view(0)), terminal)
        ]
    else:
        found = [s for s in states if np.array_equal(encode(s), env.env._states[k])]
    assert len(found) >= 1
    assert len({tuple(s.returns) for s in found}) == 1 if terminal is not None else len(found) == 1
    return found[0]


@pytest.mark.parametrize(
    ("name", "options"), GAMES, ids=[f"{n}-{o.get('players', '')}" for n, o in GAMES]
)
def test_every_step_waits_at_the_learners_turn_in_every_game(name, options):
    """Whatever the order of turns (a seat moving several times running, a simultaneous
    decision, three seats), every step leaves every game at the learner's seat's decision,
    with that seat's observation (the readable rules' designed one) and legal ids; the
    learner plays every seat and is paid a return the rules can give."""
    batch = 4
    env = OpponentVecEnv(name, num_envs=batch, seed=3, **options)
    game = meeple.make(name, **options)
    observe = observer(game)
    seats = game.num_players
    obs = env.reset()
    assert env.learner.tolist() == [k % seats for k in range(batch)]
    rng = np.random.default_rng(1)
    played, paid = set(), set()
    for _ in range(40):
        masks = env.action_masks()
        for k, state in enumerate(env.env.states()):
            seat = int(env.learner[k])
            assert seat in state.to_act
            assert np.flatnonzero(masks[k]).tolist() == sorted(state.legal_action_ids(seat))
            np.testing.assert_allclose(obs[k], observe(state.view(seat), seat), atol=1e-6)
        learner = env.learner.copy()
        actions = random_legal_ids(masks, rng)
        obs, rewards, dones, infos = env.step(actions)
        assert obs.shape == (batch, *env.observation_space.shape)
        for k in np.flatnonzero(dones):
            assert infos[k]["learner_seat"] == learner[k]
            assert env.learner[k] == (learner[k] + 1) % seats
            played.add(int(learner[k]))
            paid.add(float(rewards[k]))
        assert not rewards[~dones].any()
    if name in ("edges", "erd", "erosion"):  # games short enough to end within 40 steps
        assert env.episodes > 0 and played and paid <= {-1.0, 0.0, 1.0}


def test_refusals_name_what_is_allowed():
    with pytest.raises(
        MeepleError, match=r"Edges has no batched opponent 'policy'; it offers random$"
    ):
        OpponentVecEnv("edges", num_envs=2, opponent="policy")
    with pytest.raises(MeepleError, match=r"it offers random, policy$"):
        OpponentVecEnv("triangle-clock", num_envs=2, opponent="greedy")
    with pytest.raises(MeepleError, match="reset"):
        OpponentVecEnv("edges", num_envs=2).step(np.zeros(2, dtype=int))
    env = OpponentVecEnv("edges", num_envs=2)
    env.reset()
    with pytest.raises(MeepleError, match=r"step takes 2 integer action ids, got shape \(3,\)"):
        env.step(np.zeros(3, dtype=int))


def test_a_learner_s_action_that_is_no_id_is_refused_before_any_game_moves():
    """The learner's actions were cast to integers: 0.7 played id 0, NaN became an id of
    -2**63, True id 1, "1" id 1, and 2 x 2 ids were read as 4 games' actions."""
    env = OpponentVecEnv("edges", num_envs=4, board="2x3")
    env.reset()
    before = env.env.rows.copy()
    legal = env.action_masks().argmax(axis=1)
    for wrong in (legal + 0.7, np.full(4, np.nan), legal > 0, legal.astype(str)):
        with pytest.raises(MeepleError, match=r"^step takes 4 integer action ids, got shape"):
            env.step(wrong)
    with pytest.raises(MeepleError, match=r"got shape \(2, 2\) of int64$"):
        env.step(legal.reshape(2, 2))
    assert np.array_equal(env.env.rows, before)


def test_the_learner_s_seed_is_any_64_bit_seed_and_nothing_else():
    """A negative seed starts the games as the batched env does (NumPy's generator refused
    it: "expected non-negative integer"), and replays; a seed that is not a whole number, or
    whose games would pass 64 bits, is refused in one line when the env is made."""
    runs = []
    for _ in range(2):
        env = OpponentVecEnv("edges", num_envs=4, seed=-7, board="2x3")
        obs = env.reset()
        assert env.env._seeds.tolist() == [-7, -6, -5, -4]
        obs, *_ = env.step(random_legal_ids(env.action_masks(), np.random.default_rng(0)))
        runs.append(obs)
    assert np.array_equal(*runs)
    for wrong, refusal in ((1.5, "seed must be a whole number, not 1.5"), (2**63 - 2, "64-bit")):
        with pytest.raises(MeepleError, match=refusal):
            OpponentVecEnv("edges", num_envs=4, seed=wrong)


def _opponent_acts(env):
    """The opponent's seat in each game of a Triangle Clock OpponentVecEnv, and where it is
    to act."""
    seats = 1 - env.learner
    return seats, env._info["acting"][np.arange(env.num_envs), seats]


def test_the_triangle_clocks_policy_compiles_once_for_meeple_compile_and_the_environment():
    """`meeple compile` plays the batched opponent on a column of the acting seats
    (``agents.warm``), the research environment on a row it gathered: one compiled version
    for both, or the environment's first step compiles the policy again after `meeple
    compile` (as it did: the column's layout is another type to numba)."""
    from meeple.agents.warm import _step_batched
    from meeple.games.triangle_clock.compiled.opponent import _policy_actions

    _step_batched(meeple.make("triangle-clock"))
    env = OpponentVecEnv("triangle-clock", num_envs=4, opponent="policy", seed=2)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(12):
        env.step(random_legal_ids(env.action_masks(), rng))
    assert len(compiled_versions(_policy_actions)) == 1


def test_the_triangle_clocks_policy_opponent_plays_legal_actions_for_its_seat():
    env = OpponentVecEnv("triangle-clock", num_envs=16, opponent="policy", seed=2)
    env.reset()
    rules, rng, checked = env.env.rules, np.random.default_rng(0), 0
    for _ in range(150):
        seats, acting = _opponent_acts(env)
        chosen = rules.opponent_actions("policy", env.env.rows, seats, acting, np.arange(16))
        masks = env._info["action_mask"][np.arange(16), seats]
        assert masks[acting, chosen[acting]].all()
        checked += int(acting.sum())
        # and the env's own moves, checked by the batched env as it steps them
        env.step(random_legal_ids(env.action_masks(), rng))
    assert checked > 1000 and env.episodes > 0


def test_the_policy_opponent_chooses_from_its_own_seats_view_only():
    """The true state and the readable rules' determinization for the opponent's seat give
    the same action with the same seed: nothing it cannot see changes its choice."""
    env = MeepleVectorEnv("triangle-clock", num_envs=8)
    env.reset(seed=40)
    rules, rng, draw = env.rules, np.random.default_rng(3), random.Random(5)
    compared = 0
    for step in range(240):
        if step % 6 == 5:
            rows = env.rows.copy()
            states = env.states()
            for seat in range(2):
                acting = env._acting[:, seat].copy()
                seeds = np.arange(len(rows)) + 100 * step
                seats = np.full(len(rows), seat)
                truth = rules.opponent_actions("policy", rows, seats, acting, seeds)
                redealt = rows.copy()
                for k, state in enumerate(states):
                    redealt[k, :SIZE] = encode(state.determinize(seat, draw))
                assert (redealt != rows).any()
                again = rules.opponent_actions("policy", redealt, seats, acting, seeds)
                assert truth[acting].tolist() == again[acting].tolist()
                compared += int(acting.sum())
        actions = np.stack([random_legal_ids(env._masks[:, p], rng) for p in range(2)], 1)
        env.step(actions)
    assert compared > 300


def test_a_run_against_the_policy_replays_from_its_seed():
    def run(seed):
        env = OpponentVecEnv("triangle-clock", num_envs=8, opponent="policy", seed=seed)
        out, rng = [env.reset()], np.random.default_rng(0)
        for _ in range(60):
            obs, rewards, dones, _ = env.step(random_legal_ids(env.action_masks(), rng))
            out += [obs, rewards, dones]
        return out

    first, again, other = run(4), run(4), run(5)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


def _first_returns(opponent, games=192):
    """A uniformly random learner's return in the first game of each slot."""
    env = OpponentVecEnv("triangle-clock", num_envs=games, opponent=opponent, seed=7)
    env.reset()
    rng, returns = np.random.default_rng(0), np.full(games, np.nan)
    while np.isnan(returns).any():
        _, rewards, dones, _ = env.step(random_legal_ids(env.action_masks(), rng))
        first = dones & np.isnan(returns)
        returns[first] = rewards[first]
    return returns


def test_a_random_learner_does_worse_against_the_policy_than_against_random():
    # measured (these 192 games, seed 7): +0.04 against random (100 won, 92 lost), -1.00
    # against the policy (all lost); docs/batched.md quotes them
    against_random, against_policy = _first_returns("random"), _first_returns("policy")
    assert against_random.mean() > -0.3
    assert against_policy.mean() < -0.8


@pytest.mark.parametrize(
    ("name", "options"), GAMES[:5], ids=[f"{n}-{o.get('players', '')}" for n, o in GAMES[:5]]
)
def test_a_policy_is_evaluated_on_the_readable_rules_in_every_seat(name, options):
    """Any callable over (observation, legal ids) plays every seat in turn against an agent
    spec; the record adds up, its interval holds its score, and the same seeds replay."""
    game = meeple.make(name, **options)
    shape = OpponentVecEnv(name, 1, **options).observation_space.shape
    seen = []

    def policy(observation, legal):
        assert observation.shape == shape
        assert legal.shape == (game.num_actions,) and legal.any()
        seen.append(observation)
        return int(np.flatnonzero(legal)[0])

    result = evaluate_policy(game, policy, "random", 4, seed=7)
    assert result["wins"] + result["draws"] + result["losses"] == 4
    assert result["low"] <= result["score"] <= result["high"]
    assert seen and all(((x >= 0) & (x <= 1)).all() for x in seen)
    again = evaluate_policy(game, policy, "random", 4, seed=7)
    assert again == result
    hand = game.heuristic_agent
    assert evaluate_policy(game, random_policy(0), hand, 2, seed=1)["opponent"] == hand


def test_a_policy_that_plays_an_illegal_id_is_refused_in_one_line():
    game = meeple.make("edges", board="2x2")
    agent = PolicyAgent(lambda x, legal: int(np.flatnonzero(~legal)[0]), game)
    state = game.new_game(0)
    with pytest.raises(MeepleError, match="not legal here"):
        agent.act(Observation(state, state.to_act[0]))
    with pytest.raises(MeepleError, match="at least 1"):
        evaluate_policy(game, random_policy(), "random", 0, seed=0)


def test_a_seat_scores_one_alone_on_top_a_half_sharing_it():
    assert outcome((1, -1), 0) == 1.0 and outcome((1, -1), 1) == 0.0
    assert outcome((0, 0), 1) == 0.5
    assert outcome((3, 5, 5), 1) == 0.5 and outcome((3, 5, 5), 0) == 0.0


def test_the_environment_needs_no_torch():
    code = (
        "import sys, meeple.envs.opponent; "
        "assert 'torch' not in sys.modules and 'stable_baselines3' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_train_ppo_refuses_an_opponent_the_game_lacks_before_it_trains():
    """benchmarks/train_ppo.py checks ``--opponent`` through the env's own refusal before it
    looks for the rl extra, so this runs with torch or without."""
    run = subprocess.run(
        [sys.executable, "benchmarks/train_ppo.py", "--game", "edges", "--opponent", "policy"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 1
    assert run.stderr == "error: Edges has no batched opponent 'policy'; it offers random\n"


def test_train_ppo_names_its_files_and_title_after_an_opponent_other_than_random():
    """Imported without torch: a run against ``policy`` does not overwrite the random one's."""
    code = (
        "import importlib.util, meeple; "
        "spec = importlib.util.spec_from_file_location('t', 'benchmarks/train_ppo.py'); "
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); "
        "g = meeple.make('triangle-clock'); "
        "print(m.stem('triangle-clock'), m.stem('triangle-clock', 'policy'), sep='|'); "
        "print(m.title(g, {}), m.title(g, {}, 'policy'), sep='|')"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert run.stdout.splitlines() == [
        "ppo-triangle-clock|ppo-triangle-clock-vs-policy",
        "MaskablePPO on The Triangle Clock, trained against random"
        "|MaskablePPO on The Triangle Clock, trained against policy",
    ]


def test_baselines_merge_equal_specs_and_name_every_role():
    bench = _bench()
    erd = [b.label for b in bench.baselines(meeple.make("erd", best_of=1))]
    assert erd == [
        "random",
        "easy = careless",
        "medium = heuristic",
        "hard = exploit:allowance=0.1,knows=heuristic,solve=true",
    ]
    edges = bench.baselines(meeple.make("edges"))
    assert [b.label for b in edges][:2] == ["random", "easy = greedy"]
    assert len(edges) == 4
    designer = bench.baselines(meeple.make("erosion"), designer=True)
    assert designer[-1].roles == ("hard (designer)",)
    assert bench.is_slow("edges", edges[-1]) and not bench.is_slow("erd", edges[-1])


def test_with_a_role_only_the_pairs_of_that_agent_are_played():
    """``--with easy``: the rows a changed easy level needs, each with the stronger first."""
    bench = _bench()
    agents = bench.baselines(meeple.make("erd", best_of=1))
    labels = [(a.label, b.label) for a, b in bench.pairs(agents, ["easy"])]
    assert labels == [
        ("easy = careless", "random"),
        ("medium = heuristic", "easy = careless"),
        ("hard = exploit:allowance=0.1,knows=heuristic,solve=true", "easy = careless"),
    ]
    assert len(bench.pairs(agents, [])) == 6


def test_a_pair_is_scored_from_the_first_agents_side_and_resumes(tmp_path):
    bench = _bench()
    game = meeple.make("edges", board="2x2")
    store = ResultStore(f"sqlite:///{tmp_path / 'b.db'}")
    random_agent, greedy = bench.baselines(game)[:2]
    score = bench.play_pair(game, greedy, random_agent, 3, store)
    assert score.games == 4  # rounded up to whole seatings: two seats, two seatings
    assert score.wins + score.draws + score.losses == 4
    low, high = score.interval()
    assert low <= score.score <= high
    other = bench.play_pair(game, random_agent, greedy, 4, store)
    # The other order is another run: its games are scored from random's side.
    assert other.games == 4 and other.game == "edges"
    again = bench.play_pair(game, greedy, random_agent, 4, store)
    assert (again.wins, again.draws, again.losses) == (score.wins, score.draws, score.losses)
    rows = bench.markdown_rows([score])
    assert rows[2].startswith("| edges | `easy = greedy` | `random` | 4 | ")


def test_a_database_path_that_is_not_a_url_is_refused_in_one_line():
    """``--db results.db`` (a path, not ``sqlite:///...``) ended in a StoreError traceback."""
    run = subprocess.run(
        [sys.executable, "benchmarks/baselines.py", "--only", "edges", "--db", "x.db"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1
    assert run.stderr.startswith("--db: 'x.db' is not a database URL; write sqlite:///")
    assert len(run.stderr.splitlines()) == 1
