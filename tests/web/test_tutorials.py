"""Each game's tutorial, started from the lobby's "Learn" button and clicked through to its
end in Chromium, with one click on another move answered by the step's why."""

from __future__ import annotations

from typing import Any

import pytest

import meeple.games  # noqa: F401  (registers the games)
from meeple.core.tutorial import load_tutorial
from tests.web.browser import (
    Frames,
    click_expected,
    click_unless_redrawn,
    marks,
    moves_sent,
    tab_to,
)
from tests.web.test_accessibility import serious
from tests.web.test_touch import PHONE

GAMES = ["edges", "erd", "triangle-clock", "erosion", "squad-combat"]

# The lessons walked from the lobby to their end on a phone, by taps; the others at
# 1280x800 by clicks (The Triangle Clock's and Squad Combat's lessons are tapped through on a
# phone below), so that each is walked at both sizes.
ON_A_PHONE = {"edges", "erd", "erosion"}

# Whether a marked part lies wholly inside the window and under none of the bars a game pins
# over its picture (position sticky or fixed) that do not hold it; whether the lesson's box
# says where the part is instead; and whether the box's words are in sight.
MARKED_IN_SIGHT = """() => {
  const bars = [...document.querySelectorAll('#board :not(svg *)')]
    .filter((e) => ['sticky', 'fixed'].includes(getComputedStyle(e).position));
  const clear = (part) => {
    const r = part.getBoundingClientRect();
    if (r.top < -1 || r.bottom > innerHeight + 1 || r.left < -1 || r.right > innerWidth + 1)
      return false;
    return !bars.some((bar) => {
      const b = bar.getBoundingClientRect();
      return !bar.contains(part) && b.top < r.bottom - 1 && b.bottom > r.top + 1
        && b.left < r.right && b.right > r.left; });
  };
  const words = document.getElementById('tutorial-prompt').getBoundingClientRect();
  return { marked: [...document.querySelectorAll('#board .tutorial-mark')].some(clear),
    where: !document.getElementById('tutorial-where').hidden,
    words: words.top >= -1 && words.bottom <= innerHeight + 1 }; }"""

# The outline drawn now around the focused part of the picture ("none" when the focus is
# elsewhere).
FOCUS_OUTLINE = """() => { const a = document.activeElement;
  return a && a.closest('#board') && a !== document.getElementById('board')
    ? getComputedStyle(a).outlineStyle : 'none'; }"""


def marked_part_in_sight(page: Any, tap: bool = False, show: bool = True) -> bool:
    """The step's marked part lies in the window, clear of the bars pinned over the picture,
    with the lesson's words; or, where both cannot be shown at once, the box says where the
    part is (and, with ``show``, its "Show it" brings the part there: True)."""
    sight = page.evaluate(MARKED_IN_SIGHT)
    assert sight["words"], "the step's words are out of sight"
    if sight["marked"]:
        assert not sight["where"], "the box says the marked part is elsewhere; it is in sight"
        return False
    assert sight["where"], "the marked part is out of sight and the box does not say where"
    if not show:
        return False
    button = page.locator("#tutorial-show")
    button.tap() if tap else button.click()
    assert page.evaluate(MARKED_IN_SIGHT)["marked"], "Show it left the marked part out of sight"
    return True


def off_script_click(page: Any, tap: bool = False) -> str:
    """Click (``tap``: tap) a (legal) move other than the expected one until the page sends
    it: a part of the picture not marked for the lesson, then a choice it opens. Returns the
    move."""
    expected = page.get_attribute("body", "data-expected")
    sent = moves_sent(page)
    tried: dict[str, int] = {}
    for _ in range(40):
        others = []
        elements = page.query_selector_all("#board .clickable")
        for element, (move, hint, marked) in zip(elements, marks(page, elements), strict=True):
            if not (marked or hint.startswith(("cancel", "clear", "take")) or move == expected):
                others.append((move, hint, element))
        sending = [o for o in others if o[0]]
        opening = [o for o in others if not o[0] and tried.get(o[1], 0) < 6]
        if not (sending or opening):
            break
        move, hint, element = (sending or opening)[0]
        tried[hint] = tried.get(hint, 0) + 1
        if click_unless_redrawn(element, tap) and moves_sent(page) > sent:
            return move or ""
    raise AssertionError("no other move could be clicked")


