"""Strangers' input (issue 53), against a real server process: no option of a client's
names a file the server reads, every refusal is ``{"error", "code"}``, every bad message
is answered, and none of it leaves a traceback in the log."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from urllib.parse import quote

import httpx
import pytest
import websockets

import meeple
from meeple.interfaces.web.client import Client, ServerProcess
from tests import plain_http


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("untrusted")
    server = ServerProcess(f"sqlite:///{folder / 'server.db'}", folder / "server.log").start()
    server.folder = folder
    # Records are checked in a worker process: the first upload may wait for it to start.
    warm = {"game": "edges", "seed": 1, "moves": []}
    assert plain_http.post(f"{server.url}/api/replay", json=warm, timeout=120).status_code == 200
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
        ("erosion", "cards", "/etc/passwd"),
        ("erosion", "cards", "/dev/zero"),
    ],
)
def test_a_replayed_record_cannot_make_the_server_read_its_files(server, game, option, path):
    reply = plain_http.post(f"{server.url}/api/replay", json=_record(game, **{option: path}))
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert f"option {option!r}" in error and "names a file" in error
    # Nothing about the file: whether it exists, or what parsing it said.
    for leak in ("TOML", "root:", "cannot read", "missing", "No such"):
        assert leak not in reply.text
    reply = plain_http.post(
        f"{server.url}/api/matches", json={"game": game, "options": {option: path}}
    )
    assert reply.status_code == 400 and "names a file" in reply.json()["error"]


def test_a_record_starting_from_an_impossible_position_is_refused_naming_it(server):
    """An uploaded record's start position is outside input: one whose Erd match names a
    third seat as a game's winner (read, it would fail as a view named that winner) is
    refused, naming the problem, by each route that reads a record."""
    start = meeple.make("erd").new_game(1).position()
    game = '{"winner": 7, "reason": "rush", "round": 1, "detail": "?"}'
    record = {**_record("erd"), "start": start.replace("games: []", f"games: [{game}]")}
    for route in ("/api/replay", "/api/replay/board-text?step=0", "/api/replay/review"):
        reply = plain_http.post(f"{server.url}{route}", json=record)
        assert reply.status_code == 400 and reply.json()["code"] == "bad_record", reply.text
        error = reply.json()["error"]
        assert "start position" in error and "won by seat 7" in error, error
        assert "Error" not in error  # a sentence for a person, not a Python exception


# -- strict types ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "says"),
    [
        (
            {"game": "erosion", "options": {"players": "3"}},
            "option 'players' of erosion: the text '3' is not allowed; allowed: a whole "
            "number from 2 to 5, as a JSON number",
        ),
        ({"game": "erosion", "options": {"first": "0"}}, "option 'first'"),
        (
            {"game": "erd", "options": {"best_of": 3, "best-of": 7}},
            "option 'best_of' of erd is given twice (as 'best_of' and 'best-of'); give it once",
        ),
        (
            {"game": "squad-combat", "options": {"auto_steps": "no"}},
            "option 'auto_steps' of squad-combat: the text 'no' is not allowed; allowed: true "
            "or false",
        ),
        (
            {"game": "triangle-clock", "options": {"choice_seconds": 1e308}},
            "option 'choice_seconds' of triangle-clock: 1e+308 is not allowed; allowed: a "
            "number from 0 to 86400",  # a day; the clock was sent to the pages as 1e+308
        ),
        ({"game": "edges", "listed": "no"}, "listed: Input should be a valid boolean (got the"),
        ({"game": "edges", "listed": 0}, "listed: Input should be a valid boolean (got 0)"),
        ({"game": "edges", "seed": "7"}, "seed: Input should be a valid integer (got the text '7"),
        ({"game": "edges", "seed": True}, "seed: Input should be a valid integer (got true)"),
        ({"game": "edges", "move_seconds": "30"}, "move_seconds"),
    ],
)
def test_a_match_request_must_carry_json_types(server, body, says):
    """A number sent as text is told back as text: "'3' is not allowed" alone read as if
    3 were refused."""
    reply = plain_http.post(f"{server.url}/api/matches", json=body)
    assert reply.status_code in (400, 422), reply.text
    assert says in reply.json()["error"]


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"players": True}, "true is not allowed; allowed: a whole number from 2 to 5"),
        ({"players": None}, "null is not allowed; allowed: a whole number from 2 to 5"),
        ({"players": [3]}, "a list is not allowed; allowed: a whole number from 2 to 5"),
    ],
)
def test_an_option_s_json_value_is_told_back_in_json_s_words_once(server, options, said):
    """Python's words for JSON's values ("True is not allowed", "None ..."), and a value of
    an option that takes two types (Erosion's first: a seat or random) refused twice over,
    the same words one after the other."""
    body = {"game": "erosion", "options": options}
    reply = plain_http.post(f"{server.url}/api/matches", json=body)
    assert reply.json()["error"] == f"option 'players' of erosion: {said}", reply.text
    first = plain_http.post(
        f"{server.url}/api/matches", json={"game": "erosion", "options": {"first": "1"}}
    )
    assert first.json()["error"].count("option 'first'") == 1, first.text


def test_typed_values_are_accepted(server):
    body = {"game": "erosion", "options": {"players": 3, "first": 0}, "listed": False,
            "seed": 7, "move_seconds": 30, "seats": ["human", "random", "random"]}  # fmt: skip
    reply = plain_http.post(f"{server.url}/api/matches", json=body)
    assert reply.status_code == 200, reply.text
    match = reply.json()["match"]
    join = plain_http.post(f"{server.url}/api/matches/{match}/join", json={"seat": "0"})
    assert join.status_code == 422 and "seat" in join.json()["error"]


COMPUTER = "a person's name may not hold the word 'Computer' or begin with 'Tutor'"


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("\x1b[31mred", "U+001B is a control character"),
        ("Ann\nBob joined", "U+000A is a control character"),
        ("\u202eevil", "U+202E is a control of the text's direction"),
        ("\u200b", "(U+200B is a format character, not drawn); a name needs at least one"),
        ("\u200c\u200d\u2060\ufeff", "(U+200C is a format character, not drawn)"),
        ("\u0301\u0308", "(U+0301 is a combining mark, drawn only on a character before it)"),
        ("\uffff", "U+FFFF is a noncharacter, which Unicode keeps out of text"),
        ("\ue000", "(U+E000 is a private-use character, which no font is sure to draw)"),
        # The pages call the computer's seat "Computer (hard)": a person so named passed for
        # it (a hostile client renamed its seat so mid-match), in any case or width, with a
        # character drawn as nothing before it, or letters of other scripts drawn alike.
        ("Computer (hard)", COMPUTER),
        ("\uff23omputer", COMPUTER),
        ("\u200bComputer (hard)", COMPUTER),
        ("C\u00adomputer", COMPUTER),
        ("\u0421\u043emputer", COMPUTER),
        ("Blue \u00b7 Computer (hard)", COMPUTER),
        ("Tutor (scripted)", COMPUTER),
    ],
)
def test_a_person_s_name_is_printable_text(server, name, says):
    """A name is shown to the other players, on their pages and in the match's record that
    `meeple replay` prints: a terminal escape, a line break or a direction override in one
    was taken as it was, and one of zero-width characters or combining marks only showed
    as a blank seat."""
    seats = ["human", "open"]
    reply = plain_http.post(f"{server.url}/api/matches", json={"game": "edges", "names": [name]})
    assert reply.status_code == 422 and says in reply.json()["error"], reply.text
    body = {"game": "edges", "seats": seats, "names": ["Zoë 👨‍👩‍👧"]}
    match = plain_http.post(f"{server.url}/api/matches", json=body).json()["match"]
    join = plain_http.post(f"{server.url}/api/matches/{match}/join", json={"seat": 1, "name": name})
    assert join.status_code == 422 and says in join.json()["error"], join.text


def test_a_replayed_record_must_carry_json_types(server):
    for record in (
        _record("erosion", players="3"),
        {**_record("edges"), "seed": "1"},
        {**_record("edges"), "seed": True},
        {**_record("edges"), "moves": [["0", "L h0,0"]]},
    ):
        reply = plain_http.post(f"{server.url}/api/replay", json=record)
        assert reply.status_code == 400, (record, reply.text)


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
def test_a_number_json_has_not_is_refused_as_not_finite(server, number):
    body = '{"game": "erd", "seats": ["human", "random"], "move_seconds": ' + number + "}"
    headers = {"content-type": "application/json"}
    reply = plain_http.post(f"{server.url}/api/matches", content=body, headers=headers)
    assert reply.status_code == 422 and reply.json()["code"] == "invalid_request", reply.text
    assert "move_seconds: Input should be a finite number" in reply.json()["error"], reply.text


RESIGNED = {"over": True, "reason": "Red (seat 0) resigned", "returns": [-1.0, 1.0]}


@pytest.mark.parametrize(
    ("result", "says"),
    [
        ({**RESIGNED, "reason": "\u202e\u001b[2J Bob cheated"}, "not one line of printable text"),
        ({**RESIGNED, "winners": [9]}, "has winners [9]: seats 0 to 1, each once"),
        ({**RESIGNED, "resigned": [0, 0]}, "has resigned [0, 0]: seats 0 to 1, each once"),
        ({**RESIGNED, "returns": ["a", 1]}, "needs returns, a number for each of its 2 seats"),
        ({**RESIGNED, "returns": [1]}, "needs returns, a number for each of its 2 seats"),
        ({**RESIGNED, "winner": 7}, "has 'winner'; its fields are: over, reason, returns,"),
        ({**RESIGNED, "expired": "yes"}, "has expired 'yes': only true"),
        ({"over": True}, "has a reason that is not one line of printable text"),
    ],
)
def test_a_replayed_record_s_early_end_is_shaped_as_a_server_writes_it(server, result, says):
    """A record whose result says its match ended before its game did (a resign) is taken
    at that word, and the result was sent back as it came: any reason, a winner seat 9."""
    record = {**_record("edges", board="2x2"), "result": result}
    reply = plain_http.post(f"{server.url}/api/replay", json=record)
    assert reply.status_code == 400 and reply.json()["code"] == "bad_record", reply.text
    said = reply.json()["error"]
    assert said.startswith("the record's result, which says its match ended early, "), said
    assert says in said and "\u202e" not in said, said
    fine = {**RESIGNED, "resigned": [0], "winners": [1]}
    kept = plain_http.post(f"{server.url}/api/replay", json={**record, "result": fine})
    assert kept.status_code == 200 and kept.json()["result"] == fine, kept.text


def test_a_replayed_record_has_only_the_fields_records_have(server):
    """A field records do not have was taken and dropped (``"zz": 1``, 200)."""
    reply = plain_http.post(f"{server.url}/api/replay", json={**_record("edges"), "zz": 1})
    assert reply.status_code == 400, reply.text
    assert reply.json()["error"].startswith(
        "the record has a field records do not have, 'zz'; their fields are: format, game,"
    )


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
        created = plain_http.post(f"{server.url}/api/matches", json=body).json()
        a = await Client(server.url, created["match"], created["seats"][0]["token"]).connect()
        await a.send(message)
        await a.wait_for(lambda: a.errors)
        assert says in a.errors[-1], a.errors
        assert a.state["seq"] == 0 and not a.acks
        await a.close()

    asyncio.run(go())


# -- every refusal is {"error", "code"}, and never a traceback in the log ----------------------
HUGE = "9" * 5_000  # past Python's 4,300-digit limit on reading an int
DEEP = quote("[" * 1_020)  # past Python's recursion limit on reading nested JSON, in 1,024 bytes
# A record that starts from a position whose turn has too many digits to read.
HUGE_START = json.dumps(
    {"game": "edges", "seed": 1, "moves": [], "options": {"board": "2x2"},
     "start": meeple.make("edges", board="2x2").new_game(1).position().replace(
         "turn: 0", f"turn: {HUGE}")}
)  # fmt: skip


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "code"),
    [
        ("GET", "/api/nothing-here", None, 404, "not_found"),
        ("GET", "/api/matches/nothing-here", None, 404, "unknown_match"),
        ("DELETE", "/api/games", None, 405, "method_not_allowed"),
        ("POST", "/api/matches", '{"game": "edges", "seed": ' + HUGE + "}", 400, "bad_json"),
        ("POST", "/api/matches", "{not json", 400, "bad_json"),
        ("POST", "/api/matches", '{"game": "chess"}', 400, "unknown_game"),
        ("POST", "/api/matches", '{"game": "edges", "options": {"x": 1}}', 400, "bad_option"),
        ("POST", "/api/replay", '{"game": "edges", "seed": ' + HUGE + "}", 400, "bad_record"),
        ("POST", "/api/replay", '{"game": "edges", "seed": 1}', 400, "bad_record"),
        ("POST", "/api/replay", HUGE_START, 400, "bad_record"),
        ("GET", f"/api/games/erd/rules?options={DEEP}", None, 400, "bad_request"),
        ("GET", f"/api/games/erd/rules?options={quote('[' * 3_000)}", None, 413, "too_large"),
    ],
)
def test_every_rest_refusal_is_an_error_with_a_code(server, method, path, body, status, code):
    headers = {"content-type": "application/json"}
    reply = plain_http.request(method, server.url + path, content=body, headers=headers)
    assert reply.status_code == status, reply.text
    assert set(reply.json()) == {"error", "code"} and reply.json()["code"] == code, reply.text
    assert reply.json()["error"]
    assert "Traceback" not in _log(server)


def test_a_refusal_of_an_address_method_or_body_type_says_what_is_taken(server):
    """Starlette's 405 named one method of a path that takes two (``Allow: POST`` where GET
    is taken too); an address with a '/' at its end was a 307 with an empty body and a
    Location built from the request's Host; a JSON body sent as text was refused "got an
    object"; a WebSocket's address asked as a page said it did not exist."""
    reply = plain_http.request("PATCH", f"{server.url}/api/matches")
    assert reply.status_code == 405 and reply.headers["allow"] == "GET, POST", reply.headers
    assert reply.json()["error"] == "/api/matches does not take PATCH; it takes GET, POST"
    slashed = plain_http.get(f"{server.url}/api/matches/abc/", headers={"host": "evil.example"})
    assert slashed.status_code == 404 and "location" not in slashed.headers
    assert slashed.json() == {
        "error": "there is no /api/matches/abc/: its address has no '/' at the end",
        "code": "not_found",
    }
    page = plain_http.get(
        f"{server.url}/replay/?x=1", headers={"host": "evil.example", "accept": "text/html"}
    )
    assert page.status_code == 308 and page.headers["location"] == "/replay?x=1"
    socket = plain_http.get(f"{server.url}/ws/abc").json()["error"]
    assert socket == "/ws/abc is a WebSocket: open it with a WebSocket upgrade (docs/api.md)"
    for kind in ("text/plain", "application/x-www-form-urlencoded"):
        body = '{"game": "erd"}'
        typed = plain_http.post(
            f"{server.url}/api/matches", content=body, headers={"content-type": kind}
        )
        assert typed.status_code == 415 and typed.json() == {
            "error": "the body is read as JSON only with Content-Type application/json: "
            f"Content-Type {kind!r}",
            "code": "unsupported_media_type",
        }
    assert "Traceback" not in _log(server)


