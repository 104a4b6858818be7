"""What an open game page costs Chromium while nobody touches it, with and without motion.

    .venv/bin/python benchmarks/browser_idle.py --seconds 5

For every game, a real ``meeple serve`` (SQLite, agents in threads) and Debian's headless
Chromium: a page seated at a new match against ``random``, once as a player who has not
asked for less motion and once as one whose system asks for reduced motion
(``prefers-reduced-motion: reduce``). After the page has settled, Chromium's CPU seconds
(every one of its processes, read from ``/proc``) are counted over ``--seconds`` of nobody
doing anything, twice: at once, while what calls the eye moves (the "your turn" pulse and
the game's own animations, each under five seconds), and again once it has come to rest.
The table gives CPU seconds per second for each, and the first window's ratio to a
still page's: what the browser tests save by asking for reduced motion
(``tests/web/conftest.py``: a test's pages meet a new state, and so new motion, every
second or so), and what an idle tab costs a player's machine. Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

from meeple.interfaces.web.client import CHROMIUM, CHROMIUM_ARGS, ServerProcess

if TYPE_CHECKING:
    from playwright.sync_api import Browser

GAMES = {
    "edges": {"board": "3x3"},
    "erd": {},
    "erosion": {},
    "squad-combat": {},
    "triangle-clock": {},
}


def chromium_cpu() -> float:
    """CPU seconds used so far by every running Chromium process."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if b"chromium" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                continue
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:  # exited while we looked
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


REST = 5.0
"""Seconds after which every animation but a thinking spinner has ended (the stylesheets'
bound, which ``tests/web/test_accessibility.py`` holds them to)."""


def idle_cost(
    browser: Browser, url: str, game: str, motion: str, seconds: float
) -> tuple[float, float]:
    """Chromium's CPU seconds per second with one page of ``game`` open and untouched: over
    ``seconds`` from when the page has settled, and over ``seconds`` after its motion rests."""
    created = httpx.post(
        f"{url}/api/matches",
        json={"game": game, "options": GAMES[game], "seats": ["human", "random"]},
        timeout=30,
    ).json()
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion=motion)
    page = context.new_page()
    page.goto(f"{url}/play/{created['match']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("body[data-status='playing'] #board .clickable")
    page.wait_for_timeout(1000)  # settled: fonts, the first picture
    costs = []
    for wait in (0.0, max(0.0, REST - seconds)):
        page.wait_for_timeout(wait * 1000)
        before = chromium_cpu()
        page.wait_for_timeout(seconds * 1000)
        costs.append((chromium_cpu() - before) / seconds)
    context.close()
    return costs[0], costs[1]


@contextmanager
def served_chromium(
    prefix: str, args: Sequence[str] = CHROMIUM_ARGS, executable: Path = CHROMIUM
) -> Iterator[tuple[str, Browser]]:
    """A real ``meeple serve`` (a new SQLite database in a folder named from ``prefix``,
    agents in threads) and a headless Chromium, ``executable`` (by default the whole
    browser, as a player's), started with ``args`` (by default as meeple starts it): the
    server's address and the browser; both stopped after."""
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix=prefix))
    server = ServerProcess(f"sqlite:///{folder / 'server.db'}", folder / "server.log", 0).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(executable), args=list(args))
            yield server.url, browser
            browser.close()
    finally:
        server.stop()


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="idle seconds in each window")
    args = parser.parse_args()
    with served_chromium("meeple-idle-") as (url, browser):
        print("| game | motion, at once | motion, at rest | reduced motion | ratio at once |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for game in GAMES:
            moving, rested = idle_cost(browser, url, game, "no-preference", args.seconds)
            still, _ = idle_cost(browser, url, game, "reduce", args.seconds)
            ratio = moving / still if still > 0 else float("inf")
            print(f"| {game} | {moving:.3f} | {rested:.3f} | {still:.3f} | {ratio:.0f} |")


if __name__ == "__main__":
    main()
