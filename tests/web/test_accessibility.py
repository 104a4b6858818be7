"""Accessibility basics players expect: axe-core finds no serious or critical violation on
any page (contrast at WCAG AA, names and roles, no interactive element inside another), and
a move can be made with the keyboard alone, its focus visible."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.web.browser import BACKWARD, at_the_table, moves_sent, tab_to
from tests.web.shots import finished_match

AXE = Axe()
PAGES = [
    ("edges", {"board": "2x2", "first": 0}),
    ("erd", {}),
    # The richest Erosion page: the legends, the challenge and the mountains' architecture.
    ("erosion", {"first": 0, "advanced": True, "legend": "basic"}),
    ("triangle-clock", {"choice_seconds": 0, "memorise_seconds": 1}),
    ("squad-combat", {"first": 0}),
]


def serious(page) -> list[str]:
    """The serious and critical violations axe-core finds on the page, one line each."""
    found = AXE.run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['nodes'][0]['target']} {v['help']}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_the_lobby_the_replay_page_and_the_rules_have_no_serious_violation(server, chromium, size):
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.click("#more > summary")
    assert serious(page) == []
    page.goto(f"{server.url}/replay")
    page.wait_for_load_state("networkidle")
    assert serious(page) == []
    page.goto(f"{server.url}/lobby")  # a mistyped address: the page saying so
    assert serious(page) == [] and page.title() == "No such page — meeple"
    created = server.create("edges", {"board": "2x2"}, ["human", "greedy"])
    page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("body[data-status='playing']")
    page.click("#rules-button")
    page.wait_for_selector(".rules-body")
    assert serious(page) == []
    context.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_a_replay_stepped_with_its_board_as_text_has_no_serious_violation(server, chromium, size):
    """The replay page of a finished match, not only the empty page: at a step, through a
    seat's eyes, the board as text open. Its move log is reached by Tab and named "moves",
    as the game page's is (it was neither: a keyboard could not scroll a long one)."""
    match = finished_match(server, "erd")
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{server.url}/replay?match={match}&step=1")
    page.wait_for_selector("body[data-step='1']")
    page.select_option("#eyes", "1")
    page.click("#board-text-box > summary")
    page.wait_for_function(
        "() => document.getElementById('board-text').textContent.includes('Blue')", timeout=30_000
    )
    assert serious(page) == []
    page.focus("#board-text")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "log"
    assert page.get_attribute("#log", "aria-label") == "moves"
    context.close()


@pytest.mark.parametrize(("game", "options"), PAGES, ids=[g for g, _ in PAGES])
def test_each_game_page_in_play_has_no_serious_violation(server, chromium, game, options):
    context, page = at_the_table(chromium, server, game, options, (1280, 800))
    page.wait_for_timeout(300)
    assert serious(page) == []
    context.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_squad_combat_with_a_seat_that_has_passed_has_no_serious_violation(server, chromium, size):
    """The "passed" chip on a seat that passed its action phase (white on grey failed
    contrast, 3.9:1), seen while the other seat still acts."""
    created = server.create("squad-combat", {"first": 0}, ["human", "human"])
    red = created["seats"][0]["token"]
    match = created["match"]
    server.join(created, 1)
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{server.url}/play/{match}#token={red}")
    page.wait_for_selector("body[data-status='playing'] #board .clickable")
    page.fill("#notation", "pass")
    page.press("#notation", "Enter")
    page.wait_for_selector("#board .sc-chip.sc-passed")
    assert serious(page) == []
    context.close()


SKIP = re.compile(BACKWARD.pattern[:-1] + r"|put the next cards)", re.IGNORECASE)
"""Clickables a player going forward passes over: steps back, and Erd's switch between
filling Rush and Defense (pressing it again and again would never finish a choice)."""


def _focused_forward(page) -> bool:
    hint = page.evaluate(
        "document.activeElement?.classList?.contains('clickable')"
        " ? document.activeElement.getAttribute('data-hint') : null"
    )
    return hint is not None and not SKIP.match(hint)


