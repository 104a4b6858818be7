"""Every bad input to the meeple command gives one ``error:`` line or a refused move, never a
traceback (issue 31): Rich markup in what a person types, bad records, saving over another
game, options and agent budgets out of range, and no secret choice written to disk."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from meeple.core.record import GameRecord

EDGES = ("play", "edges", "--board", "3x3", "--first", "0", "--seed", "1")


def _clean_error(result, text: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert "error:" in result.output and text in result.output


@pytest.mark.parametrize("typed", ["[/]", "[bold", "[/bold]", "[red]x[/]", "\\[/]", "é[/]ü"])
def test_rich_markup_typed_at_the_prompt_is_just_a_refused_move(run, typed):
    result = run(*EDGES, "--seat", "human", "--seat", "random", input=f"{typed}\nquit\n")
    assert result.exception is None, result.output
    assert result.exit_code == 0
    assert "Not allowed:" in result.output
    assert typed.replace("\\", "") in result.output.replace("\\", "")
    assert "Stopped after 0 moves" in result.output


def test_the_game_goes_on_after_markup_at_the_prompt(run):
    result = run(*EDGES, "--seat", "human", "--seat", "random", input="[/]\nL h0,0\nquit\n")
    assert result.exception is None, result.output
    assert "Stopped after 2 moves" in result.output


@pytest.mark.parametrize("name", ["[/]", "[bold]chess", "x[/red]"])
def test_an_error_quoting_markup_is_printed_not_interpreted(run, name):
    _clean_error(run("play", name), f"no game called {name!r}")


def test_an_option_that_cannot_round_trip_is_refused(run):
    # Past the option's day, as every number a record could not hold (JSON has no infinity).
    said = "'inf' is not allowed; allowed: a number from 0 to 86400"
    _clean_error(run("play", "triangle-clock", "--memorise-seconds", "inf"), said)


def test_an_empty_decks_list_is_refused(run):
    _clean_error(run("play", "squad-combat", "--decks", ","), "names no deck")


@pytest.mark.parametrize("spec", ["mcts:seconds=0", "mcts:seconds=nan", "ismcts:iterations=-1"])
def test_a_search_budget_out_of_range_is_refused(run, spec):
    _clean_error(run(*EDGES, "--seat", spec), "must be")


@pytest.mark.parametrize(
    "words",
    [
        ("simulate", "edges", "--games", "1000000000000"),
        ("compare", "edges", "--variant", "pie=true", "--games", "1000000001"),
        ("tournament", "edges", "--agent", "random", "--agent", "greedy", "-n", "2000000"),
        ("design", "edges", "--games", "1000001"),
        ("ranking", "--deals", "1000000000000"),
    ],
)
def test_a_count_of_games_past_the_bound_is_refused_before_anything_is_played(run, words):
    """--games 1000000000000 built a list of every game before playing one: 2.8 GB and a
    MemoryError traceback after 35 s; --deals of as many ran with nothing shown."""
    result = run(*words)
    assert result.exit_code == 2, result.output
    assert "less than or equal to 1000000" in " ".join(result.output.replace("│", " ").split())


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_a_folder_named_like_markup_is_printed_not_interpreted(run, tmp_path, command):
    """--out '[/]x' ended simulate and compare in a MarkupError traceback after every game
    had been played: the line naming the rows and the report read the path as markup."""
    out = tmp_path / "[/]x"
    variants = ["--variant", "pie=true", "--variant", "pie=false"] if command == "compare" else []
    result = run(command, "edges", "--board", "2x2", *variants, "--games", "2", "--out", str(out),
                 "--db", f"sqlite:///{tmp_path / 'r.db'}")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "[/]x" in result.output and "report" in result.output.lower()


def _edges_record(tmp_path, **changes):
    path = tmp_path / "game.json"
    data = {"game": "edges", "options": {"board": "3x3"}, "seed": 1, "moves": []}
    data.update(changes)
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"seats": ["random", "random", "random"]}, "names 3 seats"),
        ({"moves": [[5, "L h0,0"]]}, "there is no seat 5"),
        ({"moves": [[True, "L h0,0"]]}, "not a meeple game record"),
        ({"moves": None}, "not a meeple game record"),
        ({"options": {"board": "[/]"}}, "cannot be made"),
        ({"moves": [[0, "[/]"]]}, "does not replay"),
    ],
)
def test_a_bad_record_is_one_error_line(run, tmp_path, changes, message):
    path = _edges_record(tmp_path, **changes)
    _clean_error(run("replay", str(path)), message)
    _clean_error(run("play", "--resume", str(path)), message)


def test_a_record_that_is_not_utf8_is_one_error_line(run, tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b'{"game": "\xff"}')
    _clean_error(run("replay", str(path)), "not UTF-8")


def test_save_refuses_a_file_holding_another_game(run, tmp_path):
    path = tmp_path / "game.json"
    first = run(*EDGES, "--seat", "random", "--seat", "random", "--save", str(path))
    assert first.exit_code == 0
    before = path.read_text()
    again = run(*EDGES, "--seat", "random", "--seat", "random", "--save", str(path))
    # The same command again is the same game (same seed): said so, not "another game".
    _clean_error(again, "already holds this game, ")
    assert "--resume" in again.output
    assert path.read_text() == before
    other = run(*EDGES, "--seat", "random", "--seat", "random", "--save", str(path), "--seed", "9")
    _clean_error(other, "holds another game")
    assert path.read_text() == before


def test_save_refuses_a_file_that_is_not_a_record(run, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my notes\n")
    result = run(*EDGES, "--seat", "random", "--seat", "random", "--save", str(path))
    _clean_error(result, "is not a game record")
    assert path.read_text() == "my notes\n"


def test_resume_with_save_to_another_games_file_is_refused(run, tmp_path):
    mine = _edges_record(tmp_path)
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"game": "edges", "seed": 2, "moves": [[0, "L h0,0"]]}))
    result = run("play", "--resume", str(mine), "--save", str(other), "--seat", "random")
    _clean_error(result, "holds another game")


def test_save_keeps_an_agents_pending_erd_choice_off_the_disk(run, tmp_path):
    # The agent (seat 0) chooses first; the person (seat 1) then quits while choosing: the
    # agent's hidden allocation must not be in the file for the person to read.
    path = tmp_path / "erd.json"
    result = run(
        "play", "erd", "--seat", "random", "--seat", "human", "--seed", "3",
        "--save", str(path), input="quit\n",
    )  # fmt: skip
    assert result.exception is None, result.output
    assert GameRecord.load(path).moves == []
    resumed = run("play", "--resume", str(path), input="quit\n")
    assert resumed.exception is None, resumed.output
    assert re.search(r"Stopped after 1 move\b", resumed.output)  # the agent chose again


def test_save_to_a_place_that_cannot_be_written_is_one_error_line(run, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = run(*EDGES, "--seat", "random", "--seat", "random", "--save", f"{blocker}/g.json")
    _clean_error(result, "cannot save the record to")


def test_the_terminal_never_shows_an_agent_s_secret_choice(run):
    """Issue 32.4: every submission of a simultaneous decision is shown as "has chosen", the
    last one too; the Triangle Clock hand letter says which symbols a card holds."""
    out = run("play", "triangle-clock", "--seat", "random", "--seat", "random", "--seed", "1")
    assert out.exit_code == 0, out.output
    shown = [line for line in out.output.splitlines() if "(seat " in line and "):" in line]
    assert "has chosen (hidden until all have)" in out.output
    assert not [line for line in shown if line.split("):", 1)[1].strip()[:1] in "ABCDEFGH"]


def test_resuming_a_record_of_another_game_than_the_one_named_is_refused(run, tmp_path):
    """'meeple play edges --resume erd.json' went on with the Erd game, silently."""
    path = tmp_path / "erd.json"
    first = run(
        "play", "erd", "--best-of", "1", "--seat", "human", "--seat", "random", "--seed", "1",
        "--save", str(path), input="quit\n",
    )  # fmt: skip
    assert first.exit_code == 0, first.output
    _clean_error(run("play", "edges", "--resume", str(path)), "holds a game of erd, not edges")
    same = run("play", "erd", "--resume", str(path), input="quit\n")
    assert same.exit_code == 0 and "Stopped after 0 moves" in same.output, same.output


@pytest.mark.parametrize(
    "spec", ["mcts:iterations=10,iterations=20", "mcts:rollout-limit=5,rollout_limit=6"]
)
def test_a_parameter_given_twice_in_an_agent_spec_is_refused(run, spec):
    _clean_error(
        run("tournament", "edges", "--board", "2x2", "--agent", "random", "--agent", spec),
        "is given twice in agent spec",
    )


LONG = "a" * 300
"""A file name longer than a file system allows (255 bytes): ``Path.exists()`` raises on it."""

UNUSABLE_PATHS = [
    ("content", "check", "squad-combat", LONG),
    ("content", "copy", "erosion", f"{LONG}/x"),
    ("results", "RUN", "--csv", LONG),
    ("results", "RUN", "--db", f"sqlite:///{LONG}"),
    ("cards", "RUN", "--db", f"sqlite:///{LONG}"),
    ("replay", LONG),
    ("play", "edges", "--resume", LONG),
    ("play", "edges", "--position", LONG),
    ("play", "edges", "--board", "2x2", "--seat", "random", "--seat", "random", "--save", LONG),
    ("solve", "edges", "--position", LONG),
    ("simulate", "edges", "--games", "1", "--db", f"sqlite:///{LONG}"),
    ("solve", "edges", "--board", "2x2", "--prove", "0", "--checkpoint", "loop"),
    ("play", "edges", "--board", "2x2", "--seat", "random", "--seat", "random", "--save", "loop"),
]
"""A path each command takes, named so that the system refuses it: too long a name, or a
symbolic link to itself (``loop``)."""


def _refused_id(words: tuple[str, ...]) -> str:
    command = " ".join(words[:2]) if words[0] == "content" else words[0]
    where = words[-2] if words[-2].startswith("--") else "its file"
    return f"{command} {where} {'loop' if words[-1] == 'loop' else 'too long'}"


@pytest.mark.parametrize("words", UNUSABLE_PATHS, ids=_refused_id)
def test_a_path_the_system_refuses_is_one_error_line_naming_it(run, tmp_path, monkeypatch, words):
    """Each of these but the last ended in an OSError traceback (a name too long for
    ``Path.exists()`` or ``is_file()``, a link that loops where a missing file was looked
    for); now the command says in one line which path and the system's reason. The last,
    ``play --save`` given the link, was one line already (its own message), and stays so."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "loop").symlink_to("loop")
    result = run(*words)
    _clean_error(result, "cannot ")
    named = "loop" if words[-1] == "loop" else "aaaaaaaaaa"
    reason = "symbolic links" if named == "loop" else "File name too long"
    error = result.output[result.output.index("error:") :]
    assert len(error.strip().splitlines()) == 1, error
    assert named in error and reason in error, error


