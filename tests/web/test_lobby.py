"""The lobby: a match created through the form, listed as open, joined from another browser."""

from __future__ import annotations

import re

import pytest

from meeple.agents.levels import level_spec
from meeple.core.designer import copy_data
from meeple.core.registry import make
from meeple.interfaces.web.client import ServerProcess
from tests import plain_http
from tests.web.test_in_sight import _in_window

TABLE = re.compile(r"/play/([^#]+)#token=")
"""A seat's table: where the lobby takes a match's creator."""


def _seated(page) -> str:
    """The match whose table ``page`` was taken to, once it is there."""
    page.wait_for_url(TABLE, timeout=60_000)
    return TABLE.search(page.url).group(1)


def test_a_match_made_with_the_form_is_joined_from_the_open_list(
    server, chromium, watch, page_errors
):
    host = watch(chromium.new_context(viewport={"width": 1280, "height": 800}).new_page())
    host.goto(f"{server.url}/")
    host.wait_for_selector(".game-card[data-game='erd']")
    assert host.locator(".game-card").count() == 5
    host.click("#more > summary")
    host.fill("#my-name", "Ann")
    host.press("#my-name", "Tab")
    host.select_option("#game", "edges")
    host.fill("#opt-board", "2x2")
    host.select_option("#seat-1", "open")
    host.click("#create-button")
    # Seat 1 is open to anyone (no link to send): the creator is taken to the table to wait.
    match = _seated(host)
    assert server.get(f"/api/matches/{match}")["options"] == {"board": "2x2"}

    guest = watch(chromium.new_context(viewport={"width": 390, "height": 844}).new_page())
    guest.goto(f"{server.url}/")
    guest.click(f"#open li[data-match='{match}'] .join", timeout=15_000)
    guest.wait_for_url(re.compile(rf"/play/{match}#token="))
    guest.wait_for_selector("body[data-status]")
    assert "you are Blue" in guest.inner_text("#title")

    host.reload()  # the host is at the table already
    host.wait_for_selector("body[data-status='playing']")
    guest.wait_for_selector("body[data-status='playing']")
    seats = server.get(f"/api/matches/{match}")["seats"]
    assert [s["joined"] for s in seats] == [True, True]
    assert seats[0]["name"] == "Ann"
    assert not page_errors, page_errors


def test_a_bad_option_is_told_in_one_line(server, chromium, watch, page_errors):
    page = watch(chromium.new_context().new_page())
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.select_option("#game", "edges")
    page.click("#more > summary")
    page.fill("#opt-board", "banana")
    page.click("#create-button")
    toast = page.wait_for_selector(".toast-error")
    assert "board" in toast.inner_text()
    assert page.is_hidden("#created")
    assert not page_errors, page_errors


def test_a_game_named_in_the_address_is_found_however_it_is_spelt_or_told_missing(
    server, chromium, watch, page_errors
):
    """``/?game=triangle_clock`` (the code's spelling) opened the lobby with Edges chosen,
    without a word; so did a game that does not exist."""
    page = watch(chromium.new_context().new_page())
    for asked in ("triangle_clock", "The Triangle Clock", "triangle-clock"):
        page.goto(f"{server.url}/?game={asked}")
        page.wait_for_selector(".game-card")
        assert page.input_value("#game") == "triangle-clock", asked
        assert page.locator(".toast-error").count() == 0
    page.goto(f"{server.url}/?game=chess")
    toast = page.wait_for_selector(".toast-error")
    assert 'No game "chess" here; the games are edges, ' in toast.inner_text()
    assert not page_errors, page_errors


def test_each_option_says_once_what_it_takes(server, chromium, watch, page_errors):
    """Typed text is told what it may be; a list or a checkbox shows its choices itself."""
    page = watch(chromium.new_context().new_page())
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.select_option("#game", "erosion")
    page.click("#more > summary")

    def help_of(name: str) -> str:
        return page.locator(f"label.option:has(#opt-{name}) .help").inner_text()

    assert "|" not in help_of("legend") and "|" not in help_of("advanced")
    assert help_of("first").count("random | a seat number") == 1, help_of("first")
    page.select_option("#game", "squad-combat")
    assert help_of("turn_limit").count("from 1 to 100000") == 1, help_of("turn_limit")
    # A default worked out from the others is shown in its words, not "default" or "none".
    page.select_option("#game", "edges")
    assert page.get_attribute("#opt-board", "placeholder") == "3x4"
    assert page.get_attribute("#opt-stash", "placeholder") == "by board"
    assert not page_errors, page_errors


