"""What a seat of Squad Combat sees: the table is public, hands and deck orders are not.

:func:`view` is the seat's view as JSON; :func:`information_key` is the same information as
plain tuples, which search asks for at every node (building the JSON was most of its time).
Cards are named by their keys in both, so copies of one card in a deck look alike.
:func:`determinize` deals a seat one of the positions it cannot tell apart from the true one.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from meeple.core.game import Player
from meeple.games.squad_combat.content import PARTY_SIZE
from meeple.games.squad_combat.pieces import SLOTS, Performance

if TYPE_CHECKING:
    import random

    from meeple.games.squad_combat.rules import SquadCombatGame, SquadCombatState


def view(state: SquadCombatState, player: Player | None) -> dict[str, Any]:
    """The table is public (dice values, energy, wounds, discard piles, the card being
    performed); a seat sees its own hand and only the size of other hands and of decks."""
    game = state.game
    keys = game.card_keys
    kind, seat = state.step
    return {
        "game": game.name,
        "seats": game.seat_names(),
        "decks": list(game.deck_keys),
        "order": list(state.order),
        "turn": state.turn,
        "lead": state.lead,
        "phase": state.phase,
        "passed": list(state.passed),
        "step": {"kind": kind, "seat": seat},
        "to_act": list(state.to_act),
        "characters": [
            [_character_view(state, s, slot) for slot in range(PARTY_SIZE)]
            for s in range(game.num_players)
        ],
        "hand": None if player is None else [keys[k] for k in state.hands[player]],
        "hand_sizes": [len(h) for h in state.hands],
        "deck_sizes": [len(d) for d in state.decks],
        "discards": [[keys[k] for k in pile] for pile in state.discards],
        "stack": [_performance_view(game, p) for p in state.stack],
        "dropping": state.dropping,
        "discarding": list(state.discarding),
        "discarded": state.discarded,
        "closing": list(state.closing),
        "refreshing": state.refreshing,
        "refresh_windows": list(state.refresh_windows),
        "log": list(state.log),
        "result": state.result,
    }


def information_key(state: SquadCombatState, player: Player) -> Hashable:
    """Everything :func:`view` shows ``player``, as tuples: equal exactly when the views are.

    The result shown at the end follows from the parties, the turn and how the game ended,
    so those stand for it; the character cards' fixed numbers follow from their keys.
    """
    game = state.game
    keys = game.card_keys
    characters = game.characters
    return (
        state.order,
        state.turn,
        state.lead,
        state.phase,
        state.passed,
        state.step,
        state.to_act,
        tuple(
            tuple(
                (
                    characters[c.card].key,
                    c.spent,
                    c.dice,
                    tuple((keys[w.card], w.owner) for w in c.wounds),
                    c.removed,
                )
                for c in party
            )
            for party in state.parties
        ),
        tuple(keys[k] for k in state.hands[player]),
        tuple(len(h) for h in state.hands),
        tuple(len(d) for d in state.decks),
        tuple(tuple(keys[k] for k in pile) for pile in state.discards),
        # A performance as its card's key and its other fields, whatever fields it gains.
        tuple(
            (keys[p.card], *(v for f, v in zip(p._fields, p, strict=True) if f != "card"))
            for p in state.stack
        ),
        state.dropping,
        state.discarding,
        state.discarded,
        state.closing,
        state.refreshing,
        state.refresh_windows,
        state.log,
        state.winner,
        state.ended,
    )


def determinize(state: SquadCombatState, player: Player, rng: random.Random) -> SquadCombatState:
    """Resample what ``player`` cannot know: the other hands (from the cards their owners
    have not shown: hand and deck together), the order of every deck, and the seed of the
    dice still to be rolled."""
    hands = list(state.hands)
    decks = list(state.decks)
    for seat in range(state.game.num_players):
        if seat == player:
            decks[seat] = _shuffled(decks[seat], rng)
            continue
        pool = _shuffled(hands[seat] + decks[seat], rng)
        size = len(hands[seat])
        hands[seat] = tuple(sorted(pool[:size]))
        decks[seat] = pool[size:]
    sampled = replace(state, hands=tuple(hands), decks=tuple(decks), seed=rng.getrandbits(62))
    # The step is public and the seat's own legal actions depend on nothing resampled.
    for key in ("step", player):
        if key in state._cache:
            sampled._cache[key] = state._cache[key]
    return sampled


def _shuffled(cards: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    """The cards in a random order drawn from ``rng`` alone: starting from the sorted cards,
    so the order they were in cannot shine through (keyed sorting is a fast shuffle)."""
    return tuple(sorted(sorted(cards), key=lambda _: rng.random()))


def _character_view(state: SquadCombatState, seat: int, slot: int) -> dict[str, Any]:
    game = state.game
    ch = state.parties[seat][slot]
    card = game.characters[ch.card]
    keys, damages = game.card_keys, game.damages
    return {
        "ref": f"{seat}{SLOTS[slot]}",
        "id": card.key,
        "name": card.name,
        "traits": list(card.traits),
        "life": card.life,
        "damage": sum(damages[w.card] for w in ch.wounds),
        "wounds": [
            {"card": keys[w.card], "owner": w.owner, "damage": damages[w.card]} for w in ch.wounds
        ],
        "energy": card.energy,
        "spent": ch.spent,
        "dice": list(ch.dice),
        "dice_pool": card.dice_pool,
        "refresh": card.refresh,
        "removed": ch.removed,
    }


def _performance_view(game: SquadCombatGame, perf: Performance) -> dict[str, Any]:
    card = game.cards[perf.card]
    return {
        "player": perf.player,
        "card": card.key,
        "performer": f"{perf.player}{SLOTS[perf.slot]}",
        "dice_due": list(perf.dice_due),
        "cards_due": perf.cards_due,
        "target": None if perf.target is None else f"{perf.target[0]}{SLOTS[perf.target[1]]}",
        "boost_die": perf.boost_die,
        "attack_die": perf.attack_die,
        "defense_die": perf.defense_die,
        "attack_bonus": perf.attack_bonus,
        "defense_bonus": perf.defense_bonus,
        "windows": None if perf.windows is None else list(perf.windows),
    }
