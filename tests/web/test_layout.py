"""Layout defects a player met, measured against the viewport (issue's sizes 1280x800 and
390x844): a control a click opens is in view, and no card name is cut off; and no mark
that needs an emoji font."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import meeple.interfaces.web
from tests import plain_http
from tests.web.browser import at_the_table

STATIC = Path(meeple.interfaces.web.__file__).parent / "static"
PICTOGRAPHS = re.compile("[\U0001f000-\U0001faff]")
"""Emoji and other pictographs: drawn only where an emoji font is installed."""


def test_the_pages_draw_no_mark_with_an_emoji():
    """Squad Combat's target mark was an emoji (a direct hit), and a machine without an
    emoji font showed an empty box in its place: the pages draw their marks, or use signs
    that ordinary text fonts have (a check mark, a heart)."""
    found = [
        f"{path.relative_to(STATIC)}:{number}: {sign}"
        for path in sorted(STATIC.rglob("*"))
        if path.suffix in {".js", ".css", ".html"}
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for sign in PICTOGRAPHS.findall(line)
    ]
    assert not found, found


OPENERS = [
    ("edges", {"first": 0}),
    ("erd", {}),
    ("erosion", {"first": 0}),
]


@pytest.mark.parametrize(("game", "options"), OPENERS, ids=[g for g, _ in OPENERS])
def test_what_a_click_opens_is_in_view_at_1280x800(server, chromium, game, options):
    """Edges' size picker, Erd's and Erosion's choices: never opened below the fold."""
    context, page = at_the_table(chromium, server, game, options, (1280, 800))
    page.wait_for_function("() => document.querySelector('#board .clickable') !== null")
    hints = (
        "[...document.querySelectorAll('#board .clickable')].map(e => e.getAttribute('data-hint'))"
    )
    before = page.evaluate(hints)
    opener = page.locator("#board .clickable:not([data-move])").first
    opener.click()
    page.wait_for_function(f"() => JSON.stringify({hints}) !== {before!r}".replace("'", '"'))
    page.wait_for_timeout(200)
    opened = page.evaluate(
        "(before => [...document.querySelectorAll('#board .clickable')]"
        ".filter(e => !before.includes(e.getAttribute('data-hint')))"
        ".map(e => { const r = e.getBoundingClientRect();"
        " return [e.getAttribute('data-hint'), r.top, r.bottom]; }))",
        before,
    )
    assert opened, "the click opened nothing new"
    for hint, top, bottom in opened:
        assert top >= -1 and bottom <= 801, f"{hint!r} opened out of view: {top}-{bottom}"
    context.close()


def test_erosion_hand_card_names_are_never_cut_at_390(server, chromium):
    """'Salt Crystallization' and every other process name wrap inside their card."""
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    for seed in range(6):
        body = {"game": "erosion", "options": {"first": 0}, "seats": ["human", "random"]}
        created = plain_http.post(f"{server.url}/api/matches", json={**body, "seed": seed}).json()
        page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
        page.wait_for_selector("body[data-status='playing'] .er-card-pname")
        cut = page.evaluate(
            "[...document.querySelectorAll('.er-card-pname')].filter(e => {"
            " const card = e.closest('.er-card').getBoundingClientRect();"
            " const r = e.getBoundingClientRect();"
            " return e.scrollWidth > e.clientWidth + 1 || r.right > card.right + 1; })"
            ".map(e => e.textContent)"
        )
        assert cut == [], f"seed {seed}: names cut off: {cut}"
    context.close()


def test_erosions_seat_list_shows_the_points_its_picture_shows(server, chromium):
    """The seat panel said 0-0 while the board said "points now 3 / 5"."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    body = {"game": "erosion", "options": {"first": 0}, "seats": ["human", "random"], "seed": 1}
    created = plain_http.post(f"{server.url}/api/matches", json=body).json()
    page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("body[data-status='playing'] .er-score-n")
    board = page.locator(".er-score-n").all_inner_texts()
    seats = page.locator("#seats .seat-score").all_inner_texts()
    assert board == seats and any(n != "0" for n in board), (board, seats)
    context.close()


def test_an_edges_square_s_words_are_drawn_over_the_pyramids(server, chromium):
    """A large pyramid on a middle edge reaches into the squares beside it: each square's
    score and taker are drawn after every pyramid, so nothing covers them."""
    from tests.web.shots import SEED, finished_match

    # A seed, not the server's draw: now and then every square was tied, and nothing was
    # taken to check.
    match = finished_match(server, "edges", seed=SEED)
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{server.url}/replay?match={match}")
    page.wait_for_selector("body[data-step='0']")
    page.keyboard.press("End")
    page.wait_for_selector(".edges-strength-small")
    order = page.evaluate(
        """() => {
          const kids = [...document.querySelector('.pyramid').parentNode.children];
          const last = Math.max(...kids.map((n, i) => n.classList.contains('pyramid') ? i : -1));
          const words = kids.map((n, i) => n.classList.contains('edges-strength-small') ? i : -1)
            .filter((i) => i >= 0);
          return { last, words };
        }"""
    )
    assert order["words"] and min(order["words"]) > order["last"], order
    # A taken square names its taker with its own strength first ("Blue 5–4"): "Blue · 4 : 5",
    # Red's strength first, read as Blue's 4.
    result = server.get(f"/api/matches/{match}")["result"]
    taken = [(sq["side"], sq["strength"]) for sq in result["squares"] if sq["side"] is not None]
    expected = sorted(f"{result['sides'][s]} {st[s]}–{st[1 - s]}" for s, st in taken)
    shown = page.locator(".edges-strength-small").all_text_contents()
    assert expected and sorted(t for t in shown if "–" in t) == expected, (shown, expected)
    page.context.close()


# The builder's box, this seat's side of the table (drawn at the bottom) and the table's
# width against the board's, as the window shows them now.
ERD_BOXES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.width]; };
  return { bar: box(document.querySelector('.erd-builder')),
    mine: box([...document.querySelectorAll('.erd-side')].at(-1)),
    table: box(document.querySelector('.erd-table')),
    board: box(document.querySelector('#board')) };
}"""


