"""Squad Combat's drawing (static/games/squad-combat.js) in Chromium, beyond the shared
whole-match test: that every legal move is on the picture, and what a seat is shown.

At every decision of the seat, the moves the picture offers (data-move on .clickable
elements, plus those behind a first click on a hand card whose performer is chosen next)
must be exactly the legal moves the server sent: nothing illegal, nothing missing.
"""

from __future__ import annotations

import random
import re
import time
from itertools import pairwise

import pytest

import meeple
from meeple.core.record import GameRecord
from tests import plain_http
from tests.games.squad_combat.test_move_log import new_lines
from tests.web.browser import (
    HEAR,
    Frames,
    click_disabled,
    click_once,
    click_unless_redrawn,
    no_server_errors,
    play_by_clicks,
    replayed_to_its_end,
    status,
)

SECONDS = 120


def _cost_words(cost: str) -> str:
    """A cost of the rulebook's notation ("<2>[4]", "C", "-") as the card's foot says it."""
    words = []
    for energy, die, _card in re.findall(r"<(\d+)>|\[(\d)\]|(C)", cost):
        if energy:
            words.append(f"{energy} energy")
        elif die:
            words.append("any die" if die == "1" else f"die {die}+")
        else:
            words.append("a card")
    return ", ".join(words) or "free"


def _offered(page) -> set[str]:
    return set(
        page.eval_on_selector_all(
            "#board .clickable[data-move]", "ns => ns.map(n => n.dataset.move)"
        )
    )


def _reachable(page) -> set[str]:
    """The moves offered now, and those behind each first step (a hand card), each step
    undone again with the drawing's cancel button."""
    from playwright.sync_api import Error as PlaywrightError

    # A first step left selected by an earlier random click hides the moves that need none
    # (a refresh): undo it, so the picture is read as a fresh decision shows it.
    selected = page.query_selector("#board .clickable[data-hint^='cancel']")
    if selected is not None and not click_unless_redrawn(selected):
        return set()
    found = _offered(page)
    steps = len(page.query_selector_all("#board .clickable:not([data-move])"))
    for i in range(steps):
        now = page.query_selector_all("#board .clickable:not([data-move])")
        if i >= len(now):  # redrawn for another state: the caller sees the seq change
            break
        step = now[i]
        if (step.get_attribute("data-hint") or "").startswith("cancel"):
            continue
        try:
            step.click(timeout=3000)
            found |= _offered(page)
            page.click("#board .clickable[data-hint^='cancel']", timeout=3000)
        except PlaywrightError:  # redrawn under the click: nothing to conclude
            return set()
    return found


def test_every_legal_move_and_only_legal_moves_are_offered_on_the_picture(
    server, context, watch, page_errors
):
    # Guards the drawing contract for Squad Combat: each legal move is clickable where it
    # lives (a hand card, a character, a die, a button) or behind a cancellable first click,
    # so a person never needs the notation box, and nothing illegal is ever offered.
    checked: set[str] = set()
    kinds: set[str] = set()
    wanted = {"play", "target", "die", "refresh", "discard"}
    deadline = time.monotonic() + SECONDS
    # Random clicks decide which kinds of decision a game meets: a game that ends before
    # meeting them all (a short game, seen once in a clean-clone run) is followed by another.
    for match in range(3):
        created = server.create("squad-combat", {"turn_limit": 8}, ["human", "heuristic"])
        page = watch(context.new_page())
        frames = Frames().attach(page)
        page.goto(created["seats"][0]["join_url"])
        page.wait_for_selector(".sc-char")
        rng = random.Random(7 + match)
        # The whole match by clicks is the shared test's; here enough decisions to see each.
        while status(page) != "finished" and not (len(checked) >= 30 and wanted <= kinds):
            assert time.monotonic() < deadline, f"no end within {SECONDS} s"
            seq = page.get_attribute("body", "data-seq")
            state = frames.latest_state()
            key = f"{match}:{seq}"  # sequence numbers start again in each match
            if state and state["legal"] and seq == str(state["seq"]) and key not in checked:
                found = _reachable(page)
                # Only a picture that stayed on this state while it was read counts (nothing
                # is offered while the page waits for the answer to a move it sent).
                if found and page.get_attribute("body", "data-seq") == seq:
                    checked.add(key)
                    legal = {a["text"] for a in state["legal"]}
                    assert found == legal
                    kinds |= {text.split()[0] for text in legal}
            if not click_once(page, frames, rng):
                page.wait_for_timeout(40)
        no_server_errors(frames)
        if wanted <= kinds:
            break
    assert not page_errors, page_errors
    # The game reached the picture's kinds of decision, not only pass and done.
    assert wanted <= kinds, kinds