def _tab_to_clickable(page, limit: int = 80) -> bool:
    """Tab until a clickable part of the picture that moves the choice forward has the
    focus; False if none is reached."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if _focused_forward(page):
            return True
    return False


@pytest.mark.parametrize(("game", "options"), [PAGES[0], PAGES[1]], ids=["edges", "erd"])
def test_a_move_is_made_with_the_keyboard_alone(server, chromium, game, options):
    """Tab to a clickable part of the picture, Enter (again for each step of a card game's
    choice) until a move is sent; the focused part shows a visible outline or stroke. The
    focus then stays on the picture, and is on a part of it at the player's next turn."""
    context, page = at_the_table(chromium, server, game, options, (1280, 800))
    page.wait_for_function("() => document.querySelector('#board .clickable') !== null")
    assert _tab_to_clickable(page), "Tab never reached the picture's clickable parts"
    for _ in range(12):
        if not _focused_forward(page):
            assert _tab_to_clickable(page), "the focus left the picture after a step"
        style = page.evaluate(
            "(() => { const s = getComputedStyle(document.activeElement);"
            " return [s.outlineStyle, s.stroke, s.filter]; })()"
        )
        assert style[0] != "none" or "drop-shadow" in style[2], style
        page.keyboard.press("Enter")
        if moves_sent(page) > 0:
            break
    assert moves_sent(page) > 0, "no move was sent with the keyboard"
    # The focus stays on the picture while the others move, and at the player's next turn
    # is on a part of it again: a keyboard player never starts again from the logo.
    assert page.evaluate("document.querySelector('#board').contains(document.activeElement)")
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.matches('#board .clickable')"
        " && Number(document.body.dataset.seq) > 0",
        timeout=20_000,
    )
    page.keyboard.press("Enter")  # the next move's first step, with no Tab first
    assert page.evaluate("document.querySelector('#board').contains(document.activeElement)")
    context.close()


# Each animation running on the page: its name, and when it ends (ms; -1: never).
MOVING = """() => document.getAnimations().filter((a) => a.playState === "running")
  .map((a) => { const end = a.effect.getComputedTiming().endTime;
                return [a.animationName, end === Infinity ? -1 : end]; })"""

DRAWS_THE_EYE = {"edges": "edges-march", "squad-combat": "sc-blink"}
"""The game's own animation beside the "your turn" pulse, at the seat's first decision."""


@pytest.mark.parametrize(("game", "options"), PAGES, ids=[g for g, _ in PAGES])
def test_what_moves_on_its_own_rests_within_five_seconds_and_not_at_all_if_asked(
    server, chromium, game, options
):
    """WCAG 2.2.2 and 2.3.3 on every game's page: the pulsing "your turn" (and Edges'
    marching open edges, Squad Combat's blinking "deciding") run for a player who has not asked
    otherwise, and end within five seconds (only the spinner of a computer thinking turns
    on); for a player whose system asks for reduced motion (``prefers-reduced-motion:
    reduce``) nothing moves at all. (An animation that never ended was painted again at
    every frame for as long as the page stayed open.)"""
    for motion in ("no-preference", "reduce"):
        # A player of each kind, each at a match of their own (a seat's link takes it once).
        created = server.create(game, options, ["human", "random"])
        url = f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}"
        context = chromium.new_context(reduced_motion=motion)
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-status='playing'] #board .clickable")
        moving = page.evaluate(MOVING)
        context.close()
        if motion == "reduce":
            assert moving == [], moving
            continue
        assert {"pulse", DRAWS_THE_EYE.get(game, "pulse")} <= {n for n, _ in moving}, moving
        for name, end in moving:
            assert name == "spin" or 0 <= end <= 5000, (name, end)


ANNOUNCED = "(document.querySelector('#announce p:last-child')?.textContent ?? '')"
"""What the live region said last (each announcement is a paragraph of its own)."""


def test_a_screen_reader_is_told_the_opponents_move_its_turn_and_the_result(server, chromium):
    """The page's live region (``#announce``, a polite status) says in words what the
    picture only shows: the computer's move as the log writes it and that it is the
    player's move again; at the end who won and why. Resigning with the keyboard leaves
    the focus on the end box's heading, not on the page (Resign is gone)."""
    context, page = at_the_table(
        chromium, server, "edges", {"board": "2x2", "first": 0}, (1280, 800)
    )
    page.wait_for_selector("#board .clickable")
    assert page.text_content("#announce") == ""  # the first state: the player reads the page
    page.fill("#notation", page.text_content("#legal .legal-move"))
    page.press("#notation", "Enter")
    page.wait_for_function(f"() => {ANNOUNCED}.endsWith('Your move.')", timeout=20_000)
    said = page.evaluate(ANNOUNCED)
    # The region is told on the state's arrival; the log is drawn on the next frame.
    page.wait_for_function("() => document.body.dataset.seq === '2'")  # Red's move, Blue's
    blue = page.text_content("#log li:last-child").strip()
    assert said == f"{blue}. Your move." and blue.startswith("Blue"), said
    page.focus("#resign")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # the button asks once more
    page.wait_for_function(f"() => {ANNOUNCED}.startsWith('Game over')", timeout=20_000)
    said = page.evaluate(ANNOUNCED)
    assert said.startswith("Game over: Blue") and " resigned). Red " in said, said
    page.wait_for_selector("body[data-status='finished']")  # the end box: the next frame
    assert page.evaluate("document.activeElement.matches('#end .end-title')")
    page.keyboard.press("Tab")  # on from the end box: its Rematch button
    assert page.evaluate("document.activeElement.id") == "rematch"
    context.close()


