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
