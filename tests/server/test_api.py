"""The lobby API and the WebSocket protocol, against a real server process.

Every refused request or message must say what was wrong and leave the match as it was.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
import time
from importlib import metadata

import pytest

import meeple
from meeple.agents.levels import LEVEL_NAMES, level_spec
from meeple.interfaces.web import app as web_app
from meeple.interfaces.web.client import Client, ServerProcess
from meeple.interfaces.web.seeds import verify_seed
from tests import plain_http


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("api")
    # An agent budget above the default cap, for the test of an agent that thinks long.
    args = ("--max-agent-seconds", "10")
    server = ServerProcess(f"sqlite:///{folder / 'server.db'}", folder / "server.log", 1, args)
    server.start()
    server.folder = folder
    # Records are checked in a worker process: the first upload may wait for it to start.
    warm = {"game": "edges", "seed": 1, "moves": []}
    assert plain_http.post(f"{server.url}/api/replay", json=warm, timeout=120).status_code == 200
    yield server
    server.kill()


def create(server, **body) -> dict:
    reply = plain_http.post(f"{server.url}/api/matches", json=body)
    assert reply.status_code == 200, reply.text
    return reply.json()


async def seated(server, created: dict) -> list[Client]:
    """A connected client for each person's seat of a new match."""
    return [
        await Client(server.url, created["match"], s["token"]).connect() for s in created["seats"]
    ]


def summary(server, match: str) -> dict:
    return plain_http.get(f"{server.url}/api/matches/{match}").json()


# -- creating, listing, joining ---------------------------------------------------------------
def test_a_bad_option_gets_the_same_error_as_the_cli(server, run):
    reply = plain_http.post(
        f"{server.url}/api/matches", json={"game": "edges", "options": {"board": "3by3"}}
    )
    assert reply.status_code == 400
    cli = run("play", "edges", "--board", "3by3", "--seat", "random", "--seat", "random")
    # The same words, the option named as each reader writes it: JSON's key, the flag.
    said = reply.json()["error"]
    assert said.startswith("option 'board' of edges: ")
    assert said.replace("option 'board'", "option --board") in " ".join(cli.output.split())
    assert "allowed: 3x4 | 3x3" in reply.json()["error"]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"game": "chess"}, "no game called 'chess'"),
        ({"game": "edges", "seats": ["human", "deep-blue"]}, "no agent called 'deep-blue'"),
        ({"game": "edges", "seats": ["human"] * 3}, "has 2 seats"),
        ({"game": "edges", "options": {"colour": "red"}}, "unknown option 'colour'"),
        ({"game": "edges", "move_seconds": -1}, "move_seconds"),
        ({"game": "edges", "surprise": 1}, "surprise"),
        ({"game": 5}, "game"),
        (
            {"game": "edges", "options": {"board": "5x9"}, "seats": ["human", "perfect"]},
            "the Edges solver takes boards of up to 42 squares",
        ),
    ],
)
def test_a_bad_match_request_is_refused_with_a_reason(server, body, says):
    reply = plain_http.post(f"{server.url}/api/matches", json=body)
    assert reply.status_code in (400, 422)
    assert says in reply.json()["error"]


def test_a_seat_may_name_a_level_stored_as_its_agent_and_missing_seats_get_hard(server):
    """Levels as ``meeple play --level`` gives them: the seat plays, and keeps, the level's
    agent spec (a replay stays the same whatever the levels become); ``hard`` is the default."""
    game = meeple.make("squad-combat")
    games = {g["name"]: g for g in plain_http.get(f"{server.url}/api/games").json()}
    assert games["squad-combat"]["levels"] == [
        {"level": level, "spec": level_spec(game, level)} for level in LEVEL_NAMES
    ]
    named = create(server, game="squad-combat", seats=["human", " Medium "])
    assert [s["agent"] for s in summary(server, named["match"])["seats"]] == [None, "heuristic"]
    left_out = create(server, game="squad-combat", seats=["human"])
    agents = [s["agent"] for s in summary(server, left_out["match"])["seats"]]
    assert agents == [None, level_spec(game, "hard")] and agents[1] != "heuristic"


def test_a_body_that_is_not_json_is_refused_as_bad_json(server):
    """docs/api.md's table: a body that is not JSON is ``bad_json``, as a socket's text is;
    FastAPI's own answer was 422 ``invalid_request``, "body.1: JSON decode error"."""
    for path in ("/api/matches", "/api/matches/nothing-here/join"):
        reply = plain_http.post(
            f"{server.url}{path}",
            content=b"{not json",
            headers={"content-type": "application/json"},
        )
        assert reply.status_code == 400, reply.text
        assert reply.json()["code"] == "bad_json", reply.text
        assert reply.json()["error"].startswith("the body is not JSON: Expecting"), reply.text


def test_a_rest_body_is_read_as_every_json_from_outside_is(server):
    """docs/security.md: a key given twice, or nesting deeper than Python follows, is
    refused in words by the one reader. FastAPI's own json.loads kept the last of two keys
    (a match of the second game asked for was made) and called deep nesting "a number has
    too many digits?"."""
    bodies = {
        b'{"game": "edges", "game": "erd"}': "the key 'game' is given twice in one object",
        b'{"game": "edges", "options": {"board": "3x3", "board": "9x9"}}': "'board' is given twice",
        b'{"game": "edges", "options": ' + b"[" * 5000 + b"]" * 5000 + b"}": "nested too deeply",
    }
    for body, why in bodies.items():
        reply = plain_http.post(
            f"{server.url}/api/matches",
            content=body,
            headers={"content-type": "application/json"},
        )
        assert reply.status_code == 400, reply.text
        assert reply.json()["code"] == "bad_json", reply.text
        assert reply.json()["error"].startswith("the body is "), reply.text
        assert why in reply.json()["error"], reply.text


def test_tokens_are_secret_long_and_stored_only_as_hashes(server):
    created = create(server, game="erd", seats=["human", "human"])
    tokens = [s["token"] for s in created["seats"]]
    assert len(set(tokens)) == 2
    assert all(len(t) >= 22 for t in tokens)  # url-safe base64: 22 characters hold 128 bits
    dump = "\n".join(sqlite3.connect(server.folder / "server.db").iterdump())
    assert created["match"] in dump
    assert not any(t in dump for t in tokens)
    assert created["seats"][0]["join_url"].endswith(f"#token={tokens[0]}")


