"""The game server's matches: who sits where, and every accepted move, in a database.

A match is one row; each accepted move is one more row keyed by (match, sequence number).
The game state is never stored: it is the replay of the moves from the match's seed, so a
restarted server rebuilds every match exactly. Because the move's sequence number is part
of the key, two writers can never both store a move at the same point of one match: the
second gets :class:`MoveConflict`. A writer that decided a change (a move, a seat taken,
a resignation) on the match as it last read it passes that reading as ``seen``; the match's
row is locked and compared with it, and where another writer changed its seats, status or
rematch meanwhile nothing is stored (:class:`MatchChanged`). Together they are what lets
several server processes share one database safely.

Seat tokens are stored only as hashes: a copy of the database does not let anyone play.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math
import re
import secrets
from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    delete,
    false,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy import cast as sql_cast
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from meeple.core.errors import MeepleError
from meeple.core.options import DIGEST_PATTERN
from meeple.store.db import (
    StoreError,
    add_missing_columns,
    create_tables,
    failure_reason,
    open_engine,
    read_moment,
    sqlite_file,
    storage_failures,
    utc_now,
)
from meeple.store.defaults import DEFAULT_MATCH_URL
from meeple.store.urls import hide_password

CHANNEL = "meeple_match"
"""The PostgreSQL channel on which every change to a match is announced."""

STATUSES = ("waiting", "playing", "finished")
"""waiting: a person's seat is still open; playing; finished (with a result)."""


class MatchChanged(MeepleError):
    """Another writer (another server process) changed the match since the writer read it:
    nothing was stored; read the match again and decide anew."""


class MoveConflict(MatchChanged):
    """A move was stored at this sequence number already (by another writer)."""


class DamagedMatch(MeepleError):
    """A match row that cannot be read as a match (damaged or edited by hand): the server
    sets it aside and serves every other match."""


_SEAT_FIELDS: dict[str, tuple[type, ...]] = {
    "spec": (str,),
    "agent": (str, type(None)),
    "name": (str, type(None)),
    "token": (str, type(None)),
    "joined": (bool,),
    "resigned": (bool,),
}
"""What every stored seat holds, and the types each field may have."""

USED_LINK = "used_link"
"""A seat's optional field: the hash of the link (the token its creator was handed) that
took it, which plays the seat no more; kept so that opening the link again is told why."""


_SEED_TEXT = re.compile(r"-?[0-9]{1,80}")
"""A seed as ``seed_text`` holds it: a whole number in decimal (80 characters at most)."""


def _check_row(row: MatchRow) -> None:
    """DamagedMatch naming the first field of ``row`` that is not what the server wrote."""

    def damaged(what: str) -> DamagedMatch:
        return DamagedMatch(f"match {row.id}: {what}")

    if not isinstance(row.game, str):
        raise damaged("its game is not a name")
    if not isinstance(row.options, dict):
        raise damaged("its options are not a JSON object")
    if not isinstance(row.seed, int):
        raise damaged("its seed is not a whole number")
    if row.seed_text is not None and not (
        isinstance(row.seed_text, str) and _SEED_TEXT.fullmatch(row.seed_text)
    ):
        raise damaged("its seed's text is not a whole number")
    if not isinstance(row.seats, list) or not row.seats:
        raise damaged("its seats are not a list of seats")
    for number, seat in enumerate(row.seats):
        if not isinstance(seat, dict):
            raise damaged(f"seat {number} is not a JSON object")
        for key, kinds in _SEAT_FIELDS.items():
            # Present, not only of the type: every seat has had each field from the first.
            if key not in seat or not isinstance(seat[key], kinds):
                raise damaged(f"seat {number}'s {key!r} is missing or of the wrong type")
        if not isinstance(seat.get(USED_LINK, ""), str):
            raise damaged(f"seat {number}'s {USED_LINK!r} is of the wrong type")
    if not isinstance(row.listed, bool) or not isinstance(row.moves_count, int):
        raise damaged("its listing or its count of moves is not what the server writes")
    if row.move_seconds is not None and not (
        isinstance(row.move_seconds, int | float) and 0 < row.move_seconds < math.inf
    ):
        raise damaged("its time for a move is not a number of seconds")
    if row.status not in STATUSES:
        raise damaged(f"its status {row.status!r} is not one of {', '.join(STATUSES)}")
    if row.result is not None and not isinstance(row.result, dict):
        raise damaged("its result is not a JSON object")
    if row.content is not None and not (
        isinstance(row.content, dict)
        and all(
            isinstance(k, str) and isinstance(v, str) and re.fullmatch(DIGEST_PATTERN, v)
            for k, v in row.content.items()
        )
    ):
        raise damaged("its content's digests are not what the server writes")


