"""Post-game reviews the game server computed, kept beside its matches.

A review is a pure function of a record's game, options, seed and moves and of the judge's
settings, so it is keyed by a digest of all of them (:func:`review_key`): a finished
match's review and the review of the same record uploaded to the replay page are one row,
computed once. Rows are written with an upsert, so two servers sharing a database that
compute the same review at once both succeed.

A row holds the review beside a SHA-256 over its key and its JSON: a row read back whose
check fails (a bad restore, an edit by hand, text that is not JSON, a row of an older meeple
that kept no check) is taken for missing, logged in one line, and the review is computed
again, rather than a broken review sent to a page or a request failed on it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
from typing import Any, ClassVar

from sqlalchemy import JSON, DateTime, String, Table, Text, cast, delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from meeple.store.db import create_tables, read_json, storage_failures, upsert, utc_now


def review_key(
    game: str, options: dict[str, Any], seed: int, moves: list[tuple[int, str]], settings: str
) -> str:
    """The SHA-256 (hex) of what a review depends on: the record's play and the settings."""
    text = json.dumps(
        {
            "game": game,
            "options": options,
            "seed": seed,
            "moves": [[p, a] for p, a in moves],
            "settings": settings,
        },
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(text.encode()).hexdigest()


log = logging.getLogger("meeple.store")


def review_check(key: str, review: dict[str, Any]) -> str:
    """The check stored beside a review: a SHA-256 over its key and its JSON."""
    text = json.dumps(review, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"{key}\n{text}".encode()).hexdigest()


class _Base(DeclarativeBase):
    # Every class here is declared on a Table (DeclarativeBase types it as any FromClause).
    __table__: ClassVar[Table]


class ReviewRow(_Base):
    """One computed review: ``{"check": ..., "review": ...}``, the review in its JSON form,
    as the server answers it, and its :func:`review_check`."""

    __tablename__ = "reviews"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    review: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[dt.datetime] = mapped_column(DateTime)


class ReviewStore:
    """The ``reviews`` table, in the database of an open engine (the matches' own)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        create_tables(engine, _Base.metadata)

    @storage_failures
    def get(self, key: str) -> dict[str, Any] | None:
        """The review stored under ``key``, or None (also for a row whose check fails)."""
        with Session(self.engine) as session:
            text = session.scalar(select(cast(ReviewRow.review, Text)).where(ReviewRow.key == key))
        if text is None:
            return None
        row = read_json(text)
        review = row.get("review") if isinstance(row, dict) else None
        if isinstance(review, dict) and row.get("check") == review_check(key, review):
            return review
        log.warning("the stored review %s… does not pass its check; it is computed again", key[:12])
        return None

    @storage_failures
    def put(self, key: str, review: dict[str, Any], keep_seconds: float = 0.0) -> None:
        """Store ``review`` under ``key`` (replacing one computed meanwhile elsewhere); with
        ``keep_seconds``, the reviews computed longer ago than that are deleted with it (a
        review is computed again when asked for: the table is a cache, bounded so)."""
        now = utc_now()
        row = {"check": review_check(key, review), "review": review}
        with Session(self.engine) as session, session.begin():
            upsert(session, ReviewRow.__table__, {"key": key, "review": row, "created": now})
            if keep_seconds > 0:
                before = now - dt.timedelta(seconds=keep_seconds)
                session.execute(delete(ReviewRow).where(ReviewRow.created < before))