def test_a_seat_sees_both_squads_its_hand_with_costs_and_the_other_hand_as_a_count(
    server, chromium, page_errors, watch
):
    # Guards what the picture shows at phone width: six character cards with dice faces,
    # the seat's hand with each card's name and cost as the rulebook writes it (from the
    # server's card list), the opponent's hand as a count only, all inside 390 px.
    created = server.create("squad-combat", {"first": 0}, ["human", "heuristic"])
    names = {c["name"]: c["cost"] for c in server.get("/api/games/squad-combat/cards")}
    phone = chromium.new_context(viewport={"width": 390, "height": 800})
    try:
        page = watch(phone.new_page())
        page.goto(created["seats"][0]["join_url"])
        # Until the card list arrives a card shows a name made from its id (for the
        # built-in cards, their very names) and the cost "?"; then its name and its cost.
        page.wait_for_function(
            "names => { const ns = [...document.querySelectorAll('.sc-hand .sc-card-name')];"
            " const cs = [...document.querySelectorAll('.sc-hand .sc-card-cost')];"
            " return ns.length > 0 && ns.every(n => names.includes(n.textContent))"
            " && cs.every(c => c.textContent !== '?'); }",
            arg=list(names),
        )
        assert len(page.query_selector_all(".sc-char")) == 6
        assert len(page.query_selector_all(".sc-own .sc-char .sc-die")) >= 6
        hand = page.eval_on_selector_all(
            ".sc-hand .sc-card",
            "ns => ns.map(n => [n.querySelector('.sc-card-name').textContent,"
            " n.querySelector('.sc-card-cost').dataset.cost,"
            " n.querySelector('.sc-card-cost').textContent])",
        )
        assert len(hand) == 5
        assert all(cost == names[name] for name, cost, _ in hand), hand
        # The foot of a card says its cost in words, never the rulebook's "<2>[4]" code.
        assert all(words == _cost_words(cost) for _, cost, words in hand), hand
        # A character's "1c" says on hover what it is: its name in typed moves and the log.
        refs = page.eval_on_selector_all(
            ".sc-char .sc-ref", "ns => ns.map(n => [n.textContent, n.title])"
        )
        place = {"a": "first", "b": "second", "c": "third"}
        assert sorted(ref for ref, _ in refs) == ["0a", "0b", "0c", "1a", "1b", "1c"], refs
        for ref, title in refs:
            seat = ("Red", "Blue")[int(ref[0])]
            said = f'"{ref}" in typed moves and the log ({seat}\'s {place[ref[1]]} character)'
            assert title.endswith(said), (ref, title)
        pools = page.eval_on_selector_all(".sc-char .sc-pool", "ns => ns.map(n => n.textContent)")
        assert len(pools) == 6 and all(
            re.fullmatch(r"keeps \d+ dic?e · refresh: \d+ energy", p) for p in pools
        ), pools
        assert page.inner_text(".sc-opponents .sc-pile-hand .sc-pile-count") == "5"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
        assert not page_errors, page_errors
    finally:
        phone.close()


