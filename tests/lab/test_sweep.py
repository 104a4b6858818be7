"""A sweep of one option or one data field over values (issue 59, item 6): each value a
variant played on the same seeds, the results by value in a table and a plot."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from meeple.core.options import content_digest
from meeple.core.registry import make
from meeple.lab.sweep import SweepError, edit_field, field_variants, sweep_figure, sweep_values

DATA = Path(__file__).resolve().parents[2] / "src/meeple/games/squad_combat/data"

CARDS = """# a comment
[slash]
hit = 1
damage = 2   # the wound

[quick-shot]
hit = 0
damage = 2
"""


def test_values_are_two_or_more_distinct():
    assert sweep_values("2, 3,4") == ["2", "3", "4"]
    bad_values = [("2", "two or more"), ("2,,3", "two or more"), ("2,3,2", "2 is given twice")]
    for bad, words in bad_values:
        with pytest.raises(SweepError, match=words):
            sweep_values(bad)


def test_a_field_is_changed_in_its_own_table_only_and_keeps_its_comment():
    edited = edit_field(CARDS, "quick-shot", "damage", "4", "cards.toml")
    assert edited == CARDS.replace("hit = 0\ndamage = 2", "hit = 0\ndamage = 4")
    slash = edit_field(CARDS, "slash", "damage", "3", "cards.toml")
    assert "damage = 3   # the wound\n" in slash
    assert 'damage = "heavy"' in edit_field(CARDS, "slash", "damage", "heavy", "f")
    with pytest.raises(SweepError, match=r"cards.toml has no table \[nope\]"):
        edit_field(CARDS, "nope", "damage", "1", "cards.toml")
    with pytest.raises(SweepError, match=r"table \[slash\] has no field 'cost'"):
        edit_field(CARDS, "slash", "cost", "1", "cards.toml")
    # A list of tables (The Triangle Clock's ranks) or a JSON file (Erosion's cards) has no
    # named table for --field to name: said so, not "has no table".
    ranks = '[[rank]]\nname = "Pair"\nstrength = 1\n'
    with pytest.raises(SweepError, match=r"\[\[rank\]\] is a list of tables; vary it in edited"):
        edit_field(ranks, "rank", "strength", "2", "ranking.toml")
    with pytest.raises(SweepError, match=r"cards\.json: .* it is not a TOML file"):
        edit_field('{"cards": []}', "WX01", "n", "2", "cards.json")


def test_field_variants_copy_the_data_with_one_line_changed(tmp_path):
    mine = tmp_path / "my-cards"
    shutil.copytree(DATA, mine)
    options = make("squad-combat", content=str(mine)).options
    variants = field_variants(options, "cards.toml:quick-shot.damage", ["1", "5"], tmp_path / "s")
    assert [label for label, _ in variants] == ["quick-shot.damage 1", "quick-shot.damage 5"]
    original = (mine / "cards.toml").read_text().splitlines()
    for (_, opts), value in zip(variants, ["1", "5"], strict=True):
        folder = Path(opts["content"])
        copy = (folder / "cards.toml").read_text().splitlines()
        changed = [(a, b) for a, b in zip(original, copy, strict=True) if a != b]
        assert changed == [("damage = 2", f"damage = {value}")]
        assert (folder / "decks.toml").read_text() == (mine / "decks.toml").read_text()
        game = make("squad-combat", content=str(folder))
        assert game.damages[game.card_keys.index("quick-shot")] == int(value)
    with pytest.raises(SweepError, match=r"no option given names a file cards\.toml"):
        field_variants(make("squad-combat").options, "cards.toml:quick-shot.damage", ["1", "2"],
                       tmp_path / "t")  # fmt: skip
    # A misspelt file of the data given is named as such, with the files it has.
    given = r"\(--content .*my-cards names characters\.toml, cards\.toml, decks\.toml\)"
    with pytest.raises(SweepError, match=r"no file cardz\.toml in the data given " + given):
        field_variants(options, "cardz.toml:quick-shot.damage", ["1", "2"], tmp_path / "t")
    with pytest.raises(SweepError, match=r"write FILE:TABLE\.KEY"):
        field_variants(options, "quick-shot.damage", ["1", "2"], tmp_path / "t")


def test_meeple_sweep_of_an_option_is_a_comparison_of_ordinary_runs(run, tmp_path):
    url = f"sqlite:///{tmp_path / 'lab.db'}"
    out = tmp_path / "out"
    common = ["-n", "6", "--seat", "random", "--db", url, "--out", str(out)]
    result = run("sweep", "erd", "--option", "best-of", "--values", "1,3", *common)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "erd: best-of swept" in text
    # The arm of best-of 3 is the run `simulate` makes of the same command.
    alone = run("simulate", "erd", "--best-of", "3", *common)
    [key] = re.findall(r"Run ([0-9a-f]{12}): rows", alone.output)
    assert "best-of 3, shortest: game" in text and f"meeple replay {key}" in text
    [report] = list(out.glob("sweep-erd-*/report.md"))
    body = report.read_text()
    assert "## best-of swept" in body and "![sweep](sweep.png)" in body
    assert body.index("## best-of swept") < body.index("## Differences from best-of 1")
    assert (report.parent / "sweep.png").read_bytes()[:4] == b"\x89PNG"


def test_meeple_sweep_of_a_data_field_plays_each_edited_copy(run, tmp_path):
    mine = tmp_path / "my-cards"
    shutil.copytree(DATA, mine)
    out = tmp_path / "out"
    result = run("sweep", "squad-combat", "--content", str(mine), "--field",
                 "cards.toml:quick-shot.damage", "--values", "1,4", "-n", "2", "--seat", "random",
                 "--db", f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "quick-shot.damage swept" in " ".join(result.output.split())
    copies = sorted((out / "sweep-squad-combat-data").glob("*/*"))
    assert [c.name for c in copies] == ["quick-shot.damage_1", "quick-shot.damage_4"]
    digests = {content_digest([c / n for n in ("characters.toml", "cards.toml", "decks.toml")])
               for c in copies}  # fmt: skip
    assert len(digests) == 2
    # The file the designer gave is never edited.
    assert (mine / "cards.toml").read_text() == (DATA / "cards.toml").read_text()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["erd", "--values", "1,3"], "give what to vary: --option NAME or --field"),
        (["erd", "--option", "nope", "--values", "1,3"], "unknown option '--nope' for erd"),
        (["erd", "--option", "bestof", "--values", "1,3"], "(did you mean '--best-of'?)"),
        # A named option takes no --no- form: none is offered, least of all the name given.
        (["edges", "--option", "no-pie", "--values", "1,3"], "(did you mean '--pie'?)"),
        (["edges", "--option", "nope", "--values", "1,3"], "unknown option '--nope' for edges"),
        (["erd", "--option", "best-of", "--values", "1"], "two or more values"),
        (["erd", "--option", "best-of", "--values", "1,2"], "best_of"),
    ],
)
def test_sweep_errors_are_one_line(run, tmp_path, args, words):
    result = run("sweep", *args, "-n", "2", "--out", str(tmp_path / "o"),
                 "--db", f"sqlite:///{tmp_path / 'lab.db'}")  # fmt: skip
    assert result.exit_code != 0
    assert words in result.output and "Traceback" not in result.output
    # Refused before a word of the run: every value is checked before the agents are said.
    assert "Agents:" not in result.output


def test_the_sweep_table_flags_a_small_sample_as_every_lab_table_does():
    from meeple.lab.metrics import summarize
    from meeple.lab.sweep import sweep_table

    def rows(n):
        return [{"index": k, "seed": k, "seats": ["random", "random"], "returns": [1.0, -1.0],
                 "winners": [k % 2], "length": 10 + k % 3, "branching": 2.0,
                 "first_player": 0} for k in range(n)]  # fmt: skip

    few, many = summarize(rows(10)), summarize(rows(400))
    _, table = sweep_table("x", ["1", "2"], [few, many], ["seat 0", "seat 1"])
    assert all(cell.endswith("(small sample)") for cell in table[0][1:5]), table[0]
    assert not any("small sample" in cell for cell in table[1]), table[1]
    # The plot marks the same points hollow, and says so (it flagged only the title).
    fig = sweep_figure("x", ["1", "2"], [few, many], ["seat 0", "seat 1"])
    wins, _ = fig.axes
    hollow = [
        (line.get_xdata(), line.get_mfc()) for line in wins.lines if line.get_mfc() == "white"
    ]
    assert [len(x) for x, _ in hollow] == [1, 1]  # each seat's point at 10 games alone
    assert all(abs(x[0]) < 0.5 for x, _ in hollow)
    assert "a hollow point is a small sample" in fig._suptitle.get_text()


def test_a_swept_value_that_moves_a_seats_role_is_not_named_by_the_first_values_role(
    run, tmp_path, monkeypatch
):
    """Swept --items give Tock the Mulligan, then nothing: its column is not 'Tock
    (mulligan)' for both; the plot's long values are wrapped, not run into each other."""
    out = tmp_path / "out"
    figures = []
    drawn = lambda *args: figures.append(sweep_figure(*args)) or figures[-1]  # noqa: E731
    monkeypatch.setattr("meeple.interfaces.compare_cli.sweep_figure", drawn)
    values = "palette-swap+right-angle/mulligan,palette-swap+right-angle/none"
    result = run("sweep", "triangle-clock", "--option", "items", "--values", values, "-n", "2",
                 "--db", f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    body = next(out.glob("sweep-triangle-clock-*/report.md")).read_text()
    header = next(line for line in body.splitlines() if line.startswith("| value |"))
    assert "seat 0 Tick (palette-swap+right-angle): random won" in header
    assert "seat 1: random won" in header and "mulligan" not in header
    ticks = [t.get_text() for t in figures[0].axes[0].get_xticklabels()]
    assert all(len(line) <= 17 for t in ticks for line in t.splitlines()), ticks


def test_a_deck_s_card_count_is_swept_and_a_refused_value_is_named_as_given(tmp_path):
    mine = tmp_path / "my-cards"
    shutil.copytree(DATA, mine)
    game = make("squad-combat", content=str(mine))
    # The table's own name has a dot: [shadow-circle.cards].
    (_, opts), _ = field_variants(
        game.options, "decks.toml:shadow-circle.cards.quick-shot", ["7", "8"], tmp_path / "s"
    )
    deck = make("squad-combat", content=opts["content"]).content.deck("shadow-circle")
    assert deck.cards["quick-shot"] == 7
    message = (
        "--field cards.toml:quick-shot.damage --values 100: "
        f"{mine}/cards.toml: card 'quick-shot', field 'damage': Input should be less than"
    )
    with pytest.raises(SweepError, match=re.escape(message)):
        field_variants(
            game.options, "cards.toml:quick-shot.damage", ["2", "100"], tmp_path / "t",
            game.data_problems,
        )  # fmt: skip
    # A refused sweep leaves no copy the game refuses, nor an empty folder for a table the
    # file lacks ('quick-shott.damage_2' was left behind, empty).
    assert not (tmp_path / "t" / "quick-shot.damage_100").exists()
    with pytest.raises(SweepError, match="has no table"):
        field_variants(game.options, "cards.toml:quick-shott.damage", ["2", "3"], tmp_path / "u")
    assert not (tmp_path / "u").exists()


def test_a_swept_number_of_players_keeps_each_figure_under_its_own_seat():
    """Sweeping players 2, 3: the three-player row's third seat was read under 'draws' and
    its draws under 'length' when the columns were the first value's seats."""
    from meeple.lab.metrics import summarize
    from meeple.lab.sweep import sweep_table

    def rows(players, winner):
        return [{"index": k, "seed": k, "seats": ["random"] * players,
                 "returns": [1.0 if p == winner else -1.0 for p in range(players)],
                 "winners": [winner], "length": 10 * players, "branching": 2.0,
                 "first_player": 0} for k in range(40)]  # fmt: skip

    two, three = summarize(rows(2, 1)), summarize(rows(3, 2))
    seats = ["seat 0", "seat 1", "seat 2"]
    headers, table = sweep_table("players", ["2", "3"], [two, three], seats)
    assert headers[1:5] == ["seat 0 won", "seat 1 won", "seat 2 won", "draws"]
    assert table[0][3] == "" and table[0][2].startswith("100.0%"), table[0]
    assert table[1][3].startswith("100.0%") and table[1][4].startswith("0.0%"), table[1]
    assert table[1][5].startswith("30"), table[1]
    figure = sweep_figure("players", ["2", "3"], [two, three], seats)
    bars = {bar.get_label(): bar.lines[0] for bar in figure.axes[0].containers}
    assert list(bars["seat 1"].get_ydata()) == [1.0, 0.0]
    assert list(bars["seat 2"].get_ydata()) == [1.0]  # at 3 players only
