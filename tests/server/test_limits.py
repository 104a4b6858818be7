"""The operator's limits on what a client may ask: agents' budgets are capped."""

from __future__ import annotations

import asyncio
import random
import time

import httpx
import pytest

from meeple.agents.levels import LEVEL_NAMES, level_spec
from meeple.core.errors import MeepleError
from meeple.core.registry import games, make
from meeple.interfaces.web.client import Client
from meeple.interfaces.web.limits import LONGEST_SECONDS, ServerLimits
from tests import plain_http


@pytest.mark.parametrize("game", [info.name for info in games()])
def test_every_level_of_every_game_is_within_the_default_limits(game):
    limits = ServerLimits()
    for level in LEVEL_NAMES:
        limits.check_agent(level_spec(make(game), level))


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("mcts:seconds=86400", "seconds=86400 is over this server's limit of 5"),
        ("mcts:iterations=1000000000000", "--max-agent-iterations"),
        ("uct:iterations=30000,nodes=100000000", "--max-agent-nodes"),
        # A cap is written as docs/security.md writes it (it read "1e+06", and "100000").
        ("uct:nodes=1e7", "limit of 1,000,000 (meeple serve --max-agent-nodes); ask for 1,000,000"),
        ("mcts:iterations=100001", "limit of 100,000 (meeple"),
        ("flat:worlds=1000000", "--max-agent-worlds"),
        ("flat:min_worlds=5000", "--max-agent-worlds"),
        ("flat:seconds=inf", "--max-agent-seconds"),
        ("perfect:depth=40", "--max-agent-depth"),
        ("perfect:exact=40", "--max-agent-exact"),
    ],
)
def test_a_budget_over_a_limit_is_refused_naming_the_limit(spec, says):
    with pytest.raises(MeepleError, match="limit") as caught:
        ServerLimits().check_agent(spec)
    assert says in str(caught.value)


def test_a_server_refuses_agents_over_its_limits_when_a_match_is_created(tmp_path, server_factory):
    strict = server_factory(f"sqlite:///{tmp_path / 'server.db'}", 1, "--max-agent-seconds", "0.5")

    def create(game: str, seats: list[str]) -> httpx.Response:
        return plain_http.post(f"{strict.url}/api/matches", json={"game": game, "seats": seats})

    reply = create("edges", ["human", "mcts:seconds=1"])
    assert reply.status_code == 400
    assert reply.json()["error"] == (
        "agent 'mcts:seconds=1': seconds=1 is over this server's limit of 0.5 "
        "(meeple serve --max-agent-seconds); ask for 0.5 or less"
    )
    assert create("edges", ["human", "mcts:seconds=0.5"]).status_code == 200
    reply = create("edges", ["human", "mcts:iterations=1000000000000"])
    assert reply.status_code == 400 and "--max-agent-iterations" in reply.json()["error"]
    # Under the depth cap, but the Edges solver's "no limit": a whole-game solve every move.
    reply = create("edges", ["human", "perfect:depth=-2"])
    assert reply.status_code == 400
    assert "perfect: depth must be a whole number of at least 1" in reply.json()["error"]
    reply = create("erd", ["human", "equilibrium:cache_dir=/tmp"])
    assert reply.status_code == 400 and "names files on the server" in reply.json()["error"]
    for level in LEVEL_NAMES:
        assert create("triangle-clock", ["human", level]).status_code == 200


def test_a_decision_s_allowance_is_its_time_budget_or_the_cap_and_the_margin():
    limits = ServerLimits(max_agent_seconds=5, agent_margin_seconds=30)
    assert limits.allowance("mcts:seconds=2") == 32
    assert limits.allowance("uct:iterations=30000") == 35  # no time budget: the time cap
    assert limits.allowance("perfect:seconds=0") == 35  # 0 is "no time limit" for perfect
    assert limits.allowance("random") == 35


def _at_their_most() -> list[str]:
    """A ``meeple serve`` flag for every limit at the most it may be: a time a year, a count
    its upper bound or, without one, a billion (the connections left at their default: the
    system's open files bound them)."""
    flags = []
    for name, field in ServerLimits.model_fields.items():
        if field.annotation is bool or name == "max_connections":
            continue
        uppers = [rule.le for rule in field.metadata if hasattr(rule, "le")]
        most = uppers[0] if uppers else 10**9
        flags += [
            f"--{name.replace('_', '-')}",
            f"{most:g}" if field.annotation is float else str(most),
        ]
    return flags


def test_a_server_with_every_limit_at_its_most_plays_hints_and_reviews(tmp_path, server_factory):
    """Each of the server's waits takes the longest time a limit may name: a review waited on
    the system's poll, which takes about 24 days at most, and every review failed at a
    year; a time of 1e300 s, let through then, failed every expiry sweep too."""
    assert f"{LONGEST_SECONDS:g}" in _at_their_most()
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 1, *_at_their_most())
    body = {"game": "edges", "options": {"board": "2x2"}, "seats": ["human", "mcts:iterations=50"]}
    made = plain_http.post(f"{server.url}/api/matches", json=body, timeout=30)
    assert made.status_code == 200, made.text
    match, token = made.json()["match"], made.json()["seats"][0]["token"]

    async def play() -> None:
        person = await Client(server.url, match, token).connect()
        await person.wait_for(person.my_turn)
        hint = plain_http.post(
            f"{server.url}/api/matches/{match}/hint", json={"token": person.token}, timeout=60
        )
        assert hint.status_code == 200 and hint.json()["best"], hint.text
        await person.play_random(random.Random(3))
        await person.close()

    asyncio.run(play())
    deadline = time.monotonic() + 120
    while (
        review := plain_http.get(f"{server.url}/api/matches/{match}/review", timeout=30)
    ).status_code == 202:
        assert time.monotonic() < deadline, "the review did not end"
        time.sleep(0.2)
    assert review.status_code == 200 and review.json()["status"] == "done", review.text
    log = server.log_path.read_text()
    assert "Traceback" not in log and "ERROR" not in log, log


