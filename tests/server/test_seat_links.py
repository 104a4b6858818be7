"""A seat's link is an invitation, taken once (docs/security.md, "Who is trusted").

The creator of a private match is handed every person's seat link, to send. Whoever takes a
seat with its link (the lobby's join, or the game page's hello) is given a token of the
seat's own, and the link plays the seat no more: the creator, who kept a copy, can neither
act for the friend nor read what the friend's seat may see. A hostile client showed the
creator doing both while links were the seats' tokens for good."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import websockets

from meeple.interfaces.web.client import Client, ServerProcess
from meeple.interfaces.web.seating import RETAKE_AFTER
from tests import plain_http
from tests.server.conftest import module_server

USED = "this seat's link was used: the seat is taken by the person who opened it first"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with module_server(tmp_path_factory, "links", 0) as server:
        yield server


def _private(server: ServerProcess, game: str = "edges", options: dict | None = None) -> dict:
    body = {"game": game, "options": options or {"board": "2x3"}, "seats": ["human", "human"]}
    created = plain_http.post(f"{server.url}/api/matches", json=body)
    assert created.status_code == 200, created.text
    return created.json()


def _ws(server: ServerProcess, match: str) -> str:
    return server.url.replace("http://", "ws://") + f"/ws/{match}"


def _post(server: ServerProcess, path: str, body: dict):
    return plain_http.post(f"{server.url}/api/matches/{path}", json=body)


def test_joining_with_a_link_gives_the_seat_a_token_of_its_own(server):
    created = _private(server)
    match, link = created["match"], created["seats"][1]["token"]
    taken = _post(server, f"{match}/join", {"token": link, "name": "Bea"})
    assert taken.status_code == 200, taken.text
    own = taken.json()["token"]
    assert own != link and taken.json()["seat"] == 1
    # The seat's own token joins again (a page opened once more) and stays the seat's.
    rejoined = _post(server, f"{match}/join", {"token": own})
    assert rejoined.status_code == 200 and rejoined.json()["token"] == own, rejoined.text
    # The link again, its token used, to take the seat or act for it: refused, saying why.
    for path in ("join", "resign", "leave"):
        again = _post(server, f"{match}/{path}", {"token": link})
        assert again.status_code == 403, (path, again.text)
        assert again.json()["code"] == "link_used" and again.json()["error"].startswith(USED)
    seats = plain_http.get(f"{server.url}/api/matches/{match}").json()["seats"]
    assert seats[1]["joined"] and seats[1]["name"] == "Bea" and not seats[0]["joined"]
    # A token nobody was given is still the plain refusal.
    stranger = _post(server, f"{match}/resign", {"token": "x" * 32})
    assert stranger.status_code == 403 and stranger.json()["code"] == "bad_token"


def test_the_creator_s_copy_of_a_link_taken_in_a_page_opens_nothing(server):
    """The hostile client's finding: the creator opened a second socket on the friend's
    seat with the link it had been handed, read the seat's view and played its moves."""
    created = _private(server, "erd", {"best_of": 3})  # hidden allocations to read
    match = created["match"]
    me, link = (seat["token"] for seat in created["seats"])

    async def go() -> None:
        creator = await Client(server.url, match, me).connect()
        friend = await Client(server.url, match, link).connect()
        welcomes = [m for m in friend.messages if m["type"] == "welcome"]
        assert welcomes[0]["seat"] == 1 and welcomes[0]["token"] not in (None, link)
        assert friend.token == welcomes[0]["token"]
        # The creator's own seat was taken with its link too: a token of its own as well.
        assert creator.token != me
        # The creator, on an address of its own (the friend's may take the seat again
        # until its page has said the token arrived, as the page does at once).
        async with websockets.connect(_ws(server, match), local_addr=("127.0.0.2", 0)) as spy:
            await spy.send(json.dumps({"type": "hello", "token": link}))
            refusal = json.loads(await spy.recv())
            assert refusal["code"] == "link_used", refusal
            await asyncio.wait_for(spy.wait_closed(), 10)
            assert spy.close_code == 4403
        # The friend's page, opened again, is the seat: with no new token to give.
        again = await Client(server.url, match, friend.token).connect()
        assert [m.get("token") for m in again.messages if m["type"] == "welcome"] == [None]
        assert again.state["seat"] == 1
        for client in (creator, friend, again):
            await client.close()

    asyncio.run(go())
    assert "Traceback" not in server.log_path.read_text()


def test_two_pages_opening_one_link_at_once_take_the_seat_once(server):
    created = _private(server)
    match, link = created["match"], created["seats"][1]["token"]

    async def hello() -> dict:
        async with websockets.connect(_ws(server, match)) as socket:
            await socket.send(json.dumps({"type": "hello", "token": link}))
            return json.loads(await socket.recv())

    async def go() -> list[dict]:
        return list(await asyncio.gather(*(hello() for _ in range(4))))

    answers = asyncio.run(go())
    welcomed = [a for a in answers if a["type"] == "welcome"]
    assert len(welcomed) == 1 and welcomed[0]["token"] != link, answers
    assert {a.get("code") for a in answers if a["type"] == "error"} == {"link_used"}, answers


