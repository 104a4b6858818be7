"""A Triangle Clock game at a Mulligan inside a simultaneous decision, for the tests of what
stays secret there: a Mulligan changes no submission, so counting submissions alone lets the
choice before it out."""

from __future__ import annotations

import meeple
from meeple.core.record import Playthrough


def mulligan_after_a_pick() -> Playthrough:
    """Both seats memorise (moves 1 and 2), Tick picks (3), Tock takes a Mulligan (4): Tock
    is still to pick, and Tick's pick is secret from Tock."""
    from meeple.games.triangle_clock.rules import MULLIGAN

    play = Playthrough(meeple.make("triangle-clock"), 0)
    while len(play.moves) < 2:
        play.play(play.state.to_act[0], play.state.legal_actions(play.state.to_act[0])[0])
    play.play(0, play.state.legal_actions(0)[0])
    play.play(1, MULLIGAN)
    return play
