"""The designer level (issue 59 item 5): the lab's agent to balance with, in every game.

Its strength is measured, not asserted here (benchmarks/designer_agents.py, docs/lab.md);
these tests check that the word resolves everywhere a seat is read and plays legal games.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import meeple
from meeple.agents.levels import (
    DESIGNER,
    DESIGNER_LEVEL,
    LEVEL_NAMES,
    designer_spec,
    level_spec,
    seat_spec,
)
from meeple.agents.play import play_game
from meeple.agents.spec import agent_builder, make_agent, parse_spec
from meeple.core.agent import Observation
from meeple.interfaces.cli import app

# Erd's designer agent solves the rules on first use: a four-round game solves at once.
CHEAP = {"erd": {"round_limit": 4}}


@pytest.mark.parametrize("name", [info.name for info in meeple.games()])
def test_every_game_has_a_designer_level_without_a_time_budget(name: str) -> None:
    game = meeple.make(name)
    assert name in DESIGNER
    spec = level_spec(game, DESIGNER_LEVEL)
    assert spec == designer_spec(game) == seat_spec(game, " Designer ")
    # Budgets in iterations or worlds: a designer's run replays from its seed on any machine.
    assert "seconds" not in parse_spec(spec).params


@pytest.mark.parametrize(
    ("name", "options"),
    [(info.name, CHEAP.get(info.name, {})) for info in meeple.games()]
    + [("squad-combat", {"players": 4}), ("erosion", {"players": 5})],
)
def test_the_designer_level_plays_a_whole_game_legally(name: str, options: dict) -> None:
    game = meeple.make(name, **options)
    # Random opponents: the cheapest, and they lead the designer's seat off the usual paths.
    agents = [make_agent(DESIGNER_LEVEL, game, seed=3)]
    agents += [make_agent("random", game, seed=4 + p) for p in range(1, game.num_players)]
    illegal: list[object] = []

    def check(observation: Observation, action: object, _after: object) -> None:
        if action not in observation.legal_actions:
            illegal.append(action)

    play = play_game(game, agents, seed=5, on_move=check)
    assert play.state.is_over
    assert not illegal
    # The designer's seat took part: it chose at least one move.
    assert any(player == 0 for player, _ in play.record().moves)


def test_a_designer_level_may_name_a_spec_per_player_count() -> None:
    """Erosion's budget differs by player count (docs/lab.md, "The agent to balance with"):
    the level reads the count from the game, and each count it names is a spec of its own."""
    per_count = DESIGNER["erosion"]
    assert isinstance(per_count, dict)
    assert sorted(per_count) == [2, 3, 4, 5]
    for players, spec in per_count.items():
        game = meeple.make("erosion", players=players)
        assert level_spec(game, DESIGNER_LEVEL) == seat_spec(game, "designer") == spec
        assert "seconds" not in parse_spec(spec).params
    four, five = (level_spec(meeple.make("erosion", players=n), "designer") for n in (4, 5))
    assert four != five


def test_the_designer_level_is_no_lobby_opponent() -> None:
    """The lobby and meeple play offer easy, medium and hard, in order of strength; the
    designer agent is weaker than hard in most games and is for the lab, not for people."""
    assert DESIGNER_LEVEL not in LEVEL_NAMES


def test_a_seat_given_as_designer_builds_its_agent() -> None:
    game = meeple.make("triangle-clock")
    agent = agent_builder("designer", game)(0)
    assert agent.name == parse_spec(DESIGNER["triangle-clock"]).name


def test_meeple_agents_names_the_designer_level() -> None:
    result = CliRunner().invoke(app, ["agents", "edges"])
    assert result.exit_code == 0, result.output
    assert "--seat designer plays" in " ".join(result.output.split())
