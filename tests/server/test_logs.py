"""The server's log is one line per event (docs/security.md, Logs): a driver's reason that
spans lines (psycopg's "connection refused" adds a hint on a line of its own) is cut to its
first, as a failed read or commit's is (``meeple.store.db.failure_reason``)."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

from meeple.interfaces.web.hub import Hub


class _Gone:
    """A PostgreSQL server that refuses every connection, in psycopg's words."""

    def changes(self):
        raise OSError(
            'connection failed: connection to server at "127.0.0.1", port 5432 failed: '
            "Connection refused\n\tIs the server running on that host and accepting TCP/IP "
            "connections?"
        )


def test_a_lost_listening_connection_is_one_log_line(caplog):
    hub = SimpleNamespace(store=_Gone(), matches={}, _spawn=lambda coroutine: None)

    async def listen_a_while() -> None:
        task = asyncio.create_task(Hub._listen(hub))
        await asyncio.sleep(0.2)
        task.cancel()

    with caplog.at_level(logging.WARNING, logger="meeple.server"):
        asyncio.run(listen_a_while())
    lines = [r.getMessage() for r in caplog.records if "listening" in r.getMessage()]
    assert len(lines) == 1, lines
    assert "\n" not in lines[0] and "Connection refused" in lines[0], lines
