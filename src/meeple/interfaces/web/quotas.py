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

import time
from collections import Counter
from dataclasses import dataclass

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from meeple.interfaces.web.live import ServerError


class QuotaExceeded(ServerError):
    """A client asked for more than its share; ``code`` names which share."""

    def __init__(self, message: str, code: str, retry_after: int | None = None) -> None:
        super().__init__(message, 429)
        self.code = code
        self.retry_after = retry_after


@dataclass(frozen=True)
class Quotas:
    """The per-client limits (``meeple serve`` flags set them)."""

    creates_per_minute: int = 10
    """Matches (and rematches) one client may create in any minute."""
    open_matches: int = 10
    """Matches one client created that may be unfinished at once."""
    sockets_per_client: int = 20
    """WebSockets one client may hold open at once (across matches)."""
    sockets_per_match: int = 64
    """WebSockets one match may have open at once (players and spectators)."""


class ClientQuotas:
    """Counts what each client holds and asks for, and refuses past :class:`Quotas`."""

    def __init__(self, quotas: Quotas | None = None) -> None:
        self.quotas = quotas or Quotas()
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._create_rate = RateLimitItemPerMinute(self.quotas.creates_per_minute)
        self._sockets: Counter[str] = Counter()
        self._match_sockets: Counter[str] = Counter()
        self._open: dict[str, set[str]] = {}

    # -- creating matches -------------------------------------------------------------------
    def check_create(self, client: str) -> None:
        """Before a client creates a match: refuse past its rate or its open matches."""
        held = self._open.get(client, set())
        if len(held) >= self.quotas.open_matches:
            raise QuotaExceeded(
                f"you have {len(held)} unfinished matches, the most one address may hold "
                "here; finish or resign one first",
                "too_many_open_matches",
            )
        if not self._limiter.hit(self._create_rate, "create", client):
            reset = self._limiter.get_window_stats(self._create_rate, "create", client)
            wait = max(1, int(reset.reset_time - time.time()) + 1)
            raise QuotaExceeded(
                f"at most {self.quotas.creates_per_minute} new matches a minute from one "
                f"address; try again in {wait} s",
                "rate_limited",
                retry_after=wait,
            )

    def created(self, client: str, match_id: str) -> None:
        """A client's match was created: it holds it until :meth:`finished`."""
        self._open.setdefault(client, set()).add(match_id)

    def finished(self, match_id: str) -> None:
        """A match is over (or closed): nobody holds it any more."""
        for client, held in list(self._open.items()):
            held.discard(match_id)
            if not held:
                del self._open[client]

    # -- sockets ----------------------------------------------------------------------------
    def open_socket(self, client: str, match_id: str) -> None:
        """A client opens a WebSocket on a match: refused past either socket limit."""
        if self._sockets[client] >= self.quotas.sockets_per_client:
            raise QuotaExceeded(
                f"at most {self.quotas.sockets_per_client} connections from one address; "
                "close a tab first",
                "too_many_connections",
            )
        if self._match_sockets[match_id] >= self.quotas.sockets_per_match:
            raise QuotaExceeded(
                f"this match has {self.quotas.sockets_per_match} connections, the most it "
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