@pytest.mark.parametrize("game", GAMES)
def test_a_tutorial_from_the_lobby_to_its_end(server, chromium, watch, page_errors, game):
    """At every step the marked part is in sight with the step's words, clear of the bars
    pinned over the picture, or the box says where it is (an Edges edge lay under the size
    picker pinned to a phone's bottom; The Triangle Clock's cards a screen below the box,
    unsaid); a wrong tap leaves no ring on the part tapped (an Edges edge kept Chromium's
    focus ring, and looked chosen)."""
    lesson = load_tutorial(game)
    tap = game in ON_A_PHONE
    size = PHONE if tap else {"viewport": {"width": 1280, "height": 800}}
    context = chromium.new_context(**size)
    page = watch(context.new_page())
    frames = Frames().attach(page)
    page.goto(f"{server.url}/")
    page.locator(f"#learn-{game}").tap() if tap else page.click(f"#learn-{game}")
    page.wait_for_selector("body[data-tutorial='0']")
    page.wait_for_function("() => document.body.dataset.expected")
    assert page.query_selector_all("#board .tutorial-mark"), "the expected move is not marked"
    # What to do in words; the notation, not yet taught, only as what typing would take.
    verb = "Tap" if tap else "Click"
    told = page.inner_text("#tutorial-expected")
    first = page.get_attribute("body", "data-expected")
    assert told == f"{verb} what glows white (typed, this move reads {first})", told
    steps = 0
    refused_at = None
    shown = False  # "Show it" tried once a walk: each try costs the browser a scroll
    while page.get_attribute("body", "data-tutorial") != "done":
        step = page.get_attribute("body", "data-tutorial")
        expected = page.get_attribute("body", "data-expected")
        if not expected:
            page.wait_for_timeout(50)
            continue
        number = int(step)
        assert page.inner_text("#tutorial-prompt") == " ".join(lesson.steps[number].prompt.split())
        shown = marked_part_in_sight(page, tap, not shown) or shown
        state = frames.latest_state()
        if refused_at is None and any(m["text"] != expected for m in state["legal"]):
            # One click on another (legal) move: refused with the step's why.
            off_script_click(page, tap)
            page.wait_for_selector("#tutorial-why:not([hidden])")
            page.mouse.move(0, 0)  # a mouse's hover may ring the part; the focus may not
            assert page.evaluate(FOCUS_OUTLINE) == "none", "the part clicked is ringed"
            shown = marked_part_in_sight(page, tap, not shown) or shown
            assert lesson.steps[number].why in page.inner_text("#tutorial-why")
            refused = [m for m in frames.of_type("error") if m.get("code") == "off_script"]
            assert refused and refused[0]["message"] == lesson.steps[number].why
            refused_at = number
            assert serious(page) == []  # the lesson's box, its why line and its marks
            # The marked part clicked, the refusal's words go (they stayed until the move
            # was sent, over the size picker an Edges edge opens first).
            opening = page.query_selector("#board .clickable.tutorial-mark:not([data-move])")
            if opening is not None and click_unless_redrawn(opening, tap):
                page.wait_for_selector("#tutorial-why", state="hidden")
        click_expected(page, tap=tap)
        steps += 1
        page.wait_for_function(
            "([step]) => document.body.dataset.tutorial !== step", arg=[step], timeout=15000
        )
    assert refused_at is not None, "no step offered another move to click"
    assert steps == len(lesson.steps)
    assert " ".join(lesson.end.split())[:60] in page.inner_text("#tutorial-end")
    link = page.get_attribute("#tutorial-play", "href")
    assert link == f"/?game={game}&against=easy"
    page.wait_for_selector("body[data-status='finished']")
    assert page.query_selector("#rematch") is None  # a lesson has no rematch
    assert serious(page) == []
    if game == "erd":
        # Won in combat, the last piles stay on the table: drawn in the Reserve too, the
        # page showed five Heavies of the three each side has.
        view = frames.latest_state()["view"]
        shown = page.locator("#board .erd-side").evaluate_all(ERD_RESERVES)
        for seat, side in enumerate(view["sides"]):
            piles = view["last_combat"]["rush"][seat] + view["last_combat"]["defense"][seat]
            placed = piles.count("H") + side["turrets"] + side["discard"]["H"]
            assert shown[1 - seat]["H"] + placed == 3, (seat, shown, view["last_combat"])
    # Every move the page sent but the off-script one was taken.
    errors = [m for m in frames.of_type("error") if m.get("code") != "off_script"]
    assert not errors, errors
    assert not page_errors
    page.locator("#tutorial-play").tap() if tap else page.click("#tutorial-play")
    # The click navigates to the lobby: until it has loaded, the page has no game picker.
    page.wait_for_function(f"() => document.getElementById('game')?.value === '{game}'")
    # A lesson old, the learner is offered the easy computer, not the lobby's hardest.
    page.wait_for_function("() => document.getElementById('opponent')?.value === 'easy'")
    context.close()


