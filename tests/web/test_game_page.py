"""The game page around the picture: pie rule, typed moves, clocks, spectators, resign,
rematch, and reconnecting after the server went away."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from meeple.games.triangle_clock.cards import SYMBOL_NAMES, palette_swap, parse_symbol, right_angle
from meeple.interfaces.web.client import ServerProcess
from tests import plain_http
from tests.web.browser import BARE_TURN, HEAR, Frames, each, no_server_errors
from tests.web.conftest import Server


def _open(context, server, created, seat: int = 0):
    page = context.new_page()
    frames = Frames().attach(page)
    token = created["seats"][seat]["token"]
    page.goto(f"{server.url}/play/{created['match']}#token={token}")
    page.wait_for_selector("body[data-status='playing']")
    return page, frames


def _both_seats(chromium, server, created, watch, size: tuple[int, int]):
    """Each seat's page of a two-person match, in a browser of its own (another person), once
    both have joined and the match is being played."""
    pages = []
    for seat in (0, 1):
        context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
        page = watch(context.new_page())
        page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][seat]['token']}")
        pages.append(page)
    for page in pages:  # playing once both have joined
        page.wait_for_selector("body[data-status='playing']")
    return pages


def test_the_pie_rule_is_taken_by_clicking_the_first_pyramid(server, context, watch):
    created = server.create("edges", {"board": "2x2", "first": 1}, ["human", "greedy"])
    page, frames = _open(context, server, created)
    watch(page)
    page.wait_for_selector(".edges-pie-offer")
    page.click("#board .clickable[data-hint*='pie rule']")
    assert "pie" in page.inner_text("#board .building")
    page.click("#board .clickable[data-move='pie S']")
    page.wait_for_function("() => Number(document.body.dataset.seq) >= 2")
    assert server.get(f"/api/matches/{created['match']}")["seq"] >= 2
    assert page.locator("#log li", has_text="pie S").count() == 1
    no_server_errors(frames)


def test_a_move_is_typed_the_clock_counts_and_a_spectator_only_watches(
    server, chromium, context, watch, page_errors
):
    # Best of 3: the random agent's first answer can end a game but not the match, so the
    # spectator arrives while it is still being played.
    created = plain_http.post(
        f"{server.url}/api/matches",
        json={
            "game": "erd",
            "options": {"best_of": 3},
            "seats": ["human", "random"],
            "move_seconds": 90,
        },
    ).json()
    page, frames = _open(context, server, created)
    watch(page)
    assert re.search(r"you: 1:(2|3)\d", page.inner_text("#clock"))
    page.click("#legal-box summary")
    assert page.locator("#legal .legal-move").count() > 10
    # The box shows what typing takes: one of the seat's own moves, as its text.
    first = page.locator("#legal .legal-move").first.inner_text()
    assert page.get_attribute("#notation", "placeholder") == f"or type a move, as: {first}"
    page.fill("#notation", "rush=DDD defense=HHH")
    page.press("#notation", "Enter")
    page.wait_for_function("() => Number(document.body.dataset.seq) >= 1")
    no_server_errors(frames)

    watcher = watch(chromium.new_context().new_page())
    watcher.goto(f"{server.url}/play/{created['match']}")
    watcher.wait_for_selector("body[data-status='playing']")
    watcher.wait_for_selector("#board svg")
    assert "(watching)" in watcher.inner_text("#title")
    assert watcher.locator("#board .clickable").count() == 0
    assert watcher.is_hidden("#resign") and watcher.is_hidden("#typed")
    assert not page_errors, page_errors


def test_a_spectator_waiting_for_the_players_is_not_asked_to_share_a_link(
    server, chromium, watch, page_errors
):
    """The seat's link is its player's to send: the spectator only hears whom the match
    awaits, the player also what to do about it."""
    created = server.create("edges", {"board": "2x2"}, ["human", "human"])
    player = watch(chromium.new_context().new_page())
    player.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    watcher = watch(chromium.new_context().new_page())
    watcher.goto(f"{server.url}/play/{created['match']}")
    for page in (player, watcher):
        page.wait_for_selector("body[data-status='waiting']")
    said = player.inner_text("#turn")
    assert said == "Waiting for Blue to join — they join with their seat's link", said
    assert watcher.inner_text("#turn") == "Waiting for Blue to join"
    # The seat waits for its link: "invited", as the lobby says, not open to anyone.
    assert player.inner_text("#seats .seat-1 .seat-kind") == "invited"
    # A listed match's open seat has no link: anyone takes it from the lobby.
    listed = server.create("edges", {"board": "2x2"}, ["human", "open"])
    player.goto(f"{server.url}/play/{listed['match']}#token={listed['seats'][0]['token']}")
    player.wait_for_selector("body[data-status='waiting']")
    said = player.inner_text("#turn")
    assert said == "Waiting for Blue to join — anyone can take the seat from the lobby", said
    assert player.inner_text("#seats .seat-1 .seat-kind") == "open seat"
    assert not page_errors, page_errors


def test_resigning_asks_twice_and_the_rematch_opens_your_new_seat(server, context, watch):
    created = server.create("edges", {"board": "2x2"}, ["human", "greedy"])
    page, _ = _open(context, server, created)
    watch(page)
    page.click("#resign")
    page.wait_for_timeout(300)
    assert server.get(f"/api/matches/{created['match']}")["status"] == "playing"
    page.click("#resign")
    page.wait_for_selector("#end:not([hidden]) .end-title")
    # the seat as the page names it, not the server's "Red (seat 0)"
    assert page.inner_text("#end .end-reason") == "Red resigned"
    page.click("#rematch")
    page.wait_for_url(re.compile(r"/play/(?!" + created["match"] + r")[^#]+#token="))
    page.wait_for_selector("body[data-status='playing']")
    new = server.get(f"/api/matches/{created['match']}")["rematch"]
    assert new and new in page.url


def test_one_who_offered_a_rematch_and_closed_the_page_goes_to_their_seat_in_it(
    server, chromium, watch, page_errors
):
    """Ann offers a rematch and closes her page; Bob accepts: she was sent no link. Her
    page opened again (the seat kept in her browser) reaches the end box, and "Go to the
    rematch" takes her to her seat in it (it answered "a rematch exists already")."""
    created = server.create("edges", {"board": "2x2"}, ["human", "human"])
    match = created["match"]
    ann = watch(chromium.new_context(viewport={"width": 1280, "height": 800}).new_page())
    ann.goto(f"{server.url}/play/{match}#token={created['seats'][0]['token']}")
    server.join(created, 1)
    ann.wait_for_selector("body[data-status='playing']")
    for _ in range(2):  # asks twice, as resigning does
        ann.click("#resign")
    ann.wait_for_selector("#end:not([hidden]) #rematch")
    ann.click("#rematch")
    ann.wait_for_selector("#rematch:disabled")  # offered: waiting for Blue
    address = ann.url
    ann.goto(f"{server.url}/")  # her page closed; her seat is kept in the browser
    accepted = plain_http.post(
        f"{server.url}/api/matches/{match}/rematch", json={"token": created["seats"][1]["token"]}
    )
    new = accepted.json()["match"]
    ann.goto(address)
    ann.wait_for_selector("#end:not([hidden]) #rematch:has-text('Go to the rematch')")
    ann.click("#rematch")
    ann.wait_for_url(re.compile(rf"/play/{new}#token="))
    ann.wait_for_selector("body[data-status='waiting']")  # for Bob, who has not opened it
    assert ann.inner_text("#title").endswith("you are Blue")  # Red before: turned round
    assert server.get(f"/api/matches/{new}")["seats"][1]["joined"]
    assert not page_errors, page_errors