def test_the_lobby_lists_open_seats_and_hides_private_matches(server):
    public = create(server, game="edges", seats=["open", "open"])
    private = create(server, game="edges", seats=["human", "human"], listed=False)
    listed = {m["match"]: m for m in plain_http.get(f"{server.url}/api/matches?status=open").json()}
    assert public["match"] in listed and private["match"] not in listed
    assert listed[public["match"]]["open_seats"] == [0, 1]
    assert public["seats"] == []  # no token is handed out for an open seat
    # A private match is still reachable by its link.
    assert summary(server, private["match"])["listed"] is False
    reply = plain_http.post(
        f"{server.url}/api/matches/{private['match']}/join", json={"name": "Eve"}
    )
    assert reply.status_code == 400 and "link" in reply.json()["error"]


def test_a_stranger_cannot_take_a_seat_whose_link_was_handed_out(server):
    created = create(server, game="edges", seats=["human", "human"])
    match = created["match"]
    assert summary(server, match)["open_seats"] == []
    listed = [m["match"] for m in plain_http.get(f"{server.url}/api/matches?status=open").json()]
    assert match not in listed
    for body in ({"name": "Eve"}, {"name": "Eve", "seat": 0}, {"name": "Eve", "seat": 1}):
        reply = plain_http.post(f"{server.url}/api/matches/{match}/join", json=body)
        assert reply.status_code == 409, reply.text
    # Both links still work: the creator's token was not taken over.
    for seat in created["seats"]:
        reply = plain_http.post(
            f"{server.url}/api/matches/{match}/join", json={"token": seat["token"]}
        )
        assert reply.status_code == 200 and reply.json()["seat"] == seat["seat"]
    assert summary(server, match)["status"] == "playing"


def test_an_open_seat_is_for_anyone_but_only_in_a_listed_match(server):
    created = create(server, game="edges", seats=["human", "open"], names=["Ann", "Bob"])
    assert [s["seat"] for s in created["seats"]] == [0]
    assert summary(server, created["match"])["open_seats"] == [1]
    reply = plain_http.post(
        f"{server.url}/api/matches",
        json={"game": "edges", "seats": ["human", "open"], "listed": False},
    )
    assert reply.status_code == 400 and "listed" in reply.json()["error"]


def test_join_leave_and_join_again(server):
    created = create(server, game="edges", seats=["human", "open"])
    match = created["match"]
    first = plain_http.post(
        f"{server.url}/api/matches/{match}/join",
        json={"token": created["seats"][0]["token"], "name": "Ann"},
    ).json()
    assert first["seat"] == 0
    stranger = plain_http.post(
        f"{server.url}/api/matches/{match}/join", json={"name": "Bob"}
    ).json()
    assert stranger["seat"] == 1
    assert summary(server, match)["status"] == "playing"
    assert [s["name"] for s in summary(server, match)["seats"]] == ["Ann", "Bob"]
    left = plain_http.post(
        f"{server.url}/api/matches/{match}/leave", json={"token": stranger["token"]}
    )
    assert left.status_code == 200
    assert summary(server, match)["open_seats"] == [1]
    dead = plain_http.post(
        f"{server.url}/api/matches/{match}/resign", json={"token": stranger["token"]}
    )
    assert dead.status_code == 403
    again = plain_http.post(f"{server.url}/api/matches/{match}/join", json={"name": "Cy"}).json()
    assert again["seat"] == 1


def test_joining_a_full_match_says_it_has_no_open_seat(server):
    created = create(server, game="edges", seats=["human", "open"])
    match = created["match"]
    plain_http.post(f"{server.url}/api/matches/{match}/join", json={"name": "Bob"})
    for body in ({"name": "Cy"}, {"name": "Cy", "seat": 1}):
        reply = plain_http.post(f"{server.url}/api/matches/{match}/join", json=body)
        assert reply.status_code == 409
        assert "the match has no open seat" in reply.json()["error"]
        assert "None" not in reply.json()["error"]
    open_one = create(server, game="edges", seats=["open", "open"])
    plain_http.post(f"{server.url}/api/matches/{open_one['match']}/join", json={"name": "Dee"})
    reply = plain_http.post(
        f"{server.url}/api/matches/{open_one['match']}/join", json={"name": "Cy", "seat": 0}
    )
    assert reply.status_code == 409 and reply.json()["error"] == (
        "seat 0 is not open; open seats: [1]"
    )


def test_a_seat_of_a_finished_match_cannot_be_left(server):
    async def go() -> None:
        created = create(server, game="erd", seats=["human", "human"])
        match = created["match"]
        a, b = await seated(server, created)
        await a.send({"type": "resign"})
        await b.wait_for(lambda: b.state["status"] == "finished")
        winner = b.token  # the seat's own, its link taken
        reply = plain_http.post(f"{server.url}/api/matches/{match}/leave", json={"token": winner})
        assert reply.status_code == 409 and "over" in reply.json()["error"]
        assert summary(server, match)["open_seats"] == []
        # The winner's token still works: the rematch is theirs to ask for.
        rematch = plain_http.post(
            f"{server.url}/api/matches/{match}/rematch", json={"token": winner}
        )
        assert rematch.status_code == 200, rematch.text
        for c in (a, b):
            await c.close()

    asyncio.run(go())


def test_the_api_description_names_the_server_s_meeple_version(server, tmp_path, monkeypatch):
    info = plain_http.get(f"{server.url}/openapi.json").json()["info"]
    assert info["version"] == metadata.version("meeple")
    # meeple's version, not FastAPI's default (which happens to read the same today)
    monkeypatch.setattr(web_app, "meeple_version", lambda: "9.8.7")
    made = web_app.create_app(f"sqlite:///{tmp_path / 'v.db'}", agent_workers=0)
    assert made.openapi()["info"]["version"] == "9.8.7"


