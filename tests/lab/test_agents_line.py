"""The lab says which agents its figures describe before the first game (issue 59 item 5),
and takes the designer level as a seat."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from meeple.agents.levels import DESIGNER
from meeple.interfaces.cli import app
from meeple.interfaces.lab_common import agents_line


@pytest.fixture
def lab(tmp_path, monkeypatch):
    runner = CliRunner()

    def invoke(*args):
        argv = [*args, "--db", f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(tmp_path)]
        monkeypatch.setattr(sys, "argv", ["meeple", *argv])
        return runner.invoke(app, argv)

    invoke.tmp = tmp_path
    return invoke


def test_the_line_names_each_seat_and_the_spec_a_level_stands_for() -> None:
    line = agents_line(["designer", "greedy"], ["uct:iterations=3000", "greedy"], rotated=True)
    assert line == (
        "Agents: seat 0 designer (uct:iterations=3000), seat 1 greedy; seats rotated game by game."
    )
    assert agents_line(["random"] * 3, ["random"] * 3) == "Agents: random in every seat."
    # A spec written another way is the same agent: no second name for it.
    assert agents_line(["UCT: iterations=5"], ["uct:iterations=5"]) == (
        "Agents: seat 0 uct:iterations=5."
    )


def test_simulate_says_the_agents_before_the_figures_and_seats_the_designer(lab) -> None:
    result = lab(
        "simulate", "edges", "--board", "2x2", "--seat", "designer", "--seat", "greedy",
        "--games", "2", "--rotate-seats",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    said = f"Agents: seat 0 designer ({DESIGNER['edges']}), seat 1 greedy"
    assert said in result.output
    # Before the figures, which come after the games.
    assert result.output.index(said) < result.output.index("score rate")
    [path] = lab.tmp.glob("edges-*.jsonl")
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    # The run records the spec the level stood for, as a level's seat always is.
    assert {seat for row in rows for seat in row["seats"]} == {DESIGNER["edges"], "greedy"}


def test_a_tournament_says_its_agents_too(lab) -> None:
    result = lab(
        "tournament", "edges", "--board", "2x2", "--agent", "designer", "--agent", "greedy",
        "--games", "2",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"Agents: designer ({DESIGNER['edges']}), greedy" in result.output


def test_compare_says_its_agents_once_for_every_variant(lab) -> None:
    result = lab(
        "compare", "edges", "--variant", "board=2x2", "--variant", "board=2x3",
        "--seat", "designer", "--seat", "random", "--games", "2",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.output.count("Agents: seat 0 designer") == 1


def test_design_says_its_agents_at_each_count_before_the_report(lab) -> None:
    result = lab(
        "design", "edges", "--board", "2x2", "--seat", "designer", "--seat", "greedy",
        "--games", "2",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    said = f"Agents at 2 players: seat 0 designer ({DESIGNER['edges']}), seat 1 greedy."
    assert said in " ".join(result.output.split())
    assert result.output.index("Agents at") < result.output.index("Played 2 games")
