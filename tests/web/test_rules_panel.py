"""The Rules panel: on every game page and on the replay page, a "Rules" button opens the
rules for players of that match (its own options), closable by keyboard, readable on a
desktop and on a phone. With $MEEPLE_RULES_SHOTS set, each open panel is photographed there."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.web.test_games import FAST
from tests.web.test_replay import _finished_match

SHOTS = Path(os.environ["MEEPLE_RULES_SHOTS"]) if os.environ.get("MEEPLE_RULES_SHOTS") else None
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
PHRASES = {
    # A phrase of each game's own rules, and one that shows FAST's options were followed.
    "edges": ["Pie rule", "2 x 2 squares"],
    "erd": ["Mercy rule", "This match is a single game."],
    "erosion": ["each rock in your delta", "one era"],
    "squad-combat": ["An attack, step by step", "after 8 turns"],
    "triangle-clock": ["Flush 4 Set Rotate", "for 60 seconds"],
}


def _fits(page, width: int, height: int) -> None:
    box = page.locator("#rules-panel").bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height, box
    # Nothing in the panel's text runs off to the side (tables scroll inside themselves).
    overflow = page.evaluate(
        "() => { const b = document.querySelector('.rules-body');"
        " return b.scrollWidth - b.clientWidth; }"
    )
    assert overflow <= 1, overflow


def _open_check_close(page, name: str, phrases: list[str], size: str) -> None:
    width, height = SIZES[size]
    page.focus("#rules-button")
    page.keyboard.press("Enter")  # keyboard reachable: a real button
    page.wait_for_selector("#rules-panel[open] .rules-body h2")
    text = page.inner_text(".rules-body")
    for phrase in phrases:
        assert phrase in text, f"{name}: {phrase!r} not in the rules panel"
    _fits(page, width, height)
    page.locator(".rules-body table").last.scroll_into_view_if_needed()
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SHOTS / f"{name}-{size}-table.png")
    page.keyboard.press("Escape")
    page.wait_for_selector("#rules-panel", state="hidden")
    page.click("#rules-button")
    page.wait_for_selector("#rules-panel[open]")
    page.click(".rules-close")
    page.wait_for_selector("#rules-panel", state="hidden")
    assert page.evaluate("() => document.activeElement.id") == "rules-button"


@pytest.mark.parametrize("size", list(SIZES))
def test_every_game_page_shows_its_matchs_rules(server, chromium, size):
    width, height = SIZES[size]
    context = chromium.new_context(viewport={"width": width, "height": height})
    errors: list[str] = []
    try:
        for game, (options, agent) in FAST.items():
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            created = server.create(game, options, ["human", agent])
            token = created["seats"][0]["token"]
            page.goto(f"{server.url}/play/{created['match']}#token={token}")
            page.wait_for_selector("body[data-status]")
            _open_check_close(page, game, PHRASES[game], size)
            page.close()
    finally:
        context.close()
    assert not errors, errors


def test_the_replay_page_shows_the_rules_of_the_match_or_the_file(
    server, context, watch, page_errors, tmp_path
):
    match = _finished_match(server)
    page = watch(context.new_page())
    page.goto(f"{server.url}/replay?match={match}")
    page.wait_for_selector("body[data-step='0']")
    _open_check_close(page, "replay", ["Pie rule", "2 x 2 squares"], "desktop")

    # An uploaded record: the rules follow the file's game and options.
    page.goto(f"{server.url}/replay")
    page.click("#rules-button")
    page.wait_for_selector("#rules-panel[open]")
    assert "Choose a record file first" in page.inner_text(".rules-body")
    page.keyboard.press("Escape")
    other = server.create("edges", {"board": "2x3", "pie": False}, ["random", "greedy"])
    server.finished(other["match"], 30)
    record = server.get(f"/api/matches/{other['match']}/record")
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    page.set_input_files("#file", str(path))
    page.wait_for_timeout(300)
    page.click("#rules-button")
    page.wait_for_selector("#rules-panel[open] .rules-body h2")
    text = page.inner_text(".rules-body")
    assert "2 x 3 squares" in text and "no pie rule" in text
    assert not page_errors, page_errors


def test_an_option_the_others_make_moot_is_noted_above_the_rules(server, chromium):
    """Erd's drawn games given to a single game (through the API: the lobby hides the
    option): the panel says, above the rules, that the game ignores it; a match of three
    games, where it matters, has no note."""
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    for best_of, noted in ((1, True), (3, False)):
        options = {"best_of": best_of, "match_draws": "replay"}
        created = server.create("erd", options, ["human", "random"])
        page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
        page.wait_for_selector("body[data-status]")
        page.click("#rules-button")
        page.wait_for_selector("#rules-panel[open] .rules-body h2")
        notes = page.locator(".rules-body > .rules-note")
        if noted:
            assert notes.count() == 1
            said = notes.inner_text()
            assert said == (
                "Note: match_draws=replay matters only with best_of other than 1: this game "
                "ignores it."
            )
            # First in the panel, read before the rules it qualifies.
            first = page.evaluate(
                "() => document.querySelector('.rules-body').firstElementChild.className"
            )
            assert first == "rules-note"
            _fits(page, 390, 844)
            if SHOTS is not None:
                page.screenshot(path=SHOTS / "erd-phone-note.png")
        else:
            assert notes.count() == 0
        page.keyboard.press("Escape")
    context.close()
