"""The pages explain themselves: refusals, endings, time-outs, plain names, who thinks."""

from __future__ import annotations

import json
import random
import re
import time

import pytest
from playwright.sync_api import expect

import meeple
from meeple.core.record import GameRecord
from meeple.games.erosion.cards import UPON_UPLIFT
from tests import plain_http
from tests.web.browser import click_disabled, each, replayed_to_its_end, seat_token


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_a_made_up_match_says_so_and_links_to_the_lobby(server, chromium, size):
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{server.url}/play/doesnotexist")
    box = page.wait_for_selector("#refused")
    assert "No such match" in box.inner_text()
    assert page.get_attribute("#refused a", "href") == "/"
    for gone in ("#typed", "#resign", "#sync", "#board", "#log"):
        assert page.locator(gone).count() == 0, f"{gone} is still on the page"
    bounds = box.bounding_box()
    assert bounds and bounds["x"] >= 0 and bounds["x"] + bounds["width"] <= size[0]
    context.close()


@pytest.mark.parametrize("token", ["abc", "x" * 32])
def test_a_bad_or_cut_short_token_shows_the_error_and_stops_retrying(server, context, token):
    created = server.create("edges", {"board": "2x2"}, ["human", "greedy"])
    page = context.new_page()
    sockets: list[object] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(f"{server.url}/play/{created['match']}#token={token}")
    text = page.wait_for_selector("#refused").inner_text()
    assert "token" in text.lower(), text
    page.wait_for_timeout(2500)  # a retry would come after 0.5 s, then 1 s
    assert len(sockets) == 1, f"the page connected {len(sockets)} times"
    assert page.locator("#typed").count() == 0


def _fits(page, selector: str, width: int) -> None:
    for box in each(
        page, selector, "e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; }"
    ):
        assert box[0] >= -1 and box[1] <= width + 1, f"{selector} spills out: {box} at {width} px"


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_computer_seats_are_named_by_level_with_the_spec_on_hover(server, chromium, size):
    created = server.create("edges", {"board": "2x2", "first": 0}, ["human", "hard"])
    listed = {s["seat"]: s for s in server.get(f"/api/matches/{created['match']}")["seats"]}
    assert listed[1]["label"] == "Computer (hard)"
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.add_init_script("localStorage.setItem('meeple-name', '" + "W" * 40 + "')")
    token = created["seats"][0]["token"]
    page.goto(f"{server.url}/play/{created['match']}#token={token}")
    page.wait_for_selector("body[data-status='playing']")
    seats = page.inner_text("#seats")
    assert "Computer (hard)" in seats and "uct" not in seats, seats
    assert "uct:iterations=" in page.get_attribute("#seats .seat-1 .seat-name", "title")
    assert "uct" not in page.inner_text("#title") + page.inner_text("#turn")
    _fits(page, "#seats .seat-name, #title, #turn", size[0])
    context.close()


def test_the_lobby_and_the_replay_name_computer_seats_by_level(server, context):
    created = server.create("edges", {"board": "2x2"}, ["easy", "medium"])
    server.finished(created["match"], 30)
    rows = {r["match"]: r for r in server.get("/api/matches?status=finished")}
    assert rows[created["match"]]["labels"] == ["Computer (easy)", "Computer (medium)"]
    page = context.new_page()
    page.goto(f"{server.url}/replay?match={created['match']}")
    page.wait_for_selector("body[data-step='0']")
    page.keyboard.press("End")
    page.wait_for_selector("#end:not([hidden]) .end-title")
    text = page.inner_text("#end") + page.inner_text("#log")
    assert "Computer (" in text and "mcts" not in text and "greedy" not in text, text


def _seat_page(chromium, server, created, seat: int, size=(1280, 800)):
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][seat]['token']}")
    return page


def _type(page, move: str) -> None:
    page.wait_for_selector("body[data-status='playing'] #notation")
    page.fill("#notation", move)
    page.press("#notation", "Enter")


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_an_erd_game_lost_by_the_mercy_rule_says_so(server, chromium, size):
    created = server.create("erd", {"best_of": 3}, ["human", "human"])
    red = _seat_page(chromium, server, created, 0, size)
    blue = _seat_page(chromium, server, created, 1)
    _type(red, "rush=LLL defense=HHH")
    _type(blue, "rush=DDD defense=LLL")
    red.wait_for_function("() => Number(document.body.dataset.seq) >= 2")
    ending = red.wait_for_selector(".erd-ending").inner_text()
    assert "mercy rule" in ending and "Game 1 is over" in ending, ending
    assert "game 1 over: mercy rule" in red.text_content(".erd-combat")
    _fits(red, ".erd-ending", size[0])
    red.context.close()
    blue.context.close()


def test_after_the_end_nobody_is_shown_to_move_or_allocating(server, chromium):
    edges = server.create("edges", {"board": "2x2", "first": 0}, ["human", "human"])
    watcher = chromium.new_context().new_page()
    watcher.goto(f"{server.url}/play/{edges['match']}")
    red = _seat_page(chromium, server, edges, 0)
    _seat_page(chromium, server, edges, 1)
    watcher.wait_for_selector("body[data-status='playing'] .edges-stash")
    assert "to move" in watcher.inner_text("#board")  # it was shown while playing
    plain_http.post(
        f"{server.url}/api/matches/{edges['match']}/resign", json={"token": seat_token(red)}
    ).raise_for_status()
    watcher.wait_for_selector("body[data-status='finished'] #end:not([hidden])")
    assert "to move" not in watcher.inner_text("#board")
    red.context.close()

    erd = server.create("erd", {}, ["human", "human"])
    red = _seat_page(chromium, server, erd, 0)
    _seat_page(chromium, server, erd, 1)
    _type(red, "rush=LLL defense=HHH")
    red.wait_for_function("() => Number(document.body.dataset.seq) >= 1")
    assert "allocating…" in red.text_content("#board svg")
    plain_http.post(
        f"{server.url}/api/matches/{erd['match']}/resign", json={"token": seat_token(red)}
    ).raise_for_status()
    red.wait_for_selector("body[data-status='finished']")
    assert "allocating…" not in red.text_content("#board svg")