def test_a_match_waiting_for_its_people_is_called_off_and_nobody_wins(
    server, context, watch, page_errors
):
    created = server.create("erd", {}, ["human", "human"])
    page = watch(context.new_page())
    page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("body[data-status='waiting']")  # Blue's link is not opened
    assert page.inner_text("#resign") == "Call off"
    page.click("#resign")
    assert page.inner_text("#resign") == "Really call off? Click again"
    page.click("#resign")
    page.wait_for_selector("#end:not([hidden]) .end-title")
    assert page.inner_text("#end .end-title") == "Nobody won"
    assert "called the match off before it began" in page.inner_text("#end")
    assert server.get(f"/api/matches/{created['match']}")["result"]["winners"] == []
    assert not page_errors, page_errors


def test_the_page_reconnects_and_resyncs_after_the_server_restarts(
    context, watch, page_errors, tmp_path
):
    process = ServerProcess(f"sqlite:///{tmp_path / 'restart.db'}", tmp_path / "log", 0).start()
    try:
        server = Server(process)
        # Best of 3: one round can end a game but not the match, so the person is to move
        # again after the restart whatever the random agent chose.
        created = server.create("erd", {"best_of": 3}, ["human", "random"])
        page, _ = _open(context, server, created)
        watch(page)
        page.fill("#notation", "rush=DDD defense=HHH")
        page.press("#notation", "Enter")
        page.wait_for_function("() => Number(document.body.dataset.seq) >= 2")
        process.stop()
        page.wait_for_selector(".conn-wait")
        # Cleared, so that what is read below is the state drawn after the reconnection.
        page.evaluate("delete document.body.dataset.seq")
        process.start()
        page.wait_for_selector(".conn-on", timeout=30_000)
        page.wait_for_function("() => document.body.dataset.seq !== undefined")
        # The state drawn, with its log: the computer may have moved since (the server's seq).
        seq, numbers = page.evaluate(
            "[Number(document.body.dataset.seq), [...document.querySelectorAll('#log li')]"
            ".map(e => e.value)]"
        )
        assert seq >= 2 and seq <= server.get(f"/api/matches/{created['match']}")["seq"]
        assert numbers == list(range(1, seq + 1))  # the log came back whole, once
        assert page.locator("#board .clickable").count() > 0
    finally:
        process.kill()
    assert not page_errors, page_errors


