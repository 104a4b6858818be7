"""Can one address's agents starve another match's? Honest agent replies and move-clock
time-outs, measured quiet and while a hostile address holds its full share of matches
whose agents think at the server's cap.

Two phases, each on a fresh server with its default agent workers (one per core) and the
default agent caps (SQLite in a temporary folder):

1. quiet: honest matches, a person against ``random`` (the easy level) in each of the five
   games, played from 127.0.0.1: the person moves at once whenever it is their turn, and
   each reply of the agent is timed from the person's move acknowledged (``ack``) to the
   state with the agent's move arriving. Beside them, a few matches with a short move
   clock (``move_seconds``) whose person never moves: each time-out is timed from its
   deadline to the state with the move the game's agent made for the person arriving.
   A match that ends is replaced by a new one of the same kind. The first ``--warmup``
   seconds are not timed: a worker's first search of a game loads its compiled kernels.
2. hostile agents: the same, while a hostile address (127.0.0.2) holds as many matches as one
   address may (``--max-open-matches``, default 10), each of two agents at the time cap
   (``mcts:seconds=5``, the default ``--max-agent-seconds``) thinking move after move, and
   replaces any that ends.

Both phases lift the per-address limits (``ONE_ADDRESS``) for the honest clients' sake (they
all come from 127.0.0.1 and replace their matches as they end); the hostile address holds
exactly the share the default limits give it. The targets: the honest agent replies' p99
and the time-outs' p99 lateness each at most ``EXTRA_SECONDS`` more under the hostile load
than quiet (the ratio is reported: the hostile agents rightly take their share of the
cores). Exits 1 if a target is missed, an honest client met an error, or a phase measured
too little.

    .venv/bin/python benchmarks/agent_starvation.py               # 2 x (20 + 40 s)
    .venv/bin/python benchmarks/agent_starvation.py --seconds 90 --hostile-matches 10
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from meeple.interfaces.web.client import Client, ServerProcess
from meeple.interfaces.web.limits import ServerLimits

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_attack import HOSTILE_ADDRESS, _ms

HONEST_AGENT = "random"
"""The honest matches' agent: the easy level of every game but Edges', and the cheapest."""

REPLY_GAMES: dict[str, dict[str, Any]] = {
    "edges": {},
    "erd": {},
    "erosion": {},
    "triangle-clock": {"memorise_seconds": 1},
    "squad-combat": {},
}
"""The honest matches whose agent replies are timed (one of each at once)."""

CLOCK_GAMES: dict[str, dict[str, Any]] = {"erosion": {}, "squad-combat": {}}
"""The honest matches whose person never moves: their move clock runs out every time (the
default agent of these games searches about a second, from a worker)."""

HOSTILE_GAME = "edges"
"""The hostile matches' game: Edges' moves are one at a time, so each match has one agent
thinking for its whole length."""

EXTRA_SECONDS = 1.0
"""The target: at most this much more, at p99, under the hostile agents than quiet."""

WAIT = 600.0
"""Seconds an honest client waits for anything: a late reply is measured, not an error."""

MIN_SAMPLES = 20
"""A phase that timed fewer replies (or time-outs) than this measured nothing."""


@dataclass
class Figures:
    """What the honest clients measured in one phase, and what the hostile address did."""

    replies: list[float] = field(default_factory=list)
    """Seconds from a person's move acknowledged to the agent's reply arriving."""
    lateness: list[float] = field(default_factory=list)
    """Seconds from a move clock's deadline to the timed-out move arriving."""
    honest_matches: int = 0
    errors: list[str] = field(default_factory=list)
    hostile_matches: int = 0
    """Hostile matches created (the share, and those that replaced finished ones)."""
    hostile_moves: int = 0
    """Agent moves played in the hostile matches during the phase."""
    unanswered: int = 0
    """Replies and time-outs still awaited when the phase ended: counted as late as they were
    by then (a lower bound)."""
    since: float = float("inf")
    """``time.perf_counter()`` when timing began (after the warm-up): only replies to moves
    acknowledged, and time-outs due, from then on are counted."""


