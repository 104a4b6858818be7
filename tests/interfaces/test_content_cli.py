"""``meeple content copy`` / ``check`` and the game options in the lab commands' ``--help``."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

import meeple
from meeple.core.designer import check_data, copy_data, data_paths
from meeple.core.registry import game_class
from meeple.interfaces.cli import app
from tests.designer_edits import cards_as_toml

DATA = {
    "squad-combat": ["characters.toml", "cards.toml", "decks.toml"],
    "triangle-clock": ["ranking.toml"],
    "erosion": ["cards.json"],
}


def _run(*words: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(words), env={"COLUMNS": "200"})
    return result.exit_code, result.output


@pytest.mark.parametrize("game", DATA)
def test_copy_writes_the_shipped_data_that_then_checks_clean_and_plays(tmp_path, game):
    folder = tmp_path / "mine"
    code, out = _run("content", "copy", game, str(folder))
    assert code == 0, out
    assert sorted(p.name for p in folder.iterdir()) == sorted(DATA[game])
    assert "--variant" in out and "=default" in out  # how to compare it with the shipped
    code, out = _run("content", "check", game, str(folder))
    assert code == 0 and "plays with it" in out, out
    options = {k: str(v) for k, v in data_paths(game, folder).items()}
    made = meeple.make(game, **options)
    assert made.options.content_digests()  # the game reads the designer's files
    # A copy is the shipped data: same bytes, so the same game.
    shipped = meeple.make(game)
    assert made.new_game(1).legal_action_ids(0) == shipped.new_game(1).legal_action_ids(0)


def test_copy_says_how_to_offer_the_copy_in_the_browser(tmp_path):
    """A copy laid out as ``DIR/<game>/<set>/`` is named as the server would offer it (and
    the server does); any other folder is told the layout ``meeple serve --content`` reads."""
    from meeple.interfaces.web.content_sets import ContentSets

    code, out = _run("content", "copy", "erosion", str(tmp_path / "sets" / "erosion" / "weak"))
    assert code == 0, out
    said = f"meeple serve --content {tmp_path / 'sets'}; a match of erosion asks for set:weak"
    assert said in out, out
    sets = ContentSets(tmp_path / "sets")
    try:
        assert sets.names("erosion") == ["weak"]
    finally:
        sets.close()
    code, out = _run("content", "copy", "erosion", str(tmp_path / "mine"))
    assert "put it in a folder DIR/erosion/<set>/ and start meeple serve --content DIR" in out


def test_check_notes_what_the_lab_notes_before_it_plays(tmp_path):
    """A rank typed to score less than the one below it passed the check without a word
    (the lab noted deck sizes only as it played); the check says what the lab would."""
    folder = tmp_path / "tc"
    copy_data("triangle-clock", folder)
    table = folder / "ranking.toml"
    table.write_text(table.read_text().replace("strength = 10", "strength = 1", 1))
    code, out = _run("content", "check", "triangle-clock", str(folder))
    said = " ".join(out.split())
    assert code == 0 and "plays with it" in said, out
    assert (
        "Note: the ranking table's Flush 3 of a Kind scores 8, more than 4 of a Kind above it "
        "(1): a winner whose opponent held the better hand scores less." in said
    )
    assert said.count("Note:") == 1  # the one rank out of order, not every rank after it
    copy_data("triangle-clock", tmp_path / "shipped")
    code, out = _run("content", "check", "triangle-clock", str(tmp_path / "shipped"))
    assert "Note:" not in out


def test_copy_never_overwrites_a_designers_file(tmp_path):
    (tmp_path / "cards.json").write_text("my edits")
    code, out = _run("content", "copy", "erosion", str(tmp_path))
    assert code == 2 and "is already there" in out and "Traceback" not in out
    assert (tmp_path / "cards.json").read_text() == "my edits"


def test_a_game_without_data_is_one_line(tmp_path):
    code, out = _run("content", "copy", "edges", str(tmp_path / "x"))
    assert code == 2
    assert "edges has no data files to copy; the games with data are: erosion" in out


def test_check_names_the_file_the_card_and_the_field_one_line_each(tmp_path):
    copy_data("erosion", tmp_path)
    path = tmp_path / "cards.json"
    data = json.loads(path.read_text())
    data["cards"][0]["process"]["n"] = 0
    data["cards"][50]["rock"] = "granit"
    path.write_text(json.dumps(data))
    code, out = _run("content", "check", "erosion", str(tmp_path))
    assert code == 1
    lines = [line for line in out.splitlines() if line.startswith("error:")]
    assert lines == [
        f"error: {path}: card WX01, field process.n: must be at least 1",
        f"error: {path}: card H51, field rock: Input should be 'shale', 'limestone', "
        "'sandstone', 'conglomerate', 'basalt', 'granite', 'welded tuff', 'quartzite' or "
        "'schist' (got 'granit')",
    ]


def test_a_field_given_twice_is_a_problem_not_the_last_one_kept(tmp_path):
    """JSON allows '"n": 3, "n": 5' and json.loads keeps 5: a designer's file said two
    things and meeple played one of them without a word."""
    copy_data("erosion", tmp_path)
    path = tmp_path / "cards.json"
    path.write_text(path.read_text().replace('"n": 3,', '"n": 3, "n": 5,', 1))
    assert check_data("erosion", tmp_path) == [
        f"{path}: the card file is not readable: the key 'n' is given twice in one object"
    ]


def test_check_names_the_squad_file_the_item_and_the_field(tmp_path):
    copy_data("squad-combat", tmp_path)
    cards = tmp_path / "cards.toml"
    cards.write_text(cards.read_text().replace('kind = "attack"', 'kind = "atack"', 1))
    (problem,) = check_data("squad-combat", tmp_path)
    assert re.search(
        r"cards\.toml: card '\w[\w-]*', field 'kind': Input should be 'attack', 'action' or "
        r"'edge' \(got 'atack'\)",
        problem,
    ), problem


def test_a_designer_s_text_is_printable_and_its_error_shows_what_it_quotes(tmp_path):
    """A card's name is shown in tables and on pages: an escape in a copied-out card file
    (one sent by someone else) coloured the terminal of `meeple cards` and was printed as
    it was in `content check`'s error for a bad id."""
    copy_data("erosion", tmp_path)
    path = tmp_path / "cards.json"
    data = json.loads(path.read_text())
    data["cards"][0]["process"]["name"] = "Frost\x1b]0;title\x07"
    data["cards"][1]["id"] = "WX\x1b[2J02"
    path.write_text(json.dumps(data))
    code, out = _run("content", "check", "erosion", str(tmp_path))
    assert code == 1 and "\x1b" not in out, out
    assert "card WX01, field process.name: U+001B is a control character" in out
    assert "card WX\\x1b[2J02, field id" in out

    copy_data("squad-combat", tmp_path / "squad")
    cards = tmp_path / "squad" / "cards.toml"
    cards.write_text(cards.read_text().replace('name = "', 'name = "\\u202e', 1))
    (problem,) = check_data("squad-combat", tmp_path / "squad")
    assert "field 'name': U+202E is a control of the text's direction" in problem, problem

    copy_data("triangle-clock", tmp_path / "clock")
    table = tmp_path / "clock" / "ranking.toml"
    table.write_text(table.read_text().replace('name = "4 of a Kind"', 'name = "4\\nof"'))
    (problem,) = check_data("triangle-clock", tmp_path / "clock")
    assert "rank 1 ('4\\nof').name: U+000A is a control character" in problem, problem