@pytest.mark.parametrize("answer", ["accept", "decline"])
def test_a_rematch_between_people_is_offered_and_accepted_or_declined(
    server, chromium, watch, answer
):
    """One person offers; the other's page asks "Accept / Decline"; nobody is moved into a
    match they did not accept."""
    created = server.create("edges", {"board": "2x2"}, ["human", "human"])
    pages = _both_seats(chromium, server, created, watch, (390, 844))
    ann, bob = pages
    ann.click("#resign")
    ann.click("#resign")
    for page in pages:
        page.wait_for_selector("#end:not([hidden]) .end-title")
    ann.click("#rematch")
    ann.wait_for_selector("#rematch[disabled]")
    assert "waiting for" in ann.inner_text("#rematch")
    bob.wait_for_selector("#rematch-offer")
    assert "offers a rematch" in bob.inner_text("#rematch-offer")
    # told where Bob is looking too (on a phone the box is below the picture), once
    assert bob.locator("#toasts").inner_text().count("offers a rematch") == 1
    assert server.get(f"/api/matches/{created['match']}")["rematch"] is None
    if answer == "decline":
        bob.click("#decline-rematch")
        ann.wait_for_selector("#rematch-declined")
        assert "declined the rematch" in ann.inner_text("#rematch-declined")
        bob.wait_for_timeout(800)
        assert created["match"] in bob.url and created["match"] in ann.url
        assert server.get(f"/api/matches/{created['match']}")["rematch"] is None
        return
    bob.click("#rematch")
    for page in pages:
        page.wait_for_url(re.compile(r"/play/(?!" + created["match"] + r")[^#]+#token="))
    new = server.get(f"/api/matches/{created['match']}")["rematch"]
    assert new in ann.url and new in bob.url
    for page in pages:
        page.wait_for_selector("body[data-status='playing']")
    # Neither gave a name, so each was called by their seat: in the rematch, by the new
    # seat's name, never "Red (Blue)" for the one who played Blue before.
    assert [s["label"] for s in server.get(f"/api/matches/{new}")["seats"]] == ["Red", "Blue"]
    assert "(Blue)" not in ann.inner_text("#seats") + ann.inner_text("#turn")


