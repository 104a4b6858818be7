"""How many moves a game takes: what a server's ``--max-match-moves`` must leave room for.

Plays ``--games`` games of each game at its largest table with every seat choosing a legal
move uniformly at random (seeded: the same figures every run), and prints one Markdown row
per game: the longest game's moves and the mean. Random play is long play: a side that does
not aim at the end keeps the game going.

    .venv/bin/python benchmarks/game_lengths.py --games 30
"""

from __future__ import annotations

import argparse
import random

import meeple

TABLES = {
    "edges": {"board": "9x9"},
    "erd": {"best_of": 99},
    "erosion": {"players": 5},
    "squad-combat": {"players": 4},
    "triangle-clock": {},
}
"""Each game at its largest table, or its longest match (Erd: best of 99)."""


def length(name: str, options: dict, seed: int) -> int:
    """The moves of one game of ``name`` played at random from ``seed``."""
    state = meeple.make(name, **options).new_game(seed)
    rng = random.Random(seed)
    moves = 0
    while not state.is_over:
        player = state.to_act[0]
        state = state.apply(player, rng.choice(state.legal_actions(player)))
        moves += 1
    return moves


def main() -> None:
    """Play the games and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games of each game")
    args = parser.parse_args()
    print("| game | options | longest | mean |")
    print("| --- | --- | ---: | ---: |")
    for name, options in TABLES.items():
        lengths = [length(name, options, seed) for seed in range(args.games)]
        shown = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
        print(
            f"| {name} | {shown} | {max(lengths):,} | {sum(lengths) / len(lengths):,.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
