"""``POST /api/replay/board-text``: the replay page's "Board as text", one step of a record
at a time, as the game page's is drawn (``Game.render_text``) for a seat or a spectator.

A seat's board is shown once the match is over, and shows only what that seat saw at that
step: a choice another seat made in a simultaneous decision still open is not on it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import httpx
import pytest

from meeple.core.record import GameRecord, Playthrough
from meeple.core.registry import make
from meeple.interfaces.web.client import ServerProcess

ROUTE = "/api/replay/board-text"


def _played(name: str, seed: int, first: str | None = None) -> GameRecord:
    """A whole game of ``name`` played at random from ``seed``; ``first``, the first move
    (seat 0's) where one is given."""
    play = Playthrough(make(name), seed)
    rng = random.Random(seed)
    if first is not None:
        play.play(0, play.state.game.parse_action(first))
    while not play.state.is_over:
        seat = rng.choice(play.state.to_act)
        play.play(seat, rng.choice(play.state.legal_actions(seat)))
    return play.record()


@pytest.fixture(scope="module")
def client(tmp_path_factory) -> Iterator[httpx.Client]:
    """A client of a real server (agents in threads: its records are checked in a thread)."""
    folder = tmp_path_factory.mktemp("boards")
    server = ServerProcess(f"sqlite:///{folder / 's.db'}", folder / "server.log", 0).start()
    with httpx.Client(base_url=server.url, timeout=60) as client:
        yield client
    server.kill()


def _board(client: httpx.Client, record: GameRecord, **query: int) -> dict:
    reply = client.post(ROUTE, params=query, content=record.model_dump_json())
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_each_step_s_board_is_the_game_s_text_as_that_seat_saw_it(client):
    record = _played("edges", 3)
    states = record.states()
    game = states[0].game
    for step in (0, 1, len(record.moves)):
        for seat in (None, 0, 1):
            query = {"step": step} if seat is None else {"step": step, "seat": seat}
            answer = _board(client, record, **query)
            assert answer == {
                "step": step,
                "seat": seat,
                "text": game.render_text(states[step], seat),
            }


def test_a_choice_not_yet_revealed_is_not_on_the_other_seat_s_board(client):
    """Erd: after Red's secret allocation (move 1), Blue's board is the same whatever Red
    chose; Red's own shows its choice."""
    first, other = (_played("erd", 5, a) for a in ("rush=HHH defense=LLL", "rush=DDD defense=DDD"))
    blue = [_board(client, r, step=1, seat=1)["text"] for r in (first, other)]
    assert "allocated (hidden)" in blue[0]
    assert blue[0] == blue[1]
    red = [_board(client, r, step=1, seat=0)["text"] for r in (first, other)]
    assert red[0] != red[1]
    spectator = [_board(client, r, step=1)["text"] for r in (first, other)]
    assert spectator[0] == spectator[1]


def test_a_seat_s_board_waits_for_the_end_of_the_match(client):
    whole = _played("erd", 5)
    unfinished = whole.model_copy(update={"moves": whole.moves[:3], "result": None})
    refused = client.post(
        ROUTE, params={"step": 2, "seat": 0}, content=unfinished.model_dump_json()
    )
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    assert "once the match is over" in refused.json()["error"]
    assert _board(client, unfinished, step=2)["seat"] is None  # a spectator's is shown
    # A match that ended before its game did (a resign) is over: its record is public.
    said = {"over": True, "reason": "Red (seat 0) resigned", "resigned": [0], "returns": [-1, 1]}
    resigned = unfinished.model_copy(update={"result": {**said, "winners": [1]}})
    assert _board(client, resigned, step=2, seat=0)["seat"] == 0


@pytest.mark.parametrize(
    ("query", "status", "code", "says"),
    [
        ({"step": 99}, 422, "invalid_request", "a step is 0 (the start) to"),
        ({"step": -1}, 422, "invalid_request", "step"),
        ({}, 422, "invalid_request", "step"),
        ({"step": 0, "seat": 2}, 422, "invalid_request", "seats 0 to 1"),
        ({"step": 0, "seat": -1}, 422, "invalid_request", "seat"),
        ({"step": 0, "eyes": 1}, 422, "invalid_request", "eyes"),
    ],
)
def test_a_step_or_seat_the_record_lacks_is_refused_in_words(client, query, status, code, says):
    reply = client.post(ROUTE, params=query, content=_played("edges", 3).model_dump_json())
    assert (reply.status_code, reply.json()["code"]) == (status, code), reply.text
    assert says in reply.json()["error"]


def test_a_record_that_does_not_replay_is_refused_as_an_upload_is(client):
    bad = client.post(ROUTE, params={"step": 0}, json={"game": "edges", "moves": "nonsense"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_record"
    noise = client.post(ROUTE, params={"step": 0}, content=b"not json")
    assert noise.status_code == 400 and noise.json()["code"] == "bad_record"


def test_a_record_may_be_as_large_as_an_upload_and_no_larger(client):
    record = json.loads(_played("edges", 3).model_dump_json())
    # Past the 64 KiB of other bodies (a record's seats named at length), within 2 MB.
    body = json.dumps(record, indent=200).encode()
    assert 65_536 < len(body) < 2_000_000
    assert client.post(ROUTE, params={"step": 1}, content=body).status_code == 200
    huge = client.post(ROUTE, params={"step": 1}, content=b" " * 2_000_001)
    assert huge.status_code == 413 and huge.json()["code"] == "too_large"


def test_boards_as_text_are_rate_limited_per_address(server_factory, tmp_path):
    record = _played("edges", 3).model_dump_json()
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--max-boards-per-minute", "2")
    with httpx.Client(base_url=server.url, timeout=60) as client:
        for step in (0, 1):
            assert client.post(ROUTE, params={"step": step}, content=record).status_code == 200
        limited = client.post(ROUTE, params={"step": 2}, content=record)
        assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
        assert "at most 2 boards as text a minute" in limited.json()["error"]
        # Its own rate: an upload is not refused for it.
        assert client.post("/api/replay", content=record).status_code == 200
