"""The game server's WebSocket, one per client (docs/api.md): a hello naming its seat
within HELLO_SECONDS, then its messages (moves, resigning, claims, sync, the board as text,
ping) until it goes away, with a sender of its own that drops a client reading nothing
after SEND_SECONDS."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from meeple.core.errors import MeepleError
from meeple.core.files import Unreadable, parse_json
from meeple.core.text import one_line
from meeple.interfaces.web.hub import Hub
from meeple.interfaces.web.live import (
    Connection,
    LiveMatch,
    ServerError,
    error_code,
    public_message,
    state_message,
)
from meeple.interfaces.web.pages import pages_base
from meeple.interfaces.web.protocol import (
    MAX_MESSAGE_BYTES,
    BoardText,
    Claim,
    Hello,
    Move,
    Ping,
    Resign,
    SetName,
    Sync,
    client_message,
)
from meeple.interfaces.web.quotas import ClientQuotas, QuotaExceeded
from meeple.interfaces.web.refusals import validation_text, who
from meeple.store.matches import token_hash

# The server's own logger, as app.py's: a socket's lines read as they did there.
log = logging.getLogger("meeple.server")

HELLO_SECONDS = 10
"""How long a new connection may take to say who it is."""

SEND_SECONDS = 30.0
"""How long one message may take to go out to a client, and the closing of its socket: a
client that reads nothing is dropped after this, not held for as long as it keeps its
connection open."""


async def serve_socket(hub: Hub, quotas: ClientQuotas, websocket: WebSocket, match_id: str) -> None:
    """One client: a hello naming its seat, then moves, until it goes away."""
    await websocket.accept()
    client = quotas.client(websocket)
    # The quotas first: looking a match up costs a read of the database, and loading one
    # (a finished match asked for again) replays every move; a connection to a match there
    # is none of, or to one already loaded, counts as a message all the same.
    try:
        quotas.check_message(client)  # a connection is sent its state: it counts as one
        quotas.open_socket(client)
    except ServerError as exc:
        # 1013, "try again later": the server is full, not this client over its share.
        close = 4429 if isinstance(exc, QuotaExceeded) else 1013
        # The match named where this process serves it (a name from the address bar is
        # written in the log only where it is a match's).
        known = match_id if match_id in hub.matches else None
        await _refuse(websocket, _error(str(exc), code=exc.code), close, known)
        return
    try:
        try:
            match = await hub.get(match_id)
        except ServerError as exc:
            # 4404 for a match there is none of; 4503 for one the server cannot serve now
            # (set aside, or the database down), which a page must not take for a bad link.
            await _refuse(
                websocket, _error(str(exc), code=exc.code), 4404 if exc.status == 404 else 4503
            )
            return
        await _serve_open_socket(hub, quotas, websocket, match, client)
    finally:
        quotas.close_socket(client)


async def _serve_open_socket(
    hub: Hub, quotas: ClientQuotas, websocket: WebSocket, match: LiveMatch, client: str
) -> None:
    """A socket that the quotas let in: its hello, then its messages."""
    try:
        hello = await asyncio.wait_for(_receive(websocket), HELLO_SECONDS)
    except TimeoutError:
        message = f"no hello within {HELLO_SECONDS} s"
        await _refuse(websocket, _error(message, code="hello_timeout"), 4408, match.id)
        return
    except WebSocketDisconnect:
        return
    except _BadMessage as exc:  # a cut-short token, say: final, the page must not retry
        await _refuse(websocket, _error(str(exc), code=exc.code), 4400, match.id)
        return
    if not isinstance(hello, Hello):
        text = "the first message must be hello (with a token or none)"
        await _refuse(websocket, _error(text, code="hello_first"), 4400, match.id)
        return
    seat, name_refused = None, None
    token = hello.token
    if token is not None:
        try:
            # The seat's link, taken: the seat's own token replaces it (Hub.join), and the
            # welcome hands it to this page.
            seat, token, name_refused = await hub.hello_seat(match, token, hello.name, client)
            # Who holds the seat now (after a restart the server knew no one): an address
            # holding a seat takes no other open one (Hub.join).
            match.holders[seat] = client
        except MeepleError as exc:
            await _refuse(
                websocket, _error(public_message(exc), code=error_code(exc)), 4403, match.id
            )
            return
    try:
        quotas.watch(match.id, seat)
    except QuotaExceeded as exc:
        await _refuse(websocket, _error(str(exc), code=exc.code), 4429, match.id)
        return
    try:
        await _serve_hello(
            hub,
            websocket,
            match,
            seat,
            token,
            lambda: quotas.check_message(client),
            rotated=token != hello.token,
            notice=name_refused,
        )
    finally:
        quotas.unwatch(match.id, seat)


async def _serve_hello(
    hub: Hub,
    websocket: WebSocket,
    match: LiveMatch,
    seat: int | None,
    token: str | None,
    count: Callable[[], None],
    rotated: bool = False,
    notice: str | None = None,
) -> None:
    """A socket whose hello was taken, as ``seat`` with ``token``: its messages, until it
    goes away. ``count`` counts each message against its client's rate (QuotaExceeded past
    it: the socket is closed, 4429). ``rotated``: the hello's token was the seat's link,
    just taken, and ``token`` the seat's own, which the welcome hands to the page.
    ``notice``: why the hello's name was not used, sent after the welcome."""
    # Links sent to this client alone (a rematch's seat) are on the address it used.
    held = None if token is None else token_hash(token)
    conn = Connection(seat, token=held, base_url=pages_base(websocket))
    welcome: dict[str, Any] = {
        "type": "welcome",
        "match": match.id,
        "seat": seat,
        # The claim seconds let a page count down to when an absent person may be claimed
        # from (None: no claims here).
        "claim_seconds": hub.limits.claim_seconds or None,
    }
    if rotated:
        welcome["token"] = token
    await websocket.send_json(welcome)
    if notice is not None:
        await websocket.send_json(_error(notice, code="name_not_used"))
    hub.attach(match, conn)
    sender = asyncio.create_task(_send_loop(websocket, conn))
    try:
        while not conn.closed:
            # Once the sender has stopped (the client dropped for reading too slowly, or
            # gone), nothing more is read: a client that sends nothing more would otherwise
            # hold the socket open for good.
            receiving = asyncio.ensure_future(_receive(websocket))
            await asyncio.wait((receiving, sender), return_when=asyncio.FIRST_COMPLETED)
            if not receiving.done():
                receiving.cancel()
                break
            try:
                message = receiving.result()
            except _BadMessage as exc:
                message = exc
            try:
                count()  # a bad message too: it costs a line of the log
            except QuotaExceeded as exc:
                log.warning(
                    "socket on %s from %s closed (%s): %s", match.id, who(websocket), exc.code, exc
                )
                conn.send(_error(str(exc), code=exc.code))
                conn.close(4429)
                break
            if isinstance(message, _BadMessage):
                log.warning(
                    "match %s: a message from %s refused (%s): %s",
                    match.id,
                    who(websocket),
                    message.code,
                    one_line(str(message))[:200],
                )
                conn.send(_error(str(message), code=message.code))
                continue
            await _handle(hub, match, conn, message)
    except WebSocketDisconnect:
        pass
    finally:
        hub.detach(match, conn)
        with contextlib.suppress(Exception):
            await sender


