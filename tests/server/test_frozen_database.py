"""A PostgreSQL server that freezes (its processes stopped, as on a hung machine or behind a
network partition) keeps its connections open and answers nothing. A server's requests on
it used to wait until it resumed, each holding one of the server's few threads; now each
is refused with the retry message within the URL's bounds, and once the database resumes
the same server plays on, with every acknowledged move stored. A database that is down
(refusing connections at once) makes the computer's moves wait longer at each failure, not
spin on it."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from meeple.interfaces.web.client import Client
from meeple.store.db import StoreError, open_engine
from meeple.store.matches import MatchStore, MoveRow
from tests import plain_http

ANSWER, CONNECT = 1, 2
"""The test server's bounds, in its URL: 1 s of silence on a connection, 2 s to connect."""


def test_a_frozen_database_is_a_retry_message_within_its_bound(server_factory, postgres):
    if postgres is None:
        pytest.skip("needs PostgreSQL (apt-get install postgresql)")
    url = postgres.new_database()
    server = server_factory(f"{url}?timeout={ANSWER}&connect_timeout={CONNECT}", 0)
    body = {"game": "edges", "options": {"board": "2x2", "first": 0}, "seats": ["human"] * 2}
    created = plain_http.post(f"{server.url}/api/matches", json=body, timeout=30).json()
    match = created["match"]

    async def go() -> list[str]:
        a = await Client(server.url, match, created["seats"][0]["token"]).connect()
        b = await Client(server.url, match, created["seats"][1]["token"]).connect()
        await a.wait_for(a.my_turn)
        await a.send({"type": "move", "seq": 0, "action": a.state["legal"][0]["text"]})
        await b.wait_for(b.my_turn)
        move = b.state["legal"][0]["text"]
        with postgres.frozen():
            began = time.monotonic()
            await b.send({"type": "move", "seq": 1, "action": move})
            new = asyncio.to_thread(httpx.post, f"{server.url}/api/matches", json=body, timeout=60)
            health = asyncio.to_thread(httpx.get, f"{server.url}/api/health", timeout=60)
            # Without the bound both waited for the database to resume: for ever here.
            reply, unhealthy = await new, await health
            await b.wait_for(lambda: b.errors, timeout=15)
            waited = time.monotonic() - began
        # An uptime check is told the server cannot serve, as the requests are.
        assert unhealthy.status_code == 503, unhealthy.text
        assert unhealthy.json()["code"] == "storage_unavailable"
        error = [m for m in b.messages if m["type"] == "error"][-1]
        assert error["code"] == "storage_unavailable" and "try again" in error["message"]
        assert reply.status_code == 503 and reply.json()["code"] == "storage_unavailable"
        # A pooled connection's check is cut after ANSWER s, a new one's login after CONNECT.
        assert waited < ANSWER + CONNECT + 3, waited
        assert a.acks == [1] and not b.acks and b.state["seq"] == 1
        # Resumed: the same server takes the same move, with no restart.
        await b.send({"type": "move", "seq": 1, "action": move})
        await b.wait_for(lambda: b.acks == [2], timeout=30)
        healthy = await asyncio.to_thread(httpx.get, f"{server.url}/api/health", timeout=30)
        assert healthy.status_code == 200 and healthy.json() == {"status": "ok", "database": "ok"}
        await a.wait_for(lambda: a.state["seq"] == 2)
        await a.close()
        await b.close()
        return [a.log[0]["text"], move]

    played = asyncio.run(go())
    store = MatchStore(url)
    try:
        with store.engine.connect() as conn:
            stored = conn.execute(
                select(MoveRow.seq, MoveRow.action).where(MoveRow.match_id == match)
            ).all()
    finally:
        store.close()
    assert [tuple(row) for row in stored] == [(1, played[0]), (2, played[1])]
    log = server.log_path.read_text(errors="replace")
    assert "database failure in add_move" in log and "Traceback" not in log