def test_the_computer_seats_offer_the_levels_easy_first_then_the_last_chosen(
    server, chromium, watch, page_errors
):
    """A first visit was set against the hard computer: no first game for a newcomer (a
    browser newcomer's finding). It starts against the easy one; the browser then keeps
    the last choice."""
    page = watch(chromium.new_context().new_page())
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.select_option("#game", "squad-combat")
    assert page.locator("#opponent").input_value() == "easy"
    page.select_option("#opponent", "hard")
    page.reload()
    page.wait_for_selector(".game-card")
    page.select_option("#game", "squad-combat")
    assert page.locator("#opponent").input_value() == "hard"
    page.click("#more > summary")
    seat = page.locator("#seat-1")
    assert seat.input_value() == "hard"
    labels = seat.locator("option").all_inner_texts()
    assert labels[:5] == [
        "a person (I send the link)",
        "anyone from the lobby",
        "the computer (easy)",
        "the computer (medium)",
        "the computer (hard)",
    ]
    assert "agent: heuristic" in labels
    page.click("#create-button")
    # Nobody else to invite: the creator is taken straight to the table.
    match = _seated(page)
    hard = next(
        level["spec"]
        for game in server.get("/api/games")
        if game["name"] == "squad-combat"
        for level in game["levels"]
        if level["level"] == "hard"
    )
    assert server.get(f"/api/matches/{match}")["seats"][1]["agent"] == hard
    page.wait_for_selector("body[data-status='playing']")
    assert "you are Red" in page.inner_text("#title")
    assert not page_errors, page_errors


def test_erds_hard_opponent_is_the_solved_agent_and_a_variant_not_served_says_so(
    server, chromium, watch, page_errors
):
    """Erd's hard level plays the solved game. A server solves only the shipped rules
    versions (off the request path: tests/server/test_prepare.py); asking the lobby for a
    new round limit against hard is refused on the page in words, and medium plays it."""
    games = {game["name"]: game for game in server.get("/api/games")}
    hard = next(level["spec"] for level in games["erd"]["levels"] if level["level"] == "hard")
    assert hard.startswith("exploit:") and games["erd"]["best_agent"] == hard
    page = watch(chromium.new_context().new_page())
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.select_option("#game", "erd")
    page.select_option("#opponent", "hard")
    page.click("#more > summary")
    assert page.locator("#seat-1").input_value() == "hard"
    # A round limit no test has solved into the run's shared solver cache (a variant that is
    # solved already costs nothing, and is served).
    from meeple.core.registry import make
    from meeple.solvers.erd.solve import is_stored

    limit = next(n for n in range(13, 60) if not is_stored(make("erd", round_limit=n)))
    page.fill("#opt-round_limit", str(limit))
    page.click("#create-button")
    refusal = page.wait_for_selector(".toast-error")
    assert "shipped rules versions" in refusal.inner_text()
    page.select_option("#opponent", "medium")
    assert page.locator("#seat-1").input_value() == "medium"
    page.click("#create-button")
    # Nobody else to invite: the creator is taken straight to the table.
    _seated(page)
    assert not page_errors, page_errors


