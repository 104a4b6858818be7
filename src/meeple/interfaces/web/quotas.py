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
        self._sockets: Counter[str] = Counter()
        self._match_sockets: Counter[str] = Counter()
        self._open: dict[str, set[str]] = {}

    # -- creating matches -------------------------------------------------------------------
    def check_create(self, client: str, unfinished: Callable[[str], bool]) -> None:
        """Before a client creates a match: refuse past its rate or its open matches
        (``unfinished`` tells whether a match it made is still to be played)."""
        held = self._open.get(client, set())
        for match_id in [m for m in held if not unfinished(m)]:
            held.discard(match_id)
        if len(held) >= self.limits.max_open_matches:
            raise QuotaExceeded(
                f"you have {len(held)} unfinished matches, the most one address may hold "
                "here; finish or resign one first",
                "too_many_open_matches",
            )
        if not self._limiter.hit(self._create_rate, "create", client):
            reset = self._limiter.get_window_stats(self._create_rate, "create", client)
            wait = max(1, int(reset.reset_time - time.time()) + 1)
            raise QuotaExceeded(
                f"at most {self.limits.max_creates_per_minute} new matches a minute from one "
                f"address; try again in {wait} s",
                "rate_limited",
                retry_after=wait,
            )

    def created(self, client: str, match_id: str) -> None:
        """A client's match was created: it counts against the client while unfinished."""
        self._open.setdefault(client, set()).add(match_id)

    # -- sockets ----------------------------------------------------------------------------
    def open_socket(self, client: str, match_id: str) -> None:
        """A client opens a WebSocket on a match: refused past either socket limit."""
        if self._sockets[client] >= self.limits.max_sockets_per_client:
            raise QuotaExceeded(
                f"at most {self.limits.max_sockets_per_client} connections from one address; "
                "close a tab first",
                "too_many_connections",
            )
        if self._match_sockets[match_id] >= self.limits.max_sockets_per_match:
            raise QuotaExceeded(
                f"this match has {self.limits.max_sockets_per_match} connections, the most it "
                "takes; try again later",
                "match_full_of_connections",
            )
        self._sockets[client] += 1
        self._match_sockets[match_id] += 1

    def close_socket(self, client: str, match_id: str) -> None:
        """A WebSocket that :meth:`open_socket` let in has closed."""
        for counter, key in ((self._sockets, client), (self._match_sockets, match_id)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]


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