def test_a_move_made_because_time_ran_out_says_so(server, chromium):
    created = plain_http.post(
        f"{server.url}/api/matches",
        json={
            "game": "edges",
            "options": {"board": "2x2", "first": 0},
            "seats": ["human", "human"],
            "move_seconds": 1,
        },
    ).json()
    red = _seat_page(chromium, server, created, 0)
    blue = _seat_page(chromium, server, created, 1)
    entry = red.wait_for_selector("#log li .timed-out", timeout=30_000)
    assert entry.inner_text().strip() == "time ran out: the computer chose for you"
    assert "time ran out: the computer chose for you" in red.inner_text("#toasts")
    other = blue.wait_for_selector("#log li .timed-out").inner_text().strip()
    assert other == "time ran out: the computer chose"
    red.context.close()
    blue.context.close()


def test_the_page_says_while_the_computer_is_thinking(server, chromium):
    # A time budget, so that the computer's two seconds are long enough to be seen.
    created = server.create("edges", {"board": "2x2", "first": 1}, ["human", "mcts:seconds=2"])
    page = _seat_page(chromium, server, created, 0)
    turn = page.wait_for_selector("#turn.turn-thinking")
    assert turn.inner_text() == "Computer (mcts) is thinking…"
    assert "thinking…" in page.inner_text("#seats .seat-1")
    page.wait_for_selector("#turn.turn-mine")
    assert page.locator("#seats .thinking").count() == 0
    page.context.close()


def _finished(server, seats: list[str], seed: int | None = None) -> tuple[str, dict]:
    """A match of The Triangle Clock between computer seats, played to its end: its id and
    summary."""
    created = server.create("triangle-clock", {}, seats, **({} if seed is None else {"seed": seed}))
    summary = server.finished(created["match"], 60)
    return created["match"], summary


@pytest.fixture(scope="module")
def long_spec_match(server) -> tuple[str, dict]:
    """A computer seat with a long spec, finished: the pages at both sizes only read it."""
    return _finished(server, ["random", "flat:worlds=2,rollout=deep,opponent=guided"])


@pytest.fixture(scope="module")
def seed_1_match(server) -> tuple[str, dict]:
    """Seed 1: the two computer seats, seeded by it, end level on points, and a round is
    won on equal ranks. Finished once for the tests that read it at both sizes."""
    return _finished(server, ["random", "random"], seed=1)


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_the_triangle_clock_s_end_box_keeps_each_score_on_one_line(
    server, chromium, size, long_spec_match
):
    # A computer seat with a long spec: it used to be shown raw and squeeze the scores.
    match, summary = long_spec_match
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{server.url}/play/{match}")
    page.wait_for_selector("#end:not([hidden]) .end-scores")
    scores = "#end .end-scores td:last-child"
    assert page.locator(scores).all_inner_texts() == [str(s) for s in summary["result"]["scores"]]
    size_px = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#end')).fontSize)")
    for height in each(page, scores, "e => e.getBoundingClientRect().height"):
        assert height < 2.4 * size_px, f"a score wraps: {height} px high at {size_px} px"
    _fits(page, "#end, #end .end-scores td", size[0])
    context.close()


def _reserve(page) -> list[str]:
    """The counts on the bottom (own) Reserve's stacks: Heavy, Light, Decoy."""
    return (
        page.locator(".erd-side")
        .last.locator(".erd-stack")
        .evaluate_all("l => l.map(g => (g.querySelector('.erd-count') || {}).textContent || '0')")
    )


def test_erd_s_reserve_counts_go_down_as_an_allocation_is_built(server, chromium):
    created = server.create("erd", {}, ["human", "human"])
    red = _seat_page(chromium, server, created, 0)
    blue = _seat_page(chromium, server, created, 1)
    red.wait_for_selector("body[data-status='playing'] .erd-builder")
    assert _reserve(red) == ["3", "3", "6"]
    red.click(".erd-builder .clickable[data-hint='a Heavy into Rush']")
    red.click(".erd-builder .clickable[data-hint='a Light into Rush']")
    assert _reserve(red) == ["2", "2", "6"]
    red.click(".erd-pending .clickable[data-hint='take the Heavy back out of rush']")
    assert _reserve(red) == ["3", "2", "6"]
    _type(red, "rush=LLL defense=HHH")
    red.wait_for_function("() => Number(document.body.dataset.seq) >= 1")
    assert _reserve(red) == ["0", "0", "6"]  # allocated face down, not back in the Reserve
    red.context.close()
    blue.context.close()


