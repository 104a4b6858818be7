"""One person plays one seat: an address holding a seat of a match does not take another,
open, one (a seat an opponent left showed the taker what it had chosen and held, and let
one person play two seats of a three-player game), and a name another person of the match
goes by is refused (a player renamed mid-game to the opponent's name read as them)."""

from __future__ import annotations

import httpx

from meeple.interfaces.web.client import ServerProcess
from meeple.interfaces.web.quotas import client_key, is_remote
from tests import plain_http

ANN, BOB, CY = "203.0.113.1", "198.51.100.7", "198.51.100.8"


def test_an_address_holding_a_seat_takes_no_other_and_no_one_takes_another_s_name(tmp_path):
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'server.db'}",
        tmp_path / "server.log",
        1,
        ("--forwarded-allow-ips", "127.0.0.1"),
    ).start()

    def post(path: str, body: dict, address: str) -> httpx.Response:
        return plain_http.post(
            f"{server.url}/api/{path}", json=body, headers={"X-Forwarded-For": address}
        )

    try:
        body = {"game": "erosion", "options": {"players": 3}, "seats": ["human", "open", "open"]}
        created = post("matches", body, ANN).json()
        match, token = created["match"], created["seats"][0]["token"]
        ann = post(f"matches/{match}/join", {"token": token, "name": "Ann"}, ANN)
        assert ann.status_code == 200
        token = ann.json()["token"]
        bob = post(f"matches/{match}/join", {"name": "Bob"}, BOB).json()
        assert bob["seat"] == 1
        # Bob's second seat, open: refused, whoever's it would be.
        twice = post(f"matches/{match}/join", {"name": "Bobby"}, BOB)
        assert twice.status_code == 409 and twice.json()["code"] == "one_seat_each", twice.text
        assert "you hold seat 1 of this match: one person plays one seat" in twice.json()["error"]
        # Ann leaves; Bob may not take her seat either, Cy may.
        assert post(f"matches/{match}/leave", {"token": token}, ANN).status_code == 200
        taken = post(f"matches/{match}/join", {"seat": 0}, BOB)
        assert taken.json()["code"] == "one_seat_each"
        renamed = post(f"matches/{match}/join", {"token": bob["token"], "name": "ann"}, BOB)
        assert renamed.status_code == 200  # Ann has left: her name is free
        cy = post(f"matches/{match}/join", {"seat": 0, "name": "ANN"}, CY)
        assert cy.status_code == 409 and cy.json()["code"] == "name_taken", cy.text
        said = "another seat of this match is named 'ANN'; choose another name"
        assert cy.json()["error"] == said
        assert post(f"matches/{match}/join", {"seat": 0, "name": "Cy"}, CY).status_code == 200
        assert "Traceback" not in server.log_path.read_text()
    finally:
        server.kill()


def test_the_server_s_own_machine_may_hold_several_seats():
    """People sharing the server's machine (or a proxy not named with --forwarded-allow-ips)
    are one address: the rule would keep all but one out."""
    assert not is_remote(client_key("127.0.0.1")) and not is_remote(client_key("::1"))
    assert is_remote(client_key(BOB)) and is_remote(client_key("2001:db8::1"))


def test_a_restarted_server_knows_who_holds_a_seat_once_its_page_says_hello(tmp_path):
    """The holders are kept in memory: after a restart an address whose page came back
    could take a second seat until it joined again."""
    import asyncio
    import json

    import websockets

    db, flags = f"sqlite:///{tmp_path / 'server.db'}", ("--forwarded-allow-ips", "127.0.0.1")
    first = ServerProcess(db, tmp_path / "first.log", 1, flags).start()
    body = {"game": "erosion", "options": {"players": 3}, "seats": ["human", "open", "open"]}
    try:
        created = plain_http.post(f"{first.url}/api/matches", json=body).json()
        match, token = created["match"], created["seats"][0]["token"]
        joined = plain_http.post(
            f"{first.url}/api/matches/{match}/join",
            json={"token": token},
            headers={"X-Forwarded-For": ANN},
        )
        assert joined.status_code == 200, joined.text
        token = joined.json()["token"]
    finally:
        first.kill()
    again = ServerProcess(db, tmp_path / "again.log", 1, flags).start()
    try:

        async def hello() -> None:
            async with websockets.connect(
                f"ws://127.0.0.1:{again.port}/ws/{match}",
                additional_headers={"X-Forwarded-For": ANN},
            ) as socket:
                await socket.send(json.dumps({"type": "hello", "token": token}))
                assert json.loads(await socket.recv())["type"] == "welcome"

        asyncio.run(hello())
        second = plain_http.post(
            f"{again.url}/api/matches/{match}/join", json={}, headers={"X-Forwarded-For": ANN}
        )
        assert second.status_code == 409 and second.json()["code"] == "one_seat_each", second.text
    finally:
        again.kill()
