"""The perfect Edges agent: registered, never losing a solvable endgame, within its time
budget."""

from __future__ import annotations

import random

import pytest

import meeple
from meeple.agents import make_agent
from meeple.agents.spec import available_agents
from meeple.core.agent import Observation
from meeple.solvers.edges_solver import EdgesSolver, random_position
from tests.solvers.edges_cases import game


def test_perfect_agent_is_registered_for_edges():
    assert "perfect" in available_agents(game("2x2", "2/2/1"))
    assert "perfect" not in available_agents(meeple.make("erd"))


@pytest.mark.parametrize("seed", range(8))
def test_perfect_agent_never_loses_a_solvable_endgame(seed):
    rng = random.Random(seed)
    g = game(["2x3", "3x4"][seed % 2], ["3/3/2", "5/5/5"][seed % 2])
    state = random_position(g, 8, rng)
    seat = state.to_act[0]
    sign = 1 if seat == 0 else -1
    value = EdgesSolver(g.board, tt_bits=16).value(state)
    perfect = make_agent("perfect", g, seed=seed)
    opponent = make_agent("random", g, seed=seed)
    while not state.is_over:
        mover = state.to_act[0]
        agent = perfect if mover == seat else opponent
        state = state.apply(mover, agent.act(Observation(state, mover)))
    a, b = state.scores()
    assert sign * (a - b) >= sign * value


def test_perfect_agent_plays_a_whole_game_with_the_pie_rule():
    g = meeple.make("edges", board="2x2", stash="2/2/1", pie=True, first=0)
    state = g.new_game(0)
    agents = [make_agent("perfect:exact=6,depth=1", g), make_agent("perfect", g, seed=1)]
    while not state.is_over:
        mover = state.to_act[0]
        state = state.apply(mover, agents[mover].act(Observation(state, mover)))
    a, b = state.scores()
    assert a - b <= 0  # perfect second player holds the 0 value of 2x2 (2/2/1)


def test_perfect_agent_solves_within_its_time_budget_or_searches_instead():
    g = game("3x4", "5/5/5")
    state = random_position(g, 22, random.Random(3))
    mover = state.to_act[0]
    hurried = make_agent("perfect:exact=4,seconds=0.001", g)
    action = hurried.act(Observation(state, mover))
    assert action in state.legal_actions(mover) and hurried.solved_exactly == 0
    small = random_position(game("2x3", "3/3/2"), 10, random.Random(3))
    patient = make_agent("perfect:exact=4,seconds=60", small.game)
    mover = small.to_act[0]
    action = patient.act(Observation(small, mover))
    assert patient.solved_exactly == 1
    solver = EdgesSolver(small.game.board, tt_bits=16)
    assert solver.value(small._next(mover, action)) == solver.value(small)
