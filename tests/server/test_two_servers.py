"""Past one process: two servers on one PostgreSQL database play one match together.

Each accepted move is announced with PostgreSQL NOTIFY; the other process hears it
(LISTEN), catches up from the database and sends it on to its own clients. Two writers
can never both store one move number (it is part of the key): the later is refused as
stale and sent the position as it is.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from meeple.core.record import GameRecord
from meeple.interfaces.web.client import Client, ServerProcess, free_port
from tests import plain_http


@pytest.fixture(scope="module")
def servers(tmp_path_factory, postgres) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two server processes on one new PostgreSQL database, agents in threads, for the
    module's tests (each plays only the matches it makes; a server per test cost two
    starts each)."""
    if postgres is None:
        pytest.skip("needs PostgreSQL (apt-get install postgresql)")
    db = postgres.new_database()
    folder = tmp_path_factory.mktemp("two")
    with pytest.MonkeyPatch.context() as patch:
        # Killed at the end, a server leaves its temporary files in the tests' folder.
        patch.setenv("TMPDIR", str(folder))
        pair = [ServerProcess(db, folder / f"server{k}.log", 0).start() for k in range(2)]
        try:
            yield pair[0], pair[1]
        finally:
            for server in pair:
                server.kill()


@pytest.mark.parametrize("game", ["edges", "erd"])
def test_players_on_two_server_processes_play_one_match(servers, game):
    one, two = servers

    async def go() -> None:
        options = {"board": "2x3", "stash": "3/3/2"} if game == "edges" else {"best_of": 3}
        created = plain_http.post(
            f"{one.url}/api/matches",
            json={"game": game, "options": options, "seats": ["human", "human"]},
        ).json()
        match = created["match"]
        a = await Client(one.url, match, created["seats"][0]["token"]).connect()
        b = await Client(two.url, match, created["seats"][1]["token"]).connect()
        await asyncio.gather(a.play_random(random.Random(1)), b.play_random(random.Random(2)))
        for c in (a, b):
            await c.wait_for(lambda c=c: c.state["status"] == "finished")
        # Both processes sent their client the same whole game.
        assert [(e["seat"], e["text"]) for e in a.log] == [(e["seat"], e["text"]) for e in b.log]
        record = GameRecord.model_validate(
            plain_http.get(f"{two.url}/api/matches/{match}/record").json()
        )
        assert record.replay().is_over
        assert [list(m) for m in record.moves] == [[e["seat"], e["text"]] for e in a.log]
        assert a.acks and b.acks
        for c in (a, b):
            await c.close()

    asyncio.run(go())


def test_a_move_made_while_the_other_server_was_not_listening_reaches_it(servers, postgres):
    """PostgreSQL restarts mid-match: a NOTIFY sent before the other server listens again
    reaches nobody, so on listening again a server reads every match it holds again. It
    used not to: the seat on the other server never saw the move, not even on reconnecting,
    and the match stood still."""
    one, two = servers

    async def go() -> None:
        created = plain_http.post(
            f"{one.url}/api/matches",
            json={"game": "edges", "options": {"board": "2x3", "first": 0}, "seats": ["human"] * 2},
        ).json()
        match = created["match"]
        a = await Client(one.url, match, created["seats"][0]["token"]).connect()
        b = await Client(two.url, match, created["seats"][1]["token"]).connect()

        async def move(c: Client) -> None:
            await c.wait_for(c.my_turn)
            acks = len(c.acks)
            await c.send(
                {"type": "move", "seq": c.state["seq"], "action": c.state["legal"][0]["text"]}
            )
            await c.wait_for(lambda: len(c.acks) > acks or bool(c.errors))
            assert not c.errors, c.errors

        await move(a)
        await move(b)
        # The other server's listening connection breaks and is made again a second later;
        # this move is stored (and announced) within that second.
        postgres.restart()
        await move(a)
        await b.wait_for(b.my_turn, timeout=15)
        assert b.state["seq"] == 3
        await move(b)
        await a.wait_for(lambda: a.state["seq"] == 4, timeout=15)
        for c in (a, b):
            await c.close()

    asyncio.run(go())
    log = two.log_path.read_text()
    assert "listening for other servers' changes again" in log, log[-2000:]
    assert "Traceback" not in log


