"""Every command the README shows is run, in the order it shows them (issue 55.1).

Shell commands (``$ ...`` lines of its console blocks) run as a newcomer would type them
after set-up, each with "quit" on its standard input for the ones that ask; ``meeple
serve`` is started, asked for its lobby and stopped; ``make`` targets are checked by a dry
run (``make test`` is this suite itself). Each Python block runs as a script. A command
that fails, prints a traceback or hangs fails the test.

The commands are split into chains, one test each, so that a parallel run spreads them
over its workers: a command that reads what an earlier one wrote (a saved game, a run id,
a copied folder, a proof's checkpoint: :data:`NEEDS`) runs after it, in the same folder,
in the README's order; every other command is a chain of its own.
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
import pytest

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


NEEDS = (
    ("game.json", "--save game.json"),
    ("clock.json", "--save clock.json"),
    ("5c53e5", "simulate triangle-clock"),
    ("content check", "content copy"),
    ("--check", "--prove"),
    # The games played here: the saved Edges game among them.
    ("meeple history", "--save game.json"),
    # Every stored run: those of the runs above it.
    ("meeple results", "meeple simulate edges"),
    ("meeple results", "meeple compare"),
    ("meeple results", "meeple tournament"),
)
"""(part of a command, part of an earlier command it needs): the second writes something the
first reads (or lists), so both run in one chain, in one folder."""


def _chains(commands: list[str]) -> list[list[str]]:
    """The commands grouped by :data:`NEEDS` (joined transitively), each chain in README
    order, the chains in the order of their first command."""
    chain_of = list(range(len(commands)))

    def root(i: int) -> int:
        while chain_of[i] != i:
            i = chain_of[i]
        return i

    for i, command in enumerate(commands):
        for reads, writer in NEEDS:
            if reads not in command:
                continue
            earlier = [j for j in range(i) if writer in commands[j]]
            # A command with no earlier writer is the writer itself (``--save game.json``).
            assert earlier or writer in command, f"{command!r} needs an earlier {writer!r}"
            for j in earlier:
                chain_of[root(i)] = root(j)
    chains: dict[int, list[str]] = {}
    for i, command in enumerate(commands):
        chains.setdefault(root(i), []).append(command)
    return list(chains.values())


def _chain_id(chain: list[str]) -> str:
    first = chain[0].split("#")[0].strip().removeprefix(".venv/bin/")
    return first + (f" (+{len(chain) - 1})" if len(chain) > 1 else "")


CHAINS = _chains(_commands())


def test_the_readme_shows_its_commands_and_each_is_in_one_chain():
    commands = _commands()
    assert len(commands) >= 15
    assert sorted(c for chain in CHAINS for c in chain) == sorted(commands)
    for chain in CHAINS:  # each in the README's order
        assert [commands.index(c) for c in chain] == sorted(commands.index(c) for c in chain)
    assert len(CHAINS) > 1


@pytest.mark.parametrize("chain", CHAINS, ids=[_chain_id(c) for c in CHAINS])
def test_every_readme_command_runs(tmp_path, chain):
    for command in chain:
        _run_command(command, tmp_path)


def _run_command(command: str, folder: Path) -> None:
    if command.startswith("make "):
        target = command.split()[1]
        done = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 0, (command, done.stderr)
        return
    if " serve" in command:
        _serve_and_visit(command, folder)
        return
    started = time.monotonic()
    done = subprocess.run(
        ["bash", "-c", _local(command)], cwd=folder, env=_env(), input="quit\n",
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
