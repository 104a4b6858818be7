"""Fixtures for the game server: real server processes, and real databases.

Every storage and restart test runs against SQLite, and against PostgreSQL when a server
can be started here: a throwaway cluster made by ``initdb`` in a temporary folder, on a
free loopback port (as the ``postgres`` user when the tests run as root, since ``initdb``
refuses root). ``.ci/run`` installs PostgreSQL so that CI always runs them. Nothing is
mocked.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
        run(
            str(bin_dir / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.folder / "log"),
            "-o",
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=on",
            "-w",
            "start",
        )
        self._run = run
        self._bin = bin_dir
        self.counter = 0

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
        """Stop the server and remove its folder."""
        try:
            self._run(str(self._bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
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


class ServerProcess:
    """``meeple serve`` in a real process on a free port."""

    def __init__(self, db: str, log: Path, agent_workers: int = 1) -> None:
        self.db = db
        self.log_path = log
        self.agent_workers = agent_workers
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> ServerProcess:
        """Start it and wait until it answers."""
        meeple = Path(sys.executable).with_name("meeple")
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [str(meeple), "serve", "--port", str(self.port), "--db", self.db,
             "--agent-workers", str(self.agent_workers)],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/api/games", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.2)
        raise RuntimeError("the server did not start within 60 s")

    def kill(self) -> None:
        """SIGKILL the server and everything it started (its agent workers too)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        """Stop it politely (SIGTERM), or kill it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def server_factory(tmp_path) -> Iterator:
    """Start real servers (``factory(db_url)``); all are stopped at the end of the test."""
    started: list[ServerProcess] = []

    def factory(db: str, agent_workers: int = 1) -> ServerProcess:
        server = ServerProcess(db, tmp_path / f"server{len(started)}.log", agent_workers)
        started.append(server)
        return server.start()

    yield factory
    for server in started:
        server.kill()