def test_a_refusal_s_log_line_is_bounded_whatever_the_client_sends(server):
    """A 5,000-character game name in the path wrote a 5 KB line to the server's log per
    request (the path in full): an anonymous client could fill an operator's disk."""
    before = len(_log(server))
    for path in (f"/api/games/{HUGE}/cards", f"/api/matches/{HUGE}", f"/api/replay/review/{HUGE}"):
        reply = plain_http.get(server.url + path)
        assert reply.status_code in (400, 404), reply.text
    written = _log(server)[before:].splitlines()
    assert len(written) == 3 and all(len(line) < 600 for line in written), written


def test_a_refusal_s_log_line_shows_the_client_s_control_characters_escaped(server):
    """docs/security.md: text from outside cannot write into an operator's terminal. A
    path, a field's name or a socket message's written as the client sent them put ESC [2J
    (clear the screen) and backspaces (rub out the line's start) into the log as they were."""
    escape = "\x1b[2J\x08\x08"
    before = len(_log(server))
    assert plain_http.get(f"{server.url}/api/matches/x%1b%5b2J%08%08").status_code == 404
    reply = plain_http.post(f"{server.url}/api/matches", json={"game": "edges", escape: 1})
    assert reply.status_code == 422, reply.text
    created = plain_http.post(f"{server.url}/api/matches", json={"game": "edges"}).json()

    async def go() -> None:
        async with websockets.connect(_ws_url(server, created["match"])) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            await ws.send(json.dumps({"type": "ping", escape: 1}))
            while json.loads(await ws.recv())["type"] != "error":
                pass

    asyncio.run(go())
    written = _log(server)[before:]
    assert "\x1b" not in written and "\x08" not in written, written
    refused = [line for line in written.splitlines() if "refused" in line]
    assert len(refused) == 3 and all("\\x1b[2J\\x08\\x08" in line for line in refused)


