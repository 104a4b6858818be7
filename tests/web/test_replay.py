"""The replay page: a finished match stepped through, by buttons, keys and an uploaded file."""

from __future__ import annotations

import json

import pytest

from meeple.core.record import GameRecord
from tests import plain_http
from tests.web.browser import tab_to


def _finished_match(server) -> str:
    created = server.create("edges", {"board": "2x2"}, ["random", "greedy"])
    match = created["match"]
    server.finished(match, 30)
    return match


def test_a_finished_match_is_stepped_through(server, context, watch, page_errors):
    """Opened while a reverse proxy answers for the restarting server (its own 502, an HTML
    page), the page says the server is not answering and asks for the record again, as the
    Review panel does, instead of stopping with an error; then the match is stepped through."""
    match = _finished_match(server)
    moves = len(server.get(f"/api/matches/{match}/record")["moves"])
    page = watch(context.new_page())
    refused = []

    def proxy_down_once(route):
        if refused:
            route.continue_()
            return
        refused.append(route.request.url)
        route.fulfill(status=502, content_type="text/html", body="<html>502</html>",
                      headers={"Retry-After": "1"})  # fmt: skip

    page.route("**/api/matches/*/record", proxy_down_once)
    page.goto(f"{server.url}/replay?match={match}")
    said = page.wait_for_selector("#board [role=status]:has-text('not answering')").inner_text()
    assert said == "The server is not answering; trying again in 1 s."
    page.wait_for_selector("body[data-step='0']")
    assert len(refused) == 1

    # A proxy's Retry-After is waited at most a minute; a date (not seconds) or a negative
    # number leaves the caller's own wait (0).
    def proxy_says(header: str):
        return lambda route: route.fulfill(
            status=503, content_type="text/html", body="busy", headers={"Retry-After": header}
        )

    asked = "async () => (await import('/static/js/common.js')).ask('/api/proxy-said')"
    for header, waited in (("3600", 60), ("Wed, 21 Oct 2026 07:28:00 GMT", 0), ("-5", 0)):
        page.route("**/api/proxy-said", proxy_says(header))
        assert page.evaluate(asked)["retry"] == waited, header
        page.unroute("**/api/proxy-said")
    # The game by its title, as the lobby names it, not its id ("edges").
    assert page.inner_text("#title") == f"Replay — Edges ({moves} moves)"
    assert page.title() == "Replay: Edges — meeple"
    assert page.inner_text("#position") == f"start (0 / {moves})"
    assert page.locator("#board svg").count() > 0  # drawn by games/edges.js
    assert page.locator("#board .clickable").count() == 0  # a replay offers no moves

    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-step='1']")
    assert page.locator("#log li").count() == 1
    page.click("#next")
    page.wait_for_selector("body[data-step='2']")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("body[data-step='1']")
    page.click("#last")
    page.wait_for_selector(f"body[data-step='{moves}']")
    assert page.is_visible("#end .end-title")
    assert page.locator("#log li").count() == moves
    # Once over, every seat's eyes may be chosen.
    assert page.is_visible("#eyes-box")
    page.select_option("#eyes", "1")
    assert "Blue (you)" in page.inner_text("#board")
    page.keyboard.press("Home")
    page.wait_for_selector("body[data-step='0']")
    assert not page_errors, page_errors


def test_the_replay_is_stepped_by_keyboard_and_said_to_a_screen_reader(server, context):
    """Tab to ▶ and press Enter to the end: each step is said in the live region
    (``#announce``) with the move that led there, and the focus, when ▶ is disabled at the
    last move, goes to ◀, not to the page; ◀◀ hands it to ▶ the same way."""
    match = _finished_match(server)
    moves = len(server.get(f"/api/matches/{match}/record")["moves"])
    page = context.new_page()
    page.goto(f"{server.url}/replay?match={match}")
    page.wait_for_selector("body[data-step='0']")
    while page.evaluate("document.activeElement.id") != "next":
        page.keyboard.press("Tab")
    for step in range(1, moves + 1):
        page.keyboard.press("Enter")
        page.wait_for_selector(f"body[data-step='{step}']")
        said = f"move {step} / {moves}: {page.text_content('#log li:last-child').strip()}."
        page.wait_for_function(
            "(s) => document.querySelector('#announce p:last-child')?.textContent === s", arg=said
        )
    assert page.evaluate("document.activeElement.id") == "prev"
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")  # ◀◀
    page.wait_for_selector("body[data-step='0']")
    assert page.evaluate("document.activeElement.id") == "next"


