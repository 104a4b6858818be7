"""Helpers for building Erosion positions from card ids."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import meeple
from meeple.games.erosion import ErosionGame, ErosionState


def make(players: int = 2, **options: Any) -> ErosionGame:
    """An Erosion game with seat 0 starting."""
    game = meeple.make("erosion", players=players, first=0, **options)
    assert isinstance(game, ErosionGame)
    return game


def cards(game: ErosionGame, names: Iterable[str]) -> tuple[int, ...]:
    """Card numbers of card ids such as ``WX12``."""
    return tuple(game.catalog.index[name] for name in names)


def position(
    game: ErosionGame,
    *,
    hands: Mapping[int, Iterable[str]] | None = None,
    mountains: Mapping[int, Iterable[str]] | None = None,
    weathered: Mapping[int, int] | None = None,
    river: Iterable[str] = (),
    deltas: Mapping[int, Iterable[str]] | None = None,
    deck_tops: Mapping[int, Iterable[str]] | None = None,
    empty_decks: Iterable[int] = (),
    current: int = 0,
    **fields: Any,
) -> ErosionState:
    """A position with exactly these piles; every other card lies in its deck (sorted, the
    ``deck_tops`` cards on top, the last one topmost), so every card is in one place.
    Mountains are written top rock first; ``weathered`` counts weathered rocks from the top.
    Cards of an emptied deck go to seat 0's discards."""
    n = game.num_players
    cat = game.catalog
    hands = hands or {}
    mountains = mountains or {}
    deltas = deltas or {}
    deck_tops = deck_tops or {}
    hand_t = tuple(tuple(sorted(cards(game, hands.get(p, ())))) for p in range(n))
    mount_t = tuple(cards(game, mountains.get(p, ())) for p in range(n))
    delta_t = tuple(tuple(sorted(cards(game, deltas.get(p, ())))) for p in range(n))
    river_t = cards(game, river)
    placed = {c for pile in (*hand_t, *mount_t, *delta_t, river_t) for c in pile}
    decks = []
    discards: list[int] = []
    for d in range(3):
        tops = cards(game, deck_tops.get(d, ()))
        rest = [c for c in cat.by_deck[d] if c not in placed and c not in tops]
        deck = (*rest, *tops)
        if d in empty_decks:
            discards += deck
            deck = ()
        decks.append(tuple(deck))
    state = game.new_game(0)
    state = replace(
        state,
        current=current,
        hands=hand_t,
        mountains=mount_t,
        weathered=tuple((weathered or {}).get(p, 0) for p in range(n)),
        deltas=delta_t,
        river=river_t,
        decks=(decks[0], decks[1], decks[2]),
        discards=(tuple(discards),) + ((),) * (n - 1),
        **fields,
    )
    return state._note_runout()


def play(state: ErosionState, *moves: str) -> ErosionState:
    """Apply moves in notation, each by whoever is to act."""
    for text in moves:
        state = state.apply_text(state.to_act[0], text)
    return state


def legal(state: ErosionState) -> set[str]:
    """The legal actions of the seat to act, as notation."""
    return {str(a) for a in state.legal_actions(state.to_act[0])}