def test_every_answer_tells_a_browser_what_it_may_do_with_it(server):
    """Pages, files, answers and refusals (the body limit's too) carry the page policy: the
    server's own scripts and styles only, never in another site's frame, no type guessed,
    no address sent to another site; FastAPI's API pages, which load a CDN's script, are
    only kept out of frames."""
    asked = {
        "lobby": plain_http.get(f"{server.url}/"),
        "game page": plain_http.get(f"{server.url}/play/some-match"),
        "replay page": plain_http.get(f"{server.url}/replay"),
        "script": plain_http.get(f"{server.url}/static/js/play.js"),
        "API": plain_http.get(f"{server.url}/api/games"),
        "API refusal": plain_http.get(f"{server.url}/api/matches/nothing-here"),
        "missing page": plain_http.get(f"{server.url}/nowhere", headers={"accept": "text/html"}),
        "body too large": plain_http.post(f"{server.url}/api/matches", content=b"x" * 70_000),
        "API description": plain_http.get(f"{server.url}/openapi.json"),
    }
    assert [
        asked[k].status_code for k in ("lobby", "script", "missing page", "body too large")
    ] == [
        200,
        200,
        404,
        413,
    ]
    for what, reply in asked.items():
        policy = reply.headers.get("content-security-policy", "")
        directives = dict(d.strip().partition(" ")[::2] for d in policy.split(";"))
        assert directives.get("default-src") == "'self'", (what, policy)
        assert "unsafe" not in policy and directives.get("frame-ancestors") == "'none'", what
        assert directives.get("object-src") == directives.get("base-uri") == "'none'", what
        host = server.url.removeprefix("http://")
        assert directives.get("connect-src") == f"'self' ws://{host} wss://{host}", what
        assert reply.headers.get("x-frame-options") == "DENY", what
        assert reply.headers.get("x-content-type-options") == "nosniff", what
        assert reply.headers.get("referrer-policy") == "same-origin", what
    # A Host header that is no host name adds no source to the policy.
    forged = plain_http.get(f"{server.url}/", headers={"host": "evil.example; script-src *"})
    assert "connect-src" not in forged.headers["content-security-policy"]
    assert "script-src" not in forged.headers["content-security-policy"]
    docs = plain_http.get(f"{server.url}/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()
    assert docs.headers["content-security-policy"] == "frame-ancestors 'none'"
    assert docs.headers["x-frame-options"] == "DENY"


def test_a_page_answers_head_as_its_get_without_the_body(server):
    """A monitor, link checker or chat program's preview asks a page's HEAD: the same
    status and headers as its GET, and no body."""
    for path in ("/", "/play/some-match", "/replay", "/static/js/play.js"):
        got = plain_http.get(f"{server.url}{path}")
        head = plain_http.head(f"{server.url}{path}")
        assert (head.status_code, got.status_code) == (200, 200), path
        assert head.content == b"" and got.content, path
        for name in ("content-type", "content-length", "content-security-policy"):
            assert head.headers.get(name) == got.headers.get(name), (path, name)


def test_a_match_s_link_is_previewed_with_its_game_players_and_what_the_link_does(server):
    """A chat program reads a link's preview from the page's head without running it: the
    game, the players (as the lobby names them, escaped) and what opening the link does
    now; a link to no match is the page as it is, which says so once it runs."""
    created = create(server, game="edges", options={"board": "2x2"}, seats=["human", "random"])
    match, token = created["match"], created["seats"][0]["token"]
    joined = plain_http.post(
        f"{server.url}/api/matches/{match}/join", json={"token": token, "name": 'Ann <b>&"'}
    )
    assert joined.status_code == 200, joined.text
    token = joined.json()["token"]
    page = plain_http.get(f"{server.url}/play/{match}").text
    title = "Edges: Ann &lt;b&gt;&amp;&quot; vs Computer (random)"
    assert f"<title>{title} — meeple</title>" in page
    assert f'<meta property="og:title" content="{title}">' in page
    assert (
        "A match of Edges on meeple is being played: open the link to play your seat, or to watch."
        in page
    )
    assert '<script type="module" src="/static/js/play.js">' in page and "<b>" not in page
    resigned = plain_http.post(f"{server.url}/api/matches/{match}/resign", json={"token": token})
    assert resigned.status_code == 200, resigned.text
    page = plain_http.get(f"{server.url}/play/{match}").text
    assert (
        "is over (Red (seat 0) resigned): open the link to see how it ended, and replay it" in page
    )
    head = plain_http.head(f"{server.url}/play/{match}")
    assert head.status_code == 200 and head.content == b""
    unknown = plain_http.get(f"{server.url}/play/no-such-match").text
    assert "<title>meeple — match</title>" in unknown and "og:title" not in unknown
    # The lobby's own link says what the site is.
    lobby = plain_http.get(f"{server.url}/").text
    assert (
        '<meta property="og:title" content="meeple: five tabletop games to play online">' in lobby
    )


def test_crawlers_are_asked_to_leave_matches_replays_and_the_api_alone(server):
    reply = plain_http.get(f"{server.url}/robots.txt")
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/plain")
    rules = [line for line in reply.text.splitlines() if line and not line.startswith("#")]
    assert rules[0] == "User-agent: *"
    assert {"Disallow: /play/", "Disallow: /replay", "Disallow: /api/", "Disallow: /ws/"} <= set(
        rules
    )
    assert "Disallow: /" not in rules  # the lobby may be found
    assert plain_http.head(f"{server.url}/robots.txt").status_code == 200


def test_an_unknown_match_is_a_404(server):
    reply = plain_http.get(f"{server.url}/api/matches/nothing-here")
    assert reply.status_code == 404 and "no match" in reply.json()["error"]


# -- the WebSocket protocol -------------------------------------------------------------------
BAD_MESSAGES = [
    ("not json at all", "one JSON object"),
    ("[1, 2]", "bad message"),
    (json.dumps({"type": "dance"}), "bad message"),
    (json.dumps({"type": "move", "seq": "zero", "action": "L h0,0"}), "seq"),
    (json.dumps({"type": "move", "seq": 0, "action": "x" * 500}), "at most 200"),
    (json.dumps({"type": "move", "seq": 0, "action": "L h0,0", "cheat": 1}), "cheat"),
    (json.dumps({"type": "move", "seq": 0, "action_id": -3}), "action_id"),
    (json.dumps({"type": "move", "seq": 0, "action_id": 10**6}), "no action id 1000000"),
    (json.dumps({"type": "move", "seq": 0}), "exactly one of"),
    (json.dumps({"type": "move", "seq": 0, "action": "[/] [bold]"}), ""),
    (json.dumps({"type": "move", "seq": 0, "action": "L h9,9"}), "no edge h9,9"),
    # A seq from the future is refused as stale (the state is sent again), in words that fit.
    (json.dumps({"type": "move", "seq": 5, "action": "L h0,0"}), "move 5, which the match has not"),
    ("{" * 50_000, "too large"),
]


def test_malformed_messages_are_answered_and_change_nothing(server):
    async def go() -> None:
        created = create(
            server, game="edges", options={"board": "2x2", "first": 0}, seats=["human", "human"]
        )
        a, b = await seated(server, created)
        await a.wait_for(lambda: a.my_turn())
        before = a.state
        for text, says in BAD_MESSAGES:
            errors = len(a.errors)
            await a.send(text)
            await a.wait_for(lambda e=errors: len(a.errors) > e)
            assert says in a.errors[-1], (text[:40], a.errors[-1])
        # A move's refusal names the move it refuses (move_seq) beside the match's seq: a
        # page that sent its next move on a newer state must not take it for that one's.
        [future] = [m for m in a.messages if m["type"] == "error" and "move 5" in m["message"]]
        assert (future["seq"], future["move_seq"]) == (0, 5)
        # Out of turn: seat 1 is not to act.
        await b.send({"type": "move", "seq": 0, "action": "L h0,0"})
        await b.wait_for(lambda: b.errors)
        assert "not to act" in b.errors[-1]
        await a.send({"type": "ping"})
        await a.wait_for(lambda: a.messages[-1]["type"] == "pong")
        assert summary(server, created["match"])["seq"] == 0
        assert a.state["seq"] == before["seq"] == 0
        # The match still plays normally.
        await a.send({"type": "move", "seq": 0, "action": a.state["legal"][0]["text"]})
        await a.wait_for(lambda: a.acks == [1])
        await a.close()
        await b.close()

    asyncio.run(go())


def test_a_move_without_exactly_one_action_is_a_bad_message(server):
    """docs/api.md: a move carries ``action`` or ``action_id``; one with neither or both is
    no protocol message (``bad_message``), as a move with a missing or extra field is; it
    was ``bad_request``."""
    import websockets

    created = create(server, game="edges", options={"first": 0}, seats=["human", "easy"])
    url = server.url.replace("http", "ws") + f"/ws/{created['match']}"

    async def go() -> None:
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": created["seats"][0]["token"]}))
            for move in (
                {"type": "move", "seq": 0},
                {"type": "move", "seq": 0, "action": "L h0,0", "action_id": 1},
            ):
                await ws.send(json.dumps(move))
                while (reply := json.loads(await ws.recv()))["type"] != "error":
                    pass
                assert reply["code"] == "bad_message", reply
                assert "exactly one of action" in reply["message"], reply

    asyncio.run(go())


def test_a_double_click_makes_one_move(server):
    async def go() -> None:
        created = create(
            server, game="edges", options={"board": "2x2", "first": 0}, seats=["human", "human"]
        )
        a, b = await seated(server, created)
        await a.wait_for(lambda: a.my_turn())
        move = {"type": "move", "seq": 0, "action": a.state["legal"][0]["text"]}
        await a.send(move)
        await a.send(move)
        await a.wait_for(lambda: a.acks and a.errors)
        assert a.acks == [1]
        assert "not to act" in a.errors[0] or "stale" in a.errors[0]
        assert summary(server, created["match"])["seq"] == 1
        await a.close()
        await b.close()

    asyncio.run(go())


def test_the_first_message_must_be_hello_and_a_wrong_token_is_refused(server):
    import websockets

    created = create(server, game="edges", seats=["human", "human"])
    url = server.url.replace("http", "ws") + f"/ws/{created['match']}"

    async def go() -> None:
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "ping"}))
            reply = json.loads(await ws.recv())
            assert reply["type"] == "error" and "hello" in reply["message"]
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": "x" * 32}))
            reply = json.loads(await ws.recv())
            assert reply["type"] == "error" and "not a seat" in reply["message"]

    asyncio.run(go())


