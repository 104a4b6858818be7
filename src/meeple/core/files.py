"""Writing files so that a crash never leaves half of one, and reading them back with care.

Every file meeple writes goes through :func:`atomic_write`: the text goes to a temporary
file in the same folder, is flushed to disk, and only then replaces the old file, so a
reader sees either the old content or the new, never a torn mix. A temporary file is
created with mode 0600, which is right for a scratch file but wrong for the user's saved
game: the new file gets the old file's mode, or, for a new file, what the user's umask
allows (0666 less the umask), as ``open()`` would have given it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


def user_cache_home() -> Path:
    """meeple's folder in the user's cache: ``$XDG_CACHE_HOME/meeple``, else
    ``~/.cache/meeple`` (solved results and compiled code live below it)."""
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "meeple"


def _umask() -> int:
    # os.umask can only be read by setting it; set it back at once.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(path: str | Path, text: str | bytes, *, fsync: bool = True) -> None:
    """Replace ``path`` with ``text`` (UTF-8; bytes as they are) all at once, keeping an
    existing file's mode.

    The folder is created if missing. Raises OSError (e.g. the folder is not writable); the
    old file is then left as it was and no temporary file is left behind.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        data = text.encode() if isinstance(text, str) else text
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if fsync:
                os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
