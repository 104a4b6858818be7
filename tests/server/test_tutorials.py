"""Tutorials against a real server process (POST /api/tutorials/{game}): the scripted seat
plays the file's replies, the learner's other moves are refused with the step's why
(``off_script``), the learner sees only its own view, and the lesson ends the match."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

import meeple.games  # noqa: F401  (registers the games)
from meeple.core.tutorial import load_tutorial, replay
from meeple.interfaces.web.client import Client
from tests import plain_http
from tests.server.conftest import module_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with module_server(tmp_path_factory, "tutorials", 0) as server:
        yield server


def start(server, game: str) -> dict:
    reply = plain_http.post(f"{server.url}/api/tutorials/{game}", timeout=30)
    assert reply.status_code == 200, reply.text
    return reply.json()


async def follow(server, created: dict, game: str) -> Client:
    """Play the lesson's steps over the WebSocket, with one off-script move at the first
    step that has another legal move (checked for that step's why); the client."""
    lesson = load_tutorial(game)
    client = await Client(server.url, created["match"], created["seats"][0]["token"]).connect()
    refused_at = None
    for number, step in enumerate(lesson.steps):
        await client.wait_for(
            lambda n=number: (
                client.state["tutorial"]["step"] == n
                and client.state["tutorial"]["expected"] is not None
            )
        )
        state = client.state
        assert state["tutorial"]["prompt"] == step.prompt
        expected = state["tutorial"]["expected"]
        others = [m["text"] for m in state["legal"] if m["text"] != expected]
        if refused_at is None and others:
            await client.send({"type": "move", "seq": state["seq"], "action": others[0]})
            await client.wait_for(lambda: client.errors)
            refusal = [m for m in client.messages if m["type"] == "error"][-1]
            assert refusal["code"] == "off_script" and refusal["message"] == step.why
            refused_at = number
        await client.send({"type": "move", "seq": state["seq"], "action": expected})
        await client.wait_for(lambda n=number: client.state["tutorial"]["step"] > n)
    assert refused_at is not None, "no step had another legal move to refuse"
    client.refused_at = refused_at  # type: ignore[attr-defined]
    await client.wait_for(lambda: client.state["status"] == "finished")
    return client


@pytest.mark.parametrize("game", ["edges", "erd", "triangle-clock", "erosion", "squad-combat"])
def test_a_tutorial_plays_its_script_to_the_end(server, game):
    lesson = load_tutorial(game)
    created = start(server, game)
    client = asyncio.run(follow(server, created, game))
    state = client.state
    assert state["tutorial"]["end"] == lesson.end and state["tutorial"]["expected"] is None
    # The lesson ends the match with its last move, in one state: none says the lesson is
    # over while the match still offers a move (they came a store's write apart).
    ended = [m for m in client.messages if m["type"] == "state" and m["tutorial"]["end"]]
    assert ended and all(m["status"] == "finished" and not m["legal"] for m in ended), [
        (m["seq"], m["status"], len(m["legal"])) for m in ended
    ]
    # Only the off-script move was refused.
    assert client.errors == [lesson.steps[client.refused_at].why]
    record = plain_http.get(f"{server.url}/api/matches/{created['match']}/record").json()
    assert [tuple(m) for m in record["moves"]] == replay(lesson)
    assert record["seats"][lesson.scripted] == "tutorial"
    summary = plain_http.get(f"{server.url}/api/matches/{created['match']}").json()
    assert summary["listed"] is False
    assert summary["seats"][lesson.scripted]["label"] == "Tutor (scripted)"
    token = created["seats"][0]["token"]
    rematch = plain_http.post(
        f"{server.url}/api/matches/{created['match']}/rematch", json={"token": token}
    )
    assert rematch.status_code == 409 and "lobby" in rematch.json()["error"]


def test_games_say_which_have_a_tutorial_and_others_are_refused(server):
    catalogue = {g["name"]: g for g in plain_http.get(f"{server.url}/api/games").json()}
    assert catalogue["edges"]["tutorial"] is True
    unknown = plain_http.post(f"{server.url}/api/tutorials/chess")
    assert unknown.status_code == 400 and unknown.json()["code"] == "unknown_game"


def test_a_tutorial_takes_the_learner_s_name_and_nothing_else(server):
    """Its body was not read: {"x": 1} was taken (200) as if it meant something."""
    url = f"{server.url}/api/tutorials/edges"
    extra = plain_http.post(url, json={"x": 1})
    assert extra.status_code == 422, extra.text
    assert extra.json()["error"] == "body.x: Extra inputs are not permitted"
    named = plain_http.post(url, json={"name": "Zoë"}).json()
    seats = plain_http.get(f"{server.url}/api/matches/{named['match']}").json()["seats"]
    assert "Zoë" in [s["name"] for s in seats]


def test_no_hint_in_a_tutorial(server):
    created = start(server, "edges")
    reply = plain_http.post(
        f"{server.url}/api/matches/{created['match']}/hint",
        json={"token": created["seats"][0]["token"]},
    )
    assert reply.status_code == 403 and reply.json()["code"] == "hints_off"


def test_a_tutorial_goes_on_after_a_restart_and_a_spectator_sees_no_lesson(
    tmp_path, server_factory
):
    db = f"sqlite:///{tmp_path / 'restart.db'}"
    first = server_factory(db, 0)
    created = start(first, "squad-combat")
    lesson = load_tutorial("squad-combat")
    token = created["seats"][0]["token"]

    async def one_step(server) -> dict:
        client = await Client(server.url, created["match"], token).connect()
        await client.wait_for(lambda: client.state["tutorial"]["expected"] is not None)
        state = client.state
        await client.send(
            {"type": "move", "seq": state["seq"], "action": state["tutorial"]["expected"]}
        )
        await client.wait_for(lambda: client.state["tutorial"]["step"] > state["tutorial"]["step"])
        await client.close()
        return state

    async def watch(server) -> dict:
        client = await Client(server.url, created["match"], None).connect()
        await client.close()
        return client.state

    assert asyncio.run(one_step(first))["tutorial"]["step"] == 0
    first.terminate()
    second = server_factory(db, 0)
    # Restored: the script is read again, and the learner goes on at step 2.
    state = asyncio.run(one_step(second))
    assert state["tutorial"]["step"] == 1
    assert state["tutorial"]["prompt"] == lesson.steps[1].prompt
    assert asyncio.run(watch(second))["tutorial"] is None


def test_a_lesson_left_playing_by_an_older_server_ends_after_a_restart(tmp_path, server_factory):
    """An older server ended a lesson a store's write after its last move; stopped between
    the two, it left the match playing with the lesson over. A server started on that
    database ends it as the lesson it was."""
    db_file = tmp_path / "older.db"
    first = server_factory(f"sqlite:///{db_file}", 0)
    created = start(first, "triangle-clock")
    client = asyncio.run(follow(first, created, "triangle-clock"))
    assert client.state["result"]["lesson"] is True  # the lesson ends before the game
    first.terminate()
    with sqlite3.connect(db_file) as db:
        db.execute("UPDATE matches SET status = 'playing', result = NULL")
    second = server_factory(f"sqlite:///{db_file}", 0)

    async def watch() -> dict:
        client = await Client(second.url, created["match"], None).connect()
        await client.wait_for(lambda: client.state["status"] == "finished")
        await client.close()
        return client.state

    state = asyncio.run(watch())
    assert state["result"]["lesson"] is True and state["result"]["reason"] == "the lesson is over"