def _stamped_states(client: Client, start: int) -> list[tuple[dict[str, Any], float]]:
    """The state messages ``client`` was sent from message ``start`` on, with their arrival."""
    return [
        (m, client.arrived[k])
        for k, m in enumerate(client.messages[start:], start)
        if m["type"] == "state"
    ]


async def _create(http: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    reply = await http.post("/api/matches", json=body)
    reply.raise_for_status()
    return reply.json()


async def _person_against_agent(
    url: str, http: httpx.AsyncClient, game: str, rng: random.Random, figures: Figures
) -> None:
    """Match after match against the honest agent, moving at once; times each reply."""
    while True:
        body = {"game": game, "options": REPLY_GAMES[game], "seats": ["human", HONEST_AGENT]}
        created = await _create(http, body)
        figures.honest_matches += 1
        client = await Client(url, created["match"], created["seats"][0]["token"]).connect()
        try:
            await _play_and_time(client, rng, figures)
        finally:
            await client.close()


async def _play_and_time(client: Client, rng: random.Random, figures: Figures) -> None:
    while True:
        await client.wait_for(
            lambda: client.my_turn() or client.state["status"] == "finished", WAIT
        )
        state = client.state
        if state["status"] == "finished":
            return
        # Only a decision of the person's alone: then the agent starts after the move.
        alone = state["to_act"] == [state["seat"]] and not state.get("memorise")
        acks, errors, mark = len(client.acks), len(client.errors), len(client.messages)
        move = rng.choice(state["legal"])["text"]
        await client.send({"type": "move", "seq": state["seq"], "action": move})
        await client.wait_for(
            lambda a=acks, e=errors: len(client.acks) > a or len(client.errors) > e
        )
        if len(client.errors) > errors:
            figures.errors.append(client.errors[-1])
            await client.wait_for(lambda s=state: client.state is not s)
            continue
        seq = client.acks[acks]
        acked = next(
            client.arrived[k]
            for k in range(mark, len(client.messages))
            if client.messages[k]["type"] == "ack"
        )
        try:
            await client.wait_for(
                lambda s=seq: client.state["seq"] > s or client.state["status"] != "playing",
                WAIT,
            )
        except asyncio.CancelledError:  # the phase ended first: the reply is that late at least
            states = _stamped_states(client, mark)
            after = next((s for s, _ in states if s["seq"] == seq), None)
            if alone and _agent_to_reply(after) and acked >= figures.since:
                figures.replies.append(time.perf_counter() - acked)
                figures.unanswered += 1
            raise
        states = _stamped_states(client, mark)
        after = next((s for s, _ in states if s["seq"] == seq), None)
        reply = next((t for s, t in states if s["seq"] > seq), None)
        if alone and _agent_to_reply(after) and reply is not None and acked >= figures.since:
            figures.replies.append(reply - acked)


def _agent_to_reply(after: dict[str, Any] | None) -> bool:
    """Whether the state after a person's move leaves the decision to the agent alone."""
    return (
        after is not None
        and after["status"] == "playing"
        and bool(after["to_act"])
        and after["seat"] not in after["to_act"]
        and not after.get("memorise")
    )


async def _person_who_never_moves(
    url: str, http: httpx.AsyncClient, game: str, move_seconds: float, figures: Figures
) -> None:
    """Match after match with a move clock, the person never moving; times each time-out."""
    while True:
        body = {
            "game": game,
            "options": CLOCK_GAMES[game],
            "seats": ["human", HONEST_AGENT],
            "move_seconds": move_seconds,
        }
        created = await _create(http, body)
        figures.honest_matches += 1
        client = await Client(url, created["match"], created["seats"][0]["token"]).connect()
        try:
            await _time_the_clock(client, figures)
        finally:
            await client.close()


async def _time_the_clock(client: Client, figures: Figures) -> None:
    seat = client.state["seat"]
    while True:
        await client.wait_for(
            lambda: client.state["status"] == "finished" or str(seat) in client.state["deadlines"],
            WAIT,
        )
        if client.state["status"] == "finished":
            return
        # The deadline from the first state that set it: the seconds left as it was sent.
        seq = client.state["seq"]
        first = next(
            (s, t)
            for s, t in _stamped_states(client, 0)
            if s["seq"] == seq and str(seat) in s["deadlines"]
        )
        deadline = first[1] + first[0]["deadlines"][str(seat)]
        mark = len(client.messages)
        try:
            await client.wait_for(
                lambda s=seq: client.state["seq"] > s or client.state["status"] != "playing",
                WAIT,
            )
        except asyncio.CancelledError:  # the phase ended first: the move is that late at least
            now = time.perf_counter()
            if now > deadline >= figures.since:
                figures.lateness.append(now - deadline)
                figures.unanswered += 1
            raise
        for state, arrived in _stamped_states(client, mark):
            timed_out = [e for e in state["log"] if e["seat"] == seat and e.get("timeout")]
            if timed_out:
                if deadline >= figures.since:
                    figures.lateness.append(arrived - deadline)
                break


async def _hostile(url: str, matches: int, spec: str, figures: Figures) -> None:
    """Hold ``matches`` matches of two agents at ``spec`` from the hostile address, each
    replaced when it ends; count the agent moves played in them."""
    transport = httpx.AsyncHTTPTransport(local_address=HOSTILE_ADDRESS)
    played: dict[str, int] = {}
    async with httpx.AsyncClient(base_url=url, timeout=30, transport=transport) as http:
        live: list[str] = []
        try:
            while True:
                while len(live) < matches:
                    body = {"game": HOSTILE_GAME, "seats": [spec, spec], "listed": False}
                    live.append((await _create(http, body))["match"])
                    figures.hostile_matches += 1
                await asyncio.sleep(2)
                for match in list(live):
                    summary = (await http.get(f"/api/matches/{match}")).json()
                    played[match] = summary["seq"]
                    if summary["status"] == "finished":
                        live.remove(match)
        finally:
            figures.hostile_moves = sum(played.values())


async def measure(url: str, args: argparse.Namespace, hostile: bool) -> Figures:
    """One phase on the server at ``url``: the honest matches, untimed for ``args.warmup``
    seconds (each worker's first search of a game loads its compiled kernels), then, with
    the hostile address's matches under way if ``hostile``, timed for ``args.seconds``."""
    figures = Figures()
    tasks: list[asyncio.Task[None]] = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for k, game in enumerate(REPLY_GAMES):
            rng = random.Random(args.seed + k)
            tasks.append(asyncio.create_task(_person_against_agent(url, http, game, rng, figures)))
        for game in CLOCK_GAMES:
            tasks.append(
                asyncio.create_task(
                    _person_who_never_moves(url, http, game, args.move_seconds, figures)
                )
            )
        await asyncio.sleep(args.warmup)
        if hostile:
            tasks.append(
                asyncio.create_task(_hostile(url, args.hostile_matches, args.spec, figures))
            )
            await asyncio.sleep(3)  # the hostile agents are thinking before the timing starts
        figures.since = time.perf_counter()
        done, pending = await asyncio.wait(tasks, timeout=args.seconds)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    for task in done:  # an honest task ends only by failing
        exc = task.exception()
        figures.errors.append(f"{type(exc).__name__}: {exc}" if exc else "a task ended early")
    return figures


@dataclass
class Phase:
    """One phase's figures and the machine around it."""

    name: str
    figures: Figures
    load: tuple[float, float]
    tracebacks: int


def compile_kernels(spec: str) -> None:
    """Load (or, the first time on a machine, compile and store) the compiled kernels of
    every search the phases run, here, before any server starts: compiling one can take
    longer than a decision's allowance on a loaded machine, and a worker stopped mid-compile
    stores nothing, so a fresh checkout's first time-outs would measure the compiler."""
    from meeple.agents.levels import DEFAULT_LEVEL, level_spec
    from meeple.core.registry import make
    from meeple.interfaces.web.pool import agent_move

    searches = [(game, level_spec(make(game, **options), DEFAULT_LEVEL), options)
                for game, options in CLOCK_GAMES.items()]  # fmt: skip
    searches.append((HOSTILE_GAME, spec, {}))  # one decision: its seconds= at most
    for game, agent, options in searches:
        state = make(game, **options).new_game(1)
        agent_move(game, options, 1, [], state.to_act[0], agent, 1)


def run_phase(name: str, args: argparse.Namespace, folder: Path, hostile: bool) -> Phase:
    """A fresh server (default agent workers), measured."""
    load = os.getloadavg()[0]
    log = folder / f"{name}.log"
    server = ServerProcess(f"sqlite:///{folder / name}.db", log, agent_workers=None)
    server.start()
    try:
        figures = asyncio.run(measure(server.url, args, hostile))
    finally:
        server.stop()
        server.kill()
    tracebacks = log.read_text(errors="replace").count("Traceback")
    return Phase(name, figures, (load, os.getloadavg()[0]), tracebacks)


def _quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]  # nearest rank: p99 of 2 is the max


