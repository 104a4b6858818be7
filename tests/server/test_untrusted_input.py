"""Strangers' input (issue 53), against a real server process: no option of a client's
names a file the server reads, every refusal is ``{"error", "code"}``, every bad message
is answered, and none of it leaves a traceback in the log."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from meeple.interfaces.web.client import Client, ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("untrusted")
    server = ServerProcess(f"sqlite:///{folder / 'server.db'}", folder / "server.log").start()
    server.folder = folder
    yield server
    server.kill()


def _log(server) -> str:
    return server.log_path.read_text(errors="replace")


def _record(game: str, **options) -> dict:
    return {"format": "meeple-record/1", "game": game, "options": options, "seed": 1, "moves": []}


@pytest.mark.parametrize(
    ("game", "option", "path"),
    [
        ("triangle-clock", "ranking", "/etc/passwd"),
        ("triangle-clock", "ranking", "/proc/self/environ"),
        ("triangle-clock", "ranking", "/dev/zero"),
        ("triangle-clock", "ranking", "/no/such/file"),
        ("squad-combat", "content", "/etc"),
    ],
)
def test_a_replayed_record_cannot_make_the_server_read_its_files(server, game, option, path):
    reply = httpx.post(f"{server.url}/api/replay", json=_record(game, **{option: path}))
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert f"option {option!r}" in error and "names a file" in error
    # Nothing about the file: whether it exists, or what parsing it said.
    for leak in ("TOML", "root:", "cannot read", "missing", "No such"):
        assert leak not in reply.text
    reply = httpx.post(f"{server.url}/api/matches", json={"game": game, "options": {option: path}})
    assert reply.status_code == 400 and "names a file" in reply.json()["error"]


# -- strict types ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"game": "erosion", "options": {"players": "3"}}, "option 'players'"),
        ({"game": "erosion", "options": {"first": "0"}}, "option 'first'"),
        ({"game": "edges", "listed": "no"}, "listed"),
        ({"game": "edges", "listed": 0}, "listed"),
        ({"game": "edges", "seed": "7"}, "seed"),
        ({"game": "edges", "seed": True}, "seed"),
        ({"game": "edges", "move_seconds": "30"}, "move_seconds"),
    ],
)
def test_a_match_request_must_carry_json_types(server, body, says):
    reply = httpx.post(f"{server.url}/api/matches", json=body)
    assert reply.status_code in (400, 422), reply.text
    assert says in reply.json()["error"]


def test_typed_values_are_accepted(server):
    body = {"game": "erosion", "options": {"players": 3, "first": 0}, "listed": False,
            "seed": 7, "move_seconds": 30, "seats": ["human", "random", "random"]}  # fmt: skip
    reply = httpx.post(f"{server.url}/api/matches", json=body)
    assert reply.status_code == 200, reply.text
    match = reply.json()["match"]
    join = httpx.post(f"{server.url}/api/matches/{match}/join", json={"seat": "0"})
    assert join.status_code == 422 and "seat" in join.json()["error"]


def test_a_replayed_record_must_carry_json_types(server):
    for record in (
        _record("erosion", players="3"),
        {**_record("edges"), "seed": "1"},
        {**_record("edges"), "seed": True},
        {**_record("edges"), "moves": [["0", "L h0,0"]]},
    ):
        reply = httpx.post(f"{server.url}/api/replay", json=record)
        assert reply.status_code == 400, (record, reply.text)


@pytest.mark.parametrize(
    ("message", "says"),
    [
        ({"type": "move", "seq": "0", "action": "L h0,0"}, "seq"),
        ({"type": "move", "seq": True, "action": "L h0,0"}, "seq"),
        ({"type": "move", "seq": 0.0, "action": "L h0,0"}, "seq"),
        ({"type": "move", "seq": 0, "action_id": "3"}, "action_id"),
        ({"type": "move", "seq": 0, "action_id": True}, "action_id"),
        ({"type": "hello", "token": None, "name": 5}, "name"),
    ],
)
def test_a_message_must_carry_json_types(server, message, says):
    async def go() -> None:
        body = {"game": "edges", "options": {"board": "2x2", "first": 0}, "seats": ["human"] * 2}
        created = httpx.post(f"{server.url}/api/matches", json=body).json()
        a = await Client(server.url, created["match"], created["seats"][0]["token"]).connect()
        await a.send(message)
        await a.wait_for(lambda: a.errors)
        assert says in a.errors[-1], a.errors
        assert a.state["seq"] == 0 and not a.acks
        await a.close()

    asyncio.run(go())