# Each side's Reserve as the table draws it (the top side first): its stacks' counts.
ERD_RESERVES = """sides => sides.map((side) => Object.fromEntries(
    [...side.querySelectorAll('.erd-stack')].slice(0, 3).map((stack, i) => [
        'HLD'[i], Number(stack.querySelector('.erd-count')?.textContent ?? 0)])))"""


def test_the_learner_s_seat_is_named_with_one_pair_of_brackets(server, chromium, watch):
    """The seat list said "Red (Learner) (you)"; a named person's seat "Red (Ann) (you)"."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = watch(context.new_page())
    page.goto(f"{server.url}/")
    page.click("#learn-edges")
    page.wait_for_selector("body[data-tutorial='0']")
    assert page.inner_text("#seats .me .seat-name") == "Red (Learner, you)"
    page.evaluate("localStorage.setItem('meeple-name', 'Ann')")
    created = server.create("edges", {"board": "2x2"}, ["human", "random"])
    page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("body[data-status='playing']")
    assert page.inner_text("#seats .me .seat-name") == "Red (Ann, you)"
    assert page.inner_text("#seats .seat-1 .seat-name") == "Blue · Computer (random)"
    context.close()


def test_a_lesson_that_stops_before_its_game_ends_is_complete_not_a_draw(
    server, chromium, watch, page_errors
):
    """Squad Combat's lesson stops after one turn with no winner: the end box said "A
    draw", as if the learner had drawn a game. Tapped through on a phone, each step's
    marked part is in sight or said to be further down (its dice and cards lie a screen
    below the box)."""
    context = chromium.new_context(**PHONE)
    page = watch(context.new_page())
    page.goto(f"{server.url}/")
    page.locator("#learn-squad-combat").tap()
    page.wait_for_selector("body[data-tutorial='0']")
    shown = False
    while (step := page.get_attribute("body", "data-tutorial")) != "done":
        if not page.get_attribute("body", "data-expected"):
            page.wait_for_timeout(50)
            continue
        shown = marked_part_in_sight(page, True, not shown) or shown
        click_expected(page, tap=True)
        page.wait_for_function(
            "([step]) => document.body.dataset.tutorial !== step", arg=[step], timeout=15000
        )
    page.wait_for_selector("body[data-status='finished']")
    assert page.inner_text("#end .end-title") == "Lesson complete"
    # Over, nobody decides: the board said "action phase" and "deciding" beside it.
    chips = page.locator("#board .sc-flags").all_inner_texts()
    assert not [c for c in chips if "deciding" in c or "action phase" in c], chips
    assert not page_errors
    context.close()


# Whether the element lies wholly inside the window as it is scrolled now.
IN_SIGHT = """(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
  return r.top >= -1 && r.bottom <= innerHeight + 1; }"""


def test_a_phone_keeps_the_lesson_s_words_in_sight(server, chromium, watch, page_errors):
    """On a phone the learner scrolls down to the marked part and taps it; the next step's
    words, a refusal's why and the closing words then came into the box above, out of sight
    (The Triangle Clock's hand is a screen and more below the box), and nothing on screen
    said that the lesson had moved on. The box comes into sight whenever it says something
    new. The marked part, a screen below the box, is said to be further down, and "Show
    it" brings it into sight; a wrong tap leaves no ring on the card tapped."""
    page = watch(chromium.new_context(**PHONE).new_page())
    page.goto(f"{server.url}/")
    page.locator("#learn-triangle-clock").tap()
    page.wait_for_selector("body[data-tutorial='0']")
    refused = shown = False
    while (step := page.get_attribute("body", "data-tutorial")) != "done":
        if not page.get_attribute("body", "data-expected"):
            page.wait_for_timeout(50)
            continue
        assert page.evaluate(IN_SIGHT, "#tutorial-prompt"), f"step {step}'s words are out of sight"
        if step == "1" and not refused:  # the first step whose marked part is a screen below
            assert page.is_visible("#tutorial-where"), "the box does not say where to tap"
            off_script_click(page, tap=True)
            page.wait_for_selector("#tutorial-why:not([hidden])")
            assert page.evaluate(IN_SIGHT, "#tutorial-why"), "the refusal's why is out of sight"
            assert page.evaluate(FOCUS_OUTLINE) == "none", "the card tapped is ringed"
            refused = True
        shown = marked_part_in_sight(page, True, not shown) or shown
        click_expected(page, tap=True)
        page.wait_for_function(
            "([step]) => document.body.dataset.tutorial !== step", arg=[step], timeout=15000
        )
    # The lesson's end is drawn with its last move's state; the match's end (the table's
    # "game over") comes with the next state, a store's write later.
    page.wait_for_selector("body[data-status='finished']")
    assert page.evaluate(IN_SIGHT, "#tutorial-end")
    assert page.evaluate(IN_SIGHT, "#tutorial-play"), "the way to a real game is out of sight"
    assert page.evaluate(TRIANGLE_CLOCK_TABLE) == {
        "round": "after 2 rounds of 32",
        "phase": "game over",
        "hand": "",
        "caption": "shared: NWc",
        "revealed": 6,
        "shared so far": 2,
    }
    assert not page_errors


# What the Triangle Clock's table shows: its round and phase, the hand's line, the clock.
TRIANGLE_CLOCK_TABLE = """() => ({
  round: document.querySelector('.tc-round-n').textContent,
  phase: document.querySelector('.tc-phase').textContent,
  hand: document.querySelector('.tc-building').textContent,
  caption: document.querySelector('.tc-table .tc-caption').textContent,
  revealed: document.querySelectorAll('.tc-table .tc-slot-name').length,
  'shared so far': document.querySelectorAll('.tc-side .tc-chip').length })"""


# The text of each marked group (a pyramid, a card's half) whose colours the mark changes.
MARK_REACHES_TEXT = """() => [...document.querySelectorAll('#board g.tutorial-mark')]
 .flatMap((g) => {
  const texts = [...g.querySelectorAll('text')];
  const looks = () => texts.map((t) => {
    const s = getComputedStyle(t); return `${s.fill} ${s.stroke} ${s.strokeWidth}`; });
  const marked = looks();
  g.classList.remove('tutorial-mark');
  const plain = looks();
  g.classList.add('tutorial-mark');
  return texts.filter((t, i) => marked[i] !== plain[i]).map((t) => t.textContent); })"""


@pytest.mark.parametrize(("game", "step"), [("edges", 0), ("triangle-clock", 1)])
def test_a_marked_group_s_words_stay_readable(server, chromium, watch, game, step):
    """The mark's gold fill and 3-unit dark stroke, set on a group, reached the words inside
    it: The Triangle Clock's marked symbol read as black smudges where its letter "G" and its
    name "Ec" were (the hint's mark did the same), Edges' pie pyramid its "L"."""
    page = watch(chromium.new_context(viewport={"width": 1280, "height": 800}).new_page())
    page.goto(f"{server.url}/")
    page.click(f"#learn-{game}")
    # The lesson's page, loaded: a function waited for while the click's navigation is under
    # way may run in a document with no body yet, and fails at once instead of waiting.
    page.wait_for_selector("body[data-tutorial]")
    for number in range(step + 1):
        page.wait_for_function(
            "([n]) => document.body.dataset.tutorial === n && document.body.dataset.expected",
            arg=[str(number)],
        )
        if number < step:
            click_expected(page)
    assert page.query_selector_all("#board g.tutorial-mark text"), "no marked group with words"
    assert page.evaluate(MARK_REACHES_TEXT) == []
    # A click's part is not ringed (test_a_tutorial_from_the_lobby_to_its_end); the
    # keyboard's is.
    tab_to(page, "#board svg .clickable")
    assert page.evaluate(KEYBOARD_RING), "the part the keyboard is on is not ringed"


# Whether the focused part of a picture shows the keyboard's ring (svg parts glow instead of
# an outline: style.css).
KEYBOARD_RING = """() => { const a = document.activeElement;
  return a.matches(':focus-visible') && getComputedStyle(a).filter !== 'none'; }"""
