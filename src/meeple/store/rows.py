"""A finished game's row as the lab's processes hand it to the results database.

Apart from :mod:`meeple.store.results` so that a process that only plays games (a lab
worker, a command that stores nothing) never imports the database library.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any


class _Encoded:
    """Marks a field of a :class:`GameRow` still in its text (a class: it pickles by name,
    so the mark survives the trip from a worker)."""


class GameRow(Mapping[str, Any]):
    """A finished game's row, encoded as JSON once, where the game was played.

    ``text`` (``json.dumps`` of the row with sorted keys) is what the database and the JSONL
    file keep, written as it is. Every field but the moves is at hand too; the moves, most of
    a row and a container per move, are decoded from the text only when read. A process that
    receives thousands of rows from its workers then unpickles a string and a few small
    fields per game, not a list per move (which cost more in garbage collection than in
    unpickling). A row equals the dict it was made from.
    """

    __slots__ = ("_fields", "text")

    LAZY = "moves"
    """The field left in the text until it is read."""

    def __init__(self, text: str, fields: dict[str, Any]) -> None:
        self.text = text
        self._fields = fields

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> GameRow:
        """Encode a row (a row encoded already is returned as it is)."""
        if isinstance(row, GameRow):
            return row
        fields = {name: _Encoded if name == cls.LAZY else value for name, value in row.items()}
        return cls(json.dumps(row, sort_keys=True), fields)

    def __getitem__(self, name: str) -> Any:
        value = self._fields[name]
        if value is _Encoded:
            value = self._fields[name] = json.loads(self.text)[name]
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def __reduce__(self) -> tuple[Any, ...]:
        fields = self._fields
        if fields.get(self.LAZY, _Encoded) is not _Encoded:
            fields = {**fields, self.LAZY: _Encoded}  # decoded here: sent as text all the same
        return (GameRow, (self.text, fields))

    def __repr__(self) -> str:
        return f"GameRow({dict(self)!r})"


def row_json(row: Mapping[str, Any]) -> str:
    """A row as one line of JSON (sorted keys): a :class:`GameRow`'s own text, or encoded."""
    return row.text if isinstance(row, GameRow) else json.dumps(row, sort_keys=True)
