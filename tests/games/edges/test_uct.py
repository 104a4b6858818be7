"""The compiled UCT agent (``uct``): legal, reproducible, and stronger than the scripts."""

from __future__ import annotations

import pytest

import meeple
from meeple.agents.play import play_game
from meeple.agents.spec import make_agent
from meeple.core.agent import Observation
from meeple.core.errors import AgentSpecError


def test_same_seed_and_budget_give_the_same_choices() -> None:
    game = meeple.make("edges")
    first = play_game(game, [make_agent("uct:iterations=300", game, seed=4)] * 2, 1)
    again = play_game(game, [make_agent("uct:iterations=300", game, seed=4)] * 2, 1)
    assert first.record().moves == again.record().moves


@pytest.mark.parametrize("options", [{"board": "2x3", "stash": "3/3/2"}, {"double": True}])
def test_plays_whole_games_with_legal_moves(options: dict) -> None:
    game = meeple.make("edges", **options)
    agents = [make_agent("uct:iterations=200", game, seed=k) for k in range(game.num_players)]
    play = play_game(game, agents, 3)  # Playthrough.play refuses an illegal move
    assert play.state.is_over


def test_beats_greedy_on_a_small_board() -> None:
    game = meeple.make("edges", board="2x3", stash="3/3/2")
    score = 0.0
    for seed in range(8):
        seat = seed % 2
        agents = [make_agent("greedy", game, seed=seed)] * 2
        agents[seat] = make_agent("uct:iterations=3000", game, seed=seed)
        r = play_game(game, agents, seed).state.returns
        score += 1.0 if r[seat] > r[1 - seat] else 0.5 if r[seat] == r[1 - seat] else 0.0
    assert score >= 6


@pytest.mark.parametrize(
    "spec", ["uct:iterations=0", "uct:seconds=0", "uct:nodes=-1", "uct:c=-1", "uct:c=inf"]
)
def test_bad_budgets_are_refused(spec: str) -> None:
    with pytest.raises(AgentSpecError):
        make_agent(spec, meeple.make("edges"))


def test_refuses_other_games() -> None:
    from meeple.games.edges.uct import UCTAgent

    with pytest.raises(AgentSpecError, match="Edges only"):
        UCTAgent(meeple.make("erd"))


def test_sees_only_the_observation() -> None:
    game = meeple.make("edges")
    state = game.new_game(0)
    move = make_agent("uct:iterations=500", game).act(Observation(state, state.to_act[0]))
    assert move in state.legal_actions(state.to_act[0])
