"""How strong is The Triangle Clock's heuristic agent? Match-ups with seats alternated.

    .venv/bin/python benchmarks/triangle_clock_agents.py --games 400
    .venv/bin/python benchmarks/triangle_clock_agents.py --games 200 --a heuristic \
        --b heuristic:recall=false

Agent A takes seat 0 (Tick: Palette Swap and Right Angle) in even games and seat 1 (Tock:
Mulligan) in odd games; game k uses seed ``--seed + k`` and the agents' seeds derive from it,
so a run is reproducible. Prints A's wins, draws and losses with a 95% Wilson interval on its
win rate, the mean scores, the win rate per seat, and the time per game as a ratio to a
random-vs-random game measured in the same run.
"""

from __future__ import annotations

import argparse
import math
import time

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import meeple
from meeple.agents import make_agent, play_game
from meeple.core.rng import derive_seed


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def seconds_per_game(game: meeple.core.game.Game, a: str, b: str, games: int, seed: int) -> float:
    """Mean wall time of ``games`` games of ``a`` (seat 0) against ``b`` (seat 1)."""
    start = time.perf_counter()
    for k in range(games):
        play_game(game, [make_agent(a, game, k), make_agent(b, game, k + 1)], seed + k)
    return (time.perf_counter() - start) / games


def main() -> None:
    """Play the match-up and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--a", default="heuristic", help="agent spec measured")
    parser.add_argument("--b", default="random", help="agent spec it plays against")
    parser.add_argument("--items", default=None, help="the game's items option")
    args = parser.parse_args()
    options = {} if args.items is None else {"items": args.items}
    game = meeple.make("triangle-clock", **options)
    console = Console()

    wins = draws = losses = 0
    by_seat = {0: [0, 0], 1: [0, 0]}  # seat of A -> [wins, games]
    points = [0, 0]  # A, B
    start = time.perf_counter()
    with Progress(console=console) as progress:
        task = progress.add_task(f"{args.a} vs {args.b}", total=args.games)
        for k in range(args.games):
            seed = args.seed + k
            seat_a = k % 2
            agents = [None, None]
            agents[seat_a] = make_agent(args.a, game, derive_seed(seed, "a"))
            agents[1 - seat_a] = make_agent(args.b, game, derive_seed(seed, "b"))
            state = play_game(game, agents, seed).state  # type: ignore[arg-type]
            outcome = state.returns[seat_a]
            wins += outcome > 0
            draws += outcome == 0
            losses += outcome < 0
            by_seat[seat_a][0] += outcome > 0
            by_seat[seat_a][1] += 1
            points[0] += state.scores[seat_a]
            points[1] += state.scores[1 - seat_a]
            progress.advance(task)
    elapsed = (time.perf_counter() - start) / args.games
    reference = seconds_per_game(game, "random", "random", 20, args.seed)

    n = args.games
    low, high = wilson(wins, n)
    table = Table(title=f"The Triangle Clock: {args.a} vs {args.b}, {n} games, seats alternated")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_row("wins / draws / losses", f"{wins} / {draws} / {losses}")
    table.add_row("win rate (95% Wilson)", f"{wins / n:.1%} ({low:.1%} - {high:.1%})")
    for seat, name in ((0, "as Tick (seat 0)"), (1, "as Tock (seat 1)")):
        w, g = by_seat[seat]
        table.add_row(f"win rate {name}", f"{w / g:.1%} of {g}" if g else "-")
    table.add_row("mean score (A : B)", f"{points[0] / n:.1f} : {points[1] / n:.1f}")
    table.add_row("time per game / random-vs-random game", f"{elapsed / reference:.1f}x")
    console.print(table)


if __name__ == "__main__":
    main()
