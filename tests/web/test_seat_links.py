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
    page.wait_for_url(re.compile(r"#token=(?!" + re.escape(link) + r")[\w-]{16,}$"))
    own = seat_token(page)
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
        tab.wait_for_selector("#title:has-text('you are Blue')")
    assert not page_errors
    context.close()


def test_the_creator_opening_a_link_made_to_send_opens_their_own_seat(
    server, chromium, watch, page_errors
):
    """A creator checking that the friend's link works took the friend's seat with it, the
    friend then refused (a newcomer's finding). The browser that made the match knows the
    links it was given to send: opened there, its own seat opens, and the page says whose
    link it was; the friend's browser then takes the seat as ever."""
    host = watch(chromium.new_context(viewport={"width": 1280, "height": 800}).new_page())
    host.goto(f"{server.url}/")
    host.wait_for_selector(".game-card")
    host.click("#more > summary")
    host.select_option("#game", "edges")
    host.fill("#opt-board", "2x2")
    host.select_option("#seat-1", "human")
    host.click("#create-button")
    host.wait_for_selector("#created .link-note")
    assert "send it to that person alone" in host.inner_text("#created .link-note")
    friend_link = host.locator("#created .join-link").first.inner_text()
    host.goto(friend_link)
    host.wait_for_selector("#conn.conn-on")
    host.wait_for_selector("#title:has-text('you are Red')")
    told = host.wait_for_selector(".toast:has-text('the link you were given for Blue')")
    assert "send it to them" in told.inner_text()
    friend = watch(chromium.new_context(viewport={"width": 390, "height": 844}).new_page())
    friend.goto(friend_link)
    friend.wait_for_selector("#conn.conn-on")
    friend.wait_for_selector("#title:has-text('you are Blue')")
    assert not page_errors
    host.context.close()
    friend.context.close()


def test_a_match_called_off_offers_no_rematch_and_a_declined_one_waits_on_nobody(
    server, chromium, watch
):
    """Called off before anyone else came, the end box offered a rematch that would wait on
    the seat nobody took, and a replay of no move; once the other declined, the one who
    offered read "waiting for the others" (a newcomer's findings)."""
    created = server.create("edges", {"board": "2x2"}, ["human", "human"])
    page = watch(chromium.new_context().new_page())
    page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("body[data-status='waiting']")
    page.click("#resign")
    page.click("#resign")  # the second click confirms
    page.wait_for_selector("body[data-status='finished'] #end")
    assert page.locator("#rematch").count() == 0 and page.locator("#replay-link").count() == 0
    page.context.close()

    created = server.create("edges", {"board": "2x2"}, ["human", "human"])
    red, blue = (watch(chromium.new_context().new_page()) for _ in range(2))
    for seat, tab in enumerate((red, blue)):
        tab.goto(f"{server.url}/play/{created['match']}#token={created['seats'][seat]['token']}")
    red.wait_for_selector("body[data-status='playing']")
    red.click("#resign")
    red.click("#resign")
    red.wait_for_selector("body[data-status='finished'] #rematch")
    red.click("#rematch")
    blue.wait_for_selector("#decline-rematch").click()
    red.wait_for_selector("#rematch-declined")
    assert red.inner_text("#rematch") == "Rematch declined"
    red.context.close()
    blue.context.close()


def test_a_friend_without_a_name_is_offered_to_give_one_and_everyone_sees_it(
    server, chromium, watch, page_errors
):
    """A friend opening a seat's link in a browser that keeps no name went by the seat's
    ("Blue") for the whole match: the page offers a box, once, at both sizes; the name is
    kept in the browser once the server took it. Against the computer alone, no box."""
    for width, height in ((390, 844), (1280, 800)):
        created = server.create("erd", {"best_of": 3}, ["human", "human"])
        match = created["match"]
        server.join(created, 0)
        friend = watch(chromium.new_context(viewport={"width": width, "height": height}).new_page())
        friend.goto(f"{server.url}/play/{match}#token={created['seats'][1]['token']}")
        box = friend.wait_for_selector("#name-box:not([hidden])")
        assert "The others see you as Blue" in box.inner_text()
        friend.fill("#name-input", "Bea")
        friend.click("#name-box button[type=submit]")
        friend.wait_for_selector("#name-box", state="hidden")
        assert "Blue (Bea, you)" in friend.inner_text("#seats")
        assert [s["name"] for s in server.get(f"/api/matches/{match}")["seats"]][1] == "Bea"
        assert friend.evaluate("localStorage.getItem('meeple-name')") == "Bea"
        friend.context.close()
    # "No thanks": not offered again in the tab, a reload included.
    created = server.create("erd", {"best_of": 3}, ["human", "human"])
    server.join(created, 0)
    shy = watch(chromium.new_context(viewport={"width": 1280, "height": 800}).new_page())
    shy.goto(f"{server.url}/play/{created['match']}#token={created['seats'][1]['token']}")
    shy.wait_for_selector("#name-box:not([hidden])")
    shy.click("#name-box .name-dismiss")
    shy.wait_for_selector("#name-box", state="hidden")
    shy.reload()
    shy.wait_for_selector("body[data-status='playing']")
    assert shy.locator("#name-box:not([hidden])").count() == 0
    # Alone against the computer, nobody reads the name: no box.
    created = server.create("erd", {"best_of": 3}, ["human", "easy"])
    alone = watch(chromium.new_context(viewport={"width": 1280, "height": 800}).new_page())
    alone.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    alone.wait_for_selector("body[data-status='playing']")
    assert alone.locator("#name-box:not([hidden])").count() == 0
    assert not page_errors, page_errors
