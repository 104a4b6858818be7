"""Where compiled kernels are cached on disk, and marks of what was compiled ahead.

numba's ``cache=True`` checks a cached function against its *own* file only
(:mod:`meeple.core.kernels` says why that is not enough). Each package's kernels are
cached in a folder named by a hash of every Python source in the package folder,
sub-packages included (and of the kernel modules), so any change there starts a fresh cache
and the stale one is removed. The folder is ``__pycache__/numba-<hash>`` in that package
where that is writable, else under the user's cache folder (``$XDG_CACHE_HOME/meeple``,
``~/.cache/meeple``), or under ``NUMBA_CACHE_DIR`` when that is set; where none is
writable nothing is cached.

A mark (:func:`mark_compiled`) says that what a job runs (an agent, a game's hints) was
compiled into the cache for the present sources of all of meeple: a server that finds it
compiles nothing ahead of the job's first use (:mod:`meeple.agents.warm`). This module
imports no numba, so a process that only looks for a mark does not load it.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import shutil
import sys
import tempfile
from importlib import metadata
from pathlib import Path

from meeple.core.files import user_cache_home

PREFIX = "numba-"

_KERNEL_MODULES = (Path(__file__), Path(__file__).with_name("kernels.py"))
"""Their sources are in every package's hash: they decide how a kernel is compiled."""


COMPILED = "compiled"
"""The name of a game's sub-package holding its compiled twin (``games/<game>/compiled/``)."""


def sources_root(folder: Path) -> Path:
    """The package folder whose sources a kernel defined in ``folder`` may depend on: the
    enclosing game package for a ``compiled/`` sub-package (its kernels fold in the game's
    constants), else ``folder`` itself."""
    return folder.parent if folder.name == COMPILED else folder


@functools.cache
def sources_hash(folder: Path) -> str:
    """A hash of every ``.py`` file under ``folder`` (paths and bytes, sub-packages
    included) and of the modules that decide how kernels are compiled and cached."""
    digest = hashlib.sha256()
    named = [(p.relative_to(folder).as_posix(), p) for p in sorted(folder.rglob("*.py"))]
    for name, path in [*named, *((p.name, p) for p in _KERNEL_MODULES)]:
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def _bases(source_folder: Path) -> list[Path]:
    """Where a package's caches may live, in order of preference."""
    # Outside the source tree, one folder per checkout: two checkouts would otherwise take
    # turns removing each other's caches.
    tree = hashlib.sha1(str(source_folder.resolve()).encode()).hexdigest()[:12]
    mine = f"{source_folder.name}-{tree}"
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        return [Path(user) / "meeple" / mine]
    return [source_folder / "__pycache__", user_cache_home() / mine]


@functools.cache
def cache_folder(source_folder: Path) -> Path | None:
    """The cache folder for kernels defined in ``source_folder``, made and writable, with the
    caches of other versions of its sources removed (``None``: nowhere writable)."""
    name = PREFIX + sources_hash(source_folder)
    for base in _bases(source_folder):
        here = base / name
        if not _writable(here):
            continue
        for stale in base.glob(PREFIX + "*"):
            if stale != here:
                shutil.rmtree(stale, ignore_errors=True)
        # numba's own in-tree cache files from before this module (their check was one file).
        for stale_file in [*base.glob("*.nbi"), *base.glob("*.nbc")]:
            stale_file.unlink(missing_ok=True)
        return here
    return None


@functools.cache
def _numba_version() -> str:
    # From the installed package's metadata: importing numba takes a third of a second.
    return metadata.version("numba")


def keeps_compiled() -> bool:
    """Whether compiled code can be kept on disk here for later processes (a cache folder
    of meeple's is writable: :func:`cache_folder`); where not, every process compiles what
    it calls."""
    return _marks_folder() is not None


def cache_places() -> str:
    """Where :func:`cache_folder` may keep compiled code, in words, for a message."""
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        return f"{Path(user) / 'meeple'} (NUMBA_CACHE_DIR)"
    return f"meeple's own __pycache__ folders, or {user_cache_home()}"


def _marks_folder() -> Path | None:
    # Keyed by every source of meeple, not one package's: a game's agents reach kernels of
    # core and of the game, and of any package a later change may add.
    return cache_folder(Path(__file__).resolve().parents[1])


def _mark(job: str) -> Path | None:
    folder = _marks_folder()
    if folder is None:
        return None
    # Named by a hash: a job names an agent spec, which a server is sent.
    version = f"numba{_numba_version()}-py{sys.version_info.major}{sys.version_info.minor}"
    name = hashlib.sha256(f"{job}\0{version}".encode()).hexdigest()[:24]
    return folder / f"{name}.compiled"


def mark_compiled(job: str) -> None:
    """Note that what ``job`` runs (a name :func:`meeple.agents.warm.compiled_job` gives)
    is compiled into the cache, for the present sources of meeple and this numba and Python
    (each keeps caches of its own)."""
    mark = _mark(job)
    if mark is not None:
        with contextlib.suppress(OSError):  # unmarked, a server compiles it again: no harm
            mark.touch()


def needs_compiling(job: str) -> bool:
    """Whether compiling ``job`` ahead would help a later process: a cache is kept and
    :func:`mark_compiled` has not noted ``job`` for the present sources. (Where no cache is
    kept, every process compiles what it calls, and nothing compiled ahead is kept.)"""
    mark = _mark(job)
    return mark is not None and not mark.exists()