def test_a_move_after_the_end_is_refused_as_the_match_over(server):
    """docs/api.md: a match that is over is ``conflict`` (409), as a resignation after the
    end is; a move after a resignation was ``bad_request``, "the match is over", not saying
    what is left to do."""

    async def go() -> None:
        created = create(server, game="edges", options={"first": 0}, seats=["human", "human"])
        a, b = await seated(server, created)
        legal = a.state["legal"][0]["text"]
        await b.send({"type": "resign"})
        await a.wait_for(lambda: a.state["status"] == "finished")
        await a.send({"type": "move", "seq": a.state["seq"], "action": legal})
        await a.wait_for(lambda: a.errors)
        refused = next(m for m in a.messages if m["type"] == "error")
        assert refused["code"] == "conflict", refused
        assert "rematch" in refused["message"], refused
        for c in (a, b):
            await c.close()

    asyncio.run(go())


def test_spectators_watch_but_cannot_play_and_presence_is_shown(server):
    async def go() -> None:
        created = create(server, game="edges", options={"first": 0}, seats=["human", "human"])
        a = await Client(server.url, created["match"], created["seats"][0]["token"]).connect()
        watcher = await Client(server.url, created["match"], None).connect()
        assert watcher.state["seat"] is None and watcher.state["legal"] == []
        await watcher.send({"type": "move", "seq": 0, "action": "L h0,0"})
        await watcher.wait_for(lambda: watcher.errors)
        assert "spectators" in watcher.errors[0]
        # docs/api.md's code for a spectator who acts, a move as a resignation (the move's
        # was bad_request, the resignation's spectator).
        refused = [m for m in watcher.messages if m["type"] == "error"]
        assert refused[0]["code"] == "spectator", refused

        def connected(client: Client) -> list[bool]:
            last = [m for m in client.messages if m["type"] in ("state", "presence")][-1]
            return [s["connected"] for s in last["seats"]]

        assert connected(watcher) == [True, False]
        b = await Client(server.url, created["match"], created["seats"][1]["token"]).connect()
        await watcher.wait_for(lambda: connected(watcher) == [True, True])
        await b.close()
        await watcher.wait_for(lambda: connected(watcher) == [True, False])
        for c in (a, watcher):
            await c.close()

    asyncio.run(go())


def test_resign_with_two_seats_ends_the_match(server):
    async def go() -> None:
        created = create(server, game="erd", seats=["human", "human"])
        a, b = await seated(server, created)
        await a.send({"type": "resign"})
        await b.wait_for(lambda: b.state["status"] == "finished")
        assert b.state["result"]["winners"] == [1]
        assert "resigned" in b.state["result"]["reason"]
        assert b.state["record"] is not None  # the record is public once it is over
        for c in (a, b):
            await c.close()

    asyncio.run(go())


