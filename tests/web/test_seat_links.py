"""A seat's link in the browser (docs/web.md, the game page): the page that opens it takes
the seat and is given the seat's own token, which replaces the link's in its address; the
link opened again in that browser plays the seat there; anywhere else (the creator, who
was handed the link to send) it is refused in words, and shows nothing of the seat."""

from __future__ import annotations

import re

from tests.web.browser import seat_token


def test_a_link_takes_its_seat_once_and_plays_it_again_only_where_it_took_it(
    server, chromium, watch, page_errors
):
    created = server.create("erd", {"best_of": 3}, ["human", "human"])
    match, link = created["match"], created["seats"][1]["token"]
    address = f"{server.url}/play/{match}#token={link}"
    friend = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = watch(friend.new_page())
    page.goto(address)
    page.wait_for_selector("#conn.conn-on")
    page.wait_for_url(re.compile(r"#token=(?!" + re.escape(link) + r")[\w-]{16,}$"))
    own = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('token')")
    assert own != link
    kept = page.evaluate("JSON.parse(localStorage.getItem('meeple-seats'))")
    assert [(s["match"], s["token"], s["seat"]) for s in kept] == [(match, own, 1)]

    # The link again, from the message it came in: this browser's seat, under its own token.
    page.goto(f"{server.url}/")
    page.goto(address)
    page.wait_for_selector("#conn.conn-on")
    page.wait_for_url(re.compile(r"#token=" + re.escape(own) + "$"))
    assert page.locator("#refused").count() == 0
    assert page.text_content("#conn") == "connected"

    # The creator's copy of the link, in another browser: refused, and no view of the seat.
    creator = chromium.new_context(viewport={"width": 390, "height": 844})
    spy = watch(creator.new_page())
    spy.goto(address)
    said = spy.wait_for_selector("#refused").inner_text()
    assert "This seat's link was used" in said and "the link plays it no more" in said, said
    assert spy.locator("#board").count() == 0 or not spy.inner_text("#board").strip()
    assert spy.get_attribute("#watch-instead", "href") == f"/play/{match}"  # as a spectator
    assert not page_errors
    friend.close()
    creator.close()


def test_two_tabs_opening_one_link_at_once_both_play_the_seat(server, chromium, watch, page_errors):
    """A double click, a chat app opening the link twice, a rematch followed in two tabs:
    the tab whose hello came second was refused ("this seat's link was used ... by the
    person who opened it first"), though its own browser had just taken the seat (a hostile
    client's finding). It now finds the seat's own token kept by the first, and plays."""
    created = server.create("edges", {"board": "2x3"}, ["human", "human"])
    match, link = created["match"], created["seats"][1]["token"]
    address = f"{server.url}/play/{match}#token={link}"
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    tabs = [watch(context.new_page()) for _ in range(2)]
    for tab in tabs:
        tab.goto(address, wait_until="commit")
    owns = [seat_token(tab) for tab in tabs]
    assert owns[0] == owns[1] != link, owns
    for tab in tabs:
        assert tab.locator("#refused").count() == 0
        assert "you are Blue" in tab.inner_text("#title")
    assert not page_errors
    context.close()
