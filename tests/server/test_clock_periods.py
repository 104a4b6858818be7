"""The Triangle Clock's minute per choice as the server's clocks keep it: a seat's deadline
stands through the other seat's submission, and a Mulligan starts the round's timer again
("Use before submitting your first symbol for a round. The timer for that round will
reset.")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import meeple
from meeple.agents import HUMAN
from meeple.core.game import Game, Player, State
from meeple.games.triangle_clock.rules import MULLIGAN
from meeple.interfaces.web.clocks import set_deadlines
from meeple.interfaces.web.live import LiveMatch


@dataclass
class _Stored:
    moves: list[Any]
    seats: list[dict[str, Any]]
    move_seconds: float | None = None


@dataclass
class _Match:
    """What :func:`set_deadlines` reads of a match, with LiveMatch's own rules for where the
    current decision began and who is a person."""

    game: Game[Any, Any, Any]
    state: State[Any]
    stored: _Stored
    deadlines: dict[Player, float] = field(default_factory=dict)
    deadline_base: int = -1

    seq = LiveMatch.seq
    decision_base = LiveMatch.decision_base
    seat_is_person = LiveMatch.seat_is_person

    def move(self, seat: Player, action: Any, now: float) -> None:
        """The move accepted, and the clocks set as the referee sets them after it."""
        self.state = self.state.apply(seat, action)
        self.stored.moves.append(action)
        set_deadlines(self, now)  # type: ignore[arg-type]


def test_a_mulligan_resets_the_round_s_timer_for_the_choice():
    game = meeple.make("triangle-clock", choice_seconds=60)
    match = _Match(game, game.new_game(0), _Stored([], [{"spec": HUMAN}, {"spec": HUMAN}]))
    for seat in (0, 1):
        match.move(seat, match.state.legal_actions(seat)[0], now=0.0)
    assert match.deadlines == {0: 60.0, 1: 60.0}  # the first choice of round 1
    match.move(0, match.state.legal_actions(0)[0], now=10.0)
    assert match.deadlines == {1: 60.0}  # Tock's minute runs on from the start
    match.move(1, MULLIGAN, now=20.0)
    assert match.deadlines[1] == 80.0  # a new minute from the Mulligan
