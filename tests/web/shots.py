"""What the screenshot tests share (``make screenshots``, marker ``screenshots``): the two
sizes, the picture taken small, and the two scenes docs/web.md shows for every game: a hint
asked on the person's turn against the computer, and the review of a finished match.

docs/web/<name>-<game>-<size>.png is written for ``hint`` and ``review`` (and
<game>-<size>.png, lobby-<size>.png, replay-<size>.png by tests/web/test_screenshots.py).
"""

from __future__ import annotations

import io
import time
from typing import Any

from tests import plain_http
from tests.web.browser import Frames
from tests.web.conftest import SCREENSHOT_DIR

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
"""The two viewports every page is photographed at (a laptop, a phone held upright)."""

REVIEWS: dict[str, tuple[dict[str, Any], str]] = {
    "edges": ({"board": "2x2"}, "greedy"),  # solved exactly in seconds
    "erd": ({"best_of": 1}, "random"),
    "erosion": ({}, "random"),
    # Nobody's clock runs against the computer by default; 0 says so even if that changes.
    "triangle-clock": ({"choice_seconds": 0}, "random"),
    # A whole game, against the hand-written agent: the search judge marks only what its
    # tries can tell from chance, and eight turns of random play seldom give that away.
    "squad-combat": ({}, "heuristic"),
}
"""Per game: short options and a cheap computer opponent, for a whole match to review."""

HINTS: dict[str, tuple[dict[str, Any], str]] = {
    **REVIEWS,
    # The whole board; the person places the first pyramid (else the seed draws who starts).
    "edges": ({"first": 0}, "greedy"),
    # Against the equilibrium the server solves the rules, and the hint shows the solved mix.
    "erd": ({"best_of": 1}, "equilibrium"),
}
"""Per game: the options and the computer opponent of a match the person asks a hint in."""

REVIEW_SECONDS = 300
"""How long a game's review may take here (a process started for it, a shared machine; the
card games' search judges every decision)."""

SEED = 7
"""Every pictured match is seeded (and its agents with it), so that ``make screenshots`` run
again pictures the same games: what differs is what is drawn at random for each match (its
id, a commitment's hash), a few words, unless a page itself changed. One thing more: where
both seats choose at once (The Triangle Clock), the computer seats think in threads beside
each other and their picks are stored in whichever order they come, which a seat's view
shows ("submitted"): the reviews judge that, so The Triangle Clock's review can differ
between runs in a few marks."""

_reviewed: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {}


SHOT_BYTES = 100_000
"""The most a committed screenshot may take: fewer colours where 64 make it larger."""


