"""An agent that cannot move is given up for the game's default agent, after one warning:
asked again at once, a failing agent was asked thousands of times a second, each a log line,
in a match nobody could end (a match of computers has no seat to resign)."""

from __future__ import annotations

import logging
import time
import warnings
from typing import Any

from meeple.core.errors import AgentSpecError
from meeple.interfaces.web import referee
from meeple.interfaces.web.app import create_app


def client_of(app: Any) -> Any:
    """FastAPI's in-process client of ``app`` (its import warns that starlette would rather
    use another HTTP library, which this test has no use for)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    return TestClient(app)


def test_an_erd_agent_with_a_parameter_out_of_range_is_refused_as_the_match_is_made(tmp_path):
    """Erd's agents that play the solved game are made only in the workers; their
    parameters were not checked until then (exploit:prior=-1 was taken, 200)."""
    app = create_app(f"sqlite:///{tmp_path / 's.db'}", agent_workers=0)
    with client_of(app) as client:
        for spec, says in [
            ("exploit:prior=-1", "prior must be a positive number"),
            ("exploit:knows=bogus", "knows must be none or distinct agents"),
            ("exploit:uniform=7", "uniform must be in [0, 1]"),
        ]:
            reply = client.post("/api/matches", json={"game": "erd", "seats": [spec, "random"]})
            assert reply.status_code == 400, reply.text
            assert reply.json()["code"] == "bad_agent" and says in reply.json()["error"]


def test_an_agent_the_match_cannot_have_is_a_bad_agent(tmp_path):
    """Edges' perfect player on a board its solver does not take was refused as `refused`,
    the code of no particular mistake, where api.md names `bad_agent`."""
    app = create_app(f"sqlite:///{tmp_path / 's.db'}", agent_workers=0)
    body = {"game": "edges", "options": {"board": "9x9"}, "seats": ["perfect", "random"]}
    with client_of(app) as client:
        reply = client.post("/api/matches", json=body)
    assert reply.status_code == 400, reply.text
    assert reply.json()["code"] == "bad_agent"
    assert "the Edges solver takes boards of up to 42 squares" in reply.json()["error"]


def test_an_agent_that_cannot_move_is_replaced_after_one_warning(tmp_path, monkeypatch, caplog):
    asked: list[str] = []
    move = referee.Referee._worker_move

    async def failing(self, match, seat, spec, seed):
        asked.append(spec)
        if spec == "greedy":
            raise AgentSpecError("greedy: a parameter it refuses only as it is made")
        return await move(self, match, seat, spec, seed)

    monkeypatch.setattr(referee.Referee, "_worker_move", failing)
    monkeypatch.setattr(referee, "default_agent", lambda game: "random")
    app = create_app(f"sqlite:///{tmp_path / 's.db'}", agent_workers=0)
    body = {"game": "edges", "options": {"board": "2x2"}, "seats": ["greedy", "random"]}
    with caplog.at_level(logging.WARNING, "meeple.server"), client_of(app) as client:
        created = client.post("/api/matches", json=body)
        assert created.status_code == 200, created.text
        match = created.json()["match"]
        deadline = time.monotonic() + 30
        while (seen := client.get(f"/api/matches/{match}").json())["status"] != "finished":
            assert time.monotonic() < deadline, seen
            time.sleep(0.05)
    assert asked.count("greedy") == 1, asked
    warned = [r.getMessage() for r in caplog.records if "could not move" in r.getMessage()]
    assert len(warned) == 1 and "agent greedy of match" in warned[0], warned
