"""Hints on the game page (js/hint.js): against the computer a Hint button shows the move
the server's judge suggests, with its why, and marks it in the picture; between people
there is no button. The screenshots of a hint in every game (marker ``screenshots``) are
for docs/web.md."""

from __future__ import annotations

import pytest

from tests.web.browser import at_the_table
from tests.web.shots import HINTS, SIZES, ask_for_a_hint, hint_shot


def test_a_hint_in_edges_shows_the_move_its_why_and_marks_its_edge(server, context, watch):
    page = watch(context.new_page())
    frames, best = ask_for_a_hint(server, page, "edges")
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
@pytest.mark.parametrize("game", list(HINTS))
def test_screenshot_of_a_hint(shots_server, chromium, game, size):
    """docs/web/hint-<game>-<size>.png: a hint asked against the computer, shown with its
    why and marked in the picture (``make screenshots``)."""
    hint_shot(shots_server, chromium, game, size)


def test_the_hint_asked_by_keyboard_keeps_the_focus(server, chromium):
    """Enter on Hint: the focus stays on the button while the server thinks and after it
    answers (a button disabled under the focus would drop it to the page)."""
    context, page = at_the_table(
        chromium, server, "edges", {"board": "2x2", "first": 0}, (1280, 800)
    )
    page.wait_for_selector("#hint:not([disabled])")
    page.focus("#hint")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hint-text:not([hidden])", timeout=30_000)
    assert page.evaluate("document.activeElement.id") == "hint"
    context.close()
