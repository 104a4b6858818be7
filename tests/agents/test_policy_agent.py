"""The policy agent (:mod:`meeple.agents.policy`): a game's compiled policy as an opponent."""

from __future__ import annotations

import pytest

import meeple
from meeple.agents import available_agents, make_agent, play_game
from meeple.core.errors import AgentSpecError


def test_it_is_offered_only_for_games_with_a_policy_that_chooses_one_action() -> None:
    offered = {g.name for g in meeple.games() if "policy" in available_agents(meeple.make(g.name))}
    assert offered == {"squad-combat", "triangle-clock"}


def test_an_unknown_policy_is_a_clear_error() -> None:
    game = meeple.make("triangle-clock")
    offered = r"no compiled policy 'random'.*offered: ahead, deep, guided$"
    with pytest.raises(AgentSpecError, match=offered):
        make_agent("policy:policy=random", game)


def test_it_plays_whole_games_reproducibly_and_differently_by_seed() -> None:
    game = meeple.make("triangle-clock")

    def moves(seed: int) -> list[str]:
        agents = [make_agent("policy", game, seed=seed), make_agent("random", game, seed=1)]
        return [move for _, move in play_game(game, agents, 4).record().moves]

    first = moves(0)
    assert first == moves(0) and first != moves(1)