def test_a_query_parameter_a_route_does_not_take_is_refused_not_ignored(server):
    """``/api/matches?stauts=open`` listed the live matches as if nothing were misspelt:
    FastAPI ignores a query parameter no route declares. Now it is refused, naming what the
    route takes; each name quoted (a line break in it cannot forge a log line) and at most
    five of them, however many were sent. Pages keep what a link adds to their address."""
    reply = plain_http.get(f"{server.url}/api/matches", params={"stauts": "open"})
    assert reply.status_code == 422, reply.text
    assert reply.json() == {
        "error": "query: /api/matches has no parameter 'stauts'; it takes limit, status",
        "code": "invalid_request",
    }
    reply = plain_http.get(f"{server.url}/api/games/edges/rules", params={"board": "3x3"})
    assert reply.status_code == 422 and "it takes options" in reply.json()["error"]
    reply = plain_http.post(f"{server.url}/api/tutorials/edges", params={"level": "easy"})
    assert reply.status_code == 422 and "it takes none" in reply.json()["error"], reply.text
    assert plain_http.get(f"{server.url}/api/matches", params={"status": "open"}).status_code == 200
    assert plain_http.get(f"{server.url}/replay", params={"utm_source": "x"}).status_code == 200

    reply = plain_http.get(f"{server.url}/api/matches?status=open&status=live")
    assert reply.status_code == 422, reply.text
    assert reply.json()["error"] == "query.status: given more than once; give it once"

    before = len(_log(server))
    forged = {"a\nERROR meeple.server: forged": "1"} | {f"p{i}": "1" for i in range(1_000)}
    reply = plain_http.get(f"{server.url}/api/games", params=forged)
    assert reply.status_code == 422 and "and 996 more" in reply.json()["error"], reply.text
    written = _log(server)[before:].splitlines()
    assert len(written) == 1 and "'a\\nERROR meeple.server: forged'" in written[0], written


