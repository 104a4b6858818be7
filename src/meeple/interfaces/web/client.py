"""A Python client for the game server: one WebSocket, every message kept.

Tests, the load benchmark and bots use it; it speaks the protocol of docs/api.md and
can play random legal moves. It needs the ``websockets`` package (installed with meeple).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, Protocol

import httpx
import websockets

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium: the browser the benchmarks drive through Playwright
(``executable_path``), and the page tests where its headless shell is not installed; none is
downloaded."""

HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
"""The same Chromium built for headless use alone (Debian's ``chromium-headless-shell``, of
the same source and version): the build Playwright itself drives for headless runs. It
draws pages as Chromium does with less of a browser around them, and the page tests drive
it where it is installed: two thirds of the CPU of ``CHROMIUM``'s processes over the same
tests (``benchmarks/suite_cpu.py``, docs/contributing.md)."""


def driven_chromium() -> Path:
    """The Chromium the page tests drive: :data:`HEADLESS_SHELL` where installed, else
    :data:`CHROMIUM` (which may be missing too: the tests then skip)."""
    return HEADLESS_SHELL if HEADLESS_SHELL.exists() else CHROMIUM


CHROMIUM_ARGS = ("--no-sandbox", "--disable-background-networking", "--disable-gpu")
"""How they start it: headless as root (no sandbox), making no connections of its own (a
closed network refuses them, many at a time), drawing without a GPU."""


class Client:
    """One seat's (or a spectator's) connection; ``messages`` holds all it was sent."""

    def __init__(self, url: str, match: str, token: str | None, name: str | None = None) -> None:
        self.ws_url = url.replace("http://", "ws://") + f"/ws/{match}"
        self.token = token
        self.name = name
        self.messages: list[dict[str, Any]] = []
        self.arrived: list[float] = []
        """``time.perf_counter()`` as each of ``messages`` was read (same index)."""
        self.state: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        """The move log as this client has put it together from its state messages."""
        self.acks: list[int] = []
        self.sent_at: list[float] = []
        self.latencies: list[float] = []
        """Seconds from sending each acknowledged move to its ``ack``."""
        self.errors: list[str] = []
        self.changed = asyncio.Event()
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None

    async def connect(self) -> Client:
        """Connect and say hello; returns once the first state has arrived."""
        self._ws = await websockets.connect(self.ws_url, max_size=None)
        await self.send({"type": "hello", "token": self.token, "name": self.name})
        self._reader = asyncio.create_task(self._read())
        await self.wait_for(lambda: self.state is not None)
        return self

    async def _read(self) -> None:
        try:
            async for raw in self._ws:
                message = json.loads(raw)
                self.messages.append(message)
                self.arrived.append(time.perf_counter())
                kind = message["type"]
                if kind == "welcome" and message.get("token"):
                    # The seat's link taken: its own token now, said to have arrived (as the
                    # game page does), after which the link takes the seat for nobody.
                    self.token = message["token"]
                    await self.send({"type": "ping"})
                elif kind == "state":
                    self.state = message
                    self.log[message["log_start"] :] = message["log"]
                elif kind == "ack":
                    self.acks.append(message["seq"])
                    if len(self.sent_at) > len(self.latencies):
                        self.latencies.append(time.perf_counter() - self.sent_at[-1])
                elif kind == "error":
                    self.errors.append(message["message"])
                self.changed.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.changed.set()

    async def send(self, message: dict[str, Any] | str) -> None:
        """Send a message (a dict as JSON, a string as it is)."""
        await self._ws.send(message if isinstance(message, str) else json.dumps(message))

    async def wait_for(self, condition: Any, timeout: float = 30) -> None:
        """Wait until ``condition()`` holds (checked after every message)."""
        async with asyncio.timeout(timeout):
            while not condition():
                self.changed.clear()
                if self._reader is not None and self._reader.done():
                    raise ConnectionError("the connection closed")
                await self.changed.wait()

    def my_turn(self) -> bool:
        """True when the last state offers this seat moves."""
        return bool(self.state and self.state["legal"] and self.state["status"] == "playing")

    async def play_random(self, rng: random.Random, moves: int | None = None) -> int:
        """Play random legal moves until the match ends (or ``moves`` were played)."""
        played = 0
        while moves is None or played < moves:
            await self.wait_for(
                lambda: (
                    self.my_turn()
                    or (self.state is not None and self.state["status"] == "finished")
                ),
                120,
            )
            state = self.state
            assert state is not None  # the wait ends on a state
            if state["status"] == "finished":
                break
            move = rng.choice(state["legal"])
            acks = len(self.acks)
            errors = len(self.errors)
            self.sent_at.append(time.perf_counter())
            await self.send({"type": "move", "seq": state["seq"], "action": move["text"]})
            await self.wait_for(lambda a=acks, e=errors: len(self.acks) > a or len(self.errors) > e)
            if len(self.errors) > errors:
                # Refused (e.g. the state moved on): the test decides whether that is wrong.
                await self.wait_for(lambda s=state: self.state is not s)
                continue
            played += 1
            await self.wait_for(
                lambda a=acks: self.state is not None and self.state["seq"] >= self.acks[a]
            )
        return played

    async def close(self) -> None:
        """Close the connection."""
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


