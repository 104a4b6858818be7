"""The game server's web application: the lobby's REST API and one WebSocket per client.

``create_app`` builds a FastAPI application around a :class:`~meeple.interfaces.web.hub.Hub`;
``meeple serve`` runs it on uvicorn. The protocol is documented in docs/api.md and, for
the REST part, on the OpenAPI page FastAPI serves at ``/docs``. Each socket is served by
:mod:`~meeple.interfaces.web.sockets`; every refusal is answered by
:mod:`~meeple.interfaces.web.refusals`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, HTTPConnection
from starlette.routing import Match

from meeple.agents import available_agents
from meeple.core.about import meeple_version
from meeple.core.errors import MeepleError
from meeple.core.files import Unreadable, parse_json
from meeple.core.game import Game, shorten
from meeple.core.registry import make
from meeple.interfaces.web.content_sets import ContentSets
from meeple.interfaces.web.hub import Hub
from meeple.interfaces.web.limits import ServerLimits
from meeple.interfaces.web.live import STATUS_CODES, ServerError
from meeple.interfaces.web.pages import (
    STATIC,
    BrowserPolicy,
    mount_pages,
    page_not_found,
    pages_base,
    wants_page,
)
from meeple.interfaces.web.pool import AgentOverrun, AgentPool, TaskFailed
from meeple.interfaces.web.protocol import (
    ClaimRequest,
    CreateMatch,
    JoinRequest,
    SeatRequest,
    TutorialRequest,
)
from meeple.interfaces.web.quotas import BodyLimit, ClientQuotas
from meeple.interfaces.web.refusals import (
    declared_query_only,
    log,
    refusal,
    refused,
    validation_text,
)
from meeple.interfaces.web.replays import (
    MAX_RECORD_BYTES,
    REPLAY_SECONDS,
    board_text_answer,
    replay_answer,
    review_upload,
)
from meeple.interfaces.web.reviews import ReviewJob, Reviews
from meeple.interfaces.web.rules import game_from_query, rules_reply
from meeple.interfaces.web.sockets import serve_socket
from meeple.store.db import StorageUnavailable
from meeple.store.matches import MatchStore
from meeple.store.reviews import ReviewStore
from meeple.store.urls import hide_password

HEALTH_SECONDS = 5.0
"""How long ``GET /api/health`` waits for the database before it answers 503."""


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

    def counted(connection: HTTPConnection) -> None:
        # Every REST request counts against its address's rate; a page and its files do
        # not (a page load asks for a score of them, each a file read), nor a WebSocket,
        # whose messages have a rate of their own.
        if connection.scope["type"] == "http" and connection.url.path.startswith("/api/"):
            quotas.check_request(quotas.client(connection))

    # Uploaded records are checked in a process of their own (threads where agents run in
    # threads): one worker, so uploads wait their turn instead of taking every core.
    replays = AgentPool(
        0 if agent_workers == 0 else 1,
        tasks={
            "replay": replay_answer,
            "review_upload": review_upload,
            "board_text": board_text_answer,
        },
    )

    async def check_upload(task: str, client: str, body: bytes, *more: Any) -> Any:
        """An uploaded record checked by the replays' worker (``task``: a name in
        ``replays.tasks``, given the body, the content sets, the most moves a match may have
        and ``more``): its answer, or the refusal as a ServerError. The worker is shared
        between addresses as the agents' are (``client``'s turn among them): one address's
        queue of long records made everyone else's wait behind it, a replay 25 s late."""
        args = (body, sets, hub.limits.max_match_moves, *more)
        try:
            kind, answer, code = await replays.run(task, args, REPLAY_SECONDS, owner=client)
        except AgentOverrun:
            raise ServerError(
                f"the record took more than {REPLAY_SECONDS:g} s to check; upload a shorter one",
                413,
                "too_large",
            ) from None
        except TaskFailed as exc:
            # Not the record's fault, and asking again fails the same way: the log says why.
            log.error("checking an uploaded record (%s) failed: %s", task, exc)
            raise ServerError("the server failed on this record", 500, "internal_error") from None
        except MeepleError as exc:  # its worker stopped: the server is stopping, or it died
            log.warning("checking an uploaded record (%s) stopped: %s", task, exc)
            raise ServerError(
                "the record could not be checked now; try again in a moment", 503, "unavailable"
            ) from None
        if kind != "ok":
            raise ServerError(answer, _STATUS_OF.get(code, 400), code)
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
            sets.close()
            # A stop said, as the start is: SIGTERM or Ctrl-C left the log without a word.
            log.info(
                "stopped: the unfinished matches are in %s, and go on after a restart",
                hide_password(store.url),
            )

    app = FastAPI(
        title="meeple game server",
        summary="Play meeple's five games online: a lobby API and one WebSocket per client.",
        description="The WebSocket protocol (`/ws/{match}`) is described in docs/api.md.",
        version=meeple_version(),
        lifespan=lifespan,
        dependencies=[Depends(counted), Depends(declared_query_only)],
        # An address with a '/' too many is a 404 saying so, not Starlette's empty redirect,
        # whose Location it built from the request's own Host header.
        redirect_slashes=False,
    )
    # Before any route is declared: each reads its JSON body through core/files.py.
    app.router.route_class = _OneReaderRoute
    app.state.hub = hub
    app.state.quotas = quotas
    app.state.reviews = reviews
    # Bodies are counted as they arrive: a client cannot make the server hold more than
    # this (an uploaded record has its own, larger, limit, checked the same way).
    app.add_middleware(
        BodyLimit,
        limit=hub.limits.max_body_bytes,
        larger={
            path: MAX_RECORD_BYTES
            for path in ("/api/replay", "/api/replay/review", "/api/replay/board-text")
        },
    )
    app.add_middleware(_StopReading, stopped=hub.stopped)
    # Outermost, so that the refusals of the middleware inside it carry the headers too.
    app.add_middleware(BrowserPolicy)

    # Every refusal, whatever raised it, is {"error": ..., "code": ...} (docs/api.md).
    @app.exception_handler(MeepleError)
    async def meeple_error(request: Request, exc: MeepleError) -> JSONResponse:
        return refusal(request, exc)

    @app.exception_handler(ValidationError)
    @app.exception_handler(RequestValidationError)
    async def bad_body(
        request: Request, exc: ValidationError | RequestValidationError
    ) -> JSONResponse:
        # A body that is not JSON at all is FastAPI's json_invalid: the same bad_json (400)
        # as a body json.loads cannot read for its digits, and as a socket's text.
        syntax = [e for e in exc.errors() if e.get("type") == "json_invalid"]
        if syntax:
            # The reader's words (Unreadable) follow "is": "not JSON: Expecting value ...",
            # "nested too deeply to be read", "not readable: the key 'x' is given twice ...".
            why = str((syntax[0].get("ctx") or {}).get("error", "")).strip()
            message = f"the body is {why or 'not JSON'}"
            return refused(request, shorten(message, 200), "bad_json", 400)
        kind = request.headers.get("content-type", "")
        unread = [e for e in exc.errors() if tuple(e.get("loc", ())) == ("body",)]
        if unread and not _is_json_type(kind):
            # FastAPI reads a body as JSON only when it says it is: another body reached
            # the model as bytes, refused "got an object" however good its JSON.
            said = f"Content-Type {shorten(kind, 60)!r}" if kind else "no Content-Type"
            message = f"the body is read as JSON only with Content-Type application/json: {said}"
            return refused(request, message, "unsupported_media_type", 415)
        return refused(request, validation_text(exc), "invalid_request", 422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        status = exc.status_code
        path = request.url.path
        bare = path.rstrip("/")
        slashed = status == 404 and bare not in ("", path) and _routed(app, request, bare)
        if slashed and wants_page(request):
            # A person's browser, at a page's address with a '/' at its end: the page, by an
            # address relative to this server, whatever Host the request named.
            query = f"?{request.url.query}" if request.url.query else ""
            return RedirectResponse(bare + query, status_code=308)
        if status == 404 and wants_page(request):
            refused(request, "no such page", "not_found", status)  # its log line
            return page_not_found(request)
        code = STATUS_CODES.get(status, "bad_request")
        message = str(exc.detail)
        headers = getattr(exc, "headers", None)
        if status == 404:
            message = f"there is no {path}; the API is under /api (listed at /docs)"
            if _matching(app, request, path, "websocket"):
                message = f"{path} is a WebSocket: open it with a WebSocket upgrade (docs/api.md)"
            elif slashed:
                message = f"there is no {path}: its address has no '/' at the end"
        elif status == 405:
            taken = sorted(_methods(app, request))
            message = f"{path} does not take {request.method}; it takes "
            message += ", ".join(taken)
            headers = {**(headers or {}), "Allow": ", ".join(taken)}
        elif exc.detail == "There was an error parsing the body":
            # FastAPI's words for JSON that json.loads refuses other than by syntax: a
            # number of more than 4,300 digits (Python's limit on reading an int).
            message = "the body is not JSON that can be read (a number has too many digits?)"
            code = "bad_json"
        return refused(request, message, code, status, headers)

    @app.exception_handler(Exception)
    async def server_fault(_request: Request, _exc: Exception) -> JSONResponse:
        # A fault of the server, not of the request: Starlette raises it on after this
        # answer, and its traceback goes to the log.
        return JSONResponse(
            {"error": "the server failed on this request", "code": "internal_error"},
            status_code=500,
        )

    pinging: list[asyncio.Future[None]] = []  # the database's check under way, if any

    @app.get("/api/health", summary="Whether the server serves: for uptime checks")
    async def health() -> dict[str, str]:
        # 503 once stopping, so a load balancer sends no new client to a server going away,
        # and while its database takes no move (within a bound: a hung connection must not
        # hang the check too). One check of the database at a time, shared by the requests
        # that come meanwhile: each held a thread on a frozen database long after its answer,
        # and a poll every few seconds took the threads every other request needs.
        if hub.stopping:
            raise ServerError("the server is stopping", 503, "unavailable")
        if not pinging or pinging[0].done():
            check = asyncio.ensure_future(asyncio.to_thread(store.ping))
            check.add_done_callback(lambda done: done.cancelled() or done.exception())
            pinging[:] = [check]
        try:
            await asyncio.wait_for(asyncio.shield(pinging[0]), HEALTH_SECONDS)
        except TimeoutError:
            raise ServerError(
                f"the database did not answer within {HEALTH_SECONDS:g} s",
                503,
                "storage_unavailable",
            ) from None
        except StorageUnavailable:
            # The driver's reason is in the log (one line a check, however many asked).
            raise ServerError(
                "the database takes no move now", 503, "storage_unavailable"
            ) from None
        return {"status": "ok", "database": "ok"}

    # HEAD too, as some monitors ask (kept out of the schema: one operation, GET's).
    app.add_api_route("/api/health", health, methods=["HEAD"], include_in_schema=False)

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
            lambda: game_from_query(
                game, options, hub.content, "the cards request", hub.limits
            ).card_list()
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
            lambda: rules_reply(
                game_from_query(game, options, hub.content, "the rules request", hub.limits)
            )
        )

    @app.post("/api/matches", summary="Create a match; returns a secret token per person's seat")
    async def create_match(request: CreateMatch, http: Request) -> dict[str, Any]:
        client = quotas.client(http)
        async with quotas.creating(client, hub.unfinished) as made:
            created = await hub.create(request, owner=client, base_url=pages_base(http))
            made["match"] = created["match"]
        return created

    @app.post(
        "/api/tutorials/{game}",
        summary="Start a game's guided first game against its scripted opponent",
    )
    async def create_tutorial(
        game: str, http: Request, request: TutorialRequest | None = None
    ) -> dict[str, Any]:
        name = request.name if request is not None else None
        async with quotas.creating(quotas.client(http), hub.unfinished) as made:
            created = await hub.create_tutorial(game, name, base_url=pages_base(http))
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
        return (await hub.get(match_id)).summary(hub.clock())

    @app.get("/api/matches/{match_id}/rules", summary="How to play, for this match's options")
    async def match_rules(match_id: str) -> dict[str, Any]:
        match = await hub.get(match_id)
        return await asyncio.to_thread(rules_reply, match.game)

    @app.post(
        "/api/matches/{match_id}/join", summary="Take a seat (with its token, or an open one)"
    )
    async def join(match_id: str, request: JoinRequest, http: Request) -> dict[str, Any]:
        client = quotas.client(http)
        quotas.check_seat_request(client)
        match = await hub.get(match_id)
        return await hub.join(match, request.token, request.seat, request.name, client)

    @app.post("/api/matches/{match_id}/leave", summary="Give a seat up for someone else")
    async def leave(match_id: str, request: SeatRequest, http: Request) -> dict[str, Any]:
        quotas.check_seat_request(quotas.client(http))
        return await hub.leave(await hub.get(match_id), request.token)

    @app.post("/api/matches/{match_id}/resign", summary="Resign a seat")
    async def resign(match_id: str, request: SeatRequest, http: Request) -> dict[str, Any]:
        quotas.check_seat_request(quotas.client(http))
        match = await hub.get(match_id)
        await hub.resign(match, await hub.seat_for(match, request.token))
        return match.summary(hub.clock())

    @app.post(
        "/api/matches/{match_id}/claim",
        summary="Claim from a person who left while the match waits on them",
    )
    async def claim(match_id: str, request: ClaimRequest, http: Request) -> dict[str, Any]:
        quotas.check_seat_request(quotas.client(http))
        match = await hub.get(match_id)
        await hub.claim(match, await hub.seat_for(match, request.token), request.seat)
        return match.summary(hub.clock())

    @app.post(
        "/api/matches/{match_id}/rematch", summary="A new match of the same game, seats rotated"
    )
    async def rematch(match_id: str, request: SeatRequest, http: Request) -> dict[str, Any]:
        quotas.check_seat_request(quotas.client(http))
        match = await hub.get(match_id)
        seat = await hub.seat_for(match, request.token)
        client = quotas.client(http)
        return await hub.rematch(
            match, seat, pages_base(http), lambda: quotas.creating(client, hub.unfinished)
        )

    @app.post("/api/matches/{match_id}/rematch/decline", summary="Decline the rematch offered")
    async def decline_rematch(match_id: str, request: SeatRequest, http: Request) -> dict[str, Any]:
        quotas.check_seat_request(quotas.client(http))
        match = await hub.get(match_id)
        return await hub.decline_rematch(match, await hub.seat_for(match, request.token))

    @app.post(
        "/api/matches/{match_id}/hint",
        summary="The move the game's judge suggests to your seat now (games against the computer)",
    )
    async def hint(match_id: str, request: SeatRequest, http: Request) -> dict[str, Any]:
        match = await hub.get(match_id)
        seat = await hub.seat_for(match, request.token)
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
        http: Request,
        start: _StartReview = True,
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
        return _review_reply(await reviews.answer(job, start, quotas.client(http)))

    @app.post(
        "/api/replay/review",
        summary="Review an uploaded record (202 while computed; then ask by its key)",
        openapi_extra=_RECORD_BODY,
    )
    async def replay_review(
        request: Request,
        start: _StartReview = True,
    ) -> JSONResponse:
        client = quotas.client(request)
        quotas.check_replay(client)
        body = await _read_limited(request, MAX_RECORD_BYTES)
        name, options, seed, moves = await check_upload("review_upload", client, body)
        job = _review_job(make(name, **options), options, seed, moves, hub)
        return _review_reply(await reviews.answer(job, start, client))

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
        openapi_extra=_RECORD_BODY,
    )
    async def replay(request: Request) -> Response:
        # The body is not declared as a parameter: FastAPI would parse up to 2 MB of JSON on
        # the event loop, stalling every match; it is read here, and parsed, checked and
        # replayed in a worker process (replays.py).
        client = quotas.client(request)
        quotas.check_replay(client)
        body = await _read_limited(request, MAX_RECORD_BYTES)
        answer = await check_upload("replay", client, body)
        if "gzip" not in request.headers.get("accept-encoding", ""):
            return Response(answer, media_type="application/json")
        # Every state of a long game: a 77 KB record's answer was 22 MB, a twentieth of
        # that compressed (zlib lets other threads run while it works).
        packed = await asyncio.to_thread(gzip.compress, answer, 6)
        headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
        return Response(packed, media_type="application/json", headers=headers)

    @app.post(
        "/api/replay/board-text",
        summary="A record's board as text at one step, as a seat (once over) or a spectator saw it",
        openapi_extra=_RECORD_BODY,
    )
    async def replay_board_text(
        request: Request,
        step: Annotated[
            int, Query(ge=0, description="the moves made: 0 is the start, the last the end")
        ],
        seat: Annotated[
            int | None,
            Query(ge=0, description="whose eyes, once the match is over; left out: a spectator's"),
        ] = None,
    ) -> Response:
        # The replay page's "Board as text": drawing a state's text costs up to tens of ms,
        # so it is asked one step at a time, the record replayed in the uploads' worker.
        client = quotas.client(request)
        quotas.check_board_text(client)
        body = await _read_limited(request, MAX_RECORD_BYTES)
        return JSONResponse(await check_upload("board_text", client, body, step, seat))

    @app.websocket("/ws/{match_id}")
    async def socket(websocket: WebSocket, match_id: str) -> None:
        # A client may go at any moment, between its hello and the welcome too (a page
        # closed as it loads): a send then fails, which ends its socket and is no error.
        with contextlib.suppress(WebSocketDisconnect):
            await serve_socket(hub, quotas, websocket, match_id)

    async def match_preview(match_id: str) -> tuple[str, str] | None:
        """A match's link preview (``LiveMatch.link_preview``), or None where there is no
        match to name (the page then says so itself)."""
        try:
            match = await hub.get(match_id)
        except MeepleError:
            return None
        return match.link_preview()

    if (STATIC / "index.html").exists():
        mount_pages(app, STATIC, match_preview)
    return app


