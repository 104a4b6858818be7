"""The lab against the engine: stored games per second next to raw random playouts.

    .venv/bin/python benchmarks/lab_throughput.py --seconds 3 --repeat 3

For every game, with a random agent in every seat, one run measures:

* rules: random playouts through the public API (``meeple.make``, ``new_game``,
  ``legal_actions``, ``apply``) and nothing else: the speed of the rules;
* play_game: ``meeple.agents.play_game`` with random agents (observations, the record);
* ``--jobs 1`` and ``--jobs 2``: what ``meeple simulate`` does to store games
  (``lab.run.execute`` into a new SQLite database, then the JSONL file), serial and with a
  pool of two worker processes.

Each game gets the number of games raw playouts finish in ``--seconds``; the four are
measured one after another, ``--repeat`` times, and the table shows the median of each
ratio with its range over the repetitions. Wall-clock figures on a shared machine are
noisy; ratios measured side by side are what to compare, and the CPU-time ratios (the
process's own CPU seconds) are the steadier ones where other work shares the cores. The
last columns say where the CPU time of ``--jobs 2`` goes: the main process (receiving rows,
writing the database and the JSONL file) and the two workers together, in CPU seconds per
1,000 games; the main process's share is what competes with the workers for two cores. The
command's own start-up, the summary and the report are fixed costs per run and are timed
apart (``--command``).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

import meeple
from meeple.agents import RandomAgent, play_game
from meeple.lab import simulate
from meeple.lab.run import RunSpec, execute, write_jsonl
from meeple.lab.simulate import GameJob
from meeple.store import ResultStore


@dataclass
class Rate:
    """Games per second by the wall clock, and per second of this process's CPU time (which
    other work on a shared machine disturbs much less; it leaves out worker processes)."""

    wall: float
    cpu: float
    all_cpu: float
    """Per second of CPU time of this process and the worker processes it waited for."""

    @property
    def main_ms(self) -> float:
        """This process's CPU seconds per 1,000 games."""
        return 1000 / self.cpu

    @property
    def workers_ms(self) -> float:
        """The worker processes' CPU seconds per 1,000 games."""
        return 1000 / self.all_cpu - 1000 / self.cpu


@contextmanager
def timed(games: int, out: list[Rate]) -> Iterator[None]:
    """Time the block and append its :class:`Rate` to ``out``."""
    wall, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
    yield
    cpu = time.process_time() - cpu
    out.append(
        Rate(
            games / (time.perf_counter() - wall),
            games / cpu,
            games / (cpu + _children_cpu() - children),
        )
    )


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def raw_rates(name: str, games: int, out: list[Rate], seed: int = 0) -> None:
    """Random playouts through the public API: the rules and nothing else."""
    game = meeple.make(name)
    rng = random.Random(seed)
    with timed(games, out):
        for k in range(games):
            state = game.new_game(seed + k)
            while not state.is_over:
                player = state.to_act[0]
                state = state.apply(player, rng.choice(state.legal_actions(player)))


def playout_rates(name: str, games: int, out: list[Rate], seed: int = 0) -> None:
    """``meeple.agents.play_game`` with a random agent in every seat (the agents see
    observations and the game keeps its record, as in every interface)."""
    game = meeple.make(name)
    with timed(games, out):
        for k in range(games):
            agents = [RandomAgent(game, seed + k * 8 + p) for p in range(game.num_players)]
            play_game(game, agents, seed + k)


def lab_rates(spec: RunSpec, games: int, jobs: int, out: list[Rate]) -> None:
    """The lab playing and storing games (database and JSONL), as ``meeple simulate`` does."""
    with tempfile.TemporaryDirectory() as folder:
        store = ResultStore(f"sqlite:///{folder}/results.db")
        backend = "process" if jobs > 1 else "serial"
        with timed(games, out):
            rows = execute(spec, games, store, backend=backend, workers=jobs)
            write_jsonl(rows, Path(folder) / "rows.jsonl")
        store.engine.dispose()
    if len(rows) != games:
        raise SystemExit(f"{spec.game}: {len(rows)} rows stored of {games}")


