"""The results database: one row per run, one row per finished game.

Any SQLAlchemy URL works (``postgresql+psycopg://...``); the default is a SQLite file.
Finished games are written in batches, at least every second, and whatever is finished is
written when a run is interrupted; a run resumes from the rows already stored.

What is read back is given as the database holds it, for the lab to check
(:mod:`meeple.lab.stored`): a JSON field whose text is not JSON is an
:class:`~meeple.core.files.Unreadable` in its place, and a date that does not read is None,
so that one damaged row spoils only itself.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
    cast,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from meeple.core.files import Unreadable
from meeple.core.options import digest_of
from meeple.store.db import (
    JSONText,
    StoreError,
    add_missing_columns,
    create_tables,
    insert_new,
    open_engine,
    read_json,
    read_moment,
    upsert,
    utc_now,
)
from meeple.store.defaults import DEFAULT_URL
from meeple.store.rows import row_json
from meeple.store.urls import hide_password


class _Base(DeclarativeBase):
    # Every class here is declared on a Table (DeclarativeBase types it as any FromClause).
    __table__: ClassVar[Table]


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
    digest: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """:func:`row_digest` of the row as written; None in rows of an older meeple."""


class RunNote(_Base):
    """How a run was last asked for and where its report went (what `meeple results` shows).

    A table of its own, not columns of ``runs``: databases written before it existed get
    it created beside their tables, with nothing to migrate.
    """

    __tablename__ = "run_notes"

    key: Mapped[str] = mapped_column(ForeignKey("runs.key"), primary_key=True)
    command: Mapped[str] = mapped_column(Text)
    report: Mapped[str | None] = mapped_column(Text, nullable=True)
    updated: Mapped[dt.datetime] = mapped_column(DateTime)


class ContentFile(_Base):
    """One file of what a run's option named, kept by the digest of all of them (in the
    order they are digested): a run's games still replay once the files are edited.

    A table of its own, as :class:`RunNote`: older databases get it with nothing to migrate.
    """

    __tablename__ = "content_files"

    digest: Mapped[str] = mapped_column(String(71), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    data: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    """None: the file was missing (a missing file is part of a digest too)."""


class ResultStore:
    """Runs and their game rows in a database."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.url = url
        self.engine = open_engine(url)  # StoreError: a bad URL or an unreachable server
        create_tables(self.engine, _Base.metadata)  # another process may be doing it too
        add_missing_columns(self.engine, GameRecordRow.__table__)  # an older meeple's database

    def ensure_run(self, key: str, kind: str, game: str, spec: dict[str, Any]) -> None:
        """Record a run the first time it is seen; a later call with the same key is a resume."""
        with Session(self.engine) as session, session.begin():
            now = utc_now()
            row = {"key": key, "kind": kind, "game": game, "spec": spec, "created": now}
            insert_new(session, RunRecord.__table__, [row])

    def add_rows(self, key: str, rows: Sequence[Mapping[str, Any]]) -> None:
        """Store finished games (each a row with at least index, seed and length; a
        :class:`GameRow` is stored as its text, not encoded again); a game stored already
        (by another process playing the same run) is kept as it is."""
        if not rows:
            return
        values = []
        for r in rows:
            text = row_json(r)  # stored as it is, so that its digest is of what is stored
            values.append(
                {"run_key": key, "index": r["index"], "seed": r["seed"], "length": r["length"],
                 "data": JSONText(text), "digest": row_digest(key, r["index"], text)}
            )  # fmt: skip
        with Session(self.engine) as session, session.begin():
            insert_new(session, GameRecordRow.__table__, values)

    def rows(self, key: str) -> list[Any]:
        """Every stored game of a run, by index, as stored (see the module's docstring)."""
        return [row for _, row in self.games(key)]

    def games(self, key: str) -> list[tuple[Any, Any]]:
        """Every stored game of a run as (its index, its row), by index, as stored; a row
        whose digest does not match is an :class:`~meeple.core.files.Unreadable`."""
        with Session(self.engine) as session:
            found = session.execute(
                select(GameRecordRow.index, cast(GameRecordRow.data, Text), GameRecordRow.digest)
                .where(GameRecordRow.run_key == key)
                .order_by(GameRecordRow.index)
            )
            return [(index, _checked(key, index, text, digest)) for index, text, digest in found]

    def drop(self, key: str, indices: Sequence[Any]) -> None:
        """Delete the stored games of run ``key`` at ``indices`` (damaged ones, to play again)."""
        with Session(self.engine) as session, session.begin():
            session.execute(
                delete(GameRecordRow).where(
                    GameRecordRow.run_key == key, GameRecordRow.index.in_(indices)
                )
            )

    def count(self, key: str) -> int:
        """How many games of run ``key`` are stored."""
        with Session(self.engine) as session:
            counting = select(func.count()).where(GameRecordRow.run_key == key)
            return session.scalar(counting) or 0

    def runs(self, only: str | None = None) -> list[dict[str, Any]]:
        """Every run (``only``: the run of that whole key, if stored), oldest first: key,
        kind, game, spec, created, how many games are stored, and the command, date and
        report of its last run (None if never noted); as stored (see the module's
        docstring)."""
        counting = select(GameRecordRow.run_key, func.count()).group_by(GameRecordRow.run_key)
        noted = select(RunNote.key, RunNote.command, RunNote.report, cast(RunNote.updated, Text))
        listing = select(
            RunRecord.key,
            RunRecord.kind,
            RunRecord.game,
            cast(RunRecord.spec, Text),
            cast(RunRecord.created, Text),
        ).order_by(RunRecord.created)
        if only is not None:  # one run: no count of every other run's games
            counting = counting.where(GameRecordRow.run_key == only)
            noted = noted.where(RunNote.key == only)
            listing = listing.where(RunRecord.key == only)
        with Session(self.engine) as session:
            counts = dict(session.execute(counting).all())
            notes = {
                key: (command, report, read_moment(updated))
                for key, command, report, updated in session.execute(noted)
            }
            runs = session.execute(listing)
            out = []
            for key, kind, game, spec, created in runs:
                command, report, updated = notes.get(key, (None, None, None))
                out.append(
                    {
                        "key": str(key),  # a damaged key is text all the same
                        "kind": kind,
                        "game": game,
                        "spec": read_json(spec),
                        "created": read_moment(created),
                        "games": counts.get(key, 0),
                        # A command noted by an older meeple may hold a --db password.
                        "command": hide_password(command) if command is not None else None,
                        "report": report,
                        "updated": updated,
                    }
                )
            return out

    def find_run(self, key: str) -> dict[str, Any]:
        """The run whose key is ``key`` or starts with it (as :meth:`runs` lists it).

        Raises StoreError naming what was wrong when none or several match.
        """
        text = key.strip().lower()
        found = [run for run in self.runs() if run["key"].startswith(text)] if text else []
        if len(found) == 1:
            return found[0]
        if not found:
            raise StoreError(
                f"no run {key!r} in {hide_password(self.url)}; `meeple results` lists the runs"
            )
        keys = ", ".join(run["key"] for run in found[:6])
        raise StoreError(f"{key!r} could be any of {keys}; give more of the run's key")

    def repair_run(self, key: str, kind: str, game: str, spec: dict[str, Any]) -> None:
        """Write run ``key``'s kind, game and spec again (its stored ones are damaged: the
        spec is a pure function of the key, so the command that makes it knows them)."""
        now = utc_now()
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(RunRecord)
                .where(RunRecord.key == key)
                .values(kind=kind, game=game, spec=spec, created=now)
            )

    def keep_content(self, digest: str, content: Sequence[tuple[str, bytes | None]]) -> None:
        """Keep the files read as ``content`` (names and bytes, :func:`read_content`) under
        ``digest``, theirs; a digest kept already is left as it is."""
        rows = [
            {"digest": digest, "position": k, "name": name, "data": data}
            for k, (name, data) in enumerate(content)
        ]
        with Session(self.engine) as session, session.begin():
            insert_new(session, ContentFile.__table__, rows)

    def kept_content(self, digest: str) -> list[tuple[str, bytes | None]] | None:
        """The files kept under ``digest`` (:meth:`keep_content`), checked: None where none
        are kept, or where what is kept does not digest to ``digest`` (a damaged copy)."""
        query = (
            select(ContentFile.name, ContentFile.data)
            .where(ContentFile.digest == digest)
            .order_by(ContentFile.position)
        )
        with Session(self.engine) as session:
            content = [(str(name), data) for name, data in session.execute(query)]
        if not content or digest_of(content) != digest:
            return None
        return content

    def note_run(self, key: str, command: str, report: str | None) -> None:
        """Remember the command that last ran ``key`` and where it wrote the report."""
        with Session(self.engine) as session, session.begin():
            now = utc_now()
            row = {"key": key, "command": command, "report": report, "updated": now}
            upsert(session, RunNote.__table__, row)  # another process may note the same run

    def forget(self, key: str) -> None:
        """Delete a run's game rows (to start it afresh)."""
        with Session(self.engine) as session, session.begin():
            session.execute(delete(GameRecordRow).where(GameRecordRow.run_key == key))


def row_digest(key: str, index: int, text: str) -> str:
    """The SHA-256 kept beside a game's row: over its run's key, its number and its text, so
    that a row edited, cut or copied from another game or run does not pass."""
    return hashlib.sha256(f"{key}\n{index}\n{text}".encode()).hexdigest()


def _checked(key: str, index: Any, text: str | None, digest: str | None) -> Any:
    """A row as stored (:func:`~meeple.store.db.read_json`), or Unreadable when its digest
    does not match (a row of an older meeple has none, and the lab checks its fields alone)."""
    if digest is not None and (text is None or digest != row_digest(key, index, text)):
        return Unreadable("not the row the lab wrote: its SHA-256 digest does not match")
    return read_json(text)
