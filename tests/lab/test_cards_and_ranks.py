"""The levers of a card-game designer (issue 59, item 6): per-card statistics of a run
(`meeple cards`) and the rank frequencies of a ranking table (`meeple ranking`)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from matplotlib.colors import to_hex

from meeple.core.registry import make
from meeple.games.triangle_clock.__main__ import main
from meeple.games.triangle_clock.hands import random_play_frequencies, ranking
from meeple.interfaces import console as console_module
from meeple.lab.cards import Difference, _rate, card_figure, card_report, card_table
from meeple.lab.metrics import SMALL_FLAG, Rate
from meeple.lab.ranks import rank_frequencies
from meeple.lab.run import RunSpec, execute
from meeple.store import ResultStore

TABLE = Path(__file__).resolve().parents[2] / "src/meeple/games/triangle_clock/ranking.toml"


def _run(tmp_path, game: str, games: int = 4):
    url = f"sqlite:///{tmp_path / 'lab.db'}"
    spec = RunSpec(kind="simulate", game=game, seatings=[["random", "random"]], seed=2)
    return spec, [dict(r) for r in execute(spec, games, ResultStore(url))], url


def test_squad_combat_cards_are_counted_from_the_moves_by_seat_and_by_outcome(tmp_path):
    _, rows, _ = _run(tmp_path, "squad-combat")
    report = card_report(rows)
    game = make("squad-combat")
    assert report.seats == [f"{game.seat_name(p)} ({game.seat_role(p)})" for p in (0, 1)]
    stats = {s.card: s for s in report.cards}
    assert set(stats) == set(game.card_names())
    # Counted by hand from the moves' notation, `play CARD by a`.
    for card, s in stats.items():
        by_seat = [0, 0]
        won = pairs = 0
        for row in rows:
            mine = [0, 0]
            for player, text in row["moves"]:
                if re.fullmatch(rf"play {re.escape(card)} by [a-c]", text):
                    mine[player] += 1
            by_seat = [a + b for a, b in zip(by_seat, mine, strict=True)]
            for seat in (0, 1):
                if mine[seat]:
                    pairs += 1
                    won += seat in row["winners"]
        assert s.by_seat == by_seat, card
        assert s.plays == sum(by_seat)
        assert (s.won_when_played.count, s.won_when_played.total) == (won, pairs)
        assert s.per_game.value == pytest.approx(sum(by_seat) / len(rows))
        assert s.per_game.low >= 0
    assert report.never_played == [c for c, s in stats.items() if s.plays == 0]
    plays = [s.plays for s in report.cards]
    assert plays == sorted(plays, reverse=True)


def test_triangle_clock_items_are_its_cards(tmp_path):
    _, rows, _ = _run(tmp_path, "triangle-clock")
    stats = {s.card: s for s in card_report(rows).cards}
    assert set(stats) == {"palette-swap", "right-angle", "mulligan"}
    text = [t for row in rows for _, t in row["moves"]]
    assert stats["palette-swap"].plays == sum("+palette-swap" in t for t in text)
    assert stats["mulligan"].plays == text.count("mulligan")


def test_erosion_counts_processes_played_from_the_hand(tmp_path):
    _, rows, _ = _run(tmp_path, "erosion")
    report = card_report(rows)
    stats = {s.card: s for s in report.cards}
    game = make("erosion")
    assert len(game.card_names()) == 24 and set(stats) == set(game.card_names())
    # Counted by hand from the shipped card file and the moves' notation, `weather WX12 on 1`.
    shipped = Path(__file__).resolve().parents[2] / "src/meeple/games/erosion/cards.json"
    process = {
        c["id"]: c["process"]["name"]
        for c in json.loads(shipped.read_text())["cards"]
        if c.get("process")
    }
    plays: dict[str, list[int]] = {name: [0, 0] for name in stats}
    for row in rows:
        for player, text in row["moves"]:
            verb, *rest = text.split()
            if verb in ("weather", "hillslope", "fluvial"):
                plays[process[rest[0]]][player] += 1
    assert sum(map(sum, plays.values())) > 0
    assert {name: s.by_seat for name, s in stats.items()} == plays


def test_newcombes_interval_of_a_difference_of_rates():
    # Newcombe (1998), Statistics in Medicine 17, 873-890, table II, example (a): 56/70 - 48/80.
    d = Difference.of(Rate.of(56, 70), Rate.of(48, 80))
    assert d is not None
    assert (d.value, round(d.low, 4), round(d.high, 4)) == (pytest.approx(0.2), 0.0524, 0.3339)
    assert d.words() == "won 20.0 points more often (+5.2 to +33.4 points)"
    assert Difference.of(Rate.of(5, 10), Rate.of(4, 10)).words().startswith("no difference shown")
    assert Difference.of(Rate.of(1, 2), Rate.of(0, 0)) is None


def test_meeple_cards_prints_a_table_json_and_a_plot(run, tmp_path):
    spec, rows, url = _run(tmp_path, "triangle-clock")
    plot = tmp_path / "figures" / "cards.png"  # its folder made, as results --csv makes one
    shown = run("cards", spec.key[:5], "--db", url, "--plot", str(plot))
    assert shown.exit_code == 0, shown.output
    assert "palette-swap" in shown.output and "Never played:" in shown.output
    assert "random in every seat" in " ".join(shown.output.split())  # whose figures they are
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads(run("cards", spec.key, "--db", url, "--json").output)
    assert data["run"] == spec.key and data["games"] == len(rows)
    assert {c["card"] for c in data["cards"]} == {"palette-swap", "right-angle", "mulligan"}


def test_cards_too_wide_for_the_terminal_are_listed_card_by_card(run, tmp_path, monkeypatch):
    """Nine columns of figures with intervals at 80 columns folded a number onto four
    lines ('[3.00', ',', '3.00]'): where the table does not fit unbroken, each card is a
    block of 'column: figure' lines; where it fits, it is a table."""
    spec, _, url = _run(tmp_path, "triangle-clock")
    monkeypatch.setattr(console_module.console, "width", 80)
    narrow = run("cards", spec.key, "--db", url).output
    lines = narrow.splitlines()
    assert "palette-swap" in lines and "┃" not in narrow
    assert any(
        re.fullmatch(r"  per game \[95%\]: \d\.\d\d \[\d\.\d\d, \d\.\d\d\]", line) for line in lines
    )
    assert any(line.startswith("  won when played [95%]: ") for line in lines)
    monkeypatch.setattr(console_module.console, "width", 250)
    wide = run("cards", spec.key, "--db", url).output
    assert "┃" in wide and "  per game [95%]: " not in wide
    assert re.search(r"│ palette-swap +│ \d+ +│ \d\.\d\d \[\d\.\d\d, \d\.\d\d\] ", wide)


def test_a_card_figure_on_a_small_sample_is_flagged(run, tmp_path):
    """The report says a figure on fewer than 30 games or with an interval wider than 30
    points is flagged: its card table's were not. Flagged in the table's cells (the design
    report's), and said once under `meeple cards`'s table where the whole run is small."""
    spec, rows, url = _run(tmp_path, "triangle-clock")
    headers, cells = card_table(card_report(rows))
    assert len(rows) < 30
    for row in cells:
        for header, cell in zip(headers, row, strict=True):
            if "[95%]" in header and cell != "-":
                assert cell.endswith(SMALL_FLAG), (header, cell)
    shown = " ".join(run("cards", spec.key, "--db", url).output.split())
    assert f"{len(rows)} games, under 30: every figure is a small sample" in shown, shown
    assert "(small sample)" not in shown  # once, not in every cell
    big = Rate.of(60, 100)
    assert not big.small and not _rate(big).endswith(SMALL_FLAG)
    assert _rate(Rate.of(5, 10)).endswith(SMALL_FLAG)


def test_the_card_plot_names_its_agents_and_colours_its_legend_as_its_bars(tmp_path):
    _, rows, _ = _run(tmp_path, "triangle-clock")
    report = card_report(rows)
    for card in report.cards:  # every card played in every game: no "not played" bars
        card.won_when_not = Rate.of(0, 0)
    fig = card_figure(report)
    assert fig._suptitle.get_text().endswith(": random in every seat")
    legend = fig.axes[1].get_legend()
    colours = [to_hex(h.get_facecolor()) for h in legend.legend_handles]
    assert colours == [to_hex("tab:green"), to_hex("tab:grey")]


def test_card_report_names_each_seats_agents_where_they_differ(tmp_path):
    url = f"sqlite:///{tmp_path / 'lab.db'}"
    spec = RunSpec(
        kind="simulate", game="triangle-clock", seatings=[["random", "heuristic"]], seed=2
    )
    rows = [dict(r) for r in execute(spec, 2, ResultStore(url))]
    assert card_report(rows).agents == "seat 0 random, seat 1 heuristic"


def test_meeple_cards_errors_are_one_line(run, tmp_path):
    spec, _, url = _run(tmp_path, "edges", games=2)
    for args, words in [
        (
            (spec.key, "--db", url),
            "Edges names no cards or items for the lab to count (Game.card_names); per-card "
            "statistics are for the games that do: erosion, squad-combat, triangle-clock",
        ),
        (("ffff", "--db", url), "no run 'ffff'"),
        ((spec.key, "--db", f"sqlite:///{tmp_path / 'none.db'}"), "no results database"),
    ]:
        result = run("cards", *args)
        assert result.exit_code != 0
        assert words in result.output and "Traceback" not in result.output


def test_rank_frequencies_follow_the_table_and_its_edits(tmp_path):
    shipped = rank_frequencies(deals=500)
    assert [r.random_play for r in shipped] == random_play_frequencies(ranking(None))
    assert sum(r.random_play for r in shipped) == pytest.approx(1)
    assert sum(r.best_of_deal.count for r in shipped) == 500
    assert all(r.best_of_deal.low <= r.best_of_deal.rate <= r.best_of_deal.high for r in shipped)
    edited = tmp_path / "ranking.toml"
    shutil.copy(TABLE, edited)
    edited.write_text(re.sub(r"strength = 10\b", "strength = 99", edited.read_text()))
    assert rank_frequencies(str(edited), deals=500)[0].strength == 99


def test_meeple_ranking_json_plot_and_errors(run, tmp_path):
    plot = tmp_path / "ranks.png"
    result = run("ranking", "--deals", "300", "--json", "--plot", str(plot))
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["deals"] == 300 and len(data["ranks"]) == len(ranking(None).ranks)
    assert plot.read_bytes()[:4] == b"\x89PNG"
    table = run("ranking", "default", "--deals", "300")
    assert "4 of a Kind" in table.output and "Random play: exact shares" in table.output
    for args, words in [
        (("nothere.toml",), "cannot read ranking table nothere.toml"),
        (("--tie-break", "x"), "--tie-break is rank-first or whole-hand"),
        (("--plot", str(tmp_path / "r.svg")), "the picture is a PNG file"),
        (("--seed", "-1"), "'--seed'"),
    ]:
        bad = run("ranking", "--deals", "200", *args)
        assert bad.exit_code != 0
        assert words in bad.output and "Traceback" not in bad.output


def test_the_modules_own_command_answers_help_and_bad_files_without_a_traceback(capsys):
    main(["--help"])
    assert "meeple ranking" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        main(["nothere.toml"])
    assert (
        str(stop.value)
        == "error: cannot read ranking table nothere.toml: No such file or directory"
    )
