"""Opening a database from a SQLAlchemy URL, the same way for every store.

SQLite is embedded and the default; any other SQLAlchemy URL (``postgresql+psycopg://...``)
works too. A bad URL or an unreachable server is a :class:`StoreError` that says what was
wrong, never a driver's traceback.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import logging
import os
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast
from urllib.parse import unquote, urlsplit

from sqlalchemy import MetaData, Table, create_engine, event, inspect
from sqlalchemy.engine import URL, CursorResult, Engine, make_url
from sqlalchemy.exc import (
    ArgumentError,
    IntegrityError,
    NoSuchModuleError,
    OperationalError,
    ProgrammingError,
    SQLAlchemyError,
)
from sqlalchemy.orm import Session
from sqlalchemy.util import asbool

from meeple.core.errors import MeepleError
from meeple.core.files import Unreadable
from meeple.store.urls import hide_password, normalized


class StoreError(MeepleError):
    """A database that cannot be opened or written: bad URL, unreachable server, bad folder."""


class StorageUnavailable(StoreError):
    """The database failed a read or a commit (locked, read-only, gone): nothing was
    changed, and the same request may succeed if tried again. The message names the
    driver's reason, for whoever runs meeple; :attr:`PUBLIC` is what others are told."""

    PUBLIC = "the database failed; nothing was changed: try again"
    """The failure as a server tells a client: the driver's reason may name the database's
    host, port, user or file, which are the operator's to read (in the log), not a
    stranger's."""


log = logging.getLogger("meeple.store")

F = TypeVar("F", bound=Callable[..., Any])


def storage_failures(method: F) -> F:
    """Turn a database failure inside ``method`` into StorageUnavailable, logged as one
    warning line that names the driver's reason and holds no SQL and no parameters (a
    statement's parameters may be an Erd seat's hidden allocation, a seed, a token's hash)."""

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except SQLAlchemyError as exc:
            reason = failure_reason(exc)
            log.warning("database failure in %s: %s", method.__name__, reason)
            raise StorageUnavailable(
                f"the database failed ({reason}); nothing was changed: try again"
            ) from None

    return wrapper  # type: ignore[return-value]


def failure_reason(exc: BaseException) -> str:
    """The driver's reason, first line only (PostgreSQL's DETAIL line quotes values, and
    psycopg's connection errors add a hint on a line of its own), after its type's name."""
    orig = getattr(exc, "orig", None) or exc
    first = str(orig).strip().splitlines()[0] if str(orig).strip() else ""
    return f"{type(orig).__name__}: {first[:200]}" if first else type(orig).__name__


class JSONText(str):
    """A value encoded as JSON already: a JSON column stores the text as it is.

    A process that encoded a row once (the lab's workers do, for the database and the JSONL
    file alike) hands it over like this instead of having it decoded and encoded again.
    """


def _to_json(value: Any) -> str:
    """The engines' JSON serializer: encoded text as it is, anything else by ``json.dumps``
    (what SQLAlchemy uses when none is given)."""
    return str(value) if isinstance(value, JSONText) else json.dumps(value)


def read_json(text: str | None) -> Any:
    """A JSON column read as text (``CAST(column AS TEXT)``): its value, None for NULL, or
    :class:`~meeple.core.files.Unreadable` saying why it is no JSON, in its place, so that a
    damaged row spoils only itself (SQLAlchemy's own decoding raises in the middle of a
    query). ``json.loads``, not the stricter ``parse_json``: a run's rows may be a million,
    and what a key given twice could hide the reader's own check catches."""
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError as exc:
        return Unreadable(f"not JSON: {exc}")
    except RecursionError:
        return Unreadable("nested too deeply to be read")


def utc_now() -> dt.datetime:
    """The time now as every table stores it: UTC without a zone (SQLite keeps no zone, and
    one convention for both databases lets rows move between them)."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def read_moment(text: str | None) -> dt.datetime | None:
    """A date column read as text (``CAST(column AS TEXT)``: ``2026-12-05 05:24:00.123456``
    on SQLite and PostgreSQL alike); None where it holds no date. A SQLite column holds
    whatever was written to it, and SQLAlchemy's own reading of a damaged date raises in
    the middle of a query, spoiling every row it returns."""
    try:
        return dt.datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names; None for another database, an in-memory one or a URL
    that is not one (:func:`open_engine` says what is wrong with that)."""
    try:
        return _sqlite_path(make_url(url))
    except ArgumentError:
        return None


