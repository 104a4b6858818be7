"""What ``--help`` shows beside each option: the value it takes, and nothing for a switch.

Typer labels every option with its Python type. ``--quiet <bool>`` reads as a switch that
takes a value, and ``meeple play edges --quiet true`` is then refused for its ``true``;
``--seat <list[str]>`` reads as one flag taking a list, and ``--seat random,human`` is
refused as an agent's name. Here a switch has no label and a flag given once per value is
labelled with the value (``--seat <str>``); its help says to repeat it. A bounded number
is ``<int> [x>=1]``, not ``<int range> [x>=1]``: the bounds say it, and at 80 columns the
longer label squeezed ``--max-messages-per-minute`` and two other names of ``meeple serve
--help`` into ``--max-messages-per-minu…``. The commands and groups of the ``meeple``
command are built from :class:`Command` and :class:`Group`.
"""

from __future__ import annotations

import re
from typing import Any

from typer.core import TyperCommand, TyperGroup

_LIST = re.compile(r"<list\[(.+)\]>")
_RANGE = re.compile(r"<(\w+) range>")


def label_values(params: list[Any], ctx: Any) -> list[Any]:
    """``params`` with each switch's label emptied, each repeatable flag's label its one
    value and each bounded number's its type, as the help shows them. A label already
    given (a ``metavar``) is kept."""
    for param in params:
        if param.param_type_name != "option" or param.metavar is not None:
            continue
        if param.is_flag and not param.count:
            param.metavar = ""
        elif hasattr(param, "display_type"):
            # Typer versions before the type labels show a plain TEXT here: left as it is.
            shown = param.display_type(ctx)
            label = _RANGE.sub(r"<\1>", _LIST.sub(r"<\1>", shown))
            if label != shown:
                param.metavar = label
    return params


class _Labelled:
    """Labels a command's or a group's parameters as :func:`label_values` does, the help
    option included."""

    def get_params(self, ctx: Any) -> list[Any]:
        """The parameters, labelled for the help."""
        return label_values(super().get_params(ctx), ctx)  # type: ignore[misc]


class Command(_Labelled, TyperCommand):
    """A ``meeple`` command whose help labels values as :func:`label_values` does."""


class Group(_Labelled, TyperGroup):
    """A group of ``meeple`` commands (``meeple``, ``meeple content``) whose own options
    are labelled as :func:`label_values` does."""
