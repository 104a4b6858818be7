"""Post-game reviews on a real server: computed off the request path, kept in the database,
bounded by the server's limits (docs/api.md, "Reviews")."""

from __future__ import annotations

import json
import logging
import time

import httpx
import pytest

from meeple.interfaces.web.live import ServerError
from meeple.interfaces.web.reviews import ReviewJob, review_answer
from tests import plain_http

TIMEOUT = 120
"""Seconds a review of a 2x2 game may take here (a new process imports meeple, and the
machine is shared)."""


def _finished(url: str) -> str:
    """A finished 2x2 Edges match between two agents (a seed the server drew); its id."""
    body = {"game": "edges", "options": {"board": "2x2"}, "seats": ["random", "greedy"]}
    reply = plain_http.post(f"{url}/api/matches", json=body, timeout=30)
    assert reply.status_code == 200, reply.text
    match = reply.json()["match"]
    deadline = time.monotonic() + 60
    while plain_http.get(f"{url}/api/matches/{match}", timeout=10).json()["status"] != "finished":
        assert time.monotonic() < deadline, "two agents did not finish a 2x2 board"
        time.sleep(0.2)
    return match


def _wait(url: str, path: str) -> httpx.Response:
    """GET ``path`` until it is no longer 202 (computing)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        reply = plain_http.get(f"{url}{path}", timeout=10)
        if reply.status_code != 202:
            return reply
        assert reply.json()["status"] == "computing"
        assert time.monotonic() < deadline, f"no review within {TIMEOUT} s"
        time.sleep(0.3)


def test_a_finished_match_is_reviewed_once_and_kept(server_factory, tmp_path):
    db = f"sqlite:///{tmp_path / 's.db'}"
    server = server_factory(db, 0, "--max-reviews", "1")
    first, second = _finished(server.url), _finished(server.url)
    path = f"/api/matches/{first}/review"

    # Asked only for one kept: none yet, and nothing is started (asked again, still none,
    # where a started review would be answered 202).
    for _ in range(2):
        peek = plain_http.get(f"{server.url}{path}?start=false", timeout=10)
        assert peek.status_code == 200 and peek.json() == {"status": "not_reviewed"}, peek.text
    started = plain_http.get(f"{server.url}{path}", timeout=10)
    assert started.status_code == 202, started.text
    assert started.json()["status"] == "computing"
    # One review at a time on this server: another is refused while it runs.
    busy = plain_http.get(f"{server.url}/api/matches/{second}/review", timeout=10)
    assert busy.status_code == 503, busy.text
    assert busy.json()["code"] == "busy"
    assert int(busy.headers["retry-after"]) > 0

    done = _wait(server.url, path)
    assert done.status_code == 200, done.text
    review = done.json()
    moves = server_record_moves(server.url, first)
    assert review["status"] == "done" and review["game"] == "edges"
    assert [d["n"] for d in review["decisions"]] == list(range(1, len(moves) + 1))
    assert [(d["seat"], d["action"]) for d in review["decisions"]] == [tuple(m) for m in moves]
    assert review["judges"] == ["exact"]  # a 2x2 board is solved exactly throughout
    for d in review["decisions"]:
        assert d["mark"] in (None, "?!", "?", "??")
        assert (d["mark"] is None) == (not d["mistake"] or d["loss"] == 0)
    points = review["chart"]["points"]
    assert [p["n"] for p in points] == list(range(len(moves) + 1))
    assert all(p["chance"] in (-1.0, 0.0, 1.0) for p in points)  # exact: won, level, lost
    assert set(review["turning"]) <= {d["n"] for d in review["decisions"] if d["mark"]}

    # Kept: asked again it is answered at once, the same (a review computed again would be
    # answered 202 "computing" first; the clock is not read, as the machine is noisy).
    again = plain_http.get(f"{server.url}{path}", timeout=10)
    assert again.status_code == 200 and again.json() == review
    assert plain_http.get(f"{server.url}{path}?start=false", timeout=10).json() == review

    # The same record uploaded to the replay page shares the match's review.
    record = plain_http.get(f"{server.url}/api/matches/{first}/record", timeout=10).text
    uploaded = plain_http.post(f"{server.url}/api/replay/review", content=record, timeout=10)
    assert uploaded.status_code == 200 and uploaded.json() == review

    # Kept in the database: a restarted server has it at once.
    server.kill()
    restarted = server_factory(db, 0)
    kept = plain_http.get(f"{restarted.url}{path}", timeout=10)
    assert kept.status_code == 200 and kept.json() == review


def server_record_moves(url: str, match: str) -> list[list]:
    """The moves of a finished match's record."""
    return plain_http.get(f"{url}/api/matches/{match}/record", timeout=10).json()["moves"]