def _sqlite_path(parsed: URL) -> Path | None:
    """The file of a parsed SQLite URL; None for another database or an in-memory one."""
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    if _is_uri(parsed) and parsed.database.startswith("file:"):
        # SQLite's own URI filename (``sqlite:///file:data/x.db?mode=ro&uri=true``): the
        # driver hands it to SQLite as a URI, so its file is the URI's path, not "file:...".
        path = unquote(urlsplit(parsed.database).path)
        if path in ("", ":memory:") or _query_value(parsed, "mode") == "memory":
            return None
        return Path(path)
    return Path(parsed.database)


def _new_file(parsed: URL) -> Path | None:
    """The file of a SQLite URL that makes its file if it is missing; None for another
    database, an in-memory one, or SQLite's URI modes ro and rw (which open only a file
    that exists, and make no folder)."""
    if _is_uri(parsed) and _query_value(parsed, "mode") in ("ro", "rw"):
        return None
    return _sqlite_path(parsed)


def _is_uri(parsed: URL) -> bool:
    """Whether SQLAlchemy's SQLite driver passes the URL's database to SQLite as a URI."""
    value = _query_value(parsed, "uri")
    return value is not None and asbool(value)


def _query_value(parsed: URL, key: str) -> str | None:
    value = parsed.query.get(key)
    return value if value is None or isinstance(value, str) else value[-1]