_StartReview = Annotated[
    bool,
    Query(
        description='false: only a review stored or being computed (else {"status": '
        '"not_reviewed"})'
    ),
]
"""The ``start`` query of both review routes: true (the default) starts a review not yet
made."""

_RECORD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "a game record, as `meeple play --save` writes it",
        "content": {"application/json": {"schema": {"type": "object"}}},
    }
}
"""The OpenAPI description of a body that is a record (read by the route, not declared)."""

_STATUS_OF = {"invalid_request": 422, "forbidden": 403, "too_large": 413}
"""The refusals of a record's worker with a status of their own: a step past its end, a
seat's eyes before it is over, a record of more moves than a match may have (every other
is a 400)."""


class _OneReaderRequest(Request):
    """A request whose JSON body is read as all JSON from outside is (``parse_json``): a key
    given twice or nesting too deep is refused in words. FastAPI's json.loads kept the last
    of two keys, and called deep nesting a number with too many digits."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            try:
                self._json = parse_json(body.decode("utf-8"))
            except UnicodeDecodeError as exc:
                raise json.JSONDecodeError(f"not UTF-8 text (byte {exc.start})", "", 0) from None
            except Unreadable as exc:
                # FastAPI answers a JSONDecodeError as json_invalid, its msg kept: bad_body.
                raise json.JSONDecodeError(str(exc), "", 0) from None
        return self._json


def _is_json_type(content_type: str) -> bool:
    """Whether a request's Content-Type says JSON, as FastAPI reads it (``application/json``,
    or any ``+json`` type)."""
    media = content_type.split(";")[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


def _matching(app: FastAPI, request: Request, path: str, kind: str = "http") -> list[Any]:
    """The routes of ``app`` whose address ``path`` is, whatever their methods (``kind``:
    "websocket" for its WebSocket routes)."""
    scope = {**request.scope, "path": path, "type": kind}
    return [r for r in app.router.routes if r.matches(scope)[0] is not Match.NONE]


def _routed(app: FastAPI, request: Request, path: str) -> bool:
    """Whether ``path`` is the address of a route of ``app``."""
    return bool(_matching(app, request, path))


def _methods(app: FastAPI, request: Request) -> set[str]:
    """The methods the routes at the request's address take (a path may have a route per
    method, and Starlette's 405 names only the first's)."""
    found = _matching(app, request, request.url.path)
    return {m for r in found for m in (getattr(r, "methods", None) or ())}


class _OneReaderRoute(APIRoute):
    """An API route whose handler is given an :class:`_OneReaderRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def one_reader(request: Request) -> Response:
            return await handler(_OneReaderRequest(request.scope, request.receive))

        return one_reader


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
        (shipped := getattr(factory, "shipped", None)) is not None and shipped(game)
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
