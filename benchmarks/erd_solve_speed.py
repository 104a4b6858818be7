"""Value iteration for Erd with and without solving each state again on its last support,
in one process: the same model, the same horizon, interleaved repeats.

.venv/bin/python benchmarks/erd_solve_speed.py --rules 0.02 --horizon 40 --repeat 2

For each run: seconds of value iteration, linear programs solved, stage games solved on the
last support instead, and the opening's value. Then the ratio of the medians (programs every
time / with reuse) and the largest difference between the two runs' values over every state
and sweep (the shortcut's answers are checked on the whole matrix, so it stays at round-off).
The model is built once (the engine's part of a solve, the same either way).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from meeple.solvers.erd.iteration import Solution, value_iteration
from meeple.solvers.erd.model import build_model
from meeple.solvers.erd.solve import game_for, solved_options


def main() -> None:
    """Parse the arguments, build the model, time both ways and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="0.02", help="original, 0.01 or 0.02")
    parser.add_argument("--horizon", type=int, default=40, help="round limit solved for")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each way, interleaved")
    args = parser.parse_args()
    play, _ = solved_options({"rules": args.rules})
    started = time.perf_counter()
    model = build_model(game_for(play))
    print(f"Erd {args.rules}: {len(model.states)} states, built in "
          f"{time.perf_counter() - started:.1f} s; horizon {args.horizon}")  # fmt: skip
    seconds: dict[bool, list[float]] = {False: [], True: []}
    last: dict[bool, Solution] = {}
    for _ in range(args.repeat):
        for reuse in (False, True):
            solution = value_iteration(model, args.horizon, reuse=reuse)
            seconds[reuse].append(solution.seconds)
            last[reuse] = solution
            print(
                f"  {'reuse' if reuse else 'programs'}: {solution.seconds:6.2f} s, "
                f"{solution.programs:,} programs, {solution.reused:,} on the last support, "
                f"opening {solution.opening_value:+.12f}"
            )
    ratio = statistics.median(seconds[False]) / statistics.median(seconds[True])
    difference = max(
        float(np.abs(a - b).max())
        for a, b in zip(last[False].values, last[True].values, strict=True)
    )
    print(f"reuse is {ratio:.1f}x as fast; largest difference of a value: {difference:.1e}")


if __name__ == "__main__":
    main()
