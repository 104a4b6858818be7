"""Docstrings turned into text a person reads at the terminal."""

from __future__ import annotations

import inspect
import re

# ``exact`` (reST literal) and :func:`~pkg.mod.name` (a Sphinx role) mean something to a
# documentation builder; at a terminal they are noise around the word they mark.
_LITERAL = re.compile(r"``(.+?)``")
_ROLE = re.compile(r":[a-z]+:`~?(?:[\w.]+\.)?([\w]+)`")


def summary(obj: object) -> str:
    """The first paragraph of ``obj``'s docstring as one line of plain text ('' if none).

    The whole paragraph is kept (a description cut at its first line ends mid-sentence),
    and reST markup is reduced to the words it marks.
    """
    doc = inspect.getdoc(obj) or ""
    paragraph = doc.strip().split("\n\n", 1)[0]
    text = " ".join(paragraph.split())
    return _ROLE.sub(r"\1", _LITERAL.sub(r"\1", text))
