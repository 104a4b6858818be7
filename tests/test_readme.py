"""Every command the README shows is run, in the order it shows them (issue 55.1).

Shell commands (``$ ...`` lines of its console blocks) run in one temporary folder, as a
newcomer would type them after set-up, each with "quit" on its standard input for the ones
that ask; ``meeple serve`` is started, asked for its lobby and stopped; ``make`` targets are
checked by a dry run (``make test`` is this suite itself). Each Python block runs as a
script. A command that fails, prints a traceback or hangs fails the test.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _blocks(kind: str) -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(rf"```{kind}\n(.*?)```", text, flags=re.S)


def _commands() -> list[str]:
    return [
        line[2:].strip()
        for block in _blocks("console")
        for line in block.splitlines()
        if line.startswith("$ ")
    ]


def _local(command: str) -> str:
    # The README names the venv's programs as a newcomer types them from the checkout.
    return command.replace(".venv/bin/", f"{BIN}/").replace(" examples/", f" {ROOT}/examples/")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["BROWSER"] = "true"  # --open asks the browser; here it is a program that does nothing
    return env


def test_every_readme_command_runs(tmp_path):
    commands = _commands()
    assert len(commands) >= 15
    for command in commands:
        if command.startswith("make "):
            target = command.split()[1]
            done = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True)
            assert done.returncode == 0, (command, done.stderr)
            continue
        if " serve" in command:
            _serve_and_visit(command, tmp_path)
            continue
        started = time.monotonic()
        done = subprocess.run(
            ["bash", "-c", _local(command)], cwd=tmp_path, env=_env(), input="quit\n",
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        output = done.stdout + done.stderr
        assert done.returncode == 0, (command, output[-2000:])
        assert "Traceback" not in output, (command, output[-2000:])
        assert time.monotonic() - started < 300


def _serve_and_visit(command: str, folder: Path) -> None:
    from meeple.interfaces.web.client import free_port

    port = free_port()
    proc = subprocess.Popen(
        ["bash", "-c", f"exec {_local(command)} --port {port}"],
        cwd=folder, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                reply = httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except httpx.HTTPError:
                assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
                time.sleep(0.3)
        assert reply.status_code == 200 and "meeple" in reply.text
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def test_every_readme_python_block_runs(tmp_path):
    blocks = _blocks("python")
    assert blocks
    for number, block in enumerate(blocks):
        script = tmp_path / f"block{number}.py"
        script.write_text(block, encoding="utf-8")
        done = subprocess.run(
            [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
            timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, (block, done.stderr[-2000:])
