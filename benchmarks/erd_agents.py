"""How strong is the Erd heuristic agent? Plays it against random in every rules version,
seats alternated, next to random against random as the reference measured in the same run.

.venv/bin/python benchmarks/erd_agents.py --games 400
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import meeple
from meeple.lab import MatchupResult, head_to_head

VERSIONS = ("original", "0.01", "0.02")


def main() -> None:
    """Run heuristic-vs-random and random-vs-random per version and print a table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400, help="games per match-up")
    parser.add_argument("--best-of", type=int, default=1, help="1: single games; 5: matches")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", choices=VERSIONS, nargs="*", default=list(VERSIONS))
    parser.add_argument("--a", default="heuristic")
    parser.add_argument("--b", default="random")
    args = parser.parse_args()

    rows: list[tuple[str, MatchupResult, MatchupResult, float]] = []
    with Progress() as progress:
        for rules in args.rules:
            game = meeple.make("erd", rules=rules, best_of=args.best_of)
            results = []
            started = time.perf_counter()
            for a, b in ((args.a, args.b), (args.b, args.b)):
                task = progress.add_task(f"rules {rules}: {a} vs {b}", total=args.games)
                results.append(
                    head_to_head(
                        game,
                        a,
                        b,
                        args.games,
                        args.seed,
                        on_game=lambda r, t=task: progress.advance(t),
                    )
                )
            rows.append((rules, results[0], results[1], time.perf_counter() - started))

    unit = "games" if args.best_of == 1 else f"best-of-{args.best_of} matches"
    table = Table(title=f"Erd: {args.a} vs {args.b}, {args.games} {unit} per row, seats alternated")
    for column in ("rules", f"{args.a} vs {args.b}", f"reference: {args.b} vs {args.b}", "seconds"):
        table.add_column(column)
    for rules, result, reference, seconds in rows:
        table.add_row(rules, result.summary(), reference.summary(), f"{seconds:.1f}")
    Console().print(table)


if __name__ == "__main__":
    main()