@pytest.mark.parametrize(
    ("rules", "ask"), [("0.02", "Put 3 cards"), ("original", "Put up to 3 cards")]
)
def test_erd_s_builder_says_what_to_choose_and_the_combat_where_the_cards_went(
    server, chromium, rules, ask
):
    """A newcomer saw "rush=- defense=- …" and cards moving to the discard and back with no
    word: the builder asks for each pile's cards in words (exactly 3 since patch 0.01, up to
    3 in the original sketch), a card says its worth, and a combat says where the cards went."""
    created = server.create("erd", {"rules": rules}, ["human", "human"])
    red = _seat_page(chromium, server, created, 0)
    blue = _seat_page(chromium, server, created, 1)
    red.wait_for_selector("body[data-status='playing'] .erd-builder")
    said = red.inner_text(".erd-builder .erd-ask")
    assert said.startswith(f"{ask} in your Rush and "), said
    # Nothing in either pile is an allocation of the original sketch's, not of the patches'.
    assert red.inner_text(".erd-builder .building") == "Rush 0 of 3 · Defense 0 of 3" + (
        "" if rules == "original" else " …"
    )
    worth = red.locator(".erd-builder .erd-pick .erd-card > title").all_text_contents()
    assert worth == [
        "Heavy: worth 2 in a Rush, 3 in a Defense",
        "Light: worth 1 in a Rush, 1 in a Defense",
        "Decoy: worth 0 in a Rush, 0 in a Defense",
    ]
    if rules == "0.02":
        # Piles that can lose by the mercy rule say so before they are confirmed.
        for hint in ("Heavy into Rush", "Light into Rush", "Decoy into Rush"):
            red.click(f".erd-builder .clickable[data-hint='a {hint}']")
        for hint in ("Heavy into Defense", "Heavy into Defense", "Decoy into Defense"):
            red.click(f".erd-builder .clickable[data-hint='a {hint}']")
        warning = red.inner_text(".erd-builder .erd-warning")
        assert warning.startswith("Careful: rush=HLD defense=HHD can lose game 1 by the mercy"), (
            warning
        )
        assert red.inner_text(".erd-builder .erd-confirm") == "Confirm anyway"
        red.click(".erd-builder .erd-clear")
        assert red.locator(".erd-builder .erd-warning").count() == 0
    # Both Defenses hold (each Rush 1, against Defenses of 6 and 2): Red's Defense beats
    # Blue's Rush by 5, one Turret. What comes back is the rules engine's, in words.
    moves = ("rush=LDD defense=HHD", "rush=LDD defense=LLD")
    _type(red, moves[0])
    _type(blue, moves[1])
    game = meeple.make("erd", rules=rules)
    last = game.new_game(0).apply_text(0, moves[0]).apply_text(1, moves[1]).last
    assert last is not None and last.outcome == "held" and last.turrets_made == (1, 0)
    lights, decoys = last.lights_back, last.decoys_back

    def back(seat: int) -> str:
        return f"{lights[seat]} Light{'s' * (lights[seat] != 1)}, {decoys[seat]} Decoys"

    red.wait_for_function("() => Number(document.body.dataset.seq) >= 2")
    combat = " ".join(red.text_content(".erd-combat").split())
    for line in (
        "Piles to the discard (Red keeps 1 Heavy as a Turret)",
        f"back to Reserve: Blue {back(1)}; Red {back(0)}",
    ):
        assert " ".join(line.split()) in combat, combat
    red.context.close()
    blue.context.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_the_replay_of_a_resigned_match_ends_with_its_result_and_any_seat_s_eyes(
    server, chromium, size
):
    created = server.create("erd", {"best_of": 3}, ["human", "human"])
    red = _seat_page(chromium, server, created, 0)
    blue = _seat_page(chromium, server, created, 1)
    _type(red, "rush=LLL defense=HHH")
    _type(blue, "rush=DDD defense=LLL")
    red.wait_for_function("() => Number(document.body.dataset.seq) >= 2")
    plain_http.post(
        f"{server.url}/api/matches/{created['match']}/resign", json={"token": seat_token(blue)}
    ).raise_for_status()
    red.context.close()
    blue.context.close()
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{server.url}/replay?match={created['match']}")
    page.wait_for_selector("body[data-step='0']")
    assert page.is_hidden("#end")
    page.keyboard.press("End")
    page.wait_for_selector("body[data-step='2']")
    end = page.wait_for_selector("#end:not([hidden])")
    assert "resigned" in end.inner_text() and "Red won" in end.inner_text()
    assert page.is_visible("#eyes-box")
    page.select_option("#eyes", "1")
    assert "Blue (you)" in page.inner_text("#board")
    _fits(page, "#end, .replay-controls", size[0])
    context.close()


def test_the_page_shows_the_deal_committed_and_checks_the_seed_at_the_end(server, context):
    created = server.create("edges", {"board": "2x2", "first": 0}, ["human", "greedy"])
    page = context.new_page()
    page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("body[data-status='playing']")
    summary = page.inner_text("#deal-summary")
    assert summary.startswith("Fair deal: sealed at the start ("), summary
    page.click("#deal-summary")
    assert "shown when the match is over" in page.inner_text("#deal-text")
    assert "Seed " not in page.inner_text("#deal")  # never before the end
    page.click("#resign")
    page.click("#resign")  # the second click confirms
    page.wait_for_selector("body[data-status='finished']")
    page.wait_for_function(
        "() => document.getElementById('deal-summary').textContent.includes('✓')"
    )
    text = page.inner_text("#deal-text")
    assert "equals the fingerprint published at the start" in text and "sha256sum" in text


