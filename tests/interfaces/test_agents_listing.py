"""`meeple agents`: every description whole, in plain words (issue 32, item 8)."""

from __future__ import annotations

import pytest

from meeple.agents import available_agents
from meeple.agents.levels import LEVEL_NAMES, level_spec, strongest
from meeple.core.registry import make
from meeple.interfaces import doc_text
from meeple.interfaces.console import console


def test_summary_keeps_the_whole_first_paragraph_and_drops_rest_markup():
    def factory() -> None:
        """Solves exactly when at most ``exact`` pyramids
        are left, using :func:`~meeple.games.erd.rules.resolve_round`.

        Details nobody needs in a table.
        """

    assert doc_text.summary(factory) == (
        "Solves exactly when at most exact pyramids are left, using resolve_round."
    )


@pytest.mark.parametrize("game", ["edges", "erd", "erosion", "squad-combat", "triangle-clock"])
def test_agents_shows_each_description_to_its_last_word(run, monkeypatch, game):
    monkeypatch.setattr(console, "width", 1000)  # one row per agent: nothing wraps
    result = run("agents", game)
    assert result.exit_code == 0, result.output
    assert "``" not in result.output
    for factory in available_agents(make(game)).values():
        text = doc_text.summary(factory)
        assert text.endswith("."), text  # a sentence, not a line cut short
        assert text in result.output


@pytest.mark.parametrize("game", ["edges", "erd", "erosion", "squad-combat", "triangle-clock"])
def test_agents_shows_the_levels_and_names_the_strongest(run, monkeypatch, game):
    monkeypatch.setattr(console, "width", 1000)
    result = run("agents", game)
    assert result.exit_code == 0, result.output
    g = make(game)
    for level in LEVEL_NAMES:
        assert f"{level_spec(g, level)}" in result.output
    # The default level is marked in its own cell, not in a column without a heading.
    header = next(line for line in result.output.splitlines() if "┃ level" in line)
    assert header.count("┃") == 3, header
    assert "│ hard (the default) │" in result.output
    assert f"The strongest agent meeple offers here is {strongest(g)}" in result.output or (
        f"hard ({strongest(g)})" in result.output
    )


@pytest.mark.parametrize(
    ("game", "rollouts", "models"),
    [
        ("edges", "random", None),
        ("triangle-clock", "ahead, deep, guided, random", "ahead, deep, guided"),
        ("squad-combat", "field, guided, random", "field, guided"),
    ],
)
def test_agents_names_the_rollouts_and_opponent_models_search_can_take(
    run, monkeypatch, game, rollouts, models
):
    monkeypatch.setattr(console, "width", 1000)
    result = run("agents", game)
    assert result.exit_code == 0, result.output
    assert f"roll out with rollout={rollouts}." in result.output
    if models:
        assert f"play a policy (opponent={models})" in result.output
    else:
        assert "play a policy" not in result.output
