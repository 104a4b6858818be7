"""A command that reads fewer games of a run than the run holds never replaces the run's
report, its JSONL file or what `meeple results RUN` names: its report of those games goes to
a folder of its own, named with the count, and the output says where."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.interfaces.cli import app
from meeple.store import ResultStore

COMMANDS = [
    ("simulate", "edges", "--board", "2x2"),
    ("compare", "edges", "--variant", "board=2x2", "--variant", "board=2x3"),
    ("tournament", "edges", "--board", "2x2", "--agent", "random", "--agent", "greedy"),
    ("design", "edges", "--board", "2x2"),
]


@pytest.fixture
def lab(tmp_path, monkeypatch):
    def invoke(*args: str) -> str:
        where = ["--db", f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(tmp_path / "out")]
        monkeypatch.setattr(sys, "argv", ["meeple", *args, *where])  # the command noted
        result = CliRunner().invoke(app, [*args, *where])
        assert result.exit_code == 0, result.output
        return " ".join(result.output.split())

    return invoke


def _files(tmp_path: Path, pattern: str) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in tmp_path.rglob(pattern)}


@pytest.mark.parametrize("words", COMMANDS, ids=lambda words: words[0])
def test_fewer_games_than_a_run_holds_are_reported_apart(lab, tmp_path, words):
    lab(*words, "-n", "6")
    reports, jsonl = _files(tmp_path, "report.md"), _files(tmp_path, "*.jsonl")
    said = lab(*words, "-n", "2")
    now = _files(tmp_path, "report.md")
    assert {path: now[path] for path in reports} == reports  # every report as it was
    assert _files(tmp_path, "*.jsonl") == jsonl  # each run's file: its 6 games
    [apart] = set(now) - set(reports)
    assert apart.parent.name.endswith("-first-2")
    assert "more than the 2 games read now" in said and f"goes to {apart.parent}" in said


def test_results_names_the_report_of_all_the_games_a_run_holds(lab, tmp_path):
    run = ("simulate", "edges", "--board", "2x2")
    lab(*run, "-n", "6")
    lab(*run, "-n", "2")
    [stored] = ResultStore(f"sqlite:///{tmp_path / 'lab.db'}").runs()
    assert stored["games"] == 6
    assert "-n 6" in stored["command"]  # the command that plays (or reads) all six
    report = Path(stored["report"])
    assert report.parent.name == f"edges-{stored['key']}"
    assert "| games | 6 |" in report.read_text(encoding="utf-8")
    apart = report.parent.with_name(f"{report.parent.name}-first-2") / "report.md"
    assert "| games | 2 |" in apart.read_text(encoding="utf-8")


def test_more_games_extend_the_run_and_its_report(lab, tmp_path):
    run = ("simulate", "edges", "--board", "2x2")
    lab(*run, "-n", "2")
    said = lab(*run, "-n", "4")
    assert "read now" not in said
    [stored] = ResultStore(f"sqlite:///{tmp_path / 'lab.db'}").runs()
    assert "| games | 4 |" in Path(stored["report"]).read_text(encoding="utf-8")
    assert not list(tmp_path.rglob("*-first-*"))


def test_a_run_read_back_keeps_its_report_when_the_command_stops_before_its_own(
    lab, tmp_path, monkeypatch
):
    """Every game read back, nothing played: the run's report still describes it, and
    `meeple results` names it, if the command stops before writing its own (Ctrl-C)."""
    run = ("simulate", "edges", "--board", "2x2", "-n", "4")
    lab(*run)
    [before] = ResultStore(f"sqlite:///{tmp_path / 'lab.db'}").runs()

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("meeple.interfaces.lab_cli.simulation_report", stopped)
    where = ["--db", f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(tmp_path / "out")]
    CliRunner().invoke(app, [*run, *where])
    [after] = ResultStore(f"sqlite:///{tmp_path / 'lab.db'}").runs()
    assert after["report"] == before["report"] and Path(after["report"]).exists()
    # A run whose every game was played, stopped before its report, is not said unfinished.
    CliRunner().invoke(app, ["simulate", "edges", "--board", "2x3", "-n", "4", *where])
    key = next(r["key"] for r in ResultStore(where[1]).runs() if r["key"] != before["key"])
    shown = " ".join(CliRunner().invoke(app, ["results", key, "--db", where[1]]).output.split())
    assert "No report was written (the command stopped before it)" in shown


def test_an_interrupted_design_report_says_what_is_left_of_it_and_writes_no_games_file(
    lab, tmp_path, monkeypatch
):
    """A report's runs live in the database: Ctrl-C wrote the interrupted run's games to a
    JSONL file that no finished report writes, and that stayed partial once the report was
    resumed; and "play the other N" counted that run's games alone."""
    from meeple.interfaces import lab_common

    real = lab_common.execute

    def stops_after_two(spec, games, store, **kwargs):
        seen = []
        told = kwargs["on_row"]

        def on_row(row):
            told(row)
            seen.append(row)
            if len(seen) == 2:
                raise KeyboardInterrupt

        return real(spec, games, store, **{**kwargs, "on_row": on_row})

    monkeypatch.setattr(lab_common, "execute", stops_after_two)
    design = ["design", "erosion", "--counts", "2,3", "--games", "4", "--seat", "random"]
    where = ["--db", f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(tmp_path / "out")]
    stopped = CliRunner().invoke(app, [*design, *where])
    said = " ".join(stopped.output.split())
    assert stopped.exit_code == 130, said
    assert "Interrupted: 2 of 4 games of run" in said
    assert "play the other 6 (its later runs included)" in said
    assert not list(tmp_path.rglob("*.jsonl"))
    monkeypatch.setattr(lab_common, "execute", real)
    resumed = lab(*design)
    assert "Played 6 games, read 2 stored" in resumed
    assert not list(tmp_path.rglob("*.jsonl"))
