"""The pages explain themselves: refusals, endings, time-outs, plain names, who thinks."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_a_made_up_match_says_so_and_links_to_the_lobby(server, chromium, size):
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{server.url}/play/doesnotexist")
    box = page.wait_for_selector("#refused")
    assert "No such match" in box.inner_text()
    assert page.get_attribute("#refused a", "href") == "/"
    for gone in ("#typed", "#resign", "#sync", "#board", "#log"):
        assert page.locator(gone).count() == 0, f"{gone} is still on the page"
    bounds = box.bounding_box()
    assert bounds and bounds["x"] >= 0 and bounds["x"] + bounds["width"] <= size[0]
    context.close()


@pytest.mark.parametrize("token", ["abc", "x" * 32])
def test_a_bad_or_cut_short_token_shows_the_error_and_stops_retrying(server, context, token):
    created = server.create("edges", {"board": "2x2"}, ["human", "greedy"])
    page = context.new_page()
    sockets: list[object] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(f"{server.url}/play/{created['match']}#token={token}")
    text = page.wait_for_selector("#refused").inner_text()
    assert "token" in text.lower(), text
    page.wait_for_timeout(2500)  # a retry would come after 0.5 s, then 1 s
    assert len(sockets) == 1, f"the page connected {len(sockets)} times"
    assert page.locator("#typed").count() == 0
