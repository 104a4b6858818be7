"""Each test's start, end and CPU over a run of the suite, and what they add up to.

    PYTHONPATH=benchmarks .venv/bin/pytest -p suite_timeline -n 2 --dist worksteal -q
    .venv/bin/python benchmarks/suite_timeline.py

As a pytest plugin (``-p suite_timeline``, found on ``PYTHONPATH``) it appends a line per
test to ``TIMELINE`` (``timeline.jsonl`` unless the environment names another file): the
xdist worker, the test, its start and end (wall clock) and the CPU seconds its worker spent
on it, its own (``cpu``) and its waited-for children's (``child``: a command the test ran
and waited for; a server or browser it started and left running is not counted, see
``suite_cpu.py``). Run as a script it reads that file and prints when each worker started
and ended (a worker that ends long before the others left a core idle: the run's tail) and
the wall and CPU seconds by test folder and by test file. Remove the file before a new run:
lines are appended.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TIMELINE = Path(os.environ.get("TIMELINE", "timeline.jsonl"))


def _cpu() -> tuple[float, float]:
    """CPU seconds (user and system) of this process, and of its waited-for children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Time one test, its set-up and tear-down included, and append its line."""
    start, (own, children) = time.time(), _cpu()
    yield
    end, (own_after, children_after) = time.time(), _cpu()
    line = {
        "worker": os.environ.get("PYTEST_XDIST_WORKER", "-"),
        "test": item.nodeid,
        "start": start,
        "end": end,
        "cpu": own_after - own,
        "child": children_after - children,
    }
    with TIMELINE.open("a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


def _table(title: str, rows: dict[str, list[float]], top: int) -> None:
    print(f"\n| {title} | tests | wall s | CPU s | children's CPU s |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for key, (count, wall, cpu, child) in sorted(rows.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"| {key} | {count:.0f} | {wall:.1f} | {cpu:.1f} | {child:.1f} |")


def summary(lines: list[dict[str, Any]], top: int) -> None:
    """Print the workers' spans, and the tests' wall and CPU by folder and by file."""
    first = min(line["start"] for line in lines)
    workers: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in lines:
        workers[line["worker"]].append(line)
    print("| worker | tests | first start s | last end s | busy s |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for worker, own in sorted(workers.items()):
        start = min(line["start"] for line in own) - first
        end = max(line["end"] for line in own) - first
        busy = sum(line["end"] - line["start"] for line in own)
        print(f"| {worker} | {len(own)} | {start:.1f} | {end:.1f} | {busy:.1f} |")
    folders: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for line in lines:
        path = line["test"].split("::")[0]
        for key, rows in ((str(Path(path).parent), folders), (path, files)):
            row = rows[key]
            row[0] += 1
            row[1] += line["end"] - line["start"]
            row[2] += line["cpu"]
            row[3] += line["child"]
    _table("folder", folders, top)
    _table("file", files, top)


def main() -> None:
    """Read the timeline file and print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file", nargs="?", type=Path, default=TIMELINE, help="the timeline")
    parser.add_argument("--top", type=int, default=30, help="rows of each table")
    args = parser.parse_args()
    lines = [json.loads(text) for text in args.file.read_text(encoding="utf-8").splitlines()]
    if not lines:
        raise SystemExit(f"{args.file} has no tests in it")
    summary(lines, args.top)


if __name__ == "__main__":
    main()
