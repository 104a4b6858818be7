"""The seats a browser holds: a player who leaves the game page gets the seat back.

The lobby and the game page keep each match's seat token in localStorage (``js/seats.js``),
as boardgame.io's lobby and lichess do: the lobby offers "Resume" (the seat's link) for a
match the browser holds a seat in, /play/<match> without a token takes the seat back, and
a match is forgotten once its token is unknown to the server (kept once it is over).
"""

from __future__ import annotations

import re

from meeple.interfaces.web.client import ServerProcess
from tests import plain_http
from tests.web.browser import seat_token
from tests.web.conftest import Server

SEATS = """() => Object.fromEntries(JSON.parse(localStorage.getItem('meeple-seats') || '[]')
  .map((s) => [s.match, s]))"""


def test_a_player_who_leaves_the_game_page_resumes_from_the_lobby(
    server, context, watch, page_errors
):
    page = watch(context.new_page())
    page.goto(f"{server.url}/?game=edges")
    page.wait_for_selector(".game-card")
    page.click("#more > summary")
    page.fill("#opt-board", "2x2")
    page.click("#create-button")  # against the computer (hard): straight to the table
    page.wait_for_url(re.compile(r"/play/[^#]+#token="), timeout=60_000)
    match, token = re.search(r"/play/([^#]+)#token=(.+)$", page.url).groups()
    page.wait_for_selector("body[data-status='playing']")
    assert "you are Red" in page.inner_text("#title")
    assert page.evaluate(SEATS)[match]["token"] == token

    page.click("a.brand")  # the logo: back to the lobby, the address's token gone
    resume = page.wait_for_selector(f"#live li[data-match='{match}'] a.resume")
    assert resume.get_attribute("href") == f"/play/{match}#token={token}"
    assert page.locator(f"#live li[data-match='{match}'] a.watch").count() == 0
    resume.click()
    page.wait_for_selector("body[data-status='playing']")
    assert "you are Red" in page.inner_text("#title")

    # The address without its token, typed or from the Live list of another tab: the
    # browser's seat is taken back, not watched.
    page.goto(f"{server.url}/play/{match}")
    page.wait_for_selector("body[data-status='playing']")
    assert "you are Red" in page.inner_text("#title")
    assert page.url.endswith(f"#token={token}")

    # Over: kept, so that the seat's address opened again is its end box (a rematch offered
    # meanwhile is accepted there), and the lobby offers no Resume for it.
    plain_http.post(
        f"{server.url}/api/matches/{match}/resign", json={"token": token}
    ).raise_for_status()
    page.wait_for_selector("body[data-status='finished']")
    assert page.evaluate(SEATS)[match]["token"] == token
    page.goto(f"{server.url}/play/{match}")
    page.wait_for_selector("body[data-status='finished'] #end #rematch")
    page.goto(f"{server.url}/")
    page.wait_for_selector(f"#finished li[data-match='{match}']")
    assert page.locator(f"li[data-match='{match}'] a.resume").count() == 0
    assert not page_errors, page_errors


def test_a_token_the_server_does_not_know_is_forgotten_and_the_page_watches(
    server, context, watch, page_errors
):
    created = server.create("edges", {"board": "2x2"}, ["human", "random"])
    match = created["match"]
    page = watch(context.new_page())
    page.goto(f"{server.url}/")
    page.evaluate(
        "([m]) => localStorage.setItem('meeple-seats',"
        " JSON.stringify([{match: m, token: 'not-a-token-of-it', seat: 0}]))",
        [match],
    )
    page.goto(f"{server.url}/play/{match}")
    page.wait_for_selector("body[data-status='waiting']")  # the seat's person is not there
    assert page.inner_text("#conn") == "watching"
    assert "(watching)" in page.inner_text("#title")
    assert "#token" not in page.url
    assert match not in page.evaluate(SEATS)
    assert not page_errors, page_errors


