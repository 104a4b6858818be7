"""Fixtures for the browser tests: a real ``meeple serve`` and Debian's Chromium.

The server is a real process on a free port with a temporary SQLite database and agents in
threads (``--agent-workers 0``); pages are driven through Playwright's sync API. Without
Chromium the tests are skipped and say how to install it (``.ci/run`` installs it).
The screenshot test (marker ``screenshots``) runs only when asked: ``make screenshots``.

Every page runs under the server's Content-Security-Policy (``pages.PAGE_POLICY``), and a
test whose pages met a refusal of it fails. ``page.wait_for_function`` is given a function
(``"() => ..."``): Playwright evaluates a bare expression again with ``eval`` while it
waits, which the policy refuses.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from meeple.interfaces.web.client import CHROMIUM_ARGS as BASE_ARGS
from meeple.interfaces.web.client import HEADLESS_SHELL, ServerProcess, driven_chromium
from tests import plain_http

# Beyond how every driven Chromium starts, two flags spare the suite's CPU
# (`benchmarks/suite_cpu.py`, tests/web): one renderer process per site in a context, not per
# page, and no spare renderer started ahead of each new page (the whole browser: 331
# renderers and 238 CPU-s of Chromium without them, 228 and 203 with; the headless shell:
# half the renderers, and a few percent of the run's CPU). What a page may see is the
# server's business, not the process model's: nothing tested changes.
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
    motion unless the test says otherwise and, with the whole browser (``pooled``), is lent
    from a pool of contexts opened with the same options, and goes back to it, emptied,
    when the test closes it or ends (with the headless shell, it is closed then).

    Reduced motion is for the machine the suite shares: a game page's animations (the
    pulsing "your turn", Edges' marching edges) run for up to five seconds after each new
    state, which a test's pages meet every second or so, and while they run Chromium draws
    frames at several times the CPU of a still page (``benchmarks/browser_idle.py``). It
    stops only those animations (the stylesheets' ``prefers-reduced-motion`` rules say
    ``animation: none`` and nothing else); the accessibility test opens pages both ways.

    The pool is for the same reason, where the tests drive the whole browser (``pooled``):
    there a page in a new context waits for a renderer process of its own to start, and the
    suite opens hundreds. A lobby loaded in a context lent from the pool takes two thirds of
    the time it takes in a new one (``benchmarks/browser_contexts.py``), and the browser
    tests start about 40% fewer renderers (``benchmarks/suite_cpu.py``). The headless shell
    starts a new context so cheaply that emptying a lent one costs more: a lobby load in a
    lent context takes about twice the Chromium CPU of one in a new context
    (``benchmarks/browser_contexts.py``), so with the shell every context is new, and closed
    when given back.
    A context comes back as a new one would be to the test: no page open, no cookie, no
    permission, and the local storage of every origin its pages visited cleared
    (:class:`LentContext`). What stays is the HTTP cache (every page and file of the server
    says ``no-cache``, and a page a test routes has no cache) and one idle page at
    ``about:blank``, which the test never sees, that keeps the renderer process alive for
    the next test's pages. A context the test used beyond opening pages (an init script, a
    route, a listener: nothing that can be taken back) is closed instead of kept.
    """

    def __init__(self, browser: Any, pooled: bool = True) -> None:
        self.browser = browser
        self.pooled = pooled
        """Whether a context given back is kept to be lent again (else it is closed)."""
        self.opened: list[LentContext] = []
        self.free: dict[str, list[tuple[Any, Any]]] = {}
        """Emptied contexts by their options (:meth:`new_context`'s key), each with its idle
        page (:class:`LentContext`) or None."""
        self.refused: list[str] = []
        """What a lent context's pages did that the server's Content-Security-Policy
        forbids (Chromium's console line, and where): a test fails on any (see
        ``_close_contexts_left_open``)."""

    def new_context(self, **options: Any) -> LentContext:
        """A context as ``Browser.new_context(**options)`` opens it, with
        ``reduced_motion="reduce"`` unless given: one from the pool where one was opened
        with the same options, if :attr:`pooled`."""
        options.setdefault("reduced_motion", "reduce")
        if not self.pooled:
            lent = LentContext(self.browser.new_context(**options), None, None, self.refused)
            self.opened.append(lent)
            return lent
        key = repr(sorted(options.items()))
        free = self.free.setdefault(key, [])
        context, idle = free.pop() if free else (self.browser.new_context(**options), None)
        lent = LentContext(context, idle, lambda idle: free.append((context, idle)), self.refused)
        self.opened.append(lent)
        return lent

    def close_left_open(self) -> None:
        """Give back every context lent since the last call (giving back twice is harmless)."""
        for context in self.opened:
            context.close()
        self.opened.clear()

    def take_refused(self) -> list[str]:
        """The policy's refusals since the last call (:attr:`refused`), forgotten."""
        taken = list(self.refused)
        self.refused.clear()
        return taken


