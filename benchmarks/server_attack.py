"""The game server measured under attack: the honest load, quiet and while hostile clients
on loopback repeat every attack the server is built to refuse.

One command, three phases, each on a fresh server (SQLite in a temporary folder):

1. quiet: the honest load of ``server_load.py`` (matches across the five games, two people
   each, random legal moves until every match is over);
2. attack: the same load while hostile clients, in a process of their own, loop over the
   attacks below until the honest run ends (or a hard deadline);
3. limits: a short run against a server with the default per-address limits, the hostile
   clients coming from 127.0.0.2 (and flooding it with new matches and sockets) while a
   few honest matches are played from 127.0.0.1: the 429s fall on the attacker only.

Phases 1 and 2 run with the same flags, the per-address limits lifted (``ONE_ADDRESS``):
the honest clients all come from 127.0.0.1 and would meet them themselves.

Every attack must be refused with a code that docs/api.md documents (or, for the
spectator sockets of a burst, served and closed cleanly); anything else -- a 5xx, a code
not in the docs, an attack accepted, a socket dropped without a close frame, a timeout, a
traceback in the server's log -- is an attack failure. The target: p99 of send -> ack under
attack within 2x of quiet. Exits 1 if any check fails.

Every phase ends as an operator stops a server, with SIGTERM; in the attack and limits
phases the hostile clients are told to stop 0.1 s before it, so their attacks in flight are
still under way. The server must exit within ``STOP_SECONDS``; what fails for an attack
under way once the clients were told to stop is counted as cut off, not as a failure.

    .venv/bin/python benchmarks/server_attack.py                 # 50 matches, 8 hostile
    .venv/bin/python benchmarks/server_attack.py --matches 100 --hostile 16 --pause 0.01
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import queue
import re
import secrets
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from meeple.interfaces.web.client import ONE_ADDRESS, ServerProcess

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import run as honest_run

ROOT = Path(__file__).resolve().parents[1]
HOSTILE_ADDRESS = "127.0.0.2"
"""Where the hostile clients connect from: loopback too, but an address of its own."""

TIMEOUT = 30.0
"""Seconds a hostile request may wait for its answer before it counts as a failure."""

CLOSE_CODES = {1000, 4400, 4403, 4404, 4408, 4429}
"""The close codes docs/api.md gives a refused or ended connection."""

RECORD_CAP = 2_000_000
"""The replay endpoint's limit (replays.MAX_RECORD_BYTES)."""

STOP_SECONDS = 5.0
"""SIGTERM must stop the server within this, whatever it is doing."""


def documented_codes(doc: Path = ROOT / "docs" / "api.md") -> frozenset[str]:
    """The refusal codes listed in docs/api.md's table of codes: a refusal with any
    other code is one no client can be written for, so it counts as a failure."""
    codes: set[str] = set()
    in_table = False
    for line in doc.read_text(encoding="utf-8").splitlines():
        if line.startswith("| code |"):
            in_table = True
        elif in_table and not line.startswith("|"):
            break
        elif in_table:
            first_cell = line.split("|")[1]
            codes.update(re.findall(r"`([a-z_]+)`", first_cell))
    return frozenset(codes)


@dataclass
class Tally:
    """What the hostile clients sent and what came back."""

    requests: int = 0
    """HTTP requests, WebSocket connections and WebSocket messages sent."""
    refusals: Counter[str] = field(default_factory=Counter)
    """Documented refusals, by code."""
    allowed: int = 0
    """Requests the server rightly served (a burst's spectators, a flood's valid matches)."""
    failures: Counter[str] = field(default_factory=Counter)
    """Everything else, by kind."""
    examples: list[str] = field(default_factory=list)
    """The first few failures, described."""
    stopping: bool = False
    """Set once the hostile clients are told to stop: the server may be told to stop too
    (SIGTERM), so what goes wrong with an attack still under way then is a cut-off."""
    cut_off: int = 0
    """Attacks under way when the clients were told to stop that did not end as they would
    have (the server stopped under them)."""

    def fail(self, attack: str, what: str) -> None:
        """Count one attack failure (a few are kept to print), or a cut-off once stopping."""
        if self.stopping:
            self.cut_off += 1
            return
        self.failures[f"{attack}: {what.split(':')[0]}"] += 1
        if len(self.examples) < 5:
            self.examples.append(f"{attack}: {what}"[:300])

    def as_dict(self) -> dict[str, Any]:
        """Plain data, to send from the hostile process."""
        return {
            "requests": self.requests,
            "refusals": dict(self.refusals),
            "allowed": self.allowed,
            "failures": dict(self.failures),
            "examples": self.examples,
            "cut_off": self.cut_off,
        }