def test_a_game_that_deals_nothing_shows_no_fair_deal(server, context):
    """Erd draws nothing from its seed: "Fair deal: sealed at the start" promised a deal."""
    created = server.create("erd", {"best_of": 1}, ["human", "random"])
    page = context.new_page()
    page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("body[data-status='playing']")
    assert page.is_hidden("#deal")


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_erosion_s_legends_challenge_and_architecture_are_told_in_words(server, chromium, size):
    """The view names the Montane Legend Variant's cards by id ("L1", "C7"), which a player
    who never saw the printed cards cannot read: the page says each legend's name, condition,
    points and owner, the seat's own challenge, and (advanced rules) the architecture of the
    unweathered rocks of each mountain, in words a phone shows too (no tooltip needed)."""
    options = {"advanced": True, "legend": "basic", "first": 0}
    cards = {
        c["id"]: c
        for c in plain_http.get(
            f"{server.url}/api/games/erosion/cards", params={"options": json.dumps(options)}
        ).json()
    }
    # Red architecture only: 'upon uplift' architecture never stands in a mountain.
    architecture = {
        c["architecture"]["name"]
        for c in cards.values()
        if c.get("architecture") and c["architecture"]["effect"]["kind"] not in UPON_UPLIFT
    }
    # Seed 23 deals both mountains a rock with red architecture under their weathered top
    # rock, and one of them a Flood Basalt (upon uplift), unweathered.
    created = server.create("erosion", options, ["human", "random"], seed=23)
    page = _seat_page(chromium, server, created, 0, size)
    legends = page.locator(".er-legend-list li")
    expect(legends).to_have_count(4)
    expect(legends.first).to_contain_text("Everest")  # once the card list has come
    for i, text in enumerate(legends.all_inner_texts(), start=1):
        legend = cards[f"L{i}"]
        assert legend["name"] in text and legend["text"] in text, text
        assert f"{legend['points']} points · open" in text, text
    challenge = page.locator(".er-challenge").inner_text()
    mine = next(c for c in cards.values() if c["id"].startswith("C") and c["id"] in challenge)
    assert challenge.startswith("Your challenge") and mine["text"] in challenge, challenge
    assert f"{mine['points']} bonus points at each scoring" in challenge, challenge
    lines = page.locator(".er-arch-line").all_inner_texts()
    assert len(lines) == 2, lines
    for line in lines:
        names = line.removeprefix("architecture: ").split(", ")
        assert line.startswith("architecture: ") and set(names) <= architecture, line
    _fits(page, ".er-legends", size[0])
    page.context.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_erosion_draws_rocks_weathered_below_and_lists_only_architecture_in_force(
    server, chromium, size, watch, console_errors
):
    """Under ``typed_weathering=pass-over`` a weathered rock may lie below unweathered ones:
    the page drew it unweathered, its architecture marked as applying, because only the
    run at the top counted. And the "architecture:" line listed 'upon uplift' cards (a
    starting mountain's Flood Basalt), which never stand. The page draws what the view says
    the rules apply (each mountain's ``architecture_in_force``), as the terminal marks it."""
    options = {"advanced": True, "typed_weathering": "pass-over", "first": 0}
    # Seed 23: Andes' mountain is Resistant Caprock (F71), Flood Basalt (H40), WX04, H59,
    # WX15, Aquifer (WX24) from the top; WX25 weathers past the unlisted rocks to the Aquifer
    # (and the Caprock at the top). Alps' mountain stands on an unweathered Caprock (F72).
    created = server.create("erosion", options, ["human", "random"], seed=23)
    page = watch(chromium.new_context(viewport={"width": size[0], "height": size[1]}).new_page())
    page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    _type(page, "weather WX25 on 1")
    andes, alps = page.locator(".er-mountain").nth(1), page.locator(".er-mountain").nth(0)
    # The draw that follows is Alps' own step: nothing moves until the page draws a card.
    expect(andes.locator("rect.er-rock[data-card='WX24']")).to_have_class(
        re.compile("er-weathered")
    )
    expect(andes.locator(".er-arch-mark[data-card='WX24']")).to_have_class(
        re.compile("er-arch-off")
    )
    expect(andes.locator(".er-arch-mark[data-card='H40']")).to_have_class(re.compile("er-arch-off"))
    unweathered = andes.locator("rect.er-rock:not(.er-weathered)")
    assert sorted(unweathered.evaluate_all("l => l.map(e => e.dataset.card)")) == [
        "H40", "H59", "WX04", "WX15"
    ]  # fmt: skip
    assert andes.locator(".er-arch-line").count() == 0  # nothing of Andes' is in force
    expect(alps.locator(".er-arch-line")).to_have_text("architecture: Resistant Caprock")
    expect(alps.locator(".er-arch-mark[data-card='F72']")).not_to_have_class(re.compile("off"))
    # Drawn before the card list comes too (the names wait for it, the marks do not).
    assert not console_errors, console_errors
    page.context.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_erosion_warns_before_a_pass_that_ends_the_game_and_tells_the_tie_break(
    server, chromium, size
):
    """Two players, one era: the second pass in a row ends the game at the deal's points;
    the pass says so before the click, and the result says how the tie-breaker settled a
    tie (the guesses, who came closest, whom they chose). Most deals tie (82 of the first
    200 seeds), and a seed may not be chosen with two people at the table: a deal that
    does not is dealt again."""
    for _ in range(10):
        created = server.create("erosion", {"first": 0}, ["human", "human"])
        pages = [_seat_page(chromium, server, created, seat, size) for seat in (0, 1)]
        first = pages[0].locator(".er-bar .er-button[data-move='pass']")
        first.wait_for()
        points = pages[0].locator(".er-score-n").all_inner_texts()
        if points[0] == points[1]:
            break
        for page in pages:
            page.context.close()
    assert points[0] == points[1], "ten deals and no tie"
    assert first.inner_text() == "pass"  # Andes may still play on
    assert pages[0].locator(".er-warning").count() == 0
    _type(pages[0], "pass")

    # Locators, not element handles: the picture is drawn again when the card list arrives.
    button = pages[1].locator(".er-bar .er-button[data-move='pass']")
    button.wait_for()
    assert button.inner_text() == "pass (ends the game)"
    warning = pages[1].locator(".er-warning")
    assert button.get_attribute("aria-describedby") == warning.get_attribute("id")
    text = warning.inner_text()
    assert "ends the game" in text and f"Alps {points[0]}, Andes {points[1]}" in text, text
    assert "a tie between Alps and Andes, so the tie-breaker decides" in text, text
    # The tie-breaker's rule is told on request: in full, the warning filled a phone's screen.
    rule = pages[1].locator(".er-warning .er-rule p")
    assert not rule.is_visible()
    pages[1].click(".er-warning .er-rule summary")
    assert "guesses its hardness" in rule.inner_text(), rule.inner_text()
    _fits(pages[1], ".er-warning", size[0])
    button.click()

    # The tied seats guess in seat order; the closest guess then chooses, unless both were
    # as close (the drawn cards decide which: the tie then stands).
    for page, move in zip(pages, ("guess 3", "guess 7"), strict=True):
        page.click(f".er-button[data-move='{move}']")
    choose, story = ".er-button[data-move='choose 1']", ".er-result .er-tie"
    deadline = time.monotonic() + 15
    while not any(page.locator(choose).count() or page.locator(story).count() for page in pages):
        assert time.monotonic() < deadline, "nobody was asked to choose, and no end"
        pages[0].wait_for_timeout(100)
    chooser = next((seat for seat, page in enumerate(pages) if page.locator(choose).count()), None)
    if chooser is not None:
        # The buttons say what the choice decides: it reads "choose Andes" no more.
        assert pages[chooser].inner_text(choose) == "Andes wins"
        assert "the closest guess chooses who wins the game" in pages[chooser].inner_text("#board")
        pages[chooser].click(choose)
    for page in pages:
        told = page.locator(story).inner_text()
        assert f"Tied at {points[0]}" in told, told
        assert "Alps guessed 3, Andes guessed 7" in told, told
        if chooser is None:
            assert (
                "no single guess came closest, so the tie stands and Alps and Andes share" in told
            ), told
        else:
            assert f"{('Alps', 'Andes')[chooser]} came closest, and chose Andes to take" in told
        # The end box, which the board's story is not beside on every page, says it too;
        # the board's banner says why the era ended, and leaves the tie to the story.
        end = page.locator("#end").inner_text()
        settled = (
            f"Alps and Andes were level on {points[0]}, and the tie-breaker left them level"
            if chooser is None
            else f"Andes won on the tie-breaker, level with Alps on {points[0]}"
        )
        assert settled in end, end
        assert page.locator(".er-result").inner_text().count("tie-breaker") == 1
        # How the points came, part by part (the rules engine's own parts, the log's line).
        scored = page.locator(".er-result .er-scored").inner_text()
        assert scored.startswith(f"The era is scored: Alps {points[0]} = "), scored
        assert f"; Andes {points[1]} = " in scored and " unweathered rock" in scored, scored
        _fits(page, ".er-result", size[0])
        page.context.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_edges_rings_the_computer_s_last_pyramid_and_says_it(server, chromium, size):
    """The computer's move showed only in the log, as "S h1,2": a newcomer could not see
    where it had played."""
    # Red (the computer) starts: the first player is otherwise drawn from the seed.
    created = server.create("edges", {"board": "2x2", "first": 0}, ["greedy", "human"])
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    token = next(s["token"] for s in created["seats"] if s["seat"] == 1)
    page.goto(f"{server.url}/play/{created['match']}#token={token}")
    page.wait_for_selector("#board .clickable")
    page.wait_for_selector("#board circle.edges-last", state="attached")
    words = page.inner_text("#board .edges-last-words")
    assert words.startswith("last move: Red placed a "), words
    edge = words.split(" on ")[1].split(" ")[0]
    assert page.inner_text("#log li:last-child code").endswith(edge)
    # The log says the move in the game's words too: the pyramid and the squares it bounds.
    said = page.inner_text("#log li:last-child .log-words")
    assert re.fullmatch(r" ?placed a (Large|Medium|Small) pyramid \(strength \d\) on the .*", said)
    assert "square (" in said or "squares (" in said, said
    # after a dash, as the terminal writes it: run on, the notation read as the words' start
    assert f"{edge} — placed a " in page.inner_text("#log li:last-child"), said
    # The squares the words name are named on the board, each in its own square's corner.
    corners = page.locator("#board .edges-coord").all_text_contents()
    assert sorted(corners) == ["0,0", "0,1", "1,0", "1,1"], corners
    assert set(re.findall(r"\((\d,\d)\)", said)) <= set(corners), said
    bounds = page.locator("#board circle.edges-last").bounding_box()
    assert bounds and bounds["x"] >= 0 and bounds["x"] + bounds["width"] <= size[0]
    context.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_erosion_says_the_computer_s_last_turn_in_words(server, chromium, size):
    """The computer's move showed only as notation ("hillslope H46 on 0 x1", "draw WX2 H1
    F0"): the page says what it did, under the scores and in the log."""
    # Andes (the computer) starts: the first player is otherwise drawn from the seed.
    created = server.create("erosion", {"first": 1}, ["human", "random"], seed=4)
    page = _seat_page(chromium, server, created, 0, size)
    page.wait_for_selector("#turn.turn-mine")
    last = page.locator(".er .er-last")
    expect(last).to_contain_text("last turn: Andes ")
    text = last.inner_text()
    log = page.locator("#log li .log-words").all_inner_texts()
    assert log and log[-1].strip() in text, (log, text)
    assert re.search(r"\b(weathered|moved|played|drew|discarded|passed)\b", text), text
    _fits(page, ".er-last", size[0])
    # The person's own weathering, its draw still to choose: "last turn" read as a turn
    # over (a browser newcomer's finding); it is this turn so far.
    typed = page.locator("#legal li").all_text_contents()
    weather = next(m for m in typed if m.startswith("weather "))
    page.fill("#notation", weather)
    page.press("#notation", "Enter")
    expect(last).to_contain_text("this turn so far: Alps (you) weathered ")
    assert page.locator("#turn.turn-mine").count() == 1
    page.context.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_erosion_greys_the_cards_no_action_can_play_and_says_why(server, chromium, size):
    """Every card of the hand looked alike and a click on one that no action could play
    did nothing, with no word why (a mountain icon on low mountains, a transport the hand
    cannot pay for): such a card is greyed and dashed, and a tap on it says why."""
    created = server.create("erosion", {"first": 0}, ["human", "random"], seed=1)
    expected = meeple.make("erosion", first=0).new_game(1).unplayable(0)
    assert "F89" in expected and len(expected) < 6, expected  # some cards play, some do not
    page = _seat_page(chromium, server, created, 0, size)
    page.wait_for_selector("#turn.turn-mine")
    greyed = page.locator(".er-hand .er-card.er-unplayable")
    expect(greyed).to_have_count(len(expected))
    ids = greyed.locator(".er-card-id").all_inner_texts()
    assert sorted(ids) == sorted(expected)
    assert all(g == "true" for g in greyed.evaluate_all("es => es.map(e => e.ariaDisabled)"))
    playable = page.locator(".er-hand .er-card.clickable")
    expect(playable).to_have_count(6 - len(expected))
    why = page.locator(".er-hand .er-why")
    expect(why).to_contain_text(f"{len(expected)} greyed cards cannot be played this turn")
    # Playwright does not click what is aria-disabled; a person can, and is told why.
    click_disabled(page.locator(".er-hand .er-card.er-unplayable", has_text="F89"))
    expect(why).to_have_text(f"Why not F89? {expected['F89']}.")
    expect(page.locator("body")).to_have_attribute("data-seq", "0")  # nothing was played
    _fits(page, ".er-hand .er-why", size[0])
    page.context.close()


