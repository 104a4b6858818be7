"""How strong is the Erosion heuristic agent? Plays it against random, seats rotated.

In an n-player game the heuristic takes one seat (rotating from game to game) and random
players take all the others, so chance alone would win about 1/n of the games.

.venv/bin/python benchmarks/erosion_agents.py --games 400 --players 2 3 4 5
"""

from __future__ import annotations

import argparse

from rich.progress import Progress

import meeple
from meeple.lab import head_to_head


def main() -> None:
    """Run one match-up per player count and print each result with its 95% interval."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--advanced", action="store_true", help="Advanced Rules")
    parser.add_argument("--legend", default="off", help="off, basic or advanced")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--a", default="heuristic")
    parser.add_argument("--b", default="random")
    args = parser.parse_args()
    lines = []
    with Progress() as progress:
        for players in args.players:
            game = meeple.make(
                "erosion", players=players, advanced=args.advanced, legend=args.legend
            )
            task = progress.add_task(f"{args.a} vs {args.b}, {players} players", total=args.games)
            result = head_to_head(
                game,
                args.a,
                args.b,
                args.games,
                args.seed,
                on_game=lambda r, task=task: progress.advance(task),
            )
            lines.append(f"{players} players (chance {100 / players:.0f}%): {result.summary()}")
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
