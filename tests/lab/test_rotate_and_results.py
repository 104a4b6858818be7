"""Rotated seats, and runs reopened by `meeple results` (issue 32.19)."""

from __future__ import annotations

import csv
import json
import re
import sqlite3
import sys
from collections import Counter

import pytest
from typer.testing import CliRunner

from meeple.interfaces import console as console_module
from meeple.interfaces import lab_cli
from meeple.interfaces.cli import app
from meeple.lab.metrics import agent_results, summarize
from meeple.lab.report import summary_rows
from meeple.lab.run import RunSpec, execute, rotations
from meeple.lab.stats import score_interval
from meeple.store import ResultStore
from meeple.store.db import StoreError


def test_rotations_put_every_agent_in_every_seat_once():
    seatings = rotations(["a", "b", "c"])
    assert seatings == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    for seat in range(3):
        assert sorted(s[seat] for s in seatings) == ["a", "b", "c"]


@pytest.fixture
def lab(tmp_path, monkeypatch):
    runner = CliRunner()
    db = f"sqlite:///{tmp_path / 'lab.db'}"

    def invoke(*args):
        out = [] if args[0] == "results" else ["--out", str(tmp_path / "out")]
        argv = [*args, "--db", db, *out]
        monkeypatch.setattr(sys, "argv", ["meeple", *argv])  # the command line a run notes
        return runner.invoke(app, argv)

    invoke.tmp = tmp_path
    invoke.db = db
    return invoke


SIM = ("simulate", "edges", "--board", "2x2", "--seat", "greedy", "--seat", "random")


