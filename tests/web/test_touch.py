"""A player on a phone, by touch alone (390x844, a touch screen, no mouse): every control is
big enough for a finger and every move's words fit a tap."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}

# The page's controls shown now, outside the game's picture (whose parts each module sizes),
# that are under 44 CSS px either way: [what, width, height]. A checkbox is measured by its
# label, which takes the tap with it.
SMALL_CONTROLS = """() => [...document.querySelectorAll(
    'button, a.button, select, input, summary, .top a')]
  .filter((e) => !e.closest('#board') && e.getClientRects().length
    && !e.closest('details:not([open]) > :not(summary)'))
  .map((e) => [e, e.type === 'checkbox' ? e.closest('label') || e : e])
  .map(([e, t]) => [e.id || e.textContent.trim().slice(0, 30) || e.outerHTML.slice(0, 60),
    Math.round(t.getBoundingClientRect().width), Math.round(t.getBoundingClientRect().height)])
  .filter(([, w, h]) => w < 44 || h < 44)"""


def phone_page(chromium: Any) -> Any:
    """A new page in a phone's context: a touch screen at 390x844."""
    return chromium.new_context(**PHONE).new_page()


def test_every_control_of_the_lobby_is_a_finger_s_size(server, chromium):
    """The lobby's lists, buttons and boxes were 31 px tall and its links 19 px: under the
    44 px a tap needs (WCAG 2.5.5)."""
    page = phone_page(chromium)
    page.goto(f"{server.url}/")
    page.wait_for_selector("#learn-edges")
    page.locator("#more > summary").tap()
    page.wait_for_selector("#seat-1")
    assert page.evaluate(SMALL_CONTROLS) == []


def test_every_control_of_the_game_page_is_a_finger_s_size(server, chromium):
    """The game page's "Board as text", "legal moves" and "Fair deal" were 16 to 19 px tall,
    under even WCAG 2.5.8's least (24 px), its buttons 31 px; the Rules panel's close 36 px;
    the end box's Rematch, Replay and Lobby 31 px."""
    page = phone_page(chromium)
    created = server.create("edges", {"first": 0}, ["human", "random"])
    page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("body[data-status='playing'] #board .clickable")
    assert page.evaluate(SMALL_CONTROLS) == []
    page.locator("#rules-button").tap()
    page.wait_for_selector(".rules-close")
    assert page.evaluate(SMALL_CONTROLS) == []
    page.locator(".rules-close").tap()
    page.locator("#resign").tap()
    page.locator("#resign").tap()
    page.wait_for_selector("body[data-status='finished'] #rematch")
    assert page.evaluate(SMALL_CONTROLS) == []


def test_the_pages_say_tap_to_a_touch_screen(server, chromium):
    """A phone has no clicks: Edges said "click an edge to place a pyramid on it" and the
    Resign button "Really resign? Click again" to a player who taps (a mouse's page still
    says click, tests/web/test_game_page.py)."""
    page = phone_page(chromium)
    created = server.create("edges", {"first": 0}, ["human", "random"])
    page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("body[data-status='playing'] #board .building")
    assert page.inner_text("#board .building") == "tap an edge to place a pyramid on it"
    # An edge tapped: said in words ("? h0,0 — choose a pyramid" was the notation's).
    edge = page.locator("#board .clickable[data-hint='edge h0,0']")
    edge.first.tap()
    building = page.locator("#board .building")
    expect(building).to_have_text("edge h0,0: choose the pyramid to place on it")
    page.locator("#resign").tap()
    assert page.inner_text("#resign") == "Really resign? Tap again"


def test_erds_table_keeps_its_width_on_a_phone_turned_round(server, chromium):
    """At 844x390 Erd's table was fitted into the short window above its builder: a strip a
    quarter of the window wide, the Reserve's words 5 px high. It takes the board's width
    and scrolls under the builder, as it does on a phone held upright."""
    page = chromium.new_context(**{**PHONE, "viewport": {"width": 844, "height": 390}}).new_page()
    created = server.create("erd", {}, ["human", "random"])
    page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("body[data-status='playing'] .erd-builder .erd-pick.clickable")
    # The table's scale on the screen: its drawing's width against its own units.
    scale = page.evaluate("document.querySelector('.erd-table').getScreenCTM().a")
    label = page.locator(".erd-label").first.bounding_box()
    assert scale >= 0.5 and label and label["height"] >= 12, (scale, label)


def test_the_review_s_marked_decisions_are_a_finger_s_size(server, chromium):
    """The replay's Review listed each marked decision as a 20 px tall button, one under
    the other: the one beside was as easy to tap as the one meant."""
    from tests.web.shots import REVIEW_SECONDS, reviewed_match

    match, _ = reviewed_match(server, "edges")
    page = phone_page(chromium)
    page.goto(f"{server.url}/replay?match={match}")
    page.wait_for_selector("#review[data-state='done']", timeout=REVIEW_SECONDS * 1000)
    assert page.locator("#review .review-move").count()
    assert page.evaluate(SMALL_CONTROLS) == []


def test_a_tap_shows_what_a_mouse_sees_on_hover(server, chromium):
    """The computer seat's agent, an Erd game's full ending, an Erosion rock's kind: said
    in a ``title`` only, which a finger cannot hover. A tap on it shows it as a toast."""
    page = phone_page(chromium)
    created = server.create("edges", {"first": 0}, ["human", "random"])
    page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("body[data-status='playing'] #board .clickable")
    computer = page.locator("#seats .seat-name[title$='agent random']")
    computer.tap()
    # Beside the note that the seat's link made the seat this browser's, which came first.
    said = page.wait_for_selector("#toasts .toast:has-text('agent random')")
    assert said.inner_text() == computer.get_attribute("title")


def test_no_tutorial_tells_a_finger_to_click():
    """A tutorial's words are read on a phone too: "Click the glowing pyramid" asked a
    player with no mouse to click. They say choose, right for a finger and a mouse alike."""
    from pathlib import Path

    import meeple.games

    games = Path(meeple.games.__file__).parent
    said = [
        f"{path.parent.name}: {line.strip()}"
        for path in sorted(games.glob("*/tutorial.toml"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.search(r"\b(click|hover|press|right-click|double-click)", line, re.IGNORECASE)
    ]
    assert said == []
