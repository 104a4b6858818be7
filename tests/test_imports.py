"""What a process pays to start: the libraries only some commands use are imported there.

Every server, agent worker, lab worker and command the suite (or an operator) starts imports
meeple's command line or the server's worker module first. The database library, scipy's
optimiser, matplotlib and numba (with the games' compiled twins it compiles) take a
noticeable part of a second each to import, and most of those processes never open a
results database, solve a matrix game, draw a plot or play a compiled rollout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

LATE = ("sqlalchemy", "scipy.optimize", "matplotlib", "numba")
"""Libraries imported only where they are used."""


def _printed(program: str, env: dict[str, str] | None = None) -> list[str]:
    """What ``program``, run in a new Python process, prints as JSON."""
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _imported_after(code: str) -> list[str]:
    return _printed(
        f"import json, sys\n{code}\nprint(json.dumps([m for m in {LATE!r} if m in sys.modules]))"
    )


@pytest.mark.parametrize(
    "module", ["meeple", "meeple.interfaces.cli", "meeple.interfaces.web.pool", "meeple.lab.run"]
)
def test_starting_a_process_imports_none_of_the_late_libraries(module: str) -> None:
    assert _imported_after(f"import {module}") == []


def test_the_check_sees_a_late_library_once_it_is_used() -> None:
    assert _imported_after("from meeple.store import ResultStore") == ["sqlalchemy"]


@pytest.mark.parametrize(
    "code",
    [
        "compiled_playout(meeple.make('edges'))",
        "compiled_choice(meeple.make('triangle-clock'), 'guided')",
        "compiled_values(meeple.make('erosion'), 'random')",
        "batch_rules(meeple.make('erd'))",
    ],
)
def test_a_compiled_twin_registered_by_name_is_imported_where_it_is_asked_for(code: str) -> None:
    """The games register their compiled twins as ``module:name``: asking the registry for
    one imports it (and numba) and gives what it names."""
    setup = "import meeple\nfrom meeple.core.registry import *\n"
    assert _imported_after(f"{setup}assert ({code}) is not None") == ["numba"]


# Prints the installed (site-packages) modules the process imported whose bytecode is not
# on disk.
_UNCOMPILED = """import importlib.util, json, os, sys, sysconfig
{imports}
site = sysconfig.get_paths()["purelib"]
files = [getattr(m, "__file__", None) or "" for m in list(sys.modules.values())]
print(json.dumps(sorted(f for f in files if f.startswith(site) and f.endswith(".py")
                        and not os.path.exists(importlib.util.cache_from_source(f)))))
"""


def test_the_libraries_a_server_starts_with_are_installed_with_their_bytecode() -> None:
    """Where Python keeps no bytecode (``PYTHONDONTWRITEBYTECODE``), a library installed
    without it is compiled from source at every process's start: the suite's servers took
    1.8 times their CPU. pip compiles at install; make's set-up asks uv to
    (``--compile-bytecode``)."""
    imports = "import meeple.interfaces.cli, meeple.interfaces.web.app, fastapi, uvicorn"
    # Told to write none, the process cannot compile what it imports and pass by that.
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    missing = _printed(_UNCOMPILED.format(imports=imports), env)
    assert not missing, f"{len(missing)} installed modules have no bytecode, e.g. {missing[:3]}"
