"""Squad Combat positions as text: see "Position notation" in ``rules.md``.

Cards are written by their content key (``slash``), characters by theirs. The seed and the
count of random events so far are part of the position, so the dice and reshuffles still
to come are the same in a game set up from it. A seat's view position writes every other
seat's hand and every deck as ``?`` cards (their number stays known) and the seed as ``?``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from meeple.core.position import UNKNOWN, FieldForm, PositionCodec, count_problem
from meeple.games.squad_combat.rules import SquadCombatGame, SquadCombatState


def _write_card(card: int, game: SquadCombatGame) -> str:
    return game.card_keys[card]


def _read_card(raw: Any, game: SquadCombatGame) -> int:
    index = game.content.card_index
    if not isinstance(raw, str) or raw not in index:
        raise ValueError(f"{raw!r} is not a card; the cards are: {', '.join(index)}")
    return index[raw]


def _write_character(card: int, game: SquadCombatGame) -> str:
    return game.characters[card].key


def _read_character(raw: Any, game: SquadCombatGame) -> int:
    index = game.content.character_index
    if not isinstance(raw, str) or raw not in index:
        raise ValueError(f"{raw!r} is not a character; the characters are: {', '.join(index)}")
    return index[raw]


CARD = FieldForm(_write_card, _read_card)
CHARACTER = FieldForm(_write_character, _read_character)


def check(state: SquadCombatState) -> str | None:
    """Every card of each seat's deck list exactly once (hand, deck, discard pile, a wound
    under a character, or being performed), each seat's own characters in its party, the
    seats and counts possible."""
    game: SquadCombatGame = state.game
    n = game.num_players
    for name in ("parties", "hands", "decks", "discards", "passed"):
        if len(getattr(state, name)) != n:
            return f"{name} has {len(getattr(state, name))} entries for {n} seats"
    if sorted(state.order) != list(range(n)):
        return f"the turn order {list(state.order)} is not every seat once"
    for label, seat in (("lead", state.lead), ("phase", state.phase)):
        if not 0 <= seat < n:
            return f"{label} is seat {seat}; the seats are 0 to {n - 1}"
    if state.rolls < 0 or state.turn < 1:
        return "rolls is at least 0 and turn at least 1"
    for seat in range(n):
        held: Counter[int] = Counter(state.hands[seat])
        held.update(state.decks[seat])
        held.update(state.discards[seat])
        held.update(
            w.card for party in state.parties for c in party for w in c.wounds if w.owner == seat
        )
        held.update(p.card for p in state.stack if p.player == seat)
        problem = count_problem(held, Counter(game.decklists[seat]), game.card_keys.__getitem__)
        if problem is not None:
            return f"{game.seat_name(seat)}'s {problem}"
        if tuple(sorted(state.hands[seat])) != state.hands[seat]:
            return f"{game.seat_name(seat)}'s hand must be sorted (a hand has no order)"
        party = tuple(c.card for c in state.parties[seat])
        if party != game.parties[seat]:
            names = ", ".join(game.characters[c].key for c in game.parties[seat])
            return f"{game.seat_name(seat)}'s party is {names}, in that order"
        for character in state.parties[seat]:
            if character.spent < 0 or any(not 1 <= d <= 6 for d in character.dice):
                return f"{game.seat_name(seat)} has a negative spent energy or a die off 1..6"
            if tuple(sorted(character.dice)) != character.dice:
                return f"{game.seat_name(seat)}'s dice on a character are listed lowest first"
            for wound in character.wounds:
                if not 0 <= wound.owner < n:
                    return f"a wound names seat {wound.owner}; the seats are 0 to {n - 1}"
    return None


def hidden(state: SquadCombatState, player: int | None) -> dict[str, Any]:
    """Other seats' hands, every deck's order and the seed of chance to come are unknown."""
    game: SquadCombatGame = state.game
    hands = [
        [_write_card(c, game) for c in hand] if seat == player else [UNKNOWN] * len(hand)
        for seat, hand in enumerate(state.hands)
    ]
    return {
        "seed": UNKNOWN,
        "hands": hands,
        "decks": [[UNKNOWN] * len(deck) for deck in state.decks],
    }


codec = PositionCodec(
    SquadCombatState,
    path_forms={
        "hands[][]": CARD,
        "decks[][]": CARD,
        "discards[][]": CARD,
        "stack[].card": CARD,
        "parties[][].wounds[].card": CARD,
        "parties[][].card": CHARACTER,
    },
    check=check,
    hidden=hidden,
)
"""Reads and writes Squad Combat positions (found by ``SquadCombatGame.from_position``)."""
