"""Fixtures for the game server: real server processes, and real databases.

Every storage and restart test runs against SQLite, and against PostgreSQL when a server
can be started here: a throwaway cluster made by ``initdb`` in a temporary folder, on a
free loopback port (as the ``postgres`` user when the tests run as root, since ``initdb``
refuses root). ``.ci/run`` installs PostgreSQL so that CI always runs them. Nothing is
mocked.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from meeple.interfaces.web.client import ServerProcess, free_port
from tests.processes import children

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def _pg_bin() -> Path | None:
    if (PG_BIN / "initdb").exists():
        return PG_BIN
    found = shutil.which("initdb")
    return Path(found).parent if found else None


class PostgresCluster:
    """A PostgreSQL server in a temporary folder, for one test session."""

    def __init__(self) -> None:
        bin_dir = _pg_bin()
        if bin_dir is None:
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="meeple-pg-"))
        self.data = self.folder / "data"
        as_root = os.geteuid() == 0
        self.user = "postgres" if as_root else pwd.getpwuid(os.geteuid()).pw_name
        if as_root:
            entry = pwd.getpwnam("postgres")
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)

        def run(*args: str) -> None:
            command = list(args)
            if as_root:
                command = ["runuser", "-u", "postgres", "--", *command]
            subprocess.run(command, check=True, capture_output=True, timeout=120)

        run(str(bin_dir / "initdb"), "-D", str(self.data), "-A", "trust", "-U", self.user)
        self._options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=on"
        run(
            str(bin_dir / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.folder / "log"),
            "-o",
            self._options,
            "-w",
            "start",
        )
        self._run = run
        self._bin = bin_dir
        self.counter = 0

    def restart(self) -> None:
        """Restart the server as an operator would (``pg_ctl restart -m fast``): every
        connection is closed; returns once it accepts connections again."""
        # Its log named again: without one, the new server would write to (and hold open)
        # the pipe this waits on.
        self._run(
            str(self._bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "log"),
            "-m", "fast", "-w", "restart",
        )  # fmt: skip

    @contextlib.contextmanager
    def frozen(self) -> Iterator[None]:
        """The server frozen (SIGSTOP to the postmaster, then to each of its processes),
        as a hung machine or a partition leaves it: its connections stay open and nothing
        answers. Resumed (SIGCONT) on leaving, whatever happened."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        stopped = [postmaster]
        try:
            os.kill(postmaster, signal.SIGSTOP)  # first: it starts no process meanwhile
            for pid in children(postmaster):
                os.kill(pid, signal.SIGSTOP)
                stopped.append(pid)
            yield
        finally:
            for pid in stopped:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)

    @contextlib.contextmanager
    def stopped(self) -> Iterator[None]:
        """The server stopped (``pg_ctl stop -m fast``), as an operator's maintenance or a
        crash leaves it: connections are refused at once. Started again on leaving."""
        self._run(str(self._bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")
        try:
            yield
        finally:
            self._run(
                str(self._bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "log"),
                "-o", self._options, "-w", "start",
            )  # fmt: skip

    def new_database(self) -> str:
        """A fresh empty database; its SQLAlchemy URL."""
        self.counter += 1
        name = f"meeple_{self.counter}"
        self._run(
            str(self._bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U",
            self.user, name,
        )  # fmt: skip
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        """Stop the server and remove its folder (in the background: see below)."""
        try:
            self._run(str(self._bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            # Unlinking the thousands of files a session's databases leave waits on the disk
            # (seconds, 17 under load, with almost no CPU), and the run's last test would wait
            # for it in its teardown. The server is stopped (pg_ctl waited for it), so
            # nothing writes there any more: a shell that exits at once leaves ``rm`` to it.
            try:
                subprocess.run(
                    ["sh", "-c", 'rm -rf -- "$1" </dev/null >/dev/null 2>&1 &', "sh", self.folder],
                    check=True, timeout=10,
                )  # fmt: skip
            except (OSError, subprocess.SubprocessError):
                shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster | None]:
    """A PostgreSQL cluster for the session, or None (and a reason printed) without one."""
    try:
        cluster = PostgresCluster()
    except (RuntimeError, subprocess.SubprocessError, OSError, KeyError) as exc:
        print(f"\nPostgreSQL tests skipped: cannot start a cluster here ({exc})", file=sys.stderr)
        yield None
        return
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path, postgres) -> str:
    """A fresh database URL: SQLite always, PostgreSQL where a cluster could be started."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.db'}"
    if postgres is None:
        if os.environ.get("CI"):
            pytest.fail("CI must run the PostgreSQL tests, but no cluster could be started")
        pytest.skip("PostgreSQL is not installed here (apt-get install postgresql)")
    return postgres.new_database()


@pytest.fixture
def server_factory(tmp_path, monkeypatch) -> Iterator:
    """Start real servers (``factory(db_url)``, ``factory(db_url, workers, *serve_flags)``);
    all are stopped at the end of the test."""
    started: list[ServerProcess] = []
    # Killed at the end, a server leaves its temporary files (a content set's copy): in the
    # test's folder, not the machine's.
    monkeypatch.setenv("TMPDIR", str(tmp_path))

    def factory(db: str, agent_workers: int = 1, *args: str) -> ServerProcess:
        log = tmp_path / f"server{len(started)}.log"
        server = ServerProcess(db, log, agent_workers, args)
        started.append(server)
        return server.start()

    yield factory
    for server in started:
        server.kill()


@contextlib.contextmanager
def module_server(
    tmp_path_factory: pytest.TempPathFactory, name: str, workers: int = 0, args: tuple = ()
) -> Iterator[ServerProcess]:
    """A server for a test module's tests to share (a module-scoped fixture yields it): a
    fresh SQLite database in a folder of its own, named ``name``, kept on ``folder``."""
    folder = tmp_path_factory.mktemp(name)
    server = ServerProcess(
        f"sqlite:///{folder / 'server.db'}", folder / "server.log", workers, args
    ).start()
    server.folder = folder  # type: ignore[attr-defined]
    try:
        yield server
    finally:
        server.kill()