class Attacker:
    """One set of hostile clients: the attacks, and the tally they share."""

    ATTACKS = (
        "replay_names_server_files",
        "replay_near_the_cap",
        "replay_over_the_cap",
        "create_with_huge_budgets",
        "create_unshipped_erd_against_hard",
        "oversize_bodies",
        "huge_integers",
        "lobby_huge_limits",
        "lax_types",
        "join_seats_not_open",
        "first_frame_binary_or_junk",
        "hello_bad_tokens",
        "reuse_a_taken_link",
        "junk_after_hello",
        "socket_burst",
    )
    """Every attack, in the order each worker goes round them (``create_flood`` is added
    with ``flood``)."""

    def __init__(
        self,
        url: str,
        source: str = HOSTILE_ADDRESS,
        flood: bool = False,
        skip: frozenset[str] = frozenset(),
    ) -> None:
        self.url = url
        self.skip = skip
        """Attacks left out (to see what each one costs)."""
        self.ws_base = url.replace("http://", "ws://") + "/ws/"
        self.source = source
        self.flood = flood
        """Also create valid matches and open more sockets than one address may hold (the
        limits phase: against lifted limits they would only be served)."""
        self.codes = documented_codes()
        self.tally = Tally()
        self.http = httpx.AsyncClient(
            base_url=url,
            timeout=TIMEOUT,
            transport=httpx.AsyncHTTPTransport(local_address=source),
        )
        self.target: dict[str, Any] = {}
        """A match of the attacker's own: its seats' tokens are cut short, its socket count
        is burst."""
        self.taken_link = ""
        """The link of the target's seat 1, which the attacker took: as a private match's
        creator keeps a copy of the link it sends, to play or read the seat after."""
        self.honest: list[str] = []
        """Ids of listed matches (the honest players'), to try seats and tokens on."""
        self.near_cap = json.dumps(
            {"game": "edges", "seed": 1, "moves": [[0, "x" * 90]] * 20_000}
        ).encode()
        assert RECORD_CAP - 50_000 < len(self.near_cap) < RECORD_CAP

    # -- running -------------------------------------------------------------------------
    async def setup(self) -> None:
        """Make the attacker's own match (two reserved seats) and take its seat 1 with the
        link (which takes the seat once), its new token then used."""
        reply = await self.http.post("/api/matches", json=_edges())
        reply.raise_for_status()
        self.target = reply.json()
        self.taken_link = self.target["seats"][1]["token"]
        taken = await self.http.post(
            f"/api/matches/{self.target['match']}/join", json={"token": self.taken_link}
        )
        taken.raise_for_status()
        # The seat's own token used once: from then on the link takes the seat for nobody,
        # not even the address that took it (which could until then, its answer lost).
        used = await self.http.post(
            f"/api/matches/{self.target['match']}/join", json={"token": taken.json()["token"]}
        )
        used.raise_for_status()

    def attacks(self) -> list[Callable[[], Awaitable[None]]]:
        """The attacks this attacker makes, in the order each worker goes round them."""
        found = [getattr(self, name) for name in self.ATTACKS if name not in self.skip]
        if self.flood:
            found.insert(0, self.create_flood)  # first: the share is used from the start
        return found

    async def worker(self, number: int, pause: float, stop: Callable[[], bool]) -> None:
        """Go round the attacks (starting at a place of its own) until told to stop."""
        attacks = self.attacks()
        k = number
        while not stop():
            attack = attacks[k % len(attacks)]
            k += 1
            try:
                await attack()
            except (httpx.TimeoutException, TimeoutError):
                self.tally.fail(attack.__name__, "timeout: no answer within the time allowed")
            except (httpx.TransportError, OSError, websockets.WebSocketException) as exc:
                self.tally.fail(attack.__name__, f"{type(exc).__name__}: {exc}")
            except Exception as exc:  # an answer the attack could not read: counted, not fatal
                self.tally.fail(attack.__name__, f"{type(exc).__name__}: {exc!r}")
            await asyncio.sleep(pause)

    async def run(self, workers: int, pause: float, stop: Callable[[], bool]) -> Tally:
        """Set up, then ``workers`` hostile clients at once until ``stop()``."""
        await self.setup()

        async def watch() -> None:
            while not stop():
                await asyncio.sleep(0.01)
            self.tally.stopping = True

        watcher = asyncio.create_task(watch())
        try:
            await asyncio.gather(*(self.worker(n, pause, stop) for n in range(workers)))
        finally:
            watcher.cancel()
            await self.http.aclose()
        return self.tally

    # -- checking answers ----------------------------------------------------------------
    def expect_refusal(self, attack: str, reply: httpx.Response, statuses: set[int]) -> None:
        """An HTTP answer that must be a documented refusal with one of ``statuses`` (or a
        429 of the per-address limits)."""
        self.tally.requests += 1
        status = reply.status_code
        if status >= 500:
            self.tally.fail(attack, f"{status}: {reply.text[:200]}")
            return
        if status < 400:
            self.tally.fail(attack, f"accepted ({status}): {reply.text[:200]}")
            return
        try:
            body = reply.json()
        except ValueError:
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        if code not in self.codes or not isinstance(body.get("error"), str):
            self.tally.fail(attack, f"undocumented refusal {status} {code}: {reply.text[:200]}")
        elif status not in statuses | {429}:
            self.tally.fail(attack, f"unexpected status {status} ({code})")
        else:
            self.tally.refusals[code] += 1

    async def refused_socket(self, attack: str, match: str, frames: list[str | bytes]) -> None:
        """Open a socket, send ``frames``; the server must answer with an ``error`` whose
        code is documented, then close with a close frame of its own codes."""
        self.tally.requests += 1 + len(frames)
        async with self._connect(match) as ws:
            await _send_all(ws, frames)
            got_error = False
            while True:
                try:
                    raw = await asyncio.wait_for(ws.recv(), TIMEOUT)
                except websockets.ConnectionClosed as closed:
                    self._closed(attack, closed, got_error)
                    return
                message = json.loads(raw)
                if message.get("type") == "error":
                    got_error = self._socket_error(attack, message) or got_error
                elif not got_error:
                    self.tally.fail(attack, f"served: {raw[:200]}")
                    return

    def _socket_error(self, attack: str, message: dict[str, Any]) -> bool:
        code = message.get("code")
        if code in self.codes:
            self.tally.refusals[code] += 1
            return True
        self.tally.fail(attack, f"undocumented socket error {code}: {message}")
        return False

    def _closed(self, attack: str, closed: websockets.ConnectionClosed, got_error: bool) -> None:
        if closed.rcvd is None:
            self.tally.fail(attack, "dropped: the socket closed without a close frame")
        elif closed.rcvd.code not in CLOSE_CODES:
            self.tally.fail(attack, f"close code {closed.rcvd.code}: {closed.rcvd.reason}")
        elif not got_error:
            self.tally.fail(attack, f"closed ({closed.rcvd.code}) without an error message")

    def _connect(self, match: str) -> Any:
        return websockets.connect(
            self.ws_base + match,
            local_addr=(self.source, 0),
            open_timeout=TIMEOUT,
            close_timeout=5,
            max_size=None,
        )

    async def listed(self) -> list[str]:
        """Listed matches now (the honest ones among them)."""
        reply = await self.http.get("/api/matches", params={"status": "live"})
        self.tally.requests += 1
        if reply.status_code != 200:
            self.expect_refusal("listing", reply, set())
            return self.honest
        self.tally.allowed += 1
        self.honest = [m["match"] for m in reply.json() if m["match"] != self.target["match"]]
        return self.honest

    # -- the attacks -----------------------------------------------------------------------
    async def replay_names_server_files(self) -> None:
        """Uploaded records whose options name files of the server's."""
        for game, option, path in (
            ("triangle-clock", "ranking", "/etc/passwd"),
            ("triangle-clock", "ranking", "/dev/zero"),
            ("squad-combat", "content", "/etc"),
        ):
            record = {"game": game, "options": {option: path}, "seed": 1, "moves": []}
            reply = await self.http.post("/api/replay", json=record)
            self.expect_refusal("replay_names_server_files", reply, {400})

    async def replay_near_the_cap(self) -> None:
        """A record just under the 2 MB cap: read, parsed, refused for its count of moves
        (past ``--max-match-moves``) before any is replayed; and a short one, replayed and
        refused at its first move."""
        reply = await self.http.post(
            "/api/replay", content=self.near_cap, headers={"content-type": "application/json"}
        )
        self.expect_refusal("replay_near_the_cap", reply, {413})
        short = {"game": "edges", "seed": 1, "moves": [[0, "x" * 90]] * 10}
        reply = await self.http.post("/api/replay", json=short)
        self.expect_refusal("replay_near_the_cap", reply, {400})

    async def replay_over_the_cap(self) -> None:
        """A record over the cap, declared (refused unread) and chunked (counted as read)."""
        body = self.near_cap[:-2] + b', [0, "' + b"y" * 60_000 + b'"]]}'
        reply = await self.http.post(
            "/api/replay", content=body, headers={"content-type": "application/json"}
        )
        self.expect_refusal("replay_over_the_cap", reply, {413})
        reply = await self.http.post(
            "/api/replay", content=_chunks(body), headers={"content-type": "application/json"}
        )
        self.expect_refusal("replay_over_the_cap", reply, {413})

    async def create_with_huge_budgets(self) -> None:
        """Agents that would hold the workers for a day, or name the server's files."""
        for spec in (
            "mcts:seconds=86400",
            "mcts:iterations=1000000000000",
            "perfect:exact=40,depth=99",
            "flat:worlds=100000000",
        ):
            body = {"game": "edges", "seats": ["human", spec]}
            reply = await self.http.post("/api/matches", json=body)
            self.expect_refusal("create_with_huge_budgets", reply, {400})
        body = {"game": "erd", "seats": ["human", "exploit:cache_dir=/etc"]}
        reply = await self.http.post("/api/matches", json=body)
        self.expect_refusal("create_with_huge_budgets", reply, {400})

    async def create_unshipped_erd_against_hard(self) -> None:
        """An Erd variant that does not ship, against the level that would solve it."""
        for options in ({"round_limit": 7}, {"round_limit": 5}):
            body = {"game": "erd", "options": options, "seats": ["human", "hard"]}
            reply = await self.http.post("/api/matches", json=body)
            self.expect_refusal("create_unshipped_erd_against_hard", reply, {400})

    async def oversize_bodies(self) -> None:
        """Bodies over the REST limit, declared and chunked; options over their cap."""
        padded = {**_edges(), "padding": "y" * 100_000}
        reply = await self.http.post("/api/matches", json=padded)
        self.expect_refusal("oversize_bodies", reply, {413})
        body = json.dumps({"game": "edges", "names": ["z" * 200_000]}).encode()
        reply = await self.http.post(
            "/api/matches", content=_chunks(body), headers={"content-type": "application/json"}
        )
        self.expect_refusal("oversize_bodies", reply, {413})
        decks = {"game": "squad-combat", "options": {"decks": ",".join(["iron-line"] * 200)}}
        reply = await self.http.post("/api/matches", json=decks)
        self.expect_refusal("oversize_bodies", reply, {413})

    async def huge_integers(self) -> None:
        """5,000-digit integers, in a REST body and in a socket message."""
        body = b'{"game": "edges", "seed": ' + b"9" * 5000 + b"}"
        reply = await self.http.post(
            "/api/matches", content=body, headers={"content-type": "application/json"}
        )
        self.expect_refusal("huge_integers", reply, {400})
        await self.refused_socket(
            "huge_integers", self.target["match"], ['{"type": "ping", "seq": ' + "9" * 5000 + "}"]
        )

    async def lobby_huge_limits(self) -> None:
        """Lobby pages far past the server's page size."""
        for limit in (10**9, "9" * 5000, -1, "all"):
            reply = await self.http.get("/api/matches", params={"status": "live", "limit": limit})
            self.expect_refusal("lobby_huge_limits", reply, {422})

    async def lax_types(self) -> None:
        """Values of the wrong JSON type, which a lax server would coerce."""
        for body in (
            {"game": "edges", "listed": "no"},
            {"game": "edges", "seats": "human"},
            {"game": "edges", "seed": "7"},
            {"game": "edges", "move_seconds": "60"},
        ):
            reply = await self.http.post("/api/matches", json=body)
            self.expect_refusal("lax_types", reply, {422})
        await self.refused_socket(
            "lax_types", self.target["match"], [json.dumps({"type": "hello", "token": 12345678})]
        )

    async def join_seats_not_open(self) -> None:
        """Joins of reserved seats, of seats that do not exist, with tokens of nobody, on
        the attacker's match and on the honest players' listed matches."""
        matches = [self.target["match"], *(await self.listed())[:2]]
        for match in matches:
            for body, statuses in (
                ({"seat": 0}, {409}),
                ({}, {409}),
                ({"seat": 7}, {409}),
                # 409 once an honest match is over (it may end meanwhile).
                ({"token": secrets.token_urlsafe(24)}, {403, 409}),
            ):
                reply = await self.http.post(f"/api/matches/{match}/join", json=body)
                self.expect_refusal("join_seats_not_open", reply, statuses)
        reply = await self.http.post("/api/matches/nosuchmatch1/join", json={})
        self.expect_refusal("join_seats_not_open", reply, {404})

    async def first_frame_binary_or_junk(self) -> None:
        """A binary frame, junk text, or an oversize message where the hello should be."""
        for frame in (b"\x00\xff" * 50, "junk{", "[" * 10_000, "x" * 20_000):
            await self.refused_socket("first_frame_binary_or_junk", self.target["match"], [frame])

    async def hello_bad_tokens(self) -> None:
        """Tokens cut short, of nobody, of another match; a match that does not exist."""
        token = self.target["seats"][0]["token"]
        tries = [
            (self.target["match"], {"type": "hello", "token": token[:10]}),
            (self.target["match"], {"type": "hello", "token": token[:-1]}),
            (self.target["match"], {"type": "hello", "token": secrets.token_urlsafe(24)}),
            ("nosuchmatch1", {"type": "hello", "token": None}),
        ]
        # A real token of the attacker's own match, tried on an honest one.
        tries += [(match, {"type": "hello", "token": token}) for match in self.honest[:1]]
        for match, hello in tries:
            await self.refused_socket("hello_bad_tokens", match, [json.dumps(hello)])

    async def reuse_a_taken_link(self) -> None:
        """A seat's link, used again once it took the seat: to open the seat, to take it
        again, to resign it."""
        match = self.target["match"]
        hello = {"type": "hello", "token": self.taken_link}
        await self.refused_socket("reuse_a_taken_link", match, [json.dumps(hello)])
        for path in ("join", "resign"):
            reply = await self.http.post(
                f"/api/matches/{match}/{path}", json={"token": self.taken_link}
            )
            self.expect_refusal("reuse_a_taken_link", reply, {403})

    async def junk_after_hello(self) -> None:
        """A spectator's socket sent junk: each answered with an error, the socket kept."""
        frames: list[str | bytes] = [
            b"\x89binary",
            "not json",
            '{"type": "move", "seq": "0", "action": "a1"}',
            '{"type": "move", "seq": true, "action_id": 0}',
            '{"type": "move", "seq": 0, "action": "a1"}',
            '{"type": "hello", "token": null}',
            '{"type": "resign"}',
            '{"type": "claim", "seat": 0}',
            '{"type": "claim", "seat": "0"}',
            "y" * 20_000,
        ]
        self.tally.requests += 2 + len(frames)
        async with self._connect(self.target["match"]) as ws:
            hello, ping = '{"type": "hello", "token": null}', '{"type": "ping"}'
            await _send_all(ws, [hello, *frames, ping])
            errors = 0
            while True:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                except websockets.ConnectionClosed as closed:
                    # Only a limit's refusal (an error, then 4429) may end this socket.
                    if errors and closed.rcvd is not None and closed.rcvd.code == 4429:
                        return
                    self.tally.fail("junk_after_hello", f"closed after {errors} errors: {closed}")
                    return
                if message["type"] == "error":
                    errors += self._socket_error("junk_after_hello", message)
                elif message["type"] == "pong":
                    break
            if errors != len(frames):
                self.tally.fail("junk_after_hello", f"{errors} errors for {len(frames)} frames")
            else:
                self.tally.allowed += 2  # the hello and the ping were rightly served

    async def socket_burst(self) -> None:
        """Many sockets opened at once on one match, then all closed; with ``flood``, more
        than one address may hold (default 20)."""
        count = 30 if self.flood else 12
        await asyncio.gather(*(self._spectate() for _ in range(count)))

    async def _spectate(self) -> None:
        self.tally.requests += 1
        async with self._connect(self.target["match"]) as ws:
            await _send_all(ws, ['{"type": "hello", "token": null}'])
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            except websockets.ConnectionClosed as closed:
                self._closed("socket_burst", closed, False)
                return
            if message["type"] == "welcome":
                self.tally.allowed += 1
                return
            if message["type"] != "error":
                self.tally.fail("socket_burst", f"answered {message}")
                return
            if not self._socket_error("socket_burst", message):
                return
            try:
                await asyncio.wait_for(ws.recv(), TIMEOUT)
            except websockets.ConnectionClosed as closed:
                self._closed("socket_burst", closed, True)

    async def create_flood(self) -> None:
        """Valid matches, as fast as the attacker can ask (a few at a time): served until
        its share is used (refused creates do not count against it, so only these do):
        one round asks for more than the default share (10)."""
        for _ in range(12):
            reply = await self.http.post("/api/matches", json=_edges())
            if reply.status_code == 200:
                self.tally.requests += 1
                self.tally.allowed += 1
            else:
                self.expect_refusal("create_flood", reply, {429})