def test_resigning_before_every_seat_is_taken_calls_the_match_off(server):
    created = create(server, game="erd", seats=["human", "human"])
    match = created["match"]
    token = plain_http.take_seat(server.url, match, created["seats"][0]["token"])
    assert summary(server, match)["status"] == "waiting"  # seat 1 is nobody's yet
    reply = plain_http.post(f"{server.url}/api/matches/{match}/resign", json={"token": token})
    assert reply.status_code == 200, reply.text
    result = summary(server, match)["result"]
    # nobody played: the seat nobody took does not win
    assert result["aborted"] and result["winners"] == [] and result["returns"] == [0.0, 0.0]
    assert "called the match off before it began" in result["reason"]
    assert summary(server, match)["status"] == "finished"
    # No rematch: its friend would be waited on for good, or accepted for by the creator,
    # who holds the friend's link.
    for ask in (token, created["seats"][1]["token"]):
        rematch = plain_http.post(f"{server.url}/api/matches/{match}/rematch", json={"token": ask})
        assert rematch.status_code == 409, rematch.text
        assert "Blue (seat 1) never took a seat in this match" in rematch.json()["error"]
    assert summary(server, match)["rematch"] is None


def test_resign_with_three_seats_hands_the_seat_to_an_agent(server):
    created = create(server, game="erosion", options={"players": 3}, seats=["human"] * 3)
    match = created["match"]
    tokens = [plain_http.take_seat(server.url, match, s["token"]) for s in created["seats"]]
    reply = plain_http.post(f"{server.url}/api/matches/{match}/resign", json={"token": tokens[1]})
    assert reply.status_code == 200
    seats = summary(server, match)["seats"]
    assert seats[1]["resigned"] and seats[1]["kind"] == "agent"
    assert summary(server, match)["status"] == "playing"


def test_a_seat_that_resigned_cannot_resign_again(server):
    """docs/api.md (``conflict``): with three seats, a second resignation of a seat the
    computer plays already is refused, by REST and by socket, and changes nothing."""

    async def go() -> None:
        created = create(server, game="erosion", options={"players": 3}, seats=["human"] * 3)
        match = created["match"]
        clients = await seated(server, created)
        token = clients[2].token
        first = plain_http.post(f"{server.url}/api/matches/{match}/resign", json={"token": token})
        assert first.status_code == 200, first.text
        before = summary(server, match)
        again = plain_http.post(f"{server.url}/api/matches/{match}/resign", json={"token": token})
        assert again.status_code == 409, again.text
        name = before["seats"][2]["seat_name"]
        assert again.json() == {"error": f"{name} has resigned already", "code": "conflict"}
        gone = clients[2]
        await gone.send({"type": "resign"})
        await gone.wait_for(lambda: gone.errors)
        refused = next(m for m in gone.messages if m["type"] == "error")
        assert refused["code"] == "conflict" and "resigned already" in refused["message"]
        after = summary(server, match)
        assert after["seats"] == before["seats"] and after["status"] == "playing"
        for c in clients:
            await c.close()

    asyncio.run(go())


def test_a_rematch_turns_the_seats_round_and_tells_each_person_their_new_seat(server):
    async def go() -> None:
        created = create(server, game="erd", seats=["human", "human"], names=["Ann", "Bob"])
        a, b = await seated(server, created)
        await a.send({"type": "resign"})
        await a.wait_for(lambda: a.state["status"] == "finished")
        # Ann offers; the rematch is made once Bob accepts (an offer, not forced on him).
        offered = plain_http.post(
            f"{server.url}/api/matches/{created['match']}/rematch",
            json={"token": a.token},
        ).json()
        assert offered["match"] is None
        assert offered["offer"] == {"accepted": [0], "declined": [], "waiting": [1]}
        await b.wait_for(lambda: (b.state.get("rematch_offer") or {}).get("accepted") == [0])
        assert not any(m["type"] == "rematch" for m in b.messages)
        accepted = plain_http.post(
            f"{server.url}/api/matches/{created['match']}/rematch",
            json={"token": b.token},
        ).json()
        new = accepted["match"]
        await a.wait_for(lambda: any(m["type"] == "rematch" for m in a.messages))
        told = next(m for m in a.messages if m["type"] == "rematch")
        assert told["match"] == new and told["seat"] == 1  # Ann was seat 0: now seat 1
        assert accepted["seat"]["seat"] == 0  # Bob was seat 1: now seat 0
        told = {"token": accepted["seat"]["token"]}
        seats = summary(server, new)["seats"]
        assert [s["name"] for s in seats] == [None, None]  # joined when they connect
        again = await Client(server.url, new, told["token"]).connect()
        assert again.state["seat"] == 0
        second = plain_http.post(
            f"{server.url}/api/matches/{created['match']}/rematch",
            json={"token": b.token},
        )
        assert second.status_code == 409 and new in second.json()["error"]
        for c in (a, b, again):
            await c.close()

    asyncio.run(go())


@pytest.mark.parametrize("listed", [False, True])
def test_a_person_who_accepted_and_left_is_handed_their_rematch_seat_on_asking_again(
    server, listed
):
    """Ann offers a rematch and closes her page; Bob accepts: Ann was sent no link (nobody
    was listening), and the rematch waited on her seat for good ("a rematch exists already"
    to every ask). Her old seat's token now asks for her seat: handed while it is untaken,
    with a link of its own. So is a seat whose link went out but was not opened (a page
    gone a moment before its link was sent into the socket): the earlier link dies."""

    async def go() -> None:
        created = create(
            server, game="erd", seats=["human", "human"], names=["Ann", "Bob"], listed=listed
        )
        a, b = await seated(server, created)
        await a.send({"type": "resign"})
        await b.wait_for(lambda: b.state["status"] == "finished")
        ask = f"{server.url}/api/matches/{created['match']}/rematch"
        assert plain_http.post(ask, json={"token": a.token}).json()["match"] is None
        await a.close()  # gone, her acceptance standing
        await b.wait_for(
            lambda: any(
                m["type"] == "presence" and not m["seats"][0]["connected"] for m in b.messages
            )
        )
        accepted = plain_http.post(ask, json={"token": b.token}).json()
        new = accepted["match"]
        handed = plain_http.post(ask, json={"token": a.token})
        assert handed.status_code == 200, handed.text
        seat = handed.json()["seat"]
        assert handed.json()["match"] == new and seat["seat"] == 1  # Ann was seat 0
        assert seat["join_url"].endswith(f"/play/{new}#token={seat['token']}")
        ann = await Client(server.url, new, seat["token"]).connect()
        assert ann.state["seat"] == 1
        # Bob's link came in his answer, not opened yet: asked again, a new one.
        rehanded = plain_http.post(ask, json={"token": b.token}).json()["seat"]
        assert rehanded["seat"] == 0 and rehanded["token"] != accepted["seat"]["token"]
        join = f"{server.url}/api/matches/{new}/join"
        dead = plain_http.post(join, json={"token": accepted["seat"]["token"]})
        assert dead.status_code == 403, dead.text
        bob = await Client(server.url, new, rehanded["token"]).connect()
        assert bob.state["seat"] == 0
        # Taken: asked again, neither seat is handed again.
        for token in (a.token, b.token):
            again = plain_http.post(ask, json={"token": token})
            assert again.status_code == 409 and new in again.json()["error"], again.text
        for c in (b, ann, bob):
            await c.close()

    asyncio.run(go())


