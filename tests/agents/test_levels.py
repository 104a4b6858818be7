"""Opponents by level (issue 28.7): every level of every game is an agent that can be built."""

from __future__ import annotations

import pytest

import meeple
from meeple.agents import available_agents
from meeple.agents.careless import CarelessAgent
from meeple.agents.levels import DEFAULT_LEVEL, LEVEL_NAMES, LEVELS, level_spec, strongest
from meeple.agents.spec import make_agent, parse_spec
from meeple.agents.warm import LIGHT_AGENTS
from meeple.core.errors import AgentSpecError


@pytest.mark.parametrize("name", [info.name for info in meeple.games()])
def test_every_game_has_three_levels_that_build(name: str) -> None:
    # Erd's hard level solves the rules on first use: a four-round game solves at once, where
    # the 200 rounds of a real game take 20 s (its spec is the same).
    game = meeple.make(name, **({"round_limit": 4} if name == "erd" else {}))
    assert name in LEVELS
    specs = [level_spec(game, level) for level in LEVEL_NAMES]
    assert len(set(specs)) == 3, specs
    for spec in specs:
        assert make_agent(spec, game).name


def test_hard_is_the_default_and_the_strongest() -> None:
    game = meeple.make("edges")
    assert DEFAULT_LEVEL == "hard"
    assert strongest(game) == level_spec(game, "hard") == "uct:iterations=30000"


def test_erds_hard_level_is_its_strongest_agent_the_solved_one() -> None:
    """Since session 46's solver (19 s instead of 249 s) the agent that plays the solved
    game is the hard level; it solves the rules the first time it plays them."""
    game = meeple.make("erd")
    spec = "exploit:allowance=0.1,knows=heuristic,solve=true"
    assert strongest(game) == level_spec(game, "hard") == spec
    assert level_spec(game, "medium") == "heuristic"
    assert "exploit" in available_agents(game)
    assert parse_spec(spec).params["solve"] == "true"


def test_levels_are_read_as_people_type_them() -> None:
    assert level_spec(meeple.make("erd"), " Easy ") == "careless"


@pytest.mark.parametrize("name", ["erd", "erosion", "triangle-clock", "squad-combat"])
def test_easy_is_the_hand_written_agent_slipping_not_random_play(name: str) -> None:
    """Random play as easy passed Erosion's game away in its first turns; easy is the
    game's hand-written agent with random slips (``careless``), which beat random and lost
    to medium in each of these games (docs/agents.md)."""
    game = meeple.make(name)
    easy = make_agent(level_spec(game, "easy"), game)
    assert isinstance(easy, CarelessAgent)
    assert easy.slip == 0.3
    assert type(easy.inner) is type(make_agent(game.heuristic_agent or "", game))


@pytest.mark.parametrize("name", [info.name for info in meeple.games()])
def test_every_easy_level_runs_beside_the_searches_never_behind_them(name: str) -> None:
    """A server plays the agents that do not search in a worker of their own
    (``LIGHT_AGENTS``): an easy game never waits for another match's hard search."""
    assert parse_spec(level_spec(meeple.make(name), "easy")).name in LIGHT_AGENTS


def test_an_unknown_level_names_the_levels() -> None:
    with pytest.raises(AgentSpecError, match="easy, medium, hard"):
        level_spec(meeple.make("edges"), "expert")


@pytest.mark.parametrize("name", [info.name for info in meeple.games()])
def test_no_level_has_a_time_budget_so_its_games_replay_from_their_seed(name: str) -> None:
    game = meeple.make(name)
    for level in LEVEL_NAMES:
        assert "seconds" not in parse_spec(level_spec(game, level)).params, (name, level)


def test_the_triangle_clocks_hard_level_is_its_strongest_search_on_a_world_budget() -> None:
    """FD1 (``flat:seconds=1,rollout=deep,opponent=guided``) met item 1 for The Triangle Clock
    (docs/agents.md); the level plays it on worlds, not seconds."""
    spec = parse_spec(strongest(meeple.make("triangle-clock")))
    assert spec.name == "flat"
    assert spec.params == {"worlds": "60", "rollout": "deep", "opponent": "guided"}