def test_check_names_the_ranking_table_the_rank_and_the_field(tmp_path):
    copy_data("triangle-clock", tmp_path)
    table = tmp_path / "ranking.toml"
    table.write_text(re.sub(r"(?m)^size = \d+", "size = 9", table.read_text(), count=1))
    (problem,) = check_data("triangle-clock", tmp_path)
    assert f"ranking table {table} is not valid: rank 1" in problem
    assert ".size: Input should be less than or equal to 4" in problem


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("size = 4", 'size = "4"', ".size: Input should be a valid integer"),
        ("flush = false", "flush = 0", ".flush: Input should be a valid boolean"),
        ("strength = 10", "strength = 1000001", ".strength: Input should be less"),
    ],
)
def test_a_ranking_table_s_numbers_are_numbers_and_bounded(tmp_path, old, new, says):
    """Strengths are summed into scores that the compiled rules count in 64 bits."""
    copy_data("triangle-clock", tmp_path)
    table = tmp_path / "ranking.toml"
    table.write_text(table.read_text().replace(old, new, 1))
    (problem,) = check_data("triangle-clock", tmp_path)
    assert "rank 1 (4 of a Kind)" + says in problem, problem


def test_check_of_a_missing_folder_says_how_to_make_it(tmp_path):
    code, out = _run("content", "check", "erosion", str(tmp_path / "nope"))
    assert code == 1 and "meeple content copy erosion" in out