def test_an_uploaded_record_is_replayed(server, context, watch, page_errors, tmp_path):
    match = _finished_match(server)
    record = server.get(f"/api/matches/{match}/record")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    page = watch(context.new_page())
    page.goto(f"{server.url}/replay")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("body[data-step='0']")
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-step='{len(record['moves'])}']")
    assert page.is_visible("#end .end-title")

    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "edges", "moves": "nonsense"}')
    page.set_input_files("#file", str(bad))
    assert "could not be replayed" in page.wait_for_selector(".toast-error").inner_text()
    assert not page_errors, page_errors


def test_a_match_dealt_from_a_128_bit_seed_replays_from_the_lobby(
    server, context, watch, page_errors
):
    """Read as a JSON number, such a seed would be rounded to a double, and a game dealt
    from the rounded seed (The Triangle Clock shuffles its deck by it) would not replay."""
    created = server.create("triangle-clock", {}, ["random", "random"])
    match = created["match"]
    done = server.finished(match, 60)
    assert int(done["seed"]) >= 2**53  # not a double's integer: 1 in 2**75 to miss
    moves = len(server.get(f"/api/matches/{match}/record")["moves"])
    page = watch(context.new_page())
    page.goto(f"{server.url}/replay?match={match}")
    page.wait_for_selector("body[data-step='0']")
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-step='{moves}']")
    assert not page_errors, page_errors


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_the_file_chooser_is_not_cut(server, chromium, size):
    """At 220 px the chooser's own text read "No fil…osen": it has the width it needs."""
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{server.url}/replay")
    page.wait_for_selector("#file")
    shown, needed, right = page.evaluate(
        """() => {
          const input = document.querySelector('#file');
          const free = input.cloneNode();
          free.removeAttribute('id');
          free.style.cssText = 'position: absolute; max-width: none; width: auto';
          document.body.append(free);
          const needed = free.getBoundingClientRect().width;
          free.remove();
          const rect = input.getBoundingClientRect();
          return [rect.width, needed, rect.right];
        }"""
    )
    assert shown >= needed - 0.5, (shown, needed)
    assert right <= size[0], right
    context.close()


def test_through_a_seats_eyes_a_choice_not_yet_revealed_says_only_has_chosen(
    server, context, watch, page_errors
):
    """As ``meeple replay --seat`` and the game page do: after Red's secret allocation and
    before Blue's, Blue's eyes see in the move list that Red has chosen, not what; the
    choice shows once the decision is complete. A spectator after the match sees it all."""
    created = server.create("erd", {}, ["random", "random"], seed=5)
    match = created["match"]
    server.finished(match, 60)
    first = server.get(f"/api/matches/{match}/record")["moves"][0]
    page = watch(context.new_page())
    page.goto(f"{server.url}/replay?match={match}&step=1")
    page.wait_for_selector("body[data-step='1']")
    assert first[1] in page.inner_text("#log")  # the spectator, after the match
    page.select_option("#eyes", str(1 - first[0]))
    entry = page.inner_text("#log li:last-child")
    assert entry.endswith("has chosen") and first[1] not in entry, entry
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-step='2']")
    assert first[1] in page.inner_text("#log li:first-child")  # revealed with the decision
    assert not page_errors, page_errors


def test_a_link_to_a_step_past_the_end_opens_at_the_end(server, context, watch, page_errors):
    match = _finished_match(server)
    moves = len(server.get(f"/api/matches/{match}/record")["moves"])
    page = watch(context.new_page())
    page.goto(f"{server.url}/replay?match={match}&step={moves + 50}")
    page.wait_for_selector(f"body[data-step='{moves}']")
    assert page.is_visible("#end .end-title")
    page.goto(f"{server.url}/replay?match={match}&step=-3")
    page.wait_for_selector("body[data-step='0']")
    assert not page_errors, page_errors


