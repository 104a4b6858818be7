"""``meeple compile``: every game's compiled code compiled ahead of its first use."""

from __future__ import annotations

import pytest

import meeple
from meeple.agents import make_agent, parse_spec
from meeple.agents.levels import LEVELS
from meeple.agents.warm import BATCHED, BUDGETS, compiled_job, small_spec, small_specs
from meeple.core import kernel_cache
from meeple.core.kernel_cache import needs_compiling
from meeple.core.registry import rollout_policies
from meeple.lab.hints import HINTS

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


def test_a_spec_is_compiled_for_with_its_budget_cut_and_a_solving_one_is_not():
    assert small_spec("mcts:seconds=5,c=2") == "mcts:c=2,iterations=4"
    assert small_spec("flat:worlds=300,rollout=deep") == "flat:min_worlds=2,rollout=deep,worlds=2"
    assert small_spec("exploit:solve=true,knows=heuristic") is None  # solved, not compiled


def test_compile_plays_a_game_s_agents_and_batched_rules_and_says_what_it_did(
    run, tmp_path, monkeypatch
):
    # Marks of its own (the kernels are the run's): what the command marks is seen here.
    monkeypatch.setattr(kernel_cache, "_marks_folder", lambda: tmp_path)
    jobs = [compiled_job("erd", what) for what in [*small_specs("erd"), BATCHED, HINTS]]
    assert all(needs_compiling(job) for job in jobs)
    result = run("compile", "erd", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert "erd:" in result.output and "1 job on 1 worker" in result.output
    # A server, or the command again, finds them compiled and compiles none again.
    assert not any(needs_compiling(job) for job in jobs)


def test_an_unknown_game_is_refused_with_the_games_there_are(run):
    result = run("compile", "chess")
    assert result.exit_code != 0
    assert "no game 'chess'" in result.output and "edges" in result.output
    assert "Traceback" not in result.output


def test_compile_where_nothing_can_be_kept_says_so_rather_than_compiled(run, monkeypatch, tmp_path):
    # A package installed read-only for a user whose cache folder cannot be written: the
    # command used to compile nothing and print "Compiled in 0.0 s".
    monkeypatch.setattr(kernel_cache, "_marks_folder", lambda: None)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "read-only"))
    result = run("compile", "erd")
    assert result.exit_code != 0
    assert "nothing compiled" in result.output and "Compiled in" not in result.output
    assert str(tmp_path / "read-only" / "meeple") in result.output.replace("\n", "")
    assert "NUMBA_CACHE_DIR" in result.output and "Traceback" not in result.output
