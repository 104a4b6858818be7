"""Solved results on disk, so that solving the same position again is instant.

The cache lives in the user's cache folder, never in the repository: ``$MEEPLE_CACHE_DIR``
if set, else ``$XDG_CACHE_HOME/meeple/solver``, else ``~/.cache/meeple/solver``.

An entry is JSON (:func:`read`, :func:`store`: Edges' results, a few kB) or bytes behind a
header line (:func:`read_bytes`, :func:`store_bytes`: Erd's solutions, megabytes of arrays,
which JSON would take seconds to read back). Either carries a check that binds it to its key
and format, and nothing that fails it is believed.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Any, NamedTuple

from meeple.core.errors import MeepleError
from meeple.core.files import (
    Unreadable,
    atomic_write,
    parse_json,
    read_bytes_capped,
    user_cache_home,
)
from meeple.games.edges.rules import EdgesState

CACHE_FORMAT = "edges-solve/2"


def default_cache_dir() -> Path:
    """Where solved results go unless a folder is given."""
    env = os.environ.get("MEEPLE_CACHE_DIR")
    if env:
        return Path(env)
    return user_cache_home() / "solver"


def position_id(state: EdgesState) -> str:
    """A stable name for a position: everything that decides its value, hashed."""
    game = state.game
    data = {
        "format": CACHE_FORMAT,
        "board": str(game.board),
        "pie": game.options.pie,
        "owner": state.owner,
        "pyramid": state.pyramid,
        "stashes": [list(s) for s in state.stashes],
        "order": state.order,
        "turn": state.turn,
        "first_edge": state.first_edge,
        "took_over": state.took_over,
    }
    text = json.dumps(data, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _check(key: str, content: dict[str, Any]) -> str:
    """The check stored with a result: binds it to its position's key and format."""
    text = json.dumps({"key": key, "format": CACHE_FORMAT, **content}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


class CacheEntry(NamedTuple):
    """What :func:`read` found: the result (None if there is none to believe) and, for an
    entry that was there but failed its check, why it is not believed."""

    result: dict[str, Any] | None
    problem: str | None = None


def entry_path(folder: Path, key: str) -> Path:
    """The file that holds (or will hold) the result for ``key``."""
    return folder / f"{key}.json"


def read(folder: Path, key: str) -> CacheEntry:
    """The stored result for ``key``, verified; a damaged, edited or foreign entry is
    treated as missing (its ``problem`` says why), so the position is solved again."""
    path = entry_path(folder, key)
    try:
        data = parse_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return CacheEntry(None)
    except (OSError, UnicodeDecodeError, Unreadable) as exc:
        return CacheEntry(None, f"{path} cannot be read ({type(exc).__name__})")
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT:
        return CacheEntry(None, f"{path} is not a solved result of this meeple ({CACHE_FORMAT})")
    check = data.pop("check", None)
    content = {k: v for k, v in data.items() if k not in ("format", "key")}
    if data.get("key") != key or check != _check(key, content):
        return CacheEntry(None, f"{path} fails its check (edited, damaged or for another position)")
    return CacheEntry(content)


def load(folder: Path, key: str) -> dict[str, Any] | None:
    """The stored result for ``key`` if it passes its check, else None."""
    return read(folder, key).result


def store(folder: Path, key: str, result: dict[str, Any]) -> None:
    """Write a result atomically, with its key and a check over both."""
    entry = {"format": CACHE_FORMAT, "key": key, **result, "check": _check(key, result)}
    # Compact: an indented entry is written by the json module's Python encoder, five times
    # slower (Erd's solution, 25 MB compact, was 65 MB and 3.3 s to encode indented).
    atomic_write(entry_path(folder, key), json.dumps(entry, separators=(",", ":")))


BYTES_LIMIT = 1 << 30
"""The largest bytes entry read back (Erd's solutions take tens of MB): a bound on what a
damaged or planted file can make a reader hold in memory."""

_HEADER_LIMIT = 4096


def bytes_path(folder: Path, key: str) -> Path:
    """The file that holds (or will hold) the bytes entry for ``key``."""
    return folder / f"{key}.bin"


def _bytes_check(key: str, form: str, payload: bytes) -> str:
    digest = hashlib.sha256(f"{form}\n{key}\n".encode())
    digest.update(payload)
    return digest.hexdigest()


class BytesEntry(NamedTuple):
    """What :func:`read_bytes` found: the payload (None if there is none to believe) and, for
    an entry that was there but is not believed, why."""

    payload: bytes | None
    problem: str | None = None


def read_bytes(folder: Path, key: str, form: str) -> BytesEntry:
    """The payload stored for ``key`` in format ``form``, verified before anything parses
    it: a damaged, edited, foreign or other-format entry is treated as missing (its
    ``problem`` says why)."""
    path = bytes_path(folder, key)
    try:
        data = read_bytes_capped(path, BYTES_LIMIT)
    except FileNotFoundError:
        return BytesEntry(None)
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            return BytesEntry(
                None, f"{path} is larger than a solved result may be ({BYTES_LIMIT:,} bytes)"
            )
        return BytesEntry(None, f"{path} cannot be read ({exc.strerror or type(exc).__name__})")
    end = data.find(b"\n", 0, _HEADER_LIMIT)
    try:
        header = parse_json(data[:end].decode("utf-8")) if end >= 0 else None
    except (UnicodeDecodeError, Unreadable):
        header = None
    if not isinstance(header, dict) or header.get("format") != form:
        return BytesEntry(None, f"{path} is not a solved result of this meeple ({form})")
    payload = data[end + 1 :]
    if header.get("key") != key or header.get("check") != _bytes_check(key, form, payload):
        return BytesEntry(None, f"{path} fails its check (edited, damaged or for another position)")
    return BytesEntry(payload)


def store_bytes(folder: Path, key: str, form: str, payload: bytes) -> None:
    """Write a bytes entry atomically: a header line (format, key and a check over both and
    the payload), then the payload."""
    header = {"format": form, "key": key, "check": _bytes_check(key, form, payload)}
    atomic_write(bytes_path(folder, key), json.dumps(header).encode() + b"\n" + payload)


def forget(folder: Path, key: str) -> None:
    """Remove the stored result for ``key`` (JSON or bytes), if there is one."""
    entry_path(folder, key).unlink(missing_ok=True)
    bytes_path(folder, key).unlink(missing_ok=True)


class OtherQuestion(MeepleError):
    """A checked file (answer log, certificate) whose header names another question, engine
    or format than the reader's: ``theirs`` and ``ours`` are the two headers, so that a
    command can say both questions in words (its message names only what differs)."""

    def __init__(
        self, path: Path, what: str, theirs: dict[str, object], ours: dict[str, object]
    ) -> None:
        self.path, self.what, self.theirs, self.ours = path, what, theirs, ours
        differ = [
            f"{_FIELD_WORDS.get(k, k)} {theirs.get(k)}, not {ours[k]}"
            for k in ours
            if theirs.get(k) != ours[k]
        ]
        super().__init__(
            f"{path} is a {what} for another question or engine ({'; '.join(differ)}); "
            "give another file"
        )


# How a header's fields read in a refusal: a question is a position's key (a hash).
_FIELD_WORDS = {"question": "position key", "format": "format", "engine": "engine"}


class CheckedLog:
    """Answers on disk that survive a crash: a header line naming what they answer, then one
    ``[name, value, check]`` JSON line per answer, appended and flushed as each comes (so a
    write costs the same at the 100,000th answer as at the first).

    Nothing in the file is believed unchecked: a line whose value is not one this log holds
    (:meth:`valid`), or whose check does not match its name, value and this header (an
    edited, torn or foreign line), is dropped; ``rejected`` counts them and the file is
    rewritten clean. A file whose header is for another question is refused with
    :class:`OtherQuestion`. An empty file (``touch``ed, or cut before its header) holds no
    answers and is taken as a new log (``started_empty`` says so). ``what`` names the file
    in messages.
    """

    what = "answer log"

    def __init__(self, path: Path, header: dict[str, object], read_only: bool = False) -> None:
        self.path = path
        self.header = header
        self.key = json.dumps(self.header, sort_keys=True)
        self.answers: dict[str, Any] = {}
        self.rejected = 0
        self.started_empty = False
        # Read only: the file is not rewritten clean, so a later run still meets the lines
        # that failed and searches them again.
        self.read_only = read_only
        self._lock = threading.Lock()  # answers may come from several search threads
        if path.exists():
            self._read()

    def valid(self, value: object) -> bool:
        """Whether ``value`` is one this log holds (a line holding another is dropped)."""
        return True

    def encode(self, value: Any) -> str:
        """The text of a value that its line's check covers."""
        return json.dumps(value, sort_keys=True)

    def refuse(self, header: dict[str, Any]) -> None:
        """Raise a :class:`MeepleError` for a header this log must not read (a hook)."""

    def check(self, name: str, value: Any) -> str:
        """The check stored on a line: binds its value to its name and to the header, so an
        edited value, a line from another file, or a torn line fails it."""
        text = f"{self.key}\n{name}\n{self.encode(value)}".encode()
        return hashlib.blake2b(text, digest_size=8).hexdigest()

    def _read(self) -> None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise MeepleError(f"cannot read the {self.what} {self.path}: {exc}") from None
        if not text.strip():
            self.started_empty = True
            if not self.read_only:
                self._rewrite()  # the header first: answers are appended after it
            return
        lines = text.split("\n")
        try:
            first = parse_json(lines[0])
        except Unreadable:
            first = None
        if not isinstance(first, dict):
            raise MeepleError(f"{self.path} is not a {self.what}")
        self.refuse(first)
        theirs = {k: first.get(k) for k in self.header}
        if theirs != self.header:
            raise OtherQuestion(self.path, self.what, theirs, self.header)
        clean = text.endswith("\n")
        for line in lines[1:]:
            if not line:
                continue
            answer = self._verified(line)
            if answer is None:
                self.rejected += 1
                clean = False
                continue
            self.answers[answer[0]] = answer[1]
        if not clean and not self.read_only:
            self._rewrite()

    def _verified(self, line: str) -> tuple[str, Any] | None:
        """The (name, value) of a line that passes its check, else None."""
        try:
            name, value, check = parse_json(line)
        except (Unreadable, ValueError, TypeError):
            return None
        if not isinstance(name, str) or not self.valid(value):
            return None
        if check != self.check(name, value):
            return None
        return name, value

    def _line(self, name: str, value: Any) -> str:
        return json.dumps([name, value, self.check(name, value)]) + "\n"

    def _rewrite(self) -> None:
        """Write the whole file anew (atomically: a crash leaves the old one)."""
        body = "".join(self._line(n, v) for n, v in self.answers.items())
        atomic_write(self.path, json.dumps(self.header) + "\n" + body)

    def add(self, name: str, value: Any) -> None:
        """Record one answer on disk before it is used."""
        with self._lock:
            self.answers[name] = value
            if not self.path.exists():
                self._rewrite()
                return
            with open(self.path, "a", encoding="utf-8") as fh:
                fh.write(self._line(name, value))
                fh.flush()
                os.fsync(fh.fileno())


MOVES_FORMAT = "edges-moves/1"


class SolvedMoves(CheckedLog):
    """The root moves a ``meeple solve`` run has solved so far, each ``[value, nodes]``
    (value seat 0 minus seat 1), so that a run stopped by Ctrl-C keeps them and the same
    command resumes; removed once the whole result is in the cache."""

    what = "file of solved moves"

    def __init__(self, folder: Path, key: str) -> None:
        super().__init__(folder / f"moves-{key}.jsonl", {"format": MOVES_FORMAT, "question": key})

    def valid(self, value: object) -> bool:
        """A pair of whole numbers, the nodes not negative."""
        return (
            isinstance(value, list)
            and len(value) == 2
            and all(type(v) is int for v in value)
            and value[1] >= 0
        )

    def discard(self) -> None:
        """Remove the file (its moves are in the finished result now)."""
        self.path.unlink(missing_ok=True)
