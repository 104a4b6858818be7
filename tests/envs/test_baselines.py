"""The learned baseline's environment (one seat against a batched opponent, SB3's VecEnv
meaning, no torch) checked game by game against the readable rules; and the baseline
table's agents and scoring (benchmarks/baselines.py) on a few games."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import meeple
from meeple.core.errors import MeepleError
from meeple.envs.opponent import OpponentVecEnv
from meeple.games.edges.compiled.batch import observation_of_view
from meeple.store import ResultStore

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
    # The readable game beside each slot, at the learner's turn.
    readable = [game.new_game(seed + k) for k in range(batch)]
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
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
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
                seats.add(seat)
                ended += 1
                state = game.new_game(int(env.env._seeds[k]))
                if state.to_act != (int(env.learner[k]),):
                    # A game the learner's move ended: the opponent has opened the next.
                    opener = state.to_act[0]
                    openings = [state.apply(opener, a) for a in state.legal_actions(opener)]
                    state = _find(game, openings, env, k, None)
            else:
                assert rewards[k] == 0
                assert "terminal_observation" not in infos[k]
            readable[k] = state
    assert seats == {0, 1}, "the learner plays both seats"
    assert env.episodes == ended


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


def test_refusals_name_what_is_allowed():
    with pytest.raises(MeepleError, match="choose from random"):
        OpponentVecEnv("edges", num_envs=2, opponent="greedy")
    with pytest.raises(MeepleError, match="two-seat game of turns"):
        OpponentVecEnv("edges", num_envs=2, double=True)
    with pytest.raises(MeepleError, match="two-seat game of turns"):
        OpponentVecEnv("triangle-clock", num_envs=2)
    with pytest.raises(MeepleError, match="reset"):
        OpponentVecEnv("edges", num_envs=2).step(np.zeros(2, dtype=int))


def test_the_environment_needs_no_torch():
    code = (
        "import sys, meeple.envs.opponent; "
        "assert 'torch' not in sys.modules and 'stable_baselines3' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_baselines_merge_equal_specs_and_name_every_role():
    bench = _bench()
    erd = [b.label for b in bench.baselines(meeple.make("erd", best_of=1))]
    assert erd == [
        "easy = random",
        "medium = heuristic",
        "hard = exploit:allowance=0.1,knows=heuristic,solve=true",
    ]
    edges = bench.baselines(meeple.make("edges"))
    assert [b.label for b in edges][:2] == ["random", "easy = greedy"]
    assert len(edges) == 4
    designer = bench.baselines(meeple.make("erosion"), designer=True)
    assert designer[-1].roles == ("hard (designer)",)
    assert bench.is_slow("edges", edges[-1]) and not bench.is_slow("erd", edges[-1])


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
