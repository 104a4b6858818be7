"""Processes and signals: workers that do not outlive the process that started them, and
work that a Ctrl-C must not cut in two.

A process pool's workers are children of the command that made them; if that command is
killed with SIGKILL it cannot tell them to stop, and they would run on, orphaned. Linux
can send a child a signal when its parent dies (``prctl(PR_SET_PDEATHSIG)``); a worker
calls :func:`die_with_parent` first thing (a pool's ``initializer``).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import threading
from collections.abc import Iterator

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Ask the kernel to kill this process when its parent dies (Linux; elsewhere a no-op).

    If the parent died before the request was made, exit now.
    """
    parent = os.getppid()
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os._exit(1)


@contextlib.contextmanager
def ctrl_c_deferred() -> Iterator[None]:
    """Hold a Ctrl-C that comes during the block until the block is done, then raise it.

    For a database write: a KeyboardInterrupt raised inside the driver, between a statement
    and its commit, leaves the write's transaction open on a connection that only the
    garbage collector closes, so that the command's next write (the one keeping the games
    finished before Ctrl-C) waits for the database's lock and fails. Signals reach only the
    main thread; elsewhere, or where another Ctrl-C handler is installed, the block runs as
    it is.
    """
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    held: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, _frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if held:
            raise KeyboardInterrupt
