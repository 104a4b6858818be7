"""Games per second with random agents, for every game: one process, then --jobs 2.

    .venv/bin/python benchmarks/lab_throughput.py --games 400

The second figure is reported as a ratio to the first, measured in the same run, because
wall-clock times on a shared 2-core machine are noisy.
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.progress import track
from rich.table import Table

import meeple
from meeple.lab.run import RunSpec
from meeple.lab.simulate import run_jobs


def rate(spec: RunSpec, games: int, backend: str, workers: int) -> float:
    """Games per second for ``games`` games of ``spec``."""
    jobs = [spec.job(k) for k in range(games)]
    start = time.perf_counter()
    for _ in track(run_jobs(jobs, backend, workers), total=games, transient=True,  # type: ignore[arg-type]
                   description=f"{spec.game} {backend} x{workers}"):  # fmt: skip
        pass
    return games / (time.perf_counter() - start)


def main() -> None:
    """Measure every registered game and print a table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--only", help="measure one game only")
    args = parser.parse_args()
    table = Table(title=f"random-agent games per second ({args.games} games each)")
    for column in ("game", "1 process", "--jobs 2", "ratio"):
        table.add_column(column)
    for info in meeple.games():
        if args.only and info.name != args.only:
            continue
        players = meeple.make(info.name).num_players
        spec = RunSpec(kind="bench", game=info.name, seatings=[["random"] * players], seed=1)
        one = rate(spec, args.games, "serial", 1)
        two = rate(spec, args.games, "process", 2)
        table.add_row(info.name, f"{one:.0f}", f"{two:.0f}", f"{two / one:.2f}x")
    Console().print(table)


if __name__ == "__main__":
    main()