def test_the_quick_start_is_game_opponent_play_with_the_variants_behind_more_options(
    server, chromium, watch, page_errors
):
    """Board Game Arena's and lichess's first screen: pick a game and an opponent, play; the
    variants wait behind "More options" (closed), and Play is in view at both sizes."""
    for width, height in ((1280, 800), (390, 844)):
        page = watch(chromium.new_context(viewport={"width": width, "height": height}).new_page())
        page.goto(f"{server.url}/")
        page.wait_for_selector(".game-card")
        assert page.is_hidden("#opt-board") and page.is_hidden("#seat-1")
        assert page.get_attribute("#more", "open") is None
        page.locator("#create-panel").scroll_into_view_if_needed()
        play = page.locator("#create-button").bounding_box()
        assert play and play["x"] >= 0 and play["x"] + play["width"] <= width
        if width < 700:  # on a phone the quick start is the first thing, above the fold
            page.evaluate("window.scrollTo(0, 0)")
            first = page.locator("#create-button").bounding_box()
            assert first and first["y"] + first["height"] <= height, first
        labels = page.locator("#opponent option:not([hidden])").all_inner_texts()
        assert labels[:3] == [
            "the computer (easy)",
            "the computer (medium)",
            "the computer (hard)",
        ]
        assert "a friend (I send the link)" in labels and "anyone from the lobby" in labels
    page.select_option("#game", "edges")
    page.select_option("#opponent", "easy")
    page.click("#more > summary")
    assert page.locator("#seat-1").input_value() == "easy"
    page.select_option("#seat-1", "greedy")  # a seat set by hand shows in the quick start
    assert page.locator("#opponent").input_value() == "mixed"
    page.select_option("#opponent", "easy")
    page.fill("#opt-board", "2x2")
    page.click("#create-button")
    match = _seated(page)
    easy = level_spec(make("edges"), "easy")
    assert server.get(f"/api/matches/{match}")["seats"][1]["agent"] == easy
    assert not page_errors, page_errors


def test_the_quick_start_asks_how_many_play_where_a_game_takes_a_number(
    server, chromium, watch, page_errors
):
    """Erosion seats 2 to 5, Squad Combat 2 to 4, Edges 2 or 4 (Double Edges): the number is
    picked beside the game, as a table is set on Board Game Arena, not found among the
    rules' variants; the seats follow it, and a game whose seats are fixed shows no such
    choice."""
    page = watch(chromium.new_context(viewport={"width": 390, "height": 844}).new_page())
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.select_option("#game", "erd")
    assert page.is_hidden("#players-row")
    page.select_option("#game", "edges")
    assert page.locator("#players option").all_inner_texts() == ["2", "4"]
    page.select_option("#game", "erosion")
    assert page.is_visible("#players-row")
    assert page.locator("#players option").all_inner_texts() == ["2", "3", "4", "5"]
    assert page.locator("#players").input_value() == "2"
    play = page.locator("#create-button").bounding_box()  # still in sight on a phone
    assert play and play["y"] + play["height"] <= 844 and play["x"] + play["width"] <= 390
    page.select_option("#players", "3")
    page.select_option("#opponent", "easy")
    page.click("#more > summary")
    assert page.locator("#opt-players").count() == 0  # not offered twice
    seats = page.locator("#seats select")
    assert seats.count() == 3 and seats.nth(2).input_value() == "easy"
    # Each seat by its name at this number of players (the third was "Seat 2").
    labels = [" ".join(t.split()) for t in page.locator("#seats label").all_inner_texts()]
    assert [label.split(":")[0] for label in labels] == ["Alps", "Andes", "Rockies"]
    page.select_option("#game", "squad-combat")  # 3 is allowed there too: kept
    assert page.locator("#players").input_value() == "3" and seats.count() == 3
    page.select_option("#players", "4")
    assert seats.count() == 4 and seats.nth(3).input_value() == "easy"
    page.select_option("#game", "erosion")
    page.select_option("#players", "3")
    page.click("#create-button")
    match = _seated(page)
    made = server.get(f"/api/matches/{match}")
    assert made["options"] == {"players": 3} and len(made["seats"]) == 3
    games = {g["name"]: g["player_choices"] for g in server.get("/api/games")}
    ranges = ["Alps", "Andes", "Rockies", "Himalaya", "Atlas"]
    assert games["erosion"] == [
        {"players": 2, "options": {}, "seat_names": ranges[:2]},
        *({"players": n, "options": {"players": n}, "seat_names": ranges[:n]} for n in (3, 4, 5)),
    ]
    assert [c["players"] for c in games["squad-combat"]] == [2, 3, 4]
    assert games["squad-combat"][2]["seat_names"] == ["Red", "Blue", "Green", "Gold"]
    assert games["edges"] == [
        {"players": 2, "options": {}, "seat_names": ["Red", "Blue"]},
        {"players": 4, "options": {"double": True}, "seat_names": ["A1", "B1", "A2", "B2"]},
    ]
    assert games["erd"] == games["triangle-clock"] == []
    # Double Edges from the quick start: four seats, and its checkbox not offered twice.
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.select_option("#game", "edges")
    page.select_option("#players", "4")
    page.select_option("#opponent", "easy")
    page.click("#more > summary")
    assert page.locator("#opt-double").count() == 0 and seats.count() == 4
    page.click("#create-button")
    match = _seated(page)
    made = server.get(f"/api/matches/{match}")
    assert made["options"] == {"double": True} and len(made["seats"]) == 4
    assert not page_errors, page_errors


