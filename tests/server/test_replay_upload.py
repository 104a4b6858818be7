"""An uploaded record is read, checked and replayed outside the server's process.

A record may be 2 MB of JSON: parsing and validating it holds a CPU (and, in C code, the
Python lock) for a long moment. Measured in CPU time, which a loaded machine does not
change: the server's own process spends a small part of what the replay worker spends.
"""

from __future__ import annotations

import json
import os

import httpx

from tests.processes import children


def _cpu_seconds(pid: int) -> float:
    """User and system CPU of a process, every thread of it."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_large_upload_is_parsed_outside_the_server_s_process(server_factory, tmp_path):
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 1)
    url = f"{server.url}/api/replay"
    # The worker starts with the first upload: its start is not what is measured.
    warm = httpx.post(url, json={"game": "edges", "seed": 1, "moves": []}, timeout=120)
    assert warm.status_code == 200, warm.text
    # Just under the 2 MB cap, many small moves: costly to parse, then refused for their
    # count (past --max-match-moves) before any is replayed.
    body = json.dumps({"game": "edges", "seed": 1, "moves": [[0, "z"]] * 195_000}).encode()
    assert 1_800_000 < len(body) < 2_000_000
    pid = server.proc.pid
    workers = children(pid)
    before = _cpu_seconds(pid), sum(_cpu_seconds(w) for w in workers)
    for _ in range(4):
        reply = httpx.post(
            url, content=body, headers={"content-type": "application/json"}, timeout=120
        )
        assert reply.status_code == 413 and reply.json()["code"] == "too_large", reply.text
    server_cpu = _cpu_seconds(pid) - before[0]
    worker_cpu = sum(_cpu_seconds(w) for w in workers) - before[1]
    assert worker_cpu > 0.2, (server_cpu, worker_cpu)
    assert server_cpu < worker_cpu / 2, (server_cpu, worker_cpu)
