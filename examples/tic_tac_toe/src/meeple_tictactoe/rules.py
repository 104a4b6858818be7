"""Tic-tac-toe on a square board: the rules engine (options, notation, states, views).

meeple's example of a game added from outside its own package (docs/new-game.md). X and O
take turns to mark an empty square; a full row, column or diagonal of one mark wins, and a
full board with no such line is a draw.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from pydantic import Field

from meeple.core.errors import NotationError
from meeple.core.game import Game, Player, State
from meeple.core.options import GameOptions
from meeple.core.registry import register

MARKS = "XO"
"""Seat 0 plays X and moves first; seat 1 plays O."""
EMPTY = "."
COLUMNS = "abcde"

# Anchored and without nested repetition, so any text is read in linear time.
_SQUARE = re.compile(r"\s*([a-z])\s*(\d{1,2})\s*", re.IGNORECASE)


class TicTacToeOptions(GameOptions):
    """Tic-tac-toe's one option: the size of the board."""

    size: int = Field(
        default=3,
        ge=3,
        le=5,
        description="the board has size x size squares; a line of size marks wins",
    )


@dataclass(frozen=True)
class Mark:
    """The mover puts a mark on the square at ``row`` and ``col`` (from 0), written ``b2``:
    the column's letter, then the row's number from 1 (row 1 at the top)."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"{COLUMNS[self.col]}{self.row + 1}"


@register
class TicTacToeGame(Game[TicTacToeOptions, "TicTacToeState", Mark]):
    """Tic-tac-toe with its options fixed."""

    name: ClassVar[str] = "tic-tac-toe"
    title: ClassVar[str] = "Tic-tac-toe"
    summary: ClassVar[str] = "Two players mark squares in turn; a full line of one mark wins."
    Options: ClassVar[type[GameOptions]] = TicTacToeOptions
    players: ClassVar[str] = "2"
    has_chance: ClassVar[bool] = False  # X starts, and nothing is drawn
    heuristic_agent: ClassVar[str | None] = "heuristic"

    @property
    def size(self) -> int:
        """Squares along a side."""
        return int(self.options.size)

    @property
    def num_players(self) -> int:
        """Always two."""
        return 2

    def seat_name(self, player: Player) -> str:
        """``X`` or ``O``."""
        return MARKS[player]

    def max_decisions(self) -> int:
        """A mark a move, on an empty square: at most every square (OpenSpiel's length)."""
        return self.size * self.size

    def new_game(self, seed: int) -> TicTacToeState:
        """The empty board (the game has no chance, so the seed changes nothing)."""
        return TicTacToeState(game=self, board=(EMPTY * self.size,) * self.size)

    def _parse_action(self, text: str) -> Mark:
        match = _SQUARE.fullmatch(text)
        if match is not None:
            col = match.group(1).lower()
            row = int(match.group(2)) - 1
            if col in COLUMNS[: self.size] and 0 <= row < self.size:
                return Mark(row, COLUMNS.index(col))
        raise NotationError(f"{text!r} is not a square; {self.notation_help()}")

    def notation_help(self) -> str:
        """How to write a move."""
        last = COLUMNS[self.size - 1]
        return f"write a square as its column a-{last} and row 1-{self.size}, like b2"

    @property
    def num_actions(self) -> int:
        """One id per square."""
        return self.size * self.size

    def action_id(self, action: Mark) -> int:
        """Squares numbered row by row from the top left."""
        if not (0 <= action.row < self.size and 0 <= action.col < self.size):
            raise ValueError("off the board")
        return action.row * self.size + action.col

    def action_from_id(self, action_id: int) -> Mark:
        """The square numbered ``action_id`` (already checked to be in range)."""
        return Mark(*divmod(action_id, self.size))

    @functools.cached_property
    def lines(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Every winning line as its squares: rows, columns and the two diagonals."""
        n = range(self.size)
        rows = [tuple((r, c) for c in n) for r in n]
        cols = [tuple((r, c) for r in n) for c in n]
        diagonals = [tuple((k, k) for k in n), tuple((k, self.size - 1 - k) for k in n)]
        return tuple(rows + cols + diagonals)


@dataclass(frozen=True)
class TicTacToeState(State[Mark]):
    """A board: nothing else is needed, since whose turn it is follows from the marks."""

    game: TicTacToeGame
    board: tuple[str, ...]
    """The rows from the top, each a string of ``X``, ``O`` and ``.`` (empty)."""

    @property
    def mover(self) -> Player:
        """The seat whose turn it is (X when both have as many marks)."""
        text = "".join(self.board)
        return 0 if text.count("X") == text.count("O") else 1

    @functools.cached_property
    def winner(self) -> Player | None:
        """The seat with a full line, if any."""
        for line in self.game.lines:
            marks = {self.board[r][c] for r, c in line}
            if len(marks) == 1 and EMPTY not in marks:
                return MARKS.index(marks.pop())
        return None

    @property
    def to_act(self) -> tuple[Player, ...]:
        """The mover, until a line is made or the board is full."""
        if self.winner is not None or EMPTY not in "".join(self.board):
            return ()
        return (self.mover,)

    def legal_actions(self, player: Player) -> list[Mark]:
        """Every empty square, for the seat to move."""
        if player not in self.to_act:
            return []
        return [
            Mark(r, c)
            for r, row in enumerate(self.board)
            for c, square in enumerate(row)
            if square == EMPTY
        ]

    def why_illegal(self, player: Player, action: Mark) -> str | None:
        """A square already marked is named as such; anything else is checked as usual."""
        if self.board[action.row][action.col] != EMPTY:
            return f"{action} already holds {self.board[action.row][action.col]}"
        return super().why_illegal(player, action)

    def _next(self, player: Player, action: Mark) -> TicTacToeState:
        row = self.board[action.row]
        marked = row[: action.col] + MARKS[player] + row[action.col + 1 :]
        board = (*self.board[: action.row], marked, *self.board[action.row + 1 :])
        return replace(self, board=board)

    @property
    def returns(self) -> tuple[float, ...]:
        """1 for the winner and -1 for the loser; 0 each for a draw or a game going on."""
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    @property
    def result(self) -> dict[str, Any]:
        """The winner (a seat, or None) and why the game ended (None while it goes on)."""
        if self.winner is not None:
            reason = f"{MARKS[self.winner]} made a line of {self.game.size}"
        else:
            reason = None if self.to_act else "the board is full with no line: a draw"
        return {"winner": self.winner, "reason": reason}

    def view(self, player: Player | None) -> dict[str, Any]:
        """The whole board (nothing is hidden), whose turn it is, and the seat's own mark."""
        return {
            "you": None if player is None else MARKS[player],
            "to_move": MARKS[self.mover] if self.to_act else None,
            "board": list(self.board),
        }
