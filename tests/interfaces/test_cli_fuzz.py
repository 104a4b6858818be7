"""Fuzzing the ``meeple`` command: random command lines, each word a good value or a bad one.

Whatever a person types, a command ends with its work done or with one ``error:`` line (or
Typer's usage box), never a traceback. Every command is tried but ``serve`` (its flags have
their own tests) with its flags and the game's option flags, each value drawn from the
good ones and from what the system refuses or a parser trips on: a name longer than the
file system allows, a link to itself, a folder, markup, NaN, a huge number. The counts of
games, deals and iterations stay small, so an example costs at most a second or so.
``make test`` runs a few examples; ``make fuzz`` many more.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

import meeple
from meeple.core.conformance import random_playthrough
from meeple.core.errors import MeepleError
from meeple.interfaces.cli import app

pytestmark = pytest.mark.fuzz

EXAMPLES = 20 * (100 if os.environ.get("MEEPLE_FUZZ") == "long" else 1)

GAMES = ["edges", "erd", "erosion", "squad-combat", "triangle-clock"]
ODD = ["", "-1", "0", "1e309", "nan", "abc", "é", "[/]", "a" * 300, "x=1", "2x2", "999999999999"]
"""Values no flag takes as they are, or that trip a parser or the file system."""
PATHS = ["a" * 300, "loop", "dir", "game.json/x", "game.json", "bad.json", "missing.json"]
"""Files as the example's folder has them (:func:`_folder`): too long a name, a link to
itself, a folder, a path through a file, a record, a file that is no record, no file."""

Value = Callable[[random.Random], str | None]
"""A way to draw one value of a flag (None: a switch, given without a value)."""


def mostly(*good: str, bad: Sequence[str] = ODD) -> Value:
    """One of ``good`` nine times in ten, else one of ``bad``: a command line of several
    values gets past its checks often enough to do its work."""
    return lambda rng: rng.choice(good) if rng.random() < 0.9 else rng.choice(bad)


def switch(rng: random.Random) -> None:
    """A flag that takes no value (an empty value, ``--db ''``, is one of :data:`ODD`)."""


count = mostly("1", "2", "3")
small = mostly("1", "5", "20")
seat = mostly("random", "human", "easy", "mcts:iterations=5", "greedy")
db = mostly("sqlite:///r.db", bad=["sqlite:///" + "a" * 300, "sqlite:///dir", "nonsense://"])
record = mostly("game.json", bad=PATHS + ODD)
out = mostly("out", bad=PATHS + ODD)
file = mostly("default", bad=PATHS)

OPTIONS: dict[str, dict[str, Value]] = {
    "edges": {"--stash": mostly("2/2/1", "1/1/0"), "--pie": mostly("true", "false")},
    "erd": {"--rules": mostly("original", "0.01", "0.02"), "--best-of": mostly("1", "3"),
            "--reserve": mostly("HLD", "D", "HHLLDD")},
    "erosion": {"--players": mostly("2", "3", "5"), "--cards": file},
    "squad-combat": {"--players": mostly("2", "4"), "--turn-limit": mostly("1", "3"),
                     "--hand-size": mostly("1", "12"), "--content": file},
    "triangle-clock": {"--items": mostly("all/none", "mulligan/all"), "--ranking": file},
}  # fmt: skip
"""Option flags of each game, each with good values and bad ones; a count of rounds or
turns kept small (an Edges board is always given, and small: :func:`command_line`)."""

VARIANTS = {
    "edges": ("pie=true", "pie=false"),
    "erd": ("rules=original", "best_of=3"),
    "erosion": ("players=2", "players=3"),
    "squad-combat": ("hand_size=4", "x: hand_size=5"),
    "triangle-clock": ("tie_break=whole-hand", "tie_break=rank-first"),
}
"""Two variants of each game, for ``compare``."""
SWEEPS = {
    "edges": ("pie", "true,false"),
    "erd": ("best-of", "1,3"),
    "erosion": ("players", "2,3"),
    "squad-combat": ("hand-size", "4,5"),
    "triangle-clock": ("tie-break", "rank-first,whole-hand"),
}
"""An option of each game and two of its values, for ``sweep``."""

LAB = {"--jobs": mostly("1", "2"), "--db": db, "--out": out, "--fresh": switch}
"""The flags every lab command takes."""


def _flags(rng: random.Random, flags: dict[str, Value]) -> list[str]:
    words: list[str] = []
    for flag in rng.sample(sorted(flags), min(rng.choice([0, 1, 1, 2, 3]), len(flags))):
        value = flags[flag](rng)
        words += [flag] if value is None else [flag, value]
    return words


def command_line(rng: random.Random) -> list[str]:
    """A command line: the command, its arguments, some of its flags and a game's options.
    The flags that would make an example long (a count of games, a search's iterations, an
    Edges board) are always given, small or bad."""
    name = mostly(*GAMES)(rng)
    # The game's own options; a word that is no game gets Edges' (it is refused first).
    options = _flags(rng, OPTIONS.get(name, OPTIONS["edges"]))
    if name == "edges":
        options += ["--board", mostly("2x2", "1x2", "2x1")(rng)]
    seats = [w for _ in range(rng.choice([0, 2, 2, 3])) for w in ("--seat", seat(rng))]
    variants = [
        w for v in VARIANTS.get(name, VARIANTS["edges"]) for w in ("--variant", mostly(v)(rng))
    ]
    swept, values = SWEEPS.get(name, SWEEPS["edges"])
    # A saved game or a position, now and then: either fixes the game's options.
    given = [rng.choice(["--resume", "--position"]), record(rng)] if rng.random() < 0.15 else []
    lines: dict[str, Callable[[], list[str]]] = {
        "games": lambda: ["games"],
        "rules": lambda: ["rules", name, *_flags(rng, {"--full": switch}), *options],
        "agents": lambda: ["agents", name],
        "play": lambda: ["play", name, *seats, "--quiet", *options,
            *_flags(rng, {"--seed": small, "--save": out, "--level": mostly("easy", "medium")}),
            *given],
        "replay": lambda: ["replay", record(rng), *_flags(rng, {"--all": switch,
            "--step": switch, "--game": small, "--seat": mostly("0", "1")})],
        "simulate": lambda: ["simulate", name, "--games", count(rng), *seats, *options,
                             *_flags(rng, LAB)],
        "compare": lambda: ["compare", name, "--games", count(rng), *variants, *options,
                            *_flags(rng, LAB)],
        "tournament": lambda: ["tournament", name, "-n", count(rng), "--agent", seat(rng),
                               "--agent", seat(rng), *options, *_flags(rng, LAB)],
        "sweep": lambda: ["sweep", name, "--games", count(rng), "--option",
            mostly(swept)(rng), "--values", mostly(values)(rng),
            *options, *_flags(rng, LAB)],
        "results": lambda: ["results", *rng.sample(ODD, rng.randint(0, 1)),
                            *_flags(rng, {"--csv": out, "--db": db})],
        "cards": lambda: ["cards", rng.choice(ODD),
                          *_flags(rng, {"--json": switch, "--plot": out, "--db": db})],
        "ranking": lambda: ["ranking", *[file(rng)] * rng.randint(0, 1), "--deals",
            mostly("100", "300")(rng),
            *_flags(rng, {"--json": switch, "--plot": mostly("r.png"),
                          "--tie-break": mostly("whole-hand")})],
        "history": lambda: ["history", *_flags(rng, {"--last": small})],
        "solve": lambda: ["solve", mostly("edges")(rng), "--board", mostly("2x2", "1x2")(rng),
            *_flags(rng, {"--stash": mostly("2/2/1", "1/1/1"), "--position": record,
                          "--top": small, "--prove": mostly("0", "1"), "--checkpoint": out})],
        "analyse": lambda: ["analyse", record(rng), "--iterations", small(rng),
            *_flags(rng, {"--all": switch, "--json": switch, "--max-left": small})],
        "content": lambda: ["content", rng.choice(["check", "copy"]), name, out(rng)],
    }  # fmt: skip
    return lines[rng.choice(sorted(lines))]()


def _folder(folder: Path) -> None:
    """The files :data:`PATHS` names, in ``folder``: an Edges 2x2 record among them."""
    random_playthrough(meeple.make("edges", board="2x2"), seed=1).record().save(
        folder / "game.json"
    )
    (folder / "bad.json").write_text('{"game": "edges", "moves": [1,')
    (folder / "loop").symlink_to("loop")
    (folder / "dir").mkdir()


def test_any_command_line_ends_in_its_work_or_one_error_line(tmp_path, monkeypatch):
    """Each example in a folder of its own, with the files :data:`PATHS` names; a failure
    names the example and its command line (the same seed draws the same lines)."""
    rng = random.Random(7)
    for example in range(EXAMPLES):
        folder = tmp_path / str(example)
        folder.mkdir()
        _folder(folder)
        monkeypatch.chdir(folder)
        monkeypatch.setenv("MEEPLE_HISTORY", str(folder / "history"))
        words = command_line(rng)
        result = CliRunner().invoke(app, words, input="quit\n" * 3)
        shown = f"example {example}: meeple {' '.join(w[:40] for w in words)}\n"
        shown += result.output[-2000:]
        error = result.exception
        # A MeepleError that leaves a command is printed by the entry point in one line.
        assert error is None or isinstance(error, SystemExit | MeepleError), (shown, error)
        assert "Traceback" not in result.output, shown
        if result.exit_code not in (0, 1) and not isinstance(error, MeepleError):
            assert "error" in result.output.lower() or "Usage:" in result.output, shown
