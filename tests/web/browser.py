"""Driving the pages in Chromium: what a page received on its WebSocket, and random clicks.

The drawing contract says every step of every legal move is reachable by clicking
``.clickable`` elements of the picture, and that a choice which sends a move carries its
notation in ``data-move``; :func:`play_by_clicks` plays a seat's part of a match that way
and checks, before every click that sends a move, that the move is one of the legal moves
the server sent this seat.
"""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

# Clicks that undo a step: the player takes them now and then, not most of the time, so
# that a game ends in seconds while the way back out of a half-built move is still used.
BACKWARD = re.compile(r"^(cancel|back|clear|undo|take .* back)", re.IGNORECASE)


@dataclass
class Frames:
    """Every WebSocket message one page received, decoded, in order; and, in the same order,
    what the page sent (``exchange``), so a refusal can be told from a race."""

    exchange: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """``("received" | "sent", message)`` in the order the page met them."""

    @property
    def messages(self) -> list[dict[str, Any]]:
        """What the page received, in order."""
        return [m for way, m in self.exchange if way == "received"]

    def attach(self, page: Any) -> Frames:
        """Record the frames of every socket the page opens (reconnections too)."""

        def on_socket(ws: Any) -> None:
            ws.on(
                "framereceived",
                lambda payload: self.exchange.append(("received", _decoded(payload))),
            )
            ws.on("framesent", lambda payload: self.exchange.append(("sent", _decoded(payload))))

        page.on("websocket", on_socket)
        return self

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        """The messages of one type ("state", "error", ...)."""
        return [m for m in self.messages if m.get("type") == kind]

    def latest_state(self) -> dict[str, Any] | None:
        """The last state message, or None before the first."""
        states = self.of_type("state")
        return states[-1] if states else None

    def before(self, message: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The exchange up to ``message`` (a received one), in order."""
        for k, (_, seen) in enumerate(self.exchange):
            if seen is message:
                return self.exchange[:k]
        return list(self.exchange)

    def logged(self) -> dict[int, dict[str, Any]]:
        """Every move log entry the states told, by its number."""
        return {e["n"]: e for m in self.of_type("state") for e in m.get("log", [])}

    def overtaken(self, error: dict[str, Any]) -> bool:
        """True if ``error`` refused a move as stale only because another seat's move
        reached the server first: the page sent it for a state it had received, and every
        move the server took since that state is another seat's. A real player meets that
        race too (an opponent's Mulligan, say, while they click); the server refuses and
        sends the state again, as documented. The state quoted need not be the newest the
        browser had received: Playwright hears a frame as it arrives, and the page's script
        may not have read it yet when the click is handled. A page that quoted a state it
        never received, or lost track of its own moves, is not excused."""
        if error.get("code") != "stale_move":
            return False
        move = had = None  # the last move sent before the error, the states received by then
        received: dict[int, dict[str, Any]] = {}
        for way, message in self.before(error):
            if way == "received" and message.get("type") == "state":
                received[message["seq"]] = message
            elif way == "sent" and message.get("type") == "move":
                move, had = message, received.get(message["seq"])
        if move is None or had is None:
            return False
        if not error["seq"] > move["seq"]:
            return False
        by = self.logged()
        taken = range(move["seq"] + 1, error["seq"] + 1)
        return all(n in by and by[n]["seat"] != had["seat"] for n in taken)

    def told(self, error: dict[str, Any]) -> str:
        """A refusal with what led to it, for a failing test's message: the moves the page
        sent and the states it received just before, and (a stale move) who made each move
        the server took since, as the logs of later states say ("timeout": the server's)."""
        before = [
            f"{way} {message['type']} seq {message.get('seq')}"
            for way, message in self.before(error)
            if message.get("type") in ("state", "move")
        ]
        by = self.logged()
        since = [
            {k: by.get(n, {}).get(k) for k in ("n", "seat", "timeout")}
            for n in range(error.get("move_seq", error.get("seq", 0)) + 1, error.get("seq", 0) + 1)
        ]
        return f"{error.get('message')} (after: {before[-4:]}; moves since: {since})"


def _decoded(payload: Any) -> dict[str, Any]:
    return json.loads(payload if isinstance(payload, str) else payload.decode())


def seat_token(page: Any, seconds: float = 30) -> str:
    """The seat's own token, from a game page's address: the page that opened the seat's
    link is given it at its welcome (the link takes its seat once), and waits for it here."""
    page.wait_for_selector("#conn.conn-on", timeout=seconds * 1000)
    return str(page.evaluate("new URLSearchParams(location.hash.slice(1)).get('token')"))


def status(page: Any) -> str | None:
    """The match status the game page shows (``waiting``, ``playing``, ``finished``)."""
    return page.get_attribute("body", "data-status")


def each(page: Any, selector: str, function: str) -> list[Any]:
    """``function`` (JavaScript, of one element) over every element ``selector`` finds, in one
    evaluation. Playwright's ``evaluate_all`` and ``eval_on_selector_all`` find the elements
    and call the function in two steps; a page that redraws between them (another seat's
    move) hands the function detached elements, whose computed styles are "" and whose boxes
    are all zero, so a measurement could fail, or pass, on nothing."""
    return page.evaluate(
        f"selector => [...document.querySelectorAll(selector)].map({function})", selector
    )


def moves_sent(page: Any) -> int:
    """How many moves the game page has sent."""
    return int(page.get_attribute("body", "data-sent") or 0)


def pick(rng: random.Random, marks: list[tuple[str | None, str]]) -> int:
    """Which clickable to click, given each one's ``(data-move, data-hint)``: a whole move
    half the time when there is one, rarely a step back."""
    moves = [i for i, (move, _) in enumerate(marks) if move]
    if moves and rng.random() < 0.5:
        return rng.choice(moves)
    forward = [i for i, (_, hint) in enumerate(marks) if not BACKWARD.match(hint)]
    if forward and rng.random() < 0.9:
        return rng.choice(forward)
    return rng.choice(range(len(marks)))


# Every clickable's move, hint and tutorial mark in one call: a round trip to the browser
# per attribute made a match's worth of clicks cost seconds of both processes' time.
MARKS = """els => els.map(e => [e.getAttribute('data-move'), e.getAttribute('data-hint') || '',
  e.classList.contains('tutorial-mark')])"""


def marks(page: Any, elements: list[Any]) -> list[tuple[str | None, str, bool]]:
    """Each element's ``(data-move, data-hint, marked by a tutorial)``, read in one call."""
    return [(move, hint, marked) for move, hint, marked in page.evaluate(MARKS, elements)]


# The page's move number and every clickable's move and hint, in one call: what was drawn
# for one state (a page draws a state and sets its number in one task, between two calls).
DRAWN = """() => [document.body.getAttribute('data-seq'),
  [...document.querySelectorAll('#board .clickable')].map(e => [e.getAttribute('data-move'),
    e.getAttribute('data-hint') || ''])]"""
# The clickable read at ``index``, if the page has not been redrawn since: else null.
STILL = """([seq, index, move, hint]) => {
  const e = document.querySelectorAll('#board .clickable')[index];
  const same = e && document.body.getAttribute('data-seq') === seq
    && e.getAttribute('data-move') === move && (e.getAttribute('data-hint') || '') === hint;
  return same ? e : null; }"""


def click_once(page: Any, frames: Frames, rng: random.Random) -> bool:
    """One random click on the picture; True if there was something to click.

    A click that would send a move is first checked against the legal moves of the latest
    state the page received: the picture must never offer an illegal move.
    """
    drawn_for, drawn = page.evaluate(DRAWN)
    if not drawn:
        return False
    try:
        read = [(move, hint) for move, hint in drawn]
        chosen = pick(rng, read)
        move, hint = read[chosen]
        if move is not None:
            state = frames.latest_state()
            legal = {a["text"] for a in state["legal"]} if state else set()
            # Only a picture drawn for the latest state the page received counts.
            if drawn_for == str(state and state["seq"]):
                assert move in legal, f"the picture offers {move!r}, not a legal move: {legal}"
        handle = page.evaluate_handle(STILL, [drawn_for, chosen, move, hint])
        element = handle.as_element()
        if element is not None:  # else redrawn since: look again
            element.click(timeout=3000)
        handle.dispose()
    except Exception as exc:  # the picture was redrawn under the click: look again
        if "not a legal move" in str(exc):
            raise
    return True


def play_by_clicks(page: Any, frames: Frames, seed: int, seconds: float) -> int:
    """Click random clickables on a game page until the match is over; the clicks made."""
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    clicks = 0
    while status(page) != "finished":
        assert time.monotonic() < deadline, (
            f"the match did not end within {seconds} s of random clicks "
            f"({clicks} clicks, {moves_sent(page)} moves sent)"
        )
        if click_once(page, frames, rng):
            clicks += 1
        else:
            page.wait_for_timeout(40)
    return clicks


HEAR = """() => { window.heard = [];
  new MutationObserver((changes) => changes.forEach((c) => c.addedNodes.forEach(
    (p) => window.heard.push(p.textContent)))).observe(document.getElementById("announce"),
    { childList: true }); }"""
"""For ``page.evaluate``: every paragraph the game page's live region is given from then on,
kept in order in ``window.heard`` (the region itself keeps only its last few)."""

BARE_TURN = {"Your move.", "Your choice (both choose at once)."}
"""What the live region says of the seat's turn alone. Where the seat's own move led to its
next decision, the game's ``prompt()`` says what is asked instead: said bare again, these
told nothing new."""


def no_server_errors(frames: Frames) -> None:
    """Asserts that the server refused nothing the page sent, except a move another seat's
    move overtook on its way (:meth:`Frames.overtaken`)."""
    errors = [m for m in frames.of_type("error") if not frames.overtaken(m)]
    assert not errors, f"the server refused what the page sent: {[frames.told(m) for m in errors]}"


def at_the_table(
    chromium: Any, server: Any, game: str, options: dict[str, Any], size: tuple[int, int]
) -> tuple[Any, Any]:
    """A new browser context and page at ``size``, seated at a new match of ``game``
    against ``random`` and playing: (context, page)."""
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    created = server.create(game, options, ["human", "random"])
    page.goto(f"{server.url}/play/{created['match']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("body[data-status='playing']")
    return context, page


def click_unless_redrawn(element: Any, tap: bool = False) -> bool:
    """Click ``element`` of the picture (``tap``: tap it, on a touch screen's page); False
    where the page redrew the picture first (a click's own redraw waits for the next frame,
    so elements listed just after a click may already be gone), and the caller lists the
    elements again."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        if tap:
            element.tap(timeout=3000)
        else:
            element.click(timeout=3000)
    except PlaywrightError:  # detached, or not clickable within the time: redrawn
        return False
    return True


def click_disabled(locator: Any, seconds: float = 10) -> None:
    """Click a part the page marks ``aria-disabled`` (a greyed card, which a person may
    click to be told why): Playwright clicks it only with ``force``, which waits for
    nothing, so a click that met the part as the page redrew it under a state message
    ("Element is not visible", once under load) is made again, until it lands."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + seconds
    while True:
        try:
            locator.wait_for(state="visible", timeout=seconds * 1000)
            locator.click(force=True, timeout=1000)
            return
        except PlaywrightError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def click_expected(page: Any, seconds: float = 20, tap: bool = False) -> None:
    """Make the tutorial step's expected move by clicking (``tap``: tapping) what the page
    marks for it (a marked part that opens a choice, then the marked choice), until the move
    is sent."""
    sent = moves_sent(page)
    deadline = time.monotonic() + seconds
    while moves_sent(page) == sent:
        expected = page.get_attribute("body", "data-expected")
        assert time.monotonic() < deadline, f"nothing marked sends the expected move {expected!r}"
        marked = page.query_selector_all("#board .clickable.tutorial-mark")
        sending = [e for e in marked if e.get_attribute("data-move")]
        target = (sending or marked or [None])[0]
        if target is None:
            page.wait_for_timeout(50)
            continue
        if not click_unless_redrawn(target, tap):
            page.wait_for_timeout(50)


def tab_to(page: Any, selector: str, presses: int = 80) -> None:
    """Press Tab until the focus is on ``selector``, as a keyboard user reaches it; the test
    fails where ``presses`` never get there."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector} in {presses} presses")


def replayed_to_its_end(server: Any, chromium: Any, record: Any, folder: Any) -> Any:
    """A phone's replay page (390x844) of ``record`` (a GameRecord) uploaded from ``folder``,
    stepped to its end: a position a test wants without playing to it on a server."""
    path = folder / "game.json"
    path.write_text(record.model_dump_json())
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{server.url}/replay")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("body[data-step='0']")
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-step='{len(record.moves)}']")
    return page
