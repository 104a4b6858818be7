"""The pages are served: lobby, game page, replay page and the static modules."""

from __future__ import annotations

import httpx


def test_the_pages_and_every_game_module_are_served(server):
    for path in ("/", "/play/some-match", "/replay"):
        reply = httpx.get(f"{server.url}{path}")
        assert reply.status_code == 200
        assert reply.headers["content-type"].startswith("text/html")
    for game in server.get("/api/games"):
        reply = httpx.get(f"{server.url}/static/games/{game['name']}.js")
        assert reply.status_code == 200, f"no drawing module for {game['name']}"
        assert "export function draw" in reply.text
    reply = httpx.get(f"{server.url}/static/js/play.js")
    assert reply.headers["cache-control"] == "no-cache"
    assert httpx.get(f"{server.url}/static/../pages.py").status_code == 404