def test_a_match_resigned_mid_decision_shows_nobody_as_having_chosen(
    server, chromium, watch, page_errors
):
    """Once over, nobody is choosing: the seat list drops the "has chosen" of the decision
    the resign cut short."""
    created = server.create("erd", {}, ["human", "human"])
    pages = _both_seats(chromium, server, created, watch, (1280, 800))
    ann, bob = pages
    ann.fill("#notation", "rush=DDD defense=HHH")
    ann.press("#notation", "Enter")
    bob.wait_for_selector("#seats .seat-0 .has-chosen")
    ann.click("#resign")
    ann.click("#resign")
    for page in pages:
        page.wait_for_selector("#end:not([hidden]) .end-title")
        assert page.locator("#seats .has-chosen").count() == 0
    assert not page_errors, page_errors


def test_a_rematch_offered_to_someone_who_has_gone_says_so(server, chromium, watch, page_errors):
    """The offer waits for every person; one whose page closed is named as gone, so the one
    who offered is not left waiting without knowing why."""
    created = server.create("edges", {"board": "2x2"}, ["human", "human"])
    pages = _both_seats(chromium, server, created, watch, (390, 844))
    ann, bob = pages
    ann.click("#resign")
    ann.click("#resign")
    ann.wait_for_selector("#end:not([hidden]) .end-title")
    ann.click("#rematch")
    ann.wait_for_selector("#rematch[disabled]")
    assert ann.locator("#rematch-gone").count() == 0  # Bob is still there
    bob.context.close()
    gone = ann.wait_for_selector("#rematch-gone")
    assert gone.inner_text().startswith("Blue has gone (their page is closed)")
    assert not page_errors, page_errors


def test_erds_piles_being_built_outlive_a_reload_until_sent_or_overtaken(
    server, chromium, watch, page_errors
):
    """A reload, or a visit to the lobby and back, lost the piles a player had built, and so
    did the other seat's allocation coming in; they are kept for the seat's decision in this
    tab, and gone once sent."""
    created = server.create("erd", {}, ["human", "human"])
    server.join(created, 1)
    match, tokens = created["match"], [s["token"] for s in created["seats"]]
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = watch(context.new_page())
    url = f"{server.url}/play/{match}#token={tokens[0]}"
    building = "#board .erd-builder .building"

    def at_the_table() -> str:
        page.wait_for_selector(".erd-builder .erd-pick.clickable")
        # The piles as a move (data-move); the words say each pile's count.
        return page.get_attribute(building, "data-move") or ""

    page.goto(url)
    assert at_the_table().startswith("rush=- defense=-")
    picks = page.locator(".erd-builder .erd-pick.clickable")
    picks.nth(0).click()
    page.wait_for_selector(f"{building}[data-move^='rush=H ']")
    assert page.inner_text(building).startswith("Rush 1 of 3 · Defense 0 of 3")
    picks.nth(1).click()
    page.wait_for_selector(f"{building}[data-move^='rush=HL ']")
    built = at_the_table()
    assert built.startswith("rush=HL defense=-"), built
    page.reload()
    assert at_the_table() == built
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.goto(url)
    assert at_the_table() == built

    # The other seat allocates: a new seq, but the same decision for this seat (the other's
    # choice changes nothing it may choose), so its piles stay, through a reload too.
    other = watch(context.new_page())
    other.goto(f"{server.url}/play/{match}#token={tokens[1]}")
    other.wait_for_selector("#legal .legal-move", state="attached")
    move = other.locator("#legal .legal-move").first.text_content()
    other.fill("#notation", move)
    other.press("#notation", "Enter")
    page.wait_for_selector("body[data-seq='1']")
    assert at_the_table() == built
    page.reload()
    assert at_the_table() == built
    kept = f"JSON.parse(sessionStorage.getItem('meeple-building:{match}'))"
    assert page.evaluate(kept)["decision"] == 0

    # Sent: nothing of it is kept once the move has gone (the next round's empty piles may
    # be, for the next decision).
    page.locator("#legal-box summary").click()
    page.locator("#legal .legal-move").first.click()
    page.press("#notation", "Enter")
    page.wait_for_selector("body[data-seq='2']")
    after = page.evaluate(kept)
    assert after is None or (after["decision"] >= 2 and not after["selection"].get("rush")), after
    assert not page_errors, page_errors
    context.close()


