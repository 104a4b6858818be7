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
import errno
import json
import os
import re
import stat
import tempfile
import tomllib
from collections.abc import Callable
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

MAX_DATA_FILE_BYTES = 4_000_000
"""The largest game data file read (a ranking table, a content file, a card list): the
shipped ones are a few kB, and a path that names a device or a huge file must not fill
memory."""


def user_cache_home() -> Path:
    """meeple's folder in the user's cache: ``$XDG_CACHE_HOME/meeple``, else
    ``~/.cache/meeple`` (solved results and compiled code live below it)."""
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "meeple"


def exists(path: Path) -> bool:
    """``path.exists()``, but False where the system refuses the name (too long, a link
    loop): Python 3.11 raises there instead of answering, and a folder named so holds
    nothing a caller could find."""
    try:
        return path.exists()
    except OSError:
        return False


def ensure_writable_folder(folder: Path) -> None:
    """Create ``folder`` if missing and write (and remove) a scratch file in it, so that a
    long run finds out before it starts, not when it first saves; OSError if it cannot."""
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=folder):
        pass


def _umask() -> int:
    # os.umask can only be read by setting it; set it back at once.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(path: str | Path, text: str | bytes, *, fsync: bool = True) -> None:
    """Replace ``path`` with ``text`` (UTF-8; bytes as they are) all at once, keeping an
    existing file's mode.

    The folder is created if missing. A symbolic link keeps pointing where it did: the file
    it names is replaced. A path that names a stream (``/dev/stdout``, ``/dev/null``, a
    named pipe with a reader) is written into as it is, never replaced; a folder, a disk or
    a socket is refused. Raises OSError (e.g. the folder is not writable); the old file is
    then left as it was and no temporary file is left behind.
    """
    path = Path(path)
    data = text.encode() if isinstance(text, str) else text
    try:
        found = path.stat()
    except FileNotFoundError:
        found = None
    if found is not None and not stat.S_ISREG(found.st_mode):
        # Replacing it would put a file where a device, a pipe or a link to one was (as
        # root, /dev/full or /dev/stdout itself).
        _write_stream(path, found.st_mode, data)
        return
    if path.is_symlink():
        path = path.resolve()  # the file the link names, made if missing
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = 0o666 & ~_umask() if found is None else stat.S_IMODE(found.st_mode)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
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


def _write_stream(path: Path, mode: int, data: bytes) -> None:
    """Write ``data`` into the character device or named pipe at ``path``; OSError for
    anything else that is not a plain file, and for a pipe nobody reads (never a wait)."""
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", str(path))
    if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        raise OSError(errno.EINVAL, "not a file meeple can write (a disk or a socket)", str(path))
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "a named pipe nobody is reading", str(path)) from None
        raise
    os.set_blocking(fd, True)
    with os.fdopen(fd, "wb") as stream:
        stream.write(data)


def read_bytes_capped(path: Path | Traversable, limit: int = MAX_DATA_FILE_BYTES) -> bytes:
    """The bytes of a plain file of at most ``limit`` bytes.

    Raises OSError with a readable ``strerror``: IsADirectoryError for a folder, and
    ``EINVAL`` for anything else that is not a regular file (a device such as /dev/zero,
    a FIFO, a socket), ``EFBIG`` past the cap -- each refused before it is read, so none
    can block the reader or fill its memory. A resource inside a package (not a path on
    disk) is read with the cap alone.
    """
    if not isinstance(path, Path):
        with path.open("rb") as file:
            data = file.read(limit + 1)
        return _within(data, limit)
    # Non-blocking, so that opening a FIFO does not wait for a writer; then fstat checks
    # the very file opened (no race with a check by name).
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", str(path))
        if not stat.S_ISREG(mode):
            raise OSError(
                errno.EINVAL, "not a plain file (a device, a pipe or a socket)", str(path)
            )
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as file:
            data = file.read(limit + 1)
    finally:
        os.close(fd)
    return _within(data, limit)


def _within(data: bytes, limit: int) -> bytes:
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than a game data file may be ({limit:,} bytes)")
    return data


def read_text_capped(path: Path | Traversable, limit: int = MAX_DATA_FILE_BYTES) -> str:
    """The UTF-8 text of a plain file of at most ``limit`` bytes (see
    :func:`read_bytes_capped`); OSError (``EILSEQ``) if it is not UTF-8."""
    data = read_bytes_capped(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise OSError(errno.EILSEQ, f"not UTF-8 text (byte {exc.start})") from None


class Unreadable(ValueError):
    """Text that cannot be read as JSON or TOML. The message says why and follows "is":
    ``not JSON: Expecting value: line 1 column 1 (char 0)``, ``nested too deeply to be
    read``, ``not readable: a number has too many digits (over 4,300)``."""


def parse_json(text: str) -> Any:
    """``text`` read as JSON; :class:`Unreadable` for anything else. That includes a key
    given twice in one object (which one was meant?) and a lone surrogate: JSON may
    escape one (``"\\ud800"``), but it is no character, and printing or storing the text
    it is in fails later, far from where it came in."""
    try:
        value = _parsed(_UNIQUE_KEYS.decode, text, "JSON")
    except _RepeatedKey as exc:
        key = str(exc.args[0])
        raise Unreadable(
            f"not readable: the key {key[:60]!r} is given twice in one object"
        ) from None
    if _SURROGATE_ESCAPE.search(text):  # rare: only then is the value checked through
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError as exc:
            char = exc.object[exc.start]
            raise Unreadable(
                f"not readable: U+{ord(char):04X} is a lone surrogate (half of a pair, alone)"
            ) from None
        except RecursionError:
            raise Unreadable("nested too deeply to be read") from None
    return value


class _RepeatedKey(Exception):
    """A key given twice in one JSON object (not a ValueError: _parsed reads those as a
    number too long)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # JSON allows a repeated key and json.loads keeps the last: a designer's "n": 3 then
    # "n": 5 was read as 5 without a word. TOML refuses it; so does meeple's JSON.
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _RepeatedKey(key)
        found[key] = value
    return found


_UNIQUE_KEYS = json.JSONDecoder(object_pairs_hook=_unique_keys)
"""Made once: json.loads given a hook builds a decoder per call (a solver's cache reads
one line at a time)."""


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""The start of a JSON escape of a surrogate (U+D800 to U+DFFF): one half of a pair, or
alone."""


def parse_toml(text: str) -> Any:
    """``text`` read as TOML; :class:`Unreadable` for anything else."""
    return _parsed(tomllib.loads, text, "TOML")


def _parsed(parse: Callable[[str], Any], text: str, kind: str) -> Any:
    # Past the parsers' own syntax errors, text from outside can fail them two more ways:
    # nesting deeper than Python's recursion limit ([[[[...) and an integer past Python's
    # 4,300-digit limit on reading one (a plain ValueError). Both are the text's fault.
    try:
        return parse(text)
    except RecursionError:
        raise Unreadable("nested too deeply to be read") from None
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise Unreadable(f"not {kind}: {exc}") from None
    except ValueError:
        raise Unreadable("not readable: a number has too many digits (over 4,300)") from None