def test_api_routes_take_single_values(server):
    """The server refuses a query parameter given twice, which is right only while no route
    takes a list: a route that does must be excepted there (refusals.declared_query_only)."""
    spec = plain_http.get(f"{server.url}/openapi.json").json()
    queries = [
        (path, parameter["name"], parameter["schema"])
        for path, operations in spec["paths"].items()
        for operation in operations.values()
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "query"
    ]
    assert queries, "the API has query parameters (limit, status, options, start)"
    for path, name, schema in queries:
        kinds = {schema.get("type")} | {s.get("type") for s in schema.get("anyOf", [])}
        assert "array" not in kinds, (path, name)


def _ws_url(server, match: str) -> str:
    return server.url.replace("http", "ws") + f"/ws/{match}"


@pytest.mark.parametrize(
    ("hello", "code"),
    [
        (json.dumps({"type": "hello", "token": "cut-short"}), "bad_message"),
        ('{"type": "hello", "token": null, "x": ' + HUGE + "}", "bad_json"),
        (b"\x00\x01binary", "binary_frame"),
        (json.dumps({"type": "ping"}), "hello_first"),
        (json.dumps({"type": "hello", "token": "x" * 32}), "bad_token"),
    ],
)
def test_a_bad_hello_gets_an_error_and_a_close_frame(server, hello, code):
    created = plain_http.post(f"{server.url}/api/matches", json={"game": "edges"}).json()

    async def go() -> None:
        async with websockets.connect(_ws_url(server, created["match"])) as ws:
            await ws.send(hello)
            reply = json.loads(await ws.recv())
            assert reply["type"] == "error" and reply["code"] == code, reply
            assert reply["message"]
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and 4400 <= closed.value.rcvd.code < 4500

    asyncio.run(go())
    assert "Traceback" not in _log(server)