# -- agents and clocks ------------------------------------------------------------------------
def test_a_thinking_agent_does_not_hold_up_other_matches(server):
    async def go() -> None:
        # Eight seconds: a whole 2x2 game is played in a fraction of that even on a loaded
        # machine (four flaked under a parallel test run).
        slow = create(server, game="edges", options={"first": 1}, seats=["human", "mcts:seconds=8"])
        # The person takes the seat, so the match starts and the agent begins to think.
        watcher = await Client(server.url, slow["match"], slow["seats"][0]["token"]).connect()
        fast = create(
            server, game="edges", options={"board": "2x2", "first": 0}, seats=["human", "human"]
        )
        a, b = [
            await Client(server.url, fast["match"], s["token"]).connect() for s in fast["seats"]
        ]
        await asyncio.gather(a.play_random(random.Random(1)), b.play_random(random.Random(2)))
        # A whole game was played and acknowledged while the slow agent had not yet moved.
        assert a.state["status"] == "finished"
        assert watcher.state["seq"] == 0 and watcher.state["status"] == "playing"
        await watcher.wait_for(lambda: watcher.state["seq"] == 1, timeout=60)
        for c in (a, b, watcher):
            await c.close()

    asyncio.run(go())


def test_at_time_out_the_agent_moves_for_the_person(server):
    async def go() -> None:
        created = create(
            server,
            game="edges",
            options={"board": "2x2", "first": 0},
            seats=["human", "human"],
            move_seconds=0.5,
        )
        a, b = await seated(server, created)
        await a.wait_for(lambda: a.state["deadlines"].get("0") is not None)
        # nobody moved: the clock did (the default agent moves in a worker process, which
        # may be starting: a ceiling, not a duration)
        await a.wait_for(lambda: a.state["seq"] == 1, timeout=30)
        assert a.acks == []
        assert a.log[0]["seat"] == 0
        for c in (a, b):
            await c.close()

    asyncio.run(go())


def test_a_memorise_step_ends_when_its_time_is_up(server):
    async def go() -> None:
        created = create(
            server,
            game="triangle-clock",
            options={"memorise_seconds": 0.5},
            seats=["human", "human"],
        )
        a, b = await seated(server, created)
        await a.wait_for(lambda: a.state["memorise"] is not None)
        assert a.state["view"]["memorise"]["order"]
        await a.wait_for(lambda: a.state["seq"] == 2, timeout=10)
        assert {e["seat"] for e in a.log} == {0, 1}
        assert a.acks == [] and b.acks == []  # nobody sent the move: the server did
        assert "order" not in (a.state["view"].get("memorise") or {})
        for c in (a, b):
            await c.close()

    asyncio.run(go())


def test_the_triangle_clock_s_minute_per_choice_is_kept_by_the_server(server):
    """The seed: "Players have 1 minute each choice" (choice_seconds, here shortened)."""

    async def go() -> None:
        created = create(
            server,
            game="triangle-clock",
            options={"memorise_seconds": 0.2, "choice_seconds": 0.6},
            seats=["human", "human"],
        )
        a, b = await seated(server, created)
        await a.wait_for(lambda: a.state["seq"] == 2)  # the memorise step ended by itself
        assert set(a.state["deadlines"]) == {"0", "1"}
        # Seat 1 chooses; seat 0's deadline stands, and at time-out its choice is made.
        await b.wait_for(lambda: b.state["seq"] == 2 and b.my_turn())
        first = b.state["legal"][0]["text"]
        await b.send({"type": "move", "seq": b.state["seq"], "action": first})
        await a.wait_for(lambda: a.state["seq"] >= 4, timeout=30)  # a worker may be starting
        assert a.acks == [] and len(b.acks) == 1
        assert [e["seat"] for e in a.log[2:4]] == [1, 0]
        for c in (a, b):
            await c.close()

    asyncio.run(go())


def test_the_minute_per_choice_does_not_run_against_the_computer_unless_asked(server):
    """The clock runs only where someone asked for one: between people the game's own
    minute, against the computer only a match clock (move_seconds)."""

    async def go() -> None:
        for move_seconds, expected in ((None, set()), (30, {"0"})):
            created = create(
                server,
                game="triangle-clock",
                options={"memorise_seconds": 0.2, "choice_seconds": 0.6},
                seats=["human", "heuristic"],
                **({"move_seconds": move_seconds} if move_seconds else {}),
            )
            (a,) = await seated(server, created)
            await a.wait_for(lambda a=a: a.state["seq"] >= 2 and a.my_turn())
            assert set(a.state["deadlines"]) == expected
            await asyncio.sleep(1.0)  # past the game's 0.6 s: nobody chose for the person
            assert a.acks == [] and a.my_turn()
            assert all(entry["seat"] != 0 for entry in a.log[2:]), a.log
            await a.close()

    asyncio.run(go())


def test_a_rematch_declined_is_told_to_the_one_who_offered_and_none_is_made(server):
    async def go() -> None:
        created = create(server, game="erd", seats=["human", "human"])
        a, b = await seated(server, created)
        await a.send({"type": "resign"})
        await a.wait_for(lambda: a.state["status"] == "finished")
        url = f"{server.url}/api/matches/{created['match']}/rematch"
        assert plain_http.post(url, json={"token": a.token}).status_code == 200
        declined = plain_http.post(f"{url}/decline", json={"token": b.token})
        assert declined.status_code == 200, declined.text
        await a.wait_for(lambda: (a.state["rematch_offer"] or {}).get("declined") == [1])
        assert summary(server, created["match"])["rematch"] is None
        bad = plain_http.post(f"{url}/decline", json={"token": "x" * 32})
        assert bad.status_code in (403, 404) and set(bad.json()) == {"error", "code"}
        for c in (a, b):
            await c.close()

    asyncio.run(go())


