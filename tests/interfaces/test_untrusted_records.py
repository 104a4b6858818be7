"""A record is data from anyone (issue 53): ``meeple replay`` and ``meeple play --resume``
never read a file that a record names, only one the user types on the command line, and a
malformed record is one ``error:`` line, never a traceback."""

from __future__ import annotations

import os
import shutil
from importlib import resources

import pytest

import meeple
from meeple.agents import make_agent, play_game
from meeple.core.errors import MeepleError
from meeple.core.record import GameRecord
from tests.processes import meeple_each


def _clean_error(result, *texts: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    flat = " ".join(result.output.split())
    for text in texts:
        assert text in flat, result.output


def _ranking_record(tmp_path) -> tuple:
    """A finished Triangle Clock game played with a copy of the shipped ranking table."""
    table = tmp_path / "my-ranking.toml"
    shipped = resources.files("meeple.games.triangle_clock").joinpath("ranking.toml")
    with resources.as_file(shipped) as source:
        shutil.copy(source, table)
    game = meeple.make("triangle-clock", ranking=str(table))
    seats = [make_agent("random", game, p) for p in range(game.num_players)]
    path = tmp_path / "game.json"
    play_game(game, seats, seed=5).record().save(path)
    return path, table


@pytest.mark.parametrize("command", [("replay",), ("play", "--resume")])
@pytest.mark.parametrize("named", ["/etc/passwd", "/proc/self/environ", "/dev/zero"])
def test_a_file_a_record_names_is_not_read(run, tmp_path, command, named):
    path, _table = _ranking_record(tmp_path)
    record = GameRecord.load(path)
    record.model_copy(update={"options": {"ranking": named}}).save(path)
    args = [*command, str(path)] + (["--all"] if command == ("replay",) else [])
    result = run(*args)
    _clean_error(result, "option 'ranking'", "names a file", "--ranking PATH")
    assert "TOML" not in result.output and "root:" not in result.output


def test_a_file_typed_on_the_command_line_is_read(run, tmp_path):
    path, table = _ranking_record(tmp_path)
    refused = run("replay", str(path), "--all")
    _clean_error(refused, "option 'ranking'", "names a file")
    result = run("replay", str(path), "--all", "--ranking", str(table))
    assert result.exit_code == 0, result.output
    other = run("replay", str(path), "--all", "--seats", "3")
    _clean_error(other, "only its file options may be typed", "--ranking")


def test_resume_reads_only_a_typed_content_folder(run, tmp_path):
    folder = tmp_path / "content"
    shipped = resources.files("meeple.games.squad_combat").joinpath("data")
    with resources.as_file(shipped) as source:
        shutil.copytree(source, folder)
    game = meeple.make("squad-combat", content=str(folder))
    path = tmp_path / "squad.json"
    GameRecord(game="squad-combat", options=game.options.changed(), seed=3, moves=[]).save(path)
    refused = run("play", "--resume", str(path), "--seat", "random", "--seat", "random")
    _clean_error(refused, "option 'content'", "names a file", "--content PATH")
    typed = run(
        "play", "--resume", str(path), "--content", str(folder), "--seat", "random",
        "--seat", "random", "--quiet", "--no-history",
    )  # fmt: skip
    assert typed.exit_code == 0, typed.output


def _special_files(tmp_path) -> dict[str, str]:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    big = tmp_path / "big.toml"
    big.write_text("# padding\n" * 500_000)  # 5 MB: over the 4 MB cap
    return {"/dev/zero": "not a plain file", str(fifo): "not a plain file",
            str(tmp_path): "is a folder", str(big): "larger than a game data file"}  # fmt: skip


# Each command line runs in a process of its own with a time limit (tests.processes): a
# regression that reads /dev/zero or waits on a pipe must fail the test, not hang it or fill
# the machine's memory.


def test_a_typed_ranking_table_is_read_with_a_cap_and_only_if_a_plain_file(tmp_path):
    special = _special_files(tmp_path)
    results = meeple_each([
        ["play", "triangle-clock", "--ranking", path, "--seat", "random", "--seat", "random",
         "--quiet", "--no-history"]
        for path in special
    ])  # fmt: skip
    for (path, says), result in zip(special.items(), results, strict=True):
        assert result.returncode == 2, (path, result.stdout, result.stderr)
        output = " ".join((result.stdout + result.stderr).split())
        assert "Traceback" not in output and says in output, (path, output)


def test_a_typed_content_folder_is_read_with_a_cap_and_only_plain_files(tmp_path):
    shipped = resources.files("meeple.games.squad_combat").joinpath("data")
    special = _special_files(tmp_path)
    folders = []
    for n, path in enumerate(special):
        folder = tmp_path / f"content{n}"
        with resources.as_file(shipped) as source:
            shutil.copytree(source, folder)
        (folder / "cards.toml").unlink()
        (folder / "cards.toml").symlink_to(path)
        folders.append(folder)
    results = meeple_each([
        ["play", "squad-combat", "--content", str(folder), "--seat", "random", "--seat",
         "random", "--quiet", "--no-history"]
        for folder in folders
    ])  # fmt: skip
    for (path, says), result in zip(special.items(), results, strict=True):
        assert result.returncode == 2, (path, result.stdout, result.stderr)
        output = " ".join((result.stdout + result.stderr).split())
        assert "Traceback" not in output, output
        # The content's digest reads every file first, so each is named with what it is.
        assert says in output and "cards.toml" in output, (path, output)


@pytest.mark.parametrize("command", [("replay",), ("play", "--resume")])
def test_a_record_with_a_5000_digit_number_is_one_error_line(run, tmp_path, command):
    path = tmp_path / "huge.json"
    path.write_text('{"format": "meeple-record/1", "game": "edges", "seed": ' + "9" * 5000
                    + ', "moves": []}')  # fmt: skip
    _clean_error(run(*command, str(path)), "too many digits")


@pytest.mark.parametrize("name", [None, 5, ["edges"]])
def test_make_names_the_games_when_the_name_is_not_text(name):
    with pytest.raises(MeepleError, match=r"the games are: .*edges"):
        meeple.make(name)