class _BadMessage(Exception):
    """A client message that is not one the protocol allows; ``code`` names why."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


async def _receive(websocket: WebSocket) -> Any:
    """The next client message, validated; _BadMessage if it is none the protocol allows,
    WebSocketDisconnect once the client has gone."""
    frame = await websocket.receive()
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000), frame.get("reason"))
    text = frame.get("text")
    if text is None:
        raise _BadMessage(
            'a message is JSON text, not a binary frame, e.g. {"type": "ping"}', "binary_frame"
        )
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        raise _BadMessage(f"message too large: at most {MAX_MESSAGE_BYTES} bytes", "too_large")
    try:
        data = parse_json(text)
    except Unreadable as exc:
        raise _BadMessage(
            f'a message is one JSON object, e.g. {{"type": "ping"}}; this one is {exc}',
            "bad_json",
        ) from None
    try:
        return client_message.validate_python(data)
    except ValidationError as exc:
        raise _BadMessage(
            "bad message: "
            + validation_text(exc)
            + "; types: hello, move, resign, claim, sync, board_text, ping, name",
            "bad_message",
        ) from None


async def _handle(hub: Hub, match: LiveMatch, conn: Connection, message: Any) -> None:
    if conn.seat is not None:
        # A message after the welcome: the seat's token reached its page (Hub.retaken).
        match.unconfirmed.pop(conn.seat, None)
    if isinstance(message, Ping):
        conn.send({"type": "pong"})
    elif isinstance(message, Sync):
        conn.log_sent = 0
        conn.send(state_message(match, conn, hub.clock()))
    elif isinstance(message, BoardText):
        # Answered with the state, as a sync is (its log only what is new): the text is
        # drawn for this connection's seat, so a spectator's is a spectator's.
        conn.board_text = message.show
        conn.send(state_message(match, conn, hub.clock()))
    elif isinstance(message, Hello):
        conn.send(_error("already said hello on this connection", code="hello_twice"))
    elif isinstance(message, Resign | Claim | SetName):
        if conn.seat is None:
            what = "give a name" if isinstance(message, SetName) else message.type
            text = f"spectators watch; a seat's token is needed to {what}"
            conn.send(_error(text, code="spectator"))
            return
        try:
            if isinstance(message, Resign):
                await hub.resign(match, conn.seat)
            elif isinstance(message, SetName):
                await hub.name_seat(match, conn.seat, message.name)
            else:
                await hub.claim(match, conn.seat, message.seat)
        except MeepleError as exc:
            conn.send(_error(public_message(exc), code=error_code(exc)))
    elif isinstance(message, Move):
        try:
            await hub.move(match, conn, message.seq, message.action, message.action_id)
        except MeepleError as exc:
            # ``move_seq``: which move this refuses. A page that sent its next move on a newer
            # state must not take the refusal of an older one for its own (and send twice).
            refusal = _error(public_message(exc), seq=match.seq, code=error_code(exc))
            conn.send({**refusal, "move_seq": message.seq})
            if message.seq != match.seq:
                conn.send(state_message(match, conn, hub.clock()))


def _error(message: str, seq: int | None = None, code: str = "bad_request") -> dict[str, Any]:
    return {"type": "error", "message": message, "code": code, "seq": seq}


async def _refuse(
    websocket: WebSocket, error: dict[str, Any], close_code: int, match_id: str | None = None
) -> None:
    """Answer a connection that cannot go on with the error, then close it with a 44xx
    code: one warning line in the log, naming the match where there is one."""
    where = f"socket on {match_id}" if match_id else "a connection"
    log.warning(
        "%s from %s refused (%s): %s",
        where,
        who(websocket),
        error["code"],
        one_line(error["message"])[:200],
    )
    with contextlib.suppress(Exception):
        await websocket.send_json(error)
    await _close(websocket, close_code)


async def _send_loop(websocket: WebSocket, conn: Connection) -> None:
    """Send the connection's messages until it is closed, then close its socket; a message
    that does not go out within SEND_SECONDS (the client reads nothing) ends it too."""
    try:
        while True:
            message = await conn.outbox.get()
            if message is None:
                break
            await asyncio.wait_for(websocket.send_json(message), SEND_SECONDS)
    except Exception:  # the socket went away, or its client stopped reading
        conn.close()
    finally:
        await _close(websocket, conn.close_code)


async def _close(websocket: WebSocket, code: int) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(websocket.close(code=code), SEND_SECONDS)
