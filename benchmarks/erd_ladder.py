"""The Erd ladder with the solved game on top: ``equilibrium`` against ``heuristic``,
``ismcts`` and ``random`` (single games, seats alternated, 95% Wilson intervals), and each
agent's exploitability: what a best response wins against it, computed exactly from the
solution (for the agents whose play is a fixed mix per state; ismcts's is not), and the
exact result of equilibrium against heuristic (both play a fixed mix per state and rounds
left, so the whole match is a policy evaluation over the solver's states), with the number
of games a match needs to separate them.

.venv/bin/python benchmarks/erd_ladder.py --rules 0.02 --games 200 --ismcts-games 40

The solution comes from the cache (``meeple solve erd --rules 0.02`` fills it).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import meeple
from meeple.games.erd.agents import HeuristicAgent
from meeple.lab import head_to_head
from meeple.solvers.erd.analysis import (
    equilibrium_strategy,
    exploitability,
    heuristic_strategy,
    outcome,
    uniform_strategy,
)
from meeple.solvers.erd.solve import solve_erd


def main() -> None:
    """Exploitability of each agent, then the match-ups, as two tables."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", default="0.02", choices=("original", "0.01", "0.02"))
    parser.add_argument("--games", type=int, default=200, help="games against heuristic, random")
    parser.add_argument(
        "--heuristic-games", type=int, default=None, help="games against heuristic (--games)"
    )
    parser.add_argument("--ismcts", default="ismcts:seconds=1", help="the ismcts agent spec")
    parser.add_argument("--ismcts-games", type=int, default=40, help="games against ismcts")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cache-dir", type=Path, default=None)
    args = parser.parse_args()
    console = Console()

    solution, _, _ = solve_erd({"rules": args.rules}, args.cache_dir)
    game = meeple.make("erd", rules=args.rules, best_of=1)
    heuristic = HeuristicAgent(game)
    table = Table(title=f"Erd {args.rules}: exploitability (best response's gain from the opening)")
    for column in ("agent", "guarantees", "exploitability", "seconds"):
        table.add_column(column)
    for name, strategy in (
        ("equilibrium", equilibrium_strategy(solution)),
        ("heuristic", heuristic_strategy(solution, heuristic)),
        ("random", uniform_strategy(solution)),
    ):
        started = time.perf_counter()
        worst, gap = exploitability(solution, strategy)
        table.add_row(name, f"{worst:+.6f}", f"{gap:.6f}", f"{time.perf_counter() - started:.1f}")
    console.print(table)

    started = time.perf_counter()
    exact = outcome(
        solution, equilibrium_strategy(solution), heuristic_strategy(solution, heuristic)
    )
    red, blue = (w - lost for w, _, lost in (exact.as_red, exact.as_blue))
    console.print(
        f"Exact, equilibrium vs heuristic (seats alternated): {100 * exact.win_rate:.2f}% wins, "
        f"{100 * exact.draw_rate:.2f}% draws, {100 * exact.loss_rate:.2f}% losses; "
        f"expected return {exact.score:+.4f} a game (as Red {red:+.4f}, as Blue {blue:+.4f})"
        f"; a 95% interval excludes "
        f"an even match after about {exact.games_to_separate():,.0f} games on average "
        f"({exact.games_to_separate(power_z=0.8416):,.0f} for four matches in five) "
        f"[{time.perf_counter() - started:.1f} s]",
        highlight=False,
    )

    spec = "equilibrium" + (f":cache_dir={args.cache_dir}" if args.cache_dir else "")
    rows = []
    with Progress(console=console) as progress:
        for opponent, games in (
            ("heuristic", args.games if args.heuristic_games is None else args.heuristic_games),
            ("random", args.games),
            (args.ismcts, args.ismcts_games),
        ):
            if games <= 0:
                continue
            task = progress.add_task(f"equilibrium vs {opponent}", total=games)
            started = time.perf_counter()
            result = head_to_head(
                game,
                spec,
                opponent,
                games,
                args.seed,
                on_game=lambda r, t=task: progress.advance(t),
            )
            rows.append((opponent, result, time.perf_counter() - started))
    ladder = Table(title=f"Erd {args.rules}: equilibrium against the ladder, single games")
    for column in ("opponent", "result (equilibrium's wins, 95% interval)", "seconds"):
        ladder.add_column(column)
    for opponent, result, seconds in rows:
        ladder.add_row(opponent, result.summary(), f"{seconds:.0f}")
    console.print(ladder)


if __name__ == "__main__":
    main()
