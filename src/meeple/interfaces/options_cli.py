"""Game options written as command-line flags: ``--board 3x3 --no-pie --first 0``.

A yes/no option is read as ``--pie``, ``--no-pie``, ``--pie false`` or ``--pie=false``
(``true``/``false``, ``yes``/``no``, ``on``/``off``, ``1``/``0``, in any case), and
:func:`option_flags` prints options in a form these commands read back.
"""

from __future__ import annotations

from typing import Any

from meeple.core.errors import OptionError
from meeple.core.game import Game
from meeple.core.options import option_text
from meeple.core.registry import game_class


def _is_bool(cls: type[Game], name: str) -> bool:
    field = cls.Options.model_fields.get(name)
    return field is not None and field.annotation is bool


def parse_option_flags(game: str, args: list[str]) -> dict[str, Any]:
    """Read ``--name value``, ``--name=value``, ``--flag [value]`` and ``--no-flag`` for ``game``.

    Validation of names and values happens when the game is made; this only splits the
    words, and rejects words that are not flags with a message listing the game's options.
    """
    cls = game_class(game)
    out: dict[str, Any] = {}
    i = 0
    while i < len(args):
        word = args[i]
        if not word.startswith("--") or word == "--":
            flags = ", ".join("--" + n.replace("_", "-") for n in cls.Options.model_fields)
            raise OptionError(
                f"unexpected {word!r}; give {cls.name} options as --name value (options: {flags})"
            )
        name, eq, value = word[2:].partition("=")
        key = name.replace("-", "_")
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
            out[key] = True  # an unknown name: making the game reports it with the options
        i += 1
    return out


def option_flags(options: dict[str, Any]) -> str:
    """Options as command-line flags that :func:`parse_option_flags` reads back:
    ``--board 3x3 --pie false`` (never Python's ``False``)."""
    return " ".join(f"--{k.replace('_', '-')} {option_text(v)}" for k, v in options.items())


def options_words(options: dict[str, Any]) -> str:
    """Options as ``name=value`` words, as ``meeple compare --variant`` reads them:
    ``board=3x3 pie=false``."""
    return " ".join(f"{k}={option_text(v)}" for k, v in options.items())
