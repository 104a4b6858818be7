"""The results database: one row per run, one row per finished game.

Any SQLAlchemy URL works (``postgresql+psycopg://...``); the default is a SQLite file.
A game row is written as soon as the game finishes, so an interrupted run loses nothing
that was finished and resumes from the rows already stored.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, Integer, String, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from meeple.store.db import create_tables, insert_new, open_engine

DEFAULT_URL = "sqlite:///results/meeple.db"
"""Where results go unless told otherwise (relative to the working directory)."""


class _Base(DeclarativeBase):
    pass


class RunRecord(_Base):
    """A simulation, comparison arm or tournament: what was asked for."""

    __tablename__ = "runs"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    game: Mapped[str] = mapped_column(String(40))
    spec: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[dt.datetime] = mapped_column(DateTime)


class GameRecordRow(_Base):
    """One finished game of a run; ``data`` holds the whole row, record included."""

    __tablename__ = "games"

    run_key: Mapped[str] = mapped_column(ForeignKey("runs.key"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[int] = mapped_column(BigInteger)  # derived seeds use 63 bits
    length: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


class ResultStore:
    """Runs and their game rows in a database."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.url = url
        self.engine = open_engine(url)  # StoreError: a bad URL or an unreachable server
        create_tables(self.engine, _Base.metadata)  # another process may be doing it too

    def ensure_run(self, key: str, kind: str, game: str, spec: dict[str, Any]) -> None:
        """Record a run the first time it is seen; a later call with the same key is a resume."""
        with Session(self.engine) as session, session.begin():
            now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
            row = {"key": key, "kind": kind, "game": game, "spec": spec, "created": now}
            insert_new(session, RunRecord.__table__, [row])

    def add_rows(self, key: str, rows: list[dict[str, Any]]) -> None:
        """Store finished games (each a row dict with at least index, seed and length); a
        game stored already (by another process playing the same run) is kept as it is."""
        if not rows:
            return
        values = [
            {"run_key": key, "index": r["index"], "seed": r["seed"], "length": r["length"],
             "data": r}
            for r in rows
        ]  # fmt: skip
        with Session(self.engine) as session, session.begin():
            insert_new(session, GameRecordRow.__table__, values)

    def rows(self, key: str) -> list[dict[str, Any]]:
        """Every stored game of a run, by index."""
        with Session(self.engine) as session:
            found = session.scalars(
                select(GameRecordRow)
                .where(GameRecordRow.run_key == key)
                .order_by(GameRecordRow.index)
            )
            return [r.data for r in found]

    def runs(self) -> list[dict[str, Any]]:
        """Every run: key, kind, game, spec and how many games are stored."""
        with Session(self.engine) as session:
            out = []
            for run in session.scalars(select(RunRecord).order_by(RunRecord.created)):
                count = len(
                    session.scalars(
                        select(GameRecordRow.index).where(GameRecordRow.run_key == run.key)
                    ).all()
                )
                out.append(
                    {
                        "key": run.key,
                        "kind": run.kind,
                        "game": run.game,
                        "spec": run.spec,
                        "games": count,
                    }
                )
            return out

    def forget(self, key: str) -> None:
        """Delete a run's game rows (to start it afresh)."""
        with Session(self.engine) as session, session.begin():
            for row in session.scalars(select(GameRecordRow).where(GameRecordRow.run_key == key)):
                session.delete(row)
