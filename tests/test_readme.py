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

from tests import plain_http

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


def _shown() -> dict[str, list[str]]:
    """Each command of the console blocks with the lines the README shows it printing: those
    between it and the next ``$`` line or the block's end."""
    shown: dict[str, list[str]] = {}
    for block in _blocks("console"):
        command = None
        for line in block.splitlines():
            if line.startswith("$ "):
                command = line[2:].strip()
                shown[command] = []
            elif command is not None and line.strip():
                shown[command].append(line)
    return shown


SHOWN = _shown()


def _normal(line: str) -> str:
    # A duration is the machine's, not the command's: "edges: 1.4 s" stands for any time.
    line = re.sub(r"\b\d+(?:\.\d+)? s\b", "N s", line)
    return " ".join(line.split())


def _check_shown(command: str, output: str) -> None:
    """Every line the README shows a command printing is a whole line of what it printed
    (spacing and durations aside), so a figure or a sentence the README quotes is the
    command's own."""
    printed = {_normal(line) for line in output.splitlines()}
    for line in SHOWN.get(command, []):
        assert _normal(line) in printed, (command, line, output[-3000:])


def _local(command: str) -> str:
    # The README names the venv's programs as a newcomer types them from the checkout.
    return command.replace(".venv/bin/", f"{BIN}/").replace(" examples/", f" {ROOT}/examples/")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["BROWSER"] = "true"  # --open asks the browser; here it is a program that does nothing
    env["COLUMNS"] = "200"  # tables and sentences on one line each, as the README shows them
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
    assert len(SHOWN) == len(commands), "a command is shown twice: which output is whose?"
    assert any(SHOWN.values()), "the README shows no command's output"


@pytest.mark.parametrize(
    ("line", "same"),
    [
        ("edges: 1.4 s", "edges: 0.0 s"),
        ("│    3 │ Tick │", "│ 3 │ Tick │"),
        ("value +0 (first player", "value  +0  (first player"),
    ],
)
def test_a_shown_line_stands_for_the_same_line_spaced_or_timed_otherwise(line, same):
    assert _normal(line) == _normal(same)
    assert _normal("a loss to +1 a win") != _normal("a loss to +1 a win, for ismcts 200")


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
    _check_shown(command, output)


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
                reply = plain_http.get(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except httpx.HTTPError:
                assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
                time.sleep(0.3)
        assert reply.status_code == 200 and "meeple" in reply.text
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    # The README shows the default port; this server had a free one.
    output = proc.stdout.read() if proc.stdout else ""
    _check_shown(command, output.replace(f":{port} ", ":8000 "))


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
