"""Game options on the command line: what meeple prints is what it accepts (issue 32.7)."""

from __future__ import annotations

import shlex

import pytest
from typer.testing import CliRunner

import meeple
from meeple.core.errors import OptionError
from meeple.core.options import describe_options
from meeple.core.registry import game_class
from meeple.interfaces.cli import app
from meeple.interfaces.options_cli import option_flags, options_words, parse_option_flags


def make_from(game: str, words: list[str]):
    return meeple.make(game, **parse_option_flags(game, words))


@pytest.mark.parametrize(
    ("words", "pie"),
    [
        (["--pie", "false"], False),
        (["--pie", "False"], False),
        (["--pie", "NO"], False),
        (["--pie", "0"], False),
        (["--pie", "off"], False),
        (["--pie=FALSE"], False),
        (["--no-pie"], False),
        (["--pie", "true"], True),
        (["--pie", "Yes"], True),
        (["--pie", "1"], True),
        (["--pie"], True),
    ],
)
def test_a_yes_no_option_takes_the_words_people_type(words, pie):
    game = make_from("edges", ["--board", "2x2", *words])
    assert game.options.pie is pie


def test_a_yes_no_flag_followed_by_another_flag_is_still_a_switch():
    game = make_from("edges", ["--pie", "--board", "3x3"])
    assert game.options.pie is True and game.options.board == "3x3"


def test_a_bad_yes_no_value_names_the_words_allowed():
    with pytest.raises(OptionError) as info:
        make_from("edges", ["--pie", "maybe"])
    message = str(info.value)
    assert "option --pie of edges" in message and "'maybe'" in message
    for word in ("true | false", "yes | no", "1 | 0", "any case"):
        assert word in message


@pytest.mark.parametrize("game", [info.name for info in meeple.games()])
def test_every_default_as_meeple_rules_prints_it_is_accepted_back(game):
    """`meeple rules` shows each default with str(); typing it back gives the default."""
    cls = game_class(game)
    for option in describe_options(cls.Options):
        words = [f"--{option.name.replace('_', '-')}", str(option.default)]
        made = make_from(game, words)
        assert getattr(made.options, option.name) == option.default, words


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("edges", {"board": "3x3", "pie": False}),
        ("erosion", {"advanced": True, "legend": "basic"}),
        ("erd", {"rules": "0.01", "round_limit": 50}),
    ],
)
def test_printed_options_read_back_as_the_same_game(game, options):
    made = meeple.make(game, **options)
    changed = made.options.changed()
    flags = option_flags(changed)
    assert "True" not in flags and "False" not in flags  # as a person types them
    assert make_from(game, shlex.split(flags)).options == made.options
    words = dict(w.split("=", 1) for w in options_words(changed).split())
    assert meeple.make(game, **words).options == made.options


def test_simulate_accepts_pie_false_and_prints_it_in_the_same_words(tmp_path):
    result = CliRunner().invoke(
        app,
        ["simulate", "edges", "--board", "2x2", "--pie", "false", "--games", "2",
         "--db", f"sqlite:///{tmp_path / 'r.db'}", "--out", str(tmp_path / "out")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "pie=false" in result.output and "pie=False" not in result.output


@pytest.mark.parametrize(
    ("game", "words", "allowed"),
    [
        ("erosion", ["--players", "9"], "allowed: a whole number from 2 to 5"),
        ("triangle-clock", ["--choice-seconds", "-1"], "allowed: a number from 0 to 86400"),
    ],
)
def test_a_number_out_of_range_names_the_range_not_the_type(game, words, allowed):
    """Said with the option's flag as typed (not JSON's 'choice_seconds') and what is
    allowed, not the library's words ('Input should be greater than or equal to 0')."""
    with pytest.raises(OptionError) as caught:
        make_from(game, words)
    assert allowed in str(caught.value)
    assert f"option {words[0]} of {game}: '{words[1]}' is not allowed" in str(caught.value)
    assert "Input should" not in str(caught.value)
    shown = {o.name: o.allowed for o in describe_options(game_class(game).Options)}
    assert allowed.removeprefix("allowed: ") in shown.values()


def test_every_suggested_option_value_is_one_the_game_takes_and_says_what_it_is():
    """The values an option offers a person (the lobby's list under its typed text) are
    accepted by the game as they stand, each once, each with its words."""
    from meeple.core.options import describe_options
    from meeple.core.registry import game_class, games, make

    offered = 0
    for info in games():
        for option in describe_options(game_class(info.name).Options):
            values = [value for value, _ in option.suggested]
            assert len(set(values)) == len(values), (info.name, option.name)
            for value, words in option.suggested:
                assert words.strip(), (info.name, option.name, value)
                make(info.name, **{option.name: value})
                offered += 1
    assert offered >= 8  # The Triangle Clock's items and Edges' board at least
