"""What one of httpx's one-off requests costs in CPU, with a TLS context of its own (as
``httpx.get`` builds for every call) and with one shared context (``tests/plain_http.py``).

    .venv/bin/python benchmarks/http_client.py --requests 200

A real ``meeple serve`` (SQLite, no agent workers) answers ``GET /api/games`` on loopback,
plain HTTP, ``--requests`` times each way; the table gives this process's CPU milliseconds a
request, and their ratio. The difference is all the context: the certificates the system
holds, read and parsed again for a request that never uses them.
"""

from __future__ import annotations

import argparse
import ssl
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import httpx

from meeple.interfaces.web.client import ServerProcess


def _cpu_ms_each(request: Callable[[], httpx.Response], count: int) -> float:
    """CPU milliseconds of this process per call of ``request`` (each must answer 200)."""
    start = time.process_time()
    for _ in range(count):
        if request().status_code != 200:
            raise RuntimeError("the server did not answer 200")
    return (time.process_time() - start) * 1000 / count


def main(argv: Sequence[str] | None = None) -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200, help="requests each way")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(
            f"sqlite:///{Path(folder) / 'server.db'}", Path(folder) / "server.log", 0
        ).start()
        try:
            url = f"{server.url}/api/games"
            shared = ssl.create_default_context()
            own = _cpu_ms_each(lambda: httpx.get(url), args.requests)
            one = _cpu_ms_each(lambda: httpx.get(url, verify=shared), args.requests)
        finally:
            server.kill()
    print("| request | CPU ms each |")
    print("|---|---:|")
    print(f"| `httpx.get(url)` (a TLS context each) | {own:.1f} |")
    print(f"| `httpx.get(url, verify=shared)` | {one:.1f} |")
    print(f"\nratio: {own / one:.1f}x the CPU with a context each")


if __name__ == "__main__":
    main()
