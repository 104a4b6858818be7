"""The browser pages of the game server: the lobby, the game page and the replay page.

The pages are static files (plain ES modules, CSS and SVG drawn from JavaScript, no build
step) that talk to the server only through its public REST API and WebSocket; this module
serves them (the game page's head naming its match, for a link's preview), with the
policy that says what a browser may do with them (:class:`BrowserPolicy`) and the
crawlers' ``/robots.txt``. Each game's drawing is one module, ``static/games/<game>.js``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.requests import HTTPConnection

from meeple.core.game import shorten

# The pages change with the server; a browser keeping an old module after an upgrade
# would draw a new protocol with old code, so it is asked to check each time.
_NO_STALE = {"Cache-Control": "no-cache"}


class _Static(StaticFiles):
    """Static files that a browser revalidates (cheap: it sends If-None-Match)."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        """The file, with a header asking the browser to revalidate it before use."""
        response = super().file_response(*args, **kwargs)
        response.headers.update(_NO_STALE)
        return response


STATIC = Path(__file__).parent / "static"
"""The pages' files, shipped inside the package."""


ROBOTS = """\
# The lobby may be indexed. A match's page opens a socket and shows a seat being played, a
# replay replays, the API answers programs: a crawler has nothing to read there, and a
# crawler that runs scripts would sit in matches as a spectator.
User-agent: *
Disallow: /play/
Disallow: /replay
Disallow: /api/
Disallow: /ws/
"""
"""``/robots.txt``: what a well-behaved crawler leaves alone."""


def has_drawing(game: str, static_dir: Path = STATIC) -> bool:
    """Whether ``game`` has a drawing module of its own; a game without one (a game added
    from outside meeple, docs/new-game.md) is drawn by the generic one, its view as text and
    its legal moves as buttons. Listed in ``GET /api/games`` so that a page does not ask
    for a module that is not there."""
    return (static_dir / "games" / f"{game}.js").is_file()


_NOT_FOUND = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>No such page — meeple</title>
<link rel="stylesheet" href="/static/style.css">
</head>
<body data-status="refused">
<header class="top"><a class="brand" href="/">meeple</a></header>
<main class="table">
<section class="refused" role="alert">
<h2>No such page</h2>
<p>There is no page at {path}. The games are in the lobby; a match's page is the link its
creator handed out.</p>
<p><a class="button primary" href="/">Go to the lobby</a></p>
</section>
</main>
</body>
</html>
"""


def wants_page(request: Request) -> bool:
    """Whether a refused address was a person's browser asking for a page (an address
    outside the API that asks for HTML), to be answered with a page, not JSON."""
    path = request.url.path
    api = path.startswith(("/api/", "/ws/", "/static/")) or path in ("/api", "/docs")
    return not api and "text/html" in request.headers.get("accept", "")


def page_not_found(request: Request) -> HTMLResponse:
    """A page saying there is nothing at this address, with the way to the lobby."""
    shown = html.escape(shorten(request.url.path, 80))
    return HTMLResponse(_NOT_FOUND.format(path=shown), status_code=404)


Preview = Callable[[str], Awaitable[tuple[str, str] | None]]
"""A match's link preview by its id: its title and description, or None (no such match)."""

_PLAY_TITLE = "<title>meeple — match</title>"


def with_preview(page: str, title: str, description: str) -> str:
    """The game page's HTML with a match's title and description in its head, as a chat
    program or a social site reads them for a link's preview (Open Graph), escaped."""
    title, description = html.escape(title), html.escape(description)
    head = (
        f"<title>{title} — meeple</title>\n"
        f'<meta name="description" content="{description}">\n'
        f'<meta property="og:site_name" content="meeple">\n'
        f'<meta property="og:type" content="website">\n'
        f'<meta property="og:title" content="{title}">\n'
        f'<meta property="og:description" content="{description}">'
    )
    return page.replace(_PLAY_TITLE, head, 1)


