"""A tournament plays exactly the games asked for per pair, seats balanced (issue 32.5)."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations

import pytest
from typer.testing import CliRunner

from meeple.interfaces.cli import app
from meeple.lab.tournament import pair_plays, seating_note, tournament_spec


def seatings_played(agents: list[str], players: int, per_pair: int) -> list[list[str]]:
    """The seats of every game a tournament of ``per_pair`` games per pair plays."""
    spec = tournament_spec("edges", {}, agents, players, seed=0)
    pairs = len(agents) * (len(agents) - 1) // 2
    return [spec.job(k).seats for k in range(per_pair * pairs)]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("agents", [["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d", "e"]])
@pytest.mark.parametrize("per_pair", [1, 2, 3, 5, 6, 8, 13])
def test_every_pair_plays_exactly_the_games_asked_with_seats_as_even_as_possible(
    agents, players, per_pair
):
    seatings = seatings_played(agents, players, per_pair)
    games = Counter(tuple(sorted(set(s))) for s in seatings)
    assert games == {pair: per_pair for pair in combinations(agents, 2)}
    for play in pair_plays([{"seats": s} for s in seatings]):
        for counts in play.seats.values():
            assert max(counts) - min(counts) <= 1, (play.agents, play.seats)
        cycle = 2 if players == 2 else 2 * players
        if per_pair % cycle == 0:
            assert play.balanced, play.seats


def test_more_games_extend_the_same_run():
    """The seatings do not depend on the number of games, so a stored run is extended."""
    assert tournament_spec("edges", {}, ["a", "b", "c"], 2, 0).key == (
        tournament_spec("edges", {}, ["a", "b", "c"], 2, 0).key
    )
    assert seatings_played(["a", "b", "c"], 2, 7)[:15] == seatings_played(["a", "b", "c"], 2, 5)


def test_the_note_says_how_seats_fell():
    even = pair_plays([{"seats": s} for s in seatings_played(["a", "b", "c"], 2, 4)])
    assert (
        seating_note(even) == "Every pair played 4 games; every agent held each seat equally often."
    )
    odd = seating_note(pair_plays([{"seats": s} for s in seatings_played(["a", "b"], 2, 5)]))
    assert "Every pair played 5 games" in odd and "multiple of 2" in odd and "2 to 3" in odd


def test_the_tournament_command_plays_n_per_pair_and_says_so(tmp_path):
    result = CliRunner().invoke(
        app,
        ["tournament", "edges", "--board", "2x2", "--agent", "random", "--agent", "greedy",
         "--agent", "random:seed=1", "--games", "3", "--db", f"sqlite:///{tmp_path / 'r.db'}",
         "--out", str(tmp_path / "out")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Every pair played 3 games" in " ".join(result.output.split())
    [jsonl] = (tmp_path / "out").glob("edges-*.jsonl")
    rows = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert Counter(tuple(sorted(r["seats"])) for r in rows) == {
        ("greedy", "random"): 3,
        ("random", "random:seed=1"): 3,
        ("greedy", "random:seed=1"): 3,
    }
    report = next((tmp_path / "out").glob("tournament-edges-*/report.md")).read_text()
    assert "Every pair played 3 games" in report


@pytest.mark.parametrize("players", [2, 3])
def test_a_duplicate_tournament_deals_every_deal_to_every_pair_in_each_seating(players):
    agents = ["a", "b", "c"]
    spec = tournament_spec("edges", {}, agents, players, seed=3, duplicate=True)
    cycle = len(spec.seatings)  # pairs x the pair's seatings
    jobs = [spec.job(k) for k in range(2 * cycle)]
    for deal in range(2):
        passed = jobs[deal * cycle : (deal + 1) * cycle]
        assert len({job.seed for job in passed}) == 1  # one deal...
        assert [job.seats for job in passed] == spec.seatings  # ...in every seating of every pair
    assert jobs[0].seed != jobs[cycle].seed
    assert spec.key != tournament_spec("edges", {}, agents, players, seed=3).key


def test_a_duplicate_tournament_counts_each_pair_over_its_deals(tmp_path):
    db, out = f"sqlite:///{tmp_path / 'r.db'}", str(tmp_path / "out")
    agents = ["--agent", "heuristic", "--agent", "random", "--agent", "policy"]
    common = ["tournament", "triangle-clock", *agents, "--db", db, "--out", out, "--duplicate"]
    runner = CliRunner()
    refused = runner.invoke(app, [*common, "--games", "3"])
    assert refused.exit_code != 0 and "multiple of 2" in refused.output
    assert "Traceback" not in refused.output
    result = runner.invoke(app, [*common, "--games", "4"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    [jsonl] = (tmp_path / "out").glob("triangle-clock-*.jsonl")
    rows = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert len({r["seed"] for r in rows}) == 2  # 12 games, 2 deals
    for first, second in combinations(["heuristic", "random", "policy"], 2):
        pair = [r for r in rows if set(r["seats"]) == {first, second}]
        mine = sum(
            1.0
            if {r["seats"][p] for p in r["winners"]} == {first}
            else 0.0
            if r["winners"]
            else 0.5
            for r in pair
        )
        assert f"{first} against {second}: score rate {100 * mine / 4:.1f}%" in text
        assert "over 2 deals" in text
    key = jsonl.stem.split("-")[-1]
    shown = runner.invoke(app, ["results", key, "--db", db])
    assert shown.exit_code == 0, shown.output
    assert "heuristic against random" in shown.output
    assert "each deal played by every pair" in " ".join(shown.output.split())


def test_a_duplicate_tournament_of_three_seats_says_its_pairs_get_no_interval(tmp_path):
    result = CliRunner().invoke(
        app,
        ["tournament", "erosion", "--players", "3", "--agent", "random", "--agent",
         "random:seed=1", "--games", "6", "--duplicate", "--db",
         f"sqlite:///{tmp_path / 'r.db'}", "--out", str(tmp_path / "out")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "interval over its deals is given for two seats only" in text
    assert " against " not in text
