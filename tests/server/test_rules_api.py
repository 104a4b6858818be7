"""The rules for players over the API: a match's own, and a game's for any options."""

from __future__ import annotations

import json
import time

import httpx
import pytest

from tests import plain_http
from tests.server.conftest import module_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with module_server(tmp_path_factory, "rules") as server:
        yield server


def get(server, path: str, **params) -> httpx.Response:
    return plain_http.get(f"{server.url}{path}", params=params, timeout=30)


def test_a_match_gets_the_rules_of_its_own_options(server):
    reply = plain_http.post(
        f"{server.url}/api/matches",
        json={"game": "erd", "options": {"rules": "original"}, "seats": ["human", "random"]},
        timeout=30,
    )
    assert reply.status_code == 200, reply.text
    rules = get(server, f"/api/matches/{reply.json()['match']}/rules").json()
    assert rules["game"] == "erd" and rules["title"] == "Erd: The Grim Triangle"
    assert "no mercy rule" in rules["markdown"]
    assert "<h2>A round</h2>" in rules["html"] and "<table>" in rules["html"]
    assert get(server, "/api/matches/nope/rules").status_code == 404


def test_a_games_rules_follow_the_options_given(server):
    default = get(server, "/api/games/edges/rules").json()
    small = get(server, "/api/games/edges/rules", options=json.dumps({"board": "3x3"})).json()
    assert "3 x 4 squares" in default["markdown"] and "3 x 3 squares" in small["markdown"]


@pytest.mark.parametrize(
    ("game", "options", "status", "error"),
    [
        ("chess", None, 400, "no game called 'chess'"),
        ("edges", "{board", 400, "options must be a JSON object"),
        ("edges", "[1]", 400, "options must be a JSON object"),
        ("edges", '{"board": "3by3"}', 400, "option 'board' of edges"),
        ("squad-combat", '{"content": "/etc"}', 400, "names a file"),
    ],
)
def test_bad_rules_requests_get_one_line(server, game, options, status, error):
    params = {} if options is None else {"options": options}
    reply = get(server, f"/api/games/{game}/rules", **params)
    assert reply.status_code == status and error in reply.json()["error"], reply.text


@pytest.mark.parametrize(
    ("game", "option"),
    [("erosion", "cards"), ("squad-combat", "content"), ("triangle-clock", "ranking")],
)
def test_the_shipped_data_s_word_is_no_file(server, game, option):
    """``GET /api/games`` lists ``default`` among a data option's values (the data shipped
    with the game, as on the command line), but the rules request and a new match refused
    it as a file named."""
    [listed] = [g for g in get(server, "/api/games").json() if g["name"] == game]
    [field] = [o for o in listed["options"] if o["name"] == option]
    assert str(field["allowed"]).startswith("default")
    options = {option: "Default"}
    rules = get(server, f"/api/games/{game}/rules", options=json.dumps(options))
    assert rules.status_code == 200, rules.text
    assert rules.json()["markdown"] == get(server, f"/api/games/{game}/rules").json()["markdown"]
    match = plain_http.post(
        f"{server.url}/api/matches",
        json={"game": game, "options": options, "seats": ["human", "random"]},
        timeout=30,
    )
    assert match.status_code == 200, match.text


def test_designer_text_is_escaped_not_passed_through():
    from meeple.interfaces.web.rules import _renderer

    html = _renderer().render("A <script>alert(1)</script> [x](javascript:alert(1))\n")
    assert "<script>" not in html and "&lt;script&gt;" in html and 'href="javascript' not in html


@pytest.mark.parametrize("path", ["/api/games/edges/rules", "/api/games/edges/cards"])
def test_options_past_the_servers_limit_are_refused_as_a_matchs_are(server, path):
    """docs/security.md's ``--max-options-bytes`` (1,024 by default) bounds the options of a
    rules or cards request as a match's: these took 4,000 characters whatever the flag,
    refused as a bad request naming no flag."""
    options = json.dumps({"board": "3x3", "pad": "x" * 1100})
    reply = get(server, path, options=options)
    assert reply.status_code == 413, reply.text
    assert reply.json()["code"] == "too_large"
    assert "at most 1,024 (meeple serve --max-options-bytes)" in reply.json()["error"]
    match = plain_http.post(
        f"{server.url}/api/matches", json={"game": "edges", "options": json.loads(options)}
    )
    assert match.status_code == 413 and match.json()["error"] == reply.json()["error"]


def test_the_triangle_clock_s_readings_are_offered_kept_and_replayed(server):
    """Options tie_break and mulligan_order online: listed with their values, refused with
    them when mistyped, kept by a match, in its rules for players, and in its record, which
    replays to the end the server reached."""
    from meeple.core.record import GameRecord

    listed = {
        o["name"]: o["allowed"]
        for g in get(server, "/api/games").json()
        if g["name"] == "triangle-clock"
        for o in g["options"]
    }
    assert listed["tie_break"] == "rank-first | whole-hand"
    assert listed["mulligan_order"] == "new-first | literal"
    bad = plain_http.post(
        f"{server.url}/api/matches",
        json={"game": "triangle-clock", "options": {"tie_break": "whole"}},
        timeout=30,
    )
    assert bad.status_code == 400 and "allowed: rank-first | whole-hand" in bad.json()["error"]
    readings = {"tie_break": "whole-hand", "mulligan_order": "literal"}
    reply = plain_http.post(
        f"{server.url}/api/matches",
        json={
            "game": "triangle-clock",
            "options": {**readings, "memorise_seconds": 0, "choice_seconds": 0},
            "seats": ["random", "random"],
            "seed": 4,
        },
        timeout=30,
    )
    assert reply.status_code == 200, reply.text
    match = reply.json()["match"]
    rules = get(server, f"/api/matches/{match}/rules").json()["markdown"]
    assert "Compare all four symbols of each hand" in rules
    assert "an old card can come back" in rules
    deadline = time.monotonic() + 60
    while (summary := get(server, f"/api/matches/{match}").json())["status"] != "finished":
        assert time.monotonic() < deadline, summary
        time.sleep(0.2)
    assert summary["options"].items() >= readings.items()
    record = GameRecord.model_validate(get(server, f"/api/matches/{match}/record").json())
    assert record.options.items() >= readings.items()
    assert record.replay().result["scores"] == summary["result"]["scores"]


def test_a_match_says_what_it_is_played_with_that_may_not_be_meant(server):
    """An option the others make moot (Erd's drawn games in a single game) is taken and
    ignored, as before, and said: in the new match's answer and beside its rules; a match
    without one says nothing."""
    moot = "match_draws=replay matters only with best_of other than 1: this game ignores it"
    for options, notes in [
        ({"best_of": 1, "match_draws": "replay"}, [moot]),
        ({"best_of": 3, "match_draws": "replay"}, []),
        ({}, []),
    ]:
        reply = plain_http.post(
            f"{server.url}/api/matches",
            json={"game": "erd", "options": options, "seats": ["human", "random"]},
            timeout=30,
        )
        assert reply.status_code == 200 and reply.json()["notes"] == notes, reply.text
        rules = get(server, f"/api/matches/{reply.json()['match']}/rules").json()
        assert rules["notes"] == notes
    asked = get(
        server, "/api/games/erd/rules", options=json.dumps({"best_of": 1, "match_draws": "replay"})
    )
    assert asked.json()["notes"] == [moot]
