"""Persistence of runs and per-game results (SQLAlchemy; SQLite by default)."""

from meeple.store.db import sqlite_file
from meeple.store.results import DEFAULT_URL, ResultStore

__all__ = ["DEFAULT_URL", "ResultStore", "sqlite_file"]