def test_an_edge_in_edges_is_named_by_where_it_is(server, chromium):
    """A screen reader hears each open edge by its notation and where it lies, in the
    squares' words the hints use ("h1,0" alone says nothing to one who cannot see it)."""
    game, options = PAGES[0]
    context, page = at_the_table(chromium, server, game, options, (1280, 800))
    page.wait_for_selector("#board .clickable")
    for name in (
        "edge h1,0, between squares (0,0) and (1,0)",
        "edge v1,1, between squares (1,0) and (1,1)",
        "edge h0,1, the top of square (0,1)",
        "edge v1,2, the right of square (1,1)",
    ):
        assert page.get_by_role("button", name=name, exact=True).count() == 1, name
    context.close()


@pytest.mark.parametrize("key", ["Enter", " "])
def test_a_game_card_chosen_by_keyboard_takes_the_focus_to_the_form(server, chromium, key):
    """Enter or Space on a game card chooses it (``aria-pressed`` says which card is
    chosen) and moves the focus, with the page, to the form's game, then Tab to the
    opponent and Play: at phone width the card is scrolled out of sight."""
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    while page.evaluate("document.activeElement.dataset.game") != "erd":
        page.keyboard.press("Tab")
    page.keyboard.press(key)
    assert page.evaluate("[document.activeElement.id, document.activeElement.value]") == [
        "game",
        "erd",
    ]
    pressed = page.eval_on_selector_all(
        ".game-card", "cards => cards.map(c => [c.dataset.game, c.getAttribute('aria-pressed')])"
    )
    assert [game for game, on in pressed if on == "true"] == ["erd"], pressed
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "create-button"
    context.close()


def test_a_screen_reader_is_told_erds_combat(server, chromium):
    """Erd's combat is drawn, not logged: the live region says its outcome after the
    computer's allocation, once both have chosen (the computer's next choice may follow)."""
    context, page = at_the_table(chromium, server, "erd", {}, (1280, 800))
    page.wait_for_selector("#board .clickable")
    page.fill("#notation", page.text_content("#legal .legal-move"))
    page.press("#notation", "Enter")
    combat = "#announce p:has-text('Combat in game 1, round 1: ')"
    said = page.wait_for_selector(combat, state="attached", timeout=20_000).text_content()
    assert said.startswith("Blue · ") and said.endswith("(both choose at once)."), said
    context.close()


def test_the_board_as_text_opens_by_keyboard_and_follows_the_game(server, chromium):
    """A player who cannot see the picture opens "Board as text" with Tab and Enter: the
    terminal's board for their seat, named by a caption saying whose board it is, in plain
    text (no box-drawing characters), drawn again with each state; axe finds nothing."""
    context, page = at_the_table(
        chromium, server, "edges", {"board": "2x2", "first": 0}, (1280, 800)
    )
    page.wait_for_selector("#board .clickable")
    tab_to(page, "#board-text-box > summary")
    page.keyboard.press("Enter")
    board = "#board-text"
    page.wait_for_function(
        f"() => document.querySelector('{board}').textContent.includes('Turn 1')"
    )
    caption = page.text_content("#board-text-caption")
    assert caption.startswith("Edges") and "the board as Red" in caption, caption
    name = page.evaluate(
        "(() => { const pre = document.querySelector('#board-text');"
        " const by = document.getElementById(pre.getAttribute('aria-labelledby'));"
        " return by.textContent; })()"
    )
    assert name == caption
    text = page.text_content(board)
    assert "Red (seat 0) to place a pyramid" in text and "h0" in text, text
    assert not re.search("[\u2500-\u257f]", text), text
    assert serious(page) == []
    page.fill("#notation", page.text_content("#legal .legal-move"))
    page.press("#notation", "Enter")
    # The computer answers: the text follows each state while the box is open.
    page.wait_for_function(
        f"() => document.querySelector('{board}').textContent.includes('Turn 3')", timeout=20_000
    )
    context.close()
