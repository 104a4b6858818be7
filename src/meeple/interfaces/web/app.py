"""The game server's web application: the lobby's REST API and one WebSocket per client.

``create_app`` builds a FastAPI application around a :class:`~meeple.interfaces.web.hub.Hub`;
``meeple serve`` runs it on uvicorn. The protocol is documented in docs/server.md and, for
the REST part, on the OpenAPI page FastAPI serves at ``/docs``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Body, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from meeple.core.errors import MeepleError
from meeple.core.registry import make
from meeple.interfaces.web.hub import Hub
from meeple.interfaces.web.live import Connection, LiveMatch, ServerError, state_message
from meeple.interfaces.web.pool import AgentPool
from meeple.interfaces.web.protocol import (
    MAX_MESSAGE_BYTES,
    CreateMatch,
    Hello,
    JoinRequest,
    Move,
    Ping,
    Resign,
    SeatRequest,
    Sync,
    client_message,
)
from meeple.store.matches import MatchStore

log = logging.getLogger("meeple.server")

HELLO_SECONDS = 10
"""How long a new connection may take to say who it is."""


def create_app(
    db: str,
    agent_workers: int | None = None,
    base_url: str = "",
) -> FastAPI:
    """The server application, storing matches at the SQLAlchemy URL ``db``."""
    store = MatchStore(db)
    hub = Hub(store, AgentPool(agent_workers), base_url=base_url)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            store.close()

    app = FastAPI(
        title="meeple game server",
        summary="Play meeple's five games online: a lobby API and one WebSocket per client.",
        description="The WebSocket protocol (`/ws/{match}`) is described in docs/server.md.",
        lifespan=lifespan,
    )
    app.state.hub = hub

    @app.exception_handler(MeepleError)
    async def meeple_error(_request: Request, exc: MeepleError) -> JSONResponse:
        status = exc.status if isinstance(exc, ServerError) else 400
        return JSONResponse({"error": str(exc)}, status_code=status)

    @app.exception_handler(ValidationError)
    @app.exception_handler(RequestValidationError)
    async def bad_body(
        _request: Request, exc: ValidationError | RequestValidationError
    ) -> JSONResponse:
        return JSONResponse({"error": _validation_text(exc)}, status_code=422)

    @app.get("/api/games", summary="The games, their options and the agents each accepts")
    async def list_games() -> list[dict[str, Any]]:
        return hub.catalogue()

    @app.get("/api/games/{game}/cards", summary="A game's cards, for pages that draw them")
    async def card_list(game: str) -> list[dict[str, Any]]:
        # Views name cards by id; a drawing needs what each one shows (Game.card_list).
        return make(game).card_list()

    @app.post("/api/matches", summary="Create a match; returns a secret token per person's seat")
    async def create_match(request: CreateMatch) -> dict[str, Any]:
        return await hub.create(request)

    @app.get("/api/matches", summary="Listed matches: open seats, live, or finished")
    async def list_matches(
        status: Annotated[Literal["open", "live", "finished"], Query()] = "live",
    ) -> list[dict[str, Any]]:
        return await hub.listing(status)

    @app.get("/api/matches/{match_id}", summary="One match: seats, status, result")
    async def get_match(match_id: str) -> dict[str, Any]:
        return (await hub.get(match_id)).summary()

    @app.post(
        "/api/matches/{match_id}/join", summary="Take a seat (with its token, or an open one)"
    )
    async def join(match_id: str, request: JoinRequest) -> dict[str, Any]:
        match = await hub.get(match_id)
        return await hub.join(match, request.token, request.seat, request.name)

    @app.post("/api/matches/{match_id}/leave", summary="Give a seat up for someone else")
    async def leave(match_id: str, request: SeatRequest) -> dict[str, Any]:
        return await hub.leave(await hub.get(match_id), request.token)

    @app.post("/api/matches/{match_id}/resign", summary="Resign a seat")
    async def resign(match_id: str, request: SeatRequest) -> dict[str, Any]:
        match = await hub.get(match_id)
        await hub.resign(match, hub.seat_of(match, request.token))
        return match.summary()

    @app.post(
        "/api/matches/{match_id}/rematch", summary="A new match of the same game, seats rotated"
    )
    async def rematch(match_id: str, request: SeatRequest) -> dict[str, Any]:
        match = await hub.get(match_id)
        return await hub.rematch(match, hub.seat_of(match, request.token))

    @app.get("/api/matches/{match_id}/record", summary="The full record, once the match is over")
    async def record(match_id: str) -> dict[str, Any]:
        match = await hub.get(match_id)
        if match.stored.status != "finished":
            raise ServerError("the record is shown to all once the match is over", 403)
        return match.record().model_dump(mode="json")

    @app.post(
        "/api/replay", summary="Check an uploaded record and return every state to step through"
    )
    async def replay(
        request: Request,
        record: Annotated[
            dict[str, Any] | None,
            Body(description="a game record, as `meeple play --save` writes it"),
        ] = None,
    ) -> dict[str, Any]:
        del record  # declared for the OpenAPI page; the body is read with a size limit
        text = await _read_limited(request, MAX_RECORD_BYTES)
        return await asyncio.to_thread(_replay_states, text)

    @app.websocket("/ws/{match_id}")
    async def socket(websocket: WebSocket, match_id: str) -> None:
        await _serve_socket(hub, websocket, match_id)

    pages = Path(__file__).parent / "static"
    if (pages / "index.html").exists():
        from meeple.interfaces.web.pages import mount_pages

        mount_pages(app, pages)
    return app


MAX_RECORD_BYTES = 2_000_000
"""The largest record the replay endpoint reads (a long Squad Combat game is ~30 kB)."""


async def _read_limited(request: Request, limit: int) -> str:
    """The request body as text, refused (413) past ``limit`` bytes without reading it all."""
    size = 0
    chunks = []
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ServerError(f"the record is too large: at most {limit:,} bytes", 413)
        chunks.append(chunk)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise ServerError("the record is not UTF-8 text") from None


def _replay_states(text: str) -> dict[str, Any]:
    """A record's states as a spectator sees them, every hand open once it is over."""
    from meeple.core.record import GameRecord

    record = GameRecord.from_json(text)
    states = record.states()
    # A match can end before its game does (a resign): the record's result says so, and the
    # record holds every move and the seed, so every seat's view hides nothing it lacks.
    ended = bool(record.result and record.result.get("over"))
    over = states[-1].is_over or ended
    return {
        "game": record.game,
        "options": record.options,
        "moves": [{"n": n, "seat": p, "text": t} for n, (p, t) in enumerate(record.moves, 1)],
        "views": [
            {
                "spectator": s.view(None),
                "seats": [s.view(p) for p in range(s.game.num_players)] if over else None,
            }
            for s in states
        ],
        "result": (record.result if ended else states[-1].result) if over else None,
    }


