"""The browser tests' own helpers: their reading of a refused move
(:meth:`tests.web.browser.Frames.overtaken`: a stale move is excused only where another
seat's move reached the server first, for a state the page had received), and their
measuring of elements on a page that redraws (:func:`tests.web.browser.each`)."""

from __future__ import annotations

from typing import Any

from tests.web.browser import Frames, each, no_server_errors


def state(seq: int, seat: int, log: list[tuple[int, int]]) -> dict[str, Any]:
    """A state message at ``seq`` for ``seat`` whose log holds ``(n, seat)`` entries."""
    entries = [{"n": n, "seat": s, "text": None} for n, s in log]
    return {"type": "state", "seq": seq, "seat": seat, "log": entries}


def stale(quoted: int, now: int) -> dict[str, Any]:
    """The server's refusal of a move quoting ``quoted`` while the match is at ``now``."""
    message = f"stale move: it was chosen at move {quoted}, the match is at move {now}"
    return {"type": "error", "code": "stale_move", "seq": now, "message": message}


def frames(*exchange: tuple[str, dict[str, Any]]) -> Frames:
    """Frames holding this exchange, in order."""
    return Frames(list(exchange))


def move(seq: int) -> tuple[str, dict[str, Any]]:
    return ("sent", {"type": "move", "seq": seq, "action": "mulligan"})


def test_a_move_overtaken_by_the_other_seat_is_excused() -> None:
    """Sent for the newest state the page had; the other seat's move came first."""
    error = stale(3, 4)
    seen = frames(
        ("received", state(3, 0, [(1, 0), (2, 1), (3, 0)])),
        move(3),
        ("received", error),
        ("received", state(4, 0, [(4, 1)])),
    )
    assert seen.overtaken(error)
    no_server_errors(seen)


def test_a_move_sent_before_the_page_read_the_newest_state_is_excused() -> None:
    """The browser had state 4 (the other seat's Mulligan) when the page sent its move for
    state 3: Playwright hears a frame as it arrives, before the page's script reads it, so
    a click handled in between quotes the state the player saw. The same race as above."""
    error = stale(3, 4)
    seen = frames(
        ("received", state(3, 0, [(3, 0)])),
        ("received", state(4, 0, [(4, 1)])),
        move(3),
        ("received", error),
    )
    assert seen.overtaken(error)


def test_a_move_quoting_a_state_the_page_never_received_is_not() -> None:
    error = stale(2, 4)
    seen = frames(
        ("received", state(3, 0, [(3, 1)])),
        move(2),
        ("received", error),
        ("received", state(4, 0, [(4, 1)])),
    )
    assert not seen.overtaken(error)


def test_a_move_overtaken_by_the_page_s_own_seat_is_not() -> None:
    """The page moved twice for one state: its own first move made the second stale."""
    error = stale(3, 4)
    seen = frames(
        ("received", state(3, 0, [(3, 1)])),
        move(3),
        move(3),
        ("received", state(4, 0, [(4, 0)])),
        ("received", error),
    )
    assert not seen.overtaken(error)


def test_other_refusals_are_never_excused() -> None:
    error = {"type": "error", "code": "illegal_move", "seq": 3, "message": "not legal"}
    seen = frames(("received", state(3, 0, [])), move(3), ("received", error))
    assert not seen.overtaken(error)


REDRAWN = """<div id="seats"></div><style>.seat { border-left: 4px solid rgb(1, 2, 3) }</style>
<script>
function draw() {
  document.getElementById('seats').innerHTML = '<p class="seat">a</p><p class="seat">b</p>';
  requestAnimationFrame(draw);
}
draw();
</script>"""


def test_each_measures_elements_a_page_redraws_every_frame(chromium) -> None:
    """The elements :func:`each` measures are the page's at that moment, never detached by a
    redraw between finding them and reading them (as with Playwright's ``evaluate_all``)."""
    context = chromium.new_context()
    page = context.new_page()
    page.set_content(REDRAWN)
    read = [
        each(page, "#seats .seat", "e => getComputedStyle(e).borderLeftColor") for _ in range(200)
    ]
    assert all(colours == ["rgb(1, 2, 3)"] * 2 for colours in read), read
    context.close()