def test_the_browser_keeps_the_fifty_newest_seats(server, context, watch, page_errors):
    page = watch(context.new_page())
    page.goto(f"{server.url}/")
    kept = page.evaluate(
        """async () => {
          const seats = await import('/static/js/seats.js');
          for (let i = 0; i < 60; i += 1) seats.rememberSeat(`m${i}`, `t${i}`, 0);
          seats.rememberSeat('m10', 't10', 0);  // taken again: the newest
          return JSON.parse(localStorage.getItem('meeple-seats')).map((s) => s.match);
        }"""
    )
    assert kept == [f"m{i}" for i in range(11, 60)] + ["m10"]
    assert not page_errors, page_errors


def test_a_seat_refused_for_now_is_kept_and_taken_when_there_is_room(
    tmp_path, context, watch, page_errors
):
    """4429 (past the address's share) is "later", not "never": before, the second tab of
    a seat, one socket over the address's limit, showed "This link does not open the
    match" and forgot the browser's seat."""
    process = ServerProcess(
        f"sqlite:///{tmp_path / 'server.db'}",
        tmp_path / "server.log",
        0,
        ("--max-sockets-per-client", "1"),
    ).start()
    try:
        created = Server(process).create("edges", {"board": "2x2"}, ["human", "random"])
        match, token = created["match"], created["seats"][0]["token"]
        first = watch(context.new_page())
        first.goto(f"{process.url}/play/{match}#token={token}")
        first.wait_for_selector("body[data-status='playing']")
        second = watch(context.new_page())
        second.goto(f"{process.url}/play/{match}#token={token}")
        second.wait_for_function(
            "() => document.querySelector('#conn').textContent.includes('close a tab first')"
        )
        assert "reconnecting in" in second.inner_text("#conn")
        assert second.locator("#refused").count() == 0
        own = seat_token(first)  # the first tab took the seat with its link
        assert own != token and second.evaluate(SEATS)[match]["token"] == own
        first.close()  # room again: the second tab takes the seat
        second.wait_for_selector("body[data-status='playing']", timeout=30_000)
        second.wait_for_function(
            "() => document.querySelector('#conn').textContent === 'connected'"
        )
        assert "you are Red" in second.inner_text("#title")
        assert not page_errors, page_errors
    finally:
        process.kill()


def test_your_matches_lists_the_private_and_waiting_matches_this_browser_holds(
    server, context, watch, page_errors
):
    """A private match, or one still waiting for the friend its link went to, is in no
    list of the lobby: a player who left its page found no Resume anywhere, though the
    page's refusals point to it, and the limit of unfinished matches named none (a
    newcomer's finding). "Your matches" lists this browser's unfinished ones."""
    page = watch(context.new_page())
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    assert page.locator("#mine-box").is_hidden()
    page.click("#more > summary")
    page.select_option("#game", "edges")
    page.fill("#opt-board", "2x2")
    page.select_option("#seat-1", "human")
    page.uncheck("#listed")

    def create() -> tuple[str, str]:
        shown = page.locator("#play-mine").count()
        before = page.get_attribute("#play-mine", "href") if shown else None
        page.click("#create-button")
        page.wait_for_function(
            "(before) => { const a = document.querySelector('#created #play-mine');"
            " return a && a.getAttribute('href') !== before; }",
            arg=before,
        )
        found = re.search(r"/play/([^#]+)#token=(.+)$", page.get_attribute("#play-mine", "href"))
        return found.group(1), found.group(2)

    (match, token), (other, _) = create(), create()
    page.goto(f"{server.url}/")  # the player leaves; the match is in no other list
    row = page.wait_for_selector(f"#mine li[data-match='{match}']")
    assert "Edges" in row.inner_text() and "invited" in row.inner_text()
    assert row.query_selector("a.resume").get_attribute("href") == f"/play/{match}#token={token}"
    elsewhere = f"#open li[data-match='{match}'], #live li[data-match='{match}']"
    assert page.locator(elsewhere).count() == 0
    # Over, it leaves the list.
    plain_http.post(
        f"{server.url}/api/matches/{match}/resign", json={"token": token}
    ).raise_for_status()
    page.reload()
    page.wait_for_selector(f"#mine li[data-match='{other}']")
    assert page.locator(f"#mine li[data-match='{match}']").count() == 0
    assert not page_errors, page_errors
