"""Which mountains an Erosion run's players weather and hillslope: plays a game on each
seat's mountain by the other seats, and by the seat itself, from a stored run's moves.

    .venv/bin/python benchmarks/erosion_targets.py RUN [RUN ...] [--db URL]

A run is any stored Erosion run (``meeple results`` lists them). With seats alike, every
mountain should be played on about as often; an agent that breaks ties between equal moves
by legal order plays on the lowest seat's mountain most (docs/design/erosion.md).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from meeple.store import DEFAULT_URL

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its sibling modules
from stores import open_results

PLAYS = ("weather", "hillslope")
"""The plays that name a mountain: ``weather WX12 on 1 x2``."""


def targets(rows: list[dict]) -> tuple[Counter[int], Counter[int]]:
    """Plays on each mountain by the other seats, and by its own seat, over ``rows``."""
    others: Counter[int] = Counter()
    own: Counter[int] = Counter()
    for row in rows:
        for player, text in row["moves"]:
            words = text.split()
            if words[0] in PLAYS and "on" in words:
                mountain = int(words[words.index("on") + 1])
                (own if mountain == player else others)[mountain] += 1
    return others, own


def main() -> None:
    """Print each run's plays a game on every mountain."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--db", default=DEFAULT_URL)
    args = parser.parse_args()
    store = open_results(args.db)
    for key in args.runs:
        rows = store.rows(key)
        others, own = targets(rows)
        n = len(rows) or 1
        print(f"run {key}, {len(rows)} games: plays a game on each seat's mountain")
        for seat in sorted(set(others) | set(own)):
            mine, theirs = own[seat] / n, others[seat] / n
            print(f"  seat {seat}: by other seats {theirs:.2f}, by itself {mine:.2f}")


if __name__ == "__main__":
    main()
