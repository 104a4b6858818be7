"""The replay page's Review panel: marks, the graph of winning chances, and a click on a
marked decision moves the replay there (js/review.js, docs/web.md "Review")."""

from __future__ import annotations

import pytest

from tests.web.shots import (
    REVIEW_SECONDS,
    REVIEWS,
    SIZES,
    finished_match,
    review_shot,
    reviewed_match,
)
from tests.web.test_accessibility import serious


def test_a_game_is_reviewed_when_asked(server, context, watch, page_errors, console_errors):
    """Not reviewed yet: the panel offers a review (nothing is computed before), and a
    click computes it while the page waits. Asking whether a review is there is not an
    error: the browser's console logs none (a 404 for "none yet" once logged one)."""
    match = finished_match(server, "edges", ("random", "random"))
    page = watch(context.new_page())
    page.goto(f"{server.url}/replay?match={match}")
    page.wait_for_selector("#review[data-state='offered']")
    page.click("#review-start")
    page.wait_for_selector("#review[data-state='done']", timeout=REVIEW_SECONDS * 1000)
    assert page.locator("#review svg.review-chart").count() == 1
    # The judges in words, their names in brackets ("Judged by exact, uct 20000" was jargon).
    text = page.inner_text("#review")
    assert "Judged by the exact solver (perfect play from here) (exact)" in text, text
    better = page.locator(".review-better").all_inner_texts()
    assert all(" to " in b and "the move played" in b for b in better if "worth" in b), better
    assert not page_errors, page_errors
    assert not console_errors, console_errors


def test_a_review_asked_through_a_proxy_while_the_server_restarts_is_asked_again(
    server, context, watch, page_errors
):
    """A reverse proxy answers 502 (an HTML page, no code of the server's) while the
    server behind it restarts: the panel says so and asks again, where it gave up."""
    match = finished_match(server, "edges", ("random", "random"))
    page = watch(context.new_page())
    refused = []

    def proxy_down_once(route):
        if not refused:
            refused.append(route.request.url)
            route.fulfill(status=502, content_type="text/html", body="<html>502</html>",
                          headers={"Retry-After": "1"})  # fmt: skip
        else:
            route.continue_()

    page.route("**/api/matches/*/review?*", proxy_down_once)
    page.goto(f"{server.url}/replay?match={match}")
    said = page.wait_for_selector("#review .review-status:has-text('not answering')").inner_text()
    assert said == "The server is not answering; trying again in 1 s."
    page.wait_for_selector("#review[data-state='offered']")
    assert len(refused) == 1 and not page_errors, page_errors


def test_the_review_marks_decisions_draws_the_chances_and_jumps_there(
    server, context, watch, page_errors
):
    match, review = reviewed_match(server, "edges")
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
    # Moves worth "+0.16" (a search's expected result) and then "-2 points" (the solver's)
    # were listed under a legend naming winning chances alone: where both are, it says so.
    units = {d["unit"] for d in marked}
    legend = page.inner_text("#review .review-legend")
    both = "points where the solver did (exact, near the end)" in legend
    assert both == ("points" in units and len(units) > 1), (units, legend)
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
@pytest.mark.parametrize("game", list(REVIEWS))
def test_screenshot_of_the_review(shots_server, chromium, game, size):
    """docs/web/review-<game>-<size>.png: the replay of a reviewed match, its first marked
    decision chosen, the Review panel in view (``make screenshots``)."""
    review_shot(shots_server, chromium, game, size)
