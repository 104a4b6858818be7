"""Issue 34.2 on the command line: ``meeple play GAME --position ...`` starts a game from a
position (text or a file), and ``meeple solve edges --position ...`` solves one (a saved
game's record is still accepted)."""

from __future__ import annotations

import random

import meeple
from meeple.core.record import GameRecord
from meeple.solvers.edges_solver import EdgesSolver


def some_position(name: str, moves: int, **options: object):
    """The state after ``moves`` random moves of a game."""
    game = meeple.make(name, **options)
    state = game.new_game(5)
    rng = random.Random(5)
    for _ in range(moves):
        seat = rng.choice(state.to_act)
        state = state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def test_play_starts_from_a_position_and_records_it(run, tmp_path):
    """The game goes on from the position (its options from it), and the saved record
    replays from the same start."""
    start = some_position("edges", 18, board="3x3")
    path = tmp_path / "game.json"
    args = ["--seat", "random", "--seat", "random", "--quiet", "--no-history", "--seed", "4"]
    out = run("play", "edges", "--position", start.position(), *args, "--save", str(path))
    assert out.exit_code == 0, out.output
    record = GameRecord.load(path)
    assert record.start == start.position()
    assert len(record.moves) == 24 - 18  # only the pyramids left were placed
    assert record.states()[0] == start
    assert record.replay().is_over


def test_play_reads_a_position_from_a_file(run, tmp_path):
    start = some_position("erd", 2)
    file = tmp_path / "start.txt"
    file.write_text(start.position(), encoding="utf-8")
    out = run(
        "play", "erd", "--position", str(file), "--seat", "random", "--seat", "random",
        "--quiet", "--no-history", "--save", str(tmp_path / "g.json"),
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert GameRecord.load(tmp_path / "g.json").states()[0] == start


def test_play_explains_a_bad_position_in_one_line(run, tmp_path):
    text = some_position("edges", 4).position()
    seats = ["--seat", "random", "--seat", "random", "--no-history"]
    cases = [
        (
            ["edges", "--position", text.replace("stashes", "stashs")],
            "no field 'stashs'; the fields are: board, stashes",
        ),
        (["erd", "--position", text], "of 'edges', not of 'erd'"),
        (["edges", "--position", "nonsense"], "neither a position"),
        (["edges", "--position", text, "--board", "3x3"], "with options"),
    ]
    for args, expected in cases:
        out = run("play", *args, *seats)
        assert out.exit_code == 2, out.output
        assert expected in out.output
        assert "Traceback" not in out.output
    record = tmp_path / "game.json"
    GameRecord(game="edges", seed=1, moves=[]).save(record)
    out = run("play", "edges", "--position", str(record), *seats)
    assert out.exit_code == 2 and "--resume" in out.output
    out = run("play", "edges", "--position", text, "--resume", str(record), *seats)
    assert out.exit_code == 2 and "starts a new one" in out.output


def test_play_takes_the_game_from_a_position_that_names_it(run, tmp_path):
    """`meeple play --position FILE` with no game named opened the choice of a game (its
    first choice the browser), dropping the position and the seats; a position of another
    game than the one named was refused for an option of the wrong game ('unknown option
    board for erd'); a game's option with no game named now says to name it."""
    start = some_position("edges", 18, board="3x3")
    file = tmp_path / "start.txt"
    file.write_text(start.position(), encoding="utf-8")
    seats = ["--seat", "random", "--seat", "random", "--quiet", "--no-history"]
    out = run("play", "--position", str(file), *seats, "--save", str(tmp_path / "g.json"))
    assert out.exit_code == 0, out.output
    assert GameRecord.load(tmp_path / "g.json").states()[0] == start
    wrong = run("play", "erd", "--position", str(file), *seats)
    assert wrong.exit_code == 2
    assert "this is a position of 'edges', not of 'erd'" in wrong.output
    unnamed = run("play", "--board", "3x3", *seats)
    assert unnamed.exit_code == 2
    assert "--board is a game's option: name the game first" in unnamed.output


def test_solve_takes_a_position_as_text_or_a_record(run, tmp_path):
    """The same late 3x3 position solved from its text and from a record ending in it."""
    start = some_position("edges", 18, board="3x3", pie=False, first=0)
    cache = ["--cache-dir", str(tmp_path / "c"), "--no-cache"]
    out = run("solve", "edges", "--position", start.position(), *cache)
    assert out.exit_code == 0, out.output
    value = EdgesSolver(start.game.board, tt_bits=12).value(start)
    assert f"value {value:+d}" in out.output
    assert "6 pyramids to place" in out.output
    bad = run("solve", "edges", "--position", start.position().replace("3x3", "3x9"), *cache)
    assert bad.exit_code == 2 and "Traceback" not in bad.output
