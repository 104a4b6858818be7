"""PostgreSQL connections that cannot hold a request for ever.

A PostgreSQL server that is frozen (its processes stopped, its machine hung) or cut off by
the network keeps its connections open and answers nothing, and libpq waits for an answer
as long as that lasts: a frozen server's kernel still acknowledges every packet, so no TCP
timeout ends the wait, and a partition lasts until TCP gives up, minutes later. A game
server's request waiting so holds one of its few threads, and a handful stall it whole.

So a connection that, while it waits for an answer, receives nothing for
``answer_seconds`` is cut: its socket is shut down, the waiting call fails as a lost
connection (SQLAlchemy drops it from its pool), and the caller's request is refused with
the usual retry message. The bound is on silence, not on the whole answer: a large result
still arriving is not cut. A new connection is bounded by libpq's ``connect_timeout``, and
an idle one (a pooled connection, the server's LISTEN connection) is found dead by TCP
keepalives (:data:`LIBPQ_DEFAULTS`).

A commit cut off this way may still be carried out when the server resumes (it may have
read the COMMIT already): its outcome is unknown, as with any connection lost during a
commit. The game server finds such a move when the mover tries again: the move's number is
taken, so the retry is a conflict and the match is read again.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Generator, Mapping
from typing import Any

import psycopg
from sqlalchemy import event
from sqlalchemy.engine import Engine

ANSWER_SECONDS = 10.0
"""How long a connection may wait without receiving anything, unless the URL says
otherwise (``?timeout=SECONDS``)."""

LIBPQ_DEFAULTS: Mapping[str, str] = {
    # A new connection: 10 s to connect and log in (a frozen server accepts the TCP
    # connection and never answers the login).
    "connect_timeout": "10",
    # An idle connection whose server is gone is found after 30 + 3 x 10 s with no answer to
    # the probes (the system's default waits two hours before the first probe).
    "keepalives": "1",
    "keepalives_idle": "30",
    "keepalives_interval": "10",
    "keepalives_count": "3",
}
"""libpq's parameters meeple sets where the URL sets none (any of them may be given in
the URL's query: ``?connect_timeout=3``)."""


def libpq_defaults(query: Mapping[str, Any]) -> dict[str, str]:
    """The :data:`LIBPQ_DEFAULTS` a URL with this query does not set."""
    return {key: value for key, value in LIBPQ_DEFAULTS.items() if key not in query}


def bound_answers(engine: Engine, answer_seconds: float) -> None:
    """Make every connection ``engine`` opens (with psycopg) cut off a wait for an answer
    that receives nothing for ``answer_seconds``."""

    @event.listens_for(engine, "do_connect")
    def _connect(_dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
        connection = _BoundedConnection.connect(*cargs, **cparams)
        connection.answer_seconds = answer_seconds
        return connection


class _BoundedConnection(psycopg.Connection[Any]):
    """A psycopg connection whose waits for the server are watched (:data:`_WATCHDOG`)."""

    answer_seconds = ANSWER_SECONDS
    deadline = 0.0
    """When the wait now under way is cut if nothing arrives before (``time.monotonic``)."""
    was_cut = False

    def wait(self, gen: Any, *args: Any, **kwargs: Any) -> Any:
        """psycopg's wait for ``gen``, cut off after ``answer_seconds`` of silence."""
        self.was_cut = False
        self.deadline = time.monotonic() + self.answer_seconds
        _WATCHDOG.watch(self)
        try:
            return super().wait(self._progress(gen), *args, **kwargs)
        except psycopg.Error as exc:
            if not self.was_cut:
                raise
            self.close()  # broken either way: SQLAlchemy drops a closed connection
            raise psycopg.OperationalError(
                f"the database sent nothing for {self.answer_seconds:g} s (timeout=SECONDS "
                "in the URL sets this): it is frozen or out of reach"
            ) from exc
        finally:
            _WATCHDOG.forget(self)

    def _progress(self, gen: Any) -> Generator[Any, Any, Any]:
        """``gen``, its deadline put off each time the socket is ready (data came in, or
        what was sent went out); psycopg also resumes it with nothing ready, to check for
        Ctrl-C, which puts nothing off."""
        try:
            waiting = next(gen)
            while True:
                ready = yield waiting
                if ready:
                    self.deadline = time.monotonic() + self.answer_seconds
                waiting = gen.send(ready)
        except StopIteration as done:
            return done.value

    def cut(self) -> None:
        """Shut the socket down (called by the watchdog while this connection waits):
        the wait wakes at once and fails as a lost connection."""
        self.was_cut = True
        try:
            with socket.socket(fileno=os.dup(self.fileno())) as sock:
                sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # closed meanwhile: the wait has ended on its own


class _Watchdog:
    """One thread that cuts the connections whose wait passed its deadline; it sleeps until
    the soonest deadline, and for good while nothing waits."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._waiting: set[_BoundedConnection] = set()
        self._wakes_at: float | None = None
        self._thread: threading.Thread | None = None

    def watch(self, connection: _BoundedConnection) -> None:
        """Watch ``connection`` until :meth:`forget` (its ``deadline`` is set)."""
        with self._changed:
            self._waiting.add(connection)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="meeple-db", daemon=True)
                self._thread.start()
            elif self._wakes_at is None or connection.deadline < self._wakes_at:
                self._changed.notify()

    def forget(self, connection: _BoundedConnection) -> None:
        """Stop watching ``connection`` (its wait ended)."""
        with self._changed:
            self._waiting.discard(connection)

    def _run(self) -> None:
        with self._changed:
            while True:
                now = time.monotonic()
                soonest = None
                for connection in list(self._waiting):
                    # Read under the lock, while the connection is still watched: its
                    # wait has not ended, so its socket is still its own.
                    if connection.deadline <= now:
                        self._waiting.discard(connection)
                        connection.cut()
                    elif soonest is None or connection.deadline < soonest:
                        soonest = connection.deadline
                self._wakes_at = soonest
                self._changed.wait(None if soonest is None else soonest - now)


_WATCHDOG = _Watchdog()
