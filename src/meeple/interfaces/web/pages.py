"""The browser pages of the game server: the lobby, the game page and the replay page.

The pages are static files (plain ES modules, CSS and SVG drawn from JavaScript, no build
step) that talk to the server only through its public REST API and WebSocket; this module
only serves them. Each game's drawing is one module, ``static/games/<game>.js``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

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


def has_drawing(game: str, static_dir: Path = STATIC) -> bool:
    """Whether ``game`` has a drawing module of its own; a game without one (a game added
    from outside meeple, docs/new-game.md) is drawn by the generic one, its view as text and
    its legal moves as buttons. Listed in ``GET /api/games`` so that a page does not ask
    for a module that is not there."""
    return (static_dir / "games" / f"{game}.js").is_file()


def mount_pages(app: FastAPI, static_dir: Path) -> None:
    """Serve ``/`` (lobby), ``/play/{match}`` (game page), ``/replay`` and ``/static/...``."""

    def page(name: str) -> FileResponse:
        return FileResponse(static_dir / name, media_type="text/html", headers=_NO_STALE)

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("index.html")

    @app.get("/play/{match_id}", include_in_schema=False)
    async def play(match_id: str) -> FileResponse:
        del match_id  # the page reads it from its own address
        return page("play.html")

    @app.get("/replay", include_in_schema=False)
    async def replay() -> FileResponse:
        return page("replay.html")

    app.mount("/static", _Static(directory=static_dir), name="static")
