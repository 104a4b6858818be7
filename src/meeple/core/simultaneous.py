"""Simultaneous decisions: every seat in the decision submits, nobody sees the others' choice.

A state that waits for several seats keeps a :class:`Submissions` value. Its ``waiting`` seats
are the state's ``to_act``; a submitted choice is visible only to the seat that made it until
the decision is complete, when the game resolves (reveals) all of them at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

Player = int


A = TypeVar("A")


@dataclass(frozen=True, slots=True)
class Submissions(Generic[A]):
    """The choices made so far in one simultaneous decision."""

    seats: tuple[Player, ...]
    """Every seat that takes part in the decision."""
    chosen: tuple[A | None, ...]
    """Each taking-part seat's choice, in the order of ``seats``; None until it submits."""
    waiting: tuple[Player, ...] = field(init=False, repr=False, compare=False)
    """Seats that have not yet submitted."""

    def __post_init__(self) -> None:
        # A game's ``to_act`` is these seats, and search asks for it at every step: work
        # them out once, as the value is frozen.
        waiting = tuple(s for s, c in zip(self.seats, self.chosen, strict=True) if c is None)
        object.__setattr__(self, "waiting", waiting)

    @classmethod
    def open(cls, seats: Iterable[Player]) -> Submissions[A]:
        """A decision that waits for ``seats``."""
        seats = tuple(seats)
        return cls(seats, (None,) * len(seats))

    @property
    def complete(self) -> bool:
        """Every seat has submitted: time to reveal."""
        return not self.waiting

    def submit(self, seat: Player, choice: A) -> Submissions[A]:
        """The decision with ``seat``'s choice added; ValueError if it is not waiting for it."""
        if seat not in self.seats:
            raise ValueError(f"seat {seat} takes no part in this decision")
        k = self.seats.index(seat)
        if self.chosen[k] is not None:
            raise ValueError(f"seat {seat} has already submitted")
        return Submissions(self.seats, (*self.chosen[:k], choice, *self.chosen[k + 1 :]))

    def rewound(self) -> Submissions[A]:
        """The same decision with every submission taken back."""
        return Submissions.open(self.seats)

    def of(self, seat: Player) -> A | None:
        """The choice of ``seat`` (None if not yet made). Only for the engine and that seat."""
        return self.chosen[self.seats.index(seat)] if seat in self.seats else None

    def revealed(self) -> dict[Player, A]:
        """Every choice by seat; only once the decision is complete."""
        if not self.complete:
            raise ValueError(f"seats {self.waiting} have not submitted yet")
        return {s: c for s, c in zip(self.seats, self.chosen, strict=True) if c is not None}

    def view(self, viewer: Player | None) -> dict[str, Any]:
        """What ``viewer`` may know: who has submitted, and its own choice only."""
        own = self.of(viewer) if viewer is not None else None
        return {
            "submitted": [s for s in self.seats if s not in self.waiting],
            "waiting": list(self.waiting),
            "mine": None if own is None else str(own),
        }


def hidden_from_others(state: Any) -> bool:
    """True when a move made now is part of a simultaneous decision, so that the other
    seats may learn only that it was made (its content shows, if at all, in the reveal).

    ``state`` is the state before the move; ``state.decision_start()`` holds every seat of
    the current decision, including those that have already submitted.
    """
    return len(state.decision_start().to_act) > 1


def secret(state: Any, player: Player) -> bool:
    """Whether ``player``'s move from ``state`` is a choice the other seats learn only when
    the rules reveal it: a move in a simultaneous decision, but not a memorise step's (its
    one move tells nothing but that the seat has looked, which everyone knows)."""
    return hidden_from_others(state) and state.game.memorise_seconds(state, player) is None


def submitted(state: Any) -> int:
    """How many choices the simultaneous decision under way in ``state`` holds, made and not
    yet revealed (0 when none is under way, or the game is over)."""
    if state.is_over:
        return 0
    return len(state.decision_start().to_act) - len(state.to_act)


def reveals(before: Any, after: Any) -> bool:
    """True when the move from ``before`` to ``after`` completed a simultaneous decision:
    the rules now reveal every choice made in it.

    A move that only changes what its seat will choose (a Triangle Clock mulligan) leaves
    the choices made as many as before; a submission that completes the decision leaves
    none (the next decision has none yet), though at least one was made before it.
    """
    return hidden_from_others(before) and submitted(after) < submitted(before)


def chooses_again(before: Any, after: Any) -> bool:
    """True when the move from ``before`` to ``after`` was made in a simultaneous decision
    but submitted nothing: its seat is still to choose (a Triangle Clock mulligan, after
    which the seat chooses from a new hand). Secret like the decision's choices until they
    are revealed, it then shows in no choice: a board that draws the revealed choices
    leaves it out, so a screen tells it in words."""
    return (
        hidden_from_others(before)
        and not reveals(before, after)
        and submitted(after) == submitted(before)
    )


def settles(before: Any, after: Any) -> bool:
    """True when, after the move from ``before`` to ``after``, every move so far is in the
    open: the move was made outside a simultaneous decision, or it completed one. Until
    then the moves since the last such move are secret from the seats that did not make
    them (a Triangle Clock mulligan made in the decision too, though it is no submission:
    counting submissions alone would let the choice before it out)."""
    return not hidden_from_others(before) or reveals(before, after)


def secret_moves(states: Sequence[Any]) -> range:
    """The moves (numbered from 1) of ``states``' game still secret after its last state
    (``states[k]`` the state after move ``k``): those of the simultaneous decision under
    way, none where the last move :func:`settles` it."""
    last = len(states) - 1
    if last == 0 or settles(states[-2], states[-1]):
        return range(last + 1, last + 1)
    return decision_moves(states, last)


def decision_moves(states: Sequence[Any], number: int) -> range:
    """The moves (numbered from 1) of the simultaneous decision that move ``number`` is
    part of, from its first up to ``number`` itself: those a log tells, in full, once the
    move that completes the decision reveals them.

    ``states[k]`` is the state after move ``k`` (``states[0]`` the start). A decision's
    moves are the hidden ones since the last move that was not (or that completed the
    decision before); a Triangle Clock mulligan made in it is one of them.
    """
    first = number
    while first > 1:
        if settles(states[first - 2], states[first - 1]):
            break
        first -= 1
    return range(first, number + 1)