async def _send_all(ws: Any, frames: list[str | bytes]) -> None:
    """Send ``frames`` until the server closes: a socket refused before its hello (no such
    match, a socket limit) is closed at once, and its refusal is read after."""
    try:
        for frame in frames:
            await ws.send(frame)
    except websockets.ConnectionClosed:
        pass


def _edges() -> dict[str, Any]:
    return {"game": "edges", "options": {"board": "2x2"}, "seats": ["human", "human"]}


async def _chunks(body: bytes, size: int = 64_000) -> AsyncIterator[bytes]:
    """A body sent without a declared length, in pieces."""
    for start in range(0, len(body), size):
        yield body[start : start + size]


async def attack(
    url: str,
    workers: int = 8,
    pause: float = 0.02,
    seconds: float = 10.0,
    stop: Callable[[], bool] = lambda: False,
    flood: bool = False,
    source: str = HOSTILE_ADDRESS,
    skip: frozenset[str] = frozenset(),
    enough: Callable[[Tally], bool] = lambda tally: False,
) -> Tally:
    """Run ``workers`` hostile clients against ``url`` until ``stop()``, until the tally is
    ``enough`` (a test's answers all met, however loaded the machine), or ``seconds``."""
    deadline = time.monotonic() + seconds
    attacker = Attacker(url, source, flood, skip)

    def done() -> bool:
        return stop() or enough(attacker.tally) or time.monotonic() > deadline

    return await attacker.run(workers, pause, done)