def test_a_match_reaching_the_limit_of_moves_ends_as_a_draw_saying_so(tmp_path, server_factory):
    """A game's options can make a match run for millions of moves (Erd's round limit and
    best of, Squad Combat's turn limit), each of a computer player's costing a replay of the
    match: ``--max-match-moves`` ends it, in the write of the move that reaches it."""
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--max-match-moves", "10")
    body = {"game": "edges", "options": {"board": "3x3"}, "seats": ["random", "greedy"]}
    made = plain_http.post(f"{server.url}/api/matches", json=body, timeout=30)
    assert made.status_code == 200, made.text
    match = made.json()["match"]
    deadline = time.monotonic() + 60
    while (state := plain_http.get(f"{server.url}/api/matches/{match}", timeout=10).json())[
        "status"
    ] != "finished":
        assert time.monotonic() < deadline, "two agents did not reach the limit"
        time.sleep(0.1)
    assert state["seq"] == 10  # a 3x3 board takes 24 moves to fill
    assert state["result"] == {
        "over": True,
        "reason": "the match reached this server's limit of 10 moves",
        "returns": [0.0, 0.0],
        "winners": [],
        "move_limit": True,
    }
    record = plain_http.get(f"{server.url}/api/matches/{match}/record", timeout=10).json()
    assert len(record["moves"]) == 10 and record["result"] == state["result"]
    # An uploaded record is held to the same limit: 2 MB holds tens of thousands of moves,
    # and its every state's view is a reply far larger.
    assert plain_http.post(f"{server.url}/api/replay", json=record, timeout=60).status_code == 200
    longer = {**record, "moves": [*record["moves"], [0, "L h9,9"]], "result": None}
    for path in ("/api/replay", "/api/replay/review", "/api/replay/board-text?step=0"):
        refused = plain_http.post(f"{server.url}{path}", json=longer, timeout=60)
        assert refused.status_code == 413, (path, refused.text)
        assert refused.json() == {
            "error": "the record has 11 moves, more than a match on this server may have "
            "(10: meeple serve --max-match-moves)",
            "code": "too_large",
        }


def test_finished_matches_asked_for_are_not_all_kept_in_memory(tmp_path, monkeypatch):
    """Every finished match a client asks for (its summary, record, page) is loaded from the
    database; a process keeps only the latest few nobody watches, or one request a match
    would fill its memory with the stored ones. Below the bound none is let go."""
    from meeple.interfaces.web import hub as hub_module
    from meeple.interfaces.web.app import create_app
    from tests.server.test_match_loading import serving

    db = f"sqlite:///{tmp_path / 'matches.db'}"
    body = {"game": "edges", "options": {"board": "2x2"}, "seats": ["human", "random"]}

    async def finished_matches(client) -> list[str]:
        ids = []
        for _ in range(7):
            created = (await client.post("/api/matches", json=body)).json()
            match, link = created["match"], created["seats"][0]["token"]
            joined = await client.post(f"/api/matches/{match}/join", json={"token": link})
            token = joined.json()["token"]
            resigned = await client.post(f"/api/matches/{match}/resign", json={"token": token})
            assert resigned.status_code == 200, resigned.text
            ids.append(match)
        return ids

    ids = asyncio.run(serving(create_app(db, agent_workers=0), finished_matches))
    monkeypatch.setattr(hub_module, "FINISHED_KEPT", 4)
    app = create_app(db, agent_workers=0)  # a process that holds none of them yet

    def held() -> list[str]:
        return [m.id for m in app.state.hub.matches.values() if m.stored.status == "finished"]

    async def ask_for_each(client) -> None:
        for count, match in enumerate(ids, start=1):
            assert (await client.get(f"/api/matches/{match}")).json()["status"] == "finished"
            assert len(held()) == min(count, 4), (count, held())
        assert held() == ids[-4:]  # the latest asked for
        # One let go is loaded again when asked for; one asked for again is kept longer.
        await client.get(f"/api/matches/{ids[3]}/review", params={"start": "false"})
        assert (await client.get(f"/api/matches/{ids[0]}/record")).json()["game"] == "edges"
        assert sorted(held()) == sorted([ids[0], ids[3], *ids[-2:]]), held()

    asyncio.run(serving(app, ask_for_each))


def test_a_finished_match_whose_last_socket_closes_stays_among_those_kept(tmp_path):
    """A finished match was let go the moment its last socket closed, so each reload of its
    page loaded it again, every move replayed on the server's event loop (half a second
    for a match of 5,000 moves): one address reconnecting twice a second slowed every
    other match's moves to a second. It stays among the latest finished kept in memory."""
    from meeple.interfaces.web.app import create_app
    from tests.server.test_agent_failure import client_of

    app = create_app(f"sqlite:///{tmp_path / 's.db'}", agent_workers=0)
    body = {"game": "edges", "options": {"board": "2x2"}, "seats": ["human", "random"]}
    with client_of(app) as client:
        created = client.post("/api/matches", json=body).json()
        match, token = created["match"], created["seats"][0]["token"]
        assert client.post(f"/api/matches/{match}/resign", json={"token": token}).status_code == 200
        loads = []
        hub = app.state.hub
        load = hub._load

        async def counted(match_id):
            loads.append(match_id)
            return await load(match_id)

        hub._load = counted
        for _ in range(3):
            with client.websocket_connect(f"/ws/{match}") as ws:
                ws.send_json({"type": "hello"})
                assert ws.receive_json()["type"] == "welcome"
        assert match in hub.matches and loads == [], loads
