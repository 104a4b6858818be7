"""Looking at real processes from tests: a process's children, whether one still runs, what
a server wrote in its log, and running ``meeple`` command lines each in a process of its
own."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path


def _stat(pid: int | str) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command's name (state, parent, ...): the
    name may hold spaces and parentheses, so they are split after its last ")"."""
    with open(f"/proc/{pid}/stat") as fh:
        return fh.read().rsplit(")", 1)[1].split()


def parent(pid: int) -> int:
    """The pid of ``pid``'s parent (read from /proc)."""
    return int(_stat(pid)[1])


def children(pid: int) -> list[int]:
    """Every process whose parent is ``pid`` (read from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = _stat(entry)
            except OSError:
                continue  # ended meanwhile
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        return _stat(pid)[0] != "Z"
    except OSError:
        return False


def as_at_a_terminal() -> None:
    """Give a command the default Ctrl-C handling a terminal gives it (a ``preexec_fn``).

    A suite started in the background (``make test &``, nohup) ignores SIGINT, and an
    ignored signal stays ignored across exec: the command would rightly keep ignoring it,
    as background jobs should, and the test would not be testing Ctrl-C at all.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# Started once with ``python -c``: imports the command's code, then forks one child per
# command line, each with its own stdout and stderr files, as ``sys.exit(main())`` in the
# installed ``meeple`` script would run it.
_FORKING = r"""
import json, os, signal, sys, tempfile, time, traceback
from meeple.interfaces.cli import main

commands, limit = json.loads(sys.argv[1]), float(sys.argv[2])
results = []
for args in commands:
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        sys.argv = ["meeple", *args]
        try:
            code = main()
        except SystemExit as stop:
            code = stop.code
        except BaseException:
            traceback.print_exc()
            code = 1
        code = 0 if code is None else code if isinstance(code, int) else 1
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    deadline = time.monotonic() + limit
    while not (status := os.waitpid(pid, os.WNOHANG))[0]:
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            status = os.waitpid(pid, 0)
            break
        time.sleep(0.01)
    timed_out = time.monotonic() > deadline
    texts = []
    for f in (out, err):
        f.seek(0)
        texts.append(f.read().decode(errors="replace"))
    results.append([None if timed_out else os.waitstatus_to_exitcode(status[1]), *texts])
print(json.dumps(results))
"""


def server_tracebacks(folder: Path) -> list[str]:
    """The server logs under ``folder`` that hold a traceback, each with the lines around
    its first: a server never writes one, whatever its clients do (docs/security.md,
    "Logs"). A server's log is a ``*.log`` file that starts with its banner."""
    found = []
    for log in sorted(folder.rglob("*.log")):
        text = log.read_text(errors="replace")
        at = text.find("Traceback")
        if text.startswith("meeple server on") and at >= 0:
            found.append(f"{log}:\n{text[max(0, at - 300) : at + 2500]}")
    return found


def meeple_each(
    commands: list[list[str]],
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    limit: float = 60,
) -> list[subprocess.CompletedProcess[str]]:
    """Run each command line of ``meeple`` in a process of its own, with a time limit, as
    the installed ``meeple`` script would: one Python starts and imports the command's code
    once, then forks a child per command line (a start of ``meeple`` takes about 2 s, a fork
    milliseconds). A command still running after ``limit`` seconds is killed and its
    ``returncode`` is ``None``. ``env`` and ``cwd`` as for :func:`subprocess.run`."""
    done = subprocess.run(
        [sys.executable, "-c", _FORKING, json.dumps(commands), str(limit)],
        capture_output=True, text=True, env=env, cwd=cwd, check=False,
        timeout=60 + limit * len(commands),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return [
        subprocess.CompletedProcess(["meeple", *args], code, out, err)
        for args, (code, out, err) in zip(commands, json.loads(done.stdout), strict=True)
    ]
