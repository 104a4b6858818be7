"""Screenshots of the pages for docs/web.md: run by ``make screenshots``, not by default.

One PNG per game page at 1280x800 and at phone width (390x844), a few moves into a match,
plus the lobby and a replay. They are committed, so that docs/web.md shows them on any code
host, each reduced to a palette of colours so that it stays small (about 100 KB at most:
tests/test_docs.py checks the files exist).
"""

from __future__ import annotations

import random

import httpx
import pytest

from tests.web.browser import Frames, click_expected, click_once, moves_sent, status
from tests.web.conftest import SCREENSHOT_DIR
from tests.web.test_games import FAST

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def _shot(page, path, full_page: bool = True) -> None:
    """A screenshot at ``path`` (the full page, or the viewport), reduced to 64 colours (a
    page is flat colour and text: the picture reads the same at a fraction of the size)."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(page.screenshot(full_page=full_page))).convert("RGB")
    image.quantize(colors=64, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


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
        _shot(page, SCREENSHOT_DIR / f"{game}-{size}.png")
    page.goto(f"{server.url}/")
    page.wait_for_selector("#open li")
    _shot(page, SCREENSHOT_DIR / f"lobby-{size}.png")
    finished = server.get("/api/matches?status=finished")
    if finished:
        page.goto(f"{server.url}/replay?match={finished[0]['match']}")
        page.wait_for_selector("body[data-step='0']")
        page.keyboard.press("End")
        page.wait_for_timeout(300)
        _shot(page, SCREENSHOT_DIR / f"replay-{size}.png")
    context.close()


# The tutorial step photographed per game (its index): one a rule is introduced at.
TUTORIAL_SHOTS = {"edges": 0, "erd": 2, "triangle-clock": 2, "erosion": 1, "squad-combat": 1}


@pytest.mark.screenshots
@pytest.mark.parametrize("size", list(SIZES))
def test_screenshots_of_a_tutorial_step(server, chromium, size):
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    width, height = SIZES[size]
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    for game, step in TUTORIAL_SHOTS.items():
        reply = httpx.post(f"{server.url}/api/tutorials/{game}", timeout=30)
        made = reply.json()
        page.goto(f"{server.url}/play/{made['match']}#token={made['seats'][0]['token']}")
        page.wait_for_function("() => document.body.dataset.expected")
        for _ in range(step):
            click_expected(page)
            page.wait_for_function("() => document.body.dataset.expected")
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(300)
        # The viewport only: what a newcomer sees, the prompt over the marked move.
        _shot(page, SCREENSHOT_DIR / f"tutorial-{game}-{size}.png", full_page=False)
    context.close()
