"""Memory an unfinished match holds in the server: what `--max-unfinished-matches` costs.

Starts ``meeple serve`` (SQLite in a temporary folder, its per-address limits lifted),
creates ``--matches`` unfinished matches of each game at its largest table (every seat a
person's, so nobody moves and each stays in memory), and prints the growth of the server's
resident memory per match, one Markdown row per game.

    .venv/bin/python benchmarks/match_memory.py --matches 200
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import httpx

from meeple.interfaces.web.client import ServerProcess

TABLES = {
    "edges": ({"board": "5x5", "double": True}, 4),
    "erd": ({}, 2),
    "erosion": ({"players": 5}, 5),
    "squad-combat": ({"players": 4}, 4),
    "triangle-clock": ({}, 2),
}
"""Each game at its largest table: its options and its seats."""


def resident_mb(pid: int) -> float:
    """The process's resident memory (Linux ``/proc``), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS line: this benchmark reads Linux's /proc")


def main() -> None:
    """Create the matches game by game and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200, help="matches of each game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        limit = str(args.matches * len(TABLES) + 1)
        server = ServerProcess(
            f"sqlite:///{folder}/server.db",
            Path(folder) / "server.log",
            0,
            ("--max-unfinished-matches", limit),
        ).start()
        assert server.proc is not None
        try:
            print(f"| game (seats) | MB per unfinished match ({args.matches} matches) |")
            print("| --- | ---: |")
            with httpx.Client(base_url=server.url, timeout=60) as http:
                for game, (options, seats) in TABLES.items():
                    body = {"game": game, "options": options, "seats": ["human"] * seats}
                    before = resident_mb(server.proc.pid)
                    for _ in range(args.matches):
                        http.post("/api/matches", json=body).raise_for_status()
                    grown = resident_mb(server.proc.pid) - before
                    print(f"| {game} ({seats}) | {grown / args.matches:.3f} |", flush=True)
        finally:
            server.kill()


if __name__ == "__main__":
    main()