def test_erosion_says_the_move_being_built_in_words_and_what_to_click_next(server, chromium):
    """The bar said 'move: weather WX05 on 1 …', the mountain by its seat's number, and
    not what to click next: it says each step in words and what comes next."""
    created = server.create("erosion", {"first": 0}, ["human", "random"], seed=1)
    page = _seat_page(chromium, server, created, 0)
    page.wait_for_selector("#turn.turn-mine")
    bar = page.locator(".er-bar .er-building")
    page.locator(".er-hand .er-card.clickable", has_text="WX12").click()
    expect(bar).to_have_text("weather with WX12: choose a mountain (those with a dashed outline)")
    page.locator("[data-hint='on Alps']").click()
    expect(bar).to_have_text("weather with WX12, on Alps: how many rocks?")
    expect(page.locator(".er-bar .er-button", has_text="2 rocks")).to_be_visible()
    # Where one count is all the rules allow, the step is a confirmation, and says so.
    page.click(".er-bar .er-cancel")
    page.locator(".er-hand .er-card.clickable", has_text="H55").click()
    page.locator("[data-hint='on Alps']").click()
    expect(bar).to_have_text("hillslope with H55, on Alps: confirm with the button")
    counts = page.locator(".er-bar .er-button[data-move]")
    expect(counts).to_have_count(1)
    expect(counts).to_have_text("1 rock")
    # An Atmosphere card says what it does to its deck's draw limit.
    atmospheres = page.locator(".er-atm").all_inner_texts()
    assert atmospheres and set(atmospheres) == {"Atmosphere +1"}, atmospheres
    page.context.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_the_triangle_clock_says_a_tie_on_points_was_won_by_the_items(
    server, chromium, size, seed_1_match
):
    """The end box said "You won!" at 27-27 with the reason "32 rounds have passed"; only
    the board said "(decided by items)"."""
    match, summary = seed_1_match
    scores = summary["result"]["scores"]
    assert scores[0] == scores[1], f"seed 1 no longer ends in a tie: {scores}"
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{server.url}/play/{match}")
    reason = page.wait_for_selector("#end:not([hidden]) .end-reason").inner_text()
    assert "the points are tied: Tick wins the tie by holding more Final Match items" in reason
    banner = page.inner_text("#board .tc-result")
    assert "points are tied" in banner and "decided by" not in banner, banner
    # Each score beside its seat's name (a spectator here: nobody is "you").
    head = page.inner_text("#board .tc-result .tc-result-head")
    assert head == f"Tick wins: Tick {scores[0]} – Tock {scores[1]}", head
    _fits(page, "#end, #board .tc-result", size[0])
    context.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_the_triangle_clock_says_why_one_of_two_equal_ranks_scored(
    server, chromium, size, seed_1_match
):
    """A round won on equal ranks said "Last round (5): shared ▼Ss — Tock scores 3" and the
    two ranks, equal: nothing said why Tock's hand was higher. The page now says it in the
    terminal's words (the view's ``last_round.tie_break``), on a phone too."""
    match = seed_1_match[0]
    record = plain_http.get(f"{server.url}/api/matches/{match}/record", timeout=30).text
    replayed = plain_http.post(f"{server.url}/api/replay", content=record, timeout=60).json()
    told = [
        (step, last["tie_break"])
        for step, views in enumerate(replayed["views"])
        if (last := views["spectator"]["last_round"]) and last["tie_break"]
    ]
    assert told, "32 rounds and never a round won on equal ranks"
    step, reason = told[0]
    assert reason.startswith("Equal ranks, tie-break rank-first (") and " beats " in reason
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{server.url}/replay?match={match}&step={step}")
    expect(page.locator("#board .tc-tie-break")).to_have_text(reason)
    _fits(page, "#board .tc-tie-break", size[0])
    # A round the ranks decided says nothing of a tie-break.
    plain = next(
        k
        for k, views in enumerate(replayed["views"])
        if (last := views["spectator"]["last_round"])
        and not last["tie_break"]
        and last["winner"] is not None
    )
    page.goto(f"{server.url}/replay?match={match}&step={plain}")
    page.wait_for_selector(f"body[data-step='{plain}'] #board .tc-panel-title")
    assert page.locator("#board .tc-tie-break").count() == 0
    # What a winner scores is said with its rule: a winner scoring 0 read as a bug.
    won = replayed["views"][plain]["spectator"]["last_round"]
    expect(page.locator("#board .tc-panel-title", has_text="Last round")).to_contain_text(
        f"ranks higher and scores {won['points']} (the strength of the other hand)"
    )
    context.close()


