"""Solved results on disk, so that solving the same position again is instant.

The cache lives in the user's cache folder, never in the repository: ``$MEEPLE_CACHE_DIR``
if set, else ``$XDG_CACHE_HOME/meeple/solver``, else ``~/.cache/meeple/solver``.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from meeple.games.edges.rules import EdgesState

CACHE_FORMAT = "edges-solve/1"


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


def load(folder: Path, key: str) -> dict[str, Any] | None:
    """The stored result for ``key``, or None (a damaged file counts as missing)."""
    path = folder / f"{key}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) and data.get("format") == CACHE_FORMAT else None


def store(folder: Path, key: str, result: dict[str, Any]) -> None:
    """Write a result atomically (temp file + rename)."""
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{key}.", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"format": CACHE_FORMAT, **result}, fh, indent=1)
        os.replace(tmp, folder / f"{key}.json")
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
