"""What the ``hint`` at the Edges prompt finds in its time: exact or how deep a search.

    .venv/bin/python benchmarks/edges_hint.py [--seconds 3]

For each board (pie rule on): the start, and random positions with 16 and 12 pyramids left
(``random_position(game, left, random.Random(0))``), prints the move, its value (seat 0
minus seat 1), whether it is exact, the depth and the seconds taken.
"""

from __future__ import annotations

import argparse
import random

import meeple
from meeple.games.edges.rules import EdgesState
from meeple.solvers.edges_analysis import HINT_SECONDS, hint
from meeple.solvers.edges_solver import pyramids_left, random_position, warm_up

BOARDS = [("2x2", "2/2/1"), ("2x3", "3/3/2"), ("3x3", "4/4/4"), ("3x4", "5/5/5")]


def main() -> None:
    """Print one line per position."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=HINT_SECONDS)
    args = parser.parse_args()
    warm_up()  # the compile is not the hint's time
    for board, stash in BOARDS:
        game = meeple.make("edges", board=board, stash=stash, pie=True, first=0)
        start = game.new_game(0)
        assert isinstance(start, EdgesState)
        positions = [("start", start)]
        for left in (16, 12):
            if left < pyramids_left(start):
                positions.append((f"{left} left", random_position(game, left, random.Random(0))))
        for name, state in positions:
            found = hint(state, args.seconds)
            print(f"{board} {name}: {found.action} value {found.value:+d} "
                  f"{'exact' if found.exact else 'estimate'} depth {found.depth} "
                  f"{found.seconds:.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