def test_a_variant_is_offered_only_where_the_other_choices_let_it_matter(
    server, chromium, watch, page_errors
):
    """Double Edges' "who starts" is offered only with four players, Erosion's "upon
    uplift" architecture only with the Advanced Rules, which have architecture, and Erd's
    drawn games only in a match of more than one game; a value picked while it mattered is
    not sent once it does not."""
    page = watch(chromium.new_context(viewport={"width": 390, "height": 844}).new_page())
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.select_option("#game", "edges")
    page.click("#more > summary")
    who_starts = page.locator("label.option:has(#opt-double_start)")
    assert who_starts.is_hidden() and page.is_visible("#opt-first")
    page.select_option("#players", "4")
    assert who_starts.is_visible()
    page.select_option("#opt-double_start", "a1")
    page.select_option("#players", "2")
    assert who_starts.is_hidden()
    page.select_option("#players", "4")
    page.select_option("#opponent", "easy")
    page.click("#create-button")
    match = _seated(page)
    made = server.get(f"/api/matches/{match}")
    assert made["options"] == {"double": True, "double_start": "a1"}
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.select_option("#game", "erosion")
    page.click("#more > summary")
    fires = page.locator("label.option:has(#opt-uplift_architecture)")
    assert fires.is_hidden()
    page.check("#opt-advanced")
    assert fires.is_visible()
    # Right under the checkbox that showed it, not at the bottom of the variants.
    under = "label.option:has(#opt-advanced) + label.option #opt-uplift_architecture"
    assert page.locator(under).count() == 1
    page.select_option("#opt-uplift_architecture", "once")
    page.uncheck("#opt-advanced")
    assert fires.is_hidden()
    page.select_option("#opponent", "easy")
    page.click("#create-button")
    match = _seated(page)
    assert server.get(f"/api/matches/{match}")["options"] == {}
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.select_option("#game", "erd")
    page.click("#more > summary")
    draws = page.locator("label.option:has(#opt-match_draws)")
    assert draws.is_visible()  # a match of 5 games by default
    page.fill("#opt-best_of", "1")  # hidden as the number is typed
    assert draws.is_hidden()
    page.fill("#opt-best_of", "3")
    assert draws.is_visible()
    games = {g["name"]: {o["name"]: o for o in g["options"]} for g in server.get("/api/games")}
    assert games["edges"]["double_start"]["applies_when"] == {"double": True}
    assert games["erosion"]["uplift_architecture"]["applies_when"] == {"advanced": True}
    assert games["erd"]["match_draws"]["applies_when"] == {"best_of": {"not": 1}}
    assert games["edges"]["first"]["applies_when"] == {}
    assert not page_errors, page_errors


def test_each_option_is_named_in_a_player_s_words_with_its_api_name_on_hover(
    server, chromium, watch, page_errors
):
    page = watch(chromium.new_context().new_page())
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.select_option("#game", "edges")
    page.click("#more > summary")
    name = page.locator("label.option:has(#opt-first) .name")
    assert name.inner_text() == "Who starts"
    assert name.get_attribute("title") == "first"
    games = {g["name"]: g for g in server.get("/api/games")}
    labels = {o["name"]: o["label"] for o in games["edges"]["options"]}
    assert labels["pie"] == "Pie rule" and labels["board"] == "Board size"
    # Every option of the game is offered but the engine's switch for scripts, which the
    # API still takes, and Double Edges, which the quick start's number of players sets.
    offered = page.locator("label.option .name").evaluate_all("ns => ns.map(n => n.title)")
    assert sorted(offered) == sorted(set(labels) - {"auto_steps", "double"}), offered
    assert "auto_steps" in labels
    assert not page_errors, page_errors