def test_the_board_as_text_follows_the_step_and_the_eyes(server, context, watch, page_errors):
    """The game page's "Board as text", in the same place (after the result, before the
    moves), by keyboard: the terminal's board at the step shown, as the eyes chosen see it,
    asked of the server only for the step the reader stops at; in the text, End scrolls it
    and does not jump to the last move."""
    match = _finished_match(server)
    record = GameRecord.model_validate(server.get(f"/api/matches/{match}/record"))
    states = record.states()
    game = states[0].game
    asked = []
    page = watch(context.new_page())
    page.on("request", lambda r: "/api/replay/board-text" in r.url and asked.append(r.url))
    page.goto(f"{server.url}/replay?match={match}&step=1")
    page.wait_for_selector("body[data-step='1']")
    assert page.evaluate("document.querySelector('#board-text-box + h3').textContent") == "Moves"
    tab_to(page, "#board-text-box > summary", presses=30)
    page.keyboard.press("Enter")

    def shows(step: int, seat: int | None) -> None:
        text = game.render_text(states[step], seat)
        page.wait_for_function(
            "(t) => document.querySelector('#board-text').textContent === t", arg=text
        )

    shows(1, None)
    assert page.text_content("#board-text-caption") == (
        "Edges: the board as a spectator sees it, after move 1"
    )
    assert len(asked) == 1
    # Stepping on, by the Next button and then by key: only the step the reader stops at is
    # asked for. The five steps run within one of the page's tasks: pressed one by one, a
    # loaded machine can take longer between two than the page's rest before it asks
    # (BOARD_REST_MS), and the page rightly asks for a step the reader rested at.
    page.evaluate(
        """() => {
          document.getElementById("next").click();
          const right = { key: "ArrowRight", bubbles: true };
          for (let i = 0; i < 4; i += 1) {
            document.body.dispatchEvent(new KeyboardEvent("keydown", right));
          }
        }"""
    )
    page.wait_for_selector("body[data-step='6']")
    shows(6, None)
    assert len(asked) == 2, asked
    page.select_option("#eyes", "1")
    shows(6, 1)
    caption = page.text_content("#board-text-caption")
    assert caption.startswith("Edges: the board as Blue · Computer (") and caption.endswith(
        "sees it, after move 6"
    ), caption
    page.focus("#board-text")
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")  # the arrows still step the replay
    page.wait_for_selector("body[data-step='5']")
    shows(5, 1)
    page.keyboard.press("ArrowRight")  # a step seen before: kept, not asked again
    shows(6, 1)
    assert len(asked) == 4, asked
    assert not page_errors, page_errors


# nginx's own answer to a body past its client_max_body_size: HTML, which the page cannot
# read as the server's {"error": ...}.
NGINX_413 = """<html>
<head><title>413 Request Entity Too Large</title></head>
<body>
<center><h1>413 Request Entity Too Large</h1></center>
<hr><center>nginx/1.22.1</center>
</body>
</html>
"""


def test_a_proxys_own_refusal_is_said_in_words(server, context, watch, page_errors, tmp_path):
    """A reverse proxy in front of the server answers some requests itself, with an HTML page
    (nginx's 413 for a record past its ``client_max_body_size``) and, over HTTP/2, no status
    text: the page says what the status means, not "413 " (docs/security.md, On the
    internet). Its 502 while the server restarts is asked again: see
    test_a_finished_match_is_stepped_through."""
    page = watch(context.new_page())
    page.route(
        "**/api/replay",
        lambda route: route.fulfill(status=413, content_type="text/html", body=NGINX_413),
    )
    page.goto(f"{server.url}/replay")
    record = tmp_path / "game.json"
    record.write_text('{"game": "edges", "moves": []}')
    page.set_input_files("#file", str(record))
    said = page.wait_for_selector(".toast-error").inner_text()
    assert said == "that record could not be replayed: larger than this site accepts (HTTP 413)"
    assert not page_errors, page_errors


@pytest.mark.parametrize("game", ["erosion", "triangle-clock"])
def test_a_replay_waits_for_nobody(server, context, watch, page_errors, game):
    """A step of a finished match is a move already made: the game page's 'waiting for
    Alps…' (Erosion) and 'waiting for the opponent…' (The Triangle Clock) read as a live
    match there, through every seat's eyes and a spectator's."""
    match = server.create(game, {}, ["random", "random"], seed=3)["match"]
    server.finished(match, 60)
    page = watch(context.new_page())
    page.goto(f"{server.url}/replay?match={match}&step=1")
    page.wait_for_selector("body[data-step='1']")
    for eyes in ("spectator", "0", "1"):
        page.select_option("#eyes", eyes)
        for step in range(1, 4):
            page.wait_for_selector(f"body[data-step='{step}']")
            assert "waiting" not in page.inner_text("#board"), (eyes, step)
            page.click("#next")
        page.click("#first")
        page.click("#next")
    assert not page_errors, page_errors


def test_a_person_called_as_an_agent_is_replayed_as_a_person(server, context, watch, page_errors):
    """A person may be called "random" (an agent's spec, read alone): the server's record
    says which seats were people (`people`), so the replay names them, not "Computer
    (random)"."""
    created = server.create("edges", {"board": "2x2"}, ["human", "easy"])
    match = created["match"]
    token = plain_http.take_seat(server.url, match, created["seats"][0]["token"], name="random")
    reply = plain_http.post(f"{server.url}/api/matches/{match}/resign", json={"token": token})
    assert reply.status_code == 200, reply.text
    record = server.get(f"/api/matches/{match}/record")
    assert record["seats"][0] == "random" and record["people"] == [0]
    page = watch(context.new_page())
    page.goto(f"{server.url}/replay?match={match}")
    page.wait_for_selector("body[data-step='0']")
    page.keyboard.press("End")
    end = page.wait_for_selector("#end:not([hidden])").inner_text()
    assert "Red (random) resigned" in end and "Red · Computer" not in end, end
    assert "Blue · Computer (easy) won" in end, end  # the real computer still is one
    assert not page_errors, page_errors