# Each card's and character's words that run past its border, or are cut by an ellipsis:
# the extent of the text itself (a Range), against the box inside the border.
STICKING_OUT = r"""() => {
  const out = [];
  for (const box of document.querySelectorAll('#board .sc-card, #board .sc-char')) {
    const r = box.getBoundingClientRect();
    const right = r.right - box.clientLeft + 0.5;
    for (const e of box.querySelectorAll('*')) {
      const own = [...e.childNodes].filter((n) => n.nodeType === 3);
      const text = own.map((n) => n.data).join('').trim();
      if (!text) continue;
      const range = document.createRange();
      range.selectNodeContents(e);
      if (range.getBoundingClientRect().right > right) out.push(`${text}: past the border`);
      if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).textOverflow === 'ellipsis') {
        out.push(`${text}: cut`);
      }
      if (e.classList.contains('sc-card-name')) {  // no word broken in two
        for (const word of text.split(/\s+/)) {
          const probe = document.createElement('span');
          probe.style.whiteSpace = 'nowrap';
          probe.textContent = word;
          e.append(probe);
          const wide = probe.getBoundingClientRect().width;
          if (wide > e.clientWidth + 0.5) out.push(`${word}: broken`);
          probe.remove();
        }
      }
    }
  }
  return out;
}"""


def test_before_the_card_list_comes_a_card_is_named_not_shown_by_its_id(
    server, chromium, page_errors, watch
):
    # On a slow connection the hand was drawn before the card list came, each card by its
    # id: "coordinated-strike", one word too wide for a phone's card. A name made from the id
    # stands in (every built-in card's name is its id so written).
    created = server.create("squad-combat", {"first": 0}, ["human", "heuristic"], seed=11)
    phone = chromium.new_context(viewport={"width": 390, "height": 844})
    try:
        page = watch(phone.new_page())
        page.route("**/api/games/squad-combat/cards*", lambda route: route.abort())
        page.goto(created["seats"][0]["join_url"])
        page.wait_for_selector(".sc-hand .sc-card-name")
        shown = page.eval_on_selector_all(
            ".sc-hand .sc-card-name", "ns => ns.map(n => n.textContent)"
        )
        assert "Coordinated Strike" in shown, shown
        assert all("-" not in name and name[0].isupper() for name in shown), shown
        assert page.evaluate(STICKING_OUT) == []
    finally:
        phone.close()


SMALLEST_DIE = """() => Math.min(99, ...[...document.querySelectorAll('#board .sc-die')]
    .map((die) => die.getBoundingClientRect().width))"""


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_long_names_stay_inside_their_cards(server, chromium, page_errors, watch, size):
    # At 390 px "Coordinated Strike" ran past its hand card's border and a wound's card name
    # was cut to "Backst…": every word of a card or character is inside it, uncut and
    # unbroken, at every state of a match played by clicks (this seed: "Coordinated Strike"
    # in the first hand, a wound by move 24).
    phone = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    created = server.create("squad-combat", {"first": 0}, ["human", "heuristic"], seed=11)
    page = watch(phone.new_page())
    frames = Frames().attach(page)
    page.goto(created["seats"][0]["join_url"])
    page.wait_for_selector(".sc-hand .sc-card-name")
    rng = random.Random(3)
    seen: set[str] = set()
    deadline = time.monotonic() + SECONDS
    while status(page) != "finished" and len(seen) < 40:
        assert time.monotonic() < deadline, f"no end within {SECONDS} s"
        seq = page.get_attribute("body", "data-seq")
        if seq not in seen:
            seen.add(seq)
            assert page.evaluate(STICKING_OUT) == [], f"at move {seq}"
            # A die is tapped to attack, defend and drop: 22 px on a phone was under a
            # finger's 24 (a browser newcomer's finding).
            assert page.evaluate(SMALLEST_DIE) >= 24, f"at move {seq}"
        if not click_once(page, frames, rng):
            page.wait_for_timeout(40)
    assert not page_errors, page_errors
    phone.close()