def test_a_move_overtaken_by_the_other_seat_says_so_in_a_player_s_words(
    server, chromium, watch, page_errors
):
    """The race a real table meets: Tock takes a Mulligan while Tick clicks, and Tick's move,
    chosen before the Mulligan reached the page, is refused as stale. The page says what
    happened in a player's words (not the server's "stale move ... move 2") and plays on.

    Before it, the memorise step: Tick's "memorised" reveals and decides nothing, and Tock's
    page says what it was, as the terminal does, never "has chosen"; Tock's own memorising,
    then its Mulligan, each lead to its next decision, which the game's prompt names. Tick,
    waiting, reads that Tock is memorising, not "Tock to move"."""
    created = server.create(
        "triangle-clock", {"memorise_seconds": 60, "choice_seconds": 0}, ["human", "human"]
    )
    server.join(created, 1)
    match, tokens = created["match"], [s["token"] for s in created["seats"]]
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    held: list[str] = []
    relays: list[Any] = []
    hold = False

    def relay(route: Any) -> None:
        # Tick's socket through a relay that can hold back what the server says to it.
        upstream = route.connect_to_server()
        route.on_message(upstream.send)
        upstream.on_message(lambda message: held.append(message) if hold else route.send(message))
        relays.append(route)

    def typed(page: Any, move: str, seq: int | None = None) -> None:
        page.fill("#notation", move)
        page.press("#notation", "Enter")
        if seq is not None:
            page.wait_for_selector(f"body[data-seq='{seq}']")

    def held_back(text: str) -> None:
        deadline = time.monotonic() + 20
        while not any(text in str(message) for message in held):
            assert time.monotonic() < deadline, f"{text} never came: {held}"
            tick.wait_for_timeout(50)

    tick = watch(context.new_page())
    tick.route_web_socket(re.compile(r".*/ws/.*"), relay)
    tock = watch(context.new_page())
    tick.goto(f"{server.url}/play/{match}#token={tokens[0]}")
    tock.goto(f"{server.url}/play/{match}#token={tokens[1]}")
    for page in (tick, tock):
        page.wait_for_selector("body[data-status='playing']")
    tock.evaluate(HEAR)
    typed(tick, "memorised", 1)
    tock.wait_for_selector("body[data-seq='1']")
    memorised = "Tick: memorised the order of shared symbols for rounds 1 to 16"
    assert tock.inner_text("#log li:last-child") == memorised
    assert tock.locator("#seats .has-chosen").count() == 0
    assert tock.inner_text(".tc-seat-0 .tc-wait") == "memorised ✓"
    assert tock.inner_text("#turn") == "Your move"  # no choice is asked of it
    assert tick.inner_text("#turn") == "Tock is memorising the order…"  # not "Tock to move"
    typed(tock, "memorised", 2)
    tick.wait_for_selector("body[data-seq='2']")

    hold = True
    typed(tock, "mulligan", 3)
    heard = tock.evaluate("window.heard")
    asked = "You: first choice: a symbol from a card (round 1 of 32)."
    assert heard == [f"{memorised}.", asked, asked] and not BARE_TURN & set(heard), heard
    held_back('"seq":3,')  # the Mulligan's state, not yet on Tick's page
    pick = tick.locator("#legal .legal-move").first.text_content()
    typed(tick, pick)  # chosen at move 2
    held_back('"code":"stale_move"')
    hold = False
    for message in held:
        relays[-1].send(message)

    toast = tick.locator("#toasts .toast-error")
    toast.wait_for()
    assert toast.inner_text() == (
        "The match moved on before your move arrived: look again and choose."
    )
    tick.wait_for_selector("body[data-seq='3']")
    typed(tick, tick.locator("#legal .legal-move").first.text_content(), 4)
    assert not page_errors, page_errors
    context.close()