def _validation_text(exc: ValidationError | RequestValidationError) -> str:
    """Pydantic's errors as one line: where, and what was wrong."""
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'message'}: {e['msg']}" for e in exc.errors()
    )


async def _serve_socket(hub: Hub, websocket: WebSocket, match_id: str) -> None:
    """One client: a hello naming its seat, then moves, until it goes away."""
    await websocket.accept()
    try:
        match = await hub.get(match_id)
    except ServerError as exc:
        await websocket.send_json({"type": "error", "message": str(exc)})
        await websocket.close(code=4404)
        return
    try:
        hello = await asyncio.wait_for(_receive(websocket), HELLO_SECONDS)
    except (TimeoutError, WebSocketDisconnect):
        await _close(websocket, 4408)
        return
    except _BadMessage as exc:  # a cut-short token, say: final, the page must not retry
        await websocket.send_json(_error(str(exc)))
        await _close(websocket, 4400)
        return
    if not isinstance(hello, Hello):
        await websocket.send_json(_error("the first message must be hello (with a token or none)"))
        await _close(websocket, 4400)
        return
    seat = None
    if hello.token is not None:
        try:
            seat = hub.seat_of(match, hello.token)
            if not match.stored.seats[seat]["joined"]:
                await hub.join(match, hello.token, None, hello.name)
        except ServerError as exc:
            await websocket.send_json(_error(str(exc)))
            await _close(websocket, 4403)
            return
    conn = Connection(seat)
    await websocket.send_json({"type": "welcome", "match": match.id, "seat": seat})
    hub.attach(match, conn)
    sender = asyncio.create_task(_send_loop(websocket, conn))
    try:
        while not conn.closed:
            try:
                message = await _receive(websocket)
            except _BadMessage as exc:
                conn.send(_error(str(exc)))
                continue
            await _handle(hub, match, conn, message)
    except WebSocketDisconnect:
        pass
    finally:
        hub.detach(match, conn)
        with contextlib.suppress(Exception):
            await sender


class _BadMessage(Exception):
    pass


async def _receive(websocket: WebSocket) -> Any:
    text = await websocket.receive_text()
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        raise _BadMessage(f"message too large: at most {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise _BadMessage('a message is one JSON object, e.g. {"type": "ping"}') from None
    try:
        return client_message.validate_python(data)
    except ValidationError as exc:
        raise _BadMessage(
            "bad message: " + _validation_text(exc) + "; types: hello, move, resign, sync, ping"
        ) from None


async def _handle(hub: Hub, match: LiveMatch, conn: Connection, message: Any) -> None:
    if isinstance(message, Ping):
        conn.send({"type": "pong"})
    elif isinstance(message, Sync):
        conn.log_sent = 0
        conn.send(state_message(match, conn, hub.clock()))
    elif isinstance(message, Hello):
        conn.send(_error("already said hello on this connection"))
    elif isinstance(message, Resign):
        if conn.seat is None:
            conn.send(_error("spectators watch; a seat's token is needed to resign"))
            return
        try:
            await hub.resign(match, conn.seat)
        except MeepleError as exc:
            conn.send(_error(str(exc)))
    elif isinstance(message, Move):
        try:
            await hub.move(match, conn, message.seq, message.action, message.action_id)
        except MeepleError as exc:
            conn.send(_error(str(exc), seq=match.seq))
            if message.seq != match.seq:
                conn.send(state_message(match, conn, hub.clock()))


def _error(message: str, seq: int | None = None) -> dict[str, Any]:
    return {"type": "error", "message": message, "seq": seq}


async def _send_loop(websocket: WebSocket, conn: Connection) -> None:
    try:
        while True:
            message = await conn.outbox.get()
            if message is None:
                break
            await websocket.send_json(message)
    except Exception:  # the socket went away; the receive side notices too
        conn.close()
    finally:
        await _close(websocket, 1000)


async def _close(websocket: WebSocket, code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.close(code=code)
