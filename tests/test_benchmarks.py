"""The benchmarks as commands: a bad ``--db`` ends one in a line, not a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"


def test_every_benchmark_opens_its_db_through_the_shared_guard() -> None:
    """A benchmark that opened ``ResultStore(args.db)`` itself ended a path given for a URL
    in a StoreError traceback (``agent_ladder.py --db ladder.db``)."""
    unguarded = [p.name for p in BENCHMARKS.glob("*.py") if "ResultStore(args." in p.read_text()]
    assert unguarded == []
    guarded = [p.name for p in BENCHMARKS.glob("*.py") if "open_results(args.db)" in p.read_text()]
    assert len(guarded) >= 6, guarded


@pytest.mark.parametrize(
    "command", [["agent_ladder.py"], ["erosion_seats.py", "abc"]], ids=["ladder", "seats"]
)
def test_a_database_path_that_is_not_a_url_is_refused_in_one_line(command: list[str]) -> None:
    run = subprocess.run(
        [sys.executable, str(BENCHMARKS / command[0]), *command[1:], "--db", "x.db"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1
    assert run.stderr.startswith("--db: 'x.db' is not a database URL; write sqlite:///")
    assert len(run.stderr.splitlines()) == 1