def test_a_person_who_resigned_a_three_seat_match_watches_the_computer_play_their_seat(
    server, chromium, watch, page_errors
):
    # Ann starts; once she resigns, the computer plays her seat and the others play on.
    created = server.create("erosion", {"players": 3, "first": 0}, ["human", "human", "random"])
    server.join(created, 1)
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page, frames = _open(context, server, created)
    watch(page)
    # Bob, in a browser of his own, is told once as it happens (the seat list alone changed).
    bob, _ = _open(
        chromium.new_context(viewport={"width": 1280, "height": 800}), server, created, 1
    )
    watch(bob)
    assert page.inner_text("#turn") == "Your move"
    assert page.inner_text("#board .er-era") == "Turn 1"  # one era: no "Era 1 of 1"
    page.click("#resign")
    page.click("#resign")
    page.wait_for_function(
        "() => document.querySelector('#seats .seat-0').textContent.includes('resigned')"
    )
    bob.wait_for_function(
        "() => document.querySelector('#toasts').textContent"
        ".includes('resigned: the computer plays')"
    )
    assert bob.locator("#toasts").inner_text().count("Alps") == 1
    # Not "Your move": the seat is the computer's now, and the page says so.
    turn = page.inner_text("#turn")
    assert turn.startswith("You resigned:") and "the computer" in turn, turn
    assert page.locator("#resign").is_hidden() and page.locator("#typed").is_hidden()
    assert page.locator("#board .clickable").count() == 0
    no_server_errors(frames)
    assert not page_errors


def test_erosion_s_action_bar_names_the_mountain_the_table_waits_for(server, chromium, watch):
    created = server.create(
        "erosion", {"players": 5, "first": 0}, ["human", "human", *["random"] * 3]
    )
    server.join(created, 0)
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page, _ = _open(context, server, created, seat=1)
    watch(page)
    # Not "the others": four of them wait too, and one mountain is to move.
    assert page.inner_text("#board .er-building") == "waiting for Alps…"
    assert page.inner_text("#board .er-era") == "Era 1 of 2 · turn 1"


def test_five_seats_have_five_colours_in_the_seat_list_and_the_log(server, chromium, watch):
    created = server.create("erosion", {"players": 5, "first": 4}, ["human", *["random"] * 4])
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page, _ = _open(context, server, created)
    watch(page)
    page.wait_for_selector("#log .seat-dot.seat-4")
    edges = each(page, "#seats .seat", "e => getComputedStyle(e).borderLeftColor")
    dots = each(page, "#log .seat-dot.seat-4", "e => getComputedStyle(e).backgroundColor")
    assert len(set(edges)) == 5, edges  # the fifth seat is not drawn in the first's red
    assert set(dots) == {edges[4]} and edges[4] != edges[0], dots


