"""Fixtures for the browser tests: a real ``meeple serve`` and Debian's Chromium.

The server is a real process on a free port with a temporary SQLite database and agents in
threads (``--agent-workers 0``); pages are driven through Playwright's sync API. Without
Chromium the tests are skipped and say how to install it (``.ci/run`` installs it).
The screenshot test (marker ``screenshots``) runs only when asked: ``make screenshots``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from meeple.interfaces.web.client import CHROMIUM, ServerProcess
from meeple.interfaces.web.client import CHROMIUM_ARGS as BASE_ARGS

# Beyond how every driven Chromium starts, two flags spare the suite's CPU
# (`benchmarks/suite_cpu.py`, tests/web): one renderer process per site in a context, not per
# page, and no spare renderer started ahead of each new page (331 renderers and 238 CPU-s of
# Chromium without them, 228 and 203 with). What a page may see is the server's business,
# not the process model's: nothing tested changes.
CHROMIUM_ARGS = [
    *BASE_ARGS,
    "--process-per-site",
    "--disable-features=SpareRendererForSitePerProcess",
]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave the screenshot test out unless ``-m`` names it (``make screenshots`` does)."""
    if "screenshots" in (config.getoption("markexpr") or ""):
        return
    kept = [item for item in items if item.get_closest_marker("screenshots") is None]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept


class Browser:
    """The session's Chromium as the tests use it: a context a test opens asks for reduced
    motion unless the test says otherwise, and is closed when the test ends if the test left
    it open.

    Both are for the machine the suite shares: a game page's endless animations (the pulsing
    "your turn", Edges' marching edges) keep Chromium drawing frames for as long as the page
    is open, several times the CPU of a still page (``benchmarks/browser_idle.py``), and a
    page a test leaves open would draw them until the session ends. Reduced motion stops
    only those animations (the stylesheets' ``prefers-reduced-motion`` rules say
    ``animation: none`` and nothing else); the accessibility test opens pages both ways.
    """

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.opened: list[Any] = []

    def new_context(self, **options: Any) -> Any:
        """``Browser.new_context``, with ``reduced_motion="reduce"`` unless given."""
        options.setdefault("reduced_motion", "reduce")
        context = self.browser.new_context(**options)
        self.opened.append(context)
        return context

    def close_left_open(self) -> None:
        """Close every context opened since the last call (closing twice is harmless)."""
        for context in self.opened:
            context.close()
        self.opened.clear()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Browser]:
    """A headless Chromium for the session (:class:`Browser`)."""
    if not CHROMIUM.exists():
        pytest.skip("Chromium not installed: apt-get install chromium chromium-driver")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield Browser(browser)
        browser.close()


@pytest.fixture(autouse=True)
def _close_contexts_left_open(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a test that used the browser, close the contexts it left open."""
    browser = request.getfixturevalue("chromium") if "chromium" in request.fixturenames else None
    yield
    if browser is not None:
        browser.close_left_open()


class Server:
    """The server under test: its address, and the lobby's REST calls the tests need."""

    def __init__(self, process: ServerProcess) -> None:
        self.process = process
        self.url = process.url

    def create(
        self, game: str, options: dict[str, Any], seats: list[str], seed: int | None = None
    ) -> dict[str, Any]:
        """POST /api/matches; the reply (match id, tokens, links). With a ``seed`` the
        match, and the agents seated in it, play as they did before from the same moves."""
        body = {"game": game, "options": options, "seats": seats}
        if seed is not None:
            body["seed"] = seed
        reply = httpx.post(f"{self.url}/api/matches", json=body, timeout=30)
        assert reply.status_code == 200, reply.text
        return reply.json()

    def join(self, created: dict[str, Any], seat: int) -> None:
        """Take ``seat`` of a match ``create`` made, with its token (a person whose page is
        not open: the match waits for no one to join)."""
        reply = httpx.post(
            f"{self.url}/api/matches/{created['match']}/join",
            json={"token": created["seats"][seat]["token"]},
            timeout=30,
        )
        assert reply.status_code == 200, reply.text

    def get(self, path: str) -> Any:
        """GET an API path; its JSON."""
        reply = httpx.get(f"{self.url}{path}", timeout=30)
        assert reply.status_code == 200, reply.text
        return reply.json()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``meeple serve`` on a free port with a fresh SQLite database, for the session."""
    folder = tmp_path_factory.mktemp("web")
    process = ServerProcess(f"sqlite:///{folder / 'server.db'}", folder / "server.log", 0)
    process.start()
    try:
        yield Server(process)
    finally:
        process.stop()


SHOTS_ARGS = ("--review-iterations", "50", "--max-hints-per-minute", "1000")
"""The screenshot server's flags: a card game's review searches each decision 50 times, not
200 (the picture is of the panel, and ten pictures of five games must fit a test run), and
one address may ask for every game's hint."""


@pytest.fixture(scope="session")
def shots_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``meeple serve`` for the screenshot tests (:data:`SHOTS_ARGS`), for the session."""
    folder = tmp_path_factory.mktemp("shots")
    process = ServerProcess(
        f"sqlite:///{folder / 'server.db'}", folder / "server.log", 0, SHOTS_ARGS
    )
    process.start()
    try:
        yield Server(process)
    finally:
        process.stop()


@pytest.fixture
def context(chromium: Any) -> Iterator[Any]:
    """A fresh browser context (its own storage: another person) per test."""
    ctx = chromium.new_context(viewport={"width": 1280, "height": 800})
    yield ctx
    ctx.close()


@pytest.fixture
def page_errors() -> list[str]:
    """Uncaught JavaScript errors of the pages a test watches (see ``watch``)."""
    return []


@pytest.fixture
def console_errors() -> list[str]:
    """The errors the browser's console logged for the pages a test watches (``watch``),
    each with where it came from: a missing resource, a failed request, a script's
    ``console.error``. A test that provokes a refusal on purpose does not ask for it."""
    return []


@pytest.fixture
def watch(page_errors: list[str], console_errors: list[str]):
    """Collect a page's uncaught errors into ``page_errors`` and its console's errors into
    ``console_errors``."""

    def console(message: Any) -> None:
        if message.type == "error":
            console_errors.append(f"{message.text} {message.location}")

    def attach(page: Any) -> Any:
        page.on("pageerror", lambda error: page_errors.append(str(error)))
        page.on("console", console)
        return page

    return attach


SCREENSHOT_DIR = Path(os.environ.get("MEEPLE_SCREENSHOTS", Path(__file__).parents[2] / "docs/web"))