def test_a_designer_s_data_is_offered_as_the_sets_installed_and_never_as_a_path(
    server, chromium, watch, page_errors, tmp_path
):
    """A page never names a file: a data option (Squad Combat's card set, Erosion's cards,
    the clock's ranking) is a list of the content sets the operator installed, and is not
    offered at all where there are none."""
    page = watch(chromium.new_context().new_page())
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.click("#more > summary")
    for game, data, other in (
        ("squad-combat", "content", "decks"),
        ("erosion", "cards", "advanced"),
    ):
        page.select_option("#game", game)
        assert page.locator(f"#opt-{data}").count() == 0
        assert page.locator(f"#opt-{other}").count() == 1  # the game's other options stay

    folder = tmp_path / "content"
    copy_data("squad-combat", folder / "squad-combat" / "tourney")
    process = ServerProcess(
        f"sqlite:///{tmp_path / 's.db'}", tmp_path / "s.log", 0, ("--content", str(folder))
    ).start()
    try:
        page.goto(f"{process.url}/")
        page.wait_for_selector(".game-card")
        page.click("#more > summary")
        page.select_option("#game", "squad-combat")
        choices = page.locator("#opt-content option")
        assert choices.all_inner_texts() == ["as shipped", "tourney (installed here)"]
        assert "installed" in page.locator("label.option:has(#opt-content) .help").inner_text()
        page.select_option("#opt-content", "set:tourney")
        page.click("#create-button")
        match = _seated(page)
        options = plain_http.get(f"{process.url}/api/matches/{match}", timeout=30).json()["options"]
        assert options == {"content": "set:tourney"}
    finally:
        process.stop()
    assert not page_errors, page_errors


def test_the_finished_list_says_who_won_and_why(server, chromium, watch, page_errors):
    """Each finished match says its outcome in the game's seat names, on a desktop and on a
    phone, as text a screen reader reads with the row: a resignation, a draw, a team's win."""
    created = server.create("edges", {"board": "2x2"}, ["human", "human"])
    match = created["match"]
    tokens = [
        plain_http.take_seat(server.url, match, seat["token"], name=name)
        for seat, name in zip(created["seats"], ("Ann", "Bob"), strict=True)
    ]
    reply = plain_http.post(f"{server.url}/api/matches/{match}/resign", json={"token": tokens[0]})
    assert reply.status_code == 200, reply.text
    # A draw and a team's win take long to play: the rows of real matches, as the server
    # lists them, given those results (Double Edges' seats are A1, B1, A2 and B2).
    double = server.create("edges", {"double": True}, ["human"] * 4)["match"]
    team = next(row for row in server.get("/api/matches?status=live") if row["match"] == double)
    resigned = next(
        row for row in server.get("/api/matches?status=finished") if row["match"] == match
    )
    made = [
        {**resigned, "match": "drawn", "result": {"over": True, "winners": []}},
        {**resigned, "match": "left", "result": {"over": True, "winners": [0], "abandoned": [1]}},
        {**resigned, "match": "off", "result": {"over": True, "winners": [], "aborted": True}},
        {
            **team,
            "match": "team",
            "status": "finished",
            "result": {"over": True, "winners": [0, 2]},
        },
    ]

    def with_made_rows(route):
        route.fulfill(json=[*made, *route.fetch().json()])

    expected = {
        match: "Blue (Bob) won: Red (Ann) resigned",
        "drawn": "A draw",
        "left": "Red (Ann) won: Blue (Bob) left",
        "off": "Called off: nobody won",
        "team": "A1 and A2 won",
    }
    for width, height in ((1280, 800), (390, 844)):
        page = watch(chromium.new_context(viewport={"width": width, "height": height}).new_page())
        page.route(re.compile(r"/api/matches\?status=finished"), with_made_rows)
        page.goto(f"{server.url}/")
        for row, words in expected.items():
            item = page.locator(f"#finished li[data-match='{row}']")
            assert item.locator(".outcome").inner_text(timeout=15_000) == words
            assert words in item.inner_text()  # read with the row, in its order
            item.scroll_into_view_if_needed()
            box = item.locator(".outcome").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (width, box)
    assert not page_errors, page_errors