def _stats(values: list[float]) -> dict[str, float | None]:
    """p50, p99 and max, in ms."""
    return {
        key: None if v is None else 1000 * v
        for key, v in (
            ("p50", statistics.median(values) if values else None),
            ("p99", _quantile(values, 0.99)),
            ("max", max(values) if values else None),
        )
    }


def report(quiet: Phase, attacked: Phase, args: argparse.Namespace) -> bool:
    """Print the table and the verdicts; True when every check passes."""
    from rich.console import Console
    from rich.table import Table

    console = Console(width=100)
    phases = (quiet, attacked)
    table = Table(title="honest agent replies and clock time-outs, quiet and beside hostile agents")
    table.add_column("")
    for p in phases:
        table.add_column(p.name, justify="right")

    def row(label: str, value: Callable[[Phase], str]) -> None:
        table.add_row(label, *(value(p) for p in phases))

    replies = {p.name: _stats(p.figures.replies) for p in phases}
    late = {p.name: _stats(p.figures.lateness) for p in phases}
    row("machine load, start/end", lambda p: f"{p.load[0]:.1f}/{p.load[1]:.1f}")
    row("honest matches played", lambda p: str(p.figures.honest_matches))
    row("agent replies timed", lambda p: str(len(p.figures.replies)))
    for key in ("p50", "p99", "max"):
        row(f"  ack -> reply {key} ms", lambda p, k=key: _ms(replies[p.name][k]))
    row("clock time-outs timed", lambda p: str(len(p.figures.lateness)))
    for key in ("p50", "p99", "max"):
        row(f"  deadline -> move {key} ms", lambda p, k=key: _ms(late[p.name][k]))
    row("still awaited at the end (as late as then)", lambda p: str(p.figures.unanswered))
    row(
        "hostile matches held (made)",
        lambda p: f"{args.hostile_matches} ({p.figures.hostile_matches})" if p is attacked else "-",
    )
    row(
        "hostile agent moves played",
        lambda p: str(p.figures.hostile_moves) if p is attacked else "-",
    )
    row("honest errors", lambda p: str(len(p.figures.errors)))
    row("tracebacks in the server log", lambda p: str(p.tracebacks))
    console.print(table)
    for p in phases:
        for error in p.figures.errors[:5]:
            console.print(f"  honest error ({p.name}): {error[:200]}")

    checks: list[tuple[str, bool | None]] = []
    for label, stats in (("agent reply", replies), ("time-out lateness", late)):
        q, a = stats[quiet.name]["p99"], stats[attacked.name]["p99"]
        if q is None or a is None:
            checks.append((f"{label}: nothing measured", False))
            continue
        checks.append(
            (
                f"{label} p99 beside hostile agents / quiet = {a:.0f} / {q:.0f} ms: "
                f"{(a - q) / 1000:+.2f} s, {a / max(q, 1e-9):.1f}x "
                f"(target: at most {EXTRA_SECONDS:g} s more)",
                a - q <= 1000 * EXTRA_SECONDS,
            )
        )
    enough = all(
        len(p.figures.replies) >= MIN_SAMPLES and len(p.figures.lateness) >= MIN_SAMPLES / 4
        for p in phases
    )
    checks.append(
        (
            "measured: "
            + ", ".join(
                f"{p.name} {len(p.figures.replies)} replies, {len(p.figures.lateness)} time-outs"
                for p in phases
            )
            + f" (at least {MIN_SAMPLES} and {MIN_SAMPLES // 4})",
            enough,
        )
    )
    checks.append(
        (
            "honest errors, tracebacks: "
            + ", ".join(f"{p.name} {len(p.figures.errors)}, {p.tracebacks}" for p in phases)
            + " (target: 0)",
            all(not p.figures.errors and not p.tracebacks for p in phases),
        )
    )
    checks.append(
        (
            f"the hostile agents played {attacked.figures.hostile_moves} moves "
            "(they are served their share too: more than 0)",
            attacked.figures.hostile_moves > 0,
        )
    )
    ok = True
    for text, passed in checks:
        ok = ok and passed is not False
        console.print(f"{'PASS' if passed else 'FAIL'}  {text}")
    return ok


