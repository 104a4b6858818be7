"""Database URLs as people give them: the spelling hosting services hand out, and a
password that never appears in what meeple prints or writes.

Light on purpose (no database library): the lab writes its command line into reports and
the results database through :func:`hide_password`, in processes that open no database.
"""

from __future__ import annotations

import re

_PASSWORD = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]*:)[^\s@/]+@")
"""``scheme://user:PASSWORD@``: the part of a URL :func:`hide_password` hides."""


def hide_password(text: str) -> str:
    """``text`` (a URL, a message or a command line) with every URL's password written
    ``***``, as SQLAlchemy writes it: ``postgresql://meeple:***@db/meeple``."""
    return _PASSWORD.sub(lambda m: f"{m['head']}***@", text)


def in_words(url: str) -> str:
    """``url`` as a ``--help`` says it: an SQLite file by its path (``SQLite, the file
    results/meeple.db``), any other URL as it is. A URL is one long word, which Rich cuts
    short (``sqlite:///results/meeple.…``) in a narrow help column; a path in words wraps."""
    if url.startswith("sqlite:///"):
        return f"SQLite, the file {url.removeprefix('sqlite:///')}"
    return url


def normalized(url: str) -> str:
    """``url`` as SQLAlchemy reads it: ``postgres://`` (what Heroku, Render, Fly and libpq
    hand out, and SQLAlchemy no longer accepts) is PostgreSQL, ``postgresql://``."""
    if url.startswith(("postgres://", "postgres+")):
        return "postgresql" + url.removeprefix("postgres")
    return url
