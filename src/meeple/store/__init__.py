"""Persistence of runs and per-game results (SQLAlchemy; SQLite by default).

``ResultStore`` and ``sqlite_file`` are imported on first use: the database library takes a
noticeable part of a second to import, and most of the processes that import meeple (a
server's agent workers, the lab's workers, most commands) never open a results database.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.store.defaults import DEFAULT_MATCH_URL, DEFAULT_URL

if TYPE_CHECKING:
    from meeple.store.db import sqlite_file
    from meeple.store.results import ResultStore

__all__ = ["DEFAULT_MATCH_URL", "DEFAULT_URL", "ResultStore", "sqlite_file"]


def __getattr__(name: str) -> Any:
    if name == "ResultStore":
        from meeple.store.results import ResultStore

        return ResultStore
    if name == "sqlite_file":
        from meeple.store.db import sqlite_file

        return sqlite_file
    raise AttributeError(f"module 'meeple.store' has no attribute {name!r}")
