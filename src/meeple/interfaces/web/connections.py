"""A connection's time to say what it wants, before any request reaches meeple.

uvicorn (its h11 protocol) sets no timer on a connection until a first response has gone
out, and forgets its keep-alive timer at the first byte of the next request. So a client
that connects and sends nothing, or sends a request head a byte at a time (slowloris),
holds its connection for ever, and a few hundred such clients hold every connection the
server takes (``--max-connections``): the server answers nobody else. meeple's own limits
cannot help, since they see a request only once its head is complete.

:func:`deadline_protocol` is uvicorn's protocol with a deadline: a request's head must be
complete within ``limits.request_head_seconds`` of the connection's opening (or of the
request's first byte, on a kept-alive connection), and its body within
``limits.request_body_seconds`` of its head; past either the connection is closed, with one
warning line. A WebSocket has its own limits once upgraded (the hello's, then the socket
quotas'), and a request the application is answering is not timed. An answer is: a client
that reads none of it for ``limits.unread_answer_seconds`` while the server's buffers for
it are full loses its connection (a large answer unread, a replay's states say, held its
connection and megabytes of memory for ever, and a few held every connection the server
takes).

It also answers a request past the server's connections (``limits.max_connections``) as
every other refusal is answered, ``{"error", "code": "server_full"}`` with a Retry-After
(docs/api.md): uvicorn's own answer to the same check is a plain-text 503 that a client of
the API cannot read as one.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import h11
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from meeple.interfaces.web.limits import ServerLimits
from meeple.interfaces.web.quotas import ClientQuotas, server_full
from meeple.interfaces.web.refusals import refusal

log = logging.getLogger("meeple.web")


UNREADABLE = (
    "the request is not HTTP this server can read: a malformed request line or header, a "
    "header too large, or a body's length given twice"
)
"""The refusal of a request h11 cannot read (its own words name no part of it)."""


class _QuietInvalid(logging.Filter):
    """Drops uvicorn's own line for a request h11 cannot read, which names no client: the
    protocol logs one that does (:func:`deadline_protocol`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != "Invalid HTTP request received."


def deadline_protocol(
    limits: ServerLimits, quotas: ClientQuotas | None = None
) -> type[H11Protocol]:
    """uvicorn's HTTP protocol (``uvicorn.Config(http=...)``) closing a connection whose
    request head, or body, does not arrive within ``limits``' seconds; it gives ``quotas``
    the server's open connections, against which a WebSocket is counted."""
    uvicorn_log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _QuietInvalid) for f in uvicorn_log.filters):
        uvicorn_log.addFilter(_QuietInvalid())

    class Deadline(H11Protocol):
        """An h11 connection with the deadline of the request being received."""

        _timer: asyncio.TimerHandle | None = None
        _waiting_for: str = ""
        _unread: asyncio.TimerHandle | None = None
        """Armed while the transport's buffer is full (uvicorn's writing paused)."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            """uvicorn's, with its check of the connections cap made in front of the
            application instead (:func:`capped`)."""
            super().__init__(*args, **kwargs)
            if quotas is not None:
                quotas.connections = self.connections  # the server's one set, every time
            if self.limit_concurrency is not None:
                self.app = capped(self.app, self.limit_concurrency, self.connections, self.tasks)
                self.limit_concurrency = None

        def connection_made(self, transport: Any) -> None:
            """uvicorn's, and the head is awaited from now."""
            super().connection_made(transport)
            self._arm("head", limits.request_head_seconds)

        def data_received(self, data: bytes) -> None:
            """uvicorn's, then the deadline of what is still to come: the head, the body,
            or none (the request is in, or the connection is a WebSocket now)."""
            super().data_received(data)
            if self.transport.get_protocol() is not self:  # upgraded to a WebSocket
                self._disarm()
                return
            state = self.conn.their_state
            if state is h11.IDLE:
                # Bytes of a head not yet complete; none (between requests) is left to
                # uvicorn's keep-alive timer, armed when the last response went out.
                if self.conn.trailing_data[0] and self._waiting_for != "head":
                    self._arm("head", limits.request_head_seconds)
            elif state is h11.SEND_BODY:
                if self._waiting_for != "body":
                    self._arm("body", limits.request_body_seconds)
            else:  # the request is in (DONE), or the connection is ending
                self._disarm()

        def send_400_response(self, msg: str) -> None:
            """A request h11 cannot read (a malformed request line or header, a length given
            twice): answered as every refusal is, in JSON with its code, and logged with the
            client's address, where uvicorn answered plain text and logged no one."""
            who = self.client[0] if self.client else "a client"
            log.warning("a request from %s refused (bad_request): not HTTP this server reads", who)
            body = json.dumps({"error": UNREADABLE, "code": "bad_request"}).encode()
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ]
            for event in (
                h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                h11.Data(data=body),
                h11.EndOfMessage(),
            ):
                self.transport.write(self.conn.send(event))
            self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            """uvicorn's, the deadlines dropped."""
            self._disarm()
            if self._unread is not None:
                self._unread.cancel()
                self._unread = None
            super().connection_lost(exc)

        def pause_writing(self) -> None:
            """uvicorn's (the answer waits for the client to read), and the deadline of a
            client that reads none of it."""
            super().pause_writing()
            if self._unread is None:
                seconds = limits.unread_answer_seconds
                self._unread = self.loop.call_later(seconds, self._answer_unread, seconds)

        def resume_writing(self) -> None:
            """uvicorn's, the client reading again: no deadline."""
            super().resume_writing()
            if self._unread is not None:
                self._unread.cancel()
                self._unread = None

        def _answer_unread(self, seconds: float) -> None:
            self._unread = None
            if self.transport.is_closing():
                return
            who = self.client[0] if self.client else "a client"
            log.warning(
                "connection from %s closed: it read none of its answer for %g s", who, seconds
            )
            self.transport.abort()  # what is buffered for it goes too

        def _arm(self, part: str, seconds: float) -> None:
            self._disarm()
            self._waiting_for = part
            self._timer = self.loop.call_later(seconds, self._expire, part, seconds)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = None
            self._waiting_for = ""

        def _expire(self, part: str, seconds: float) -> None:
            self._timer = None
            if self.transport.is_closing():
                return
            who = self.client[0] if self.client else "a client"
            log.warning(
                "connection from %s closed: its request's %s did not arrive within %g s",
                who,
                part,
                seconds,
            )
            self.transport.close()

    return Deadline


def capped(app: ASGIApp, cap: int, connections: set[Any], tasks: set[Any]) -> ASGIApp:
    """``app``, except that an HTTP request arriving while ``cap`` connections are open (every
    connection of the server, WebSockets included: uvicorn's ``connections``), or while
    ``cap`` other requests are being answered (its ``tasks``), is refused as the application
    refuses (:func:`~meeple.interfaces.web.refusals.refusal`: 503 ``server_full`` with a
    Retry-After, one log line), and the connection is closed, which gives its open file
    back."""

    async def refuse_past_the_cap(scope: Scope, receive: Receive, send: Send) -> None:
        # By now this request's own task is among ``tasks`` (uvicorn counts them before it
        # adds one), so ``cap`` others are ``cap + 1`` in all.
        if scope["type"] == "http" and (len(connections) >= cap or len(tasks) > cap):
            full = server_full(f"{cap} connections")
            answer = refusal(Request(scope), full, {"Connection": "close"})
            await answer(scope, receive, send)
            return
        await app(scope, receive, send)

    return refuse_past_the_cap
