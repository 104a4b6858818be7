"""Each game's tutorial, started from the lobby's "Learn" button and clicked through to its
end in Chromium, with one click on another move answered by the step's why."""

from __future__ import annotations

from typing import Any

import pytest

import meeple.games  # noqa: F401  (registers the games)
from meeple.core.tutorial import load_tutorial
from tests.web.browser import Frames, click_expected, click_unless_redrawn, marks, moves_sent
from tests.web.test_accessibility import serious
from tests.web.test_touch import PHONE

GAMES = ["edges", "erd", "triangle-clock", "erosion", "squad-combat"]


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
    lesson = load_tutorial(game)
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = watch(context.new_page())
    frames = Frames().attach(page)
    page.goto(f"{server.url}/")
    page.click(f"#learn-{game}")
    page.wait_for_selector("body[data-tutorial='0']")
    page.wait_for_function("() => document.body.dataset.expected")
    assert page.query_selector_all("#board .tutorial-mark"), "the expected move is not marked"
    steps = 0
    refused_at = None
    while page.get_attribute("body", "data-tutorial") != "done":
        step = page.get_attribute("body", "data-tutorial")
        expected = page.get_attribute("body", "data-expected")
        if not expected:
            page.wait_for_timeout(50)
            continue
        number = int(step)
        assert page.inner_text("#tutorial-prompt") == " ".join(lesson.steps[number].prompt.split())
        state = frames.latest_state()
        if refused_at is None and any(m["text"] != expected for m in state["legal"]):
            # One click on another (legal) move: refused with the step's why.
            off_script_click(page)
            page.wait_for_selector("#tutorial-why:not([hidden])")
            assert lesson.steps[number].why in page.inner_text("#tutorial-why")
            refused = [m for m in frames.of_type("error") if m.get("code") == "off_script"]
            assert refused and refused[0]["message"] == lesson.steps[number].why
            refused_at = number
            assert serious(page) == []  # the lesson's box, its why line and its marks
        click_expected(page)
        steps += 1
        page.wait_for_function(
            "([step]) => document.body.dataset.tutorial !== step", arg=[step], timeout=15000
        )
    assert refused_at is not None, "no step offered another move to click"
    assert steps == len(lesson.steps)
    assert " ".join(lesson.end.split())[:60] in page.inner_text("#tutorial-end")
    link = page.get_attribute("#tutorial-play", "href")
    assert link == f"/?game={game}"
    page.wait_for_selector("body[data-status='finished']")
    assert page.query_selector("#rematch") is None  # a lesson has no rematch
    assert serious(page) == []
    # Every move the page sent but the off-script one was taken.
    errors = [m for m in frames.of_type("error") if m.get("code") != "off_script"]
    assert not errors, errors
    assert not page_errors
    page.click("#tutorial-play")
    # The click navigates to the lobby: until it has loaded, the page has no game picker.
    page.wait_for_function(f"() => document.getElementById('game')?.value === '{game}'")
    context.close()


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
    draw", as if the learner had drawn a game."""
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = watch(context.new_page())
    page.goto(f"{server.url}/")
    page.click("#learn-squad-combat")
    page.wait_for_selector("body[data-tutorial='0']")
    while (step := page.get_attribute("body", "data-tutorial")) != "done":
        if not page.get_attribute("body", "data-expected"):
            page.wait_for_timeout(50)
            continue
        click_expected(page)
        page.wait_for_function(
            "([step]) => document.body.dataset.tutorial !== step", arg=[step], timeout=15000
        )
    page.wait_for_selector("body[data-status='finished']")
    assert page.inner_text("#end .end-title") == "Lesson complete"
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
    new."""
    page = watch(chromium.new_context(**PHONE).new_page())
    page.goto(f"{server.url}/")
    page.locator("#learn-triangle-clock").tap()
    page.wait_for_selector("body[data-tutorial='0']")
    refused = False
    while (step := page.get_attribute("body", "data-tutorial")) != "done":
        if not page.get_attribute("body", "data-expected"):
            page.wait_for_timeout(50)
            continue
        assert page.evaluate(IN_SIGHT, "#tutorial-prompt"), f"step {step}'s words are out of sight"
        if step == "1" and not refused:  # the first step whose marked part is a screen below
            off_script_click(page, tap=True)
            page.wait_for_selector("#tutorial-why:not([hidden])")
            assert page.evaluate(IN_SIGHT, "#tutorial-why"), "the refusal's why is out of sight"
            refused = True
        click_expected(page, tap=True)
        page.wait_for_function(
            "([step]) => document.body.dataset.tutorial !== step", arg=[step], timeout=15000
        )
    assert page.evaluate(IN_SIGHT, "#tutorial-end")
    assert page.evaluate(IN_SIGHT, "#tutorial-play"), "the way to a real game is out of sight"
    assert not page_errors


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
    for number in range(step + 1):
        page.wait_for_function(
            "([n]) => document.body.dataset.tutorial === n && document.body.dataset.expected",
            arg=[str(number)],
        )
        if number < step:
            click_expected(page)
    assert page.query_selector_all("#board g.tutorial-mark text"), "no marked group with words"
    assert page.evaluate(MARK_REACHES_TEXT) == []
