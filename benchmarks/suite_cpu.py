"""Where a command's CPU goes, by kind of process: what `time` cannot say about the suite.

    .venv/bin/python benchmarks/suite_cpu.py -- make test

Runs the command and, every ``--every`` seconds until it ends, reads every process's CPU
seconds (user and system) from ``/proc``, so processes the command starts and never waits
for (Chromium's renderers, PostgreSQL, a server's agent workers) are counted, unlike in
``time``'s children total. A process is counted up to the last look before it ended; one
that starts and ends between two looks is missed (a few milliseconds each). Every process
of the machine is counted (a server started by ``pg_ctl`` is no descendant of the
command), so run it on an otherwise idle machine. The table sums the CPU seconds per kind
of process (the test workers, ``meeple serve`` and its agent workers, Chromium,
PostgreSQL, other ``meeple`` commands, ...), with the whole machine's busy CPU seconds
(``/proc/stat``) over the same time, and the wall time. Linux only.

The speed of a shared machine changes from minute to minute (a fixed workload's CPU time
has varied by half on this project's machine within a minute), so a figure from another
run says little about the command alone. Every ``--probe`` seconds the monitor times a
fixed pure-Python workload that no source of meeple changes (about 0.06 s of CPU on an
idle machine; CPU time, so waiting for a core does not count), and the table's last line
gives the run's probes and its busy CPU and wall time in units of their median. The median
says how fast the machine ran; the units do not make two runs comparable (clean clones of
nearly the same suite: 47,129 and 62,000 probes of CPU on two days, 57,684 and 62,000 on
one day where their CPU seconds were 3% apart): compare runs made close together.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def probe() -> float:
    """The CPU seconds a fixed workload takes now: dictionaries, strings, random numbers and
    a loop, as the tests' readable rules use them."""
    start = time.process_time()
    rng = random.Random(0)
    table: dict[str, int] = {}
    for i in range(60_000):
        key = str(rng.randrange(5000))
        table[key] = table.get(key, 0) + i % 7
    sorted(table.items())
    return time.process_time() - start


def kind(command: str, parent: str) -> str:
    """The kind of process a command line is (``parent``: its parent's command line)."""
    if "multiprocessing" in command:
        return f"worker of {kind(parent, '')}"
    if "chromium" in command:
        # Chromium's process model: the browser (no --type), renderers, the GPU process, ...
        types = [part[len("--type=") :] for part in command.split() if part.startswith("--type=")]
        if "crashpad" in command.split(" ")[0]:
            types = ["crash reporter"]
        return f"chromium {types[0] if types else 'browser'}"
    if "playwright" in command:
        return "playwright driver"
    if "execnet" in command or "-u -c" in command:
        return "pytest worker"
    if "pytest" in command.split(" ")[0] or " -m pytest" in command:
        return "pytest"
    if "meeple serve" in command:
        return "meeple serve"
    if "/meeple " in command or command.startswith("meeple "):
        return f"meeple {command.split('meeple ', 1)[1].split(' ')[0]}"
    # After the commands: a server's command line may name a PostgreSQL database.
    if "postgres" in command:
        return "postgresql"
    if "ray" in command:
        return "ray"
    if "pip" in command:
        return "pip"
    name = command.split(" ")[0].rsplit("/", 1)[-1]
    return name or "other"


def _read(pid: str) -> tuple[str, int, float]:
    """(command line, parent pid, CPU seconds) of a live process."""
    raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    command = raw.replace(b"\0", b" ").decode(errors="replace")
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rfind(")") + 2 :].split()
    return command.strip(), int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS


def _running() -> list[tuple[tuple[str, str], float]]:
    """((pid, start time), CPU seconds) of every live process: a pid and its start time
    name one process, whatever reuses the pid later."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        found.append(((pid, fields[19]), (int(fields[11]) + int(fields[12])) / TICKS))
    return found


def _busy() -> float:
    """The machine's busy CPU seconds since boot (every state but idle and iowait)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(values[:8]) - values[3] - values[4]) / TICKS


def main() -> None:
    """Run the command and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--every", type=float, default=0.5, help="seconds between looks")
    parser.add_argument("--probe", type=float, default=20, help="seconds between probes")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    args = parser.parse_args()
    command = [c for c in args.command if c != "--"] or ["make", "test"]
    # CPU already spent by the processes running now, which the table leaves out.
    before = {key: cpu for key, cpu in _running()}
    seen: dict[tuple[str, str], list] = {}
    probes = [probe()]
    started, busy = time.monotonic(), _busy()
    proc = subprocess.Popen(command)
    probed = started
    while proc.poll() is None:
        if time.monotonic() - probed >= args.probe:
            probes.append(probe())
            probed = time.monotonic()
        for key, cpu in _running():
            if key in seen:
                seen[key][1] = cpu
                continue
            try:
                line, parent, _ = _read(key[0])
                parent_line = _read(str(parent))[0] if parent > 1 else ""
            except OSError:  # ended while we looked
                continue
            seen[key] = [kind(line, parent_line), cpu, before.get(key, 0.0)]
        time.sleep(args.every)
    wall, busy = time.monotonic() - started, _busy() - busy
    probes.append(probe())
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for what, cpu, base in seen.values():
        totals[what][0] += cpu - base
        totals[what][1] += 1
    cores = f"{busy / wall:.2f} cores of {os.cpu_count()}"
    print(f"\n`{' '.join(command)}`: exit {proc.returncode}, {wall:.0f} s wall")
    print(f"machine busy {busy:.0f} CPU-s ({cores})")
    unit = statistics.median(probes)
    print(
        f"{len(probes)} probes, median {unit * 1000:.0f} ms (from {min(probes) * 1000:.0f} to"
        f" {max(probes) * 1000:.0f}): busy {busy / unit:,.0f} probes, wall {wall / unit:,.0f}"
    )
    print("| kind of process | processes | CPU s |")
    print("| --- | ---: | ---: |")
    for what, (cpu, count) in sorted(totals.items(), key=lambda item: -item[1][0]):
        if cpu >= 1:
            print(f"| {what} | {count} | {cpu:.0f} |")
    sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