def test_an_uploaded_record_is_reviewed_by_its_key(server_factory, tmp_path):
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0)
    match = _finished(server.url)
    record = plain_http.get(f"{server.url}/api/matches/{match}/record", timeout=10).text
    started = plain_http.post(f"{server.url}/api/replay/review", content=record, timeout=10)
    assert started.status_code == 202, started.text
    key = started.json()["key"]
    done = _wait(server.url, f"/api/replay/review/{key}")
    assert done.status_code == 200, done.text
    assert done.json()["moves"] == len(server_record_moves(server.url, match))

    unknown = plain_http.get(f"{server.url}/api/replay/review/{'0' * 64}", timeout=10)
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_review"
    bad = plain_http.post(
        f"{server.url}/api/replay/review", content='{"game": "edges"}', timeout=10
    )
    assert bad.status_code == 400 and bad.json()["code"] == "bad_record"


def test_an_unfinished_match_is_not_reviewed(server_factory, tmp_path):
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0)
    body = {"game": "edges", "options": {"board": "2x2"}, "seats": ["human", "random"]}
    match = plain_http.post(f"{server.url}/api/matches", json=body, timeout=30).json()["match"]
    reply = plain_http.get(f"{server.url}/api/matches/{match}/review", timeout=10)
    assert reply.status_code == 409, reply.text
    assert reply.json()["code"] == "not_finished"
    missing = plain_http.get(f"{server.url}/api/matches/nosuchmatch/review", timeout=10)
    assert missing.status_code == 404 and missing.json()["code"] == "unknown_match"


def test_a_review_past_the_time_limit_is_stopped_and_refused(server_factory, tmp_path):
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--max-review-seconds", "0.2")
    match = _finished(server.url)
    reply = _wait(server.url, f"/api/matches/{match}/review")
    assert reply.status_code == 503, reply.text
    assert reply.json()["code"] == "review_too_long"
    assert "--max-review-seconds" in reply.json()["error"]


def test_the_reviews_table_keeps_and_replaces_a_review(db_url):
    """SQLite and PostgreSQL: a review is read back as stored, a second write of the same
    key (two servers that computed it at once) replaces it, and another key is apart."""
    from meeple.store.matches import MatchStore
    from meeple.store.reviews import ReviewStore, review_key

    matches = MatchStore(db_url)
    try:
        store = ReviewStore(matches.engine)
        key = review_key("edges", {"board": "2x2"}, 2**100, [(0, "L h1,0")], "v1")
        other = review_key("edges", {"board": "2x2"}, 2**100, [(0, "L h1,1")], "v1")
        assert key != other and len(key) == 64
        assert store.get(key) is None
        store.put(key, {"status": "done", "decisions": [{"n": 1, "mark": "??"}]})
        store.put(key, {"status": "done", "decisions": []})
        assert store.get(key) == {"status": "done", "decisions": []}
        assert store.get(other) is None
        assert ReviewStore(matches.engine).get(key) is not None  # the table is there once
    finally:
        matches.close()