def test_every_window_for_edges_tells_its_seat_to_play_an_edge_or_say_done(server, context):
    """The end-of-turn window and the window before a refresh's dice are windows for edges
    as the reaction window is ('If it does not have a restriction on it, it may be played at
    anytime'): the page's prompt said only "You: end-of-turn window", never what to do."""
    game = meeple.make("squad-combat", reaction_prompts="always")
    state, rng = game.new_game(1), random.Random(0)
    views: dict[str, dict] = {}
    while len(views) < 2 and not state.is_over:
        kind, seat = state.step
        if kind in ("end-of-turn window", "window before a refresh") and kind not in views:
            views[kind] = {"seat": seat, "view": state.view(seat)}
        seat = state.to_act[0]
        state = state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert len(views) == 2, "seed 1 no longer reaches both windows"
    page = context.new_page()
    page.goto(server.url + "/")
    prompts = page.evaluate(
        """async (views) => {
          const { draw } = await import("/static/games/squad-combat.js");
          const out = {};
          for (const [kind, { seat, view }] of Object.entries(views)) {
            const root = document.createElement("div");
            document.body.appendChild(root);
            const msg = { seat, view, options: {}, legal: [{ text: "done" }] };
            draw(root, msg, { canMove: true, selection: {}, redraw() {} });
            out[kind] = root.querySelector(".sc-prompt").textContent;
            root.remove();
          }
          return out;
        }""",
        views,
    )
    assert prompts == {
        "end-of-turn window": "You: end of the turn, before spent energy clears: "
        "play an edge from your hand, or done",
        "window before a refresh": "You: before the refreshed dice are rolled: "
        "play an edge from your hand, or done",
    }, prompts
    page.close()


def test_with_four_players_the_move_log_tells_every_hit_and_miss_under_its_move(
    server, chromium, watch, page_errors
):
    """With four players the board's log ("On the table") shows its last six lines, and
    the three agents' moves between two of a person's decisions pushed results out of it
    before the person saw them (23 of 36 hits and misses in a game like this one, one of the
    person's own among them); the move log said what each move was, never how it ended.
    Each move's entry now tells, under it, what the engine then did, as the terminal's log
    does. The game's results are read from the record, each state's log against the last."""
    seats = ["human", "heuristic", "heuristic", "heuristic"]
    created = server.create("squad-combat", {"players": 4, "turn_limit": 4}, seats, seed=5)
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = watch(context.new_page())
    frames = Frames().attach(page)
    page.goto(created["seats"][0]["join_url"])
    page.wait_for_selector(".sc-char")
    play_by_clicks(page, frames, 5, SECONDS)
    no_server_errors(frames)
    text = plain_http.get(f"{server.url}/api/matches/{created['match']}/record", timeout=30).text
    record = GameRecord.from_json(text)
    states = record.states()
    results = {
        n: [
            line
            for line in new_lines(before.log, after.log)
            if " hits " in line or " misses " in line
        ]
        for n, (before, after) in enumerate(pairwise(states), start=1)
    }
    assert sum(map(len, results.values())) > 10, "a game of few attacks tells little"
    page.wait_for_function(
        f"() => document.querySelectorAll('#log li').length === {len(record.moves)}"
    )
    shown = dict(page.locator("#log li").evaluate_all("l => l.map(e => [e.value, e.textContent])"))
    untold = [(n, line) for n, lines in results.items() for line in lines if line not in shown[n]]
    assert untold == [], untold
    # The replay page's log is the same.
    replayed = plain_http.post(f"{server.url}/api/replay", content=text, timeout=60).json()
    after = {move["n"]: move.get("after", []) for move in replayed["moves"]}
    untold = [(n, line) for n, lines in results.items() for line in lines if line not in after[n]]
    assert untold == [], untold
    assert page.locator("#log li .log-after").first.is_visible()
    assert not page_errors, page_errors
    context.close()


# Of each of the seat's own moves in the log: the move as its log item begins ("Red: die 1")
# and the lines the game then logged by itself, each a sentence as the live region says it.
OWN = """ls => ls.map((li) => { const code = li.querySelector("code").textContent;
  return [li.textContent.slice(0, li.textContent.indexOf(code) + code.length),
    [...li.querySelectorAll(".log-after")].map((a) => a.lastChild.textContent)
      .map((t) => (/[.!?]$/.test(t) ? t : `${t}.`)).join(" ")]; })"""


