"""The Edges board in a terminal: as wide as the console allows, never wrapped."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

import meeple


def _screen(state, width: int) -> list[str]:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(state.game.render(state, None))
    return console.file.getvalue().splitlines()


def _midgame(board: str, moves: int = 60):
    game = meeple.make("edges", board=board)
    state, rng = game.new_game(3), random.Random(3)
    for _ in range(moves):
        seat = state.to_act[0]
        state = state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def _marks(lines: list[str]) -> list[list[str]]:
    """Each row's pyramids and score marks, left to right: what the board says."""
    return [re.findall(r"[LMS][12]|[RB]\+\d|=", line) for line in lines if line[:4].strip()]


@pytest.mark.parametrize(("width", "cell"), [(80, 7), (60, 6), (52, 5)])
def test_a_7x7_board_fits_the_console_with_the_widest_cell_that_does(width, cell):
    """Seven squares of seven-character edges take 63 columns: in 60 (a narrow terminal, a
    phone's) the board wrapped its rows into the next, a grid no longer. It now draws its
    edges as long as the width allows, down to five characters, and says the same."""
    state = _midgame("7x7")
    wide, screen = _screen(state, 200), _screen(state, width)
    assert len(screen) == len(wide), "a line wrapped"
    assert all(len(line) <= width for line in screen)
    grid = [line for line in screen if line.lstrip().startswith("h") and "+" in line]
    assert all(len(segment) == cell for line in grid for segment in line.split("+")[1:-1])
    assert _marks(screen) == _marks(wide)


def test_a_board_that_fits_keeps_its_full_cell():
    """The standard 4x4 board takes 39 columns: a 40-column console draws it as a wide one."""
    state = _midgame("4x4", moves=12)
    board = slice(0, 2 + 2 * 4 + 1)  # the two lines of column labels, then the grid
    assert _screen(state, 40)[board] == _screen(state, 200)[board]
