"""How the game server refuses a request: every refusal, whatever raised it, answered as
``{"error", "code"}`` with its status (docs/api.md) and one warning line in the log, and the
checks of a request that FastAPI does not make itself (a query parameter no route takes, or
one given twice)."""

from __future__ import annotations

import ipaddress
import logging

from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import ValidationError
from starlette.requests import HTTPConnection, Request

from meeple.core.errors import GamePackageError, MeepleError
from meeple.core.game import shorten
from meeple.core.text import json_words, one_line
from meeple.interfaces.web.live import ServerError, error_code, public_message
from meeple.store.db import StorageUnavailable

# The server's own logger, as app.py's: a refusal's line reads as it did there.
log = logging.getLogger("meeple.server")


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
    if isinstance(exc, GamePackageError):  # an installed game lacks a file: no client's fault
        status = 500
    wait = exc.retry_after if isinstance(exc, ServerError) else None
    answer_headers = {"Retry-After": str(wait)} if wait else {}
    answer_headers.update(headers or {})
    return refused(request, public_message(exc), error_code(exc), status, answer_headers or None)


BODY_REFUSED = "meeple.body_refused"
"""The key the body limit (quotas.BodyLimit) sets in a request's scope once it refuses the
body as it arrives: the app, reading a body cut short, answers what the client never sees
(the 413 replaces it), so its refusal is not logged; the body limit logs its own."""


def refused(
    request: Request,
    message: str,
    code: str,
    status: int,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    """A refused request: one warning line in the log (never a traceback), and the client
    is told what was wrong."""
    if not request.scope.get(BODY_REFUSED):
        log_refused(request, code, message)
    return JSONResponse({"error": message, "code": code}, status_code=status, headers=headers)


def log_refused(connection: HTTPConnection, code: str, message: str) -> None:
    """The one warning line of a refused request: its method and path, who, its code and
    why."""
    # A path is the client's to write (up to the HTTP parser's limit): the log line is
    # bounded whatever the client sends, as the message is.
    # Both may quote what the client wrote (a field's name): its control characters are
    # escaped, so that a line cannot clear or rewrite the terminal an operator reads it in.
    path = shorten(one_line(connection.url.path), 200)
    method = connection.scope.get("method", "GET")
    log.warning(
        "%s %s from %s refused (%s): %s", method, path, who(connection), code,
        one_line(message)[:200],
    )  # fmt: skip


def who(connection: HTTPConnection) -> str:
    """The client's address for a log line: whom an operator would block or ask about a
    refusal (behind a proxy named by ``--forwarded-allow-ips``, the address it forwarded).
    A proxy may pass on what its client wrote: anything but an address is quoted and cut."""
    host = connection.client.host if connection.client else None
    if not host:
        return "an unknown address"
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return shorten(repr(host), 60)


def declared_query_only(connection: HTTPConnection) -> None:
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


def validation_text(exc: ValidationError | RequestValidationError) -> str:
    """Pydantic's errors as one line: where, and what was wrong; a value of the wrong JSON
    type told back ("Input should be a valid integer (got the text '7')"), as pydantic's
    words alone do not say that a number was sent as text."""
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'message'}: {e['msg']}"
        + (f" (got {json_words(e['input'])})" if e["type"].endswith("_type") else "")
        for e in exc.errors()
    )
