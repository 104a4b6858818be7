"""Starting the tests' servers by forking them from one Python that has imported the server.

A start of ``meeple serve`` spends about a CPU-second importing FastAPI, SQLAlchemy,
pydantic, NumPy and the five games before it answers, and the suite starts about a hundred
servers. Each pytest worker therefore starts, at its first server, one Python that imports
the server's code once (:data:`_SERVING`) and then forks a child per server, which runs the
``meeple`` command with the server's command line as the installed script runs it (its
``_meeple_entry.main``). The child is the server: its own session, its own log as stdout
and stderr, the test's working folder and environment.

A test needs only a server started this way to look like one ``subprocess.Popen`` started
(:class:`Forked`): its pid, ``poll``, ``wait``, ``send_signal`` and ``returncode``. The
child's exit status goes to its parent, the forking Python, which says it when asked.

What is read only when a Python starts or imports cannot be given to a forked child: the
environment but for :data:`READ_WHEN_USED` (``PYTHONPATH``, ``NUMBA_CACHE_DIR``, ...) and an
executable other than the installed ``meeple``. A server asked for with either is started
the usual way, as is a test's marked ``started_by_exec`` (tests/conftest.py).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

READ_WHEN_USED = frozenset({"TMPDIR", "MEEPLE_CACHE_DIR", "MEEPLE_HISTORY", "PYTEST_CURRENT_TEST"})
"""The environment variables a server reads when it uses them, not when it starts or
imports (pytest's own changes at every test): a server may be forked whatever their
values. ``tempfile``'s folder is found again in each child."""

# Run with ``python -c`` and one end of a SOCK_SEQPACKET pair as its stdin: each message is
# a JSON request, a start with the log's file descriptor beside it. It imports what
# `meeple serve` imports, then answers until the worker closes its end. A child leaves the
# loop by raising SystemExit with the command's status, so the interpreter ends as the
# script's would (its atexit functions run: multiprocessing's ends the agent workers).
_SERVING = r"""
import importlib, json, os, socket, sys, tempfile
sys.path[0] = sys.argv[1]  # as the installed script's folder is, not the working folder
import _meeple_entry
import meeple.interfaces.cli, meeple.interfaces.serve_cli
import uvicorn, meeple.interfaces.web.app, meeple.interfaces.web.connections
import meeple.store.serving
for name in ("uvicorn.lifespan.on", "uvicorn.loops.auto", "uvicorn.protocols.http.auto",
             "uvicorn.protocols.websockets.auto", "psycopg",
             "sqlalchemy.dialects.postgresql.psycopg", "sqlalchemy.dialects.sqlite"):
    try:
        importlib.import_module(name)
    except ImportError:
        pass

channel = socket.socket(fileno=0)
exits = {}

def reap():
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        exits[pid] = os.waitstatus_to_exitcode(status)

def serve(request, log):
    os.setsid()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(null)
    os.close(log)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    tempfile.tempdir = None
    sys.argv = request["argv"]
    raise SystemExit(_meeple_entry.main())

while True:
    message, fds, _, _ = socket.recv_fds(channel, 1 << 20, 1)
    if not message:
        break
    request = json.loads(message)
    reap()
    if "start" in request:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            channel.detach()
            serve(request["start"], fds[0])
        os.close(fds[0])
        channel.sendall(json.dumps(pid).encode())
    else:
        channel.sendall(json.dumps(exits.pop(request["poll"], None)).encode())
"""


class Forker:
    """One forking Python for this process, started at the first server."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._channel: socket.socket | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._env: dict[str, str] = {}
        self.script = Path(sys.executable).with_name("meeple")
        """The installed ``meeple`` script, whose command lines it forks."""

    def _ask(self, request: dict[str, Any], fds: Sequence[int] = ()) -> Any:
        with self._lock:
            if self._channel is None:
                ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
                self._env = dict(os.environ)
                self._process = subprocess.Popen(
                    # The last word, unread, names the servers in `ps` and
                    # benchmarks/suite_cpu.py's table.
                    [sys.executable, "-c", _SERVING, str(self.script.parent), "meeple serve"],
                    stdin=theirs, stdout=subprocess.DEVNULL, close_fds=True,
                )  # fmt: skip
                theirs.close()
                self._channel = ours
            socket.send_fds(self._channel, [json.dumps(request).encode()], list(fds))
            reply = self._channel.recv(1 << 16)
            if not reply:
                raise RuntimeError("the forking Python ended (its error is above)")
            return json.loads(reply)

    def forks(self, args: Sequence[str]) -> bool:
        """Whether the command line ``args`` can be forked in this environment (see the
        module's docstring)."""
        if not args or Path(args[0]) != self.script:
            return False
        if self._channel is None:
            return True  # it would start with this environment
        changed = {k for k in {*self._env, *os.environ} if self._env.get(k) != os.environ.get(k)}
        return changed <= READ_WHEN_USED

    def popen(
        self, args: Sequence[str], *, stdout: IO[bytes], stderr: int, start_new_session: bool
    ) -> Forked | subprocess.Popen[bytes]:
        """``subprocess.Popen(args, stdout=..., stderr=subprocess.STDOUT,
        start_new_session=True)`` as :class:`meeple.interfaces.web.client.ServerProcess`
        calls it, by a fork where it can be one."""
        if not (self.forks(args) and stderr == subprocess.STDOUT and start_new_session):
            return subprocess.Popen(
                args, stdout=stdout, stderr=stderr, start_new_session=start_new_session
            )
        start = {"argv": ["meeple", *args[1:]], "cwd": os.getcwd(), "env": dict(os.environ)}
        pid = self._ask({"start": start}, [stdout.fileno()])
        return Forked(self, list(args), pid)

    def exit_code(self, pid: int) -> int | None:
        """``pid``'s exit status (``-N`` for signal N) once it has ended, else None; said
        once per child."""
        return self._ask({"poll": pid})

    def close(self) -> None:
        """End the forking Python (the servers it forked are their tests' to stop)."""
        if self._channel is not None:
            self._channel.close()
            self._channel = None
        if self._process is not None:
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._process = None


class Forked:
    """A forked server, as much of a ``subprocess.Popen`` as a server's tests use."""

    def __init__(self, forker: Forker, args: list[str], pid: int) -> None:
        self._forker = forker
        self.args = args
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """Its exit status once it has ended (``-N``: ended by signal N), else None."""
        if self.returncode is None:
            self.returncode = self._forker.exit_code(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait until it ends; ``subprocess.TimeoutExpired`` after ``timeout`` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
            time.sleep(0.02)
        return code

    def send_signal(self, sig: int) -> None:
        """Send it ``sig``, unless it has ended (its pid may then be another's)."""
        if self.poll() is None:
            os.kill(self.pid, sig)