def test_a_screen_reader_hears_the_result_of_the_persons_own_attack(
    server, chromium, watch, page_errors
):
    """The live region says the moves of others with what followed them; of the person's
    own move it said nothing, so the hit or miss of their own attack (the lines under the
    move in the log) was shown and never read out. Now each own move's lines are said once,
    as the state with the move arrives, and the move itself is not said back. A seat whose
    own move leads to its next decision hears what the game asks now (its prompt), never a
    bare "Your move." again: that came a dozen times a match, with nothing between."""
    created = server.create("squad-combat", {"first": 0, "turn_limit": 3}, ["human", "random"], 5)
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = watch(context.new_page())
    frames = Frames().attach(page)
    page.goto(created["seats"][0]["join_url"])
    page.wait_for_selector(".sc-char")
    page.evaluate(HEAR)
    play_by_clicks(page, frames, 5, SECONDS)
    no_server_errors(frames)
    page.wait_for_function("() => window.heard.some((p) => p.includes('Game over: '))")
    heard = page.evaluate("window.heard")
    own = page.locator("#log li.mine").evaluate_all(OWN)
    results = [lines for _, lines in own if lines]
    attacks = [r for r in results if " hits Blue " in r or " misses Blue " in r]
    assert attacks, f"none of Red's attacks ended on Red's own move: {results}"
    unheard = [r for r in results if not any(r in said for said in heard)]
    assert unheard == [], (unheard, heard)
    # Said as often as the log holds it: once for the move, more only where another seat's
    # move (its log item, said whole) tells the same line.
    logged = page.locator("#log li:not(.mine)").evaluate_all("ls => ls.map(l => l.textContent)")
    miscounted = [
        r
        for r in set(results)
        if sum(s.count(r) for s in heard) != sum(t.count(r) for t in results + logged)
    ]
    assert miscounted == [], miscounted
    echoed = [move for move, _ in own if any(move in said for said in heard)]
    assert echoed == [], echoed
    assert "Your move." not in heard, heard
    assert any(said.startswith("You: ") for said in heard), heard  # the prompt, said
    assert any(said.endswith("Your move.") for said in heard), heard  # after the others' moves
    # The log's hidden separators (for the screen reader) stay inside its scroll box: placed
    # at their unscrolled positions they stretched the page by thousands of empty pixels.
    extra = page.evaluate(
        "document.documentElement.scrollHeight"
        " - (document.querySelector('main').getBoundingClientRect().bottom + scrollY)"
    )
    assert extra < 100, f"the page runs {extra} px past its content"
    assert not page_errors, page_errors
    context.close()


def test_the_table_s_events_say_when_earlier_ones_are_left_out(server, chromium):
    """'On the table' shows the last six events: at the start of a game the first
    character's roll was missing from it, with no word why."""
    created = server.create("squad-combat", {"first": 0}, ["human", "random"], seed=3)
    events = meeple.make("squad-combat", first=0).new_game(3).view(0)["log"]
    assert len(events) > 6, events
    page = chromium.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(created["seats"][0]["join_url"])
    heading = page.wait_for_selector(".sc-log h3").inner_text()
    # Not "of N": the view keeps the latest 24, and "of 24" stood still past 40 moves.
    assert heading == "On the table: the latest 6 events"
    assert page.locator(".sc-log li").all_inner_texts() == events[-6:]
    page.context.close()