# -- the hostile process --------------------------------------------------------------------
def _hostile_main(
    url: str,
    workers: int,
    pause: float,
    seconds: float,
    flood: bool,
    skip: frozenset[str],
    stop: Any,
    out: Any,
) -> None:
    try:
        tally = asyncio.run(
            attack(url, workers, pause, seconds, stop.is_set, flood, HOSTILE_ADDRESS, skip)
        )
    except Exception as exc:  # the parent reports it as a failure of the run
        tally = Tally()
        tally.fail("hostile process", f"{type(exc).__name__}: {exc}")
    out.put(tally.as_dict())


class Hostile:
    """The hostile clients in a process of their own (so they do not slow the honest
    clients' event loop, only the machine, as a real attacker would)."""

    def __init__(
        self,
        url: str,
        workers: int,
        pause: float,
        seconds: float,
        flood: bool,
        skip: frozenset[str] = frozenset(),
    ) -> None:
        context = multiprocessing.get_context("fork")
        self.stop_event = context.Event()
        self.queue = context.Queue()
        self.process = context.Process(
            target=_hostile_main,
            args=(url, workers, pause, seconds, flood, skip, self.stop_event, self.queue),
            daemon=True,
        )
        self.started = 0.0
        self.seconds = 0.0

    def start(self) -> Hostile:
        """Start attacking."""
        self.started = time.perf_counter()
        self.process.start()
        return self

    def stop(self) -> dict[str, Any]:
        """Tell the hostile clients to stop; their tally once they have."""
        self.stop_event.set()
        return self.tally()

    def tally(self) -> dict[str, Any]:
        """The hostile clients' tally, once they have stopped (told by :meth:`stop`)."""
        try:
            tally = self.queue.get(timeout=3 * TIMEOUT)
        except queue.Empty:
            failed = Tally()
            failed.fail("hostile process", "gave no tally (it died, or hung past its deadline)")
            tally = failed.as_dict()
            self.process.kill()
        self.seconds = time.perf_counter() - self.started
        self.process.join(timeout=10)
        return tally