# Per label under "More options": whether its control is beside the label's first words
# (the control's box overlaps, top to bottom, the lines those words take).
# A label hidden as moot (Double Edges' "who starts" with two players) has no lines at all.
LABEL_BESIDE_CONTROL = """() => [...document.querySelectorAll('#more label')]
  .filter((label) => !label.closest('[hidden]')).map((label) => {
  const control = label.querySelector('input, select');
  const walk = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
  let node = walk.nextNode();
  while (node && !node.textContent.trim()) node = walk.nextNode();
  const range = document.createRange();
  range.selectNodeContents(node);
  const lines = [...range.getClientRects()];
  const box = control.getBoundingClientRect();
  return [node.textContent.trim(), box.top < lines.at(-1).bottom && box.bottom > lines[0].top,
    box.right <= document.documentElement.clientWidth];
})"""


def test_on_a_phone_each_more_option_s_label_is_on_its_control_s_line(
    server, chromium, watch, page_errors
):
    """At 390x844 a wrapping row put the name box, a seat's list and the listed checkbox on
    a line apart from their words; each stays beside them, inside the window."""
    page = watch(chromium.new_context(viewport={"width": 390, "height": 844}).new_page())
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.click("#more > summary")
    for game in [g["name"] for g in server.get("/api/games")]:
        page.select_option("#game", game)
        labels = page.evaluate(LABEL_BESIDE_CONTROL)
        assert len(labels) > 4, labels
        apart = [(game, words) for words, beside, inside in labels if not (beside and inside)]
        assert not apart, apart
    assert not page_errors, page_errors


def test_a_match_with_a_friend_names_the_seats_by_colour_not_number(
    server, chromium, watch, page_errors
):
    """The links read "Play seat 0 (Red) yourself" and "Send to the player of seat 1
    (Blue)": seats counted from 0, a number no player knows them by."""
    page = watch(chromium.new_context(viewport={"width": 390, "height": 844}).new_page())
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.select_option("#game", "edges")
    page.select_option("#opponent", "human")
    page.click("#create-button")
    mine = page.wait_for_selector("#play-mine")
    assert mine.inner_text() == "Play Red yourself"
    created = page.inner_text(".created")
    assert "Send to the player of Blue:" in created
    assert "seat 0" not in created and "seat 1" not in created
    # The game page waiting for Blue said "share the link" and showed none: a creator who
    # clicked Play first had lost it. It shows the lobby's link, until Blue has joined.
    link = page.inner_text(".created .join-link")
    mine.click()
    page.wait_for_selector("body[data-status='waiting'] #invites:not([hidden])")
    assert page.inner_text("#invites .join-link") == link
    assert page.inner_text("#turn") == "Waiting for Blue to join — send the link below"
    _in_window(page, "#invites", (390, 844))
    blue = chromium.new_context().new_page()
    blue.goto(link)
    page.wait_for_selector("body[data-status='playing'] #invites[hidden]", state="attached")
    blue.context.close()
    assert not page_errors, page_errors


def test_an_option_whose_syntax_no_player_knows_offers_its_common_values_in_words(
    server, chromium, watch, page_errors
):
    """The Triangle Clock's items are typed as ITEMS/ITEMS: the field offers the seed's
    allocation, the swapped one, all and none, each in words, and one picked plays."""
    page = watch(chromium.new_context().new_page())
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.select_option("#game", "triangle-clock")
    page.click("#more > summary")
    assert page.get_attribute("#opt-items", "list") == "opt-items-suggested"
    offered = page.locator("#opt-items-suggested option").evaluate_all(
        "os => os.map(o => [o.value, o.label])"
    )
    assert offered[0] == [
        "palette-swap+right-angle/mulligan",
        "the rulebook's: Tick Palette Swap and Right Angle, Tock Mulligan",
    ]
    assert ["none/none", "no items"] in offered and len(offered) == 4
    # An option with no suggestions has no list to open.
    assert page.get_attribute("#opt-memorise_seconds", "list") is None
    page.fill("#opt-items", offered[1][0])
    page.click("#create-button")
    match = _seated(page)
    assert server.get(f"/api/matches/{match}")["options"] == {
        "items": "mulligan/palette-swap+right-angle"
    }
    assert not page_errors, page_errors


