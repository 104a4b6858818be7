"""Solved results on disk, so that solving the same position again is instant.

The cache lives in the user's cache folder, never in the repository: ``$MEEPLE_CACHE_DIR``
if set, else ``$XDG_CACHE_HOME/meeple/solver``, else ``~/.cache/meeple/solver``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, NamedTuple

from meeple.core.files import atomic_write
from meeple.games.edges.rules import EdgesState

CACHE_FORMAT = "edges-solve/2"


def default_cache_dir() -> Path:
    """Where solved results go unless a folder is given."""
    env = os.environ.get("MEEPLE_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "meeple" / "solver"


def position_id(state: EdgesState) -> str:
    """A stable name for a position: everything that decides its value, hashed."""
    game = state.game
    data = {
        "format": CACHE_FORMAT,
        "board": str(game.board),
        "pie": game.options.pie,
        "owner": state.owner,
        "pyramid": state.pyramid,
        "stashes": [list(s) for s in state.stashes],
        "order": state.order,
        "turn": state.turn,
        "first_edge": state.first_edge,
        "took_over": state.took_over,
    }
    text = json.dumps(data, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _check(key: str, content: dict[str, Any]) -> str:
    """The check stored with a result: binds it to its position's key and format."""
    text = json.dumps({"key": key, "format": CACHE_FORMAT, **content}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


class CacheEntry(NamedTuple):
    """What :func:`read` found: the result (None if there is none to believe) and, for an
    entry that was there but failed its check, why it is not believed."""

    result: dict[str, Any] | None
    problem: str | None = None


def read(folder: Path, key: str) -> CacheEntry:
    """The stored result for ``key``, verified; a damaged, edited or foreign entry is
    treated as missing (its ``problem`` says why), so the position is solved again."""
    path = folder / f"{key}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return CacheEntry(None)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        return CacheEntry(None, f"{path} cannot be read ({type(exc).__name__})")
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT:
        return CacheEntry(None, f"{path} is not a solved result of this meeple ({CACHE_FORMAT})")
    check = data.pop("check", None)
    content = {k: v for k, v in data.items() if k not in ("format", "key")}
    if data.get("key") != key or check != _check(key, content):
        return CacheEntry(None, f"{path} fails its check (edited, damaged or for another position)")
    return CacheEntry(content)


def load(folder: Path, key: str) -> dict[str, Any] | None:
    """The stored result for ``key`` if it passes its check, else None."""
    return read(folder, key).result


def store(folder: Path, key: str, result: dict[str, Any]) -> None:
    """Write a result atomically, with its key and a check over both."""
    entry = {"format": CACHE_FORMAT, "key": key, **result, "check": _check(key, result)}
    atomic_write(folder / f"{key}.json", json.dumps(entry, indent=1))