def token_hash(token: str) -> str:
    """What the database keeps of a seat's secret token."""
    return hashlib.sha256(token.encode()).hexdigest()


class _Base(DeclarativeBase):
    pass


class MatchRow(_Base):
    """One match: the game, its options and seed, the seats, and how it stands."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    """The seed when it fits a signed 64-bit column, else -1 (``seed_text`` holds it)."""
    seed_text: Mapped[str | None] = mapped_column(String(80), nullable=True)
    """The seed in decimal (server-drawn seeds have 128 bits); None in older databases."""
    seed_salt: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The salt of the seed's commitment (``seed_commitment``); None: no commitment."""
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    listed: Mapped[bool] = mapped_column(Boolean)
    move_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    status: Mapped[str] = mapped_column(String(12), index=True)
    moves_count: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    deadlines: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The move clocks running: ``{"base": decision, "seats": {"seat": epoch seconds}}``
    (UTC seconds since 1970, absolute, so they survive a restart); None in older databases."""
    content: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The digest of the data each data option read as the match began, by option
    (``GameOptions.content_digests``; empty for the shipped data): an installed content set
    is named in ``options``, and its files may be edited between two starts of the server.
    None in older databases."""
    created: Mapped[dt.datetime] = mapped_column(DateTime)
    updated: Mapped[dt.datetime] = mapped_column(DateTime)


class MoveRow(_Base):
    """One accepted move; ``seq`` is 1 for the first move of the match."""

    __tablename__ = "match_moves"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    at: Mapped[dt.datetime] = mapped_column(DateTime)


@dataclass
class StoredMatch:
    """A match as read from the database (plain data, detached from any session)."""

    id: str
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    listed: bool
    move_seconds: float | None
    status: str
    seed_salt: str | None = None
    """The salt the seed was committed to with; None for a match stored before commitments."""
    result: dict[str, Any] | None = None
    rematch_of: str | None = None
    rematch: str | None = None
    created: dt.datetime | None = None
    updated: dt.datetime | None = None
    moves: list[tuple[int, str]] = field(default_factory=list)
    moves_count: int = 0
    """How many moves are stored (also when ``moves`` was not read)."""
    deadlines: dict[str, Any] | None = None
    """The clocks as last stored (see :attr:`MatchRow.deadlines`); None: none stored."""
    content: dict[str, str] | None = None
    """The digests of the data the match began with (see :attr:`MatchRow.content`); None:
    stored before they were kept."""

    @classmethod
    def _from_row(cls, row: MatchRow, moves: list[tuple[int, str]]) -> StoredMatch:
        _check_row(row)
        return cls(
            id=row.id,
            game=row.game,
            options=dict(row.options),
            seed=int(row.seed_text) if row.seed_text is not None else row.seed,
            seed_salt=row.seed_salt,
            seats=[dict(s) for s in row.seats],
            listed=row.listed,
            move_seconds=row.move_seconds,
            status=row.status,
            result=row.result,
            rematch_of=row.rematch_of,
            rematch=row.rematch,
            created=row.created,
            updated=row.updated,
            moves=moves,
            moves_count=row.moves_count,
            deadlines=row.deadlines if isinstance(row.deadlines, dict) else None,
            content=row.content,
        )


def _copied_without_its_log(file: Path | None) -> Path | None:
    """``file`` if it is a SQLite file in WAL mode with no ``-wal`` log beside it (then the
    caller checks it has no tables: a copy of a running server's file, whose changes were all
    still in the log); None otherwise."""
    if file is None or not file.is_file() or Path(f"{file}-wal").exists():
        return None
    try:
        with file.open("rb") as opened:
            header = opened.read(20)
    except OSError:
        return None  # opening the database says what is wrong with it
    # The header's write and read versions (bytes 18 and 19) are 2 in WAL mode.
    return file if header.startswith(b"SQLite format 3\0") and header[18:20] == b"\2\2" else None


