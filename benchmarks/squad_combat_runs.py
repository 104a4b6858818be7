"""Figures of stored Squad Combat runs that the lab's tables do not give, read from the games
(nothing is played): who wounds whom, the wins split by who led, the gap between two seats
game by game, and how many of the winner's characters were still standing.

The tables of docs/design/squad-combat.md that say "read from the stored games" come from
here, e.g.

    .venv/bin/python benchmarks/squad_combat_runs.py d6782f90efc8 --gap 2:0
    .venv/bin/python benchmarks/squad_combat_runs.py d6782f90efc8 1fbc51efe850 --gap 2:0 --pool
    .venv/bin/python benchmarks/squad_combat_runs.py 37923dcbfda1:1:2 d6217c0acb12:0:1 --pool
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import meeple.games.squad_combat.edits as edits
from meeple.core.stats import mean_interval
from meeple.lab.replay import game_record
from meeple.lab.stats import wilson_interval

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its sibling modules
from stores import open_results

PLAY = re.compile(r"\((\d)[abc]\) plays ([A-Z][\w ]+?) \(")
HIT = re.compile(r"^([A-Z][\w ]+?) hits \w+ [\w ]+ \((\d)[abc]\).*wound of (\d+)")


def final_states(rows: list[dict[str, Any]]) -> list[Any]:
    """Each row's game replayed to its end, with its whole log (the state keeps only the
    last lines of it in play, which is all a player's screen needs)."""
    kept = edits.LOG_LINES
    edits.LOG_LINES = 10**9
    try:
        return [game_record(row).replay() for row in rows]
    finally:
        edits.LOG_LINES = kept


def wounds(states: list[Any], players: int) -> list[list[float]]:
    """Wound points of the hits each seat dealt each other seat, a game (attacker, target);
    a hit is the attacker's whose card it is, the last one that played that card."""
    dealt: Counter[tuple[int, int]] = Counter()
    for state in states:
        by_card: dict[str, int] = {}
        for line in state.log:
            if played := PLAY.search(line):
                by_card[played.group(2)] = int(played.group(1))
            if hit := HIT.search(line):
                dealt[by_card[hit.group(1)], int(hit.group(2))] += int(hit.group(3))
    return [[dealt[a, t] / len(states) for t in range(players)] for a in range(players)]


def winners(row: dict[str, Any]) -> list[int]:
    """The seats with the best return (alone or shared)."""
    best = max(row["returns"])
    return [p for p, r in enumerate(row["returns"]) if r == best]


def main() -> None:
    """Print the figures of each run named, or of all of them pooled."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "runs", nargs="+", help="run keys (or their first letters); RUN:A:B sets its own --gap"
    )
    parser.add_argument("--db", default="sqlite:///results/meeple.db")
    parser.add_argument("--gap", help="A:B, seat A's wins less seat B's, game by game")
    parser.add_argument("--pool", action="store_true", help="the gap over all runs together")
    args = parser.parse_args()
    store = open_results(args.db)
    pooled: list[float] = []
    for arg in args.runs:
        run, _, gap = arg.partition(":")
        gap = gap or args.gap
        key = store.find_run(run)["key"]
        rows = store.rows(key)
        players = len(rows[0]["returns"])
        states = final_states(rows)
        print(f"run {key}: {len(rows)} games")
        print("  wound points dealt a game (row: attacker, column: target)")
        for a, line in enumerate(wounds(states, players)):
            print(f"    {a}: " + "  ".join(f"{v:5.1f}" for v in line))
        print("  wins by first player")
        for first in range(players):
            games = [r for r in rows if r["first_player"] == first]
            cells = []
            for p in range(players):
                won = sum(p in winners(r) for r in games)
                low, high = wilson_interval(won, len(games))
                cells.append(f"{100 * won / len(games):.1f}% [{100 * low:.1f}, {100 * high:.1f}]")
            print(f"    first {first} ({len(games)} games): " + " | ".join(cells))
        standing = [
            sum(not c.removed for c in s.parties[s.winner]) for s in states if s.winner is not None
        ]
        low, high = mean_interval(standing)
        mean = sum(standing) / len(standing)
        print(f"  winner's characters standing: {mean:.2f} [{low:.2f}, {high:.2f}]")
        if gap:
            a, b = (int(x) for x in gap.split(":"))
            diffs = [100.0 * ((a in winners(r)) - (b in winners(r))) for r in rows]
            pooled += diffs
            print(f"  seat {a} - seat {b}: {_mean(diffs)}")
    if args.pool and pooled:
        print(f"pooled, {len(pooled)} games: {_mean(pooled)}")


def _mean(values: list[float]) -> str:
    low, high = mean_interval(values)
    return f"{sum(values) / len(values):+.1f} [{low:+.1f}, {high:+.1f}]"


if __name__ == "__main__":
    main()
