"""`meeple design GAME` writes a design report from the lab's runs (issue 57, items 5-6)."""

from __future__ import annotations

import re

import pytest
from pydantic import BaseModel
from typer.testing import CliRunner

import meeple.interfaces.design_cli as design_cli
from meeple.interfaces.cli import app
from meeple.interfaces.design_cli import player_counts
from meeple.interfaces.lab_common import LabError
from meeple.lab.design import SECTIONS
from meeple.store import ResultStore
from tests.lab.test_lab import assert_defines_its_figures


def test_a_report_has_every_section_and_a_second_invocation_plays_no_game(tmp_path):
    db = f"sqlite:///{tmp_path / 'lab.db'}"
    out = tmp_path / "report"
    args = ["design", "triangle-clock", "--games", "4", "--db", db, "--out", str(out)]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "Played 4 games, read 0 stored" in first.output
    text = (out / "report.md").read_text()
    for section in SECTIONS:
        assert f"\n## {section}\n" in text
    assert_defines_its_figures(text)
    # Every image the report shows is written beside it.
    images = re.findall(r"!\[[^]]*\]\(([^)]+)\)", text)
    assert {"wins.png", "metrics.png", "cards-2p.png"} <= set(images)
    for name in images:
        assert (out / name).stat().st_size > 0
    # Seats by their items, the items' use, and the command of each figure's run.
    assert "Tick (palette-swap+right-angle)" in text and "mulligan" in text
    assert "`meeple simulate triangle-clock --seat heuristic --games 4 --seed 0`" in text
    [run] = ResultStore(db).runs()
    assert f"`meeple cards {run['key']}`" in text
    assert "Every game lasted 32 rounds" in text  # a constant length is said, not drawn

    (out / "report.md").unlink()
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    assert "Played 0 games, read 4 stored" in again.output
    assert (out / "report.md").read_text() == text
    assert [r["games"] for r in ResultStore(db).runs()] == [4]


def test_without_out_each_set_of_runs_has_its_own_report_folder(tmp_path, monkeypatch):
    """Two design commands of one game with other seats wrote the same results/design-GAME,
    the second report over the first."""
    monkeypatch.chdir(tmp_path)
    db = f"sqlite:///{tmp_path / 'lab.db'}"
    args = ["design", "triangle-clock", "--games", "2", "--db", db]
    made = CliRunner().invoke(app, args)
    assert made.exit_code == 0, made.output
    [run] = ResultStore(db).runs()
    folder = design_cli.default_folder("triangle-clock", [run["key"]])
    assert (tmp_path / folder / "report.md").is_file()
    assert folder.name.startswith("design-triangle-clock-")
    assert folder == design_cli.default_folder("triangle-clock", [run["key"]])  # found again
    assert folder != design_cli.default_folder("triangle-clock", [run["key"], "other"])


def test_the_player_counts_are_the_games_own_unless_given():
    assert player_counts("squad-combat", {}, None) == [2, 3, 4]
    assert player_counts("squad-combat", {"players": 3}, None) == [3]
    assert player_counts("squad-combat", {}, "4,2") == [4, 2]
    assert player_counts("triangle-clock", {}, None) == [2]
    with pytest.raises(LabError, match="from 2 to 4"):
        player_counts("squad-combat", {}, "2,5")
    with pytest.raises(LabError, match="2 players only"):
        player_counts("triangle-clock", {}, "3")
    # --players 3 --counts 2 reported the 2-player run, the --players silently dropped.
    assert player_counts("squad-combat", {"players": 3}, "3") == [3]
    with pytest.raises(LabError, match="--players 3 and --counts 2 name different"):
        player_counts("squad-combat", {"players": 3}, "2")


def test_an_added_game_whose_players_option_has_no_bounds_is_told_so(monkeypatch):
    """A game from outside (the ``meeple.games`` entry point) may declare ``players``
    without ``ge``/``le``: a clear refusal, not a crash on the missing bound."""

    class Unbounded:
        title = "Unbounded"

        class Options(BaseModel):
            players: int = 2

    monkeypatch.setattr(design_cli, "game_class", lambda name: Unbounded)
    with pytest.raises(LabError, match="Unbounded's players option gives no lowest and highest"):
        player_counts("unbounded", {}, None)


def test_a_bad_player_count_is_one_line(tmp_path):
    db = f"sqlite:///{tmp_path / 'lab.db'}"
    result = CliRunner().invoke(app, ["design", "squad-combat", "--counts", "x", "--db", db])
    assert result.exit_code != 0
    assert "--counts is a list of player counts from 2 to 4" in result.output
    assert "Traceback" not in result.output