@pytest.mark.parametrize(
    ("options", "seats"),
    [
        ({"first": 0}, ["human", "greedy"]),
        ({"double": True}, ["human", "random", "random", "random"]),
    ],
)
def test_edges_s_edges_are_a_finger_wide_on_a_phone(server, chromium, options, seats):
    """An edge's tap area was 23 px across at 390 px wide, under the usual 24 px minimum;
    on the 5x5 board of Double Edges, 19 px."""
    created = server.create("edges", options, seats, seed=3)
    page = _seat_page(chromium, server, created, 0, (390, 844))
    page.wait_for_selector("#board .edges-hit")
    boxes = each(
        page,
        "#board .edges-hit",
        "e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; }",
    )
    assert boxes and min(min(box) for box in boxes) >= 24, boxes
    page.context.close()


@pytest.mark.parametrize(
    ("size", "best_of", "said", "seat"),
    [
        ((1280, 800), 3, "Game 1 of best of 3 · round 1", "0 games won · 0 Turrets"),
        ((390, 844), 1, "Round 1", "0 Turrets"),
    ],
)
def test_erd_s_header_says_where_the_match_stands_not_the_rules_version(
    server, chromium, size, best_of, said, seat
):
    """The header read "Game 1 of best of 3 · round 1 · rules 0.02": a designer's word for
    the rules version, which the rules panel (and the lobby's options) say instead. A single
    game read "Game 1 of best of 1": it says the round alone, as the terminal does, and its
    seats' boxes count Turrets, not the games won of a match of one game."""
    created = server.create("erd", {"best_of": best_of}, ["human", "random"])
    page = _seat_page(chromium, server, created, 0, size)
    header = page.wait_for_selector(".erd-round").inner_text()
    assert header == said, header
    boxes = page.eval_on_selector_all(
        ".erd-seat", "l => l.map(b => [...b.children].slice(1).map(c => c.textContent).join(' '))"
    )
    assert boxes == [seat, seat], boxes
    page.click("#rules-button")
    page.wait_for_selector("#rules-panel[open] .rules-body h2")
    assert "Rules version 0.02" in page.inner_text(".rules-body")
    page.context.close()


