"""Edges' pieces and moves: the three pyramid sizes and the two kinds of move, placing a
pyramid on an edge and the pie rule's take-over (the rules that use them: ``rules``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from meeple.core.errors import NotationError
from meeple.games.edges.board import Edge


class Pyramid(IntEnum):
    """A pyramid size; its value is its strength in points."""

    SMALL = 1
    MEDIUM = 2
    LARGE = 3

    @property
    def letter(self) -> str:
        """``L``, ``M`` or ``S``."""
        return self.name[0]

    @classmethod
    def from_letter(cls, letter: str) -> Pyramid:
        """The pyramid for ``L``/``M``/``S`` (any case)."""
        try:
            return _BY_LETTER[letter.upper()]
        except KeyError:
            raise NotationError(f"{letter!r} is not a pyramid size; use L, M or S") from None


_BY_LETTER = {p.letter: p for p in Pyramid}
LARGE_FIRST = (Pyramid.LARGE, Pyramid.MEDIUM, Pyramid.SMALL)


@dataclass(frozen=True, slots=True)
class Place:
    """Place a pyramid from your stash on an empty edge: ``L h2,3``."""

    pyramid: Pyramid
    edge: Edge

    def __str__(self) -> str:
        return f"{self.pyramid.letter} {self.edge}"


@dataclass(frozen=True, slots=True)
class TakeOver:
    """The pie rule: return the first pyramid to its owner, put yours there: ``pie M``."""

    pyramid: Pyramid

    def __str__(self) -> str:
        return f"pie {self.pyramid.letter}"


EdgesAction = Place | TakeOver
