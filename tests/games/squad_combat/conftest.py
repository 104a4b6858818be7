"""Helpers for building Squad Combat positions by hand.

Rules tests use the small test content beside this file (``content/``), so that a designer
changing the demo content never changes what a rule test means. Characters are named by
reference, ``"0a"`` being seat 0's leftmost character.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import meeple
from meeple.games.squad_combat import SquadCombatGame, SquadCombatState, Wound
from meeple.games.squad_combat.rules import SLOTS

CONTENT = Path(__file__).parent / "content"


def make(**options: object) -> SquadCombatGame:
    """A game on the test content; seat 0 goes first unless told otherwise."""
    game = meeple.make("squad-combat", **{"content": str(CONTENT), "first": 0, **options})
    assert isinstance(game, SquadCombatGame)
    return game


def ref(text: str) -> tuple[int, int]:
    """``"1b"`` -> (seat 1, slot 1)."""
    return int(text[0]), SLOTS.index(text[1])


def cards(game: SquadCombatGame, names: list[str] | str) -> tuple[int, ...]:
    """Card indices for card ids (a space-separated string or a list)."""
    if isinstance(names, str):
        names = names.split()
    return tuple(game.content.card_index[n] for n in names)


def position(
    game: SquadCombatGame,
    *,
    hands: dict[int, str] | None = None,
    decks: dict[int, str] | None = None,
    discards: dict[int, str] | None = None,
    dice: dict[str, tuple[int, ...]] | None = None,
    spent: dict[str, int] | None = None,
    wounds: dict[str, str] | None = None,
    seed: int = 1,
) -> SquadCombatState:
    """A fresh game (seat 0 to act) with the given hands, decks (top card last), discard
    piles, dice, spent energy and wounds (attack card ids, owned by the other seat)."""
    state = game.new_game(seed)
    if hands:
        state = replace(
            state,
            hands=tuple(
                tuple(sorted(cards(game, hands[s]))) if s in hands else h
                for s, h in enumerate(state.hands)
            ),
        )
    if decks:
        state = replace(
            state,
            decks=tuple(
                cards(game, decks[s]) if s in decks else d for s, d in enumerate(state.decks)
            ),
        )
    if discards:
        state = replace(
            state,
            discards=tuple(
                cards(game, discards[s]) if s in discards else d
                for s, d in enumerate(state.discards)
            ),
        )
    parties = [list(p) for p in state.parties]
    for text, values in (dice or {}).items():
        seat, slot = ref(text)
        parties[seat][slot] = parties[seat][slot]._replace(dice=tuple(sorted(values)))
    for text, value in (spent or {}).items():
        seat, slot = ref(text)
        parties[seat][slot] = parties[seat][slot]._replace(spent=value)
    for text, names in (wounds or {}).items():
        seat, slot = ref(text)
        attached = tuple(Wound(k, 1 - seat if seat < 2 else 0) for k in cards(game, names))
        parties[seat][slot] = parties[seat][slot]._replace(wounds=attached)
    return replace(state, parties=tuple(tuple(p) for p in parties))


def play(state: SquadCombatState, *moves: str) -> SquadCombatState:
    """Apply moves in notation, each by whoever is to act."""
    for text in moves:
        state = state.apply_text(state.to_act[0], text)
    return state


def character(state: SquadCombatState, text: str):
    """The character in play at a reference."""
    seat, slot = ref(text)
    return state.parties[seat][slot]


@pytest.fixture
def game() -> SquadCombatGame:
    """Two players on the test content: seat 0 Alpha (knight, archer, sage), seat 1 Beta
    (sage, knight, archer); seat 0 goes first."""
    return make()