def test_a_log_line_leaves_off_words_that_only_repeat_the_notation(server, context):
    """Erosion's "pass" is said "passed": the terminal's log prints the notation alone
    (``move_log.echoes``), and the page's log did print "pass — passed"; words that go on
    from the notation (The Triangle Clock's "memorised the order of shared symbols ...")
    read on from it, as the terminal's do, not "memorised — memorised the order ..."; the
    words of any other move stay after their dash."""
    page = context.new_page()
    page.goto(server.url + "/")
    lines = page.evaluate(
        """async () => {
          const { logItems } = await import("/static/js/common.js");
          const msg = { seat: 0, seat_names: ["Alps", "Andes"], seats: [{}, {}] };
          const entries = [
            { n: 1, seat: 1, text: "pass", words: "passed" },
            { n: 2, seat: 0, text: "draw WX0 H1 F0", words: "drew 1 hillslope card" },
            { n: 3, seat: 1, text: "memorised", words: "memorised the order of shared symbols" },
          ];
          return logItems(msg, entries).map((li) => li.textContent);
        }"""
    )
    assert lines == [
        "Andes: pass",
        "Alps: draw WX0 H1 F0 — drew 1 hillslope card",
        "Andes: memorised the order of shared symbols",
    ]
    page.close()


def test_double_edges_end_is_said_and_shown_with_each_team_s_score(server, context):
    """Double Edges scores its two teams, not its four seats: the end box listed the teams'
    scores, but what a screen reader heard at the end (``endWords``) left the scores out,
    and the winning team's row was not marked as the winning seat's is."""
    created = server.create("edges", {"double": True}, ["random"] * 4, seed=5)
    summary = server.finished(created["match"], 60)
    result = summary["result"]
    page = context.new_page()
    page.goto(server.url + "/")
    said, rows = page.evaluate(
        """async (result) => {
          const { drawEnd, endWords } = await import("/static/js/common.js");
          const msg = { seat: 0, seat_names: ["A1", "B1", "A2", "B2"], seats: [{}, {}, {}, {}],
                        result };
          const box = document.createElement("div");
          drawEnd(box, msg);
          const rows = [...box.querySelectorAll(".end-scores tr")].map(
            (tr) => [tr.textContent, tr.classList.contains("won")]);
          return [endWords(msg), rows];
        }""",
        result,
    )
    a, b = result["scores"]
    assert a != b, f"seed 5 no longer ends with a winning team: {result}"
    assert said.endswith(f" Team A {a}, Team B {b}."), said
    assert rows == [[f"Team A{a}", a > b], [f"Team B{b}", b > a]], rows
    page.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_erosion_s_board_has_a_key_to_its_notation(server, chromium, size):
    """'H67 w. tuff 8', 'hand 6 (WX3 H2 F1)' and 'Atmosphere +1' met a newcomer with no word
    of what they were (their hover texts say it; a phone has none): a key under the table
    says, naming the short rock names its mountains show."""
    game = meeple.make("erosion", first=0)
    view = game.new_game(1).view(0)
    rocks = {card["id"]: card.get("rock") for card in game.card_list()}
    shown = {rocks[id] for mountain in view["mountains"] for id in mountain["rocks"]}
    short = {"conglomerate": "conglom.", "welded tuff": "w. tuff"}
    named = [f"{short[rock]} is {rock}" for rock in short if rock in shown]
    assert named and view["atmosphere"]  # the key has something of each kind to say
    created = server.create("erosion", {"first": 0}, ["human", "random"], seed=1)
    page = _seat_page(chromium, server, created, 0, size)
    page.wait_for_selector("#turn.turn-mine")
    key = page.locator(".er-key")
    expect(key).to_contain_text("its rock and its hardness (Mohs, 1 to 10)")
    for words in named:
        expect(key).to_contain_text(words)
    expect(key).to_contain_text("hand 6 (WX3 H2 F1) is 6 cards in hand: 3 from WX, 2 from H")
    # A phone newcomer's further gaps: how a weathered rock is drawn, the delta, the icons,
    # and a draw limit read as Atmosphere cards added on top of it.
    expect(key).to_contain_text("a weathered rock is dashed and set to the left")
    expect(key).to_contain_text("delta: the rocks transported to your delta (2 points each)")
    expect(key).to_contain_text("▲ mountain, ⌒ hill on a card: played only on a mountain of")
    expect(key).to_contain_text("a deck's draw limit is the sum of the Atmosphere cards under it")
    _fits(page, ".er-key", size[0])
    page.context.close()