def test_check_of_the_card_file_itself_names_its_folder(tmp_path):
    """--cards takes the file, so a designer gives check the file too: it was told 'no such
    folder' and to copy the data over the file, which copy then refused."""
    copy_data("erosion", tmp_path)
    code, out = _run("content", "check", "erosion", str(tmp_path / "cards.json"))
    assert code == 1, out
    said = "is a file; content check takes the folder that holds the data: "
    assert said + f"meeple content check erosion {tmp_path}" in out, out


def test_an_edited_card_copied_out_changes_a_simulation(tmp_path):
    """The designer's loop: copy, edit a card, simulate; the run is another run and the
    game plays by the edited card."""
    copy_data("erosion", tmp_path / "mine")
    path = tmp_path / "mine" / "cards.json"
    data = json.loads(path.read_text())
    for card in data["cards"][:38]:  # every WX card weathers one rock, no harder than 3
        if card["process"]["kind"] == "weather_n":
            card["process"].update(n=1, max_hardness=3)
    path.write_text(json.dumps(data))
    db = f"sqlite:///{tmp_path / 'r.db'}"
    keys, lengths = [], []
    for extra in ([], ["--cards", str(path)]):
        code, out = _run(
            "simulate", "erosion", *extra, "--games", "4", "--db", db, "--out",
            str(tmp_path / "out"),
        )  # fmt: skip
        assert code == 0, out
        keys.append(re.search(r"Run (\w+):", out).group(1))  # type: ignore[union-attr]
        rows = (tmp_path / "out" / f"erosion-{keys[-1]}.jsonl").read_text().splitlines()
        lengths.append([json.loads(row)["length"] for row in rows])
    assert keys[0] != keys[1]
    assert lengths[0] != lengths[1]


# -- --help lists the game's options -------------------------------------------------------
@pytest.mark.parametrize("command", ["play", "simulate", "compare", "tournament"])
@pytest.mark.parametrize("game", ["squad-combat", "triangle-clock", "erosion", "edges", "erd"])
def test_each_lab_commands_help_lists_the_games_options(command, game):
    """``meeple play GAME --help`` too: every version a seed names (Double Edges, Erosion's
    Advanced Rules and Legend Variant) is one of these flags, and play's help listed none."""
    code, out = _run(command, game, "--help")
    assert code == 0, out
    for name in game_class(game).Options.model_fields:
        assert f"--{name.replace('_', '-')}" in out, (command, game, name)


def test_simulate_help_for_squad_combat_shows_content_with_its_values():
    code, out = _run("simulate", "squad-combat", "--help")
    assert code == 0
    assert re.search(r"--content +\(default shipped; allowed: default \| a folder path", out), out


def test_help_without_a_game_lists_every_games_flags():
    code, out = _run("simulate", "--help")
    assert code == 0
    assert "erosion: --players" in out and "--cards" in out and "--content" in out
    assert "--ranking" in out


def test_check_reads_erosion_s_cards_written_as_toml(tmp_path):
    """The card file may be TOML (docs/lab.md), which the lab plays: content check looked
    for cards.json alone and said there was none."""
    copy_data("erosion", tmp_path)
    shipped = json.loads((tmp_path / "cards.json").read_text())
    (tmp_path / "cards.json").unlink()
    cards = tmp_path / "cards.toml"
    cards.write_text(cards_as_toml(shipped["cards"]), encoding="utf-8")
    code, out = _run("content", "check", "erosion", str(tmp_path))
    assert code == 0, out
    assert f"--cards {cards}" in out
    shipped["cards"][0]["mohs"] = 99
    cards.write_text(cards_as_toml(shipped["cards"]), encoding="utf-8")
    code, out = _run("content", "check", "erosion", str(tmp_path))
    assert code == 1 and f"error: {cards}: card WX01, field mohs" in out, out