ONE_ADDRESS = (
    "--max-creates-per-minute", "1000000", "--max-open-matches", "1000000",
    "--max-sockets-per-client", "1000000", "--max-replays-per-minute", "1000000",
    "--max-messages-per-minute", "1000000", "--max-boards-per-minute", "1000000",
    "--max-requests-per-minute", "1000000",
)  # fmt: skip
"""Per-address limits lifted: every client of a test or a load run comes from 127.0.0.1.
Flags given after these (``args``) take their place."""


class Started(Protocol):
    """What :class:`ServerProcess` needs of a started process (``subprocess.Popen`` has it)."""

    pid: int
    returncode: int | None

    def poll(self) -> int | None:
        """The exit status once it has ended, else None."""

    def wait(self, timeout: float | None = None) -> int:
        """Wait for it to end (``subprocess.TimeoutExpired`` past ``timeout``)."""

    def send_signal(self, sig: int) -> None:
        """Send it a signal."""


class ServerProcess:
    """``meeple serve`` in a real process on a free port (its per-address limits lifted,
    :data:`ONE_ADDRESS`, unless ``args`` set them; ``agent_workers`` None: the server's
    default, one per core)."""

    launch: ClassVar[Callable[..., Started]] = subprocess.Popen
    """What starts the server, called as ``subprocess.Popen`` is (the ``meeple serve``
    command line, ``stdout=``, ``stderr=``, ``start_new_session=``). The test suite forks
    its servers from a Python that has imported the server already
    (tests/forked_servers.py)."""

    def __init__(
        self, db: str, log: Path, agent_workers: int | None = 1, args: tuple[str, ...] = ()
    ) -> None:
        self.db = db
        self.log_path = log
        self.agent_workers = agent_workers
        self.args = args
        """More ``meeple serve`` flags (``--max-agent-seconds 1``)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: Started | None = None
        """The process :attr:`launch` started."""

    def start(self) -> ServerProcess:
        """Start it and wait until it answers."""
        meeple = Path(sys.executable).with_name("meeple")
        log = self.log_path.open("ab")
        workers = () if self.agent_workers is None else ("--agent-workers", str(self.agent_workers))
        with log:  # the server holds its own copy
            self.proc = self.launch(
                [str(meeple), "serve", "--port", str(self.port), "--db", self.db,
                 *workers, *ONE_ADDRESS, *self.args],
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 60
        # One client for every try: httpx.get would build a TLS context (tens of ms of CPU)
        # for each.
        with httpx.Client(timeout=2) as client:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"the server exited: {self.log_path.read_text()[-2000:]}")
                try:
                    if client.get(f"{self.url}/api/games").status_code == 200:
                        return self
                except httpx.HTTPError:
                    # A refused connection costs next to nothing; a server forked from one
                    # that has imported everything answers in about 0.3 s.
                    time.sleep(0.05)
        raise RuntimeError("the server did not start within 60 s")

    def kill(self) -> None:
        """SIGKILL the server and everything it started (its agent workers too)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def terminate(self, timeout: float = 30.0) -> float:
        """SIGTERM, as an operator (or systemd) stops a server: the seconds until it
        exited, or ``inf`` if it had not after ``timeout`` (then it is killed)."""
        if self.proc is None or self.proc.poll() is not None:
            return 0.0
        sent = time.perf_counter()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return float("inf")
        return time.perf_counter() - sent

    def stop(self) -> float | None:
        """Stop it politely (SIGTERM), or kill it after 10 s; the seconds SIGTERM took
        (None: it had to be killed, or was not running)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            asked = time.perf_counter()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
                return None
            return time.perf_counter() - asked
        return None