# -- the phases -----------------------------------------------------------------------------
@dataclass
class Phase:
    """One phase's figures."""

    name: str
    """The column: the kind (quiet, attack, limits), and the round if there are several."""
    kind: str
    honest: dict[str, Any]
    hostile: dict[str, Any] | None = None
    hostile_seconds: float = 0.0
    tracebacks: int = 0
    stop_seconds: float = 0.0
    """From SIGTERM to the server's exit (the attack phase: sent while hostile clients'
    attacks were still under way)."""
    seconds: float = 0.0
    """The whole phase: the server's start, the honest run and its checks."""
    load: tuple[float, float] = (0.0, 0.0)
    """The machine's load average (1 minute) as the phase started and ended: other work on
    the machine slows both phases alike only if it stays the same."""


def run_phase(name: str, kind: str, args: argparse.Namespace, folder: Path) -> Phase:
    """A fresh server; the honest load on it, with hostile clients for all of it unless
    the phase is quiet."""
    limits = kind == "limits"
    load_before = os.getloadavg()[0]
    flags: tuple[str, ...] = () if not limits else _default_limits()
    log = folder / f"{name}.log"
    started = time.perf_counter()
    server = ServerProcess(f"sqlite:///{folder / name}.db", log, agent_workers=1, args=flags)
    server.start()
    hostile = None
    try:
        if kind != "quiet":
            seconds = args.limits_seconds if limits else args.seconds + 30
            hostile = Hostile(
                server.url, args.hostile, args.pause, seconds, limits, args.skip
            ).start()
            time.sleep(1.0)  # under way before the honest clients start
        matches = args.limits_matches if limits else args.matches
        honest = asyncio.run(honest_run(server.url, matches, args.seconds, args.seed))
        if limits:  # the attacker keeps going for its few seconds
            time.sleep(max(0.0, args.limits_seconds - (time.perf_counter() - hostile.started)))
        if hostile is not None:
            hostile.stop_event.set()
            time.sleep(0.1)  # the clients count what fails from here as cut off
        # The server is stopped as an operator stops it, with its attacks still under way.
        stop_seconds = server.terminate()
        tally = hostile.tally() if hostile else None
    finally:
        server.kill()
    phase = Phase(name, kind, honest, tally, hostile.seconds if hostile else 0.0)
    phase.stop_seconds = stop_seconds
    phase.seconds = time.perf_counter() - started
    phase.load = (load_before, os.getloadavg()[0])
    phase.tracebacks = log.read_text(errors="replace").count("Traceback")
    return phase


