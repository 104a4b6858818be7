"""Load on the game server: many clients on loopback playing random legal moves.

Starts ``meeple serve`` (SQLite in a temporary folder unless ``--db``), creates matches
across all five games with two people each, opens one WebSocket per seat, and plays
random legal moves until every match ends or the time is up. Reports moves/s, the time
from sending a move to its acknowledgement (p50, p99), errors, and lost moves: every
acknowledged move must be in the stored record at the number it was acknowledged with.

    .venv/bin/python benchmarks/server_load.py --matches 100
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from meeple.interfaces.web.client import Client, ServerProcess

GAMES = {
    "edges": {},
    "erd": {},
    "erosion": {},
    "triangle-clock": {"memorise_seconds": 1},
    "squad-combat": {},
}


async def run(url: str, matches: int, seconds: float, seed: int) -> dict:
    """Play ``matches`` matches at once; returns the figures."""
    names = list(GAMES)
    created = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for k in range(matches):
            game = names[k % len(names)]
            reply = await http.post(
                "/api/matches",
                json={"game": game, "options": GAMES[game], "seats": ["human", "human"]},
            )
            reply.raise_for_status()
            created.append(reply.json())
    clients = [
        Client(url, c["match"], s["token"], f"bot{k}")
        for k, c in enumerate(created)
        for s in c["seats"]
    ]
    await asyncio.gather(*(c.connect() for c in clients))
    print(f"{len(clients)} clients connected to {matches} matches", file=sys.stderr)
    start = time.perf_counter()
    tasks = [
        asyncio.create_task(c.play_random(random.Random(seed + k))) for k, c in enumerate(clients)
    ]
    done, pending = await asyncio.wait(tasks, timeout=seconds)
    elapsed = time.perf_counter() - start
    for task in pending:
        task.cancel()
    failures = [t.exception() for t in done if t.exception() is not None]
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)

    lost = 0
    finished = 0
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for c in created:
            summary = (await http.get(f"/api/matches/{c['match']}")).json()
            finished += summary["status"] == "finished"
        # Every acknowledged move is stored at its number: compare with the log the
        # server sends a fresh spectator.
        for c in created:
            watcher = await Client(url, c["match"], None).connect()
            stored = {e["n"]: (e["seat"], e["text"]) for e in watcher.log}
            await watcher.close()
            for client in clients:
                if client.ws_url.endswith(c["match"]):
                    for message in client.messages:
                        if message["type"] == "ack" and message["seq"] not in stored:
                            lost += 1
    latencies = sorted(x for c in clients for x in c.latencies)
    errors = [e for c in clients for e in c.errors]
    stale = [e for e in errors if e.startswith("stale move")]
    return {
        "matches": matches,
        "clients": len(clients),
        "finished": finished,
        "seconds": elapsed,
        "moves": len(latencies),
        "moves_per_s": len(latencies) / elapsed,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else None,
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else None,
        "errors": len(errors) - len(stale) + len(failures),
        "stale_refusals": len(stale),
        "lost": lost,
    }


def main() -> None:
    """Start a server, load it, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=120, help="stop after this long")
    parser.add_argument("--db", help="SQLAlchemy URL (default: SQLite in a temporary folder)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or f"sqlite:///{Path(folder) / 'server.db'}"
        server = ServerProcess(db, Path(folder) / "server.log", agent_workers=1).start()
        try:
            figures = asyncio.run(run(server.url, args.matches, args.seconds, args.seed))
        finally:
            server.stop()
    print(f"server load: {figures['clients']} clients, {figures['matches']} matches ({db})")
    print(f"  finished matches     {figures['finished']} of {figures['matches']}")
    print(f"  moves acknowledged   {figures['moves']} in {figures['seconds']:.1f} s")
    print(f"  moves/s              {figures['moves_per_s']:.0f}")
    print(f"  send -> ack p50      {figures['p50_ms']:.1f} ms")
    print(f"  send -> ack p99      {figures['p99_ms']:.1f} ms")
    print(f"  errors               {figures['errors']}")
    print(f"  stale refusals       {figures['stale_refusals']} (the other seat changed the")
    print("                       position first; the client is sent it again)")
    print(f"  moves lost           {figures['lost']}")
    if figures["errors"] or figures["lost"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
