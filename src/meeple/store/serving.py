"""One game server per SQLite file.

Servers sharing a database hear each other's moves through PostgreSQL's LISTEN/NOTIFY;
SQLite has nothing of the kind, so two servers on one SQLite file would each keep its own
copy of a match in memory and a match played across them would stall. A server therefore
holds an exclusive lock (``flock``) on a file beside the database, ``FILE-server.lock``,
for as long as it runs; the system releases it when the process ends, however it ends.
Other commands (the lab, ``meeple results``) take no such lock and share the file freely.
"""

from __future__ import annotations

import os
from pathlib import Path

from meeple.store.db import StoreError, sqlite_file


class ServerLock:
    """The lock a server holds on its SQLite file (closed, and so released, at exit)."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd = fd

    def release(self) -> None:
        """Let another server have the file (the lock file stays, for the next one)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def lock_for_server(url: str) -> ServerLock | None:
    """The lock on the SQLite file ``url`` names, for a server; None for any other
    database, and where no file can be made beside it (the server then runs without the
    lock: its folder took the database's own files). StoreError in one line if another
    server holds it."""
    file = sqlite_file(url)
    if file is None:
        return None
    try:
        import fcntl
    except ImportError:  # not on this system (Windows): nothing to lock with
        return None
    # The file's real path: two names for one file (a link) are one database.
    path = Path(f"{file.resolve()}-server.lock")
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
        os.close(fd)
        who = f"another meeple server (pid {holder})" if holder.isdigit() else "another server"
        raise StoreError(
            f"{who} serves {file} already (it holds {path}); servers on one SQLite "
            "file do not hear each other's moves, so a match played across them stalls: "
            "stop that server, give this one a file of its own, or share a PostgreSQL "
            "database between servers (--db postgresql+psycopg://...)"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return ServerLock(path, fd)
