"""A person whose opponent closed their page: the game page counts down to the claim, then
offers it, and claiming wins the match (docs/web.md, "The game page")."""

from __future__ import annotations

import pytest

from meeple.interfaces.web.client import ServerProcess
from tests.web.conftest import Server

CLAIM_SECONDS = 4


@pytest.fixture(scope="module")
def quick_claims(tmp_path_factory) -> Server:
    """A server where a few seconds away are long enough to be claimed from."""
    folder = tmp_path_factory.mktemp("claims")
    process = ServerProcess(
        f"sqlite:///{folder / 'server.db'}",
        folder / "server.log",
        0,
        ("--claim-seconds", str(CLAIM_SECONDS)),
    )
    process.start()
    yield Server(process)
    process.stop()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_page_counts_down_to_the_claim_then_claims_the_win(
    quick_claims, chromium, watch, page_errors, size
):
    created = quick_claims.create("erd", {}, ["human", "human"])
    viewport = {"width": size[0], "height": size[1]}
    pages = []
    for seat in (0, 1):
        context = chromium.new_context(viewport=viewport)
        page = watch(context.new_page())
        page.goto(
            f"{quick_claims.url}/play/{created['match']}#token={created['seats'][seat]['token']}"
        )
        pages.append(page)
    for page in pages:  # playing once both have taken their seats
        page.wait_for_selector("body[data-status='playing']")
    ann, bob = pages
    assert ann.locator("#claim").is_hidden()  # nobody has gone
    bob.context.close()
    # Bob's seat says he is away, and Ann's page counts down before it offers anything.
    ann.wait_for_function(
        "() => document.querySelector('#seats .seat-1').textContent.includes('away')"
    )
    box = ann.locator("#claim")
    box.wait_for(state="visible")
    assert "If they are not back in" in box.inner_text()
    assert box.locator("button").count() == 0
    button = box.get_by_role("button", name="Claim the win")
    button.wait_for(timeout=(CLAIM_SECONDS + 10) * 1000)
    # told once in the page's live region (the count-down itself is not read out each second)
    assert "you may claim the win" in ann.locator("#toasts").inner_text()
    assert ann.locator("#claim[role], #claim [aria-live]").count() == 0
    # the box stays inside the page at either size
    width = ann.evaluate("document.documentElement.clientWidth")
    right = ann.evaluate("document.getElementById('claim').getBoundingClientRect().right")
    assert right <= width
    button.click()
    ann.wait_for_selector("body[data-status='finished']")
    end = ann.locator("#end").inner_text()
    assert "You won" in end and "claimed the win" in end
    assert "left" in ann.locator("#seats .seat-1").inner_text()
    assert box.is_hidden()
    assert not page_errors
