"""A game's data as a designer's files: copy the shipped data out, check an edited copy.

A game's option that names a file or folder (``GameOptions.external_options``: Squad
Combat's ``content``, The Triangle Clock's ``ranking``, Erosion's ``cards``) declares the data
it replaces with ``json_schema_extra={"shipped": NAME}``: a file, or a folder holding the
files its ``external`` list names, inside the game's package. :func:`copy_data` writes that
data into a designer's folder, :func:`data_paths` says what each option is given to read
the folder back, and :func:`check_data` lists every problem of an edited copy, one line
each, naming the file, the entry and the field (``Game.data_problems``).
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from meeple.core.errors import MeepleError
from meeple.core.files import atomic_write, read_bytes_capped
from meeple.core.game import Game
from meeple.core.options import schema_extra
from meeple.core.registry import game_class, games


class DataError(MeepleError):
    """Data that cannot be copied or checked as asked (a game without data, a file in
    the way)."""


def shipped_data(cls: type[Game]) -> dict[str, tuple[Traversable, list[str] | None]]:
    """Each data option of ``cls``: the shipped resource, and the names of the files of a
    folder option (None for an option naming one file)."""
    package = cls.__module__.rsplit(".", 1)[0]
    out: dict[str, tuple[Traversable, list[str] | None]] = {}
    for name, field in cls.Options.model_fields.items():
        extra = schema_extra(field)
        if "shipped" not in extra:
            continue
        files = extra.get("external")
        listed = [str(f) for f in files] if isinstance(files, list) else None
        out[name] = (resources.files(package).joinpath(str(extra["shipped"])), listed)
    return out


def data_games() -> list[str]:
    """The names of the games with data a designer can copy and edit."""
    return [info.name for info in games() if shipped_data(game_class(info.name))]


def _data_of(game: str) -> tuple[type[Game], dict[str, tuple[Traversable, list[str] | None]]]:
    cls = game_class(game)
    data = shipped_data(cls)
    if not data:
        raise DataError(
            f"{cls.name} has no data files to copy; the games with data are: "
            f"{', '.join(data_games())}"
        )
    return cls, data


DATA_SUFFIXES = (".json", ".toml")
"""How a data file may be written: the data readers take either (a designer may write
Erosion's cards as TOML where meeple ships JSON)."""


def data_paths(game: str, folder: Path) -> dict[str, Path]:
    """What each data option of ``game`` is given to play with the data in ``folder``:
    the folder itself for a folder option, the file in it for a file option: the shipped
    file's name, or that name written the other way (``cards.toml`` for ``cards.json``)
    where only that is there."""
    _, data = _data_of(game)
    return {
        option: folder if files is not None else _data_file(folder, source.name)
        for option, (source, files) in data.items()
    }


def _data_file(folder: Path, name: str) -> Path:
    shipped = folder / name
    if shipped.exists():
        return shipped
    others = [
        other
        for suffix in DATA_SUFFIXES
        if (other := shipped.with_suffix(suffix)) != shipped and other.is_file()
    ]
    return others[0] if len(others) == 1 else shipped


def data_files(game: str, folder: Path) -> list[Path]:
    """The files in ``folder`` that ``game`` reads its data from (as ``copy_data`` writes
    them)."""
    _, data = _data_of(game)
    return [folder / name for source, files in data.values() for name in files or [source.name]]


def data_flags(game: str, folder: Path) -> str:
    """The command-line flags that play ``game`` with the data in ``folder``."""
    return " ".join(
        f"--{option.replace('_', '-')} {path}" for option, path in data_paths(game, folder).items()
    )


def copy_data(game: str, folder: Path) -> list[Path]:
    """Write the shipped data of ``game`` into ``folder`` (made if missing); the files
    written. DataError, before anything is written, if one of them is already there: a
    designer's edits are never overwritten."""
    _, data = _data_of(game)
    plan: list[tuple[Traversable, Path]] = []
    for source, files in data.values():
        if files is None:
            plan.append((source, folder / source.name))
        else:
            plan += [(source.joinpath(name), folder / name) for name in files]
    for _, target in plan:
        if target.exists():
            raise DataError(
                f"{target} is already there; meeple does not overwrite a designer's files: "
                "copy into a new folder, or remove that file first"
            )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for source, target in plan:
            atomic_write(target, read_bytes_capped(source))
    except OSError as exc:
        raise DataError(f"cannot write to {folder}: {exc.strerror or exc}") from None
    return [target for _, target in plan]


def check_data(game: str, folder: Path) -> list[str]:
    """Every problem of the data in ``folder`` for ``game``, one line each naming the file,
    the entry and the field (empty: the game plays with it)."""
    cls, _ = _data_of(game)
    if folder.is_file():
        return [
            f"{folder} is a file; content check takes the folder that holds the data: "
            f"meeple content check {cls.name} {folder.parent}"
        ]
    if not folder.is_dir():
        return [
            f"{folder}: no such folder; meeple content copy {cls.name} {folder} writes the "
            "shipped data there to edit"
        ]
    problems = []
    for option, path in data_paths(game, folder).items():
        problems += cls.data_problems(option, path)
    return problems
