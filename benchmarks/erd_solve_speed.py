"""Value iteration for Erd with and without solving each state again on its last support,
in one process: the same model, the same horizon, interleaved repeats.

.venv/bin/python benchmarks/erd_solve_speed.py --rules 0.02 --horizon 40 --repeat 2

For each run: seconds of value iteration, linear programs solved, stage games solved on the
last support instead, and the opening's value. Then the ratio of the medians (programs every
time / with reuse) and the largest difference between the two runs' values over every state
and sweep (the shortcut's answers are checked on the whole matrix, so it stays at round-off).
The model is built once (the engine's part of a solve, the same either way).

With ``--against SRC`` it times whole solves instead: ``meeple solve erd`` into an empty
cache, alternating the meeple this script imports with the one in the source folder SRC (a
worktree's ``src`` of another commit), each in a fresh process; per run the wall-clock and
CPU seconds and the build / value iteration split the command prints, then the medians and
their ratios (SRC / this):

PYTHONPATH=src .venv/bin/python benchmarks/erd_solve_speed.py --rules 0.02 --repeat 3 \
    --against ../main/src
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import meeple
from meeple.solvers.erd.iteration import Solution, value_iteration
from meeple.solvers.erd.model import build_model
from meeple.solvers.erd.solve import game_for, solved_options


def main() -> None:
    """Parse the arguments, build the model, time both ways and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="0.02", help="original, 0.01 or 0.02")
    parser.add_argument("--horizon", type=int, default=40, help="round limit solved for")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each way, interleaved")
    parser.add_argument("--against", help="time whole solves against the meeple in this src")
    args = parser.parse_args()
    if args.against:
        whole_solves(args.rules, args.repeat, Path(args.against))
        return
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


# The command's line "solved in T s: B s building states with the engine, V s of value
# iteration" (wrapped wherever the console is narrow).
_SPLIT = re.compile(r"([\d.]+)\s+s\s+building\s+states.*?([\d.]+)\s+s\s+of\s+value", re.S)


def whole_solves(rules: str, repeat: int, against: Path) -> None:
    """Time ``meeple solve erd --rules RULES`` into an empty cache with this meeple and the one
    in ``against``, alternately, and print each run and the ratios of the medians."""
    trees = {"this": Path(meeple.__file__).parents[1], "against": against.resolve()}
    runs: dict[str, list[tuple[float, float, float, float]]] = {name: [] for name in trees}
    command = [sys.executable, "-c", "from meeple.interfaces.cli import main; main()"]
    for _ in range(repeat):
        for name, src in trees.items():
            with tempfile.TemporaryDirectory() as cache:
                env = {**os.environ, "PYTHONPATH": str(src), "MEEPLE_CACHE_DIR": cache}
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                started = time.perf_counter()
                out = subprocess.run(
                    [*command, "solve", "erd", "--rules", rules],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
                wall = time.perf_counter() - started
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            split = _SPLIT.search(out)
            if split is None:
                raise SystemExit(f"no build / value iteration split in the output:\n{out}")
            build, iteration = float(split[1]), float(split[2])
            runs[name].append((wall, cpu, build, iteration))
            print(f"  {name} ({src}): {wall:6.1f} s wall, {cpu:6.1f} s CPU, "
                  f"{build:5.1f} s building, {iteration:5.1f} s of value iteration")  # fmt: skip
    for k, what in enumerate(("wall", "CPU", "building", "value iteration")):
        this, other = (statistics.median(r[k] for r in runs[n]) for n in ("this", "against"))
        print(f"{what}: median {other:.1f} s against, {this:.1f} s this: {other / this:.2f}x")


if __name__ == "__main__":
    main()
