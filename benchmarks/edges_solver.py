"""Edges solver speed: time and nodes to solve random 3x4 positions exactly.

    .venv/bin/python benchmarks/edges_solver.py --left 16 18 --positions 5

Positions come from random play (seeded by ``--seed`` and the position's number) on the
standard 3x4 board with 5/5/5 stashes, stopped with ``--left`` pyramids still to place. Each
is solved from an empty transposition table (one core); one line per position is printed as
it finishes, then a summary per ``--left`` with nodes by pyramids left and the effective
branching factor (nodes ** (1 / depth)).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import meeple
from meeple.solvers.edges_solver import EdgesSolver, random_position, table_bits


def main() -> None:
    """Solve the positions and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="3x4")
    parser.add_argument("--left", type=int, nargs="+", default=[16, 18])
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument(
        "--start", type=int, default=0, help="number of the first position (to split a run)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--tt-bits", type=int, default=None, help="table of 2**bits entries (default: by --left)"
    )
    args = parser.parse_args()
    game = meeple.make("edges", board=args.board, pie=False, first=0)
    warm = random_position(game, 8, random.Random(-1))
    EdgesSolver(game.board, tt_bits=16).search(warm)  # compile (or load the cache) untimed
    for left in args.left:
        bits = table_bits(left) if args.tt_bits is None else args.tt_bits
        solver = EdgesSolver(game.board, tt_bits=bits)
        print(f"left={left}: table of 2^{bits} entries", flush=True)
        times, rates, by_left = [], [], [0] * (game.board.num_edges + 1)
        for k in range(args.start, args.start + args.positions):
            state = random_position(game, left, random.Random(f"{args.seed}-{left}-{k}"))
            solver.clear()
            solver.stats.nodes, solver.stats.seconds = 0, 0.0
            solver.stats.by_left = [0] * (game.board.num_edges + 1)
            start = time.perf_counter()
            value = solver.solve(state)
            elapsed = time.perf_counter() - start
            times.append(elapsed)
            rates.append(solver.stats.nodes / elapsed)
            by_left = [a + b for a, b in zip(by_left, solver.stats.by_left, strict=True)]
            print(
                f"left={left} position={k} value={value:+d} nodes={solver.stats.nodes} "
                f"time={elapsed:.2f}s nodes/s={solver.stats.nodes / elapsed:,.0f}",
                flush=True,
            )
        nodes = sum(by_left)
        print(
            f"SUMMARY left={left} positions={args.positions} "
            f"median_time={statistics.median(times):.2f}s "
            f"max_time={max(times):.2f}s mean_nodes={nodes / args.positions:,.0f} "
            f"nodes/s={statistics.mean(rates):,.0f} "
            f"ebf={(nodes / args.positions) ** (1 / left):.2f}",
            flush=True,
        )
        print(f"  nodes by pyramids left (summed): {dict(enumerate(by_left))}", flush=True)


if __name__ == "__main__":
    main()
