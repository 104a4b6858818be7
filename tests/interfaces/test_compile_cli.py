"""``meeple compile``: every game's compiled code compiled ahead of its first use."""

from __future__ import annotations

import pytest

import meeple
from meeple.agents import make_agent, parse_spec
from meeple.agents.levels import LEVELS
from meeple.core.registry import rollout_policies
from meeple.interfaces.compile_cli import BUDGETS, small_specs

GAMES = [info.name for info in meeple.games()]


@pytest.mark.parametrize("name", GAMES)
def test_the_specs_compiled_for_are_the_levels_and_every_rollout_with_small_budgets(name):
    specs = small_specs(name)
    names = {parse_spec(spec).name for spec in specs}
    solving = {parse_spec(s).name for s in LEVELS[name].values() if "solve=true" in s}
    assert {parse_spec(s).name for s in LEVELS[name].values()} - solving <= names
    for policy in rollout_policies(name):
        assert any(f"rollout={policy}" in spec for spec in specs), policy
    game = meeple.make(name)
    for spec in specs:
        parsed = parse_spec(spec)
        for key, most in BUDGETS.items():
            assert parsed.params.get(key, most) == most, spec
        make_agent(spec, game)  # every one is an agent the game offers
    assert len(specs) == len(set(specs))


def test_compile_plays_a_game_s_agents_and_batched_rules_and_says_what_it_did(run):
    result = run("compile", "erd", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert "erd:" in result.output and "1 job on 1 worker" in result.output


def test_an_unknown_game_is_refused_with_the_games_there_are(run):
    result = run("compile", "chess")
    assert result.exit_code != 0
    assert "no game 'chess'" in result.output and "edges" in result.output
    assert "Traceback" not in result.output
