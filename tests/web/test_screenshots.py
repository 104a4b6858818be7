"""Screenshots of the pages for docs/web.md: run by ``make screenshots``, not by default.

One PNG per game page at 1280x800 and at phone width (390x844), a few moves into a match,
plus the Rules panel over Erd's page, the lobby and a replay (the hint and the review of
every game: tests/web/test_hints.py and tests/web/test_review_page.py, through
tests/web/shots.py). They are committed, so that docs/web.md shows them on any code host,
each reduced to a palette of colours so that it stays small (about 100 KB at most:
tests/test_docs.py checks the files exist).
"""

from __future__ import annotations

import random

import pytest

from tests import plain_http
from tests.web.browser import Frames, click_expected, click_once, moves_sent, status
from tests.web.shots import SEED, SIZES, finished_match, new_page, shot
from tests.web.test_games import FAST


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
def test_screenshots_of_every_page(shots_server, chromium, size):
    server = shots_server
    page = new_page(chromium, size)
    for game, (options, agent) in FAST.items():
        options = {k: v for k, v in options.items() if k != "memorise_seconds"}
        created = server.create(
            game,
            {**options, "choice_seconds": 0} if game == "triangle-clock" else options,
            ["human", agent],
            SEED,
        )
        frames = Frames().attach(page)
        page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
        page.wait_for_selector("body[data-status='playing']")
        _a_few_moves_in(page, frames, 0 if game == "triangle-clock" else 3)
        shot(page, f"{game}-{size}")
        if game == "erd":  # the Rules panel, as a player opens it mid-match
            page.click("#rules-button")
            page.wait_for_selector("#rules-panel[open] .rules-body h2")
            page.wait_for_timeout(300)
            shot(page, f"rules-{size}", full_page=False)
            page.keyboard.press("Escape")
    page.goto(f"{server.url}/")
    page.wait_for_selector("#open li")
    shot(page, f"lobby-{size}")
    # A match of its own, so that the replay is pictured whichever tests ran before.
    page.goto(f"{server.url}/replay?match={finished_match(server, 'edges', seed=SEED)}")
    page.wait_for_selector("body[data-step='0']")
    page.keyboard.press("End")
    page.wait_for_timeout(300)
    shot(page, f"replay-{size}")
    page.context.close()


# The tutorial step photographed per game (its index): one a rule is introduced at.
TUTORIAL_SHOTS = {"edges": 0, "erd": 2, "triangle-clock": 2, "erosion": 1, "squad-combat": 1}


@pytest.mark.screenshots
@pytest.mark.parametrize("size", list(SIZES))
def test_screenshots_of_a_tutorial_step(server, chromium, size):
    page = new_page(chromium, size)
    for game, step in TUTORIAL_SHOTS.items():
        reply = plain_http.post(f"{server.url}/api/tutorials/{game}", timeout=30)
        made = reply.json()
        page.goto(f"{server.url}/play/{made['match']}#token={made['seats'][0]['token']}")
        page.wait_for_function("() => document.body.dataset.expected")
        for _ in range(step):
            click_expected(page)
            page.wait_for_function("() => document.body.dataset.expected")
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(300)
        # The viewport only: what a newcomer sees, the prompt over the marked move.
        shot(page, f"tutorial-{game}-{size}", full_page=False)
    page.context.close()