def test_a_record_replays_for_stepping_and_bad_ones_are_refused(server, tmp_path):
    from meeple.core.record import GameRecord
    from meeple.core.registry import make

    game = make("erd")
    state = game.new_game(3)
    moves = []
    rng = random.Random(3)
    while not state.is_over:
        player = state.to_act[0]
        action = rng.choice(state.legal_actions(player))
        moves.append((player, str(action)))
        state = state.apply(player, action)
    record = GameRecord(game="erd", seed=3, moves=moves)
    reply = plain_http.post(f"{server.url}/api/replay", json=record.model_dump(mode="json"))
    assert reply.status_code == 200, reply.text
    replay = reply.json()
    assert len(replay["views"]) == len(moves) + 1
    # The game is over, so every step shows every seat's hand as well as the spectator's.
    assert all(len(v["seats"]) == 2 for v in replay["views"])
    assert replay["views"][0]["spectator"] == game.new_game(3).view(None)
    bad = dict(record.model_dump(mode="json"), moves=[[0, "rush=XXX defense=DDD"]])
    reply = plain_http.post(f"{server.url}/api/replay", json=bad)
    assert reply.status_code == 400 and "move 1" in reply.json()["error"]
    huge = plain_http.post(
        f"{server.url}/api/replay",
        content=b'{"game": "' + b"x" * 3_000_000 + b'"}',
        headers={"content-type": "application/json"},
    )
    assert huge.status_code == 413 and "too large" in huge.json()["error"]


def test_the_erosion_card_list_is_served_for_the_pages_to_draw_cards(server):
    # The views name Erosion cards by id only; the page's drawing needs each card's rock,
    # hardness, fossil and process from the shipped list.
    reply = plain_http.get(f"{server.url}/api/games/erosion/cards")
    assert reply.status_code == 200, reply.text
    cards = {card["id"]: card for card in reply.json()}
    assert len(cards) == 96
    assert cards["WX01"]["rock"] == "shale" and cards["WX01"]["mohs"] == 3
    assert cards["WX01"]["fossil"] == "fish"
    assert cards["WX01"]["process"]["name"] == "Frost Wedging"
    assert cards["ATM3"]["under"] == "H"


def test_the_card_list_is_the_one_of_the_options_given(server):
    # Erosion's Montane Legend Variant adds legend and challenge cards, which the views name
    # by id only ("L1"): a page asks for the cards of its match's options.
    plain = {c["id"] for c in plain_http.get(f"{server.url}/api/games/erosion/cards").json()}
    reply = plain_http.get(
        f"{server.url}/api/games/erosion/cards", params={"options": '{"legend": "basic"}'}
    )
    assert reply.status_code == 200, reply.text
    cards = {card["id"]: card for card in reply.json()}
    assert not plain & {"L1", "C1"} and set(cards) - plain == {f"L{i}" for i in range(1, 5)} | {
        f"C{i}" for i in range(1, 8)
    }
    assert cards["L1"]["name"] == "Everest" and cards["L1"]["points"] == 4
    assert "5000 m" in cards["L1"]["text"]
    for options, words in (
        ('{"legend": "sometimes"}', "option 'legend' of erosion"),
        ('["legend"]', "options must be a JSON object"),
    ):
        refused = plain_http.get(
            f"{server.url}/api/games/erosion/cards", params={"options": options}
        )
        assert refused.status_code == 400 and words in refused.json()["error"], refused.text


def test_a_game_without_a_card_list_serves_an_empty_one(server):
    reply = plain_http.get(f"{server.url}/api/games/edges/cards")
    assert reply.status_code == 200 and reply.json() == []
    reply = plain_http.get(f"{server.url}/api/games/chess/cards")
    assert reply.status_code == 400 and "no game called 'chess'" in reply.json()["error"]


def _finished(server, match: str) -> dict:
    for _ in range(600):
        current = summary(server, match)
        if current["status"] == "finished":
            return current
        time.sleep(0.05)
    raise AssertionError(f"match {match} did not finish")


def test_server_seeds_have_128_bits_and_are_committed_to_from_the_start(server):
    seeds = []
    for _ in range(4):
        created = create(server, game="edges", options={"board": "2x2"}, seats=["random"] * 2)
        done = _finished(server, created["match"])
        record = plain_http.get(f"{server.url}/api/matches/{created['match']}/record").json()
        assert done["seed"] == str(record["seed"])  # text: a browser rounds JSON numbers
        assert verify_seed(done["seed_commitment"], done["seed"], done["seed_salt"])
        seeds.append(record["seed"])
    assert len(set(seeds)) == 4
    assert max(seeds) >= 2**64  # 2**-256 to fail with 128 random bits each


def test_a_game_without_chance_publishes_no_sealed_seed(server):
    """Erd deals nothing and draws nothing: a "fair deal" sealed at the start would vouch
    for a deal of nothing, so neither its summary nor its end carries a seed."""
    created = create(server, game="erd", options={"best_of": 1}, seats=["random"] * 2)
    assert summary(server, created["match"])["seed_commitment"] is None
    done = _finished(server, created["match"])
    assert done["seed_commitment"] is None and "seed" not in done and "seed_salt" not in done


def test_the_seed_is_sent_to_nobody_before_the_end_and_checks_against_its_commitment(server):
    async def go() -> None:
        created = create(
            server,
            game="triangle-clock",
            options={"memorise_seconds": 0.2},
            seats=["human", "human"],
        )
        match = created["match"]
        a, b = await seated(server, created)
        watcher = await Client(server.url, match, None).connect()
        before = [
            summary(server, match),
            plain_http.get(f"{server.url}/api/matches?status=live").text,
        ]
        commitment = before[0]["seed_commitment"]
        assert re.fullmatch("[0-9a-f]{64}", commitment)
        assert "seed" not in before[0] and "seed_salt" not in before[0]
        assert a.state["seed_commitment"] == commitment and "seed" not in a.state
        reply = plain_http.get(f"{server.url}/api/matches/{match}/record")
        assert reply.status_code == 403
        await a.play_random(random.Random(3), moves=1)
        sent_before_the_end = [json.dumps(m) for c in (a, b, watcher) for m in c.messages]
        await a.send({"type": "resign"})
        await watcher.wait_for(lambda: watcher.state["status"] == "finished")
        end = watcher.state
        seed = end["seed"]
        assert isinstance(seed, str) and end["record"]["seed"] == seed
        assert verify_seed(commitment, seed, end["seed_salt"])
        assert not verify_seed(commitment, int(seed) + 1, end["seed_salt"])
        assert not verify_seed(commitment, seed, "0" * 32)
        record = plain_http.get(f"{server.url}/api/matches/{match}/record").json()
        assert record["seed"] == int(seed)
        for text in [*sent_before_the_end, *(json.dumps(x) for x in before)]:
            assert seed not in text and end["seed_salt"] not in text
        for c in (a, b, watcher):
            await c.close()

    asyncio.run(go())


