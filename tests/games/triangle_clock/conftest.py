"""Helpers for building Triangle Clock positions: arranged hands and shared symbols."""

from __future__ import annotations

from dataclasses import replace

import pytest

import meeple
from meeple.core.simultaneous import Submissions
from meeple.games.triangle_clock import TriangleClockGame, TriangleClockState
from meeple.games.triangle_clock.cards import NUM_SYMBOLS, parse_card, parse_symbol
from meeple.games.triangle_clock.rules import Phase, Supply


@pytest.fixture
def game() -> TriangleClockGame:
    """The game with the seed's defaults."""
    g = meeple.make("triangle-clock")
    assert isinstance(g, TriangleClockGame)
    return g


def symbols(text: str) -> tuple[int, ...]:
    """``"Ns Nc Es"`` as symbols."""
    return tuple(parse_symbol(w) for w in text.split())


def arrange(
    game: TriangleClockGame,
    hands: tuple[str, str],
    shared: str = "",
    seed: int = 0,
) -> TriangleClockState:
    """A game at the first choice of round 1 with the given hands (``"Ns+Es Nc+Wc ..."``,
    four cards per seat) and the first shared symbols (``"Ns Es"``); every card stays
    exactly once in the game (the arranged cards leave the deck, the dealt ones go back)."""
    state = game.new_game(seed)
    wanted = [tuple(parse_card(c) for c in hand.split()) for hand in hands]
    assert all(len(h) == 4 for h in wanted)
    taken = {c for h in wanted for c in h}
    returned = [c for seat in state.seats for c in seat.hand if c not in taken]
    deck = [c for c in state.supply.deck if c not in taken] + returned
    first = list(symbols(shared))
    order = tuple(first + [s for s in range(NUM_SYMBOLS) if s not in first])
    seats = tuple(replace(seat, hand=wanted[p]) for p, seat in enumerate(state.seats))
    return replace(
        state,
        phase=Phase.FIRST,
        seats=seats,
        supply=Supply(tuple(deck), (), 0),
        orders=(order, *state.orders[1:]),
        pending=Submissions.open((0, 1)),
    )


def both(state: TriangleClockState, tick: str, tock: str) -> TriangleClockState:
    """Tick (seat 0) then Tock (seat 1) submit one choice each, in notation."""
    return state.apply_text(0, tick).apply_text(1, tock)


def play_round(state: TriangleClockState, tick: tuple[str, ...], tock: tuple[str, ...]):
    """Three choices for each seat."""
    for a, b in zip(tick, tock, strict=True):
        state = both(state, a, b)
    return state


def cards_in_game(state: TriangleClockState) -> list[int]:
    """Every card in a hand, the deck or the discard pile."""
    return [c for seat in state.seats for c in seat.hand] + list(
        state.supply.deck + state.supply.discards
    )