def test_a_card_no_character_can_play_is_greyed_and_says_why(server, chromium):
    """A greyed card said nothing of why: a tap on it now says the rules' reason under
    the hand (here, edges that wait for an attack or a defence)."""
    created = server.create("squad-combat", {"first": 0}, ["human", "random"], seed=5)
    expected = meeple.make("squad-combat", first=0).new_game(5).unplayable(0)
    assert set(expected) == {"parry", "battle-cry"}, expected
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(created["seats"][0]["join_url"])
    page.wait_for_selector(".sc-hand .sc-card.sc-playable")
    greyed = page.locator(".sc-hand .sc-card.sc-unplayable")
    assert greyed.count() == 2
    why = page.locator(".sc-hand .sc-why")
    # "tap" on a touch screen, "click" with a mouse (it said "tap" to a mouse at 1280x800).
    touch = page.evaluate("() => matchMedia('(pointer: coarse)').matches")
    word = "tap" if touch else "click"
    assert why.inner_text() == f"2 greyed cards cannot be played now: {word} one to see why."
    # Playwright does not click what is aria-disabled; a person can, and is told why.
    click_disabled(greyed.filter(has_text="Parry"))
    assert why.inner_text() == "Why not Parry? Parry is played only when defending."
    assert page.get_attribute("body", "data-seq") == "0"  # nothing was played
    # A card chosen rises with its white ring: it covered this line's words.
    page.locator(".sc-hand .sc-card.sc-playable").first.click()
    gap = page.evaluate(
        """() => document.querySelector('.sc-hand .sc-card.sc-selected').getBoundingClientRect()
            .top - document.querySelector('.sc-hand .sc-why').getBoundingClientRect().bottom"""
    )
    assert gap >= 4, gap  # the ring is 4 px
    page.context.close()


def test_while_a_die_is_chosen_every_card_is_greyed_and_says_why(server, chromium):
    """Choosing a defense die, the hand's cards looked playable (a browser newcomer's
    finding: Patch Up in full colour); they are greyed, and a click says why."""
    lesson = plain_http.post(f"{server.url}/api/tutorials/squad-combat").json()
    page = chromium.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(lesson["seats"][0]["join_url"])
    page.wait_for_function("() => document.body.dataset.expected === 'die 2'")
    cards = page.locator(".sc-hand .sc-card")
    assert cards.count() == page.locator(".sc-hand .sc-card.sc-unplayable").count() > 0
    click_disabled(cards.first)
    why = page.locator(".sc-hand .sc-why").inner_text()
    assert why.endswith("? No card is played during the defense die choice."), why
    page.context.close()


def test_the_table_s_events_say_what_their_notation_means(server, chromium, tmp_path):
    """'Aimed Shot (<2>[3])' and '0b' met a newcomer with no word of what they were (a
    character's hover text says it, and a phone has none): under the events, a key says what
    the notation they show means. A random game's last steps, replayed from its record."""
    game = meeple.make("squad-combat")
    rng = random.Random(1)
    state = game.new_game(2)
    moves, logs = [], []
    while not state.is_over:
        seat = state.to_act[0]
        action = rng.choice(state.legal_actions(seat))
        moves.append((seat, str(action)))
        state = state.apply(seat, action)
        logs.append(state.view(0)["log"][-6:])
    assert "Red Vanguard (0a) plays Heavy Blow (<2>[4])." in logs[-2], logs[-2]
    assert not any("(<" in line for line in logs[-1]), logs[-1]
    record = GameRecord(game="squad-combat", options={}, seed=2, moves=moves)
    page = replayed_to_its_end(server, chromium, record, tmp_path)
    assert page.locator(".sc-log li").all_inner_texts() == logs[-1]
    assert page.locator(".sc-log .sc-log-key").inner_text() == "Key: 0a is Red's first character."
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"body[data-step='{len(moves) - 1}']")
    assert page.locator(".sc-log .sc-log-key").inner_text() == (
        "Key: (<2>[4]) after a card is what it cost: <2> is 2 energy, [4] a die of 4 or more; "
        "1c is Blue's third character."
    )
    page.context.close()


