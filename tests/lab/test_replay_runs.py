"""Any game of a run can be looked at (issue 59, item 4): `meeple replay RUN --game N` replays
the game the run counted, and the run names its shortest, longest and most lopsided games."""

from __future__ import annotations

import json
import re

import pytest

from meeple.core.record import GameRecord
from meeple.lab.replay import (
    game_record,
    notable_games,
    regenerate,
    replay_differences,
)
from meeple.lab.run import RunSpec, execute
from meeple.store import ResultStore


@pytest.fixture
def erosion_run(tmp_path):
    """A small stored run of Erosion (scores at the end, shared wins possible)."""
    url = f"sqlite:///{tmp_path / 'lab.db'}"
    spec = RunSpec(kind="simulate", game="erosion", seatings=[["random", "random"]], seed=3)
    rows = execute(spec, 5, ResultStore(url))
    return spec, [dict(r) for r in rows], url


def test_every_game_of_a_run_replays_to_what_the_run_counted_and_plays_again_the_same(
    erosion_run,
):
    spec, rows, _ = erosion_run
    for row in rows:
        assert replay_differences(row) == []
        final = game_record(row).replay()
        assert list(final.returns) == row["returns"]
        assert final.result.get("scores") == row["scores"]
        # Seed and agents are enough to play the very same game again.
        assert regenerate(spec, row["index"]) == row


def test_a_row_whose_counted_result_is_not_its_moves_is_caught(erosion_run):
    _, rows, _ = erosion_run
    row = dict(rows[0], returns=[r + 1 for r in rows[0]["returns"]])
    assert any("counted" in p for p in replay_differences(row))


def test_meeple_replay_run_and_game_prints_and_saves_that_game(run, erosion_run, tmp_path):
    spec, rows, url = erosion_run
    saved = tmp_path / "game.json"
    result = run("replay", spec.key[:6], "--game", "2", "--db", url, "--all", "--save", str(saved))
    assert result.exit_code == 0, result.output
    assert f"Run {spec.key}" in result.output
    assert "game 2 (games 0 to 4)" in " ".join(result.output.split())  # "of 5" read as 1-based
    assert all(len(line) <= 80 for line in result.output.splitlines()[:3]), result.output
    assert "replays to the result the run counted" in result.output
    numbered = [line for line in result.output.splitlines() if re.match(r"\s*\d+\. ", line)]
    assert len(numbered) == rows[2]["length"]
    record = GameRecord.load(saved)
    assert record.seed == rows[2]["seed"]
    assert [list(m) for m in record.moves] == rows[2]["moves"]
    assert list(record.replay().returns) == rows[2]["returns"]
    # The saved record replays on its own, with no warning about its result.
    again = run("replay", str(saved), "--all")
    assert again.exit_code == 0, again.output
    assert "differs" not in again.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--game", "9"], "has no game 9; its games are numbered 0 to 4 (5 stored)"),
        (["--game", "two"], "--game 'two': give the game's number"),
        (["--game", "1", "--board", "3x3"], "takes its options from the run"),
    ],
)
def test_a_game_the_run_does_not_have_is_one_clear_line(run, erosion_run, args, words):
    spec, _, url = erosion_run
    result = run("replay", spec.key, *args, "--db", url, "--all")
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert words in result.output.replace("\n", " ")


def test_an_unknown_run_or_a_missing_file_is_one_clear_line(run, erosion_run, tmp_path):
    _, _, url = erosion_run
    unknown = run("replay", "fffffff", "--game", "1", "--db", url)
    assert unknown.exit_code != 0
    assert "no run 'fffffff'" in unknown.output
    missing = run("replay", str(tmp_path / "nothing.json"))
    assert missing.exit_code != 0
    assert "meeple replay RUN --game K" in missing.output.replace("\n", " ")


def _row(index: int, length: int, scores: list[float] | None) -> dict:
    return {"index": index, "length": length, "scores": scores}


def test_notable_games_are_the_shortest_longest_and_widest_gap_lowest_number_first():
    rows = [
        _row(0, 30, [5, 4, 3]),
        _row(1, 12, [9, 1, 5]),
        _row(2, 12, [2, 2, 2]),
        _row(3, 41, [7, 0, 6]),
    ]
    assert notable_games(rows) == [
        ("shortest", 1, "12 actions"),
        ("longest", 3, "41 actions"),
        ("most lopsided", 1, "scores 9, 1, 5 by seat, a gap of 8"),
    ]
    # Without scores there is no lopsided game to name.
    assert [what for what, _, _ in notable_games([_row(0, 3, None), _row(1, 5, None)])] == [
        "shortest",
        "longest",
    ]
    # Games all as long: one game named once, and that every game is as long.
    assert notable_games([_row(0, 41, None), _row(1, 41, None)]) == [
        ("shortest and longest", 0, "every game 41 actions")
    ]
    assert notable_games([]) == []


def test_simulate_names_the_games_to_look_at_in_its_output_and_report(run, tmp_path):
    out = tmp_path / "out"
    url = f"sqlite:///{tmp_path / 'lab.db'}"
    result = run("simulate", "erosion", "-n", "4", "--seat", "random", "--db", url,
                 "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    [key] = re.findall(r"Run ([0-9a-f]{12}): rows", result.output)
    rows = [json.loads(x) for x in (out / f"erosion-{key}.jsonl").read_text().splitlines()]
    shortest = min(rows, key=lambda r: (r["length"], r["index"]))
    line = f"shortest: game {shortest['index']} ({shortest['length']} actions); "
    text = " ".join(result.output.split())
    assert line + f"meeple replay {key} --game {shortest['index']}" in text
    report = (out / f"erosion-{key}" / "report.md").read_text()
    assert "## Games to look at" in report
    assert line in report
    shown = run("results", key, "--db", url)
    assert line in " ".join(shown.output.split())