def test_a_change_two_servers_are_asked_for_at_once_is_made_once(servers):
    """Each server decides a seat taken or a resignation on the match as it holds it, so
    two asked at once used each to store theirs over the other's: both strangers joining
    the one open seat were answered with a seat (the first's token then dead), one of two
    seats taken at once was lost, and both players resigning were each told they had. The
    match's row is now compared with what the server decided on, and a server that finds
    it changed reads the match again and decides anew."""
    one, two = servers

    def create(**request: object) -> dict:
        created = plain_http.post(f"{one.url}/api/matches", json=request).json()
        plain_http.get(f"{two.url}/api/matches/{created['match']}")  # both servers hold it
        return created

    def at_once(match: str, path: str, bodies: list[dict]) -> list[httpx.Response]:
        async def both() -> list[httpx.Response]:
            async with httpx.AsyncClient() as http:
                return await asyncio.gather(
                    *(
                        http.post(f"{server.url}/api/matches/{match}/{path}", json=body)
                        for server, body in zip((one, two), bodies, strict=True)
                    )
                )

        return asyncio.run(both())

    def seat_names(server: ServerProcess, match: str) -> list[str | None]:
        seats = plain_http.get(f"{server.url}/api/matches/{match}").json()["seats"]
        return [seats[1]["name"], seats[2]["name"]]

    async def can_play(url: str, match: str, token: str) -> str:
        """Connect with ``token``; the seat's own token (its link taken, if it was one)."""
        client = await Client(url, match, token).connect()
        await client.close()
        return str(client.token)

    for _ in range(4):  # a race: each round is another chance for the two to meet
        # Two strangers, one open seat: one takes it, the other is told there is none.
        match = create(game="edges", options={"board": "2x3"}, seats=["human", "open"])["match"]
        answers = at_once(match, "join", [{"name": "A"}, {"name": "B"}])
        assert sorted(a.status_code for a in answers) == [200, 409], [a.text for a in answers]
        (won,) = [a.json() for a in answers if a.status_code == 200]
        (lost,) = [a.json() for a in answers if a.status_code == 409]
        assert "no open seat" in lost["error"], lost
        # The seat's page connects through the other server at once: its token is known.
        other = two if answers[0].status_code == 200 else one
        asyncio.run(can_play(other.url, match, won["token"]))
        # Two strangers, two open seats: each keeps the seat they were given.
        match = create(
            game="squad-combat",
            options={"players": 4},
            seats=["human", "open", "open", "random"],
        )["match"]
        answers = at_once(match, "join", [{"name": "A", "seat": 1}, {"name": "B", "seat": 2}])
        assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
        # Each server holds its own reading: the one whose join was stored first hears of
        # the other's by its notice, a moment later. A seat taken lost would never come.
        for server in (one, two):
            deadline = time.monotonic() + 10
            while (names := seat_names(server, match)) != ["A", "B"]:
                assert time.monotonic() < deadline, (server.url, names)
                time.sleep(0.02)
        for server, answer in zip((two, one), answers, strict=True):
            asyncio.run(can_play(server.url, match, answer.json()["token"]))
        # Both players resign at once: the match ends once, the same on both servers.
        created = create(game="edges", options={"board": "2x3"}, seats=["human", "human"])
        match = created["match"]
        # Every seat taken: being played.
        tokens = [asyncio.run(can_play(one.url, match, s["token"])) for s in created["seats"]]
        answers = at_once(match, "resign", [{"token": token} for token in tokens])
        assert sorted(a.status_code for a in answers) == [200, 409], [a.text for a in answers]
        (refused,) = [a.json() for a in answers if a.status_code == 409]
        assert "over already" in refused["error"], refused
        results = [
            plain_http.get(f"{s.url}/api/matches/{match}").json()["result"] for s in (one, two)
        ]
        assert results[0] == results[1] and len(results[0]["resigned"]) == 1, results
    for server in (one, two):
        assert "Traceback" not in server.log_path.read_text()