def fixed(jobs: list[GameJob], workers: int) -> list[list[GameJob]]:
    """The batches of commit 9a08cb4: all of one size, an eighth of a worker's share."""
    size = max(1, min(50, len(jobs) // (workers * 8) or 1))
    return [jobs[i : i + size] for i in range(0, len(jobs), size)]


def _stamped(batch: list[GameJob]) -> tuple[int, float, int]:
    rows = simulate.play_jobs(batch)
    return os.getpid(), time.perf_counter(), len(rows)


def tail_share(spec: RunSpec, games: int, rule: Callable[..., list[list[GameJob]]]) -> float:
    """The share of a two-worker run during which one worker has finished and the other
    still plays its last batch: the batches of ``rule``, in the pool ``run_jobs`` uses."""
    jobs = [spec.job(k) for k in range(games)]
    last: dict[int, float] = {}
    start = time.perf_counter()
    with ProcessPoolExecutor(2, initializer=simulate._start_worker) as pool:
        for pid, when, _ in pool.map(_stamped, rule(jobs, 2)):
            last[pid] = max(last.get(pid, 0.0), when)
    wall = time.perf_counter() - start
    return (max(last.values()) - min(last.values())) / wall


def command_seconds(name: str, games: int) -> float:
    """Wall time of the whole ``meeple simulate`` command (start-up, summary and report)."""
    meeple_bin = str(Path(sys.executable).with_name("meeple"))
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        subprocess.run(
            [meeple_bin, "simulate", name, "--seat", "random", "--games", str(games),
             "--db", f"sqlite:///{folder}/r.db", "--out", folder],
            check=True, capture_output=True,
        )  # fmt: skip
        return time.perf_counter() - start


def spread(values: list[float], unit: str = "x") -> str:
    """Median and range, e.g. ``0.62x (0.58-0.66)``."""
    if len(values) == 1:
        return f"{values[0]:.2f}{unit}"
    return f"{statistics.median(values):.2f}{unit} ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    """Measure every registered game and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="raw playing time per game")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved repetitions")
    parser.add_argument("--only", action="append", help="measure this game only (repeatable)")
    parser.add_argument("--command", action="store_true", help="also time the whole command")
    parser.add_argument(
        "--games", type=int, help="play this many games of each game (not --seconds' worth)"
    )
    parser.add_argument(
        "--tail",
        action="store_true",
        help="also measure how long a worker of --jobs 2 idles at the end, by batch rule",
    )
    args = parser.parse_args()
    console = Console(width=250)
    table = Table(title=f"random seats; medians of {args.repeat} repetitions (range)")
    for column in ("game", "games", "rules/s", "play_game/s", "--jobs 1/s", "--jobs 2/s",
                   "jobs 1 / rules", "jobs 1 / rules, CPU", "jobs 1 / play_game, CPU",
                   "jobs 2 / jobs 1", "jobs 2 / jobs 1, CPU est.",
                   "CPU s / 1000 games, jobs 1", "main CPU s / 1000, jobs 2",
                   "workers CPU s / 1000, jobs 2"):  # fmt: skip
        table.add_column(column, justify="right" if column != "game" else "left")
    for info in meeple.games():
        if args.only and info.name not in args.only:
            continue
        players = meeple.make(info.name).num_players
        spec = RunSpec(kind="simulate", game=info.name, seatings=[["random"] * players], seed=1)
        # Warm up every side (imports, the game's caches) before anything is timed.
        pilot: list[Rate] = []
        raw_rates(info.name, 5, pilot)
        playout_rates(info.name, 5, [])
        lab_rates(spec, 5, 1, [])
        raw_rates(info.name, max(5, int(pilot[0].wall / 4)), pilot)
        games = args.games or max(50, int(pilot[-1].wall * args.seconds))
        raws: list[Rate] = []
        plays: list[Rate] = []
        ones: list[Rate] = []
        twos: list[Rate] = []
        for rep in range(args.repeat):
            raw_rates(info.name, games, raws, seed=1000 * rep)
            playout_rates(info.name, games, plays, seed=1000 * rep)
            lab_rates(spec, games, 1, ones)
            lab_rates(spec, games, 2, twos)
            console.print(
                f"{info.name} #{rep + 1}: rules {raws[-1].wall:.0f}/s, play_game "
                f"{plays[-1].wall:.0f}/s, --jobs 1 {ones[-1].wall:.0f}/s "
                f"({ones[-1].wall / raws[-1].wall:.2f}x rules, CPU "
                f"{ones[-1].cpu / raws[-1].cpu:.2f}x), --jobs 2 {twos[-1].wall:.0f}/s "
                f"({twos[-1].wall / ones[-1].wall:.2f}x --jobs 1; main process "
                f"{twos[-1].main_ms:.3f} CPU s per 1000 games)"
            )
        table.add_row(
            info.name,
            str(games),
            *(f"{statistics.median(r.wall for r in x):.0f}" for x in (raws, plays, ones, twos)),
            spread([o.wall / r.wall for o, r in zip(ones, raws, strict=True)]),
            spread([o.cpu / r.cpu for o, r in zip(ones, raws, strict=True)]),
            spread([o.cpu / p.cpu for o, p in zip(ones, plays, strict=True)]),
            spread([t.wall / o.wall for t, o in zip(twos, ones, strict=True)]),
            # Two free cores would share the CPU time of --jobs 2 (workers and the main
            # process) between them: the speed-up that time allows, measured without them.
            spread([2 * t.all_cpu / o.cpu for t, o in zip(twos, ones, strict=True)]),
            spread([o.main_ms for o in ones], ""),
            spread([t.main_ms for t in twos], ""),
            spread([t.workers_ms for t in twos], ""),
        )
        if args.tail:
            for label, rule in (("shrinking batches", simulate._batches), ("fixed", fixed)):
                shares = [tail_share(spec, games, rule) for _ in range(args.repeat)]
                console.print(
                    f"{info.name}, {label}: one worker idle at the end for "
                    f"{spread([100 * s for s in shares], '%')} of the --jobs 2 run"
                )
        if args.command:
            one = command_seconds(info.name, 1)
            console.print(f"{info.name}: the whole command for 1 game takes {one:.1f} s")
    console.print(table)
    console.print("command: " + " ".join(["benchmarks/lab_throughput.py", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