def _check_unchanged(session: Session, match_id: str, seen: StoredMatch) -> None:
    """Lock the match's row until the transaction ends (PostgreSQL; SQLite has one writer
    at a time) and raise MatchChanged if its seats, status or rematch differ from ``seen``:
    a change decided on an old reading of the match would undo another writer's (a seat
    taken twice, a seat taken lost, a match finished twice with two results)."""
    row = session.execute(
        select(MatchRow.seats, MatchRow.status, MatchRow.rematch)
        .where(MatchRow.id == match_id)
        .with_for_update()
    ).one_or_none()
    if row is None:
        raise DamagedMatch(f"match {match_id} went away while it was changed")
    changed = [
        name
        for name, now, then in (
            ("seats", row.seats, seen.seats),
            ("status", row.status, seen.status),
            ("rematch", row.rematch, seen.rematch),
        )
        if now != then
    ]
    if changed:
        raise MatchChanged(
            f"another server changed match {match_id} ({' and '.join(changed)}) since this "
            "one read it"
        )


NEEDS_WRITES = (
    "the server needs a database it can write (not a read-only file, disk or transaction; "
    "a role with INSERT and UPDATE on its tables)"
)
"""What a refusal of a database that takes no writes says the server needs."""


class MatchStore:
    """Matches and their moves in any SQLAlchemy database (SQLite by default)."""

    def __init__(self, url: str = DEFAULT_MATCH_URL) -> None:
        self.url = url
        # Looked at before the engine opens the file, which starts a log of its own.
        without_log = _copied_without_its_log(sqlite_file(url))
        self.engine = open_engine(url)
        try:
            self._open(without_log)
        except SQLAlchemyError as exc:
            # A SQLite file on a read-only disk opens, yet its first connection cannot
            # start the log it keeps beside it: a traceback at start-up, before this.
            self.engine.dispose()
            raise StoreError(
                f"cannot open the matches in {hide_password(url)}: {failure_reason(exc)}; "
                f"{NEEDS_WRITES}"
            ) from None
        self.writer = secrets.token_hex(8)
        """Names this store in its own announcements, so it can ignore them."""

    def _open(self, without_log: Path | None) -> None:
        """The checks and tables of a store being opened (:meth:`__init__`)."""
        if without_log and not inspect(self.engine).get_table_names():
            self.engine.dispose()
            raise StoreError(
                f"{without_log} holds no tables, though a server has used it (it is in WAL "
                f"mode) and its log {without_log.name}-wal is not beside it: a copy of a "
                "running server's database taken without that log, which held every match; "
                f'copy a running server\'s database with sqlite3 FILE ".backup COPY", or give '
                "a file that does not exist to start with no matches"
            )
        if self.engine.url.get_backend_name() == "sqlite" and self.engine.url.database in (
            None,
            "",
            ":memory:",
        ):
            # Each connection of the pool would see an empty database of its own.
            raise StoreError(
                f"an in-memory SQLite database keeps no match ({self.url!r}); give a file: "
                "sqlite:///path/to/server.db"
            )
        create_tables(self.engine, _Base.metadata)
        add_missing_columns(self.engine, _Base.metadata.tables["matches"])  # an older meeple's

    def check(self) -> None:
        """StoreError in one line if the database cannot be read through (damage in the
        middle of a SQLite file shows only when its pages are read): checked at start-up, so
        a server never starts on a database it cannot serve."""
        try:
            with self.engine.connect() as conn:
                if self.engine.dialect.name == "sqlite":
                    found = conn.execute(text("PRAGMA quick_check(1)")).scalar()
                    if found != "ok":
                        first = " ".join(str(found).split())
                        raise StoreError(
                            f"cannot read the matches in {hide_password(self.url)}: the file is "
                            f"damaged (SQLite's check: {first}); restore it from a backup"
                        )
                conn.execute(select(func.count()).select_from(MatchRow)).scalar()
                conn.execute(select(func.count()).select_from(MoveRow)).scalar()
        except SQLAlchemyError as exc:
            raise StoreError(
                f"cannot read the matches in {hide_password(self.url)}: {getattr(exc, 'orig', exc)}"
            ) from None
        self._check_writable()

    @storage_failures
    def ping(self) -> None:
        """Whether the database takes a move now, as :meth:`_write_nothing` asks (a server's
        health check: a SELECT passed on a SQLite file another process held the write lock
        of, where every move waited and failed); StorageUnavailable where it does not.
        :meth:`check` reads every row and is for start-up."""
        self._write_nothing()

    def _write_nothing(self) -> None:
        """An UPDATE and an INSERT of no row, rolled back: they ask for the write lock and
        the privileges a move needs, and change nothing."""
        with self.engine.connect() as conn, conn.begin() as transaction:
            conn.execute(update(MatchRow).where(false()).values(status=MatchRow.status))
            columns = [MoveRow.match_id, MoveRow.seq, MoveRow.player, MoveRow.action, MoveRow.at]
            conn.execute(
                insert(MoveRow).from_select(
                    [c.name for c in columns], select(*columns).where(false())
                )
            )
            transaction.rollback()

    def _check_writable(self) -> None:
        """StoreError in one line if the database takes no writes (a read-only file, disk or
        transaction; a role without UPDATE on the tables): a server started on it would
        restore every match and then refuse every move."""
        try:
            self._write_nothing()
        except SQLAlchemyError as exc:
            raise StoreError(
                f"cannot write the matches in {hide_password(self.url)}: "
                f"{failure_reason(exc)}; {NEEDS_WRITES}"
            ) from None

    @property
    def shared(self) -> bool:
        """True when other processes may write the same matches (PostgreSQL), so changes
        are announced with NOTIFY and :meth:`changes` hears the others'."""
        return self.engine.dialect.name == "postgresql"

    def _announce(self, session: Session, match_id: str) -> None:
        # NOTIFY is delivered when the transaction commits, and only then.
        if self.shared:
            session.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": CHANNEL, "payload": f"{match_id} {self.writer}"},
            )

    async def changes(self) -> AsyncIterator[str | None]:
        """The ids of matches that another process changed, as they commit (PostgreSQL
        LISTEN); ends at once for a database only this process writes.

        The first item is None, once listening has begun: a change committed before then
        (while the database was restarting, or before this process listened at all) was
        announced to nobody, so whoever listens must read again what it holds."""
        if not self.shared:
            return
        import psycopg

        from meeple.store.postgres import libpq_defaults

        url = self.engine.url.set(drivername="postgresql")
        # The engine's connect timeout and keepalives: a listening connection to a server
        # cut off by the network is found dead, and made again, like any other.
        url = url.update_query_dict(libpq_defaults(url.query))
        dsn = url.render_as_string(hide_password=False)
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            yield None
            async for notice in conn.notifies():
                match_id, _, writer = notice.payload.partition(" ")
                if writer != self.writer:
                    yield match_id

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    # -- matches ----------------------------------------------------------------------------
    @storage_failures
    def create(self, match: StoredMatch) -> None:
        """Store a new match (its moves list must be empty)."""
        now = utc_now()
        with Session(self.engine) as session, session.begin():
            session.add(
                MatchRow(
                    id=match.id,
                    game=match.game,
                    options=match.options,
                    seed=match.seed if match.seed < 2**63 else -1,
                    seed_text=str(match.seed),
                    seed_salt=match.seed_salt,
                    seats=match.seats,
                    listed=match.listed,
                    move_seconds=match.move_seconds,
                    status=match.status,
                    moves_count=0,
                    result=None,
                    rematch_of=match.rematch_of,
                    rematch=None,
                    content=match.content,
                    created=now,
                    updated=now,
                )
            )
        match.created = match.updated = now

    @storage_failures
    def get(self, match_id: str, moves_after: int = 0) -> StoredMatch | None:
        """A match with its moves (those after the first ``moves_after``: a server that
        holds the match reads only what it has not seen), or None; DamagedMatch if its row
        cannot be read."""
        with Session(self.engine) as session:
            try:
                row = session.get(MatchRow, match_id)
            except (ValueError, TypeError) as exc:  # JSON or date columns that do not read
                raise DamagedMatch(f"match {match_id}: a field does not read ({exc})") from None
            if row is None:
                return None
            moves = session.execute(
                select(MoveRow.player, MoveRow.action)
                .where(MoveRow.match_id == match_id, MoveRow.seq > moves_after)
                .order_by(MoveRow.seq)
            ).all()
            return StoredMatch._from_row(row, [(p, a) for p, a in moves])

    @storage_failures
    def holds_token(self, match_id: str, digest: str) -> bool:
        """Whether a seat of the match, as stored now, holds the token whose hash is
        ``digest``: one column of one row, what a server asks before it reads a whole match
        again for a token it does not know (a bad token costs no more)."""
        with Session(self.engine) as session:
            try:
                seats = session.scalar(select(MatchRow.seats).where(MatchRow.id == match_id))
            except (ValueError, TypeError):  # a column that does not read: no seat in it
                return False
        return isinstance(seats, list) and any(
            isinstance(seat, dict) and seat.get("token") == digest for seat in seats
        )

    @storage_failures
    def ids(self, statuses: tuple[str, ...] = STATUSES) -> list[str]:
        """The ids of every match in one of ``statuses``, oldest first."""
        with Session(self.engine) as session:
            return list(
                session.scalars(
                    select(MatchRow.id)
                    .where(MatchRow.status.in_(statuses))
                    .order_by(MatchRow.created)
                )
            )

    @storage_failures
    def listing(self, statuses: tuple[str, ...], limit: int = 100) -> list[StoredMatch]:
        """Listed matches in ``statuses``, newest first, without their moves; a damaged
        row is left out (the server logged it when it set the match aside)."""
        query = (
            select(MatchRow)
            .where(MatchRow.status.in_(statuses), MatchRow.listed.is_(True))
            .order_by(MatchRow.updated.desc())
            .limit(limit)
        )
        with Session(self.engine) as session:
            try:
                return [StoredMatch._from_row(r, []) for r in session.scalars(query)]
            except (ValueError, TypeError, DamagedMatch):
                pass
        # Some row is damaged: read them one at a time, so it spoils only itself.
        out = []
        with Session(self.engine) as session:
            for match_id in session.scalars(query.with_only_columns(MatchRow.id)).all():
                try:
                    out.append(self._row(session, match_id))
                except (ValueError, TypeError, DamagedMatch):
                    continue
        return out

    @staticmethod
    def _row(session: Session, match_id: str) -> StoredMatch:
        row = session.get(MatchRow, match_id)
        if row is None:
            raise DamagedMatch(f"match {match_id} went away while it was read")
        return StoredMatch._from_row(row, [])

    @storage_failures
    def update(self, match_id: str, *, seen: StoredMatch | None = None, **changes: Any) -> None:
        """Change a match's seats, status, result or rematch link; with ``seen``, only if
        its seats, status and rematch are still as ``seen`` has them (else MatchChanged)."""
        allowed = {"seats", "status", "result", "rematch"}
        if not set(changes) <= allowed:
            raise ValueError(f"cannot change {set(changes) - allowed}")
        with Session(self.engine) as session, session.begin():
            if seen is not None:
                _check_unchanged(session, match_id, seen)
            session.execute(
                update(MatchRow).where(MatchRow.id == match_id).values(**changes, updated=utc_now())
            )
            self._announce(session, match_id)

    @storage_failures
    def stale(self, waiting_seconds: float, idle_seconds: float) -> list[tuple[str, str]]:
        """Unfinished matches past an expiry, oldest first, each with which: ``waiting``
        (a person's seat untaken for ``waiting_seconds`` since it was created or last
        joined) or ``idle`` (no move, join or other change for ``idle_seconds``)."""
        now = utc_now()
        waiting_before = now - dt.timedelta(seconds=waiting_seconds)
        idle_before = now - dt.timedelta(seconds=idle_seconds)
        with Session(self.engine) as session:
            rows = session.execute(
                select(MatchRow.id, MatchRow.status, sql_cast(MatchRow.updated, Text))
                .where(
                    MatchRow.status.in_(("waiting", "playing")),
                    MatchRow.updated < max(waiting_before, idle_before),
                )
                .order_by(MatchRow.updated)
            ).all()
        out = []
        for match_id, status, written in rows:
            updated = read_moment(written)
            if updated is None:
                continue  # a damaged date: its match is set aside, and no other spoiled
            if status == "waiting" and updated < waiting_before:
                out.append((match_id, "waiting"))
            elif updated < idle_before:
                out.append((match_id, "idle"))
        return out

    @storage_failures
    def delete_finished(
        self, seconds: float, keep: Collection[str] = (), most: int = 500
    ) -> list[str]:
        """Delete the matches finished more than ``seconds`` ago (by ``updated``, the time
        of their last change: their end), their moves with them, oldest first and at most
        ``most`` at a time, but those in ``keep``; returns their ids. A match whose date
        does not read (damaged) is kept, as it is set aside."""
        before = utc_now() - dt.timedelta(seconds=seconds)
        with Session(self.engine) as session, session.begin():
            rows = session.execute(
                select(MatchRow.id, sql_cast(MatchRow.updated, Text))
                .where(MatchRow.status == "finished", MatchRow.updated < before)
                .order_by(MatchRow.updated)
                .limit(most + len(keep))
            ).all()
            gone = [
                match_id
                for match_id, written in rows
                if match_id not in keep and (when := read_moment(written)) and when < before
            ][:most]
            if gone:
                session.execute(delete(MoveRow).where(MoveRow.match_id.in_(gone)))
                session.execute(
                    delete(MatchRow).where(MatchRow.id.in_(gone), MatchRow.status == "finished")
                )
        return gone

    @storage_failures
    def expire(self, match_id: str, status: str, seconds: float, result: dict[str, Any]) -> bool:
        """Finish the match with ``result`` if it is still in ``status`` and unchanged for
        ``seconds`` (checked in the same statement, so a move another server stores
        meanwhile wins); True if it was finished."""
        now = utc_now()
        with Session(self.engine) as session, session.begin():
            # An UPDATE's result is a CursorResult (Session.execute is typed for any Result).
            done = cast(
                CursorResult[Any],
                session.execute(
                    update(MatchRow)
                    .where(
                        MatchRow.id == match_id,
                        MatchRow.status == status,
                        MatchRow.updated < now - dt.timedelta(seconds=seconds),
                    )
                    .values(status="finished", result=result, deadlines=None, updated=now)
                ),
            )
            changed = done.rowcount
            if changed:
                self._announce(session, match_id)
        return bool(changed)

    @storage_failures
    def set_deadlines(self, match_id: str, deadlines: dict[str, Any] | None) -> None:
        """Store a match's running clocks. Not a change anyone watches for: ``updated`` (the
        match's last activity) and the other servers are left alone, since each server sets
        the clocks itself after every move it hears of."""
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(MatchRow).where(MatchRow.id == match_id).values(deadlines=deadlines)
            )

    # -- moves ------------------------------------------------------------------------------
    @storage_failures
    def add_move(
        self,
        match_id: str,
        seq: int,
        player: int,
        action: str,
        *,
        status: str | None = None,
        result: dict[str, Any] | None = None,
        seen: StoredMatch | None = None,
    ) -> None:
        """Commit move number ``seq`` (and the match's new status) in one transaction.

        Returns only once the commit is durable. Raises MoveConflict if move ``seq`` is
        stored already, or (with ``seen``, the match the move was decided on) MatchChanged
        if another writer changed its seats, status or rematch since, and leaves the match
        as it was.
        """
        now = utc_now()
        values: dict[str, Any] = {"moves_count": seq, "updated": now}
        if status is not None:
            values["status"] = status
        if result is not None:
            values["result"] = result
        try:
            with Session(self.engine) as session, session.begin():
                if seen is not None:
                    _check_unchanged(session, match_id, seen)
                session.add(
                    MoveRow(match_id=match_id, seq=seq, player=player, action=action, at=now)
                )
                session.flush()
                session.execute(update(MatchRow).where(MatchRow.id == match_id).values(**values))
                self._announce(session, match_id)
        except IntegrityError:
            raise MoveConflict(f"move {seq} of match {match_id} is stored already") from None

    @storage_failures
    def move_count(self, match_id: str) -> int:
        """How many moves of a match are stored."""
        with Session(self.engine) as session:
            return int(
                session.scalar(
                    select(func.count()).select_from(MoveRow).where(MoveRow.match_id == match_id)
                )
                or 0
            )
