"""What a process pays to start: the libraries only some commands use are imported there.

Every server, agent worker, lab worker and command the suite (or an operator) starts imports
meeple's command line or the server's worker module first. The database library, scipy's
optimiser and matplotlib take a noticeable part of a second each to import, and most of
those processes never open a results database, solve a matrix game or draw a plot.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

LATE = ("sqlalchemy", "scipy.optimize", "matplotlib")
"""Libraries imported only where they are used."""


def _imported_after(code: str) -> list[str]:
    program = (
        f"import json, sys\n{code}\nprint(json.dumps([m for m in {LATE!r} if m in sys.modules]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    "module", ["meeple", "meeple.interfaces.cli", "meeple.interfaces.web.pool", "meeple.lab.run"]
)
def test_starting_a_process_imports_none_of_the_late_libraries(module: str) -> None:
    assert _imported_after(f"import {module}") == []


def test_the_check_sees_a_late_library_once_it_is_used() -> None:
    assert _imported_after("from meeple.store import ResultStore") == ["sqlalchemy"]