class LentContext:
    """A Playwright browser context lent for one test: ``new_page``, ``pages`` and ``close``
    as Playwright's own, where ``close`` empties it and gives it back (``kept``, with the
    page left idle), or closes it where no pool keeps it (``kept`` None). Any other
    attribute is the context's own, and asking for one means the test changed the context
    in a way that cannot be undone: ``close`` then closes it for good. So does a context
    the test closed through one of its pages (``page.context.close()``).

    Emptying it, the last page the test left open (or a new one) is kept, idle, and the
    pages before it and the page kept idle by the last test are closed. The console lines of
    its pages that say the page policy refused something go to ``refused``."""

    def __init__(
        self,
        context: Any,
        idle: Any,
        kept: Callable[[Any], None] | None,
        refused: list[str],
    ) -> None:
        self._context = context
        self._idle = idle
        self._kept = kept
        self._refused = refused
        self._changed = False
        self._done = False
        self._origins: set[str] = set()
        context.on("page", self._on_page)

    def _on_page(self, page: Any) -> None:
        page.on("framenavigated", self._on_navigated)
        page.on("console", self._on_console)

    def _on_console(self, message: Any) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            self._refused.append(f"{message.text} {message.location}")

    def _on_navigated(self, frame: Any) -> None:
        parts = urlsplit(frame.url)
        if parts.scheme in ("http", "https"):
            self._origins.add(f"{parts.scheme}://{parts.netloc}")

    def new_page(self) -> Any:
        """A new page in the context."""
        return self._context.new_page()

    @property
    def pages(self) -> list[Any]:
        """The context's open pages."""
        return [page for page in self._context.pages if page is not self._idle]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # Playwright looks for its own marks on a bound listener
            raise AttributeError(name)
        self._changed = True
        return getattr(self._context, name)

    def close(self) -> None:
        """Empty the context and give it back, or close it where it cannot be emptied."""
        if self._done:
            return
        self._done = True
        context = self._context
        context.remove_listener("page", self._on_page)
        if context not in context.browser.contexts:  # closed through one of its pages
            return
        if self._changed or self._kept is None:
            context.close()
            return
        try:
            self._empty()
        except Exception:  # a page that crashed or hangs: what it left cannot be cleared
            context.close()
            return
        self._kept(self._idle)

    def _empty(self) -> None:
        context = self._context
        pages = self.pages
        if self._origins:
            kept = pages.pop() if pages else context.new_page()
            for page in pages:
                page.close()
            _clear_storage(kept, self._origins)
            if self._idle is not None:
                self._idle.close()
            self._idle = kept
            pages = []
        for page in pages:
            page.close()
        context.clear_cookies()
        context.clear_permissions()


def _clear_storage(page: Any, origins: set[str]) -> None:
    """Clear the local storage of ``origins`` in the context of ``page``, its one page left
    (session storage is a page's own, gone with it). The page is sent to ``about:blank``
    first, so no script of the test's is left to write after the clear; Chromium clears
    (DevTools' ``Storage.clearDataForOrigin``, for the page's context), no origin is loaded.
    """
    page.goto("about:blank")
    session = page.context.new_cdp_session(page)
    for origin in sorted(origins):
        session.send(
            "Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "local_storage"}
        )
    session.detach()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Browser]:
    """A headless Chromium for the session (:class:`Browser`): Debian's headless shell
    where installed, else its whole browser (``driven_chromium``)."""
    executable = driven_chromium()
    if not executable.exists():
        pytest.skip("Chromium not installed: apt-get install chromium-headless-shell (or chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(executable), args=CHROMIUM_ARGS)
        yield Browser(browser, pooled=executable != HEADLESS_SHELL)
        browser.close()


@pytest.fixture(autouse=True)
def _close_contexts_left_open(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a test that used the browser, give back the contexts it left open, and fail
    it if the page policy refused anything its pages did."""
    browser = request.getfixturevalue("chromium") if "chromium" in request.fixturenames else None
    yield
    if browser is not None:
        browser.close_left_open()
        # Every page a test opens is checked against the page policy (pages.PAGE_POLICY):
        # a script, style or connection the policy refuses is a page broken for its users.
        refused = browser.take_refused()
        assert not refused, "the page policy refused:\n" + "\n".join(refused)


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
        reply = plain_http.post(f"{self.url}/api/matches", json=body, timeout=30)
        assert reply.status_code == 200, reply.text
        return reply.json()

    def join(self, created: dict[str, Any], seat: int) -> None:
        """Take ``seat`` of a match ``create`` made, with its link's token (a person whose
        page is not open: the match waits for no one to join). The link takes its seat
        once: ``created`` holds the seat's own token from then on."""
        created["seats"][seat]["token"] = plain_http.take_seat(
            self.url, created["match"], created["seats"][seat]["token"]
        )

    def get(self, path: str) -> Any:
        """GET an API path; its JSON."""
        reply = plain_http.get(f"{self.url}{path}", timeout=30)
        assert reply.status_code == 200, reply.text
        return reply.json()

    def finished(self, match: str, seconds: float = 60) -> dict[str, Any]:
        """Wait for a match its agents play to be over; its summary. Asked often: a small
        board's match ends in a tenth of a second."""
        deadline = time.monotonic() + seconds
        while (summary := self.get(f"/api/matches/{match}"))["status"] != "finished":
            assert time.monotonic() < deadline, f"match {match} did not end in {seconds:g} s"
            time.sleep(0.05)
        return summary


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


SHOTS_ARGS = ("--max-hints-per-minute", "1000")
"""The screenshot server's flags: one address may ask for every game's hint. Its reviews
search as a server's do by default (200 tries a decision): with fewer, a search judge can
tell few losses from chance and marks next to nothing to show."""


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