def test_on_a_phone_the_next_step_is_brought_into_sight(server, chromium):
    """A card played from the hand at the foot of a phone's page asks for its target at the
    top: the newcomer was left looking at the hand, with nothing to click in sight. A new
    decision none of whose parts is in sight is scrolled to; then the attacker's dice."""
    created = server.create("squad-combat", {"first": 0}, ["human", "random"], seed=3)
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(created["seats"][0]["join_url"])
    in_sight = (
        "els => els.filter(e => { const r = e.getBoundingClientRect();"
        " return r.bottom > 0 && r.top < innerHeight; }).map(e => e.dataset.move)"
    )
    card = page.locator(".sc-hand .sc-card.clickable").first
    card.click()  # scrolled down to the hand, as a person would
    page.locator("#board .sc-char.clickable").first.click()
    page.wait_for_selector("#board [data-move^='target']", state="attached")
    page.wait_for_timeout(300)
    assert page.evaluate("scrollY") < 100
    seen = page.locator("#board .clickable").evaluate_all(in_sight)
    assert seen and all(move.startswith("target ") for move in seen), seen
    page.locator("#board [data-move^='target']").first.click()
    page.wait_for_selector("#board [data-move^='die']", state="attached")
    page.wait_for_timeout(300)
    seen = page.locator("#board .clickable").evaluate_all(in_sight)
    assert any(move.startswith("die ") for move in seen), seen
    page.context.close()


def test_an_attack_that_would_pay_its_performer_s_only_die_says_so(server, chromium):
    """Heavy Blow (<2>[4]) performed by a character with one die pays that die and attacks
    with none, which the rules do unasked: a newcomer's Vanguard did, with no word before
    (a card one character can play plays at a tap). The hand says so while it can be played.
    Seeded moves against the seeded random computer, typed, to the first such turn (the
    16th decision)."""
    created = server.create("squad-combat", {"first": 0}, ["human", "random"], seed=7)
    page = chromium.new_context(viewport={"width": 1280, "height": 800}).new_page()
    frames = Frames().attach(page)
    page.goto(created["seats"][0]["join_url"])
    rng = random.Random(7)
    for _ in range(20):
        page.wait_for_selector("#turn.turn-mine", timeout=SECONDS * 1000)
        state = frames.latest_state()
        legal = [move["text"] for move in state["legal"]]
        squad = state["view"]["characters"][0]
        if "play heavy-blow by a" in legal and len(squad[0]["dice"]) == 1:
            break
        page.fill("#notation", rng.choice(legal))
        page.press("#notation", "Enter")
        page.wait_for_function(f"() => document.body.dataset.seq !== '{state['seq']}'")
    else:
        pytest.fail("no turn with Heavy Blow and a one-die Vanguard in 20 decisions")
    one_die = [
        squad["abc".index(move[-1])]["name"]
        for move in legal
        if move.startswith("play heavy-blow by ") and len(squad["abc".index(move[-1])]["dice"]) == 1
    ]
    warning = page.locator(".sc-hand .sc-warning").inner_text()
    assert warning == (
        f"Heavy Blow by {' or '.join(one_die)} pays its only die for [4] and attacks with no die "
        "(counts as 0)."
    )
    page.context.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_the_target_s_bullseye_covers_neither_its_name_nor_its_ref(server, chromium, size):
    """The bullseye in the target's corner covered its "1c" (a phone newcomer's finding)."""
    created = server.create("squad-combat", {"first": 0}, ["human", "random"], seed=3)
    page = chromium.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
    page.goto(created["seats"][0]["join_url"])
    page.locator(".sc-hand .sc-card.clickable").first.click()
    page.locator("#board .sc-char.clickable").first.click()
    page.locator("#board [data-move='target 1c']").click()  # its "1c" in the top corner
    page.wait_for_selector("#board .sc-target")
    boxes = page.evaluate(
        """() => {
          const card = document.querySelector('#board .sc-target');
          const c = card.getBoundingClientRect(), after = getComputedStyle(card, '::after');
          const left = c.left + parseFloat(after.left), top = c.top + parseFloat(after.top);
          const eye = [left, top, left + parseFloat(after.width), top + parseFloat(after.height)];
          const rect = (sel) => { const r = card.querySelector(sel).getBoundingClientRect();
            return [r.left, r.top, r.right, r.bottom]; };
          return [eye, rect('.sc-ref'), rect('.sc-char-name')];
        }"""
    )
    eye, *covered = boxes
    for box in covered:
        apart = eye[2] <= box[0] or box[2] <= eye[0] or eye[3] <= box[1] or box[3] <= eye[1]
        assert apart, boxes
    page.context.close()