def open_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get their folder created, WAL and a busy timeout
    (30 s, or the URL's ``?timeout=SECONDS``); PostgreSQL connections are bounded in time
    (:mod:`meeple.store.postgres`: 10 s of silence from the server, or the URL's
    ``?timeout=SECONDS``).

    WAL lets readers go on while one writer commits; ``synchronous=FULL`` makes a commit
    durable once it returns, which the game server promises before it acknowledges a move.
    The busy timeout makes a second process wait for the lock instead of failing at once.
    """
    url = normalized(url)
    shown = hide_password(url)
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise StoreError(
            f"{shown!r} is not a database URL; write sqlite:///path/to/file.db or "
            "postgresql+psycopg://user:password@host/dbname"
        ) from None
    connect_args: dict[str, Any] = {}
    sqlite = parsed.get_backend_name() == "sqlite"
    postgresql = parsed.get_backend_name() == "postgresql"
    answer_seconds = 0.0
    if sqlite:
        # The busy wait: 30 s unless the URL sets it (``sqlite:///file.db?timeout=5``).
        connect_args["timeout"] = _seconds(parsed, shown, 30.0, above_zero=False)
        if (file := _new_file(parsed)) is not None:
            try:
                file.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(
                    f"cannot create the folder of {file}: {exc.strerror or exc}"
                ) from None
    elif postgresql:
        from meeple.store.postgres import ANSWER_SECONDS, libpq_defaults

        # ``timeout`` is meeple's, not libpq's (which would refuse it).
        answer_seconds = _seconds(parsed, shown, ANSWER_SECONDS, above_zero=True)
        parsed = parsed.difference_update_query(["timeout"])
        connect_args.update(libpq_defaults(parsed.query))
    else:
        connect_args["connect_timeout"] = 10
    try:
        engine = create_engine(
            parsed,
            connect_args=connect_args,
            pool_pre_ping=True,
            json_serializer=_to_json,
            # An error's text must not carry a statement's parameters into a log: they
            # hold an Erd seat's hidden allocation, seeds, token hashes.
            hide_parameters=True,
        )
    except (NoSuchModuleError, ImportError) as exc:
        raise StoreError(
            f"no database driver for {shown!r}: {exc}; meeple comes with SQLite's "
            "(sqlite:///FILE) and PostgreSQL's (postgresql://USER@HOST/DATABASE), and another "
            "database needs its SQLAlchemy driver installed beside meeple"
        ) from None
    except (ArgumentError, TypeError) as exc:
        raise StoreError(f"cannot use the database URL {shown!r}: {exc}") from None
    if sqlite:
        event.listen(engine, "connect", _sqlite_pragmas)
    elif postgresql and engine.dialect.driver == "psycopg":
        from meeple.store.postgres import bound_answers

        bound_answers(engine, answer_seconds)
    return engine


def _seconds(parsed: URL, shown: str, default: float, *, above_zero: bool) -> float:
    """The URL's ``?timeout=SECONDS``, or ``default``; StoreError in one line if it is not
    a number of seconds (above 0 where ``above_zero``)."""
    given = _query_value(parsed, "timeout")
    if given is None:
        return default
    try:
        seconds = float(given)
    except ValueError:
        seconds = float("nan")
    least = "above 0" if above_zero else "0 or more"
    if not (seconds > 0 if above_zero else seconds >= 0) or seconds == float("inf"):
        raise StoreError(
            f"timeout={given!r} in {shown!r} is not a number of seconds {least}; "
            "write e.g. ?timeout=5"
        )
    return seconds


LOCK_WAIT_SECONDS = 30.0
"""How long opening a database waits for another process that holds it (SQLite)."""


def _while_locked(action: Callable[[], Any], is_locked: Callable[[Exception], bool]) -> Any:
    """Run ``action``, trying again while another process holds the database.

    SQLite's busy timeout covers reads and writes but not every step of opening a new file:
    switching it to WAL, or creating its tables, can answer "database is locked" at once
    while a second process does the same.
    """
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    pause = 0.02
    while True:
        try:
            return action()
        except Exception as exc:
            if not is_locked(exc) or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.5)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    _while_locked(
        lambda: cursor.execute("PRAGMA journal_mode=WAL"),
        lambda exc: isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc),
    )
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def create_tables(engine: Engine, metadata: MetaData) -> None:
    """Create the tables that are missing; another process doing the same at once is fine.

    Two processes opening a new database at the same moment both see a table missing and
    both create it. The loser's "already exists" stops its ``create_all`` at that table, so
    it tries again (each try creates only what is still missing) until every table is there.
    PostgreSQL says it as a duplicate key of its catalogue of types (the table's row type)
    or a relation that already exists: two servers started at once on a new database, one
    of them stopped there.
    """

    def racing(exc: Exception) -> bool:
        text = str(getattr(exc, "orig", exc))
        if isinstance(exc, IntegrityError | ProgrammingError):
            return "already exists" in text or "duplicate key" in text
        return isinstance(exc, OperationalError) and ("locked" in text or "already exists" in text)

    try:
        _while_locked(lambda: metadata.create_all(engine), racing)
    except (OperationalError, IntegrityError, ProgrammingError) as exc:
        try:
            missing = set(metadata.tables) - set(inspect(engine).get_table_names())
        except SQLAlchemyError:
            missing = {"(all)"}
        if missing:
            raise StoreError(f"cannot open {_safe(engine)}: {_open_failure(engine, exc)}") from None
    except SQLAlchemyError as exc:
        raise StoreError(f"cannot open {_safe(engine)}: {_open_failure(engine, exc)}") from None


def _open_failure(engine: Engine, exc: BaseException) -> str:
    """Why the database could not be opened, on one line. SQLite says only "unable to open
    database file" of a new file it could not make; the system says why (a read-only disk,
    a folder this user may not write), so a new file is made here to ask it."""
    file = _new_file(engine.url)
    if file is not None and file.parent.is_dir() and not file.exists():
        try:
            # Not removed if it is made: another process may be opening it by now, and an
            # empty file is a new database to SQLite.
            os.close(os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        except FileExistsError:
            pass
        except OSError as err:
            return f"cannot make a file in the folder {file.parent}: {err.strerror or err}"
    # PostgreSQL's message goes on with the statement it refused ("LINE 2: CREATE TABLE
    # matches ( ^"): SQL an operator cannot act on.
    reason = re.split(r" LINE \d+:", _one_line(exc))[0]
    if "permission denied for schema" in reason:
        reason += (
            " (the server makes its tables: its role must own the database, as `createdb -O "
            "ROLE DATABASE` makes it, or hold CREATE on the schema)"
        )
    return reason


def _one_line(exc: BaseException) -> str:
    """The driver's reason on one line: psycopg's puts a hint on a line of its own, indented
    with a tab (an error line shows it as a visible escape, ``\\x09``)."""
    return " ".join(str(getattr(exc, "orig", None) or exc).split())


def add_missing_columns(engine: Engine, table: Table) -> None:
    """Add the nullable columns of ``table`` that its stored copy lacks (a database made
    by an older meeple): ``create_all`` creates missing tables, never missing columns.

    Another process adding the same column at once is fine: the loser's error is ignored
    once the column is seen to be there.
    """
    try:
        present = {c["name"] for c in inspect(engine).get_columns(table.name)}
    except SQLAlchemyError as exc:
        raise StoreError(f"cannot open {_safe(engine)}: {_one_line(exc)}") from None
    for column in table.columns:
        if column.name in present:
            continue
        if not column.nullable:
            raise StoreError(
                f"{_safe(engine)}: table {table.name} lacks column {column.name}, which cannot "
                "be added to stored rows (it has no default); use a new database"
            )
        kind = column.type.compile(dialect=engine.dialect)
        statement = f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}"
        try:
            with engine.begin() as connection:
                connection.exec_driver_sql(statement)
        except SQLAlchemyError as exc:
            columns = {c["name"] for c in inspect(engine).get_columns(table.name)}
            if column.name not in columns:
                raise StoreError(
                    f"cannot add column {column.name} to {table.name} in {_safe(engine)}: "
                    f"{getattr(exc, 'orig', exc)}"
                ) from None


def _safe(engine: Engine) -> str:
    """The engine's URL with any password hidden, for messages."""
    return engine.url.render_as_string(hide_password=True)


def insert_new(session: Session, table: Table, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows``, skipping any whose primary key is stored already.

    Two processes writing the same run at once (or a run resumed while another copy of it
    is going) then both finish, and each key is stored once: the rows of a key are the same
    whoever plays them, since a row is a pure function of its job.
    """
    if not rows:
        return
    keys = [c.name for c in table.primary_key.columns]
    insert = _upserting_insert(session)
    if insert is not None:
        # One statement run for every row (executemany): compiling a statement with a VALUES
        # clause per row costs more than storing the rows.
        session.execute(insert(table).on_conflict_do_nothing(index_elements=keys), rows)
        return
    for row in rows:  # other databases: one at a time, a duplicate skipped
        try:
            with session.begin_nested():
                session.execute(table.insert().values(**row))
        except IntegrityError:
            pass


def upsert(session: Session, table: Table, row: dict[str, Any]) -> None:
    """Store ``row``, replacing the row of the same primary key if there is one.

    One statement on SQLite and PostgreSQL, so two processes writing the same key at once
    both succeed (the last write stays); a select-then-insert (``Session.merge``) lets both
    see no row and the second insert fail.
    """
    keys = [c.name for c in table.primary_key.columns]
    insert = _upserting_insert(session)
    if insert is not None:
        statement = insert(table).values(**row)
        changes = {name: statement.excluded[name] for name in row if name not in keys}
        session.execute(statement.on_conflict_do_update(index_elements=keys, set_=changes))
        return
    where = [table.c[name] == row[name] for name in keys]  # other databases: update or insert
    # An UPDATE's result is a CursorResult (Session.execute is typed for any Result).
    updated = cast(CursorResult[Any], session.execute(table.update().where(*where).values(**row)))
    if updated.rowcount == 0:
        session.execute(table.insert().values(**row))


def _upserting_insert(session: Session) -> Callable[[Table], Any] | None:
    """The dialect's ``insert`` with ON CONFLICT clauses (SQLite, PostgreSQL); None for other
    databases, which take the row-by-row path."""
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        return sqlite_insert
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as postgresql_insert

        return postgresql_insert
    return None