def test_bad_messages_after_hello_are_answered_and_the_connection_goes_on(server):
    body = {"game": "edges", "options": {"board": "2x2", "first": 0}, "seats": ["human"] * 2}
    created = plain_http.post(f"{server.url}/api/matches", json=body).json()

    async def go() -> None:
        async with websockets.connect(_ws_url(server, created["match"])) as ws:
            await ws.send(json.dumps({"type": "hello", "token": created["seats"][0]["token"]}))
            for bad, code in (
                ('{"type": "move", "seq": ' + HUGE + ', "action": "L h0,0"}', "bad_json"),
                (b"\x00binary", "binary_frame"),
                ("[1, 2]", "bad_message"),
                (json.dumps({"type": "move", "seq": 7, "action": "L h0,0"}), "bad_request"),
                (json.dumps({"type": "hello"}), "hello_twice"),
            ):
                await ws.send(bad)
                while (reply := json.loads(await ws.recv()))["type"] != "error":
                    pass
                assert reply["code"] == code and reply["message"], (bad[:30], reply)
            await ws.send(json.dumps({"type": "ping"}))
            while (reply := json.loads(await ws.recv()))["type"] != "pong":
                pass

    asyncio.run(go())
    assert "Traceback" not in _log(server)


# -- a failing database ------------------------------------------------------------------------
def test_a_database_failure_is_a_retry_message_and_one_log_line(server_factory, tmp_path):
    """The database is locked by another writer past the server's busy wait (2 s here, set
    in the URL; 30 s by default): the mover is told to try again, a new match is a 503
    {error, code}, and the log holds one line per failure, with no SQL parameters (a seat's
    move, a seed, a token's hash)."""
    db = tmp_path / "locked.db"
    server = server_factory(f"sqlite:///{db}?timeout=2")
    body = {"game": "edges", "options": {"board": "2x2", "first": 0}, "seats": ["human"] * 2}
    created = plain_http.post(f"{server.url}/api/matches", json=body).json()

    async def go() -> None:
        a = await Client(server.url, created["match"], created["seats"][0]["token"]).connect()
        b = await Client(server.url, created["match"], created["seats"][1]["token"]).connect()
        await a.wait_for(lambda: a.my_turn())
        move = a.state["legal"][0]["text"]
        lock = sqlite3.connect(db, timeout=5, isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")  # the write lock, held past the server's wait
        try:
            await a.send({"type": "move", "seq": 0, "action": move})
            new = asyncio.to_thread(httpx.post, f"{server.url}/api/matches", json=body, timeout=90)
            reply = await new
            await a.wait_for(lambda: a.errors, timeout=90)
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        error = [m for m in a.messages if m["type"] == "error"][-1]
        assert error["code"] == "storage_unavailable" and "try again" in error["message"]
        assert reply.status_code == 503, reply.text
        assert reply.json()["code"] == "storage_unavailable" and reply.json()["error"]
        # The driver's reason (here "database is locked"; with PostgreSQL the database's host,
        # port and user) is the operator's, in the log: a client is told only to try again.
        for told in (error["message"], reply.json()["error"]):
            assert told == "the database failed; nothing was changed: try again", told
        assert not a.acks and a.state["seq"] == 0
        # Once the database is back, the same move is played.
        await a.send({"type": "move", "seq": 0, "action": move})
        await a.wait_for(lambda: a.acks == [1], timeout=30)
        await a.close()
        await b.close()

    asyncio.run(go())
    log = _log(server)
    failures = [line for line in log.splitlines() if "database failure" in line]
    assert len(failures) == 2, log[-3000:]
    assert all("database is locked" in line for line in failures), failures
    assert "Traceback" not in log and "parameters" not in log.lower()
    assert "123456789" not in log and "INSERT" not in log
