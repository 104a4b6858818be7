"""Opponents by level (issue 28.7): every level of every game is an agent that can be built."""

from __future__ import annotations

import pytest

import meeple
from meeple.agents import available_agents
from meeple.agents.levels import DEFAULT_LEVEL, LEVEL_NAMES, LEVELS, level_spec, strongest
from meeple.agents.spec import make_agent, parse_spec
from meeple.core.errors import AgentSpecError


@pytest.mark.parametrize("name", [info.name for info in meeple.games()])
def test_every_game_has_three_levels_that_build(name: str) -> None:
    game = meeple.make(name)
    assert name in LEVELS
    specs = [level_spec(game, level) for level in LEVEL_NAMES]
    assert len(set(specs)) == 3, specs
    for spec in specs:
        assert make_agent(spec, game).name


def test_hard_is_the_default_and_the_strongest() -> None:
    game = meeple.make("edges")
    assert DEFAULT_LEVEL == "hard"
    assert strongest(game) == level_spec(game, "hard") == "uct:iterations=30000"


def test_erds_strongest_is_the_solved_agent_not_a_level() -> None:
    game = meeple.make("erd")
    assert strongest(game) == "exploit:allowance=0.1,knows=heuristic"
    assert level_spec(game, "hard") == "heuristic"
    assert "exploit" in available_agents(game)
    assert parse_spec(strongest(game)).name == "exploit"  # built in test_erd_exploit.py


def test_levels_are_read_as_people_type_them() -> None:
    assert level_spec(meeple.make("erd"), " Easy ") == "random"


def test_an_unknown_level_names_the_levels() -> None:
    with pytest.raises(AgentSpecError, match="easy, medium, hard"):
        level_spec(meeple.make("edges"), "expert")
