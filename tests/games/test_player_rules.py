"""The rules for players (``Game.player_rules``): one template per game, filled for the match's
options, holding the tables a player needs, and following every option that changes play."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.core.game import Game
from meeple.core.options import GameOptions
from meeple.core.player_rules import PlayerRulesError, fill
from meeple.core.registry import game_class

GAMES = [info.name for info in meeple.games()]


# -- the template ---------------------------------------------------------------------------
def test_fields_and_blocks_are_filled():
    template = "\n".join(
        [
            "A {{x}} game.",
            "<!-- if x=big|huge -->",
            "Big.",
            "<!-- if y!=1 -->",
            "Not one.",
            "<!-- end -->",
            "<!-- else -->",
            "Small.",
            "<!-- end -->",
            "End.",
        ]
    )
    assert fill(template, {"x": "big", "y": "2"}) == "A big game.\nBig.\nNot one.\nEnd.\n"
    assert fill(template, {"x": "huge", "y": "1"}) == "A huge game.\nBig.\nEnd.\n"
    assert fill(template, {"x": "tiny", "y": "2"}) == "A tiny game.\nSmall.\nEnd.\n"


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("{{nope}}", "line 1: no value called 'nope'"),
        ("<!-- if nope=1 -->\n<!-- end -->", "line 1: no value called 'nope'"),
        ("<!-- if x=1 -->\ntext", "line 1: the if has no end"),
        ("text\n<!-- end -->", "line 2: <!-- end --> without an if"),
    ],
)
def test_a_template_mistake_names_its_line(template, message):
    with pytest.raises(PlayerRulesError, match=message):
        fill(template, {"x": "1"})


# -- what each game's rules hold ------------------------------------------------------------
TABLES = {
    # The tables a player needs while playing (issue #54), as the rules.md states them.
    "triangle-clock": [
        "| 1 | 4 of a Kind | 10 |",
        "| 3 | Flush 4 Set Rotate | 7 |",
        "| 7 | Flush Pair | 3 |",
        "| 10 | Nothing | 0 |",
        "▲Ns ◥NEs ▶Es ◢SEs",  # an example hand (Flush 4 Set Rotate)
        "closest to 12 o'clock",
    ],
    "erosion": [
        "| each **unweathered** rock in your mountain | 1 |",
        "| each rock in your **delta** | 2 |",
        "fossil** (snail, leaf or fish) in your mountain | 3 |",
    ],
    "erd": [
        "| Heavy (`H`) | 3 | 2 | 3 | +1 Defense |",
        "| Light (`L`) | 3 | 1 | 1 | - |",
        "| Decoy (`D`) | 6 | 0 | 0 | - |",
        "**Turrets.**",
        "**Recovery.**",
        "**Escalation.**",
        "**Mercy rule**",
    ],
    "squad-combat": [
        "## An attack, step by step",
        "**Attack rating** = attack die + the card's hit + attack edges",
        "| Heavy Blow | attack | Melee | `<2>[4]` | hit +1, damage 4 |",
        "| Vanguard | 12 | 4 | 2 | <2> | Melee / Tactics |",
    ],
    "edges": ["| Large (`L`) | 3 |", "| Small (`S`) | 1 |", "**Pie rule.**", "| 2 to you |"],
}


@pytest.mark.parametrize("name", GAMES)
def test_each_game_explains_goal_turn_and_end_with_its_tables(name):
    text = meeple.make(name).player_rules()
    assert text.startswith(f"# {game_class(name).title} — how to play\n")
    assert "## Goal" in text and ("## The end" in text or "## Scoring and the end" in text)
    for phrase in TABLES[name]:
        assert phrase in text, f"{name}: {phrase!r} missing"
    # A screen or two: far shorter than the reference rules.md.
    assert len(text) < 6000 and len(text) < len(game_class(name).rules_markdown()) / 3


def test_the_rules_version_changes_erds_rules():
    original = meeple.make("erd", rules="original").player_rules()
    patch1 = meeple.make("erd", rules="0.01").player_rules()
    patch2 = meeple.make("erd").player_rules()
    assert "| Decoy (`D`) | 3 |" in original and "up to three cards" in original
    assert "no mercy rule" in original and "exactly three cards" in patch1
    assert "at most one Light" in patch1 and "at most two Lights" in patch2
    assert "wins** at once" in patch2 and "wins** at once" not in patch1


def test_edges_follows_its_board_and_double_edges():
    text = meeple.make("edges", board="4x4").player_rules()
    assert "4 x 4 squares (40 edges)" in text and "7 Large, 7 Medium and 6 Small" in text
    double = meeple.make("edges", double=True, pie=False).player_rules()
    assert "**Double Edges**" in double and "no pie rule" in double
    # The lobby's Rules are the two-player game's: they say Double Edges is there to choose
    # (a browser newcomer met "2 (4 in Double Edges) players" and no word of it in them).
    two = " ".join(text.split())
    assert "(For four players in two teams, **Double Edges** is an option of a new match" in two


def test_the_ranking_table_follows_the_ranking_file(tmp_path: Path):
    shipped = Path(meeple.games.__file__).parent / "triangle_clock" / "ranking.toml"
    changed = shipped.read_text(encoding="utf-8").replace("strength = 10", "strength = 12", 1)
    (tmp_path / "ranking.toml").write_text(changed, encoding="utf-8")
    text = meeple.make("triangle-clock", ranking=str(tmp_path / "ranking.toml")).player_rules()
    assert "| 1 | 4 of a Kind | 12 |" in text


# -- every option that changes play is in the rules ----------------------------------------
NOT_IN_THE_RULES = {
    # Options a match may set that leave the rules a player reads unchanged:
    "auto_steps": "the engine takes a step with a single possible choice for the player; "
    "what may be played is the same either way",
    # Options that name files on the server's disk cannot be set online; the tables the
    # rules show are built from what they load (test_the_ranking_table_follows_...).
    "content": "a folder of content, not a rule; the tables are built from it",
    "ranking": "a ranking file, not a rule; the table is built from it",
    "cards": "Erosion's card file, not a rule; the cards in play are read from it",
}

BASE: dict[tuple[str, str], dict[str, Any]] = {
    # An option that matters only beside another is compared with that other one set.
    ("edges", "double_start"): {"double": True},
    ("erosion", "uplift_architecture"): {"advanced": True},
}

OTHER_VALUES: dict[str, list[Any]] = {
    # Values to try for options that are not a choice among words (numbers, free text).
    "players": [3],
    "first": [1],
    "best_of": [1, 3],
    "round_limit": [50],
    "turn_limit": [50],
    "hand_size": [6],
    "board": ["3x3"],
    "reserve": ["HHHLLLLDDDDDD", "HHLLDD"],
    "stash": ["4/4/4"],
    "decks": ["shadow-circle,iron-line"],
    "items": ["mulligan/palette-swap+right-angle", "all/none", "none/none"],
    "memorise_seconds": [30, 0],
    "choice_seconds": [0],
}


def _other_values(cls: type[Game[Any, Any, Any]], name: str) -> list[Any]:
    field = cls.Options.model_fields[name]
    if typing.get_origin(field.annotation) is typing.Literal:
        return [v for v in typing.get_args(field.annotation) if v != field.default]
    if field.annotation is bool:
        return [not field.default]
    assert name in OTHER_VALUES, f"{cls.name}: give option {name!r} values to try here"
    return OTHER_VALUES[name]


CASES = [
    (name, option)
    for name in GAMES
    for option in game_class(name).Options.model_fields
    if option not in NOT_IN_THE_RULES
]


@pytest.mark.parametrize(("name", "option"), CASES)
def test_every_option_that_changes_play_changes_the_rules(name, option):
    """Each value of each option (but those above) gives a player's text of its own: the
    option is mentioned where it matters, and the rules shown for a match are its own."""
    cls = game_class(name)
    base = BASE.get((name, option), {})
    default_text = meeple.make(name, **base).player_rules()
    for value in _other_values(cls, option):
        text = meeple.make(name, **base, **{option: value}).player_rules()
        assert text != default_text, f"{name}: {option}={value!r} does not change the rules"
        assert "{{" not in text and "<!--" not in text


def test_the_exceptions_are_options():
    every = {o for name in GAMES for o in game_class(name).Options.model_fields}
    assert set(NOT_IN_THE_RULES) <= every | set(GameOptions.model_fields)


@pytest.mark.parametrize(("name", "counts"), [("squad-combat", "2 to 4"), ("erosion", "2 to 5")])
def test_the_rules_say_how_many_the_game_takes_and_how_many_they_are_for(name, counts):
    """The lobby's Rules said "A card game for 2 players" beside a Players list up to 4 (a
    phone newcomer's finding): they say both."""
    for players in (2, 3):
        text = " ".join(meeple.make(name, players=players).player_rules().split())
        assert f"A card game for {counts} players; these rules are for {players}" in text