def _default_limits() -> tuple[str, ...]:
    """Flags that put back the per-address limits ``ONE_ADDRESS`` lifts (their defaults)."""
    from meeple.interfaces.web.limits import ServerLimits

    defaults = ServerLimits()
    out: list[str] = []
    for flag in ONE_ADDRESS[::2]:
        out += [flag, str(getattr(defaults, flag.removeprefix("--").replace("-", "_")))]
    return tuple(out)


# -- the report -----------------------------------------------------------------------------
def report(phases: list[Phase], args: argparse.Namespace) -> bool:
    """Print the tables and the verdicts; True when every check passes."""
    from rich.console import Console
    from rich.table import Table

    console = Console(width=100)
    by_name = {p.name: p for p in phases}
    table = Table(title="the honest load, quiet and under attack, and the hostile traffic")
    table.add_column("")
    for p in phases:
        table.add_column(p.name, justify="right")
    hostile = [p for p in phases if p.hostile]
    codes = sorted({c for p in hostile for c in p.hostile["refusals"]})

    def row(label: str, value: Callable[[Phase], str], hostile_only: bool = False) -> None:
        table.add_row(label, *("-" if hostile_only and not p.hostile else value(p) for p in phases))

    row("server's per-address limits", lambda p: "default" if p.kind == "limits" else "lifted")
    row("phase seconds", lambda p: f"{p.seconds:.1f}")
    row("machine load, start/end", lambda p: f"{p.load[0]:.1f}/{p.load[1]:.1f}")
    row("honest matches finished", lambda p: f"{p.honest['finished']} of {p.honest['matches']}")
    row("honest moves acknowledged", lambda p: str(p.honest["moves"]))
    row("honest moves/s", lambda p: f"{p.honest['moves_per_s']:.0f}")
    row("send -> ack p50 ms", lambda p: _ms(p.honest["p50_ms"]))
    row("send -> ack p99 ms", lambda p: _ms(p.honest["p99_ms"]))
    row("honest errors", lambda p: str(p.honest["errors"]))
    row("honest moves lost", lambda p: str(p.honest["lost"]))
    row("hostile clients, seconds", lambda p: f"{args.hostile}, {p.hostile_seconds:.1f}", True)
    row("hostile requests", lambda p: str(p.hostile["requests"]), True)
    row("hostile requests/s", lambda p: f"{p.hostile['requests'] / p.hostile_seconds:.0f}", True)
    row("  refused (documented code)", lambda p: str(sum(p.hostile["refusals"].values())), True)
    for code in codes:
        row(f"    {code}", lambda p, c=code: str(p.hostile["refusals"].get(c, 0)), True)
    row("  served (spectators, valid)", lambda p: str(p.hostile["allowed"]), True)
    row("  attack failures", lambda p: str(sum(p.hostile["failures"].values())), True)
    row("  cut off by the stop", lambda p: str(p.hostile.get("cut_off", 0)), True)
    row("tracebacks in the server log", lambda p: str(p.tracebacks))
    row("SIGTERM -> exit s", lambda p: f"{p.stop_seconds:.2f}")
    console.print(table)
    for p in hostile:
        for kind, n in sorted(p.hostile["failures"].items()):
            console.print(f"  attack failure ({p.name}): {kind} x{n}")
        for example in p.hostile["examples"]:
            console.print(f"    e.g. {example}")

    limited = by_name["limits"]
    quiet = _median_run([p for p in phases if p.kind == "quiet"])
    attacked = _median_run([p for p in phases if p.kind == "attack"])
    ratio = attacked["p99_ms"] / quiet["p99_ms"]
    several = " (medians of the rounds)" if args.rounds > 1 else ""
    limit_codes = ("rate_limited", "too_many_open_matches", "too_many_connections")
    refused_429 = sum(limited.hostile["refusals"].get(c, 0) for c in limit_codes)
    checks = [
        (
            f"p99 under attack / quiet = {attacked['p99_ms']:.1f} / "
            f"{quiet['p99_ms']:.1f} ms = {ratio:.2f}x{several} (target: within 2x)",
            ratio <= 2.0,
        ),
        (
            f"moves/s under attack / quiet = {attacked['moves_per_s']:.0f} / "
            f"{quiet['moves_per_s']:.0f} = "
            f"{attacked['moves_per_s'] / quiet['moves_per_s']:.2f}x{several} (reported)",
            None,
        ),
        (
            "attack failures: "
            + ", ".join(f"{p.name} {sum(p.hostile['failures'].values())}" for p in hostile)
            + " (target: 0)",
            all(not p.hostile["failures"] for p in hostile),
        ),
        (
            "honest errors and lost moves: "
            + ", ".join(f"{p.name} {p.honest['errors']}+{p.honest['lost']}" for p in phases)
            + " (target: 0)",
            all(not p.honest["errors"] and not p.honest["lost"] for p in phases),
        ),
        (
            "every honest match finished: "
            + ", ".join(f"{p.name} {p.honest['finished']}/{p.honest['matches']}" for p in phases),
            all(p.honest["finished"] == p.honest["matches"] for p in phases),
        ),
        (
            "SIGTERM -> exit: "
            + ", ".join(f"{p.name} {p.stop_seconds:.2f} s" for p in phases)
            + f" (target: within {STOP_SECONDS:g} s, attacks under way)",
            all(p.stop_seconds <= STOP_SECONDS for p in phases),
        ),
        (
            "tracebacks in the server logs: "
            + ", ".join(f"{p.name} {p.tracebacks}" for p in phases)
            + " (target: 0)",
            all(not p.tracebacks for p in phases),
        ),
        (
            f"limits phase: {refused_429} of {limited.hostile['requests']} hostile requests "
            f"from {HOSTILE_ADDRESS} refused with a 429 code; honest clients from 127.0.0.1 "
            f"refused {limited.honest['errors']} (target: some, and 0)",
            refused_429 > 0 and not limited.honest["errors"],
        ),
    ]
    ok = True
    for text, passed in checks:
        verdict = "    " if passed is None else ("PASS" if passed else "FAIL")
        ok = ok and passed is not False
        console.print(f"{verdict}  {text}")
    return ok