@pytest.mark.parametrize("flag", ["--db", "--content"])
def test_serve_given_a_path_the_system_refuses_says_so_in_one_line(tmp_path, flag):
    """``meeple serve --db sqlite:///NAME`` or ``--content NAME`` with too long a NAME ended in
    a traceback before the server started; it is one line now, the server never started."""
    from meeple.interfaces.web.client import free_port

    value = f"sqlite:///{LONG}" if flag == "--db" else LONG
    done = subprocess.run(
        [sys.executable, "-m", "meeple", "serve", "--port", str(free_port()), flag, value],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 2, output
    assert "Traceback" not in output
    assert "error: cannot use aaaa" in output and "File name too long" in output, output


@pytest.mark.parametrize(
    ("command", "where"),
    [
        (["simulate", "erosion", "--players", "3"], ""),
        (["compare", "erosion", "--variant", "players=2", "--variant", "players=3"], "players=3: "),
        (["sweep", "erosion", "--option", "players", "--values", "2,3"], "players 3: "),
        (["design", "erosion", "--games", "2"], "at 3 players: "),
    ],
)
def test_seats_that_do_not_fill_a_count_of_players_are_refused_naming_which(
    run, tmp_path, command, where
):
    """Two --seat for three players: which variant, value or count is refused, and what
    would do, before any game is played."""
    result = run(*command, "--seat", "heuristic", "--seat", "random", "--db",
                 f"sqlite:///{tmp_path / 'lab.db'}", "--out", str(tmp_path / "out"))  # fmt: skip
    _clean_error(result, f"{where}Erosion has 3 seats; 2 --seat given: give one for each seat")
    assert "Agents" not in result.output and not (tmp_path / "lab.db").exists()


def test_design_asks_for_games_that_rotate_evenly_at_every_count_at_once(run, tmp_path):
    """Erosion at 2 to 5 players: 60, not 'a multiple of 4' and, once that is mended, 'of 5'."""
    db = f"sqlite:///{tmp_path / 'lab.db'}"
    result = run("design", "erosion", "--rotate-seats", "--games", "8", "--seat", "random",
                 "--db", db, "--out", str(tmp_path / "out"))  # fmt: skip
    _clean_error(result, "--games must be a multiple of 60 (the seats at 2, 3, 4 and 5 players)")
    variants = ["--variant", "players=2", "--variant", "players=3"]
    compared = run("compare", "erosion", *variants, "--rotate-seats", "--games", "4", "--db", db,
                   "--out", str(tmp_path / "out"))  # fmt: skip
    _clean_error(compared, "players=3: with --rotate-seats, --games must be a multiple of 3")