@pytest.mark.parametrize("given", ["0", "-1", "soon", "inf"])
def test_a_postgresql_timeout_that_is_not_seconds_above_zero_is_one_line(given):
    with pytest.raises(StoreError, match=f"timeout='{given}' in .* seconds above 0"):
        open_engine(f"postgresql+psycopg://u:pw@127.0.0.1:1/x?timeout={given}")


def test_a_statement_a_frozen_database_never_answers_is_cut_after_its_bound(postgres):
    """The connection is open and inside a transaction when the database freezes: no new
    connection is made, so only the bound on silence ends the wait."""
    if postgres is None:
        pytest.skip("needs PostgreSQL (apt-get install postgresql)")
    engine = open_engine(f"{postgres.new_database()}?timeout={ANSWER}")
    try:
        with engine.connect() as conn, ThreadPoolExecutor(1) as thread:
            conn.exec_driver_sql("SELECT 1")
            with postgres.frozen():
                began = time.monotonic()
                asked = thread.submit(conn.exec_driver_sql, "SELECT 2")
                # Waited for here, not in the thread: without the bound the statement
                # would wait until the database resumes, which this wait's end makes it do.
                with pytest.raises(OperationalError) as failed:
                    asked.result(timeout=ANSWER + 5)
                waited = time.monotonic() - began
        assert f"the database sent nothing for {ANSWER} s" in str(failed.value)
        assert ANSWER <= waited < ANSWER + 2, waited
        # Resumed: the pool's next connection works.
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT 3").scalar() == 3
    finally:
        engine.dispose()


def test_connections_have_keepalives_and_the_url_s_libpq_settings_win(postgres):
    """An idle connection to a server cut off by the network is found dead in about a
    minute (the system's keepalive starts probing after two hours); a libpq setting the URL
    gives is kept, not replaced by meeple's."""
    if postgres is None:
        pytest.skip("needs PostgreSQL (apt-get install postgresql)")
    engine = open_engine(f"{postgres.new_database()}?connect_timeout=3&keepalives_count=5")
    try:
        connection = engine.raw_connection()
        try:
            dsn = dict(item.split("=", 1) for item in connection.dbapi_connection.info.dsn.split())
        finally:
            connection.close()
    finally:
        engine.dispose()
    assert dsn["connect_timeout"] == "3" and dsn["keepalives_count"] == "5"
    assert dsn["keepalives"] == "1" and dsn["keepalives_idle"] == "30"
    assert dsn["keepalives_interval"] == "10" and "timeout" not in dsn


def test_a_computer_seat_waits_longer_at_each_failure_of_a_database_that_is_down(
    server_factory, postgres
):
    """A computer that moves in a millisecond tried again at once when its move could not be
    stored: with the database down 10 s, a match of two random agents logged 4,566 lines
    (a try every 2 ms). Now each failure in a row waits twice as long (0.5 s, 1 s, 2 s ...,
    up to 10 s), and the match plays on once the database is back."""
    if postgres is None:
        pytest.skip("needs PostgreSQL (apt-get install postgresql)")
    server = server_factory(postgres.new_database(), 1)
    body = {"game": "squad-combat", "options": {}, "seats": ["random", "random"]}
    match = plain_http.post(f"{server.url}/api/matches", json=body, timeout=30).json()["match"]

    def seq() -> int:
        return plain_http.get(f"{server.url}/api/matches/{match}", timeout=10).json()["seq"]

    deadline = time.monotonic() + 30
    while seq() < 2:  # the agents are playing
        assert time.monotonic() < deadline, "the agents did not start"
        time.sleep(0.1)
    with postgres.stopped():
        time.sleep(3)  # tries at 0, 0.5, 1.5, 3.5 s: three or four in 3 s, not 1,500
        tries = server.log_path.read_text().count("could not move")
    assert 1 <= tries <= 4, tries
    after = seq()
    deadline = time.monotonic() + 30
    while seq() == after:  # back: the next try is at most 10 s away
        assert time.monotonic() < deadline, "the match did not go on after the database was back"
        time.sleep(0.2)