def test_a_tutorial_s_seat_is_the_learner_s_from_the_start(server):
    """The learner alone was handed the seat: its token is not a link, and stays."""
    made = plain_http.post(f"{server.url}/api/tutorials/edges", json={}).json()
    token = made["seats"][0]["token"]

    async def go() -> None:
        learner = await Client(server.url, made["match"], token).connect()
        assert [m.get("token") for m in learner.messages if m["type"] == "welcome"] == [None]
        assert learner.token == token
        await learner.close()

    asyncio.run(go())


async def _hello(server: ServerProcess, match: str, token: str, address: str, **more) -> dict:
    """A hello from ``address`` with ``token``: its first answer (and, after a welcome, the
    next, or None), the socket then closed without a word more."""
    async with websockets.connect(_ws(server, match), local_addr=(address, 0)) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token, **more}))
        first = json.loads(await socket.recv())
        second = json.loads(await socket.recv()) if first["type"] == "welcome" else None
        return {"first": first, "next": second}


def test_a_link_whose_answer_was_lost_takes_its_seat_again_from_its_address_only(server):
    """The seat's new token goes back in the welcome (or the join's reply): should that
    answer be lost (the page closed at once, the network cut), nobody held the seat, the
    link refused for good (a hostile client's finding). Until the new token is used, the
    address that took the seat may take it again with the link, once no page holds the seat
    and two seconds have passed (a second tab opening the link at once is refused, and
    finds the first tab's token in the browser); the token given before is then void. No
    other address may, and nobody once the token has been used."""
    created = _private(server)
    match, link = created["match"], created["seats"][1]["token"]

    async def go() -> None:
        lost = (await _hello(server, match, link, "127.0.0.1"))["first"]["token"]
        other = await _hello(server, match, link, "127.0.0.3")
        assert other["first"]["code"] == "link_used", other
        soon = await _hello(server, match, link, "127.0.0.1")
        assert soon["first"]["code"] == "link_used", soon  # as a second tab's, at once
        await asyncio.sleep(RETAKE_AFTER + 0.2)
        again = await _hello(server, match, link, "127.0.0.1")
        own = again["first"]["token"]
        assert again["first"]["seat"] == 1 and own not in (None, link, lost)
        void = await _hello(server, match, lost, "127.0.0.1")
        assert void["first"]["code"] == "bad_token", void
        # Its token used (a message on the socket that took it, as the page's ping is):
        async with websockets.connect(_ws(server, match)) as socket:
            await socket.send(json.dumps({"type": "hello", "token": own}))
            await socket.recv()
        for address in ("127.0.0.1", "127.0.0.3"):
            late = await _hello(server, match, link, address)
            assert late["first"]["code"] == "link_used", (address, late)

    asyncio.run(go())
    # The join's reply alike: the link again from the same address, before its token is used.
    created = _private(server)
    match, link = created["match"], created["seats"][1]["token"]
    first = _post(server, f"{match}/join", {"token": link}).json()["token"]
    time.sleep(RETAKE_AFTER + 0.2)
    second = _post(server, f"{match}/join", {"token": link})
    assert second.status_code == 200 and second.json()["token"] not in (first, link)
    assert _post(server, f"{match}/resign", {"token": first}).json()["code"] == "bad_token"


def test_a_hello_s_name_that_is_no_person_s_leaves_the_seat_taken_under_its_own(server):
    """A page sends the name its browser keeps with every hello: one refused there refused
    the whole hello, and the page forgot the seat it held (a hostile client's finding). The
    seat is taken under its own name, and the page told why after the welcome; a seat held
    already is opened whatever name comes with it."""
    created = _private(server)
    match, link = created["match"], created["seats"][1]["token"]

    async def go() -> None:
        taken = await _hello(server, match, link, "127.0.0.1", name="Computer (hard)")
        assert taken["first"]["type"] == "welcome", taken
        told = taken["next"]
        assert told["type"] == "error" and told["code"] == "name_not_used", told
        assert "your name was not used (a person's name may not hold the word" in told["message"]
        own = taken["first"]["token"]
        again = await _hello(server, match, own, "127.0.0.1", name="\u200bComputer")
        assert again["first"]["type"] == "welcome" and again["next"]["type"] == "state", again

    asyncio.run(go())
    seats = plain_http.get(f"{server.url}/api/matches/{match}").json()["seats"]
    assert seats[1]["name"] == "Blue" and seats[1]["joined"]


def test_a_link_of_a_seat_given_up_says_no_one_holds_it(tmp_path):
    """In a listed match a seat left is open again: its old link said "the seat is taken by
    the person who opened it first"."""
    process = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", tmp_path / "s.log", 0).start()
    try:
        body = {"game": "edges", "options": {"board": "2x3"}, "seats": ["human", "human"]}
        created = plain_http.post(f"{process.url}/api/matches", json=body).json()
        match, link = created["match"], created["seats"][1]["token"]
        own = plain_http.take_seat(process.url, match, link)
        left = plain_http.post(f"{process.url}/api/matches/{match}/leave", json={"token": own})
        assert left.status_code == 200, left.text
        again = plain_http.post(f"{process.url}/api/matches/{match}/join", json={"token": link})
        assert again.status_code == 403 and again.json()["code"] == "bad_token", again.text
    finally:
        process.kill()