def test_the_variants_chosen_are_checked_before_play_is_pressed(
    server, chromium, watch, page_errors
):
    """A typed variant the server would refuse was told only at Play, and a note on a choice
    the rules take but ignore only at the table (the Rules panel): both now show under the
    variants as they are chosen, and go once the choice is mended."""
    page = watch(chromium.new_context(viewport={"width": 390, "height": 844}).new_page())
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    page.select_option("#game", "edges")
    page.click("#more > summary")
    said = page.locator("#options-said")
    assert said.is_hidden()
    page.fill("#opt-board", "banana")
    refused = page.wait_for_selector("#options-said .options-refused")
    assert refused.inner_text().startswith("Play would be refused: option 'board' of edges: ")
    assert "write rows x columns like 3x4" in refused.inner_text()
    page.fill("#opt-board", "3x3")
    said.wait_for(state="hidden")
    assert page.locator(".toast-error").count() == 0  # nothing was asked of Play

    page.select_option("#game", "triangle-clock")
    page.fill("#opt-items", "palette-swap+right-angle/none")
    page.select_option("#opt-mulligan_order", "literal")
    note = page.wait_for_selector("#options-said .rules-note")
    assert note.inner_text() == (
        "Note: mulligan_order=literal matters only where a seat holds a Mulligan "
        "(items=palette-swap+right-angle/none): this game ignores it."
    )
    box = note.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390  # within a phone's width
    page.fill("#opt-items", "palette-swap+right-angle/mulligan")
    said.wait_for(state="hidden")
    assert not page_errors, page_errors


def test_a_listed_match_says_its_options_in_words_and_how_long_ago_it_changed(
    server, chromium, watch, page_errors
):
    """Rows of one game and one opponent read the same: each says its variants in the form's
    words ("Board size 3x3 · Pie rule off", never "board=3x3, pie=false") and how long ago
    the match last changed, by the server's count (a row of a week ago, made here, too)."""
    created = server.create("edges", {"board": "3x3", "pie": False}, ["open", "random"])
    match = created["match"]
    # A switch that is on reads as its label alone ("... in two teams on" read badly).
    double = server.create("edges", {"double": True}, ["open", *["random"] * 3])["match"]
    [row] = [r for r in server.get("/api/matches?status=open") if r["match"] == match]
    assert 0 <= row["idle_seconds"] < 600
    old = {**row, "match": "old", "idle_seconds": 8 * 86400}

    def with_old_row(route):
        route.fulfill(json=[*route.fetch().json(), old])

    page = watch(chromium.new_context(viewport={"width": 390, "height": 844}).new_page())
    page.route(re.compile(r"/api/matches\?status=open"), with_old_row)
    page.goto(f"{server.url}/")
    item = page.locator(f"#open li[data-match='{match}']")
    assert item.locator(".options").inner_text(timeout=15_000) == "Board size 3x3 · Pie rule off"
    assert "=" not in item.inner_text()
    switch = page.locator(f"#open li[data-match='{double}'] .options").inner_text()
    assert switch == "Double Edges: four players in two teams", switch
    assert re.fullmatch(r"active (under a minute|\d+ min) ago", item.locator(".ago").inner_text())
    said = page.locator("#open li[data-match='old'] .ago").inner_text()
    assert said == "active 8 days ago"
    assert not page_errors, page_errors


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_each_game_s_rules_are_read_from_the_lobby(server, chromium, watch, page_errors, size):
    """The rules could be read only inside a match (its Rules button): a newcomer had to
    start a tutorial or a game to learn what the game is (a browser newcomer's finding)."""
    page = watch(chromium.new_context(viewport={"width": size[0], "height": size[1]}).new_page())
    page.goto(f"{server.url}/")
    page.wait_for_selector(".game-card")
    for game in server.get("/api/games"):
        page.click(f"#rules-{game['name']}")
        page.wait_for_selector("#rules-panel[open] .rules-body h2")
        assert page.inner_text("#rules-heading") == f"Rules: {game['title']}"
        # The game's own rules, as the server renders them: their headings, in order.
        html = server.get(f"/api/games/{game['name']}/rules")["html"]
        headings = [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<h2[^>]*>(.*?)</h2>", html)]
        assert page.locator(".rules-body h2").all_inner_texts() == headings
        box = page.locator("#rules-panel").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= size[0]
        page.keyboard.press("Escape")
        page.wait_for_selector("#rules-panel", state="hidden")
        # The focus goes back to the button, for the keyboard's next step.
        assert page.evaluate("document.activeElement.id") == f"rules-{game['name']}"
    assert not page_errors, page_errors
