"""The replay page's Review panel: marks, the graph of winning chances, and a click on a
marked decision moves the replay there (js/review.js, docs/web.md "Review")."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.web.conftest import SCREENSHOT_DIR
from tests.web.test_accessibility import serious
from tests.web.test_screenshots import SIZES, _shot

REVIEW_SECONDS = 120
"""How long a 2x2 game's review may take here (a process started for it, a shared machine)."""


def _reviewed_match(server) -> tuple[str, dict]:
    """A finished 2x2 Edges match, random against greedy, whose review marks a decision
    (random play almost always gives something away; a few matches are tried); its id and
    review."""
    for _ in range(4):
        match = server.create("edges", {"board": "2x2"}, ["random", "greedy"])["match"]
        deadline = time.monotonic() + 60
        while server.get(f"/api/matches/{match}")["status"] != "finished":
            assert time.monotonic() < deadline, "two agents did not finish a 2x2 board"
            time.sleep(0.2)
        deadline = time.monotonic() + REVIEW_SECONDS
        while (
            reply := httpx.get(f"{server.url}/api/matches/{match}/review", timeout=10)
        ).status_code != 200:
            assert reply.status_code == 202, reply.text
            assert time.monotonic() < deadline, "no review in time"
            time.sleep(0.5)
        review = reply.json()
        if any(d["mark"] for d in review["decisions"]):
            return match, review
    raise AssertionError("four games of random play gave nothing away")


def test_a_game_is_reviewed_when_asked(server, context, watch, page_errors):
    """Not reviewed yet: the panel offers a review (nothing is computed before), and a
    click computes it while the page waits."""
    match = server.create("edges", {"board": "2x2"}, ["random", "random"])["match"]
    deadline = time.monotonic() + 60
    while server.get(f"/api/matches/{match}")["status"] != "finished":
        assert time.monotonic() < deadline, "two agents did not finish a 2x2 board"
        time.sleep(0.2)
    page = watch(context.new_page())
    page.goto(f"{server.url}/replay?match={match}")
    page.wait_for_selector("#review[data-state='offered']")
    page.click("#review-start")
    page.wait_for_selector("#review[data-state='done']", timeout=REVIEW_SECONDS * 1000)
    assert page.locator("#review svg.review-chart").count() == 1
    assert "Judged by exact" in page.inner_text("#review")
    assert not page_errors, page_errors


def test_the_review_marks_decisions_draws_the_chances_and_jumps_there(
    server, context, watch, page_errors
):
    match, review = _reviewed_match(server)
    page = watch(context.new_page())
    page.goto(f"{server.url}/replay?match={match}")
    page.wait_for_selector("body[data-step='0']")
    page.wait_for_selector("#review[data-state='done']", timeout=REVIEW_SECONDS * 1000)

    marked = [d for d in review["decisions"] if d["mark"]]
    buttons = page.locator("#review .review-move")
    assert buttons.count() == len(marked)
    assert page.locator("#review .review-move .review-mark").first.inner_text() == marked[0]["mark"]
    # The graph: one line through every position, a dot per marked decision.
    assert page.locator("#review svg.review-chart path.review-line").count() == 1
    assert page.locator("#review svg circle.review-dot").count() == len(marked)
    assert page.locator("#review svg circle.review-ring").count() == len(review["turning"])
    assert not serious(page)  # axe-core: the panel is readable and reachable
    # The move list carries the marks too.
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-step='{review['moves']}']")
    assert page.locator("#log .review-mark").count() == len(marked)

    page.keyboard.press("Home")
    page.wait_for_selector("body[data-step='0']")
    target = marked[-1]
    page.locator(f"#review .review-move[data-n='{target['n']}']").click()
    page.wait_for_selector(f"body[data-step='{target['n']}']")
    if target["best"] != target["action"]:
        assert target["best"] in page.locator("#review .review-list").inner_text()
    assert not page_errors, page_errors


@pytest.mark.screenshots
@pytest.mark.parametrize("size", list(SIZES))
def test_screenshot_of_the_review(server, chromium, size):
    """docs/web/review-<size>.png: the replay of a reviewed match, a marked decision
    chosen, the Review panel in view (``make screenshots``)."""
    match, review = _reviewed_match(server)
    width, height = SIZES[size]
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{server.url}/replay?match={match}")
    page.wait_for_selector("#review[data-state='done']", timeout=REVIEW_SECONDS * 1000)
    first = next(d for d in review["decisions"] if d["mark"])
    page.locator(f"#review .review-move[data-n='{first['n']}']").click()
    page.wait_for_selector(f"body[data-step='{first['n']}']")
    page.locator("#review").scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    _shot(page, SCREENSHOT_DIR / f"review-{size}.png", full_page=False)
    context.close()
