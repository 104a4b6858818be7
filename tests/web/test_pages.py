"""The pages are served: lobby, game page, replay page and the static modules."""

from __future__ import annotations

from tests import plain_http


def test_the_pages_and_every_game_module_are_served(server):
    for path in ("/", "/play/some-match", "/replay"):
        reply = plain_http.get(f"{server.url}{path}")
        assert reply.status_code == 200
        assert reply.headers["content-type"].startswith("text/html")
    for game in server.get("/api/games"):
        reply = plain_http.get(f"{server.url}/static/games/{game['name']}.js")
        assert reply.status_code == 200, f"no drawing module for {game['name']}"
        assert "export function draw" in reply.text
    reply = plain_http.get(f"{server.url}/static/js/play.js")
    assert reply.headers["cache-control"] == "no-cache"
    assert plain_http.get(f"{server.url}/static/../pages.py").status_code == 404


def test_a_browser_at_an_address_with_no_page_gets_a_page_saying_so(server):
    """A mistyped address (/lobby, /replay/x) answered a browser with the API's JSON; it
    now gets a page that says so and leads to the lobby. The API keeps answering JSON, and
    the address is shown escaped, never as markup."""
    html = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}  # what a browser sends
    reply = plain_http.get(f"{server.url}/lobby<script>alert(1)</script>", headers=html)
    assert reply.status_code == 404 and reply.headers["content-type"].startswith("text/html")
    assert "No such page" in reply.text and 'href="/"' in reply.text
    assert "<script>alert" not in reply.text and "/lobby&lt;script&gt;" in reply.text
    for path, headers in (("/api/nothing", html), ("/lobby", {})):
        reply = plain_http.get(f"{server.url}{path}", headers=headers)
        assert reply.status_code == 404 and reply.json()["code"] == "not_found"