def test_a_choice_on_its_way_is_not_offered_again_when_the_other_seat_s_arrives_first(
    server, chromium, watch, page_errors
):
    """In a simultaneous decision the other seat's choice can reach the server just before
    this page's, and its state reach the page before the state with the page's own choice.
    The page forgot its move on its way at any newer state and offered the decision again:
    a second choice was refused as stale, though the first had been taken."""
    created = server.create("erd", {"best_of": 3}, ["human", "human"])
    server.join(created, 1)
    match, tokens = created["match"], [s["token"] for s in created["seats"]]
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    held: list[str] = []
    relays: list[Any] = []
    holding = [True]

    def relay(route: Any) -> None:
        # Red's socket through a relay that holds back everything the server says to it
        # until the test lets it through; then what was held goes first, in order.
        upstream = route.connect_to_server()
        route.on_message(upstream.send)

        def from_server(message: str) -> None:
            if holding[0] or held:
                held.append(message)
            else:
                route.send(message)

        upstream.on_message(from_server)
        relays.append(route)

    def release() -> None:
        # What arrives while it sends is held behind the rest, and sent in its turn.
        while held:
            relays[-1].send(held.pop(0))

    red, blue = watch(context.new_page()), watch(context.new_page())
    red.route_web_socket(re.compile(r".*/ws/.*"), relay)
    red.goto(f"{server.url}/play/{match}#token={tokens[0]}")
    blue.goto(f"{server.url}/play/{match}#token={tokens[1]}")
    blue.wait_for_selector("body[data-status='playing']")
    deadline = time.monotonic() + 20
    while red.get_attribute("body", "data-seq") != "0":
        assert time.monotonic() < deadline, "Red's page never drew the match"
        release()
        red.wait_for_timeout(50)
    blue.fill("#notation", "rush=HLD defense=HLD")
    blue.press("#notation", "Enter")
    blue.wait_for_selector("body[data-seq='1']")  # Blue's choice is move 1
    red.fill("#notation", "rush=HLD defense=HLD")
    red.press("#notation", "Enter")  # quoting move 0: taken as move 2
    while not any('"type":"ack"' in m.replace(" ", "") for m in held):
        assert time.monotonic() < deadline, "Red's move was never acknowledged"
        red.wait_for_timeout(50)
    first = next(m for m in held if '"seq":1,' in m.replace(" ", "") and '"state"' in m)
    relays[-1].send(first)  # Blue's choice reaches Red's page; Red's own is still held
    red.wait_for_selector("body[data-seq='1']")
    assert red.inner_text("#turn") == "Move sent…"
    assert red.locator("#board .clickable").count() == 0
    # Everything else, Red's own state among it: the server may send that state a moment
    # after the ack, so the relay stops holding rather than hand over only what it has.
    holding[0] = False
    release()
    red.wait_for_selector("body[data-seq='2']")
    assert not red.locator("#toasts .toast-error").count()
    assert not page_errors, page_errors
    context.close()


def test_a_tab_out_of_sight_says_in_its_title_that_it_is_the_player_s_move(
    server, chromium, watch, page_errors
):
    """A tab out of sight draws no frame (its browser runs no animation frame), yet its
    title says "Your move" as soon as the opponent's move arrives, as lichess's tabs do, so
    that a player who went to another tab sees it from the tab strip; the mover's own tab
    no longer says so once its move is sent."""
    created = server.create("edges", {"board": "2x2", "first": 0}, ["human", "human"])
    mover = watch(chromium.new_context().new_page())
    away_context = chromium.new_context()
    # As a tab out of sight: the page is never given an animation frame, so draws nothing.
    away_context.add_init_script("window.requestAnimationFrame = () => 0;")
    away = watch(away_context.new_page())
    away.goto(created["seats"][1]["join_url"])
    mover.goto(created["seats"][0]["join_url"])
    mover.wait_for_selector("body[data-status='playing']")
    # Polled by a timer: Playwright's default polling waits for animation frames.
    away.wait_for_function("() => document.title === 'Edges — meeple'", polling=100)
    assert mover.title() == "Your move · Edges — meeple"
    mover.fill("#notation", "L h0,0")
    mover.press("#notation", "Enter")
    away.wait_for_function("() => document.title.startsWith('Your move')", polling=100)
    assert away.title() == "Your move · Edges — meeple"
    assert away.locator("#board svg").count() == 0, "the tab out of sight drew a frame"
    mover.wait_for_function("() => document.title === 'Edges — meeple'")
    assert not page_errors, page_errors


