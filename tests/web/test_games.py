"""A whole match of every game played in the browser by clicks on the picture alone.

One person (this test, clicking at random among the ``.clickable`` elements the game's
drawing module offers) plays against an agent until the match is over; every move the
picture offers must be legal, the server must refuse nothing, and the end screen must
show the result. Small options keep each game to seconds.
"""

from __future__ import annotations

import re

import pytest

from tests.web.browser import BARE_TURN, HEAR, Frames, no_server_errors, play_by_clicks

FAST = {
    "edges": ({"board": "2x2"}, "greedy"),
    "erd": ({"best_of": 1}, "random"),
    "erosion": ({}, "random"),
    "triangle-clock": ({"memorise_seconds": 60, "choice_seconds": 0}, "random"),
    "squad-combat": ({"turn_limit": 8}, "random"),
}


@pytest.mark.parametrize("game", list(FAST))
def test_a_whole_match_is_played_by_clicking_the_picture(server, context, watch, page_errors, game):
    options, agent = FAST[game]
    created = server.create(game, options, ["human", agent])
    page = watch(context.new_page())
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    frames = Frames().attach(page)
    token = created["seats"][0]["token"]
    page.goto(f"{server.url}/play/{created['match']}#token={token}")
    page.wait_for_selector("body[data-status]")
    assert page.query_selector(".no-drawing") is None, f"{game} was not drawn: {console}"
    page.evaluate(HEAR)

    play_by_clicks(page, frames, seed=7, seconds=90)

    no_server_errors(frames)
    assert not page_errors, page_errors
    # Where the seat's own move led to its next decision (Erosion's steps of a turn, The
    # Triangle Clock's first choice after its memorising), the game's prompt says what is
    # asked: "Your move." said again, alone, told nothing.
    heard = page.evaluate("window.heard")
    assert not BARE_TURN & set(heard), heard
    if game == "triangle-clock":  # the computer memorises at once, then the person
        prompt = "You: first choice: a symbol from a card (round "
        assert any(said.startswith(prompt) for said in heard), heard
    page.wait_for_selector("#end:not([hidden]) .end-title")
    assert server.get(f"/api/matches/{created['match']}")["status"] == "finished"
    if game == "triangle-clock":  # the second order's symbols, numbered by their rounds
        numbers = page.locator(".tc-panel .tc-chips .tc-chip-n").all_inner_texts()
        assert numbers == [str(n) for n in range(17, 33)], numbers
        head = page.inner_text(".tc-result .tc-result-head")  # the person's seat is "you"
        assert re.search(r"Tick \(you\) \d+ – Tock \d+$", head), head
    assert page.query_selector("#end #replay-link") is not None
    # The token travels only inside the hello message, never in an address the server sees.
    assert not [url for url in requests if token in url]
