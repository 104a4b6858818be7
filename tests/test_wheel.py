"""meeple as a stranger gets it: a built wheel, installed away from the repository.

Every other test runs the checkout's sources. Here the wheel is built by the project's own
build backend (hatchling, as ``pip wheel`` or ``python -m build`` would run it): it must
hold every file of the package the code reads at run time (rules texts, cards and decks,
the pages' static files, ``py.typed``) and the ``meeple`` command; and, unpacked into a
folder outside the checkout, its commands must run from another folder, reading nothing
from the repository (no docs, no ``src/``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.processes import meeple_each

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of the checkout as it stands, built by the build backend pyproject names."""
    pytest.importorskip("hatchling", reason="the build backend: pip install -e '.[dev]'")
    out = tmp_path_factory.mktemp("dist")
    # PEP 517's hook, as pip calls it: no download, no copy of the tree.
    hook = "import sys, hatchling.build as b; print(b.build_wheel(sys.argv[1]))"
    built = subprocess.run(
        [sys.executable, "-c", hook, str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert built.returncode == 0, built.stderr
    return out / built.stdout.split()[-1]


def _shipped_sources() -> set[str]:
    """The package's files and the command's entry module beside it, as the repository
    tracks them, named as in the wheel."""
    listed = subprocess.run(
        ["git", "ls-files", "src/meeple", "src/_meeple_entry.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return {line.removeprefix("src/") for line in listed.stdout.splitlines()}


def test_the_wheel_holds_every_file_of_the_package_and_the_command(wheel):
    with zipfile.ZipFile(wheel) as zipped:
        names = set(zipped.namelist())
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        scripts = zipped.read(entry_points).decode()
    tracked = _shipped_sources()
    # Each kind the code reads at run time, so a filter that dropped one fails here by name.
    for data in [
        "meeple/py.typed",
        "meeple/games/erosion/rules.md",
        "meeple/games/erosion/cards.json",
        "meeple/games/squad_combat/data/decks.toml",
        "meeple/games/triangle_clock/ranking.toml",
        "meeple/games/edges/tutorial.toml",
        "meeple/interfaces/web/static/index.html",
        "meeple/interfaces/web/static/js/lobby.js",
        "meeple/lab/metrics.md",
    ]:
        assert data in tracked, data
    missing = tracked - names
    assert not missing, f"not in the wheel: {sorted(missing)}"
    package = {n for n in names if not n.startswith("meeple-")}
    assert package == tracked, f"in the wheel, not tracked: {sorted(package - tracked)}"
    assert "_meeple_entry.py" in tracked
    assert "meeple = _meeple_entry:main" in scripts


def test_the_unpacked_wheel_runs_from_another_folder(wheel, tmp_path):
    site, elsewhere = tmp_path / "site", tmp_path / "elsewhere"
    with zipfile.ZipFile(wheel) as zipped:
        zipped.extractall(site)
    elsewhere.mkdir()
    # Only the unpacked package: the dev environment's editable install comes after it.
    env = {**os.environ, "PYTHONPATH": str(site), "MEEPLE_HISTORY": str(tmp_path / "history")}

    def meeple(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "meeple", *args],
            cwd=elsewhere,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, f"meeple {' '.join(args)}: {done.stdout}{done.stderr}"
        assert "Traceback" not in done.stdout + done.stderr
        return done.stdout

    where = subprocess.run(
        [sys.executable, "-c", "import meeple; print(meeple.__file__)"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(site)
    assert "Components" in meeple("rules", "erosion", "--full")  # python -m meeple
    # A lab report ends with what its figures mean, read from the package: away from a
    # checkout there is no docs/ for it to send its reader to.
    lab = ["--games", "2", "--jobs", "1", "--out", "out", "--db", "sqlite:///lab.db"]
    copied, played, simulated = meeple_each(
        [
            ["content", "copy", "squad-combat", "mine"],
            ["play", "edges", "--board", "2x2", "--seat", "random", "--seat", "greedy", "--quiet"],
            ["simulate", "edges", "--board", "2x2", "--seat", "random", "--seat", "random", *lab],
        ],
        env=env,
        cwd=elsewhere,
    )  # one Python, from the unpacked package, a child per command (tests.processes)
    for done in (copied, played, simulated):
        assert done.returncode == 0, f"{done.args}: {done.stdout}{done.stderr}"
        assert "Traceback" not in done.stdout + done.stderr
    assert (elsewhere / "mine" / "decks.toml").is_file()
    assert "Game over" in played.stdout
    [report] = (elsewhere / "out").glob("edges-*/report.md")
    assert "\n## What the figures mean\n" in report.read_text(encoding="utf-8")
    # The server's pages and static files, read from the unpacked package.
    pages = (
        "from fastapi.testclient import TestClient\n"
        "from meeple.interfaces.web.app import create_app\n"
        "with TestClient(create_app('sqlite:///server.db', agent_workers=1)) as c:\n"
        "    for path in ['/', '/replay', '/static/style.css', '/static/js/lobby.js',\n"
        "                 '/static/games/erosion.js', '/api/games/erosion/rules']:\n"
        "        r = c.get(path)\n"
        "        assert r.status_code == 200 and r.content, (path, r.status_code)\n"
    )
    served = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", pages],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert served.returncode == 0, served.stderr
