"""What one client may hold of the server at once, and how fast it may ask for more.

A client is its network address as the server sees it (behind a reverse proxy, the address
the proxy reports: see docs/security.md), and an IPv6 client its network (:func:`client_key`).
Rates use the ``limits`` package's moving window;
counts of what a client holds now (open sockets, matches it made that are not over) are
kept here, in this process, and start from nothing after a restart (a restart frees them).

Every refusal is a :class:`~meeple.interfaces.web.live.ServerError` with status 429, a
stable ``code`` and the limit it met, so a client (or the person behind it) knows what
to wait for.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import time
from collections import Counter
from collections.abc import Callable, Collection
from typing import Any

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection

from meeple.interfaces.web.limits import ServerLimits
from meeple.interfaces.web.live import ServerError
from meeple.interfaces.web.refusals import BODY_REFUSED, log_refused


class QuotaExceeded(ServerError):
    """A client asked for more than its share; ``code`` names which share."""

    def __init__(self, message: str, code: str, retry_after: int | None = None) -> None:
        super().__init__(message, 429, code, retry_after)


SEAT_SOCKETS = 8
"""The most WebSockets one seat's token may hold on its match (tabs, devices)."""

FORGET_AFTER = 256
"""How many addresses may hold a match in the count of open matches before every address's
finished ones are forgotten: the count is pruned whenever it doubles past what the last
pruning left, so it stays within twice the unfinished matches (or this) at a cost of one
look per address each time."""

FULL_RETRY_SECONDS = 60
"""The Retry-After of a match refused because the server holds all it takes: matches end
and expire by the minute (the expiry sweep's pace)."""


def server_full(held: str, more: str = "") -> ServerError:
    """The refusal (503 ``server_full``) when the server holds ``held``, the most it takes,
    every address together: not this client's fault, so worth asking again later."""
    return ServerError(
        f"this server holds {held}, the most it takes; try again in a minute{more}",
        503,
        "server_full",
        retry_after=FULL_RETRY_SECONDS,
    )


