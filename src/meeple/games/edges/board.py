"""The Edges board: a grid of R x C squares whose edges take the pyramids.

Horizontal edges ``h<r>,<c>`` run along grid line r (0 at the top, R at the bottom) above
square column c; vertical edges ``v<r>,<c>`` run along grid line c (0 at the left, C at the
right) beside square row r. Square (r, c) is bounded by h r,c (top), h r+1,c (bottom),
v r,c (left) and v r,c+1 (right). The standard 3 x 4 board has 31 edges.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Literal, NamedTuple

from meeple.core.errors import NotationError

EdgeKind = Literal["h", "v"]


class Edge(NamedTuple):
    """One edge of the grid, written ``h2,3`` or ``v0,1``."""

    kind: EdgeKind
    row: int
    col: int

    def __str__(self) -> str:
        return f"{self.kind}{self.row},{self.col}"


# Possessive and with one way to read the separator, so no run of spaces is tried two ways.
_EDGE_RE = re.compile(r"^\s*+([hv])\s*+(\d++)(?:\s*+,\s*+|\s++)(\d++)\s*+$", re.IGNORECASE)


def parse_edge(text: str) -> Edge:
    """Read ``h2,3`` / ``v0,1`` (case and spaces do not matter)."""
    m = _EDGE_RE.match(text)
    if not m:
        raise NotationError(
            f"{text!r} is not an edge; write h<row>,<col> or v<row>,<col>, e.g. h0,1 or v2,0"
        )
    kind = m.group(1).lower()
    return Edge("h" if kind == "h" else "v", int(m.group(2)), int(m.group(3)))


@dataclass(frozen=True)
class Board:
    """The geometry of an R x C board: edge numbering and which edges bound which squares."""

    rows: int
    cols: int
    edges: tuple[Edge, ...] = field(init=False, repr=False, compare=False)
    index: dict[Edge, int] = field(init=False, repr=False, compare=False)
    square_edges: tuple[tuple[int, int, int, int], ...] = field(
        init=False, repr=False, compare=False
    )
    """For each square (row-major), its top, bottom, left and right edge indices."""
    edge_squares: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    """For each edge, the one or two squares it bounds (row-major square indices)."""

    def __post_init__(self) -> None:
        r_, c_ = self.rows, self.cols
        edges = [Edge("h", r, c) for r in range(r_ + 1) for c in range(c_)]
        edges += [Edge("v", r, c) for r in range(r_) for c in range(c_ + 1)]
        index = {e: i for i, e in enumerate(edges)}
        squares = tuple(
            (
                index[Edge("h", r, c)],
                index[Edge("h", r + 1, c)],
                index[Edge("v", r, c)],
                index[Edge("v", r, c + 1)],
            )
            for r in range(r_)
            for c in range(c_)
        )
        touching: list[list[int]] = [[] for _ in edges]
        for s, bounds in enumerate(squares):
            for e in bounds:
                touching[e].append(s)
        object.__setattr__(self, "edges", tuple(edges))
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "square_edges", squares)
        object.__setattr__(self, "edge_squares", tuple(tuple(t) for t in touching))

    @property
    def num_edges(self) -> int:
        """Number of edges: (R+1)*C horizontal plus R*(C+1) vertical."""
        return len(self.edges)

    @property
    def num_squares(self) -> int:
        """Number of squares, R*C."""
        return self.rows * self.cols

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols}"

    def edge_index(self, edge: Edge) -> int:
        """The index of an edge on this board; NotationError if the board has no such edge."""
        try:
            return self.index[edge]
        except KeyError:
            raise NotationError(
                f"there is no edge {edge} on a {self} board; horizontal edges are "
                f"h0,0 to h{self.rows},{self.cols - 1}, vertical edges v0,0 to "
                f"v{self.rows - 1},{self.cols}"
            ) from None


@cache
def board(rows: int, cols: int) -> Board:
    """The (shared, immutable) board of ``rows`` x ``cols`` squares."""
    return Board(rows, cols)
