"""The lab: simulations, resumable runs, identical rows on every backend, metrics, ratings."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.agents.levels import level_spec
from meeple.core.registry import make
from meeple.interfaces.cli import app
from meeple.lab.metrics import pairwise_results, summarize
from meeple.lab.ratings import bradley_terry
from meeple.lab.run import RunSpec, execute
from meeple.lab.simulate import _lead_story, run_jobs
from meeple.lab.tournament import round_robin_seatings
from meeple.store import ResultStore

ROOT = Path(__file__).resolve().parents[2]

SPEC = RunSpec(
    kind="simulate", game="edges", options={"board": "2x3"}, seatings=[["random", "greedy"]], seed=9
)


def by_index(rows):
    return sorted(rows, key=lambda r: r["index"])


def test_same_seed_same_rows_serial_and_two_processes():
    jobs = [SPEC.job(k) for k in range(40)]
    serial = by_index(run_jobs(jobs, "serial"))
    assert by_index(run_jobs(jobs, "process", workers=2)) == serial
    assert len({r["seed"] for r in serial}) == 40


def test_same_rows_on_a_local_ray_instance():
    """Ray comes with the dev extras, so this runs (never skips) under `make test`."""
    jobs = [SPEC.job(k) for k in range(24)]
    assert by_index(run_jobs(jobs, "ray", workers=2)) == by_index(run_jobs(jobs, "serial"))


def test_an_interrupted_run_resumes_without_losing_or_repeating_games(tmp_path):
    store = ResultStore(f"sqlite:///{tmp_path / 'r.db'}")
    seen = []

    def stop_after_15(row):
        seen.append(row["index"])
        if len(seen) == 15:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        execute(SPEC, 50, store, on_row=stop_after_15)
    assert len(store.rows(SPEC.key)) == 15  # the finished games were kept
    played = []
    rows = execute(SPEC, 50, store, on_row=lambda r: played.append(r["index"]))
    assert len(rows) == 50 and [r["index"] for r in rows] == list(range(50))
    assert sorted(played) == list(range(50))  # 15 reported from the store, 35 played
    fresh = execute(SPEC, 50, ResultStore(f"sqlite:///{tmp_path / 'other.db'}"))
    assert rows == fresh  # resuming gives exactly the rows of an uninterrupted run
    more = execute(SPEC, 60, store)  # asking for more games extends the run
    assert len(more) == 60 and more[:50] == rows


def test_run_keys_name_what_is_played():
    assert SPEC.key == RunSpec(**SPEC.model_dump()).key
    assert SPEC.key != SPEC.model_copy(update={"seed": 10}).key
    assert SPEC.key != SPEC.model_copy(update={"options": {}}).key


def row(winners, first=0, length=10, returns=None, decided=None, leads=None, margin=None):
    return {
        "winners": winners,
        "first_player": first,
        "length": length,
        "returns": returns
        or ([1.0, -1.0] if winners == [0] else [-1.0, 1.0] if winners else [0, 0]),
        "seats": ["a", "b"],
        "branching": 4.0,
        "decided_at": decided,
        "lead_changes": leads,
        "margin": margin,
    }


def test_a_shared_win_counts_the_first_player_its_share():
    """Three seats, every game won by seats 0 and 1 together, seat 0 first: the first player
    scores half of each game, not all of it (its fair value is a third)."""
    shared = {**row([0, 1]), "returns": [1.0, 1.0, -1.0], "seats": ["a", "b", "c"]}
    s = summarize([shared] * 10)
    assert s.first_player.rate == pytest.approx(0.5)
    assert s.first_player_advantage == pytest.approx(0.5 - 1 / 3)


def test_metrics_follow_their_definitions():
    rows = [row([0], first=0, decided=0.5, leads=2, margin=3)] * 6
    rows += [row([1], first=0, decided=0.25, leads=0, margin=1)] * 2
    rows += [row([], first=1, length=20)] * 2
    s = summarize(rows)
    assert s.games == 10 and s.seats[0].wins == 6 and s.seats[1].wins == 2
    assert s.drawishness == 0.2 and s.draws.count == 2
    # seat score rates: 0.6 + 0.1 = 0.7 and 0.2 + 0.1 = 0.3 -> balance 1 - 0.4
    assert s.balance == pytest.approx(0.6)
    # first player: won 6 of its 8 games as seat 0, drew 2 as seat 1 -> (6 + 1) / 10
    assert s.first_player.rate == pytest.approx(0.7)
    assert s.first_player_advantage == pytest.approx(0.2)
    assert s.duration == 12 and s.length.max == 20
    assert s.decisiveness == pytest.approx((6 * 0.5 + 2 * 0.25) / 8)
    assert s.lead_changes == pytest.approx(12 / 8) and s.margin.mean == pytest.approx(2.5)
    assert s.branching_factor == 4.0


def test_lead_story_counts_changes_and_when_the_winner_led_for_good():
    assert _lead_story([0, None, 1, 1, 0, 0], final=0) == (2, 4 / 6)
    assert _lead_story([None, None], final=None) == (None, None)
    assert _lead_story([1, 1, 1], final=1) == (0, 0.0)


def test_bradley_terry_orders_agents_and_gives_intervals():
    results = [("strong", "weak", 1.0)] * 40 + [("strong", "weak", 0.0)] * 10
    results += [("mid", "weak", 1.0)] * 30 + [("mid", "weak", 0.0)] * 20
    results += [("strong", "mid", 1.0)] * 30 + [("strong", "mid", 0.0)] * 20
    ratings = bradley_terry(results)
    assert [r.agent for r in ratings] == ["strong", "mid", "weak"]
    assert all(r.low < r.elo < r.high for r in ratings)
    assert sum(r.elo for r in ratings) / 3 == pytest.approx(1500)
    even = bradley_terry([("a", "b", 1.0), ("a", "b", 0.0)] * 20)
    assert even[0].elo == pytest.approx(1500, abs=1e-3)


def test_bradley_terry_stays_finite_when_one_agent_always_wins():
    ratings = bradley_terry([("a", "b", 1.0)] * 30)
    assert ratings[0].agent == "a" and ratings[0].elo - ratings[1].elo < 1500


def test_round_robin_rotates_seats_and_reads_results():
    seatings = round_robin_seatings(["x", "y"], players=2)
    assert seatings == [["x", "y"], ["y", "x"]]
    four = round_robin_seatings(["x", "y", "z"], players=4)
    assert len(four) == 3 * 2 * 4 and ["y", "x", "y", "y"] in four
    assert four[:3] == [["x", "y", "y", "y"], ["x", "z", "z", "z"], ["y", "z", "z", "z"]]
    rows = [{"seats": ["x", "y"], "winners": [0]}, {"seats": ["y", "x"], "winners": []}]
    assert pairwise_results(rows) == [("x", "y", 1.0), ("y", "x", 0.5)]
    three = [{"seats": ["y", "x", "y"], "winners": [1]}]
    assert pairwise_results(three) == [("x", "y", 1.0)]
    # A win shared between the two agents' seats is a draw between them; a lone win of B's, a loss.
    shared = [
        {"seats": ["y", "x", "y"], "winners": [0, 1]},
        {"seats": ["x", "y", "y"], "winners": [2]},
    ]
    assert pairwise_results(shared) == [("x", "y", 0.5), ("x", "y", 0.0)]
    with pytest.raises(ValueError, match="once"):
        round_robin_seatings(["x", "x"], 2)


# -- the commands -----------------------------------------------------------------------------
@pytest.fixture
def lab(tmp_path):
    runner = CliRunner()
    db = f"sqlite:///{tmp_path / 'lab.db'}"

    def invoke(*args):
        out = [] if args[0] == "results" else ["--out", str(tmp_path / "out")]
        return runner.invoke(app, [*args, "--db", db, *out])

    invoke.tmp = tmp_path
    return invoke


def assert_defines_its_figures(report: str) -> None:
    """A report ends with what its figures mean (the lab's metrics page, docs/metrics.md):
    it had sent its reader to docs/lab.md, a file of a checkout that a report sent on, or
    written by meeple installed from a wheel, has no way to."""
    page = (ROOT / "docs" / "metrics.md").read_text(encoding="utf-8")
    table = page[page.index("| metric | definition |") : page.index("\n\n## Reading")]
    section = report[report.index("\n## What the figures mean\n") :]
    assert table in section and "\n### Reading the intervals\n" in section
    assert "docs/lab.md" not in report


def test_simulate_prints_the_metrics_and_writes_rows_db_and_report(lab):
    result = lab("simulate", "edges", "--board", "2x2", "--games", "30", "--seat", "greedy",
                 "--seat", "random", "--seed", "4")  # fmt: skip
    assert result.exit_code == 0, result.output
    for text in ("seat 0 (greedy) wins", "first player", "branching factor", "lead changes"):
        assert text in result.output
    out = lab.tmp / "out"
    [jsonl] = out.glob("edges-*.jsonl")
    rows = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert len(rows) == 30 and rows[0]["options"] == {"board": "2x2"}
    report = next(out.glob("edges-*/report.md")).read_text()
    assert "![wins](wins.png)" in report and (jsonl.with_suffix("") / "wins.png").exists()
    assert_defines_its_figures(report)
    listed = lab("results")
    assert "simulate" in listed.output and "board=2x2" in listed.output


def test_compare_shows_variants_side_by_side(lab):
    result = lab("compare", "edges", "--variant", "board=2x2", "--variant", "board=2x2,pie=false",
                 "--games", "20")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "board=2x2,pie=false" in result.output
    folder = next((lab.tmp / "out").glob("compare-edges-*"))
    assert (folder / "metrics.png").exists()
    assert_defines_its_figures((folder / "report.md").read_text())


def test_tournament_rates_the_agents(lab):
    result = lab("tournament", "edges", "--board", "2x2", "--agent", "random", "--agent",
                 "greedy", "--games", "16")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Elo" in result.output and "greedy" in result.output
    assert next((lab.tmp / "out").glob("tournament-edges-*/ratings.png")).exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "edges", "--seat", "human"], "no human seats"),
        (["simulate", "edges", "--bord", "2"], "unknown option '--bord' (did you mean '--board'?)"),
        (["compare", "edges", "--variant", "pie=false"], "at least two different variants"),
        (["compare", "edges", "--variant", "pie=no", "--variant", "pie=false"], "same rules"),
        (["compare", "edges", "--variant", "pie=maybe", "--variant", "pie=false"], "'maybe'"),
        (["compare", "edges", "--variant", "pie=1", "--variant", "pie=1"], "two different"),
        (["compare", "edges", "--variant", "x"], "option=value pairs"),
        (["compare", "edges", "--variant", "a:pie=1", "--variant", "b: pie=0"], "'a: pie=1'"),
        (["compare", "edges", "--variant", "x", "--variant", "y"], "option=value pairs"),
        (["tournament", "edges", "--agent", "random", "--agent", "random"], "once"),
        (["simulate", "edges", "--backend", "gpu"], "unknown backend 'gpu'"),
        (["simulate", "edges", "--seed", "-1"], "'--seed'"),
        (["tournament", "edges", "--agent", "random", "--agent", "greedy", "--seed", "-3"], "seed"),
    ],
)
def test_lab_commands_reject_bad_input_clearly(lab, args, message):
    result = lab(*args)
    assert result.exit_code == 2 and message in result.output, result.output


def test_every_seat_is_checked_before_any_agent_is_made(lab, tmp_path, monkeypatch):
    """Making Erd's solved agent fails where its rules are not solved yet; a typo or a person
    in another seat is answered instead, as the thing to fix first."""
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path / "empty"))
    for seat, message in [("hrad", "(did you mean 'hard'?)"), ("human", "no human seats")]:
        for command in ("simulate --seat exploit --seat", "tournament --agent exploit --agent"):
            words = command.split()
            result = lab(words[0], "erd", *words[1:], seat, "--games", "2")
            assert result.exit_code == 2 and message in result.output, result.output
            assert "not solved" not in result.output


def test_a_level_takes_a_seat_in_the_lab_and_is_stored_as_its_spec(lab):
    """`--seat hard` works in the lab as in `meeple play`; the run records the agent it stood
    for, and a spec written with other spacing or capitals is the same agent."""
    result = lab("simulate", "edges", "--board", "2x2", "--seat", "hard", "--seat", " Random",
                 "--games", "2")  # fmt: skip
    assert result.exit_code == 0, result.output
    [rows] = [p.read_text().splitlines() for p in (lab.tmp / "out").glob("edges-*.jsonl")]
    hard = level_spec(make("edges", board="2x2"), "hard")
    assert {tuple(json.loads(row)["seats"]) for row in rows} == {(hard, "random")}
    result = lab("tournament", "edges", "--board", "2x2", "--agent", "hard", "--agent", hard)
    assert result.exit_code == 2 and f"'hard' and '{hard}' are the same agent" in result.output
    result = lab("tournament", "edges", "--agent", "random", "--agent", "Random")
    assert result.exit_code == 2 and "same agent (random)" in result.output, result.output


@pytest.mark.parametrize("game", ["erd", "edges", "squad-combat", "erosion", "triangle-clock"])
def test_compare_errors_give_an_example_in_the_game_own_options(lab, game):
    """The example that compare's errors suggest is two real, different variants of that game."""
    result = lab("compare", game, "--variant", "x")
    assert result.exit_code == 2, result.output
    example = re.search(r"e\.g\. (\w+)=(\S+)", result.output)
    assert example, result.output
    result = lab("compare", game, "--variant", f"{example[1]}={example[2]}")
    assert result.exit_code == 2, result.output
    pair = re.findall(r"--variant (\w+)=(\S+)", " ".join(result.output.split()))
    assert len(pair) == 2 and pair[0][0] == example[1] == pair[1][0], result.output
    rules = [make(game, **{name: value}).options.changed() for name, value in pair]
    assert rules[0] != rules[1]