def test_a_chosen_seed_is_refused_where_another_person_plays(server):
    for seats in (["human", "human"], ["human", "open"]):
        reply = plain_http.post(
            f"{server.url}/api/matches", json={"game": "edges", "seats": seats, "seed": 5}
        )
        assert reply.status_code == 400 and "chosen seed" in reply.json()["error"]
    alone = create(server, game="edges", seats=["human", "random"], seed=5)
    assert alone["match"]
    agents = create(server, game="edges", options={"board": "2x2"}, seats=["random"] * 2, seed=6)
    assert _finished(server, agents["match"])["seed"] == "6"
    # A chosen seed stays below 2**53, which a JSON number carries exactly everywhere.
    reply = plain_http.post(f"{server.url}/api/matches", json={"game": "edges", "seed": 2**60})
    assert reply.status_code == 422 and "seed" in reply.json()["error"]


@pytest.mark.parametrize(
    ("game", "options"),
    [("squad-combat", {"content": "/etc"}), ("triangle-clock", {"ranking": "/etc/passwd"})],
)
def test_a_client_cannot_make_the_server_read_its_files(server, game, options):
    reply = plain_http.post(f"{server.url}/api/matches", json={"game": game, "options": options})
    assert reply.status_code == 400
    assert "names a file" in reply.json()["error"]
    assert "root:" not in reply.text


def test_a_hidden_choice_is_told_in_the_log_once_the_rules_reveal_it_never_before(server):
    """The Triangle Clock: a pick is "has chosen" to the other seat while the step is open,
    then its letter and the game's words ("revealed solid N"). A memorise step's move hides
    nothing and chooses nothing: it is told at once, in the words the terminal uses, and its
    seat is not one that "has chosen"."""

    async def go() -> None:
        created = create(
            server,
            game="triangle-clock",
            options={"memorise_seconds": 60, "choice_seconds": 0},
            seats=["human", "human"],
        )
        a, b = await seated(server, created)
        await a.wait_for(lambda: a.my_turn())
        await a.send({"type": "move", "seq": 0, "action": "memorised"})
        await b.wait_for(lambda: len(b.log) >= 1)
        shown = "memorised the order of shared symbols for rounds 1 to 16"
        assert b.log[0] == {"n": 1, "seat": 0, "text": "memorised", "words": shown}, b.log
        assert b.state["chosen"] == [], b.state["chosen"]
        await b.send({"type": "move", "seq": 1, "action": "memorised"})
        await a.wait_for(lambda: a.state["seq"] >= 2 and a.my_turn())
        pick = a.state["legal"][0]["text"]
        await a.send({"type": "move", "seq": a.state["seq"], "action": pick})
        await b.wait_for(lambda: len(b.log) >= 3)
        entry = b.log[2]
        assert entry["seat"] == 0 and entry["text"] is None and "words" not in entry
        await b.wait_for(lambda: b.my_turn())
        await b.send({"type": "move", "seq": b.state["seq"], "action": b.state["legal"][0]["text"]})
        await b.wait_for(lambda: len(b.log) >= 4 and b.log[2]["text"] is not None)
        assert b.log[2]["text"] == pick and b.log[2]["words"].startswith("revealed ")
        for c in (a, b):
            await c.close()

    asyncio.run(go())


def test_the_board_as_text_comes_to_a_client_that_asks_drawn_for_its_seat(server):
    """docs/api.md: a ``board_text`` message turns the terminal's board for the client's own
    seat (a spectator's: a spectator's) on in its state messages, and off; nobody else's
    messages carry it, and a malformed one is a ``bad_message`` that changes nothing."""
    from meeple.core.registry import make

    options = {"board": "2x2", "first": 0}
    created = create(server, game="edges", options=options, seats=["human", "human"])
    game = make("edges", **options)

    def drawn(client: Client, seat: int | None) -> str:
        state = game.new_game(0)
        for entry in client.log:
            state = state.apply_text(entry["seat"], entry["text"])
        return game.render_text(state, seat)

    async def go() -> None:
        a, b = await seated(server, created)
        watcher = await Client(server.url, created["match"], None).connect()
        assert a.state["board_text"] is None  # not asked for: old clients see no change
        for client in (a, watcher):
            await client.send({"type": "board_text", "show": True})
            await client.wait_for(lambda c=client: c.state["board_text"] is not None)
        assert a.state["board_text"] == drawn(a, 0)
        assert "Turn 1: Red (seat 0) to place a pyramid." in a.state["board_text"]
        assert watcher.state["board_text"] == drawn(watcher, None)
        # Each new state while it is on carries the board as it is now.
        await a.send({"type": "move", "seq": 0, "action": a.state["legal"][0]["text"]})
        await watcher.wait_for(lambda: watcher.state["seq"] == 1)
        assert watcher.state["board_text"] == drawn(watcher, None)
        assert "Turn 2" in watcher.state["board_text"]
        await b.wait_for(lambda: b.state["seq"] == 1)
        assert b.state["board_text"] is None
        for bad in (
            {"type": "board_text"},
            {"type": "board_text", "show": "yes"},
            {"type": "board_text", "show": 1},
            {"type": "board_text", "show": True, "seat": 1},
        ):
            errors = len(b.errors)
            await b.send(bad)
            await b.wait_for(lambda e=errors: len(b.errors) > e)
            refusal = [m for m in b.messages if m["type"] == "error"][-1]
            assert refusal["code"] == "bad_message", (bad, refusal)
            assert "board_text" in refusal["message"]
        assert b.state["board_text"] is None
        await watcher.send({"type": "board_text", "show": False})
        await watcher.wait_for(lambda: watcher.state["board_text"] is None)
        for client in (a, b, watcher):
            await client.close()

    asyncio.run(go())
