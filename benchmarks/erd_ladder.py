"""The Erd ladder with the solved game on top: ``equilibrium`` against ``heuristic``,
``ismcts`` and ``random`` (single games, seats alternated, 95% Wilson intervals), and each
agent's exploitability: what a best response wins against it, computed exactly from the
solution (for the agents whose play is a fixed mix per state; ismcts's is not), and the
exact result of equilibrium against heuristic (both play a fixed mix per state and rounds
left, so the whole match is a policy evaluation over the solver's states), with the number
of games a match needs to separate them.

.venv/bin/python benchmarks/erd_ladder.py --rules 0.02 --games 200 --ismcts-games 40

``--variance-reduced`` also prints, beside each raw count, the equilibrium's expected result
estimated from the same games with the exact values as control variates
(``meeple.solvers.erd.evaluation``: unbiased, without the equilibrium's own luck), with
a t-interval and a bootstrap interval; ``--skip-exact`` leaves out the exact tables (minutes).

The solution comes from the cache (``meeple solve erd --rules 0.02`` fills it).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import meeple
from meeple.agents import make_agent
from meeple.games.erd.agents import HeuristicAgent
from meeple.games.erd.rules import ErdGame
from meeple.lab import head_to_head
from meeple.lab.stats import wilson_interval
from meeple.solvers.erd.analysis import (
    equilibrium_strategy,
    exploitability,
    heuristic_strategy,
    outcome,
    uniform_strategy,
)
from meeple.solvers.erd.evaluation import MatchEvaluation, play_and_evaluate, points
from meeple.solvers.erd.iteration import Solution
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
    parser.add_argument(
        "--variance-reduced",
        action="store_true",
        help="print the control-variate estimate of each match-up beside the raw count",
    )
    parser.add_argument(
        "--dump",
        type=Path,
        default=None,
        help="with --variance-reduced: write every game's seat, result and terms (JSON)",
    )
    parser.add_argument(
        "--skip-exact", action="store_true", help="leave out exploitability and the exact line"
    )
    args = parser.parse_args()
    console = Console()

    solution, _, _ = solve_erd({"rules": args.rules}, args.cache_dir)
    game = meeple.make("erd", rules=args.rules, best_of=1)
    if not args.skip_exact:
        exact_tables(console, solution, game, args.rules)
    spec = "equilibrium" + (f":cache_dir={args.cache_dir}" if args.cache_dir else "")
    rows = []
    estimates: list[tuple[MatchEvaluation, float]] = []
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
            if args.variance_reduced:
                # Same seeds and seats as head_to_head, so the raw counts are its counts.
                match = play_and_evaluate(
                    game,
                    solution,
                    lambda name, seed: make_agent(name, game, seed),
                    spec,
                    opponent,
                    games,
                    args.seed,
                    on_game=lambda m, t=task: progress.advance(t),
                )
                estimates.append((match, time.perf_counter() - started))
                continue
            result = head_to_head(
                game,
                spec,
                opponent,
                games,
                args.seed,
                on_game=lambda r, t=task: progress.advance(t),
            )
            rows.append((opponent, result, time.perf_counter() - started))
    if rows:
        ladder = Table(title=f"Erd {args.rules}: equilibrium against the ladder, single games")
        for column in ("opponent", "result (equilibrium's wins, 95% interval)", "seconds"):
            ladder.add_column(column)
        for opponent, result, seconds in rows:
            ladder.add_row(opponent, result.summary(), f"{seconds:.0f}")
        console.print(ladder)
    if estimates:
        print_estimates(console, args.rules, estimates)
        if args.dump is not None:
            args.dump.write_text(json.dumps(dump(estimates), indent=1))


def dump(estimates: list[tuple[MatchEvaluation, float]]) -> dict[str, list[dict]]:
    """Every game of every match-up: the equilibrium's seat, result, v(s_0) and terms."""
    return {
        match.opponent: [
            {
                "seat": g.seat,
                "result": g.result,
                "start_value": g.start_value,
                "terms": g.terms,
                "estimate": g.estimate,
            }
            for g in match.games
        ]
        for match, _ in estimates
    }


def print_estimates(
    console: Console, rules: str, estimates: list[tuple[MatchEvaluation, float]]
) -> None:
    """Raw counts and the variance-reduced estimates, one paragraph per match-up (lines,
    not a table: a table this wide is unreadable in a log)."""
    console.print(
        f"Erd {rules}: equilibrium against the ladder, raw and variance-reduced (return a game:"
        " +1 win, 0 draw, -1 loss; points: a draw counts half; 95% intervals)",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )
    for match, seconds in estimates:
        n = len(match.games)
        lo, hi = wilson_interval(match.wins, n)
        raw, raw_lo, raw_hi = match.raw()
        est, est_lo, est_hi = match.reduced()
        boot_lo, boot_hi = match.reduced_bootstrap()
        terms = [t for g in match.games for t in g.terms]
        gave = sum(g.estimate - g.start_value > 1e-9 for g in match.games)
        console.print(
            f"  vs {match.opponent}: {match.wins} / {match.draws} / {match.losses} of {n}, "
            f"wins {100 * match.wins / n:.1f}% [Wilson {100 * lo:.1f}, {100 * hi:.1f}]; "
            f"raw return {raw:+.4f} [t {raw_lo:+.4f}, {raw_hi:+.4f}]\n"
            f"    estimated return {est:+.4f} [t {est_lo:+.4f}, {est_hi:+.4f}] "
            f"[bootstrap {boot_lo:+.4f}, {boot_hi:+.4f}], as points {100 * points(est):.2f}% "
            f"[t {100 * points(est_lo):.2f}, {100 * points(est_hi):.2f}]; interval "
            f"{(raw_hi - raw_lo) / max(est_hi - est_lo, 1e-12):.1f}x narrower than raw\n"
            f"    {len(terms)} rounds, least term {min(terms):.1e}, {gave} of {n} games with "
            f"something given away; {seconds:.0f} s",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )


def exact_tables(console: Console, solution: Solution, game: ErdGame, rules: str) -> None:
    """Each agent's exploitability, then the exact equilibrium-vs-heuristic line."""
    heuristic = HeuristicAgent(game)
    table = Table(title=f"Erd {rules}: exploitability (best response's gain from the opening)")
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


if __name__ == "__main__":
    main()
