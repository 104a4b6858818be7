"""compare reports each variant's difference from the first, paired game by game on the
shared seeds, with its interval and a verdict in words (issue 59)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from meeple.interfaces.cli import app
from meeple.lab.paired import NO_DIFFERENCE, paired_differences
from meeple.lab.report import SMALL, difference_note, difference_table
from meeple.lab.run import RunSpec
from meeple.lab.simulate import play_job


def rows_of(options, n, seed=5, seats=("greedy", "random"), rotate=False, duplicate=False):
    seatings = [list(seats), list(reversed(seats))] if rotate else [list(seats)]
    spec = RunSpec(kind="simulate", game="edges", options=options, seatings=seatings,
                   seed=seed, duplicate=duplicate)  # fmt: skip
    return [play_job(spec.job(k)) for k in range(n)]


def by_measure(pairing):
    return {d.measure: d for d in pairing.differences}


def test_variants_known_to_differ_get_a_difference_and_its_interval():
    small, large = rows_of({"board": "2x3"}, 40), rows_of({"board": "3x3"}, 40)
    pairing = paired_differences(small, large)
    assert pairing.pairs == 40 and pairing.unpaired == 0
    length = by_measure(pairing)["game length"]
    more = sum(b["length"] - a["length"] for a, b in zip(small, large, strict=True)) / 40
    assert length.value == pytest.approx(more) and length.shown
    assert length.low < more < length.high
    assert length.verdict.startswith(f"games {more:.1f} moves longer, ")
    branching = by_measure(pairing)["branching factor"]
    assert branching.shown and branching.low < branching.value < branching.high
    assert branching.verdict == (
        f"{branching.value:.0f} more legal moves per decision, "
        f"{branching.low:.0f} to {branching.high:.0f}"
    )


def test_identical_variants_show_no_difference():
    one, again = rows_of({"board": "3x3"}, 40), rows_of({"board": "3x3"}, 40)
    pairing = paired_differences(one, again)
    assert pairing.pairs == 40 and len(pairing.differences) >= 8
    for difference in pairing.differences:
        assert difference.verdict.startswith(NO_DIFFERENCE), difference


def test_variants_whose_games_went_move_for_move_alike_are_said_to_be_untested():
    one, again, other = (rows_of({"board": b}, 10) for b in ("2x2", "2x2", "2x3"))
    same, changed = paired_differences(one, again), paired_differences(one, other)
    assert same.same_moves == same.pairs == 10 and changed.same_moves == 0
    note = " ".join(difference_note("a", {"b": same, "c": changed}).split())
    assert "Every paired game of 'b' went move for move as in 'a'" in note
    assert "'c' went" not in note


def game(k, seat0_wins):
    return {"index": k, "seed": 100 + k, "seats": ["a", "b"], "returns": [1, -1],
            "winners": [0] if seat0_wins else [1], "first_player": 0, "length": 10,
            "branching": 3.0, "margin": None}  # fmt: skip


def test_a_seat_favoured_by_a_variant_is_named_with_its_points():
    """Seat 0 wins half the games of the base and 9 in 10 of the variant: 40 points more."""
    base = [game(k, k % 2 == 0) for k in range(60)]
    other = [game(k, k % 10 != 0) for k in range(60)]
    differences = by_measure(paired_differences(base, other))
    seat = differences["seat 0 score rate"]
    assert seat.shown and seat.value == pytest.approx(0.4)
    assert seat.verdict == f"seat 0 favoured by 40 points more, {100 * seat.low:.0f} to " + (
        f"{100 * seat.high:.0f}"
    )
    assert differences["seat 1 score rate"].verdict.startswith("seat 1 favoured by 40 points less")
    assert differences["game length"].verdict == "no difference shown (+0, +0 to +0)"


def test_a_difference_from_few_games_is_flagged_as_a_small_sample_in_the_table():
    """Two games each, every one alike: the length differs by exactly 6 moves in both, an
    interval of width 0 that says nothing; the table flags it as the other tables would."""
    base = [game(k, True) for k in range(2)]
    other = [{**row, "length": 16} for row in base]
    rows = difference_table("base", {"other": paired_differences(base, other)})
    cells = dict(rows)
    assert cells["game length"] == f"games 6.0 moves longer, 6.0 to 6.0  ({SMALL})"
    assert all(cell.endswith(f"({SMALL})") for _, cell in rows)


def test_a_difference_is_flagged_as_a_figure_of_as_many_games_would_be():
    """Sixty games: the length's difference (a mean) is not flagged; seat 0's, 40 points
    more, 23 to 57, is (a difference of shares whose interval is over 30 points wide, as a
    rate's would be)."""
    base = [game(k, k % 2 == 0) for k in range(60)]
    other = [{**game(k, k % 10 != 0), "length": 10 + k % 3} for k in range(60)]
    rows = dict(difference_table("base", {"other": paired_differences(base, other)}))
    assert rows["game length"] == "games 1.0 moves longer, 0.8 to 1.2"
    assert rows["seat 0 score rate"] == f"seat 0 favoured by 40 points more, 23 to 57  ({SMALL})"


def test_a_measure_some_pairs_lack_says_how_many_it_rests_on():
    """The score margin of the few games that have one: a terminal newcomer read "no
    difference shown (+0, +0 to +0) (small sample)" for the decisive moment beside means of
    0.58 and 0.56, the difference resting on the 26 of 40 pairs whose games both had one."""
    base = [{**game(k, True), "margin": 2 if k < 12 else None} for k in range(60)]
    other = [{**row, "margin": 3 if row["margin"] is not None else None} for row in base]
    rows = dict(difference_table("base", {"other": paired_differences(base, other)}))
    assert rows["score margin"] == (
        f"score margin 1.0 wider, 1.0 to 1.0 (from 12 of the 60 pairs)  ({SMALL})"
    )
    assert "pairs)" not in rows["game length"]  # every pair has a length


def test_only_games_played_from_the_same_seed_are_paired():
    base = rows_of({"board": "3x3"}, 30)
    other_seed = rows_of({"board": "3x3"}, 30, seed=6)
    pairing = paired_differences(base, other_seed)
    assert pairing.pairs == 0 and pairing.unpaired == 60 and pairing.differences == []
    fewer = paired_differences(base, base[:20])
    assert fewer.pairs == 20 and fewer.unpaired == 10


def test_duplicate_deals_are_the_units_of_the_interval():
    base = rows_of({"board": "2x3"}, 40, rotate=True, duplicate=True)
    other = rows_of({"board": "3x3"}, 40, rotate=True, duplicate=True)
    length = by_measure(paired_differences(base, other))["game length"]
    assert (length.pairs, length.units) == (40, 20)


def test_compare_plays_every_variant_from_the_same_seeds_and_prints_the_differences(tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(app, [
        "compare", "edges", "--variant", "board=2x3", "--variant", "board=3x3", "--games", "30",
        "--seat", "greedy", "--seat", "random", "--db", f"sqlite:///{tmp_path / 'r.db'}",
        "--out", str(out),
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Differences from board=2x3" in text and "moves longer" in text
    assert "paired game by game" in text and "(30 games)" in text
    seeds = [[json.loads(line)["seed"] for line in path.read_text().splitlines()]
             for path in sorted(out.glob("edges-*.jsonl"))]  # fmt: skip
    assert len(seeds) == 2 and seeds[0] == seeds[1] and len(set(seeds[0])) == 30
    report = next(out.glob("compare-edges-*/report.md")).read_text()
    assert "## Differences from board=2x3" in report and "| board=3x3 - board=2x3 |" in report


def test_a_difference_of_shares_stays_within_100_points_either_way():
    """Two games: seat 0 lost both of the base's and won one of the variant's. The t interval
    of two values is many times wider than the difference of two shares can be."""
    base = [game(k, False) for k in range(2)]
    other = [game(0, True), game(1, False)]
    differences = by_measure(paired_differences(base, other))
    for measure in ("seat 0 score rate", "seat 1 score rate", "first player's score rate"):
        seat = differences[measure]
        assert (seat.low, seat.high) == (-1.0, 1.0), seat  # the t interval: about ±6.4
    assert differences["seat 0 score rate"].verdict == "no difference shown (+50, -100 to +100)"


def test_variants_that_seat_other_numbers_of_players_are_said_not_to_pair(tmp_path):
    """Erosion for two and for three: no game pairs, so no column of blank differences and no
    'paired ... (0 games)'; the variant that does pair keeps its column."""
    out = tmp_path / "out"
    result = CliRunner().invoke(app, [
        "compare", "erosion", "--variant", "players=2", "--variant", "players=3",
        "--variant", "players=2,advanced=true", "--games", "6", "--seat", "random",
        "--db", f"sqlite:///{tmp_path / 'r.db'}", "--out", str(out),
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    said = (
        "No game of 'players=3' pairs with one of 'players=2' (the same index, seed and "
        "seating), so no difference is shown for it"
    )
    assert said in text and "(0 games)" not in text
    assert "players=2,advanced=true - players=2" in text and "players=3 - players=2" not in text
    report = next(out.glob("compare-erosion-*/report.md")).read_text()
    assert "| measure | players=2,advanced=true - players=2 |" in report
    assert "players=3 - players=2" not in report and said in " ".join(report.split())
    alone = difference_note("a", {"b": paired_differences(rows_of({}, 3), rows_of({}, 3, 9))})
    assert alone.startswith("No game of 'b' pairs with one of 'a'")
    both = paired_differences(rows_of({}, 3), rows_of({}, 3, 9))
    two = difference_note("a", {"b": both, "c": both})
    assert two.startswith("No game of 'b', 'c' pairs with one of 'a'") and "shown for them" in two
    assert "paired game by" not in alone
