"""The game server's web application: the lobby's REST API and one WebSocket per client.

``create_app`` builds a FastAPI application around a :class:`~meeple.interfaces.web.hub.Hub`;
``meeple serve`` runs it on uvicorn. The protocol is documented in docs/api.md and, for
the REST part, on the OpenAPI page FastAPI serves at ``/docs``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, HTTPConnection

from meeple.agents import available_agents
from meeple.core.about import meeple_version
from meeple.core.errors import MeepleError
from meeple.core.files import Unreadable, parse_json
from meeple.core.game import Game, shorten
from meeple.core.registry import make
from meeple.interfaces.web.content_sets import ContentSets
from meeple.interfaces.web.hub import Hub
from meeple.interfaces.web.limits import ServerLimits
from meeple.interfaces.web.live import (
    STATUS_CODES,
    Connection,
    LiveMatch,
    ServerError,
    error_code,
    state_message,
)
from meeple.interfaces.web.pages import STATIC, mount_pages, page_not_found, wants_page
from meeple.interfaces.web.pool import AgentOverrun, AgentPool
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
from meeple.interfaces.web.quotas import BodyLimit, ClientQuotas, QuotaExceeded
from meeple.interfaces.web.replays import (
    MAX_RECORD_BYTES,
    REPLAY_SECONDS,
    replay_answer,
    review_upload,
)
from meeple.interfaces.web.reviews import ReviewJob, Reviews
from meeple.interfaces.web.rules import game_from_query, rules_reply
from meeple.store.db import StorageUnavailable
from meeple.store.matches import MatchStore
from meeple.store.reviews import ReviewStore

log = logging.getLogger("meeple.server")

HELLO_SECONDS = 10
"""How long a new connection may take to say who it is."""

SEND_SECONDS = 30.0
"""How long one message may take to go out to a client, and the closing of its socket: a
client that reads nothing is dropped after this, not held for as long as it keeps its
connection open."""


def create_app(
    db: str,
    agent_workers: int | None = None,
    base_url: str = "",
    limits: ServerLimits | None = None,
    content: Path | None = None,
) -> FastAPI:
    """The server application, storing matches at the SQLAlchemy URL ``db``, within the
    operator's ``limits`` (defaults: :class:`ServerLimits`)."""
    store = MatchStore(db)
    store.check()
    sets = ContentSets(content)
    # One more worker, for the agents that do not search: their replies never queue behind
    # a search (threads, as the others, with --agent-workers 0).
    light = AgentPool(0 if agent_workers == 0 else 1)
    hub = Hub(
        store,
        AgentPool(agent_workers),
        base_url=base_url,
        limits=limits,
        content=sets,
        light=light,
    )
    quotas = ClientQuotas(hub.limits, held=hub.held)
    # Uploaded records are checked in a process of their own (threads where agents run in
    # threads): one worker, so uploads wait their turn instead of taking every core.
    replays = AgentPool(
        0 if agent_workers == 0 else 1,
        tasks={"replay": replay_answer, "review_upload": review_upload},
    )

    async def check_upload(task: str, body: bytes) -> Any:
        """An uploaded record checked by the replays' worker (``task``: a name in
        ``replays.tasks``): its answer, or the refusal as a ServerError."""
        try:
            kind, answer, code = await replays.run(task, (body, sets), REPLAY_SECONDS)
        except AgentOverrun:
            raise ServerError(
                f"the record took more than {REPLAY_SECONDS:g} s to check; upload a shorter one",
                413,
                "too_large",
            ) from None
        except MeepleError as exc:  # its worker stopped: the server is stopping, or it died
            raise ServerError(
                f"the record could not be checked now ({exc}); try again in a moment",
                503,
                "unavailable",
            ) from None
        if kind != "ok":
            raise ServerError(answer, 400, code)
        return answer

    async def stop_replays() -> None:
        await hub.stopped.wait()  # SIGTERM: a record being checked is abandoned at once
        replays.close()

    reviews = Reviews(ReviewStore(store.engine), hub.limits)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # The replays' worker, as the agents', starts at its first task (its start is not
        # counted in the task's allowance): a process importing meeple is not spent on a
        # server that is never sent a record.
        await hub.start()
        watcher = asyncio.create_task(stop_replays())
        try:
            yield
        finally:
            reviews.close()
            await hub.stop()
            await watcher
            store.close()

    app = FastAPI(
        title="meeple game server",
        summary="Play meeple's five games online: a lobby API and one WebSocket per client.",
        description="The WebSocket protocol (`/ws/{match}`) is described in docs/api.md.",
        version=meeple_version(),
        lifespan=lifespan,
        dependencies=[Depends(_declared_query_only)],
    )
    app.state.hub = hub
    app.state.reviews = reviews
    # Bodies are counted as they arrive: a client cannot make the server hold more than
    # this (an uploaded record has its own, larger, limit, checked the same way).
    app.add_middleware(
        BodyLimit,
        limit=hub.limits.max_body_bytes,
        larger={"/api/replay": MAX_RECORD_BYTES, "/api/replay/review": MAX_RECORD_BYTES},
    )
    app.add_middleware(_StopReading, stopped=hub.stopped)

    # Every refusal, whatever raised it, is {"error": ..., "code": ...} (docs/api.md).
    @app.exception_handler(MeepleError)
    async def meeple_error(request: Request, exc: MeepleError) -> JSONResponse:
        return refusal(request, exc)

    @app.exception_handler(ValidationError)
    @app.exception_handler(RequestValidationError)
    async def bad_body(
        request: Request, exc: ValidationError | RequestValidationError
    ) -> JSONResponse:
        return _refusal(request, _validation_text(exc), "invalid_request", 422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        status = exc.status_code
        if status == 404 and wants_page(request):
            _refusal(request, "no such page", "not_found", status)  # its log line
            return page_not_found(request)
        code = STATUS_CODES.get(status, "bad_request")
        message = str(exc.detail)
        if status == 404:
            message = f"there is no {request.url.path}; the API is under /api (listed at /docs)"
        elif status == 405:
            message = f"{request.url.path} does not take {request.method}"
        elif exc.detail == "There was an error parsing the body":
            # FastAPI's words for JSON that json.loads refuses other than by syntax: a
            # number of more than 4,300 digits (Python's limit on reading an int).
            message = "the body is not JSON that can be read (a number has too many digits?)"
            code = "bad_json"
        return _refusal(request, message, code, status, getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def server_fault(_request: Request, _exc: Exception) -> JSONResponse:
        # A fault of the server, not of the request: Starlette raises it on after this
        # answer, and its traceback goes to the log.
        return JSONResponse(
            {"error": "the server failed on this request", "code": "internal_error"},
            status_code=500,
        )

    @app.get("/api/games", summary="The games, their options and the agents each accepts")
    async def list_games() -> list[dict[str, Any]]:
        return hub.lobby.catalogue()

    @app.get("/api/games/{game}/cards", summary="A game's cards, for pages that draw them")
    async def card_list(
        game: str,
        options: Annotated[
            str | None,
            Query(description='the options as a JSON object, e.g. {"cards": "set:mine"}'),
        ] = None,
    ) -> list[dict[str, Any]]:
        # Views name cards by id; a drawing needs what each one shows (Game.card_list), and
        # a match's options choose its cards (a content set, Erosion's legend cards).
        return await asyncio.to_thread(
            lambda: game_from_query(game, options, hub.content, "the cards request").card_list()
        )

    @app.get("/api/games/{game}/rules", summary="How to play, for the options given (JSON)")
    async def game_rules(
        game: str,
        options: Annotated[
            str | None, Query(description='the options as a JSON object, e.g. {"rules": "0.01"}')
        ] = None,
    ) -> dict[str, Any]:
        # Rules for players (Game.player_rules), as Markdown and as HTML made here.
        return await asyncio.to_thread(
            lambda: rules_reply(game_from_query(game, options, hub.content, "the rules request"))
        )

    @app.post("/api/matches", summary="Create a match; returns a secret token per person's seat")
    async def create_match(request: CreateMatch, http: Request) -> dict[str, Any]:
        client = quotas.client(http)
        async with quotas.creating(client, hub.unfinished) as made:
            created = await hub.create(request, owner=client)
            made["match"] = created["match"]
        return created

    @app.post(
        "/api/tutorials/{game}",
        summary="Start a game's guided first game against its scripted opponent",
    )
    async def create_tutorial(game: str, http: Request) -> dict[str, Any]:
        async with quotas.creating(quotas.client(http), hub.unfinished) as made:
            created = await hub.create_tutorial(game)
            made["match"] = created["match"]
        return created

    @app.get("/api/matches", summary="Listed matches: open seats, live, or finished")
    async def list_matches(
        status: Annotated[Literal["open", "live", "finished"], Query()] = "live",
        limit: Annotated[
            int | None,
            Query(ge=1, description="the most matches listed (default and cap: the server's page)"),
        ] = None,
    ) -> list[dict[str, Any]]:
        page = hub.limits.lobby_page_size
        if limit is not None and limit > page:
            raise ServerError(
                f"limit: at most {page} matches a page on this server", 422, "invalid_request"
            )
        return await hub.lobby.listing(status, limit or page)

    @app.get("/api/matches/{match_id}", summary="One match: seats, status, result")
    async def get_match(match_id: str) -> dict[str, Any]:
        return (await hub.get(match_id)).summary()

    @app.get("/api/matches/{match_id}/rules", summary="How to play, for this match's options")
    async def match_rules(match_id: str) -> dict[str, Any]:
        match = await hub.get(match_id)
        return await asyncio.to_thread(rules_reply, match.game)

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
    async def rematch(match_id: str, request: SeatRequest, http: Request) -> dict[str, Any]:
        match = await hub.get(match_id)
        seat = hub.seat_of(match, request.token)
        async with quotas.creating(quotas.client(http), hub.unfinished) as made:
            rematched = await hub.rematch(match, seat)
            if rematched["match"] is not None:
                made["match"] = rematched["match"]
        return rematched

    @app.post("/api/matches/{match_id}/rematch/decline", summary="Decline the rematch offered")
    async def decline_rematch(match_id: str, request: SeatRequest) -> dict[str, Any]:
        match = await hub.get(match_id)
        return await hub.decline_rematch(match, hub.seat_of(match, request.token))

    @app.post(
        "/api/matches/{match_id}/hint",
        summary="The move the game's judge suggests to your seat now (games against the computer)",
    )
    async def hint(match_id: str, request: SeatRequest, http: Request) -> dict[str, Any]:
        match = await hub.get(match_id)
        seat = hub.seat_of(match, request.token)
        hub.hints.check(match, seat)  # refusals that cost nothing come before the rate
        quotas.check_hint(quotas.client(http))
        return await hub.hints.hint(match, seat)

    @app.get("/api/matches/{match_id}/record", summary="The full record, once the match is over")
    async def record(match_id: str) -> dict[str, Any]:
        match = await hub.get(match_id)
        if match.stored.status != "finished":
            raise ServerError("the record is shown to all once the match is over", 403, "not_over")
        return match.record().model_dump(mode="json")

    @app.get(
        "/api/matches/{match_id}/review",
        summary="A finished match's review: every decision judged (202 while computed)",
    )
    async def match_review(
        match_id: str,
        start: Annotated[
            bool,
            Query(
                description='false: only a review stored or being computed (else {"status": '
                '"not_reviewed"})'
            ),
        ] = True,
    ) -> JSONResponse:
        match = await hub.get(match_id)
        if match.stored.status != "finished":
            raise ServerError(
                "a match is reviewed once it is over; ask again when it has finished",
                409,
                "not_finished",
            )
        stored = match.stored
        options = hub.content.resolve(stored.game, stored.options)
        job = _review_job(match.game, options, stored.seed, list(stored.moves), hub)
        return _review_reply(await reviews.answer(job, start))

    @app.post(
        "/api/replay/review",
        summary="Review an uploaded record (202 while computed; then ask by its key)",
        openapi_extra={
            "requestBody": {
                "required": True,
                "description": "a game record, as `meeple play --save` writes it",
                "content": {"application/json": {"schema": {"type": "object"}}},
            }
        },
    )
    async def replay_review(
        request: Request,
        start: Annotated[
            bool,
            Query(
                description='false: only a review stored or being computed (else {"status": '
                '"not_reviewed"})'
            ),
        ] = True,
    ) -> JSONResponse:
        quotas.check_replay(quotas.client(request))
        body = await _read_limited(request, MAX_RECORD_BYTES)
        name, options, seed, moves = await check_upload("review_upload", body)
        job = _review_job(make(name, **options), options, seed, moves, hub)
        return _review_reply(await reviews.answer(job, start))

    @app.get(
        "/api/replay/review/{key}",
        summary="An uploaded record's review, by the key its upload answered",
    )
    async def replay_review_by_key(key: str) -> JSONResponse:
        found = await reviews.lookup(key) if _is_key(key) else None
        if found is None:
            raise ServerError(
                "no review is kept or being computed under this key; POST the record to "
                "/api/replay/review",
                404,
                "unknown_review",
            )
        return _review_reply(found)

    @app.post(
        "/api/replay",
        summary="Check an uploaded record and return every state to step through",
        openapi_extra={
            "requestBody": {
                "required": True,
                "description": "a game record, as `meeple play --save` writes it",
                "content": {"application/json": {"schema": {"type": "object"}}},
            }
        },
    )
    async def replay(request: Request) -> Response:
        # The body is not declared as a parameter: FastAPI would parse up to 2 MB of JSON on
        # the event loop, stalling every match; it is read here, and parsed, checked and
        # replayed in a worker process (replays.py).
        quotas.check_replay(quotas.client(request))
        body = await _read_limited(request, MAX_RECORD_BYTES)
        return Response(await check_upload("replay", body), media_type="application/json")

    @app.websocket("/ws/{match_id}")
    async def socket(websocket: WebSocket, match_id: str) -> None:
        # A client may go at any moment, between its hello and the welcome too (a page
        # closed as it loads): a send then fails, which ends its socket and is no error.
        with contextlib.suppress(WebSocketDisconnect):
            await _serve_socket(hub, quotas, websocket, match_id)

    if (STATIC / "index.html").exists():
        mount_pages(app, STATIC)
    return app


class _StopReading:
    """ASGI middleware: once the server is stopping, a request still waiting for its body
    (a stalled upload) reads the end of the connection, and is answered at once, instead of
    holding the server up until uvicorn cancels it (with a traceback in the log)."""

    def __init__(self, app: Any, stopped: asyncio.Event) -> None:
        self.app = app
        self.stopped = stopped

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def receive_until_stopped() -> Any:
            if self.stopped.is_set():
                return {"type": "http.disconnect"}
            message = asyncio.ensure_future(receive())
            stop = asyncio.ensure_future(self.stopped.wait())
            await asyncio.wait((message, stop), return_when=asyncio.FIRST_COMPLETED)
            stop.cancel()
            if message.done():
                return message.result()
            message.cancel()
            return {"type": "http.disconnect"}

        await self.app(scope, receive_until_stopped, send)


async def _read_limited(request: Request, limit: int) -> bytes:
    """The request body, refused (413) past ``limit`` bytes without reading it all."""
    size = 0
    chunks = []
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise ServerError(f"the record is too large: at most {limit:,} bytes", 413)
            chunks.append(chunk)
    except ClientDisconnect:
        raise ServerError(
            "the body was cut off before its end (the client went away, or the server is stopping)",
            400,
            "cut_off",
        ) from None
    return b"".join(chunks)


def _review_job(
    game: Game[Any, Any, Any],
    options: dict[str, Any],
    seed: int,
    moves: list[tuple[int, str]],
    hub: Hub,
) -> ReviewJob:
    """A review of these moves, under the server's limits: its search budget, and whether
    the judge may solve the rules first (the variants the server prepares for its agents)."""
    solve = hub.limits.prepare_any_variant or any(
        getattr(factory, "shipped", None) is not None and factory.shipped(game)
        for factory in available_agents(game).values()
    )
    iterations = hub.limits.review_iterations or None
    return ReviewJob(game.name, options, seed, moves, iterations, solve)


def _review_reply(review: dict[str, Any]) -> JSONResponse:
    """A review or that there is none (200), or that it is being computed (202: ask again)."""
    return JSONResponse(review, status_code=202 if review.get("status") == "computing" else 200)


def _is_key(text: str) -> bool:
    """Whether ``text`` looks like a review's key (64 hex digits)."""
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def refusal(
    request: Request, exc: MeepleError, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The answer to a request that ``exc`` refuses, as every refusal is answered
    (docs/api.md): its status (400 unless it says otherwise, 503 where the database
    failed), ``{"error", "code"}``, a Retry-After where it says when to ask again, and
    ``headers`` besides."""
    status = exc.status if isinstance(exc, ServerError) else 400
    if isinstance(exc, StorageUnavailable):
        status = 503
    wait = exc.retry_after if isinstance(exc, ServerError) else None
    answer_headers = {"Retry-After": str(wait)} if wait else {}
    answer_headers.update(headers or {})
    return _refusal(request, str(exc), error_code(exc), status, answer_headers or None)


def _refusal(
    request: Request,
    message: str,
    code: str,
    status: int,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    """A refused request: one warning line in the log (never a traceback), and the client
    is told what was wrong."""
    # A path is the client's to write (up to the HTTP parser's limit): the log line is
    # bounded whatever the client sends, as the message is.
    path = shorten(request.url.path, 200)
    log.warning("%s %s refused (%s): %s", request.method, path, code, message[:200])
    return JSONResponse({"error": message, "code": code}, status_code=status, headers=headers)


def _declared_query_only(connection: HTTPConnection) -> None:
    """Refuse a query parameter that an API route does not take. Ignored, a misspelt one
    (``/api/matches?stauts=open``) would be answered as if it were not there."""
    route = connection.scope.get("route")
    if not connection.url.path.startswith("/api/") or not isinstance(route, APIRoute):
        return  # pages keep whatever a link adds to their address
    known = sorted(_query_names(route.dependant))
    unknown = sorted(set(connection.query_params) - set(known))
    if unknown:
        takes = f"it takes {', '.join(known)}" if known else "it takes none"
        path = shorten(connection.url.path, 200)
        # Names are the client's to write: quoted (a line break stays two characters in the
        # log) and at most five of them, however many were sent.
        named = ", ".join(shorten(repr(name), 40) for name in unknown[:5])
        if len(unknown) > 5:
            named += f" and {len(unknown) - 5} more"
        raise RequestValidationError(
            [
                {
                    "type": "extra_forbidden",
                    "loc": ("query",),
                    "msg": f"{path} has no parameter {named}; {takes}",
                }
            ]
        )
    # Every query parameter of the API takes one value (test_api_routes_take_single_values):
    # given twice, ?status=open&status=live would be answered for the last one alone.
    twice = sorted({name for name in known if len(connection.query_params.getlist(name)) > 1})
    if twice:
        raise RequestValidationError(
            [
                {
                    "type": "too_long",
                    "loc": ("query", twice[0]),
                    "msg": "given more than once; give it once",
                }
            ]
        )


def _query_names(dependant: Dependant) -> set[str]:
    """The query parameters a route (or dependency) declares, its dependencies' included."""
    names = {param.alias for param in dependant.query_params}
    for dependency in dependant.dependencies:
        names |= _query_names(dependency)
    return names


def _validation_text(exc: ValidationError | RequestValidationError) -> str:
    """Pydantic's errors as one line: where, and what was wrong."""
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'message'}: {e['msg']}" for e in exc.errors()
    )


async def _serve_socket(
    hub: Hub, quotas: ClientQuotas, websocket: WebSocket, match_id: str
) -> None:
    """One client: a hello naming its seat, then moves, until it goes away."""
    await websocket.accept()
    try:
        match = await hub.get(match_id)
    except ServerError as exc:
        await _refuse(websocket, _error(str(exc), code=exc.code), 4404)
        return
    client = quotas.client(websocket)
    try:
        quotas.check_message(client)  # a connection is sent its state: it counts as one
        quotas.open_socket(client)
    except ServerError as exc:
        # 1013, "try again later": the server is full, not this client over its share.
        close = 4429 if isinstance(exc, QuotaExceeded) else 1013
        await _refuse(websocket, _error(str(exc), code=exc.code), close, match.id)
        return
    try:
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
    seat = None
    if hello.token is not None:
        try:
            seat = hub.seat_of(match, hello.token)
            if not match.stored.seats[seat]["joined"]:
                await hub.join(match, hello.token, None, hello.name)
        except MeepleError as exc:
            await _refuse(websocket, _error(str(exc), code=error_code(exc)), 4403, match.id)
            return
    try:
        quotas.watch(match.id, seat)
    except QuotaExceeded as exc:
        await _refuse(websocket, _error(str(exc), code=exc.code), 4429, match.id)
        return
    try:
        await _serve_hello(hub, websocket, match, seat, lambda: quotas.check_message(client))
    finally:
        quotas.unwatch(match.id, seat)


async def _serve_hello(
    hub: Hub,
    websocket: WebSocket,
    match: LiveMatch,
    seat: int | None,
    count: Callable[[], None],
) -> None:
    """A socket whose hello was taken, as ``seat``: its messages, until it goes away.
    ``count`` counts each message against its client's rate (QuotaExceeded past it: the
    socket is closed, 4429)."""
    conn = Connection(seat)
    await websocket.send_json({"type": "welcome", "match": match.id, "seat": seat})
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
                log.warning("socket on %s closed (%s): %s", match.id, exc.code, exc)
                conn.send(_error(str(exc), code=exc.code))
                conn.close(4429)
                break
            if isinstance(message, _BadMessage):
                log.warning("match %s: a client's message refused: %s", match.id, message)
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
            "bad message: " + _validation_text(exc) + "; types: hello, move, resign, sync, ping",
            "bad_message",
        ) from None


async def _handle(hub: Hub, match: LiveMatch, conn: Connection, message: Any) -> None:
    if isinstance(message, Ping):
        conn.send({"type": "pong"})
    elif isinstance(message, Sync):
        conn.log_sent = 0
        conn.send(state_message(match, conn, hub.clock()))
    elif isinstance(message, Hello):
        conn.send(_error("already said hello on this connection", code="hello_twice"))
    elif isinstance(message, Resign):
        if conn.seat is None:
            text = "spectators watch; a seat's token is needed to resign"
            conn.send(_error(text, code="spectator"))
            return
        try:
            await hub.resign(match, conn.seat)
        except MeepleError as exc:
            conn.send(_error(str(exc), code=error_code(exc)))
    elif isinstance(message, Move):
        try:
            await hub.move(match, conn, message.seq, message.action, message.action_id)
        except MeepleError as exc:
            conn.send(_error(str(exc), seq=match.seq, code=error_code(exc)))
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
    log.warning("%s refused (%s): %s", where, error["code"], error["message"][:200])
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