def _jsonl_rows(lab):
    import json

    [path] = (lab.tmp / "out").glob("edges-*.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_rotate_seats_sits_every_agent_in_every_seat_equally(lab):
    result = lab(*SIM, "--games", "10", "--rotate-seats")
    assert result.exit_code == 0, result.output
    assert "seats rotated" in result.output
    seats = Counter((k, row["seats"][k]) for row in _jsonl_rows(lab) for k in range(2))
    assert seats == {(0, "greedy"): 5, (0, "random"): 5, (1, "greedy"): 5, (1, "random"): 5}


def test_rotate_seats_refuses_games_that_cannot_be_spread_evenly(lab):
    result = lab(*SIM, "--games", "7", "--rotate-seats")
    assert result.exit_code == 2
    assert "multiple of 2" in result.output and "Traceback" not in result.output


def test_results_lists_each_runs_command_date_and_report(lab):
    assert lab(*SIM, "--games", "6").exit_code == 0
    listed = lab("results")
    assert listed.exit_code == 0, listed.output
    key = _key(lab)
    [command] = [line for line in listed.output.splitlines() if "last run by:" in line]
    assert command.split("last run by: ")[1].startswith("meeple simulate edges --board 2x2")
    assert f"{key}  simulate edges board=2x2, seed 0: 6 games, last run 20" in listed.output
    [report] = [line for line in listed.output.splitlines() if "report:" in line]
    assert report.endswith(f"edges-{key}/report.md")


def _key(lab) -> str:
    [run] = ResultStore(lab.db).runs()
    return run["key"]


def test_results_run_shows_the_run_again_and_exports_csv(lab):
    assert lab(*SIM, "--games", "8", "--seed", "3").exit_code == 0
    key = _key(lab)
    shown = lab("results", key[:5], "--csv", str(lab.tmp / "games.csv"))
    assert shown.exit_code == 0, shown.output
    assert f"Run {key}" in shown.output and "8 games stored" in shown.output
    assert "seat 0 (greedy) wins" in shown.output and "Report " in shown.output
    assert "Last run by: meeple simulate edges --board 2x2" in shown.output
    assert "meeple simulate edges" in shown.output
    with open(lab.tmp / "games.csv", newline="") as fh:
        lines = list(csv.DictReader(fh))
    rows = _jsonl_rows(lab)
    assert [int(line["index"]) for line in lines] == [row["index"] for row in rows]
    assert [line["seat_0"] for line in lines] == ["greedy"] * 8
    assert [int(line["length"]) for line in lines] == [row["length"] for row in rows]
    assert [line["winners"] for line in lines] == [
        " ".join(map(str, row["winners"])) for row in rows
    ]


def test_results_run_says_when_the_report_is_gone(lab):
    assert lab(*SIM, "--games", "4").exit_code == 0
    for path in (lab.tmp / "out").glob("edges-*/report.md"):
        path.unlink()
    shown = lab("results", _key(lab))
    assert shown.exit_code == 0 and "is gone" in shown.output


def test_results_of_a_tournament_shows_its_ratings(lab):
    made = lab("tournament", "edges", "--board", "2x2", "--agent", "random", "--agent",
               "greedy", "--games", "4")  # fmt: skip
    assert made.exit_code == 0, made.output
    shown = lab("results", _key(lab))
    assert shown.exit_code == 0 and "Elo" in shown.output and "greedy" in shown.output


@pytest.mark.parametrize(
    ("args", "says"),
    [(("results", "ffffff"), "no run 'ffffff'"), (("results", "--csv", "x.csv"), "one run")],
)
def test_results_bad_requests_are_one_line(lab, args, says):
    result = lab(*args)
    assert result.exit_code == 2 and says in result.output and "Traceback" not in result.output


def test_results_where_no_run_was_ever_stored_says_so_and_creates_nothing(tmp_path):
    db = tmp_path / "none" / "meeple.db"
    listed = CliRunner().invoke(app, ["results", "--db", f"sqlite:///{db}"])
    assert listed.exit_code == 0 and "No runs yet" in listed.output, listed.output
    shown = CliRunner().invoke(app, ["results", "abc", "--db", f"sqlite:///{db}"])
    assert shown.exit_code == 2 and "no results database" in shown.output, shown.output
    assert not db.parent.exists()


def test_a_run_key_prefix_must_name_one_run(tmp_path):
    store = ResultStore(f"sqlite:///{tmp_path / 'r.db'}")
    for key in ("abc111", "abc222"):
        store.ensure_run(key, "simulate", "edges", {"seatings": [["a", "b"]], "options": {},
                                                    "seed": 0})  # fmt: skip
    assert store.find_run("abc1")["key"] == "abc111"
    with pytest.raises(StoreError, match="could be any of abc111, abc222"):
        store.find_run("abc")


def test_a_database_from_before_run_notes_opens_and_lists(tmp_path, lab):
    db = tmp_path / "old.db"
    spec = {"kind": "simulate", "game": "edges", "seatings": [["random", "random"]],
            "options": {}, "seed": 4}  # fmt: skip
    key = RunSpec.stored(spec).key  # a run's key is a hash of its spec: `results` checks it
    with sqlite3.connect(db) as conn:  # the schema as it was before run_notes existed
        conn.execute(
            "CREATE TABLE runs (key VARCHAR(40) PRIMARY KEY, kind VARCHAR(20), "
            "game VARCHAR(40), spec JSON, created DATETIME)"
        )
        conn.execute(
            'CREATE TABLE games (run_key VARCHAR(40), "index" INTEGER, seed BIGINT, '
            'length INTEGER, data JSON, PRIMARY KEY (run_key, "index"))'
        )
        conn.execute(
            "INSERT INTO runs VALUES (?, 'simulate', 'edges', ?, '2026-01-02 03:04:05')",
            (key, json.dumps(spec)),
        )
    listed = CliRunner().invoke(app, ["results", "--db", f"sqlite:///{db}"])
    assert listed.exit_code == 0, listed.output
    assert key in listed.output and "(not recorded)" in listed.output
    assert "2026-01-02 03:04 UTC" in listed.output


def _game(seats, winners, seed=None):
    # Each game a deal of its own unless told: a seed no other game has.
    return {"seats": seats, "winners": winners, "seed": object() if seed is None else seed}


def test_agent_results_count_each_agent_whichever_seat_it_held():
    rows = [
        _game(["a", "b"], [0]),  # a wins from seat 0
        _game(["b", "a"], [1]),  # a wins from seat 1
        _game(["a", "b"], []),  # a draw
        _game(["b", "a"], [0]),  # b wins from seat 0
    ]
    a, b = agent_results(rows)
    assert (a.agent, a.wins, a.draws, a.losses) == ("a", 2, 1, 1)
    assert (b.agent, b.wins, b.draws, b.losses) == ("b", 1, 1, 2)
    assert a.score.rate == 2.5 / 4 and b.score.rate == 1.5 / 4
    assert (a.score.low, a.score.high) == score_interval(2, 1, 1)
    # Not two agents, two seats: nothing to compare.
    assert agent_results([_game(["a", "a"], [0])]) == []
    assert agent_results([_game(["a", "b", "c"], [0])]) == []
    assert agent_results([_game(["a", "b"], [0]), _game(["a", "c"], [1])]) == []
    # Games sharing a seed are one deal, and the interval is taken over the deals.
    from meeple.lab.stats import deal_score_interval

    dealt = [
        _game(["a", "b"], [0], seed=1),  # a wins deal 1 from seat 0...
        _game(["b", "a"], [0], seed=1),  # ...and loses it from seat 1
        _game(["a", "b"], [0], seed=2),
        _game(["b", "a"], [1], seed=2),  # a wins deal 2 from both seats
    ]
    a, _ = agent_results(dealt)
    assert (a.wins, a.losses, a.deals) == (3, 1, 2) and b.deals is None
    assert (a.score.low, a.score.high) == deal_score_interval([[1.0, 0.0], [1.0, 1.0]])
    # The tally, what a later batch pools with: one deal split, one won in both seatings.
    assert a.deal_tally == [(1.0, 1), (0.5, 1)]


def test_results_of_a_rotated_run_score_each_agent(lab, monkeypatch):
    assert lab(*SIM, "--games", "10", "--rotate-seats").exit_code == 0
    rows = _jsonl_rows(lab)
    greedy_wins = sum(1 for r in rows if r["winners"] == [r["seats"].index("greedy")])
    monkeypatch.setattr(lab_cli.console, "_width", 160)  # table cells on one line each
    shown = lab("results", _key(lab))
    assert shown.exit_code == 0, shown.output
    summary = summarize(rows)
    [greedy] = [r for r in summary.agents if r.agent == "greedy"]
    assert greedy.wins == greedy_wins
    assert "either seat" in shown.output
    assert f"({greedy.wins} W / {greedy.draws} D / {greedy.losses} L)" in shown.output


def test_a_run_that_kept_its_seats_needs_no_agent_lines(lab):
    assert lab(*SIM, "--games", "4").exit_code == 0
    assert summarize(_jsonl_rows(lab)).agents == []
    assert "either seat" not in lab("results", _key(lab)).output


def test_results_of_a_ladder_rung_name_both_agents_and_how_to_go_on(lab, monkeypatch):
    store = ResultStore(lab.db)
    seatings = [["greedy", "random"], ["random", "greedy"]]
    spec = RunSpec(kind="ladder", game="edges", options={"board": "2x2"}, seatings=seatings)
    execute(spec, 2, store)
    monkeypatch.setattr(lab_cli.console, "_width", 160)
    shown = lab("results", spec.key)
    assert shown.exit_code == 0, shown.output
    assert "greedy vs random, seats rotated (2 seatings)" in shown.output
    assert "greedy, either seat: score rate" in shown.output
    assert "A ladder writes no report" in shown.output


def test_a_duplicate_run_plays_each_deal_once_in_every_seating():
    seatings = rotations(["a", "b", "c"])
    spec = RunSpec(kind="simulate", game="erosion", seatings=seatings, seed=4, duplicate=True)
    jobs = [spec.job(k) for k in range(9)]
    for deal in range(3):
        three = jobs[3 * deal : 3 * deal + 3]
        assert len({j.seed for j in three}) == 1  # one deal...
        assert [j.seats for j in three] == seatings  # ...in every seating
    assert len({j.seed for j in jobs}) == 3
    # Deal k is game k of a run without the option: the same seeds, grouped.
    plain = spec.model_copy(update={"duplicate": False})
    assert [jobs[3 * k].seed for k in range(3)] == [plain.job(k).seed for k in range(3)]
    # It is a different run, and runs from before the option keep their keys.
    assert spec.key != plain.key
    old = RunSpec(
        kind="simulate",
        game="edges",
        options={"board": "2x2"},
        seatings=[["random", "greedy"], ["greedy", "random"]],
        seed=4,
    )
    assert old.key == "b1885d4b83cb"  # computed before the option existed


def test_a_deal_interval_is_the_games_interval_when_deals_are_single_games():
    from meeple.lab.stats import deal_score_interval

    scores = [1.0] * 6 + [0.5] * 2 + [0.0] * 4
    assert deal_score_interval([[s] for s in scores]) == pytest.approx(score_interval(6, 2, 4))
    # Deals that each split their two games tell the agents apart less than the same games
    # as independent ones would suggest; deals won twice over tell them apart more.
    split = [[1.0, 0.0]] * 10 + [[1.0, 1.0]] * 2
    low, high = deal_score_interval(split)
    games_low, games_high = score_interval(14, 0, 10)
    assert high - low < games_high - games_low
    assert low < 14 / 24 < high


def test_results_of_a_duplicate_run_are_counted_over_deals(lab, monkeypatch):
    refused = lab(*SIM, "--games", "4", "--duplicate")
    assert refused.exit_code != 0 and "--rotate-seats" in refused.output
    assert lab(*SIM, "--games", "10", "--rotate-seats", "--duplicate").exit_code == 0
    rows = sorted(_jsonl_rows(lab), key=lambda r: r["index"])
    assert [r["seed"] for r in rows[0::2]] == [r["seed"] for r in rows[1::2]]
    assert rows[0]["seats"] == list(reversed(rows[1]["seats"]))
    [greedy] = [r for r in agent_results(rows) if r.agent == "greedy"]
    assert greedy.deals == 5
    monkeypatch.setattr(lab_cli.console, "_width", 200)
    shown = lab("results", _key(lab))
    assert shown.exit_code == 0, shown.output
    assert "5 deals" in shown.output
    tally = ", ".join(f"{mean:g} in {count}" for mean, count in greedy.deal_tally or [])
    assert f"its mean score in a deal: {tally}" in shown.output
    listed = lab("results")
    assert "each deal in every seating" in listed.output


def test_compare_can_rotate_seats_and_duplicate_deals(lab):
    compare = ("compare", "edges", "--board", "2x2", "--seat", "greedy", "--seat", "random")
    variants = ("--variant", "pie=true", "--variant", "pie=false")
    refused = lab(*compare, *variants, "--games", "4", "--duplicate")
    assert refused.exit_code != 0 and "--rotate-seats" in refused.output
    odd = lab(*compare, *variants, "--games", "5", "--rotate-seats")
    assert odd.exit_code != 0 and "multiple of 2" in odd.output
    result = lab(*compare, *variants, "--games", "6", "--rotate-seats", "--duplicate")
    assert result.exit_code == 0, result.output
    assert "seats rotated, deals duplicated" in " ".join(result.output.split())
    files = sorted((lab.tmp / "out").glob("edges-*.jsonl"))
    assert len(files) == 2
    import json

    for path in files:
        rows = sorted(
            (json.loads(line) for line in path.read_text().splitlines()), key=lambda r: r["index"]
        )
        assert [r["seed"] for r in rows[0::2]] == [r["seed"] for r in rows[1::2]]
        assert [r["seats"] for r in rows[:2]] == [["greedy", "random"], ["random", "greedy"]]
        [greedy] = [r for r in agent_results(rows) if r.agent == "greedy"]
        assert greedy.deals == 3 and greedy.opponent == "random"


def test_an_agents_line_of_few_games_is_flagged_as_a_small_sample(lab):
    # As every figure of the lab is (docs/lab.md, Trusting a result): 10 games, under 30.
    assert lab(*SIM, "--games", "10", "--rotate-seats").exit_code == 0
    rows = dict(summary_rows(summarize(_jsonl_rows(lab))))
    line = rows["greedy, either seat: score rate"]
    assert line.endswith("(small sample)"), line


def test_a_run_of_few_games_says_so_once_under_each_table_at_the_terminal(lab, monkeypatch):
    """Under 30 games every figure is a small sample: at the terminal each table says it
    once, under it, not in every cell (at 80 columns the flag took a line of each); the
    report file still flags each figure, and from 30 games each figure is flagged alone."""
    monkeypatch.setattr(console_module.console, "width", 80)
    few = lab(*SIM, "--games", "10")
    assert few.exit_code == 0, few.output
    assert few.output.count("10 games, under 30: every figure is a small sample") == 2
    assert "(small sample)" not in few.output
    [report] = (lab.tmp / "out").glob("edges-*/report.md")
    rows = [line for line in report.read_text().splitlines() if line.startswith("| ")]
    assert sum("(small sample)" in row for row in rows) > 5
    more = lab(*SIM, "--games", "30")
    assert more.exit_code == 0, more.output
    assert "under 30" not in more.output and "(small sample)" in more.output
    one = lab(*SIM, "--games", "1", "--fresh")
    assert one.exit_code == 0, one.output
    assert "1 game, under 30: every figure is a small sample" in one.output


def test_a_command_says_how_many_of_its_games_were_read_back_rather_than_played(lab):
    """A run is keyed by what it plays, not by the code that played it: games read back
    are said, with the way to play them again (a game's author had edited its rules and
    was shown the old games' figures without a word)."""
    first = lab(*SIM, "--games", "4")
    assert first.exit_code == 0, first.output
    assert "read back" not in first.output
    more = " ".join(lab(*SIM, "--games", "6").output.split())
    assert "4 stored games of run " in more and "read back, 2 played now: --fresh plays" in more
    again = " ".join(lab(*SIM, "--games", "6").output.split())
    assert re.search(r"6 stored games of run \w+ read back: --fresh", again), again
    fresh = lab(*SIM, "--games", "6", "--fresh")
    assert fresh.exit_code == 0 and "read back" not in fresh.output


def test_a_csv_leaves_blank_what_the_tables_call_n_a(lab):
    """Erosion scores its eras at the end: its lead changes and decisive moments are n/a in
    the tables (docs/metrics.md), and were exported as 0 and 0.94 a game all the same."""
    erosion = ("simulate", "erosion", "--seat", "random", "--seat", "random", "--games", "3")
    done = lab(*erosion)
    assert done.exit_code == 0, done.output
    assert "lead changes per game │ n/a" in " ".join(done.output.split()), done.output
    assert lab("results", _key(lab)[:6], "--csv", str(lab.tmp / "e.csv")).exit_code == 0
    with open(lab.tmp / "e.csv", newline="") as fh:
        lines = list(csv.DictReader(fh))
    assert len(lines) == 3
    assert {(line["lead_changes"], line["decided_at"]) for line in lines} == {("", "")}
    # Where the lead tells something (Edges scores as it goes), it is exported.
    assert lab(*SIM, "--games", "6").exit_code == 0
    [edges] = [run["key"] for run in ResultStore(lab.db).runs() if run["game"] == "edges"]
    assert lab("results", edges[:6], "--csv", str(lab.tmp / "g.csv")).exit_code == 0
    with open(lab.tmp / "g.csv", newline="") as fh:
        assert any(line["decided_at"] != "" for line in csv.DictReader(fh))
