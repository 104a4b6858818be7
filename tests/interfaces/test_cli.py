"""The meeple command as a person uses it: every command, good and bad input."""

from __future__ import annotations

import itertools
import json
import re
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from meeple.core.record import GameRecord
from meeple.core.registry import game_class
from tests import plain_http


def test_games_lists_edges_and_its_options(run):
    result = run("games")
    assert result.exit_code == 0
    assert "edges" in result.output and "--board" in result.output and "--pie" in result.output


@pytest.mark.parametrize("width", [80, 200])
def test_games_shows_every_option_flag_whole_in_a_terminal_of_80_columns_or_more(
    run, monkeypatch, width
):
    """A flag is typed as it is shown: the table wraps the summaries, never cuts a flag."""
    from meeple.core.registry import games
    from meeple.interfaces.options_cli import flag

    monkeypatch.setenv("COLUMNS", str(width))  # read by the console at each print
    result = run("games")
    assert result.exit_code == 0, result.output
    shown = set(re.findall(r"--[a-z-]+(?![a-z-])", result.output))
    for info in games():
        for option in info.options:
            assert flag(option.name) in shown, (flag(option.name), result.output)
    assert all(len(line) <= width for line in result.output.splitlines())


@pytest.mark.parametrize("game", ["edges", "erd", "erosion", "squad-combat", "triangle-clock"])
def test_rules_cut_no_option_value_short_in_a_terminal_of_80_columns(run, monkeypatch, game):
    """A long default or allowed value (The Triangle Clock's items, Squad Combat's decks) is
    folded onto the next line, never ended with an ellipsis."""
    monkeypatch.setenv("COLUMNS", "80")
    result = run("rules", game)
    assert result.exit_code == 0, result.output
    assert "…" not in result.output, result.output
    assert all(len(line) <= 80 for line in result.output.splitlines())
    # Never folded mid-word either ('palette-swap+rig' / 'ht-angle/mulliga' / 'n'): each
    # default is whole on one line, as a table's cell or a block's line.
    # A default as it is typed: true (Python's True and None were shown); one worked out
    # from the other options, in its words (Edges' board read "none" beside "default 3x4").
    from meeple.core.options import describe_options, shown_default
    from meeple.core.registry import game_class

    lines = result.output.splitlines()
    for option in describe_options(game_class(game).Options):
        assert any(shown_default(option) in line for line in lines), option
        assert option.default is not None or option.default_words, option
    assert "True" not in result.output and "None" not in result.output
    if game == "edges":
        assert re.search(r"│ --board +│ 3x4 +│", result.output), result.output


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_prints_the_installed_version_and_nothing_else(run, flag):
    result = run(flag)
    assert result.exit_code == 0, result.output
    assert result.output == f"meeple {metadata.version('meeple')}\n"