def test_a_move_that_comes_after_a_wait_or_out_of_sight_chimes_unless_sound_is_off(
    server, chromium, watch, page_errors
):
    """The chime (js/chime.js) sounds when a seat is asked its move in a tab out of sight
    or after a wait, not for a reply that comes while the player looks on; the Sound button
    turns it off, and the choice outlives a reload."""
    created = server.create("edges", {"board": "2x2", "first": 0}, ["human", "human"])
    context = chromium.new_context()
    mover, away = (watch(chromium.new_context().new_page()), watch(context.new_page()))
    away.goto(created["seats"][1]["join_url"])
    mover.goto(created["seats"][0]["join_url"])
    for page in (mover, away):
        page.wait_for_selector("body[data-status='playing']")
    chimes = "() => Number(document.body.dataset.chimes || 0)"
    # As a tab out of sight (the player went to another tab).
    away.evaluate("() => Object.defineProperty(document, 'hidden', { get: () => true })")
    for move, page, other in (("L h0,0", mover, away), ("L h2,1", away, mover)):
        page.fill("#notation", move)
        page.press("#notation", "Enter")
        other.wait_for_function("() => document.title.startsWith('Your move')")
    assert away.evaluate(chimes) == 1, "the tab out of sight was not chimed"
    assert mover.evaluate(chimes) == 0, "a reply that came at once chimed"
    assert away.inner_text("#sound") == "Sound: on"
    away.click("#sound")
    assert away.inner_text("#sound") == "Sound: off"
    away.reload()
    away.wait_for_selector("body[data-status='playing']")
    assert away.inner_text("#sound") == "Sound: off"  # kept in this browser
    away.evaluate("() => Object.defineProperty(document, 'hidden', { get: () => true })")
    mover.fill("#notation", "M h1,0")
    mover.press("#notation", "Enter")
    away.wait_for_function("() => document.title.startsWith('Your move')")
    assert away.evaluate(chimes) == 0, "the chime sounded with the sound off"
    assert not page_errors, page_errors


def test_the_memorise_countdown_goes_on_through_a_reload(server, chromium, watch):
    """A reload of the page started The Triangle Clock's memorise countdown again at its full
    seconds (1:59 beside a clock at 1:50): it counts down to the server's deadline."""
    created = server.create("triangle-clock", {"memorise_seconds": 60}, ["human", "random"])
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = watch(context.new_page())
    page.goto(created["seats"][0]["join_url"])
    page.wait_for_selector(".tc-memorise .tc-countdown:has-text('left')")
    time.sleep(3)
    page.reload()
    page.wait_for_selector(".tc-memorise .tc-countdown:has-text('left')")
    shown = page.inner_text(".tc-memorise .tc-countdown")
    minutes, seconds = re.fullmatch(r"\s*— (\d+):(\d\d) left", shown).groups()
    assert 60 * int(minutes) + int(seconds) <= 57, shown
    context.close()


def test_the_triangle_clock_s_cards_show_what_a_pick_reveals_with_the_items_on(server, chromium):
    """With Right Angle on, the cards still showed their own symbols; only the move's text
    said "+right-angle". Each symbol that can be picked now shows the symbol it would
    reveal ("Ss→Ws"), as the rules turn it (cards.right_angle, cards.palette_swap)."""
    created = server.create("triangle-clock", {"choice_seconds": 0}, ["human", "random"])
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(created["seats"][0]["join_url"])
    page.click(".tc-memorise .tc-button")
    page.wait_for_selector(".tc-hand-area .tc-half.clickable")
    names = page.locator(".tc-hand-area .tc-half .tc-name").all_text_contents()
    assert all("→" not in n for n in names), names
    turns = {"right-angle": right_angle, "palette-swap": palette_swap}
    for item in ("right-angle", "palette-swap"):
        page.click(f".tc-token-{item}.clickable")
    page.wait_for_selector(".tc-hand-area .tc-half.tc-preview")
    shown = page.locator(".tc-hand-area .tc-half.clickable .tc-name").all_text_contents()
    assert len(shown) == 8, shown
    for text in shown:
        name, turned = text.split("→")
        symbol = parse_symbol(name)
        for item in ("palette-swap", "right-angle"):
            symbol = turns[item](symbol)
        assert turned == SYMBOL_NAMES[symbol], text
    context.close()