def shot(page: Any, name: str, full_page: bool = True) -> None:
    """docs/web/<name>.png: the full page (or the viewport), reduced to 64 colours (a page
    is flat colour and text: the picture reads the same at a fraction of the size), or to
    fewer where that is over :data:`SHOT_BYTES` (a long lobby, a busy table)."""
    from PIL import Image

    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    viewport = page.viewport_size
    if full_page:
        # The whole page in the viewport: a bar that sticks to the viewport's bottom (Erd's
        # and Edges' move under construction) is drawn where the page ends, not over the
        # middle of a picture taller than the screen. A table sized by the viewport's height
        # grows with it, so the page is measured again until it fits.
        for _ in range(5):
            height = page.evaluate("document.documentElement.scrollHeight")
            if height <= page.viewport_size["height"]:
                break
            page.set_viewport_size({"width": viewport["width"], "height": height})
            page.wait_for_timeout(200)
    image = Image.open(io.BytesIO(page.screenshot(full_page=full_page))).convert("RGB")
    page.set_viewport_size(viewport)
    path = SCREENSHOT_DIR / f"{name}.png"
    for colors in (64, 48, 32, 24):
        image.quantize(colors=colors, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
        if path.stat().st_size <= SHOT_BYTES:
            break


def new_page(chromium: Any, size: str) -> Any:
    """A page in a fresh browser context at one of :data:`SIZES` (close its ``context``)."""
    width, height = SIZES[size]
    return chromium.new_context(viewport={"width": width, "height": height}).new_page()


def ask_for_a_hint(server: Any, page: Any, game: str) -> tuple[Frames, str]:
    """A match of ``game`` against the computer (:data:`HINTS`), the Hint clicked on the
    person's turn: the frames the page received and the move suggested."""
    options, agent = HINTS[game]
    created = server.create(game, options, ["human", agent], SEED)
    frames = Frames().attach(page)
    page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    for _ in range(5):
        page.wait_for_selector("#hint:not([disabled])", timeout=30_000)
        # Both choose at once in Erd and The Triangle Clock: the hint is asked once the
        # computer has chosen (Erd's equilibrium player solves the rules first, and the
        # hint's judge reads the solution).
        page.wait_for_selector("#seats .thinking", state="detached", timeout=120_000)
        state = frames.latest_state()
        if len(state["legal"]) > 1:
            break
        # A decision with one move (The Triangle Clock's "memorised") has nothing to hint.
        page.fill("#notation", state["legal"][0]["text"])
        page.press("#notation", "Enter")
        page.wait_for_function(
            "(seq) => Number(document.body.dataset.seq) > seq", arg=state["seq"], timeout=30_000
        )
    page.click("#hint")
    page.wait_for_selector("body:not([data-hint=''])[data-hint]", timeout=60_000)
    return frames, page.get_attribute("body", "data-hint")


def finished_match(
    server: Any, game: str, agents: tuple[str, str] | None = None, seed: int | None = None
) -> str:
    """A match of ``game`` played to its end by two agents (random against the cheap
    opponent of :data:`REVIEWS`, or ``agents``), from ``seed`` if one is given: its id."""
    options, agent = REVIEWS[game]
    seats = list(agents or ("random", agent))
    match = server.create(game, options, seats, seed)["match"]
    server.finished(match, 120)
    return match


def review_of(server: Any, match: str) -> dict[str, Any]:
    """The review of a finished match, asked for and waited on (it is computed once)."""
    deadline = time.monotonic() + REVIEW_SECONDS
    while (
        reply := plain_http.get(f"{server.url}/api/matches/{match}/review", timeout=10)
    ).status_code != 200:
        assert reply.status_code in (202, 503), reply.text  # computing, or the server busy
        assert time.monotonic() < deadline, f"no review of {match} in {REVIEW_SECONDS} s"
        time.sleep(0.5)
    return reply.json()


ATTEMPTS = 12
"""Matches played at most for one whose review marks a decision: a search judge marks only
the losses its tries can tell from chance, and a short match of random play may have none."""


def reviewed_match(server: Any, game: str) -> tuple[str, dict[str, Any]]:
    """A finished match of ``game`` whose review marks a decision (up to
    :data:`ATTEMPTS` matches are tried): its id and review. Kept per
    server, so that the desktop and phone pictures show the same match."""
    key = (server.url, game)
    if key not in _reviewed:
        for attempt in range(ATTEMPTS):
            match = finished_match(server, game, seed=SEED + attempt)
            review = review_of(server, match)
            if any(d["mark"] for d in review["decisions"]):
                _reviewed[key] = (match, review)
                break
        else:
            raise AssertionError(f"{ATTEMPTS} matches of random {game} play gave nothing away")
    return _reviewed[key]


def hint_shot(server: Any, chromium: Any, game: str, size: str) -> None:
    """docs/web/hint-<game>-<size>.png: the game page with a hint shown and marked."""
    page = new_page(chromium, size)
    _, best = ask_for_a_hint(server, page, game)
    assert best and page.is_visible("#hint-text"), f"{game}: no hint shown"
    page.wait_for_timeout(300)
    shot(page, f"hint-{game}-{size}")
    page.context.close()


def review_shot(server: Any, chromium: Any, game: str, size: str) -> None:
    """docs/web/review-<game>-<size>.png: the replay of a reviewed match at its first
    marked decision, the Review panel in view."""
    match, review = reviewed_match(server, game)
    page = new_page(chromium, size)
    page.goto(f"{server.url}/replay?match={match}")
    page.wait_for_selector("#review[data-state='done']", timeout=REVIEW_SECONDS * 1000)
    first = next(d for d in review["decisions"] if d["mark"])
    page.locator(f"#review .review-move[data-n='{first['n']}']").click()
    page.wait_for_selector(f"body[data-step='{first['n']}']")
    page.locator("#review").scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    shot(page, f"review-{game}-{size}", full_page=False)
    page.context.close()