def test_python_dash_m_meeple_is_the_meeple_command():
    """For an environment whose scripts folder is not on the PATH."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "meeple", "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"meeple {metadata.version('meeple')}\n"


def test_ctrl_c_while_the_command_still_loads_ends_it_in_one_line():
    """A Ctrl-C in the command's first second, while its imports run, ends it as a later one
    does (exit status 130), with one line instead of the traceback of the import it cut.
    The command starts as its installed script does, from the entry point pyproject names."""
    import signal
    import subprocess
    import sys
    import tomllib
    from pathlib import Path

    from tests.processes import as_at_a_terminal

    pyproject = Path(__file__).parents[2] / "pyproject.toml"
    entry = tomllib.loads(pyproject.read_text())["project"]["scripts"]["meeple"]
    module, name = entry.split(":")
    script = f"import sys; from {module} import {name}; sys.exit({name}())"
    proc = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-c", script, "play", "erd"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_at_a_terminal,
    )
    assert proc.stderr is not None
    # -X importtime writes a line as each import ends: the first of meeple's own modules
    # has loaded, and the command's code is most of a second away.
    for line in proc.stderr:
        if " meeple." in line:
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    said = [line for line in err.splitlines() if not line.startswith("import time:")]
    assert (proc.returncode, out, said) == (
        130,
        "",
        ["Interrupted while meeple started: nothing was done."],
    ), err[-2000:]


@pytest.mark.parametrize("words", [[], ["agents"], ["play", "edges"], ["serve"], ["simulate"]])
def test_dash_h_is_help_as_dash_dash_help_is(run, words):
    short, long = run(*words, "-h"), run(*words, "--help")
    assert short.exit_code == 0 and "Usage: meeple" in short.output, short.output
    assert short.output == long.output


def test_each_command_is_summed_up_in_one_sentence_in_the_command_list():
    """The command list shows a docstring's first paragraph with its line breaks kept (Typer's
    rich mode), so a summary that wraps in the source breaks mid-phrase on the screen."""
    from meeple.interfaces.cli import app

    for command in app.registered_commands:
        summary = (command.callback.__doc__ or "").split("\n\n")[0]
        assert summary and "\n" not in summary, (command.name, summary)


@pytest.mark.parametrize(
    "command", ["play", "replay", "simulate", "results", "history", "solve", "analyse", "serve"]
)
def test_each_help_paragraph_wraps_at_the_terminal_width_only(run, command):
    """Every wrapped line of a command's description fills the 80-column screen: a short line
    followed by more of its paragraph is a line break kept from the source."""
    result = run(command, "--help")
    assert result.exit_code == 0, result.output
    lines = result.output.split("Usage: meeple")[1].split("╭")[0].splitlines()[2:]
    for line, following in itertools.pairwise(lines):
        if line.strip() and following.strip():
            assert len(line.rstrip()) > 60, (line, following)


def test_a_switch_that_is_off_unless_given_is_one_flag():
    """``--fresh``, not ``--fresh / --no-fresh`` with ``[default: no-fresh]``: a ``--no-``
    twin of a switch that is off anyway says nothing, and its column squeezed the option
    names of ``meeple serve --help`` to ``--max-creates-per-min…`` at 80 columns."""
    import typer.main

    from meeple.interfaces.cli import app

    group: Any = typer.main.get_command(app)  # Typer's own click, not the click package's
    twins = [
        (name, option.opts[0])
        for name, command in group.commands.items()
        for option in command.params
        if option.param_type_name == "option" and option.secondary_opts and option.default is False
    ]
    assert twins == []


def _every_command() -> list[list[str]]:
    """The words that name each command of ``meeple``, ``content copy`` among them."""
    import typer.main

    from meeple.interfaces.cli import app

    def walk(command: Any, words: list[str]) -> list[list[str]]:
        named = [words]
        for name, sub in getattr(command, "commands", {}).items():
            named += walk(sub, [*words, name])
        return named

    return walk(typer.main.get_command(app), [])


def test_help_labels_a_value_never_a_switch_and_a_repeated_flag_by_its_one_value(run):
    """Typer labelled each switch ``<bool>`` (``meeple play edges --quiet true`` is then
    refused for its ``true``) and each flag given once per value ``<list[str]>`` (``--seat
    random,human`` is refused as an agent's name): no help screen shows either beside an
    option, and the repeated flags say to repeat them. (An argument of several words keeps
    Typer's ``games... <list[str]>``: its name says there may be several.)"""
    for words in _every_command():
        result = run(*words, "--help")
        assert result.exit_code == 0, (words, result.output)
        # An option's row, "*" before a required one: "│ --seat" or "│ *  --variant".
        options = [line for line in result.output.splitlines() if re.match(r"│[ *]+-", line)]
        assert options, words
        for line in options:
            assert "<bool>" not in line and "<list[" not in line, (words, line)
            assert " range>" not in line, (words, line)  # <int> [x>=1], the bounds say it
    play = run("play", "--help").output.splitlines()
    quiet = next(line for line in play if line.startswith("│ --quiet"))
    assert "<" not in quiet and "show only the final position" in quiet
    seat = next(line for line in play if line.startswith("│ --seat"))
    words = " ".join(run("play", "--help").output.replace("│", " ").split())
    assert "<str>" in seat and "one --seat per seat in seat order" in words
    seed = next(line for line in play if line.startswith("│ --seed"))
    assert "<int>" in seed


@pytest.mark.parametrize(
    ("command", "groups"),
    [
        ("serve", ("Computer players", "Per client address", "Unfinished matches")),
        ("solve", ("Edges: proofs", "Erd")),
    ],
)  # fmt: skip
def test_long_option_lists_are_grouped_and_named_in_full_at_80_columns(run, command, groups):
    """The server's 32 limits in docs/security.md's groups, solve's 24 options by reading:
    Rich shortens a name that does not fit its column with an ellipsis, and at 80 columns
    22 of serve's names were cut (``--max-creates-per-min…``) in one long panel beside a
    ``--no-prepare-any-variant`` column, and solve's ``--export-certific…``; with the groups,
    three of serve's still were, beside ``<int range> [x>=1]`` labels (now ``<int>
    [x>=1]``)."""
    import typer.main

    from meeple.interfaces.cli import app

    group: Any = typer.main.get_command(app)  # Typer's own click, not the click package's
    names = {o.opts[0] for o in group.commands[command].params if o.param_type_name == "option"}
    result = run(command, "--help")
    assert result.exit_code == 0, result.output
    shown = {line.split()[1] for line in result.output.splitlines() if line.startswith("│ --")}
    assert names <= shown, names - shown
    for title in groups:
        assert f"─ {title}" in result.output


def test_rules_shows_how_to_play_and_the_options(run):
    result = run("rules", "edges")
    assert result.exit_code == 0
    assert "how to play" in result.output and "Pie rule" in result.output
    assert "Interpretations" not in result.output and "meeple rules edges --full" in result.output
    assert "--stash" in result.output


def test_rules_full_shows_the_reference_and_the_interpretations(run):
    result = run("rules", "edges", "--full")
    assert result.exit_code == 0
    assert "rules as implemented" in result.output and "Interpretations" in result.output


def test_rules_follow_the_option_flags(run):
    original = run("rules", "erd", "--rules", "original")
    assert original.exit_code == 0 and "no mercy rule" in original.output
    assert "at most two Lights" in run("rules", "erd").output
    bad = run("rules", "erd", "--rules", "0.3")
    assert bad.exit_code == 2 and "allowed: original | 0.01 | 0.02" in bad.output


def test_rules_show_a_designer_s_cards_and_full_says_its_tables_are_the_shipped(run, tmp_path):
    """Erosion's rules list the processes of the cards the game plays, an edited card file's
    included; the reference (--full) is the shipped game's, which it says where options are
    given (its card table showed the shipped Braided to a designer who had edited it)."""
    from meeple.core.designer import copy_data

    copy_data("erosion", tmp_path)
    path = tmp_path / "cards.json"
    data = json.loads(path.read_text())
    for card in data["cards"]:
        if card.get("process", {}).get("name") == "Braided":
            card["process"]["n"] = 2
    path.write_text(json.dumps(data))
    shipped = " ".join(run("rules", "erosion").output.split())
    assert "F Braided transport exactly 3 — 6" in shipped, shipped
    edited = " ".join(run("rules", "erosion", "--cards", str(path)).output.split())
    assert "F Braided transport exactly 2 — 6" in edited, edited
    full = run("rules", "erosion", "--cards", str(path), "--full")
    said = " ".join(full.output.split())
    assert full.exit_code == 0
    assert "The reference above is the shipped game's, its tables of the shipped data; the " in said
    assert f"meeple rules erosion --cards {path}" in said, said
    assert "the shipped game's" not in " ".join(run("rules", "erosion", "--full").output.split())


def test_an_option_given_twice_is_refused_naming_it(run):
    """The last was played and the first dropped without a word (--best-of 3 --best_of 5
    played best of 5)."""
    for words in (["--best-of", "3", "--best_of", "5"], ["--best-of=3", "--best-of", "3"]):
        result = run("rules", "erd", *words)
        assert result.exit_code == 2
        assert "error: option --best-of of erd is given twice; give it once" in result.output
    result = run("rules", "edges", "--pie", "--no-pie")
    assert "option --pie of edges is given twice" in result.output


def test_rules_of_an_unknown_game(run):
    result = run("rules", "chess")
    assert result.exit_code == 2 and "no game called 'chess'" in result.output


def test_agents_lists_the_seats_a_game_accepts(run):
    result = run("agents", "edges")
    assert result.exit_code == 0
    for name in ("human", "random", "greedy"):
        assert name in result.output


def test_play_agents_save_and_replay(run, tmp_path):
    path = tmp_path / "game.json"
    result = run(
        "play", "edges", "--board", "3x3", "--seat", "random", "--seat", "greedy",
        "--seed", "7", "--save", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output and "Red (seat 0): " in result.output
    record = GameRecord.load(path)
    assert record.options == {"board": "3x3"} and record.seed == 7
    assert record.seats == ["random", "greedy"] and len(record.moves) == 24
    replay = run("replay", str(path))
    assert replay.exit_code == 0
    assert "24. " in replay.output and "Game over" in replay.output
    stepped = run("replay", str(path), "--step")
    assert stepped.output.count("Score:") == 25


def test_human_gets_clear_messages_for_bad_input_and_never_a_traceback(run):
    moves = "\n".join(["hello", "L h9,9", "pie L", "help", "moves", "board", "L h0,0"]) + "\n"
    result = run(
        "play", "edges", "--board", "1x1", "--stash", "1/0/0", "--first", "0",
        "--seat", "human", "--seat", "random", "--seed", "1", input=moves,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    assert "'hello' is not an Edges move" in out
    assert "there is no edge h9,9 on a 1x1 board" in out
    assert "the pie rule can be used only on the second move" in out
    assert "legal moves" in out and "Commands:" in out
    assert "Game over" in out
    assert "Traceback" not in out


def test_quitting_without_save_says_how_to_go_on_from_the_history(run):
    """A player who typed quit was told only where the history kept the game: the stop
    says how to take it up again."""
    first = run(
        "play", "edges", "--board", "2x2", "--first", "0", "--seat", "human",
        "--seat", "random", "--seed", "2", input="L h0,0\nquit\n",
    )  # fmt: skip
    # Never folded by the program: the command copied from the terminal is whole, on its line.
    found = re.search(r"^meeple play --resume (\S+?\.json)$", first.output, re.MULTILINE)
    said = first.output
    assert first.exit_code == 0 and found, said
    assert json.loads(Path(found.group(1)).read_text())["moves"][0] == [0, "L h0,0"]


def test_quitting_keeps_the_saved_game_and_resume_continues_it(run, tmp_path):
    path = tmp_path / "g.json"
    first = run(
        "play", "edges", "--board", "2x2", "--first", "0", "--seat", "human",
        "--seat", "random", "--seed", "2", "--save", str(path), input="L h0,0\nquit\n",
    )  # fmt: skip
    assert first.exit_code == 0 and "saved in" in first.output
    said = " ".join(first.output.split())
    assert "Go on with:" in said and f"meeple play --resume {path}" in first.output.splitlines()
    saved = json.loads(path.read_text())
    assert saved["moves"][0] == [0, "L h0,0"] and saved["result"] is None
    resumed = run("play", "--resume", str(path), "--seat", "random", "--seat", "random")
    assert resumed.exit_code == 0, resumed.output
    assert GameRecord.load(path).replay().is_over


def test_end_of_input_at_a_prompt_stops_cleanly(run):
    result = run("play", "edges", "--seat", "human", "--seat", "random", "--seed", "1", input="")
    assert result.exit_code == 0 and "Stopped after" in result.output
    assert "> Stopped" not in result.output  # on a line of its own, not after the prompt


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # In flags, as typed: the option names a script sends (board) are for meeple.make.
        (["--bord", "3x3"], "unknown option '--bord' (did you mean '--board'?) for edges"),
        (["--no-pi"], "unknown option '--no-pi' (did you mean '--no-pie'?) for edges"),
        (["--board", "3by3"], "'3by3' is not a board size"),
        (["--board"], "option --board of edges needs a value"),
        (["stray"], "unexpected 'stray'"),
        (["--seat", "wizard"], "no agent called 'wizard'"),
        (["--seat", "random", "--seat", "random", "--seat", "random"], "has 2 seats but 3"),
    ],
)
def test_bad_command_lines_fail_with_a_clear_message(run, args, message):
    result = run("play", "edges", *args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_replay_of_a_broken_file(run, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    result = run("replay", str(bad))
    assert result.exit_code == 2 and "is not JSON" in result.output


def test_launcher_shows_defaults_and_asks_again_only_the_bad_answer(run):
    """Issue 32.1: every default is shown in brackets, and a bad answer is refused at once
    and only that question is asked again."""
    answers = [
        "chess",  # not a game: asked again
        "9",  # no game of that number: asked again
        "edges",
        "3",  # two players, or four in Double Edges: asked again
        "",  # two
        "maybe",  # neither play nor change: asked again
        "change",
        "3by3",  # board: bad, so the board alone is asked again
        # double is asked first, as the number of players; double_start is not asked of two
        "3x3", *[""] * (len(game_class("edges").Options.model_fields) - 3),
        "wizard",  # not an agent: asked again
        "random",
        "greedy",
        "five",  # not a seed: asked again
        "5",
    ]  # fmt: skip
    result = run("play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "no game called 'chess'" in out
    assert "no game number 9; type 0 to 5 or a game's name" in out
    assert "'five' is not a seed; type a whole number" in out
    assert "list index" not in out and "invalid literal" not in out
    assert "'3by3' is not a board size" in out
    assert "no agent called 'wizard'" in out
    assert "seed 5" in out and "Game over" in out and "--board 3x3" in out
    assert "Game (number or name) [browser]:" in out
    assert "pie (true | false) [true]:" in out and "first (random | a seat number) [random]:" in out
    assert "Red (seat 0): " in out and "[human]:" in out and "[hard]:" in out
    assert "easy / medium / hard / human / an agent" in out  # the levels are offered first
    assert "Edges is not played by '3' players: 2 or 4" in out
    assert "Other options: board=default, stash=default, pie=true, first=random" in out
    assert "  double (" not in out  # the number of players set it
    assert "type change to set the options, or press Enter to play these" in out
    assert out.count("  board (") == 2 and out.count("  stash (") == 1
    # The board's common values in words, as the lobby offers them, once above its question.
    assert out.count("    3x3: smaller (solved: a draw with best play)") == 1
    assert "try the options again" not in out


def test_the_launcher_plays_the_defaults_at_enter_and_says_who_can_take_a_seat(run):
    """A newcomer presses Enter at the options: the defaults are shown on one line and none
    is asked one by one; before the seats, what each word means, with the game's agents."""
    result = run("play", input="erosion\n\n\nrandom\nheuristic\n3\n")
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())  # as folded to the terminal's width
    assert "Players (2 / 3 / 4 / 5) [2]:" in out
    assert "Other options: advanced=false, legend=off" in out and "players=2" not in out
    assert "meeple rules erosion explains them" in out
    assert "players (a whole number" not in out and "Game over" in out
    assert "human (you, at this keyboard), the computer at easy, medium or hard" in out
    assert "meeple agents erosion says what each does" in out and "heuristic" in out


def test_the_launcher_asks_the_number_of_players_first_and_a_seat_for_each(run):
    """A game of 2 to 5 players: the number is asked on its own, before the other options
    (a newcomer should not have to find it among the rules' readings); a number the game
    does not allow is refused with the numbers it takes and asked again, and every seat is
    asked. Edges asks 2 or 4: four players is Double Edges."""
    answers = ["erosion", "six", "7", "3", "", "random", "random", "heuristic", "5"]
    result = run("play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert out.count("Players (2 / 3 / 4 / 5) [2]:") == 3
    assert "Erosion is not played by 'six' players: 2, 3, 4 or 5" in out
    assert "Erosion is not played by '7' players" in out
    assert "Rockies (seat 2)" in out and "--players 3" in out and "Game over" in out
    assert "Other options: advanced=false" in out
    answers = ["edges", "4", "", *["random"] * 4, "5"]
    result = run("play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "Players (2 / 4) [2]:" in out and "--double" in out and "B2 (seat 3)" in out
    assert "Game over" in out
    assert "first=random, double-start=any" in out  # Double Edges' own: who starts


def test_the_launcher_leaves_out_an_option_the_other_answers_make_moot(run):
    """Two-player Edges is neither shown nor asked Double Edges' "who starts"; Erosion asks
    when 'upon uplift' architecture fires only of a game with the Advanced Rules, which have
    architecture; Erd asks what a drawn game does only of a match of more than one game."""
    result = run("play", input="edges\n\n\nrandom\nrandom\n5\n")
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "Other options: board=default" in out and "double-start" not in out
    answers = ["edges", "", "change", *[""] * 5, "random", "random", "5"]
    result = run("play", input="\n".join(answers) + "\n")
    out = " ".join(result.output.split())
    assert result.exit_code == 0 and "Game over" in out, out
    assert "  auto-steps (" in result.output and "double-start" not in out
    skipped = ["erosion", "", "change", *[""] * 8, "random", "random", "5"]
    advanced = ["erosion", "", "change", "true", *[""] * 8, "random", "random", "5"]
    asked = []
    for answers in (skipped, advanced):
        result = run("play", input="\n".join(answers) + "\n")
        assert result.exit_code == 0 and "Game over" in result.output, result.output
        assert "  auto-steps (" in result.output
        asked.append("  uplift-architecture (every | once) [every]:" in result.output)
    assert asked == [False, True]
    defaults = run("play", input="erosion\n\n\nq\n").output
    assert "Other options: advanced=false" in defaults and "uplift-arch" not in defaults
    # Erd's drawn games matter in a match of any number of games but one.
    for best_of, shown in (("1", False), ("3", True)):
        blanks = [""] * (7 + shown)  # the options after best_of, match_draws where asked
        answers = ["erd", "change", "", best_of, *blanks, "random", "random", "5"]
        result = run("play", input="\n".join(answers) + "\n")
        over = "Match over" if shown else "Game over"
        assert result.exit_code == 0 and over in result.output, result.output
        assert ("  match-draws (count | replay) [count]:" in result.output) is shown


def test_a_game_without_a_choice_of_players_is_not_asked_it(run):
    """Erd seats two, always: no players question, and its options line is the whole one."""
    result = run("play", input="erd\n\nrandom\nrandom\n5\n")
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "Players (" not in out and "Options: rules=0.02" in out and "Other options" not in out


def test_an_agents_simultaneous_choice_is_not_shown_to_the_human(run):
    """Erd: the agent in seat 0 allocates first; the human in seat 1 must not see it."""
    result = run(
        "play", "erd", "--seat", "random", "--seat", "human", "--seed", "1", input="quit\n"
    )
    assert result.exit_code == 0, result.output
    assert "has chosen (hidden until all have)" in result.output
    assert "(seat 0): rush=" not in result.output


def test_an_option_the_others_make_moot_is_played_with_a_note(run, tmp_path):
    """Double Edges' who starts given to a two-player game, Erosion's architecture without
    the Advanced Rules, or Erd's drawn games to a single game: taken and ignored by the
    rules, as before, and now said before the game (at the terminal) or the run (in the
    lab); not said where it matters."""
    seats = ["--seat", "random", "--seat", "random", "--seed", "1", "--quiet"]
    note = "Note: double_start=a1 matters only with double=true: this game ignores it."
    result = run("play", "edges", "--board", "2x2", "--double-start", "a1", *seats)
    assert result.exit_code == 0 and "Game over" in result.output, result.output
    assert " ".join(note.split()) in " ".join(result.output.split())
    four = ["--seat", "random"] * 2 + seats
    result = run("play", "edges", "--double", "--double-start", "a1", *four)
    assert result.exit_code == 0 and "Game over" in result.output, result.output
    assert "Note:" not in result.output
    lab = ["--games", "1", "--out", str(tmp_path), "--db", f"sqlite:///{tmp_path / 'r.db'}"]
    result = run("simulate", "erosion", "--uplift-architecture", "once", *lab)
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "Note: uplift_architecture=once matters only with advanced=true" in said
    erd = ["erd", "--match-draws", "replay", *seats]
    result = run("play", *erd, "--best-of", "1")
    assert result.exit_code == 0 and "Game over" in result.output, result.output
    moot = "Note: match_draws=replay matters only with best_of other than 1: this game ignores it."
    assert moot in " ".join(result.output.split())
    result = run("play", *erd, "--best-of", "3")
    assert result.exit_code == 0 and "Match over" in result.output, result.output
    assert "Note:" not in result.output


def test_play_fills_missing_seats_with_the_level_asked_for(run):
    """Issue 28.7: --level picks the opponent; a --seat may name a level too."""
    result = run(
        "play",
        "erd",
        "--seat",
        "easy",
        "--level",
        "easy",
        "--seed",
        "3",
        "--quiet",
        "--best-of",
        "1",
    )
    assert result.exit_code == 0, result.output
    assert "easy (careless)" in result.output and "medium" not in result.output


def test_an_unknown_level_is_refused_with_the_levels(run):
    result = run("play", "erd", "--level", "expert")
    assert result.exit_code == 2
    assert "'expert' is not a level; choose one of easy, medium, hard" in result.output


def test_help_at_the_prompt_shows_the_boards_legend(run):
    """Issue 32.17: the legend of the board's marks is part of help."""
    result = run("play", "erosion", "--seat", "human", "--seat", "random", "--seed", "1",
                 input="help\nquit\n")  # fmt: skip
    assert "Reading the board" in result.output and "Weathering" in result.output


def test_the_launchers_first_choice_serves_the_lobby_and_prints_its_address(tmp_path):
    """Issue 55.1: `make run` (meeple play, Enter) starts the server with its lobby; with no
    browser to show it (no display here), the address is printed for the person to open."""
    import os
    import re
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    import httpx

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    meeple = Path(sys.executable).with_name("meeple")
    proc = subprocess.Popen(
        [str(meeple), "play"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 60
        url = None
        seen = ""
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line, f"meeple play ended before serving: {seen}"
            seen += line
            found = re.search(r"http://127\.0\.0\.1:\d+", line)
            url = found.group(0) if found else None
        assert url is not None, seen
        assert "0. In your browser" in seen
        for _ in range(100):
            try:
                reply = plain_http.get(url, timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        assert reply.status_code == 200 and "meeple" in reply.text
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    assert (tmp_path / "results" / "server.db").exists()


def test_no_help_cuts_a_word_short_at_80_columns(run):
    """Rich cuts a word wider than its column with an ellipsis: a default database URL
    (``sqlite:///results/meeple.…``), compare's ``--variant`` syntax and sweep's ``--field``
    example were cut so in their help, and no test looked past the options' names."""
    import typer.main

    from meeple.interfaces.cli import app

    group: Any = typer.main.get_command(app)
    commands = [[name] for name in group.commands]
    for name, command in group.commands.items():
        commands += [[name, sub] for sub in getattr(command, "commands", {})]
    cut = {}
    for words in commands:
        result = run(*words, "--help")
        assert result.exit_code == 0, (words, result.output)
        lines = [line for line in result.output.splitlines() if "…" in line]
        if lines:
            cut[" ".join(words)] = lines
    assert not cut, cut