def test_a_person_who_joined_through_one_server_connects_through_the_other_at_once(servers):
    """The other server may not have heard of the join yet when the page says hello: it
    reads the match again before refusing a token it does not know. It used to refuse the
    new seat's page about one time in two ("this token is not a seat of this match")."""
    one, two = servers

    async def connect(match: str, token: str) -> None:
        client = await Client(two.url, match, token).connect()
        assert client.state["seat"] == 1
        await client.close()

    for _ in range(10):  # a race with the other server's notice: each round is a chance
        created = plain_http.post(
            f"{one.url}/api/matches",
            json={"game": "edges", "options": {"board": "2x3"}, "seats": ["human", "open"]},
        ).json()
        match = created["match"]
        plain_http.get(f"{two.url}/api/matches/{match}")  # both servers hold it
        joined = plain_http.post(f"{one.url}/api/matches/{match}/join", json={"name": "B"})
        assert joined.status_code == 200, joined.text
        asyncio.run(connect(match, joined.json()["token"]))
        resigned = plain_http.post(
            f"{two.url}/api/matches/{match}/resign", json={"token": created["seats"][0]["token"]}
        )  # the seat's link: nobody took that seat
        assert resigned.status_code == 200, resigned.text

    async def bad_tokens(match: str) -> None:
        # A token nobody holds costs a look at the stored seats, not the match read again
        # and sent to everyone watching it.
        watcher = await Client(two.url, match, None).connect()

        def sent() -> list[dict]:
            return [m for m in watcher.messages if m["type"] == "state"]

        states = len(sent())
        async with httpx.AsyncClient() as http:
            for _ in range(5):
                answer = await http.post(
                    f"{two.url}/api/matches/{match}/resign", json={"token": "x" * 32}
                )
                assert answer.status_code == 403, answer.text
        await asyncio.sleep(0.5)
        assert len(sent()) == states, sent()[states:]
        await watcher.close()

    asyncio.run(bad_tokens(match))


