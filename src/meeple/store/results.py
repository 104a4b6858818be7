"""The results database: one row per run, one row per finished game.

Any SQLAlchemy URL works (``postgresql+psycopg://...``); the default is a SQLite file.
A game row is written as soon as the game finishes, so an interrupted run loses nothing
that was finished and resumes from the rows already stored.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, create_engine, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

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
    seed: Mapped[int] = mapped_column(Integer)
    length: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


class ResultStore:
    """Runs and their game rows in a database."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        self.url = url
        self.engine = create_engine(url)
        _Base.metadata.create_all(self.engine)

    def ensure_run(self, key: str, kind: str, game: str, spec: dict[str, Any]) -> None:
        """Record a run the first time it is seen; a later call with the same key is a resume."""
        with Session(self.engine) as session, session.begin():
            if session.get(RunRecord, key) is None:
                session.add(
                    RunRecord(
                        key=key, kind=kind, game=game, spec=spec, created=dt.datetime.now(dt.UTC)
                    )
                )

    def add_rows(self, key: str, rows: list[dict[str, Any]]) -> None:
        """Store finished games (each a row dict with at least index, seed and length)."""
        if not rows:
            return
        with Session(self.engine) as session, session.begin():
            for row in rows:
                session.merge(
                    GameRecordRow(
                        run_key=key,
                        index=row["index"],
                        seed=row["seed"],
                        length=row["length"],
                        data=row,
                    )
                )

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