def main() -> None:
    """Run both phases and print the figures; exit 1 if a check fails."""
    limits = ServerLimits()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=40, help="each phase's timed run (default 40)"
    )
    parser.add_argument(
        "--warmup", type=float, default=20, help="each phase's untimed start (default 20)"
    )
    parser.add_argument(
        "--hostile-matches", type=int, default=limits.max_open_matches,
        help="matches the hostile address holds (default: the most one address may, "
        f"{limits.max_open_matches})",
    )  # fmt: skip
    parser.add_argument(
        "--spec", default=f"mcts:seconds={limits.max_agent_seconds:g}",
        help="the hostile agents (default: at the time cap, mcts:seconds="
        f"{limits.max_agent_seconds:g})",
    )  # fmt: skip
    parser.add_argument(
        "--move-seconds", type=float, default=2.0, help="the honest clock matches' move clock"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.seconds <= 0 or args.move_seconds <= 0 or args.warmup < 0:
        parser.error("--seconds and --move-seconds must be more than 0, --warmup 0 or more")
    if args.hostile_matches < 1:
        parser.error(f"--hostile-matches must be at least 1 (got {args.hostile_matches})")
    print(
        f"agent starvation: {len(REPLY_GAMES)} honest matches against {HONEST_AGENT} and "
        f"{len(CLOCK_GAMES)} with a {args.move_seconds:g} s move clock, timed {args.seconds:g} "
        f"s after {args.warmup:g} s; quiet, then beside {args.hostile_matches} hostile "
        f"matches of {args.spec} from {HOSTILE_ADDRESS}; the default agent workers "
        f"({os.cpu_count()} cores)",
        file=sys.stderr,
    )
    print("loading the searches' compiled kernels ...", file=sys.stderr)
    compile_kernels(args.spec)
    with tempfile.TemporaryDirectory() as folder:
        phases = []
        for name, hostile in (("quiet", False), ("hostile agents", True)):
            print(f"phase {name} ... (load average {os.getloadavg()[0]:.1f})", file=sys.stderr)
            phases.append(run_phase(name, args, Path(folder), hostile))
    if not report(*phases, args):
        sys.exit(1)


if __name__ == "__main__":
    main()