def client_key(host: str | None, ipv6_prefix: int = 64) -> str:
    """Whom the per-client limits count for a request from ``host``: an IPv4 address as it
    is (an IPv4 address written as IPv6, ``::ffff:a.b.c.d``, too), and an IPv6 address's
    network of ``ipv6_prefix`` bits. A provider hands one home or host a whole /64 of
    addresses, so counted one by one, a single machine would hold a crowd's share."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:  # not an address (a test client's name): counted as it is
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        # The zone (fe80::1%eth0) names an interface, not a network: it is left out.
        bare = ipaddress.IPv6Address(int(address))
        return str(ipaddress.IPv6Network((bare, ipv6_prefix), strict=False))
    return str(address)


def is_remote(client: str) -> bool:
    """Whether ``client`` (:func:`client_key`) is another machine's address: not this
    machine's own (loopback, where people share the machine, or a proxy not named with
    ``--forwarded-allow-ips`` stands for everyone), nor a name that is no address."""
    try:
        network = ipaddress.ip_network(client, strict=False)
    except ValueError:
        return False
    # IPv6 is counted by its /64, which ::1's is.
    loopback = ipaddress.ip_address("::1" if network.version == 6 else "127.0.0.1")
    return not (network.is_loopback or loopback in network)


class ClientQuotas:
    """Counts what each client holds and asks for, and refuses past the operator's
    :class:`~meeple.interfaces.web.limits.ServerLimits`."""

    def __init__(
        self, limits: ServerLimits | None = None, held: Callable[[], int] = lambda: 0
    ) -> None:
        self.limits = limits or ServerLimits()
        self._held = held
        """How many unfinished matches the server holds now, every client's together."""
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._create_rate = RateLimitItemPerMinute(self.limits.max_creates_per_minute)
        self._replay_rate = RateLimitItemPerMinute(self.limits.max_replays_per_minute)
        self._board_text_rate = RateLimitItemPerMinute(self.limits.max_boards_per_minute)
        self._hint_rate = RateLimitItemPerMinute(self.limits.max_hints_per_minute)
        self._message_rate = RateLimitItemPerMinute(self.limits.max_messages_per_minute)
        self._request_rate = RateLimitItemPerMinute(self.limits.max_requests_per_minute)
        self._creating: Counter[str] = Counter()
        self._sockets: Counter[str] = Counter()
        self._watchers: Counter[tuple[str, int | None]] = Counter()
        self._open: dict[str, set[str]] = {}
        """The matches each address made that were unfinished when last looked at."""
        self._forget_at = FORGET_AFTER
        self.connections: Collection[Any] = ()
        """Every connection open to the server, HTTP and WebSocket (uvicorn's, given by the
        server's protocol, connections.py): a WebSocket is let in only within the cap of
        them all. Empty where the server is not uvicorn (a test's client)."""

    @property
    def holders(self) -> int:
        """How many addresses the count of open matches keeps an entry for."""
        return len(self._open)

    def _forget_finished(self, unfinished: Callable[[str], bool]) -> None:
        """Drop every address's finished matches, and the addresses left holding none: an
        address that made a match and never came back is otherwise kept for the life of the
        process."""
        for client, held in list(self._open.items()):
            held.intersection_update([m for m in held if unfinished(m)])
            if not held:
                del self._open[client]
        self._forget_at = max(FORGET_AFTER, 2 * len(self._open))

    def client(self, connection: HTTPConnection) -> str:
        """The client a request or a WebSocket counts as: its address (behind a trusted
        proxy, uvicorn has put the proxy's X-Forwarded-For there) as :func:`client_key`
        counts it."""
        host = connection.client.host if connection.client else None
        return client_key(host, self.limits.ipv6_prefix)

    def _wait(self, item: RateLimitItemPerMinute, key: str, client: str) -> int:
        stats = self._limiter.get_window_stats(item, key, client)
        return max(1, int(stats.reset_time - time.time()) + 1)

    # -- creating matches -------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def creating(self, client: str, unfinished: Callable[[str], bool]) -> Any:
        """Around a client's creation of a match: refused past its rate or its open
        matches (``unfinished`` tells whether a match it made is still to be played), or
        when the server holds all the unfinished matches it takes (503). Only
        a match made counts against the rate: a refused request (bad options, say) does
        not, and requests still being made count as made until they end, so a burst
        cannot pass the rate."""
        if len(self._open) >= self._forget_at:
            self._forget_finished(unfinished)
        held = self._open.get(client, set())
        for match_id in [m for m in held if not unfinished(m)]:
            held.discard(match_id)
        if not held:
            self._open.pop(client, None)
        if len(held) + self._creating[client] >= self.limits.max_open_matches:
            raise QuotaExceeded(
                f"you have {len(held)} unfinished matches, the most one address may hold "
                "here; finish or resign one first (the lobby's Your matches lists those this "
                "browser holds)",
                "too_many_open_matches",
            )
        cap = self.limits.max_unfinished_matches
        if self._held() + sum(self._creating.values()) >= cap:
            raise server_full(f"{cap} unfinished matches", ", or join an open match")
        rate = self._create_rate
        stats = self._limiter.get_window_stats(rate, "create", client)
        if stats.remaining <= self._creating[client]:
            wait = self._wait(rate, "create", client)
            raise QuotaExceeded(
                f"at most {self.limits.max_creates_per_minute} new matches a minute from one "
                f"address; try again in {wait} s",
                "rate_limited",
                retry_after=wait,
            )
        self._creating[client] += 1
        try:
            made: dict[str, str] = {}
            yield made
            if "match" in made:
                self._limiter.hit(rate, "create", client)
                self._open.setdefault(client, set()).add(made["match"])
        finally:
            self._creating[client] -= 1
            if self._creating[client] <= 0:
                del self._creating[client]

    # -- requests ---------------------------------------------------------------------------
    def check_request(self, client: str) -> None:
        """Before any REST request is answered: refused past the client's rate. The cheapest
        answer still costs a thread and a game made or a database read (a game's rules for
        options never asked before, tens of milliseconds), and a client's requests are
        otherwise bounded only in size; the costly ones have their own, lower, rates too."""
        self._hit(self._request_rate, "request", client, "requests to the API")

    # -- checking uploaded records ----------------------------------------------------------
    def check_replay(self, client: str) -> None:
        """Before an uploaded record is checked (reading and replaying it is the costliest
        thing a client can ask for): refused past the client's rate."""
        self._hit(self._replay_rate, "replay", client, "uploaded records")

    def check_board_text(self, client: str) -> None:
        """Before a record's board is drawn as text at one step (the record replayed in the
        uploads' worker): refused past the client's rate, its own, since the replay page
        asks once per step a reader stops at."""
        self._hit(self._board_text_rate, "board_text", client, "boards as text")

    # -- hints ------------------------------------------------------------------------------
    def check_hint(self, client: str) -> None:
        """Before a hint is computed (a search in a worker): refused past the client's
        rate."""
        self._hit(self._hint_rate, "hint", client, "hints")

    def _hit(self, rate: RateLimitItemPerMinute, key: str, client: str, what: str) -> None:
        """Count one request of ``key`` from ``client``: refused (``rate_limited``, with
        the seconds to wait) past ``rate``, ``what`` naming the requests in the refusal."""
        if not self._limiter.hit(rate, key, client):
            wait = self._wait(rate, key, client)
            raise QuotaExceeded(
                f"at most {rate.amount} {what} a minute from one address; try again in {wait} s",
                "rate_limited",
                retry_after=wait,
            )

    # -- socket messages --------------------------------------------------------------------
    def check_message(self, client: str) -> None:
        """Before a WebSocket message is handled, and as a socket is opened: refused past
        the client's rate. A message costs a client a few bytes and can cost the server a
        whole state (``sync``; a move, a state for every socket on the match) and a line
        of its log (one it refuses)."""
        self._hit(self._message_rate, "message", client, "WebSocket messages")

    def check_seat_request(self, client: str) -> None:
        """Before a REST request that changes a match for a seat (join, leave, resign,
        claim, a rematch's offer or answer): counted against the same rate as a socket's
        messages, since each, as a move, is a write to the database and a state sent to
        every connection of the match."""
        self._hit(self._message_rate, "message", client, "seat requests and WebSocket messages")

    # -- sockets ----------------------------------------------------------------------------
    def open_socket(self, client: str) -> None:
        """A client opens a WebSocket: refused past its own limit, or past the server's
        connections, HTTP ones included (the HTTP protocol refuses an HTTP request past
        them, connections.py, but lets a WebSocket in)."""
        cap = self.limits.max_connections
        # The socket's own connection is among ``connections`` by now (uvicorn counts it as
        # it is upgraded), not yet among ``_sockets``.
        if sum(self._sockets.values()) >= cap or len(self.connections) > cap:
            raise server_full(f"{cap} connections")
        if self._sockets[client] >= self.limits.max_sockets_per_client:
            raise QuotaExceeded(
                f"at most {self.limits.max_sockets_per_client} connections from one address; "
                "close a tab first",
                "too_many_connections",
            )
        self._sockets[client] += 1

    def close_socket(self, client: str) -> None:
        """A WebSocket that :meth:`open_socket` let in has closed."""
        self._sockets[client] -= 1
        if self._sockets[client] <= 0:
            del self._sockets[client]

    def watch(self, match_id: str, seat: int | None) -> None:
        """A socket said hello on a match, as ``seat`` (None: a spectator). Spectators are
        refused past the match's limit; a seat holder never is for them (the seat has its
        own small limit), so spectators cannot keep the players out."""
        key = (match_id, seat)
        if seat is None and self._watchers[key] >= self.limits.max_sockets_per_match:
            raise QuotaExceeded(
                f"this match has {self.limits.max_sockets_per_match} spectators, the most it "
                "takes; try again later",
                "match_full_of_connections",
            )
        if seat is not None and self._watchers[key] >= SEAT_SOCKETS:
            raise QuotaExceeded(
                f"this seat has {SEAT_SOCKETS} connections open; close a tab first",
                "too_many_connections",
            )
        self._watchers[key] += 1

    def unwatch(self, match_id: str, seat: int | None) -> None:
        """A socket that :meth:`watch` let in has closed."""
        key = (match_id, seat)
        self._watchers[key] -= 1
        if self._watchers[key] <= 0:
            del self._watchers[key]


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
            await _too_large(scope, send, limit)
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
                    scope[BODY_REFUSED] = True
                    # What the app sees: the body ends here (it answers, and is not heard).
                    return {"type": "http.request", "body": b"", "more_body": False}
            return message

        async def guarded(message: dict[str, Any]) -> None:
            nonlocal started
            if over:
                if message["type"] == "http.response.start" and not started:
                    started = True
                    await _too_large(scope, send, limit)
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, counted, guarded)


async def _too_large(scope: dict[str, Any], send: Any, limit: int) -> None:
    message = f"the request body is too large: at most {limit:,} bytes (--max-body-bytes)"
    log_refused(HTTPConnection(scope), "too_large", message)
    # Written as every other answer is (Starlette's JSONResponse): no spaces.
    body = json.dumps({"error": message, "code": "too_large"}, separators=(",", ":")).encode()
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
