"""Worker processes that do not outlive the process that started them.

A process pool's workers are children of the command that made them; if that command is
killed with SIGKILL it cannot tell them to stop, and they would run on, orphaned. Linux
can send a child a signal when its parent dies (``prctl(PR_SET_PDEATHSIG)``); a worker
calls :func:`die_with_parent` first thing (a pool's ``initializer``).
"""

from __future__ import annotations

import ctypes
import os
import signal

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
