"""Compiled kernels' disk cache (core/kernels.py, core/kernel_cache.py): a kernel that calls
another module's kernel runs the new code after that module changes, where numba's own check
(one file) kept the old; a mark of what was compiled ahead holds for the sources it was made
for only."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba.core import types

CALLEE = """
from meeple.core.kernels import kernel

@kernel(nogil=True)
def step(x):
    return x + {increment}
"""

CALLER = """
from meeple.core.kernels import kernel
from pkg.callee import step

@kernel(nogil=True)
def twice(x):
    return step(step(x))
"""


def _package(root: Path, increment: int) -> Path:
    package = root / "pkg"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "callee.py").write_text(CALLEE.format(increment=increment))
    (package / "caller.py").write_text(CALLER)
    return package


def _twice(root: Path, env: dict[str, str]) -> int:
    done = subprocess.run(
        [sys.executable, "-c", "from pkg.caller import twice; print(twice(1))"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    import os

    environment = dict(os.environ)
    environment.pop("NUMBA_CACHE_DIR", None)
    environment["XDG_CACHE_HOME"] = str(tmp_path / "user-cache")
    environment["PYTHONPATH"] = os.pathsep.join([str(tmp_path), *sys.path])
    return environment


def test_a_kernel_runs_the_new_code_of_a_kernel_it_calls_in_another_module(tmp_path, env):
    package = _package(tmp_path, increment=1)
    assert _twice(tmp_path, env) == 3
    caches = list((package / "__pycache__").glob("numba-*"))
    assert len(caches) == 1
    assert list(caches[0].rglob("*.nbi")), "the first run cached its machine code"
    assert _twice(tmp_path, env) == 3  # from the cache

    (package / "callee.py").write_text(CALLEE.format(increment=10))  # caller.py untouched
    assert _twice(tmp_path, env) == 21
    now = list((package / "__pycache__").glob("numba-*"))
    assert len(now) == 1 and now != caches, "the old sources' cache is removed"


def test_an_unwritable_tree_caches_in_the_users_cache_folder(tmp_path, env):
    package = _package(tmp_path, increment=2)
    (package / "__pycache__").write_text("not a folder")  # nothing can be made there
    assert _twice(tmp_path, env) == 5
    assert list((tmp_path / "user-cache" / "meeple").rglob("*.nbi"))
    assert _twice(tmp_path, env) == 5


CONSTANTS = "STEP = {increment}\n"

TWIN = """
from meeple.core.kernels import kernel
from game.constants import STEP

@kernel(nogil=True)
def twice(x):
    return x + 2 * STEP
"""


def _game(root: Path, increment: int) -> Path:
    """A game package whose compiled twin (``compiled/``) folds in a constant of the game."""
    game = root / "game"
    (game / "compiled").mkdir(parents=True, exist_ok=True)
    (game / "__init__.py").write_text("")
    (game / "constants.py").write_text(CONSTANTS.format(increment=increment))
    (game / "compiled" / "__init__.py").write_text("")
    (game / "compiled" / "rules.py").write_text(TWIN)
    return game


def _twin(root: Path, env: dict[str, str]) -> int:
    done = subprocess.run(
        [sys.executable, "-c", "from game.compiled.rules import twice; print(twice(1))"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


def test_a_compiled_twin_runs_the_new_value_of_a_constant_of_its_game(tmp_path, env):
    """The kernels of ``games/<game>/compiled/`` are keyed by the whole game package: a
    change to the game's own modules (a deck size, a step) is a fresh cache."""
    game = _game(tmp_path, increment=1)
    assert _twin(tmp_path, env) == 3
    caches = list((game / "__pycache__").glob("numba-*"))
    assert len(caches) == 1 and list(caches[0].rglob("*.nbi"))
    assert _twin(tmp_path, env) == 3  # from the cache

    (game / "constants.py").write_text(CONSTANTS.format(increment=10))  # the twin untouched
    assert _twin(tmp_path, env) == 21
    assert len(list((game / "__pycache__").glob("numba-*"))) == 1


WIDTHS = """
import numpy as np
from meeple.core.kernels import kernel

@kernel(nogil=True)
def add(x, y):
    return x + y

@kernel(nogil=True)
def calls(row):
    # an int16 read from a row, constants, an int32 and an int64: one signature of add
    return add(row[0], 1) + add(np.int32(2), 3) + add(4, row[0]) + add(np.int64(5), 6)
"""


def test_a_kernel_is_compiled_once_for_every_width_of_signed_integer_and_constant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Calls from another kernel with ``int16``, ``int32``, ``int64`` and constant arguments
    compile the callee once, for ``int64`` (``one_integer_type``), and give the same sums."""
    package = tmp_path / "widths"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "kernels.py").write_text(WIDTHS)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("widths.kernels")
    assert module.calls(np.array([7], dtype=np.int16)) == 8 + 5 + 11 + 11
    assert module.add.signatures == [(types.int64, types.int64)]
    # The extreme values of the narrow widths come through whole.
    assert (
        module.calls(np.array([np.iinfo(np.int16).max], dtype=np.int16))
        == 2 * 32767 + 1 + 4 + 5 + 11
    )


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The cache folders looked up afresh under ``tmp_path`` (and again after the test)."""
    from meeple.core import kernel_cache

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    kernel_cache.cache_folder.cache_clear()
    yield kernel_cache
    kernel_cache.cache_folder.cache_clear()


def test_a_job_marked_compiled_is_compiled_until_meeple_or_numba_changes(own_cache, monkeypatch):
    cache = own_cache
    assert cache.needs_compiling("edges")
    cache.mark_compiled("edges")
    assert not cache.needs_compiling("edges")
    assert cache.needs_compiling("erd")  # a game's mark is its own
    # Any source of meeple: a game's agents call kernels of core as well as the game's.
    monkeypatch.setattr(cache, "sources_hash", lambda folder: "another version")
    cache.cache_folder.cache_clear()
    assert cache.needs_compiling("edges")
    cache.mark_compiled("edges")
    monkeypatch.setattr(cache, "_numba_version", lambda: "0.0.1")
    assert cache.needs_compiling("edges")


def test_where_nothing_can_be_cached_nothing_needs_compiling_ahead(own_cache, monkeypatch):
    cache = own_cache
    monkeypatch.setattr(cache, "_writable", lambda folder: False)
    assert not cache.needs_compiling("edges")
    cache.mark_compiled("edges")  # nowhere to note it: no error