def test_erds_builder_leaves_the_seat_s_reserve_in_sight(server, chromium):
    """At 1280x800 the allocation builder, sticky at the window's bottom, covered the
    seat's own Reserve as the page opened; the table is shortened only while the match is
    played. The phone's narrow table keeps the board's width and scrolls under its compact
    builder as before. On a phone held sideways (640x360) the builder covered more than half
    the window; it is one short row there. In a laptop's short window (1024x560) it took two
    rows, 230 px, over the Rush and Defense piles it fills: one row, the piles above it."""
    for size in ((1280, 800), (390, 844), (640, 360), (1024, 560)):
        context, page = at_the_table(chromium, server, "erd", {}, size)
        page.wait_for_selector(".erd-builder .erd-pick.clickable")
        boxes = page.evaluate(ERD_BOXES)
        if size[1] < 680:
            height = boxes["bar"][1] - boxes["bar"][0]
            assert height <= size[1] / 4, f"the builder is {height} px of {size[1]}: {boxes}"
        if size[1] < 500:
            pass  # the table scrolls under the builder, as on a phone held upright
        elif size[1] < 680:
            piles = page.evaluate(
                "() => [...document.querySelectorAll('.erd-pile')]"
                ".map((e) => e.getBoundingClientRect().bottom)"
            )
            assert piles and max(piles) <= boxes["bar"][0], f"piles under the builder: {boxes}"
        elif size[0] > 600:
            assert boxes["mine"][1] <= boxes["bar"][0], f"the builder covers the Reserve: {boxes}"
        else:
            assert boxes["table"][2] >= 0.9 * boxes["board"][2], boxes
        # Picking cards and clearing them redraws: the table keeps its size.
        page.locator(".erd-builder .erd-pick.clickable").first.click()
        page.wait_for_selector(".erd-clear")
        top, bottom, width = page.evaluate(ERD_BOXES)["table"]
        # Its size: a click near the window's bottom may scroll the page.
        assert (bottom - top, width) == (boxes["table"][1] - boxes["table"][0], boxes["table"][2])
        if size == (1280, 800):
            # Over (resigned: the button asks twice), the table has the window again.
            page.click("#resign")
            page.click("#resign")
            page.wait_for_selector("body[data-status='finished']")
            table = page.locator(".erd-table").bounding_box()
            assert table["height"] > boxes["table"][1] - boxes["table"][0] + 50, table
        context.close()


@pytest.mark.parametrize("size", [(390, 844), (640, 360)])
def test_the_title_names_the_player_s_side_uncut_on_a_phone(server, chromium, size):
    """At 390 px the header cut "Erd: The Grim Triangle — you are Red (Learner)" to
    "... you are Red (Lea…": the side a newcomer plays was the part lost. At 640x360 (a
    phone held sideways) the title pushed the Rules button onto a second row, the header
    118 px of the 360; the title wraps in the header's one row there."""
    width, height = size
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{server.url}/")
    page.click("#learn-erd")
    page.wait_for_selector("body[data-tutorial='0']")
    title = page.locator("#title")
    assert title.inner_text() == "Erd: The Grim Triangle — you are Red (Learner)"
    cut = title.evaluate(
        "e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1"
    )
    assert not cut, "the title is cut"
    bounds = title.bounding_box()
    assert bounds and bounds["x"] + bounds["width"] <= width
    if height < 500:
        rules = page.locator("#rules-button").bounding_box()
        brand = page.locator(".brand").bounding_box()  # on the header's first row
        assert rules and brand and rules["y"] < brand["y"] + brand["height"], "Rules apart"
    context.close()


# Each word of each visible button's text, and whether it lies on one line.
WORDS_WHOLE = """() => [...document.querySelectorAll('button')]
  .filter((b) => b.offsetParent !== null && b.textContent.trim())
  .flatMap((button) => {
    const out = [];
    const walk = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        out.push([button.id || button.textContent.trim(), m[0], tops.size === 1]);
      }
    }
    return out;
  })"""


@pytest.mark.parametrize("size", [(1024, 560), (800, 600), (390, 844)])
def test_no_button_breaks_a_word_across_lines(server, chromium, size):
    """At 1024x560 the seat column's Resign read "Resig" over "n": the column breaks long
    words anywhere (an agent's spec is one), and its buttons took that from it. A button
    wraps between its words, or its row wraps, never inside a word."""
    for game in ("erd", "squad-combat"):
        context, page = at_the_table(chromium, server, game, {}, size)
        words = page.evaluate(WORDS_WHOLE)
        assert any(word == "Resign" for _, word, _ in words), words
        broken = [(button, word) for button, word, whole in words if not whole]
        assert not broken, (game, size, broken)
        context.close()
