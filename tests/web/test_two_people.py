"""Two people in two browsers play one Erd match: simultaneous secret allocations.

Each page must say "waiting for the other player" once its own allocation is in (its tab's
title then no longer "Your move", the other's still so), and no page may ever be sent the
other seat's secret: every view a page receives must be exactly the view the rules give that
seat at that point (checked against the finished record), ``allocations.mine`` only ever
this seat's own allocation, and the other seat's moves in the log only "has chosen" until
both have chosen (the rules then reveal it).
"""

from __future__ import annotations

import random

from meeple.core.record import GameRecord
from tests.web.browser import Frames, click_once, moves_sent, no_server_errors, status


def _submit(page, frames: Frames, rng: random.Random) -> None:
    """Click until this page's allocation is sent (or the match ends)."""
    sent = moves_sent(page)
    for _ in range(400):
        if moves_sent(page) > sent or status(page) == "finished":
            return
        if not click_once(page, frames, rng):
            page.wait_for_timeout(40)
    raise AssertionError("no allocation sent after 400 clicks")


def test_two_people_play_erd_and_neither_page_sees_the_others_secret(
    server, chromium, watch, page_errors
):
    created = server.create("erd", {"best_of": 3}, ["human", "human"])
    match = created["match"]
    pages, frames = [], []
    for seat in (0, 1):
        context = chromium.new_context(viewport={"width": 1280, "height": 800})
        page = watch(context.new_page())
        frames.append(Frames().attach(page))
        page.goto(f"{server.url}/play/{match}#token={created['seats'][seat]['token']}")
        pages.append(page)
    for page in pages:
        page.wait_for_selector("body[data-status='playing']")
    rng = random.Random(3)
    waited = [False, False]
    rounds = 0
    while status(pages[0]) != "finished":
        rounds += 1
        assert rounds < 200, "the match did not end"
        first = rounds % 2  # each seat is the first to allocate in turn
        _submit(pages[first], frames[first], rng)
        if status(pages[first]) == "finished":
            break
        pages[first].wait_for_function(
            "() => document.getElementById('turn').textContent"
            ".includes('waiting for the other player')"
        )
        waited[first] = True
        # The tab strip says whose move it is: the seat still to allocate, not the other.
        assert not pages[first].title().startswith("Your move"), pages[first].title()
        assert pages[1 - first].title() == "Your move · Erd: The Grim Triangle — meeple"
        _submit(pages[1 - first], frames[1 - first], rng)
        for page in pages:  # both see the combat before the next round starts
            page.wait_for_function(f"() => Number(document.body.dataset.seq) >= {2 * rounds}")
    assert waited == [True, True], "each seat should have waited for the other once"
    for page in pages:
        page.wait_for_selector("#end:not([hidden]) .end-title")
        assert page.title() == "Game over · Erd: The Grim Triangle — meeple"

    record = GameRecord.model_validate(server.get(f"/api/matches/{match}/record"))
    states = record.states()
    for seat, seen in enumerate(frames):
        mine = {m["action"] for m in seen.of_type("ack")}
        pending = [m for m in seen.of_type("state") if m["view"]["allocations"]["mine"]]
        assert pending, f"seat {seat}'s page never showed its own allocation waiting"
        for message in seen.of_type("state"):
            assert message["seat"] == seat
            view = message["view"]
            assert view == states[message["seq"]].view(seat), f"seat {seat} saw more than its view"
            assert view["allocations"]["mine"] in mine | {None}
            if message["status"] != "finished":
                state, seq = states[message["seq"]], message["seq"]
                open_from = seq - (len(state.decision_start().to_act) - len(state.to_act))
                for entry in message["log"]:
                    if entry["seat"] != seat and entry["n"] - 1 >= open_from:
                        assert entry["text"] is None, f"seat {seat} saw {entry} while open"
        no_server_errors(seen)
    assert not page_errors, page_errors
