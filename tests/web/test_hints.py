"""Hints on the game page (js/hint.js): against the computer a Hint button shows the move
the server's judge suggests, with its why, and marks it in the picture; between people
there is no button. The screenshots of a hint (marker ``screenshots``) are for docs/web.md."""

from __future__ import annotations

import pytest

from tests.web.browser import Frames
from tests.web.conftest import SCREENSHOT_DIR
from tests.web.test_screenshots import SIZES, _shot


def _ask_for_a_hint(server, page) -> tuple[Frames, str]:
    """An Edges match against the computer, the Hint clicked on the person's turn: the
    frames the page received and the move suggested."""
    # The person places the first pyramid (the first seat is drawn from the seed otherwise).
    created = server.create("edges", {"first": 0}, ["human", "greedy"])
    frames = Frames().attach(page)
    page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("#hint:not([disabled])", timeout=30_000)
    page.click("#hint")
    page.wait_for_selector("body:not([data-hint=''])[data-hint]", timeout=60_000)
    return frames, page.get_attribute("body", "data-hint")


def test_a_hint_in_edges_shows_the_move_its_why_and_marks_its_edge(server, context, watch):
    page = watch(context.new_page())
    frames, best = _ask_for_a_hint(server, page)
    state = frames.latest_state()
    assert best in {m["text"] for m in state["legal"]}
    text = page.inner_text("#hint-text")
    assert text.startswith(f"Try {best}") and "square" in text
    edge = best.split()[-1]
    marked = page.locator("#board .hint-mark")
    assert marked.count() >= 1
    assert marked.first.get_attribute("data-hint") == f"edge {edge}"
    # Playing the hint clears it: the next decision has none until asked.
    marked.first.click()
    page.click(f"[data-move='{best}']")
    page.wait_for_function(
        "(seq) => Number(document.body.dataset.seq) > seq", arg=state["seq"], timeout=30_000
    )
    assert page.locator("#board .hint-mark").count() == 0
    assert not page.is_visible("#hint-text")


def test_there_is_no_hint_button_between_people(server, context, watch):
    created = server.create("edges", {}, ["human", "human"])
    pages = [watch(context.new_page()) for _ in created["seats"]]
    for page, seat in zip(pages, created["seats"], strict=True):  # both people there
        page.goto(f"{server.url}/play/{created['match']}#token={seat['token']}")
    for page in pages:
        page.wait_for_selector("body[data-status='playing']")
        assert page.locator("#hint").count() == 1 and not page.is_visible("#hint")


@pytest.mark.screenshots
@pytest.mark.parametrize("size", list(SIZES))
def test_screenshot_of_a_hint(server, chromium, size):
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    width, height = SIZES[size]
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    _ask_for_a_hint(server, page)
    page.wait_for_timeout(300)
    _shot(page, SCREENSHOT_DIR / f"hint-edges-{size}.png")
    context.close()
