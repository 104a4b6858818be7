"""The browser tests' pool of contexts (``Browser`` in tests/web/conftest.py): a context
given back is lent again only as a new one would be, so no test sees another's storage. The
pool serves the whole browser; with the headless shell every context is new."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from meeple.interfaces.web.client import HEADLESS_SHELL, driven_chromium
from tests.web.conftest import Browser

SIZE = {"viewport": {"width": 700, "height": 500}}
"""Options no other test opens a context with: the pool's contexts for them are this file's."""


@pytest.fixture
def pool(chromium: Browser) -> Iterator[Browser]:
    """A pool of contexts in the session's Chromium, whichever it is; its contexts given
    back, and closed, at the end."""
    lending = Browser(chromium.browser, pooled=True)
    yield lending
    lending.close_left_open()
    for free in lending.free.values():
        for context, _idle in free:
            context.close()


def _visit(context: Any, url: str) -> Any:
    page = context.new_page()
    page.goto(f"{url}/")
    page.wait_for_selector(".game-card")
    return page


def test_a_context_given_back_is_lent_again_with_nothing_of_the_last_test(server, pool):
    """Its pages closed, its cookies and local storage gone: the lobby reads no name."""
    first = pool.new_context(**SIZE)
    page = _visit(first, server.url)
    page.evaluate("localStorage.setItem('meeple-name', 'Ann'); document.cookie = 'seen=1'")
    page.reload()
    assert page.evaluate("localStorage.getItem('meeple-name')") == "Ann"
    first.close()
    again = pool.new_context(**SIZE)
    assert again._context is first._context  # the same Chromium context, lent again
    assert again.pages == []
    page = _visit(again, server.url)
    assert page.evaluate("localStorage.getItem('meeple-name')") is None
    assert page.evaluate("document.cookie") == ""
    again.close()


def test_a_context_changed_beyond_its_pages_is_closed_not_lent_again(server, pool):
    """An init script cannot be taken back: such a context is closed when given back, and so
    is one closed through its page."""
    changed = pool.new_context(**SIZE)
    changed.add_init_script("window.changed = true")
    _visit(changed, server.url)
    changed.close()
    assert changed._context not in pool.browser.contexts
    fresh = pool.new_context(**SIZE)
    assert fresh._context is not changed._context
    page = _visit(fresh, server.url)
    assert page.evaluate("window.changed") is None
    page.context.close()
    fresh.close()  # giving back what its page closed is harmless
    assert pool.new_context(**SIZE)._context is not fresh._context


def test_contexts_with_other_options_are_not_lent_for_each_other(pool):
    """A phone-sized context is never lent to a test asking for another size."""
    phone = pool.new_context(viewport={"width": 390, "height": 844})
    raw = phone._context
    phone.close()
    other = pool.new_context(**SIZE)
    assert other._context is not raw
    other.close()


def test_the_headless_shell_opens_a_new_context_for_every_test(chromium: Browser) -> None:
    """Where the tests drive the headless shell nothing is kept: a context given back is
    closed, and the next is new."""
    assert chromium.pooled == (driven_chromium() != HEADLESS_SHELL)
    first = chromium.new_context(**SIZE)
    first.close()
    second = chromium.new_context(**SIZE)
    assert (second._context is first._context) == chromium.pooled
    assert (first._context in chromium.browser.contexts) == chromium.pooled
    second.close()