def test_double_edges_shows_its_order_of_play_and_the_pie_only_as_its_move(server, chromium):
    """A newcomer whose B2 started found the order of play only in the Moves list (and read
    the rules' "turns from whoever starts" as A1 next); and "the pie rule was used" stood
    under "last move" to the end. The order is shown; the take-over is said by its move."""
    options = {"double": True, "first": 3}
    created = server.create("edges", options, ["human", "greedy", "greedy", "greedy"], seed=5)
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(created["seats"][0]["join_url"])
    page.wait_for_selector("#turn.turn-mine")
    order = page.inner_text("#board .edges-order")
    assert order == "order of play: B2 → A2 → B1 → A1 (you)", order
    record = meeple.make("edges", **options).new_game(5)
    assert [record.game.seat_name(s) for s in record.order] == ["B2", "A2", "B1", "A1"]
    # Greedy A2 took the first pyramid over (the pie rule); two moves later only the last
    # move is said.
    assert "took over the first pyramid" in page.inner_text("#log")
    assert page.inner_text("#board .edges-last-words").startswith("last move: B1 placed a ")
    assert "the pie rule was used" not in page.inner_text("#board .edges-info")
    _fits(page, "#board .edges-order", 390)
    page.context.close()


def test_on_a_phone_the_clock_s_cards_are_brought_into_sight_at_a_choice(server, chromium):
    """A phone showed the table at every choice, the cards to choose from a screen below
    (a browser newcomer's finding; the lesson said where they were, a match did not): a new
    decision none of whose parts is in sight is scrolled to."""
    created = server.create("triangle-clock", {}, ["human", "random"], seed=4)
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(created["seats"][0]["join_url"])
    page.locator("#board [data-move='memorised']").click()
    page.wait_for_selector("#board [data-move='A']", state="attached")
    page.wait_for_timeout(300)
    in_sight = page.locator("#board .clickable[data-move]").evaluate_all(
        "els => els.filter(e => { const r = e.getBoundingClientRect();"
        " return r.bottom > 0 && r.top < innerHeight; }).map(e => e.dataset.move)"
    )
    assert set(in_sight) >= set("ABCDEFGH"), in_sight
    page.context.close()


def test_edges_names_its_edges_in_words_and_a_tie_once(server, chromium, tmp_path):
    """ "v0,1" and "h1,0" were never said, nor that rows and columns count from 0; and a tied
    square said "4 = 4" over "4 : 4" (a browser newcomer's findings). A random 2x2 game's
    end, replayed from its record: a key says how edges are named, and a tie says "tied"."""
    game = meeple.make("edges", board="2x2", first=0)
    state, rng, moves = game.new_game(1), random.Random(1), []
    while not state.is_over:
        action = rng.choice(state.legal_actions(state.to_act[0]))
        moves.append((state.to_act[0], str(action)))
        state = state.apply(state.to_act[0], action)
    squares = state.result["squares"]
    tied = [q for q in squares if q["side"] is None]
    assert [q["strength"] for q in tied] == [[4, 4], [4, 4]], squares
    record = GameRecord(game="edges", options={"board": "2x2", "first": 0}, seed=1, moves=moves)
    page = replayed_to_its_end(server, chromium, record, tmp_path)
    assert page.inner_text("#board .edges-key") == (
        "Key: squares are named row,column from 0,0 at the top left; an edge h1,2 is the line "
        "along the top of square 1,2 (h2,… the bottom line), v1,2 the line along its left side "
        "(v…,2 the right-hand line)."
    )
    big = page.locator("#board .edges-strength").all_text_contents()
    small = page.locator("#board .edges-strength-small").all_text_contents()
    assert sorted(big) == ["+1", "+1", "4 = 4", "4 = 4"], big
    assert sorted(small) == ["Blue 5–2", "Red 7–3", "tied", "tied"], small
    page.context.close()
