"""Content sets: a designer's data, installed by the operator, chosen by name in a match.

A client never names a file (docs/security.md). An operator who wants matches played with
a designer's cards or tables starts the server with ``meeple serve --content DIR``, where
``DIR/<game>/<set>/`` holds the files ``meeple content copy GAME FOLDER`` writes (edited).
Every set is checked when the server starts (:func:`meeple.core.designer.check_data`); a
set with problems stops the start, each problem in one line. The server plays a copy of each
set taken then: a file edited while it runs changes no match, no page and no agent until the
server starts again (a match under way, and the cards its page draws, keep the numbers it
was created with). A match then asks for a set by
name, as the value ``set:<name>`` of the game's data options (Squad Combat's ``content``,
The Triangle Clock's ``ranking``, Erosion's ``cards``): the value stays ``set:<name>`` in the
match, its frames and its record, and becomes the installed path only inside the server.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from meeple.core.designer import check_data, data_files, data_games, data_paths
from meeple.core.errors import FileOptionRefused, MeepleError, OptionError
from meeple.core.files import atomic_write, read_bytes_capped
from meeple.core.options import SET_PREFIX
from meeple.core.record import check_untrusted_options
from meeple.core.registry import game_class

NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
"""A set's name: its folder's name, lower-case letters, digits, '-' and '_'."""


class ContentSets:
    """The sets installed in ``folder`` (None: none), checked when made."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder
        self.sets: dict[str, dict[str, Path]] = {}
        self._copies: tempfile.TemporaryDirectory[str] | None = None
        if folder is None:
            return
        self._copies = tempfile.TemporaryDirectory(prefix="meeple-sets-")
        try:
            self._check(folder)
        except BaseException:
            self.close()  # a server that does not start leaves no copies behind
            raise

    def _check(self, folder: Path) -> None:
        """Install every set under ``folder``; MeepleError listing the problems, if any."""
        if not folder.is_dir():
            what = "a file, not a folder" if folder.exists() else "no such folder"
            raise MeepleError(f"--content {folder}: {what}; give the folder of <game>/<set>/")
        try:
            problems = self._install(folder)
        except OSError as exc:  # a folder the server's user may not list
            raise MeepleError(
                f"--content {folder}: cannot read {exc.filename or folder}: {exc.strerror}; "
                "give folders the server's user can read"
            ) from None
        if problems:
            raise MeepleError(
                "the content sets cannot be served:\n" + "\n".join(f"  {p}" for p in problems)
            )

    def _install(self, folder: Path) -> list[str]:
        """Check and record every set under ``folder``; the problems found, one line each."""
        problems: list[str] = []
        for game_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
            if game_dir.name not in data_games():
                problems.append(
                    f"{game_dir}: not a game with data; the folders may be: "
                    f"{', '.join(data_games())}"
                )
                continue
            for set_dir in sorted(p for p in game_dir.iterdir() if p.is_dir()):
                if not NAME.match(set_dir.name):
                    problems.append(
                        f"{set_dir}: a set's name is 1-40 lower-case letters, digits, - or _"
                    )
                    continue
                found = check_data(game_dir.name, set_dir)
                assert self._copies is not None  # made before any set is installed
                copy = Path(self._copies.name, game_dir.name, set_dir.name)
                found = found or self._copy(game_dir.name, set_dir, copy)
                problems += found
                if not found:
                    self.sets.setdefault(game_dir.name, {})[set_dir.name] = copy
        return problems

    def close(self) -> None:
        """Remove the copies the server played (a server stopped by a signal runs no
        finalizer, so its shutdown calls this)."""
        if self._copies is not None:
            self._copies.cleanup()

    @staticmethod
    def _copy(game: str, folder: Path, copy: Path) -> list[str]:
        """Copy the checked set in ``folder`` to ``copy``, which the server plays; the
        problems of the copy (a file edited while it was copied), named as in ``folder``."""
        copy.mkdir(parents=True)
        for source, target in zip(data_files(game, folder), data_files(game, copy), strict=True):
            atomic_write(target, read_bytes_capped(source), fsync=False)
        return [p.replace(str(copy), str(folder)) for p in check_data(game, copy)]

    def names(self, game: str) -> list[str]:
        """The sets installed for ``game``."""
        return sorted(self.sets.get(game_class(game).name, {}))

    def split(
        self, game: str, options: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Path]]:
        """``options`` without the values that name a set, and what those options read
        instead (the installed paths). OptionError naming the installed sets for a name
        that is not one."""
        cls = game_class(game)
        external = set(cls.Options.external_options())
        plain: dict[str, Any] = {}
        paths: dict[str, Path] = {}
        for key, value in options.items():
            name = str(key).replace("-", "_")
            if (
                name not in external
                or not isinstance(value, str)
                or not value.startswith(SET_PREFIX)
            ):
                plain[key] = value
                continue
            wanted = value.removeprefix(SET_PREFIX)
            folder = self.sets.get(cls.name, {}).get(wanted)
            if folder is None:
                installed = ", ".join(f"{SET_PREFIX}{n}" for n in self.names(cls.name))
                raise OptionError(
                    f"option {name!r}: no content set {wanted!r} is installed on this server; "
                    + (f"installed for {cls.name}: {installed}" if installed else "none is")
                )
            paths[name] = data_paths(cls.name, folder)[name]
        return plain, paths

    def check(
        self, game: str, options: Mapping[str, Any], source: str, advice: str
    ) -> tuple[dict[str, Any], dict[str, Path]]:
        """Options a client sent (``source``: "a match request", ...), checked as a
        stranger's (:func:`~meeple.core.record.check_untrusted_options`) with each set it
        names read as installed: what :meth:`split` returns. A refusal names a set as the
        client did, never by its path on this server."""
        plain, sets = self.split(game, options)
        offered = self.names(game)
        if offered:
            # A client refused for naming a file is told what it may ask for instead.
            named = ", ".join(f"{SET_PREFIX}{n}" for n in offered)
            advice += f", or a set installed on this server, by name: {named}"
        with self.naming(sets):
            installed = {k: str(v) for k, v in sets.items()}
            check_untrusted_options(game, plain, source, advice, installed)
        return plain, sets

    @contextmanager
    def naming(self, sets: Mapping[str, Path]) -> Iterator[None]:
        """Around work that reads installed ``sets`` (what :meth:`split` returned): a
        refusal raised in it names each set as a client knows it, never by its path on this
        server (:meth:`as_named`); the refusal keeps its kind."""
        try:
            yield
        except FileOptionRefused:
            raise  # about a file the client named, none of the server's
        except MeepleError as exc:
            if sets:
                exc.args = (self.as_named(str(exc), sets),)
            raise

    @staticmethod
    def as_named(message: str, paths: Mapping[str, Path]) -> str:
        """``message`` (a game's refusal of options that read installed sets) with each set's
        path on this server, as given or resolved, replaced by the name a client knows it by
        (``paths``: what :meth:`split` returned)."""
        for path in paths.values():
            # A data option reads the set's folder itself or a file in it (data_paths); the
            # folder's name is the set's.
            folder = path if path.is_dir() else path.parent
            shown = f"{SET_PREFIX}{folder.name}"
            named = {str(path), str(path.resolve()), str(folder), str(folder.resolve())}
            for text in sorted(named, key=len, reverse=True):
                message = message.replace(text, shown)
        return message

    def resolve(self, game: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` with each set name replaced by its installed path (for ``make``)."""
        plain, paths = self.split(game, options)
        return {**plain, **{k: str(v) for k, v in paths.items()}}
