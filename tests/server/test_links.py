"""The links a new match's answer gives (``join_url``, ``watch_url``) point where the client
reached the server: behind a reverse proxy, the public address the proxy was asked for, not
the loopback address ``meeple serve`` listens on (docs/security.md, On the internet). The
address the server prints at its start is one line of its log, as the README quotes it."""

from __future__ import annotations

import pytest

from tests import plain_http
from tests.server.conftest import module_server

PROXIED = {
    "host": "play.example.org",
    "x-forwarded-proto": "https",
    "x-forwarded-for": "203.0.113.7",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with module_server(
        tmp_path_factory, "links", 0, ("--forwarded-allow-ips", "127.0.0.1")
    ) as server:
        yield server


def _links(answer: dict) -> list[str]:
    return [answer["watch_url"], *(seat["join_url"] for seat in answer["seats"])]


def test_a_match_made_through_the_proxy_links_to_the_public_address(server):
    body = {"game": "edges", "seats": ["human", "human"]}
    reply = plain_http.post(f"{server.url}/api/matches", json=body, headers=PROXIED)
    assert reply.status_code == 200, reply.text
    links = _links(reply.json())
    assert all(link.startswith("https://play.example.org/play/") for link in links), links


def test_a_tutorial_made_through_the_proxy_links_to_the_public_address(server):
    reply = plain_http.post(f"{server.url}/api/tutorials/edges", json={}, headers=PROXIED)
    assert reply.status_code == 200, reply.text
    links = _links(reply.json())
    assert all(link.startswith("https://play.example.org/play/") for link in links), links


def test_a_match_made_directly_links_to_the_address_asked(server):
    body = {"game": "edges", "seats": ["human", "random"]}
    reply = plain_http.post(f"{server.url}/api/matches", json=body)
    assert reply.status_code == 200, reply.text
    links = _links(reply.json())
    assert all(link.startswith(f"{server.url}/play/") for link in links), links


def test_the_start_line_is_one_line_in_a_log_file(server):
    # The log is a file, not a terminal: the line must not be wrapped at 80 columns.
    log = server.log_path.read_text()
    assert f"meeple server on {server.url} (matches in {server.db}); Ctrl-C stops it.\n" in log


def test_a_rematch_s_links_are_on_each_client_s_own_address(server):
    """The last to accept a rematch makes it with their request's Host: the other seat's link
    in its ``rematch`` message is on the address its own socket reached, never on one the
    asker wrote (which could lead its token elsewhere)."""
    import asyncio

    from meeple.interfaces.web.client import Client

    body = {"game": "erd", "seats": ["human", "human"]}
    created = plain_http.post(f"{server.url}/api/matches", json=body).json()
    match = created["match"]
    links = [s["token"] for s in created["seats"]]

    async def go() -> None:
        a, b = [await Client(server.url, match, link).connect() for link in links]
        tokens = [a.token, b.token]
        await a.send({"type": "resign"})
        await b.wait_for(lambda: b.state["status"] == "finished")
        url = f"{server.url}/api/matches/{match}/rematch"
        offered = plain_http.post(url, json={"token": tokens[1]})
        assert offered.status_code == 200 and offered.json()["match"] is None, offered.text
        elsewhere = {"host": "evil.example", "x-forwarded-proto": "https"}
        made = plain_http.post(url, json={"token": tokens[0]}, headers=elsewhere)
        assert made.status_code == 200, made.text
        await b.wait_for(lambda: any(m["type"] == "rematch" for m in b.messages))
        [told] = [m for m in b.messages if m["type"] == "rematch"]
        assert told["join_url"].startswith(f"{server.url}/play/{told['match']}#token="), told
        for c in (a, b):
            await c.close()

    asyncio.run(go())
