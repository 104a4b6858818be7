"""What one client may hold of the server at once, and how fast it may ask for more.

A client is its network address as the server sees it (behind a reverse proxy, the address
the proxy reports: see docs/security.md). Rates use the ``limits`` package's moving window;
counts of what a client holds now (open sockets, matches it made that are not over) are
kept here, in this process, and start from nothing after a restart (a restart frees them).

Every refusal is a :class:`~meeple.interfaces.web.live.ServerError` with status 429, a
stable ``code`` and the limit it met, so a client (or the person behind it) knows what
to wait for.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from meeple.interfaces.web.limits import ServerLimits
from meeple.interfaces.web.live import ServerError


class QuotaExceeded(ServerError):
    """A client asked for more than its share; ``code`` names which share."""

    def __init__(self, message: str, code: str, retry_after: int | None = None) -> None:
        super().__init__(message, 429, code)
        self.retry_after = retry_after


class ClientQuotas:
    """Counts what each client holds and asks for, and refuses past the operator's
    :class:`~meeple.interfaces.web.limits.ServerLimits`."""

    def __init__(self, limits: ServerLimits | None = None) -> None:
        self.limits = limits or ServerLimits()
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._create_rate = RateLimitItemPerMinute(self.limits.max_creates_per_minute)
        self._replay_rate = RateLimitItemPerMinute(self.limits.max_replays_per_minute)
        self._creating: Counter[str] = Counter()
        self._sockets: Counter[str] = Counter()
        self._spectators: Counter[str] = Counter()
        self._seat_sockets: Counter[tuple[str, int]] = Counter()
        self._open: dict[str, set[str]] = {}

    # -- creating matches -------------------------------------------------------------------
    def check_create(self, client: str, unfinished: Callable[[str], bool]) -> None:
        """Before a client creates a match: refuse past its rate or its open matches
        (``unfinished`` tells whether a match it made is still to be played). Only a match
        made counts against the rate (:meth:`created`); the creates under way are held in
        reserve meanwhile, so concurrent requests cannot pass the rate together."""
        held = self._open.get(client, set())
        for match_id in [m for m in held if not unfinished(m)]:
            held.discard(match_id)
        if len(held) >= self.limits.max_open_matches:
            raise QuotaExceeded(
                f"you have {len(held)} unfinished matches, the most one address may hold "
                "here; finish or resign one first",
                "too_many_open_matches",
            )
        cost = self._creating[client] + 1
        if not self._limiter.test(self._create_rate, "create", client, cost=cost):
            wait = self._wait(self._create_rate, "create", client)
            raise QuotaExceeded(
                f"at most {self.limits.max_creates_per_minute} new matches a minute from one "
                f"address; try again in {wait} s",
                "rate_limited",
                retry_after=wait,
            )
        self._creating[client] += 1

    def create_ended(self, client: str, match_id: str | None) -> None:
        """A create that :meth:`check_create` let through is over: ``match_id`` is the match
        it made (it counts against the rate, and against the client while unfinished), or
        None if it was refused (bad options, say), which costs the client nothing."""
        self._creating[client] -= 1
        if self._creating[client] <= 0:
            del self._creating[client]
        if match_id is not None:
            self._limiter.hit(self._create_rate, "create", client)
            self._open.setdefault(client, set()).add(match_id)

    # -- uploaded records -------------------------------------------------------------------
    def check_replay(self, client: str) -> None:
        """Before a client's uploaded record is read: refused past its rate (each upload
        counts, refused or not: checking a record is the cost)."""
        if not self._limiter.hit(self._replay_rate, "replay", client):
            wait = self._wait(self._replay_rate, "replay", client)
            raise QuotaExceeded(
                f"at most {self.limits.max_replays_per_minute} uploaded records a minute from "
                f"one address; try again in {wait} s",
                "rate_limited",
                retry_after=wait,
            )

    def _wait(self, item: RateLimitItemPerMinute, *key: str) -> int:
        reset = self._limiter.get_window_stats(item, *key)
        return max(1, int(reset.reset_time - time.time()) + 1)

    # -- sockets ----------------------------------------------------------------------------
    def open_socket(self, client: str) -> None:
        """A client opens a WebSocket (before its hello): refused past the client's limit."""
        if self._sockets[client] >= self.limits.max_sockets_per_client:
            raise QuotaExceeded(
                f"at most {self.limits.max_sockets_per_client} connections from one address; "
                "close a tab first",
                "too_many_connections",
            )
        self._sockets[client] += 1

    def close_socket(self, client: str) -> None:
        """A WebSocket that :meth:`open_socket` let in has closed."""
        _release(self._sockets, client)

    def enter_match(self, match_id: str, seat: int | None) -> None:
        """A socket's hello was taken: a spectator (``seat`` None) is refused past the
        match's spectators, a seat's holder only past its own sockets for that seat, so
        spectators can never keep a player out of the match."""
        if seat is None:
            if self._spectators[match_id] >= self.limits.max_spectators_per_match:
                raise QuotaExceeded(
                    f"this match has {self.limits.max_spectators_per_match} spectators, the "
                    "most it takes; try again later",
                    "match_full_of_connections",
                )
            self._spectators[match_id] += 1
            return
        key = (match_id, seat)
        if self._seat_sockets[key] >= self.limits.max_sockets_per_seat:
            raise QuotaExceeded(
                f"this seat is open in {self.limits.max_sockets_per_seat} connections already, "
                "the most one seat may have; close one of them first",
                "seat_full_of_connections",
            )
        self._seat_sockets[key] += 1

    def leave_match(self, match_id: str, seat: int | None) -> None:
        """A socket that :meth:`enter_match` let in has closed."""
        if seat is None:
            _release(self._spectators, match_id)
        else:
            _release(self._seat_sockets, (match_id, seat))


def _release(counter: Counter[Any], key: Any) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


BODY_CUT_OFF = "meeple.body_cut_off"
"""Set in a request's scope by :class:`BodyLimit` once its body went past the limit: the
app has seen the body end early, and its answer will be replaced by the 413."""


class BodyLimit:
    """ASGI middleware: a request body past ``limit`` bytes (``larger`` gives some paths
    more) is refused with 413 and the documented ``{"error", "code"}``, counted as it
    arrives, so a client that declares no length cannot make the server hold more."""

    def __init__(self, app: Any, limit: int, larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.larger = larger or {}

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Pass the request on, refusing it once its body is past the path's limit."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope.get("path", ""), self.limit)
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _too_large(send, limit)
            return
        received = 0
        over = False
        started = False

        async def counted() -> dict[str, Any]:
            nonlocal received, over
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    over = True
                    scope[BODY_CUT_OFF] = True
                    # What the app sees: the body ends here (it answers, and is not heard).
                    return {"type": "http.request", "body": b"", "more_body": False}
            return message

        async def guarded(message: dict[str, Any]) -> None:
            nonlocal started
            if over:
                if message["type"] == "http.response.start" and not started:
                    started = True
                    await _too_large(send, limit)
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, counted, guarded)


async def _too_large(send: Any, limit: int) -> None:
    body = json.dumps(
        {"error": f"the request body is too large: at most {limit:,} bytes", "code": "too_large"}
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(body)),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