def test_a_damaged_review_is_computed_again_not_sent(db_url, caplog):
    """A reviews row changed in place (a value edited, a row of a meeple that kept no check,
    on SQLite text that is not JSON) reads as missing, in one log line: the server computes
    the review again. The text that is not JSON failed the request with a JSONDecodeError,
    and an edited review was sent to the page as it was."""
    from sqlalchemy import text

    from meeple.store.matches import MatchStore
    from meeple.store.reviews import ReviewStore, review_key

    matches = MatchStore(db_url)
    try:
        store = ReviewStore(matches.engine)
        key = review_key("edges", {"board": "2x2"}, 7, [(0, "L h1,0")], "v1")
        review = {"status": "done", "decisions": [{"n": 1, "mark": "??"}]}
        store.put(key, review)
        [stored] = _reviews(matches.engine, text)
        damages = [
            {**stored, "review": {**review, "decisions": []}},  # edited
            review,  # a row as an older meeple stored it: the review alone, no check
        ]
        texts = [json.dumps(d) for d in damages]
        if db_url.startswith("sqlite"):
            texts.append('{"check": ')  # PostgreSQL's json type cannot hold it
        for damaged in texts:
            with matches.engine.begin() as conn:
                conn.execute(text("UPDATE reviews SET review = :r"), {"r": damaged})
            caplog.clear()
            assert store.get(key) is None, damaged
            [line] = [r.getMessage() for r in caplog.records if r.name == "meeple.store"]
            assert "does not pass its check; it is computed again" in line
        store.put(key, review)  # computed again: kept
        assert store.get(key) == review
    finally:
        matches.close()


def _reviews(engine, text) -> list[dict]:
    with engine.connect() as conn:
        return [
            json.loads(r) if isinstance(r, str) else r
            for (r,) in conn.execute(text("SELECT review FROM reviews"))
        ]


def test_one_address_never_takes_the_last_place_for_a_review(server_factory, tmp_path):
    """docs/security.md: an address computing a review never takes the last free place,
    which is kept for an address computing none. Without it one address, reviewing the
    agents-only matches it makes, held every place, and every other reader was refused."""
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", 0, "--max-reviews", "2")
    first, second, third = (_finished(server.url) for _ in range(3))
    other = httpx.Client(
        base_url=server.url,
        timeout=10,
        transport=httpx.HTTPTransport(local_address="127.0.0.2"),
    )
    started = other.get(f"/api/matches/{first}/review")
    assert started.status_code == 202, started.text
    kept = other.get(f"/api/matches/{second}/review")
    assert kept.status_code == 503, kept.text
    assert kept.json()["code"] == "busy" and int(kept.headers["retry-after"]) > 0
    assert "kept for" in kept.json()["error"], kept.text
    # The same review asked again is answered as computing, not refused.
    assert other.get(f"/api/matches/{first}/review").status_code == 202
    # Another address takes the last place.
    mine = plain_http.get(f"{server.url}/api/matches/{third}/review", timeout=10)
    assert mine.status_code == 202, mine.text
    for match in (first, third):
        assert _wait(server.url, f"/api/matches/{match}/review").status_code == 200


def test_a_fault_in_a_review_is_the_server_s_500_its_words_logged_not_sent(caplog):
    """A review's process answers a fault of the server's code apart from the judge's
    refusal: the client is told the review failed (500) without the Python error, which
    goes to the log; the judge's refusal keeps its words (422)."""
    job = ReviewJob("edges", {}, 1, [], 10, False)
    with (
        caplog.at_level(logging.ERROR, logger="meeple.server"),
        pytest.raises(ServerError) as fault,
    ):
        review_answer(job, "fault", "IndexError: tuple index out of range")
    assert fault.value.status == 500 and "IndexError" not in str(fault.value)
    assert "IndexError: tuple index out of range" in caplog.text
    with pytest.raises(ServerError) as refusal:
        review_answer(job, "error", "this Erd variant is not solved here")
    assert refusal.value.status == 422 and "not solved here" in str(refusal.value)
    assert review_answer(job, "ok", {"moves": 0}) == {"moves": 0}


def test_an_erd_variant_the_server_does_not_solve_is_reviewed_by_search():
    """A review of an Erd game with a Reserve of its own (a variant a server solves only where
    its operator allows it) failed, 422, with the server's cache folder and a command for its
    operator in the client's answer. It is judged by search, as a hint of such a game is."""
    import random

    import meeple
    from meeple.interfaces.web.reviews import compute_review

    options = {"best_of": 1, "reserve": "HHHLLLLDDDDDD"}
    state, moves, rng = meeple.make("erd", **options).new_game(3), [], random.Random(3)
    while not state.is_over and len(moves) < 6:
        seat = state.to_act[0]
        action = rng.choice(state.legal_actions(seat))
        moves.append((seat, str(action)))
        state = state.apply(seat, action)
    review = compute_review(ReviewJob("erd", options, 3, moves, 20, False))
    assert review["status"] == "done" and review["judges"] == ["ismcts 20"], review