def test_a_seat_s_link_taken_through_one_server_is_refused_by_the_other(servers):
    """A link takes its seat once, on whichever server: the other, asked at once, may still
    hold the match as it was before the seat was taken (its notice not yet heard), and
    must not let the link take the seat a second time (tests/server/test_seat_links.py)."""
    one, two = servers

    async def hello(url: str, match: str, token: str) -> dict:
        async with websockets.connect(url.replace("http://", "ws://") + f"/ws/{match}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            return json.loads(await ws.recv())

    for _ in range(4):  # a race with the other server's notice: each round is a chance
        created = plain_http.post(
            f"{one.url}/api/matches",
            json={"game": "edges", "options": {"board": "2x3"}, "seats": ["human", "human"]},
        ).json()
        match, link = created["match"], created["seats"][1]["token"]
        plain_http.get(f"{two.url}/api/matches/{match}")  # both servers hold it
        own = plain_http.take_seat(one.url, match, link)
        refused = asyncio.run(hello(two.url, match, link))
        assert refused.get("code") == "link_used", refused
        again = plain_http.post(f"{two.url}/api/matches/{match}/join", json={"token": link})
        assert again.status_code == 403 and again.json()["code"] == "link_used", again.text
        welcome = asyncio.run(hello(two.url, match, own))
        assert welcome["type"] == "welcome" and welcome["seat"] == 1 and "token" not in welcome
    for server in (one, two):
        assert "Traceback" not in server.log_path.read_text()


def test_a_seat_left_through_one_server_is_no_longer_played_on_the_other(servers):
    """The seat's socket on the other server is told it left and closed, as on the server
    that was asked; it used to play on, the open seat's moves made by the one who left."""
    one, two = servers

    async def go() -> None:
        created = plain_http.post(
            f"{one.url}/api/matches",
            json={"game": "edges", "options": {"board": "2x3", "first": 1}, "seats": ["human"] * 2},
        ).json()
        match, links = created["match"], [s["token"] for s in created["seats"]]
        a = await Client(one.url, match, links[0]).connect()
        b = await Client(two.url, match, links[1]).connect()
        await b.wait_for(b.my_turn)
        left = plain_http.post(f"{one.url}/api/matches/{match}/leave", json={"token": b.token})
        assert left.status_code == 200, left.text
        await b.wait_for(lambda: any(m["type"] == "left" for m in b.messages), timeout=10)
        with pytest.raises(ConnectionError):
            await b.wait_for(lambda: False, timeout=10)  # closed by the server
        seats = plain_http.get(f"{two.url}/api/matches/{match}").json()["seats"]
        assert not seats[1]["joined"] and not seats[1]["connected"], seats
        assert a.state["seq"] == 0
        await a.close()

    asyncio.run(go())


def test_a_seat_out_of_time_on_two_servers_is_moved_for_once_without_a_traceback(servers):
    """Each server holding the match times the seat out and moves for it; the later move
    is refused as stale. That refusal used to end the timer's task with a traceback in the
    log ("Task exception was never retrieved"), at every time-out."""
    one, two = servers

    async def go() -> None:
        created = plain_http.post(
            f"{one.url}/api/matches",
            json={
                "game": "edges",
                "options": {"board": "2x2", "first": 0},
                "seats": ["human", "human"],
                "move_seconds": 1,
            },
        ).json()
        match, tokens = created["match"], [s["token"] for s in created["seats"]]
        a = await Client(one.url, match, tokens[0]).connect()
        b = await Client(two.url, match, tokens[1]).connect()
        for c in (a, b):  # seat 0's time runs out on both servers; one move is made for it
            await c.wait_for(lambda c=c: c.state["seq"] >= 1, timeout=15)
        await asyncio.sleep(0.5)
        moves = [[(e["seat"], e["text"]) for e in c.log] for c in (a, b)]
        assert moves[0] == moves[1] and moves[0][0][0] == 0, moves
        await b.send({"type": "resign"})
        for c in (a, b):
            await c.wait_for(lambda c=c: c.state["status"] == "finished")
            await c.close()

    asyncio.run(go())
    for server in (one, two):
        assert "Traceback" not in server.log_path.read_text()


def test_a_second_server_on_one_sqlite_file_is_refused_and_the_lab_is_not(
    server_factory, tmp_path, run
):
    """SQLite carries no notices between servers: a match played across two stalled. The
    second server is refused in one line; the lab still shares the file with the first."""
    db = tmp_path / "one.db"
    first = server_factory(f"sqlite:///{db}", 0)
    (tmp_path / "alias").symlink_to(tmp_path)  # the same file by another name
    other_name = tmp_path / "alias" / "one.db"
    second = subprocess.run(
        [str(Path(sys.executable).with_name("meeple")), "serve", "--port", str(free_port()),
         "--db", f"sqlite:///{other_name}", "--agent-workers", "0"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert second.returncode == 2, second.stdout + second.stderr
    said = [line for line in second.stdout.splitlines() if line.strip()]
    assert len(said) == 1 and said[0].startswith("error: "), said
    assert f"another meeple server (pid {first.proc.pid}) serves {other_name} already" in (said[0])
    # The lock it holds by its whole path, where an operator finds it (the file's real one).
    assert f"(it holds {db.resolve()}-server.lock);" in said[0], said[0]
    assert "PostgreSQL" in said[0] and "Traceback" not in second.stderr
    simulated = run(
        "simulate", "edges", "--board", "2x2", "--seat", "random", "--seat", "random",
        "--games", "1", "--db", f"sqlite:///{db}", "--out", str(tmp_path / "out"),
    )  # fmt: skip
    assert simulated.exit_code == 0, simulated.output
    # The first server gone (killed: the system releases its lock), another may serve.
    first.kill()
    server_factory(f"sqlite:///{db}", 0)


def test_two_servers_opening_a_new_postgresql_database_at_once_both_open_it(postgres):
    """Two servers started at the same moment on a new database both create its tables:
    PostgreSQL told the loser of the race a duplicate key of its catalogue of types, and
    that server did not start (a hostile client's finding)."""
    if postgres is None:
        pytest.skip("needs PostgreSQL (apt-get install postgresql)")
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    from meeple.store.matches import MatchStore

    for _ in range(6):
        db = postgres.new_database()
        together = Barrier(3)

        def open_store(db: str = db, together: Barrier = together) -> list[str]:
            together.wait()
            store = MatchStore(db)
            try:
                return store.listing(("waiting",), 1)
            finally:
                store.close()

        with ThreadPoolExecutor(3) as pool:
            opened = [pool.submit(open_store) for _ in range(3)]
            assert [f.result(timeout=60) for f in opened] == [[], [], []]
