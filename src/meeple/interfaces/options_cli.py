"""Game options written as command-line flags: ``--board 3x3 --no-pie --first 0``.

A yes/no option is read as ``--pie``, ``--no-pie``, ``--pie false`` or ``--pie=false``
(``true``/``false``, ``yes``/``no``, ``on``/``off``, ``1``/``0``, in any case), and
:func:`option_flags` prints options in a form these commands read back.
"""

from __future__ import annotations

from typing import Any

from meeple.core.errors import FileOptionRefused, OptionError, did_you_mean
from meeple.core.game import Game, shorten
from meeple.core.options import SET_PREFIX, option_text
from meeple.core.record import GameRecord, refuse_file_options
from meeple.core.registry import game_class


def flag(name: str) -> str:
    """An option's name as its flag: ``best_of`` is ``--best-of``."""
    return "--" + name.replace("_", "-")


def unknown_flag(game: str, name: str, negations: bool = True) -> OptionError:
    """The refusal of ``--name``, not an option of ``game``: the near flag if there is one,
    and every flag (in flags: the option names a script sends are for ``meeple.make``).

    ``negations``: ``--no-FLAG`` is a near flag too, as on a command line of flags; not
    where an option is named (``sweep --option``), which takes no negation."""
    cls = game_class(game)
    flags = [flag(n) for n in cls.Options.model_fields]
    negated = [flag(f"no_{n}") for n in cls.Options.model_fields if _is_bool(cls, n)]
    near = [*flags, *(negated if negations else [])]
    return OptionError(
        f"unknown option {flag(name)!r}{did_you_mean(flag(name), near)} for {cls.name}; "
        f"its options are: {', '.join(flags) or '(none)'}"
    )


def _is_bool(cls: type[Game], name: str) -> bool:
    field = cls.Options.model_fields.get(name)
    return field is not None and field.annotation is bool


def parse_option_flags(game: str, args: list[str], *, known: bool = True) -> dict[str, Any]:
    """Read ``--name value``, ``--name=value``, ``--flag [value]`` and ``--no-flag`` for ``game``.

    Values are validated when the game is made; this splits the words, rejects words that
    are not flags, and (``known``) flags that are not the game's, each with a message
    listing the game's options.
    """
    cls = game_class(game)
    out: dict[str, Any] = {}
    i = 0
    while i < len(args):
        word = args[i]
        if not word.startswith("--") or word == "--":
            flags = ", ".join(flag(n) for n in cls.Options.model_fields)
            raise OptionError(
                f"unexpected {word!r}; give {cls.name} options as --name value (options: {flags})"
            )
        name, eq, value = word[2:].partition("=")
        key = name.replace("-", "_")
        option = key[3:] if key.startswith("no_") and _is_bool(cls, key[3:]) else key
        if option in out:  # the last would be played, the first dropped without a word
            raise OptionError(f"option {flag(option)} of {cls.name} is given twice; give it once")
        if eq:
            out[key] = value
        elif key.startswith("no_") and _is_bool(cls, key[3:]):
            out[key[3:]] = False
        elif _is_bool(cls, key):
            # A word after a yes/no flag is its value (`--pie false`, as `meeple rules`
            # offers it); validation reads it and names the accepted words if it is none.
            if i + 1 < len(args) and not args[i + 1].startswith("--"):
                out[key] = args[i + 1]
                i += 1
            else:
                out[key] = True
        elif i + 1 < len(args) and not args[i + 1].startswith("--"):
            out[key] = args[i + 1]
            i += 1
        elif key in cls.Options.model_fields:
            raise OptionError(f"option --{name} of {cls.name} needs a value")
        else:
            out[key] = True
        i += 1
    # An unknown flag is refused here, in flags (--best-of, not best_of); ``known=False``
    # leaves it to a caller that takes fewer than the game's options (and says so).
    for key in out if known else ():
        if key not in cls.Options.model_fields:
            raise unknown_flag(game, key)
    if known:  # refused here, in flags, rather than when the game is made, in JSON's names
        cls.Options.parse(cls.name, out, spell=flag)
    return out


def with_typed_files(record: GameRecord, args: list[str], source: str) -> GameRecord:
    """``record`` with the file options (``--ranking PATH``, ``--content DIR``) typed in
    ``args``; any file option the record names itself is refused (FileOptionRefused).

    A record may come from anyone, and a path in it would make meeple read a file its
    user never chose; a path typed on the user's own command line is theirs to name. The
    game's other options come from the record (OptionError for any other flag).
    """
    external = game_class(record.game).Options.external_options()
    typed = parse_option_flags(record.game, args, known=False)
    flags = ", ".join(flag(n) for n in external) or "none for this game"
    others = sorted(k for k in typed if k not in external)
    if others:
        raise OptionError(
            f"{source}: the game's options come from the record; only its file options may "
            f"be typed (here: {flags}), not {flag(others[0])}"
        )
    if typed:
        kept = {k: v for k, v in record.options.items() if k.replace("-", "_") not in typed}
        record = record.model_copy(update={"options": {**kept, **typed}})
    for key, value in record.options.items():
        name = key.replace("-", "_")
        if name in external and isinstance(value, str) and value.startswith(SET_PREFIX):
            # A server's match keeps the set's name, not its path: no file here to trust.
            raise FileOptionRefused(
                # repr: the value is the record's, and goes to a terminal.
                f"{source} was played on a game server's content set ({name}="
                f"{shorten(repr(value))}), "
                "whose files are the server's: ask its operator for them, then name them "
                f"after the record, e.g. {flag(name)} PATH"
            )
    refuse_file_options(
        record.game,
        record.options,
        source,
        "if you trust the file, name it yourself after the record, e.g. "
        + " ".join(f"{flag(n)} PATH" for n in external),
        typed=typed,
    )
    return record


def option_flags(options: dict[str, Any]) -> str:
    """Options as command-line flags that :func:`parse_option_flags` reads back:
    ``--board 3x3 --pie false`` (never Python's ``False``)."""
    return " ".join(f"{flag(k)} {option_text(v)}" for k, v in options.items())


def options_words(options: dict[str, Any]) -> str:
    """Options as ``name=value`` words, as ``meeple compare --variant`` reads them:
    ``board=3x3 pie=false``."""
    return " ".join(f"{k}={option_text(v)}" for k, v in options.items())