def mount_pages(app: FastAPI, static_dir: Path, preview: Preview | None = None) -> None:
    """Serve ``/`` (lobby), ``/play/{match}`` (game page, its head naming the match where
    ``preview`` knows it), ``/replay``, ``/robots.txt`` and ``/static/...``."""

    def page(name: str) -> FileResponse:
        return FileResponse(static_dir / name, media_type="text/html", headers=_NO_STALE)

    play_page = (static_dir / "play.html").read_text(encoding="utf-8")

    # HEAD as well as GET, as HTTP asks of every server: an uptime monitor, a link checker
    # or a chat program previewing a match's link asks a page's head before, or instead of,
    # the page (uvicorn sends no body to a HEAD).
    both = ["GET", "HEAD"]

    @app.api_route("/", methods=both, include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("index.html")

    @app.api_route("/play/{match_id}", methods=both, include_in_schema=False)
    async def play(match_id: str) -> Response:
        # The page reads the match from its own address; its head names the match for a
        # link's preview, which is read without running the page's script.
        shown = await preview(match_id) if preview is not None else None
        if shown is None:
            return page("play.html")
        return HTMLResponse(with_preview(play_page, *shown), headers=_NO_STALE)

    @app.api_route("/replay", methods=both, include_in_schema=False)
    async def replay() -> FileResponse:
        return page("replay.html")

    @app.api_route("/robots.txt", methods=both, include_in_schema=False)
    async def robots() -> PlainTextResponse:
        return PlainTextResponse(ROBOTS, headers=_NO_STALE)

    app.mount("/static", _Static(directory=static_dir), name="static")


# What a browser may do with meeple's own pages: run and load only the server's own files
# (no inline script or style, no plugin), draw the favicon from its data: address, talk
# only to this server (its sockets too), and be shown in no other site's frame: a page
# framed by another site could be clicked through blind (a seat resigned, a move played).
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The Content-Security-Policy of every response but FastAPI's API pages."""

_HOST = re.compile(r"^[A-Za-z0-9.-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")


def page_policy(scope: dict[str, Any]) -> str:
    """:data:`PAGE_POLICY`, naming the request's own host for the page's WebSocket as well:
    browsers that read ``'self'`` as this host's http(s) only (Safari before 15.4) would
    refuse the socket. A Host header that is not a host name or address adds nothing."""
    host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
    if not _HOST.match(host):
        return PAGE_POLICY
    return f"{PAGE_POLICY}; connect-src 'self' ws://{host} wss://{host}"


# FastAPI's API pages (/docs, /redoc) load their script from a CDN and start it inline:
# they are only kept out of frames.
_API_PAGES = ("/docs", "/docs/oauth2-redirect", "/redoc")
_API_PAGE_POLICY = "frame-ancestors 'none'"


class BrowserPolicy:
    """ASGI middleware: every HTTP response says what a browser may do with it (the
    Content-Security-Policy ``PAGE_POLICY``; not framed, by older browsers too; its type
    never guessed; no address of the server's sent to another site as a referrer, where a
    private match's id would leak)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Pass the request on, adding the headers to its response."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = _API_PAGE_POLICY if scope.get("path") in _API_PAGES else page_policy(scope)
        added = [
            (b"content-security-policy", policy.encode()),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"same-origin"),
        ]

        async def with_policy(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *added]}
            await send(message)

        await self.app(scope, receive, with_policy)


def pages_base(conn: HTTPConnection) -> str:
    """Where a client reached the server, as the base of the pages' links
    (``http(s)://host``): the request's or socket's ``Host`` and scheme (behind a proxy named
    by ``--forwarded-allow-ips``, the scheme of its ``X-Forwarded-Proto``; a socket's
    ``ws``/``wss`` as ``http``/``https``), so that a link works for whoever it is sent to,
    not only on the server's own loopback address."""
    reached = conn.base_url
    scheme = {"ws": "http", "wss": "https"}.get(reached.scheme, reached.scheme)
    return str(reached.replace(scheme=scheme)).rstrip("/")
