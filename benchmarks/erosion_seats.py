"""Who wins an Erosion run by seat number and by turn position: each seat's wins, the same
counted by position after the first era's first player and after the second era's start
player, the trend of the wins with the seat number, and how many games every player ended
by passing in a row where the first of those passes was the seat's undoing (it finished
below the best: the others passed after it and ended the game), from a stored run's rows.

    .venv/bin/python benchmarks/erosion_seats.py RUN [RUN ...] [--db URL] [--permutations N]

A shared win is split among its winners (1/k each), so a game's shares sum to 1 and a fair
share is exactly 1/players; the whole count (a shared win a win for each winner) is given
beside it. The trend is the least-squares slope of a game's split shares on the seat number
(or position), averaged over the games, with its 95% normal interval over the games (the seats
of a game are counted together, so their dependence is in the interval); the permutation
p-value shuffles each game's seats (no seat gradient at all) and counts slopes at least as
steep either way. Positions need the second era's start, so the rows are replayed.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from meeple.lab.replay import game_record
from meeple.lab.stats import wilson_interval
from meeple.store import DEFAULT_URL

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its sibling modules
from stores import open_results

Z95 = 1.959964


def split_shares(row: dict[str, Any], n: int) -> list[float]:
    """A game's win shares by seat: 1/k to each of its k winners, 0 to the others."""
    winners = row["winners"]
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]


def second_era_start(row: dict[str, Any]) -> int | None:
    """The seat that started the second era (replayed), None in a one-era game."""
    for state in game_record(row).states():
        if getattr(state, "era", 1) == 2:
            return int(state.current)
    return None


ALL_PASSED = "all players passed in a row"
"""The ``reason`` of a game that ended with every player passing in a row."""


def passed_into_a_loss(rows: Sequence[dict[str, Any]]) -> tuple[int, int]:
    """Games ended by every player passing in a row, and of those the games whose first
    pass of that run was by a seat that finished below the best (a tie-breaker's guesses and
    choices after the passes are skipped)."""
    ended = lost = 0
    for row in rows:
        if row["reason"] != ALL_PASSED:
            continue
        ended += 1
        moves = row["moves"]
        k = len(moves) - 1
        while k >= 0 and str(moves[k][1]).split()[0] in ("guess", "choose"):
            k -= 1
        while k >= 0 and str(moves[k][1]) == "pass":
            k -= 1
        returns = row["returns"]
        if k + 1 < len(moves) and returns[moves[k + 1][0]] < max(returns):
            lost += 1
    return ended, lost


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean with its 95% normal interval over ``values``."""
    m = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return m, m - half, m + half


def slope(shares: Sequence[float]) -> float:
    """Least-squares slope of shares on their index 0..n-1."""
    n = len(shares)
    mid = (n - 1) / 2
    return sum((i - mid) * v for i, v in enumerate(shares)) / sum((i - mid) ** 2 for i in range(n))


def table(label: str, per_game: list[list[float]], whole: list[list[int]]) -> None:
    """Print shares by index (seat or position), and the trend with its permutation p."""
    n = len(per_game[0])
    games = len(per_game)
    print(f"  by {label} ({games} games):")
    for i in range(n):
        m, lo, hi = mean_interval([g[i] for g in per_game])
        k = sum(w[i] for w in whole)
        wlo, whi = wilson_interval(k, games)
        print(
            f"    {i}: split {100 * m:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
            f"  whole {100 * k / games:.1f}% [{100 * wlo:.1f}, {100 * whi:.1f}]"
        )
    slopes = [slope(g) for g in per_game]
    m, lo, hi = mean_interval(slopes)
    print(
        f"    trend: {100 * m:+.2f} points a {label} [{100 * lo:+.2f}, {100 * hi:+.2f}]"
        f" (last less first, fitted: {100 * m * (n - 1):+.1f} points)"
    )
    return None


def permutation_p(per_game: list[list[float]], permutations: int, seed: int = 0) -> float:
    """Share of seat-shuffled runs whose mean slope is at least as steep as the observed."""
    observed = abs(statistics.fmean(slope(g) for g in per_game))
    rng = random.Random(seed)
    hits = 0
    for _ in range(permutations):
        total = 0.0
        for g in per_game:
            shuffled = list(g)
            rng.shuffle(shuffled)
            total += slope(shuffled)
        if abs(total / len(per_game)) >= observed - 1e-12:
            hits += 1
    return (hits + 1) / (permutations + 1)


def rotate(values: Sequence[Any], start: int) -> list[Any]:
    """Values re-indexed by position after ``start``: position j is seat (start + j) % n."""
    n = len(values)
    return [values[(start + j) % n] for j in range(n)]


def main() -> None:
    """Print each run's wins by seat, by first-era position and by second-era position."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--db", default=DEFAULT_URL)
    parser.add_argument("--permutations", type=int, default=2000)
    args = parser.parse_args()
    store = open_results(args.db)
    for key in args.runs:
        found = store.find_run(key)
        rows = store.rows(found["key"])
        n = len(rows[0]["seats"])
        by_seat = [split_shares(r, n) for r in rows]
        whole = [[1 if s in r["winners"] else 0 for s in range(n)] for r in rows]
        shared = sum(1 for r in rows if len(r["winners"]) > 1)
        print(f"run {found['key']}, {len(rows)} games, {n} players, {shared} shared wins")
        ended, lost = passed_into_a_loss(rows)
        print(
            f"  ended by every player passing in a row: {ended}; the first of those passes "
            f"by a seat that finished below the best: {lost}"
        )
        table("seat", by_seat, whole)
        print(f"    permutation p (seat trend): {permutation_p(by_seat, args.permutations):.3f}")
        firsts = [int(r["first_player"]) for r in rows]
        table(
            "first-era position",
            [rotate(g, f) for g, f in zip(by_seat, firsts, strict=True)],
            [rotate(w, f) for w, f in zip(whole, firsts, strict=True)],
        )
        starts = [second_era_start(r) for r in rows]
        two = [i for i, s in enumerate(starts) if s is not None]
        if two:
            table(
                "second-era position",
                [rotate(by_seat[i], starts[i]) for i in two],  # type: ignore[arg-type]
                [rotate(whole[i], starts[i]) for i in two],  # type: ignore[arg-type]
            )


if __name__ == "__main__":
    main()
