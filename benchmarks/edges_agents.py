"""How strong is the Edges greedy agent? Plays it against random, seats alternated.

.venv/bin/python benchmarks/edges_agents.py --games 400 --board 3x4
"""

from __future__ import annotations

import argparse

from rich.progress import Progress

import meeple
from meeple.lab import head_to_head


def main() -> None:
    """Run the match-up and print the result with its 95% interval."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--board", default="3x4")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--a", default="greedy")
    parser.add_argument("--b", default="random")
    args = parser.parse_args()
    game = meeple.make("edges", board=args.board)
    with Progress() as progress:
        task = progress.add_task(f"{args.a} vs {args.b} on {args.board}", total=args.games)
        result = head_to_head(
            game, args.a, args.b, args.games, args.seed, on_game=lambda r: progress.advance(task)
        )
    print(result.summary())


if __name__ == "__main__":
    main()
