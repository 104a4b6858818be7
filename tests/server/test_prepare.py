"""Solving an Erd variant for its hard opponent is never done inside a request, and only
for the variants the operator allows (issue 53.3): against a real server process, with a
solver cache of its own so that nothing is solved already."""

from __future__ import annotations

import asyncio
import time

from meeple.interfaces.web.client import Client
from tests import plain_http

HARD = "exploit:allowance=0.1,knows=heuristic,solve=true"


def test_a_variant_that_does_not_ship_is_refused_at_once_and_nothing_is_solved(
    server_factory, tmp_path, monkeypatch
):
    cache = tmp_path / "cache"
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(cache))
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0)
    body = {"game": "erd", "options": {"round_limit": 7}, "seats": ["human", "hard"]}
    reply = plain_http.post(f"{server.url}/api/matches", json=body, timeout=60)
    assert reply.status_code == 400, reply.text
    assert reply.json()["code"] == "not_prepared"
    assert "shipped rules versions" in reply.json()["error"]
    # The medium opponent needs no solve: the same variant is played against it.
    body["seats"] = ["human", "medium"]
    assert plain_http.post(f"{server.url}/api/matches", json=body, timeout=60).status_code == 200
    time.sleep(1)
    assert not cache.exists() or not any(cache.iterdir())


def test_a_request_refused_for_another_seat_starts_no_solve(server_factory, tmp_path, monkeypatch):
    """The hard opponent of the shipped rules would be solved for (a process's half minute),
    but the request is refused for its other seat: every seat is checked before anything is
    prepared, so a refused request costs the server nothing more."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(cache))
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0)
    for seats in (["hard", "hrad"], ["hard", "mcts:iteratons=5"]):
        body = {"game": "erd", "seats": seats}
        reply = plain_http.post(f"{server.url}/api/matches", json=body, timeout=60)
        assert reply.status_code == 400, reply.text
        assert "did you mean" in reply.json()["error"], reply.json()
    time.sleep(1)
    assert "preparing" not in server.log_path.read_text()
    assert not cache.exists() or not any(cache.iterdir())


def test_an_allowed_variant_is_solved_off_the_request_and_its_agent_then_plays(
    server_factory, tmp_path, monkeypatch
):
    cache = tmp_path / "cache"
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(cache))
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 1, "--prepare-any-variant")
    # A variant no server prepares unasked, on the original's smaller game (a third of the
    # solve of the shipped version's).
    options = {"rules": "original", "round_limit": 3, "best_of": 1}
    body = {"game": "erd", "options": options, "seats": ["human", HARD]}
    reply = plain_http.post(f"{server.url}/api/matches", json=body, timeout=60)
    assert reply.status_code == 200, reply.text
    # The reply came before the solve (a process of its own, several seconds) wrote anything.
    assert not cache.exists() or not any(cache.glob("erd-*.bin"))
    created = reply.json()

    async def play() -> None:
        person = await Client(server.url, created["match"], created["seats"][0]["token"]).connect()
        # The agent's hidden choice arrives once the solve is done (Erd's seats choose at once).
        await person.wait_for(lambda: 1 in person.state.get("chosen", []), timeout=180)
        await person.close()

    asyncio.run(play())
    assert any(cache.glob("erd-*.bin"))
    assert "Traceback" not in server.log_path.read_text()


def test_a_server_stopped_while_it_prepares_says_nothing_went_wrong(
    server_factory, tmp_path, monkeypatch
):
    """SIGTERM while the preparing process solves: the process is stopped with the server,
    and the log holds no error about the preparation it abandoned (asyncio's "Future
    exception was never retrieved" for the pool the stop broke)."""
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path / "cache"))
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 1, "--prepare-any-variant")
    body = {"game": "erd", "options": {"round_limit": 4, "best_of": 1}, "seats": ["human", HARD]}
    assert plain_http.post(f"{server.url}/api/matches", json=body, timeout=60).status_code == 200
    deadline = time.monotonic() + 30
    while "preparing" not in server.log_path.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1)  # the preparing process is solving (several seconds)
    assert server.terminate() < 10
    log = server.log_path.read_text()
    assert "preparing exploit for erd" in log, log
    assert "ERROR" not in log and "never retrieved" not in log, log
