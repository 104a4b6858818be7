"""A tournament's output can be read by someone who has not met Elo: what the ratings and
their intervals mean, who moved first, and a refusal before anything is said."""

from __future__ import annotations

from typer.testing import CliRunner

from meeple.interfaces.cli import app
from meeple.lab.ratings import expected_score
from meeple.lab.tournament import first_mover_note


def flat(text: str) -> str:
    return " ".join(text.split())


def test_the_ratings_say_what_1500_a_gap_and_the_interval_mean(tmp_path):
    db, out = f"sqlite:///{tmp_path / 'r.db'}", tmp_path / "out"
    result = CliRunner().invoke(
        app,
        ["tournament", "edges", "--board", "2x2", "--agent", "random", "--agent", "greedy",
         "--games", "4", "--db", db, "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    for text in (result.output, next(out.glob("tournament-edges-*/report.md")).read_text()):
        said = flat(text)
        assert "1500 is the mean of these agents" in said
        assert "100 points above another is expected to score 64%" in said
        assert "intervals do not overlap are shown to differ" in said
    [jsonl] = out.glob("edges-*.jsonl")
    shown = CliRunner().invoke(app, ["results", jsonl.stem.split("-")[-1], "--db", db])
    assert shown.exit_code == 0, shown.output
    said = flat(shown.output)
    assert "1500 is the mean of these agents" in said
    assert "Every pair played 4 games" in said


def test_the_elo_gaps_the_note_gives_are_the_logistic_curve():
    assert round(100 * expected_score(100)) == 64
    assert round(100 * expected_score(200)) == 76
    assert expected_score(0) == 0.5


def rows(firsts: list[int], seatings: list[list[str]]) -> list[dict]:
    return [{"seats": s, "first_player": f} for f, s in zip(firsts, seatings, strict=True)]


def test_who_moved_first_is_counted_per_pair():
    ab, ba = ["a", "b"], ["b", "a"]
    # the same seat first in both seatings: each agent moved first once
    assert first_mover_note(rows([0, 0], [ab, ba])) == (
        "In every pair each agent moved first equally often."
    )
    # a first player drawn by the game: seat 0 in both, but a sat there twice of three
    uneven = first_mover_note(rows([0, 1, 0], [ab, ba, ab]))
    assert uneven is not None
    assert uneven.startswith("Moved first: a in 3 and b in 0 of their 3 games")
    assert "--duplicate" in uneven
    # three seats: the agent alone or the pair of seats that acted first
    three = first_mover_note(rows([0, 0], [["a", "b", "b"], ["b", "a", "a"]]))
    assert three == "In every pair each agent moved first equally often."
    # a game of simultaneous choices records no first player
    assert first_mover_note(rows([None, None], [ab, ba])) is None  # type: ignore[list-item]


def test_a_duplicate_tournament_gives_each_agent_the_first_move_equally(tmp_path):
    result = CliRunner().invoke(
        app,
        ["tournament", "edges", "--board", "2x2", "--agent", "random", "--agent", "greedy",
         "--games", "6", "--duplicate", "--db", f"sqlite:///{tmp_path / 'r.db'}",
         "--out", str(tmp_path / "out")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "In every pair each agent moved first equally often." in flat(result.output)


def test_one_agent_is_refused_before_any_agents_line(tmp_path):
    result = CliRunner().invoke(
        app,
        ["tournament", "edges", "--board", "2x2", "--agent", "random", "--out",
         str(tmp_path / "out"), "--db", f"sqlite:///{tmp_path / 'r.db'}"],
    )  # fmt: skip
    assert result.exit_code != 0
    assert result.output.strip().splitlines() == [
        "error: a tournament needs two or more agents, one --agent each; 1 given"
    ]


def test_a_csv_export_to_a_folder_is_refused_before_the_run_is_shown(tmp_path):
    db = f"sqlite:///{tmp_path / 'r.db'}"
    played = CliRunner().invoke(
        app,
        ["tournament", "edges", "--board", "2x2", "--agent", "random", "--agent", "greedy",
         "--games", "2", "--db", db, "--out", str(tmp_path / "out")],
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    [jsonl] = (tmp_path / "out").glob("edges-*.jsonl")
    result = CliRunner().invoke(
        app, ["results", jsonl.stem.split("-")[-1], "--db", db, "--csv", str(tmp_path)]
    )
    assert result.exit_code != 0
    said = flat(result.output)  # a long folder's name may wrap: one error, nothing else
    assert said.startswith("error: cannot write") and said.endswith("such as games.csv")
    assert said.count("error:") == 1
