"""Screenshots of the pages for docs/web.md: run by ``make screenshots``, not by default.

One PNG per game page at 1280x800 and at phone width (390x844), a few moves into a match,
plus the lobby and a replay. They are generated, never committed (docs/web/*.png is
ignored); docs/web.md shows them.
"""

from __future__ import annotations

import random

import pytest

from tests.web.browser import Frames, click_once, moves_sent, status
from tests.web.conftest import SCREENSHOT_DIR
from tests.web.test_games import FAST

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def _a_few_moves_in(page, frames: Frames, moves: int) -> None:
    rng = random.Random(5)
    for _ in range(300):
        if moves_sent(page) >= moves or status(page) == "finished":
            break
        if not click_once(page, frames, rng):
            page.wait_for_timeout(50)
    page.wait_for_timeout(400)


@pytest.mark.screenshots
@pytest.mark.parametrize("size", list(SIZES))
def test_screenshots_of_every_page(server, chromium, size):
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    width, height = SIZES[size]
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    for game, (options, agent) in FAST.items():
        options = {k: v for k, v in options.items() if k != "memorise_seconds"}
        created = server.create(
            game,
            {**options, "choice_seconds": 0} if game == "triangle-clock" else options,
            ["human", agent],
        )
        frames = Frames().attach(page)
        page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
        page.wait_for_selector("body[data-status='playing']")
        _a_few_moves_in(page, frames, 0 if game == "triangle-clock" else 3)
        page.screenshot(path=SCREENSHOT_DIR / f"{game}-{size}.png", full_page=True)
    page.goto(f"{server.url}/")
    page.wait_for_selector("#open li")
    page.screenshot(path=SCREENSHOT_DIR / f"lobby-{size}.png", full_page=True)
    finished = server.get("/api/matches?status=finished")
    if finished:
        page.goto(f"{server.url}/replay?match={finished[0]['match']}")
        page.wait_for_selector("body[data-step='0']")
        page.keyboard.press("End")
        page.wait_for_timeout(300)
        page.screenshot(path=SCREENSHOT_DIR / f"replay-{size}.png", full_page=True)
    context.close()
