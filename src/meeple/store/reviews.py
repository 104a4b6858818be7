"""Post-game reviews the game server computed, kept beside its matches.

A review is a pure function of a record's game, options, seed and moves and of the judge's
settings, so it is keyed by a digest of all of them (:func:`review_key`): a finished
match's review and the review of the same record uploaded to the replay page are one row,
computed once. Rows are written with an upsert, so two servers sharing a database that
compute the same review at once both succeed.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from typing import Any, ClassVar

from sqlalchemy import JSON, DateTime, String, Table, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from meeple.store.db import create_tables, storage_failures, upsert


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


class _Base(DeclarativeBase):
    # Every class here is declared on a Table (DeclarativeBase types it as any FromClause).
    __table__: ClassVar[Table]


class ReviewRow(_Base):
    """One computed review (its JSON form, as the server answers it)."""

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
        """The review stored under ``key``, or None."""
        with Session(self.engine) as session:
            found = session.scalar(select(ReviewRow.review).where(ReviewRow.key == key))
        return found if isinstance(found, dict) else None

    @storage_failures
    def put(self, key: str, review: dict[str, Any]) -> None:
        """Store ``review`` under ``key`` (replacing one computed meanwhile elsewhere)."""
        now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        with Session(self.engine) as session, session.begin():
            upsert(session, ReviewRow.__table__, {"key": key, "review": review, "created": now})
