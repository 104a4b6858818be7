"""How games ended, counted, and a warning when a safety limit decided any (issue 32.10)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import meeple
from meeple.interfaces.cli import app
from meeple.lab.endings import count_endings, safeguard_options
from meeple.lab.metrics import summarize
from meeple.lab.report import summary_rows
from meeple.lab.simulate import GameJob, play_job


def rows_of(game, options, seats, n):
    return [play_job(GameJob(game=game, options=options, seats=seats, run_seed=3, index=k))
            for k in range(n)]  # fmt: skip


def test_games_declare_their_safety_limits():
    assert safeguard_options(meeple.make("erd")) == {"round limit": "--round-limit"}
    assert safeguard_options(meeple.make("squad-combat")) == {"turn limit": "--turn-limit"}
    assert safeguard_options(meeple.make("edges")) == {}


def test_every_game_of_a_match_is_counted_from_the_records():
    """An Erd row is a match; its reason tells of the last game only, so the rows are
    replayed and each game of each match counted (checked against the replayed results)."""
    rows = rows_of("erd", {"round_limit": 2}, ["random", "random"], 12)
    endings = count_endings(rows)
    truth = []
    for r in rows:
        record = meeple.GameRecord(
            game="erd", options=r["options"], seed=r["seed"], moves=r["moves"]
        )
        truth += [g["reason_text"] for g in record.replay().result["games"]]
    assert endings.per_match and endings.games == len(truth) > len(rows)
    assert endings.counts == {w: truth.count(w) for w in set(truth)}
    limited = truth.count("draw by round limit")
    assert limited > 0 and endings.safeguard == {"draw by round limit": limited}
    assert endings.limits == ["--round-limit"]
    assert f"ended {limited} of {len(truth)} games of the matches" in endings.warning()


def test_games_the_rules_decided_in_the_limit_s_last_round_are_counted_and_warned_of():
    """A search that sees the round limit's draw coming may wait to strike until its last
    round (Erd's hard agent did, for 199 rounds): such games ended by the rules, yet the
    limit shaped them. They are counted apart from those the limit drew, and warned of."""
    rows = rows_of("erd", {"round_limit": 2}, ["random", "random"], 12)
    decided = 0
    for r in rows:
        record = meeple.GameRecord(
            game="erd", options=r["options"], seed=r["seed"], moves=r["moves"]
        )
        games = record.replay().result["games"]
        decided += sum(g["rounds"] == 2 and g["reason"] != "round_limit" for g in games)
    endings = count_endings(rows)
    assert decided > 0 and endings.at_limit == decided
    assert f"{decided} of {endings.games} games of the matches were decided in the last round" in (
        endings.warning()
    )
    shown = dict(summary_rows(summarize(rows)))
    assert (
        shown["decided in a safety limit's last round"] == f"{decided} of {endings.games} (WARNING)"
    )
    # A match whose games all end before the limit's last round has none.
    assert count_endings(rows_of("erd", {}, ["random", "random"], 4)).at_limit == 0


def test_a_run_decided_by_a_turn_limit_warns_and_a_normal_one_does_not():
    limited = summarize(rows_of("squad-combat", {"turn_limit": 3}, ["random", "random"], 4))
    assert limited.endings.counts == {"turn limit of 3 reached (safeguard)": 4}
    assert "--turn-limit" in limited.endings.warning()
    shown = dict(summary_rows(limited))
    assert shown["ended by a safety limit"] == "4 of 4 (WARNING)"
    assert limited.endings.at_limit == 0  # each lasted to the limit, and the limit ended it
    assert "decided in a safety limit's last round" not in shown
    normal = summarize(rows_of("edges", {"board": "2x2"}, ["random", "random"], 6))
    assert normal.endings.counts == {"all pyramids are placed": 6}
    assert normal.endings.warning() is None
    shown = dict(summary_rows(normal))
    assert shown["how games ended"] == "all pyramids are placed 6 (100%)"
    assert shown["ended by a safety limit"] == "none"


def test_seat_names_do_not_split_one_way_of_ending_into_several():
    rows = rows_of("erosion", {}, ["random", "random"], 12)
    names = [meeple.make("erosion").seat_name(p) for p in range(2)]
    endings = count_endings(rows)
    assert sum(endings.counts.values()) == 12
    assert not any(name in words for words in endings.counts for name in names)


@pytest.fixture
def lab(tmp_path):
    def invoke(*args):
        where = ["--db", f"sqlite:///{tmp_path / 'r.db'}", "--out", str(tmp_path / "out")]
        result = CliRunner().invoke(app, [*args, *where])
        assert result.exit_code == 0, result.output
        return " ".join(result.output.split()), tmp_path / "out"

    return invoke


def test_simulate_says_how_games_ended_and_warns_of_the_limit(lab):
    output, out = lab("simulate", "squad-combat", "--turn-limit", "3", "--games", "3")
    assert "how games ended" in output and "turn limit of 3 reached" in output
    assert "Warning: a safety limit, not the rules, ended 3 of 3 games" in output
    report = next(out.glob("squad-combat-*/report.md")).read_text()
    assert "> **Warning**: a safety limit" in report and "| how games ended |" in report


def test_compare_and_tournament_warn_too(lab):
    output, out = lab("compare", "squad-combat", "--variant", "turn_limit=3",
                      "--variant", "turn_limit=4", "--games", "2")  # fmt: skip
    assert "Warning: turn_limit=3: a safety limit" in output
    assert "Warning: turn_limit=4: a safety limit" in output
    output, out = lab("tournament", "squad-combat", "--turn-limit", "3", "--agent", "random",
                      "--agent", "random:seed=1", "--games", "2")  # fmt: skip
    assert "How games ended: turn limit of 3 reached (safeguard) 2 (100%)" in output
    assert "Warning: a safety limit, not the rules, ended 2 of 2 games" in output
    report = next(out.glob("tournament-squad-combat-*/report.md")).read_text()
    assert "> **Warning**: a safety limit" in report and "How games ended" in report