def _median_run(phases: list[Phase]) -> dict[str, float]:
    """The median p99 and moves/s of several runs of one kind."""
    return {
        key: statistics.median(p.honest[key] or 0.0 for p in phases)
        for key in ("p99_ms", "moves_per_s")
    }


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def main() -> None:
    """Run the three phases and print the figures; exit 1 if a check fails."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50, help="honest matches (default 50)")
    parser.add_argument(
        "--hostile", type=int, default=8, help="hostile clients, each looping (default 8)"
    )
    parser.add_argument(
        "--pause", type=float, default=0.02, help="seconds each hostile client waits between "
        "attacks (default 0.02)",
    )  # fmt: skip
    parser.add_argument(
        "--seconds", type=float, default=120, help="stop an honest run after this long"
    )
    parser.add_argument(
        "--limits-seconds", type=float, default=6, help="length of the limits phase (default 6)"
    )
    parser.add_argument(
        "--limits-matches", type=int, default=4, help="honest matches in the limits phase"
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="quiet and attack phases, in turn, this many "
        "times each; the verdict compares medians (default 1)",
    )  # fmt: skip
    parser.add_argument(
        "--skip", default="", help="attacks to leave out, comma-separated (to see what each "
        f"costs): {', '.join(Attacker.ATTACKS)}",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name, value in (
        ("--matches", args.matches), ("--hostile", args.hostile), ("--rounds", args.rounds)
    ):  # fmt: skip
        if value < 1:
            parser.error(f"{name} must be at least 1 (got {value})")
    if args.pause < 0 or args.seconds <= 0 or args.limits_seconds <= 0:
        parser.error("--pause must be 0 or more, --seconds and --limits-seconds more than 0")
    args.skip = frozenset(filter(None, args.skip.split(",")))
    unknown = sorted(args.skip - set(Attacker.ATTACKS))
    if unknown:
        parser.error(f"--skip: no attack {', '.join(unknown)}; the attacks: "
                     f"{', '.join(Attacker.ATTACKS)}")  # fmt: skip
    if not 1 <= args.limits_matches <= 5:
        parser.error("--limits-matches: 1 to 5 (the default limits hold 10 matches an address)")
    print(
        f"server attack: {args.matches} honest matches; {args.hostile} hostile clients from "
        f"{HOSTILE_ADDRESS}, {args.pause} s between attacks. Phases quiet and attack run with "
        "the per-address limits lifted (ONE_ADDRESS: the honest clients all come from "
        "127.0.0.1); phase limits runs with the default limits."
        + (f" Left out: {', '.join(sorted(args.skip))}." if args.skip else ""),
        file=sys.stderr,
    )
    phases = []
    with tempfile.TemporaryDirectory() as folder:
        order = [x for r in range(args.rounds) for x in (("quiet", r), ("attack", r))]
        for kind, r in [*order, ("limits", 0)]:
            name = f"{kind} {r + 1}" if args.rounds > 1 and kind != "limits" else kind
            print(f"phase {name} ... (load average {os.getloadavg()[0]:.1f})", file=sys.stderr)
            phases.append(run_phase(name, kind, args, Path(folder)))
    if not report(phases, args):
        sys.exit(1)


if __name__ == "__main__":
    main()
