"""The clocks of a server's matches: whose decision has a deadline and when, and the
deadlines as the database keeps them, so a restarted server keeps each seat's deadline
instead of giving it a new full period. The hub's
:class:`~meeple.interfaces.web.referee.Referee` runs the timers and writes them."""

from __future__ import annotations

import logging
import math
from typing import Any

from meeple.interfaces.web.live import LiveMatch

log = logging.getLogger("meeple.server")


def set_deadlines(match: LiveMatch, now: float) -> None:
    """Deadlines for the people to act: a memorise step's seconds, or the move clock."""
    base = match.decision_base
    # A seat's deadline stands while its decision is open (others submitting to the
    # same simultaneous decision change nothing); a new decision starts a new period,
    # as a Triangle Clock mulligan resets the round's timer.
    keep = match.deadlines if match.deadline_base == base else {}
    match.deadline_base = base
    match.deadlines = {}
    # The game's own clock (The Triangle Clock's minute per choice) is for people
    # playing people: against the computer only the match's clock, if asked for, runs.
    people = sum(match.seat_is_person(s) for s in range(match.game.num_players))
    for seat in match.state.to_act:
        if not match.seat_is_person(seat):
            continue
        seconds = match.game.memorise_seconds(match.state, seat)
        if seconds is None:
            seconds = match.stored.move_seconds or (
                match.game.decision_seconds(match.state, seat) if people >= 2 else None
            )
        if seconds is None:
            continue
        match.deadlines[seat] = keep.get(seat, now + seconds)


def stored_deadlines(match: LiveMatch) -> dict[str, Any] | None:
    """The deadlines as stored with the match: absolute times, with the decision they are
    for; None when no clock runs."""
    if not match.deadlines:
        return None
    return {"base": match.deadline_base, "seats": {str(s): d for s, d in match.deadlines.items()}}


def adopt_clocks(match: LiveMatch) -> None:
    """Take the deadlines stored with the match when they are for its current decision (a
    restarted server keeps them; stored for an earlier decision, they are stale)."""
    data = match.stored.deadlines
    if not data or data.get("base") != match.decision_base:
        return
    if match.deadline_base == match.decision_base:
        return  # this process set the clocks of this decision already
    try:
        deadlines = {int(s): float(d) for s, d in data["seats"].items()}
    except (AttributeError, KeyError, TypeError, ValueError, OverflowError):
        deadlines = None
    seats = range(match.game.num_players)
    if deadlines is None or not all(s in seats and math.isfinite(d) for s, d in deadlines.items()):
        # A seat past the match's or a time that is no time would stop a clock for good.
        log.warning("match %s: its stored deadlines are not readable; new ones are set", match.id)
        return
    match.deadline_base = match.decision_base
    match.deadlines = deadlines
