"""Squad Combat positions as text: see "Position notation" in ``rules.md``.

Cards are written by their content key (``slash``), characters by theirs. The seed and the
count of random events so far are part of the position, so the dice and reshuffles still
to come are the same in a game set up from it. A seat's view position writes every other
seat's hand and every deck as ``?`` cards (their number stays known) and the seed as ``?``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from meeple.core.position import UNKNOWN, FieldForm, PositionCodec, count_problem, seats_problem
from meeple.games.squad_combat.content import DIE_FACES
from meeple.games.squad_combat.pieces import LAST_STANDING, STALEMATE, turn_limit_reached
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
            energy = game.characters[character.card].energy
            if not 0 <= character.spent <= energy or any(not 1 <= d <= 6 for d in character.dice):
                return (
                    f"{game.seat_name(seat)} has spent energy outside 0 to {energy} (what its "
                    "character has) or a die off 1..6"
                )
            if tuple(sorted(character.dice)) != character.dice:
                return f"{game.seat_name(seat)}'s dice on a character are listed lowest first"
            for wound in character.wounds:
                if not 0 <= wound.owner < n:
                    return f"a wound names seat {wound.owner}; the seats are 0 to {n - 1}"
    return _turn_problem(state) or _stack_problem(state) or _stack_order_problem(state)


def _turn_problem(state: SquadCombatState) -> str | None:
    """The end of turn's queues, the character choosing dice or refreshing, the winner."""
    n = state.game.num_players
    slots = len(state.parties[state.phase])
    for label, slot in (("dropping", state.dropping), ("refreshing", state.refreshing)):
        if not -1 <= slot < slots:
            return f"{label} is a slot of the phase player's party (0 to {slots - 1}) or -1"
    for label, seats in (
        ("discarding", state.discarding),
        ("closing", state.closing),
        ("refresh_windows", state.refresh_windows),
    ):
        problem = seats_problem(label, seats, n)
        if problem is not None:
            return problem
    if state.discarded < 0 or (state.discarded and not state.discarding):
        return "discarded counts the end-of-turn discards made so far, while they are made"
    # What is under way, as the rules reach it: the end-of-turn discards and the choice of
    # dice to keep come alone; a refresh waits on its windows, and only an action's.
    under_way = {
        "discarding": bool(state.discarding),
        "dropping": state.dropping >= 0,
        "stack": bool(state.stack),
        "closing": bool(state.closing),
        "refreshing": state.refreshing >= 0,
    }
    if state.ended is not None and any(under_way.values()):
        return "in a game that has ended nothing is under way (discarding, dropping, stack ...)"
    for alone in ("discarding", "dropping"):
        if under_way[alone] and sum(under_way.values()) > 1:
            others = ", ".join(k for k, v in under_way.items() if v and k != alone)
            return f"{alone} comes alone, but {others} is under way too"
    if under_way["refreshing"] != bool(state.refresh_windows):
        return "refreshing names a character exactly while refresh_windows has seats to offer"
    if under_way["refreshing"] and under_way["closing"]:
        return "a refresh is not under way in the end-of-turn window (closing)"
    limit = state.game.options.turn_limit
    endings = (LAST_STANDING, STALEMATE, turn_limit_reached(limit))
    if state.ended is not None and state.ended not in endings:
        return "ended is null or why the game ended: " + "; ".join(endings)
    if (state.winner is not None) != (state.ended == LAST_STANDING):
        return f"a game has a winner exactly when it ended with the {LAST_STANDING}"
    if state.winner is not None and not 0 <= state.winner < n:
        return f"the winner is seat {state.winner}; the seats are 0 to {n - 1}"
    if state.turn > limit:
        return f"turn {state.turn} is past the turn limit of {limit}"
    return None


def _stack_problem(state: SquadCombatState) -> str | None:
    """The cards being performed: each by a character on the table and aimed at one, its
    dice faces of a die, the seats still to be offered its reaction window distinct."""
    n = state.game.num_players
    for perf in state.stack:
        card = state.game.card_keys[perf.card]
        seats = [(perf.player, perf.slot)] + ([perf.target] if perf.target is not None else [])
        for seat, slot in seats:
            if not 0 <= seat < n or not 0 <= slot < len(state.parties[seat]):
                return (
                    f"{card} is performed by or aimed at seat {seat} slot {slot}, not on the table"
                )
        dice = [*perf.dice_due, perf.boost_die, perf.attack_die, perf.defense_die]
        if perf.cards_due < 0 or any(d is not None and not 0 <= d <= DIE_FACES for d in dice):
            return f"{card}'s dice are 1 to {DIE_FACES} (0: declined), its card cost 0 or more"
        problem = seats_problem(f"{card}'s reaction windows", perf.windows or (), n)
        if problem is not None:
            return problem
    return None


def _stack_order_problem(state: SquadCombatState) -> str | None:
    """What the rules put on the stack: a card played alone (an action or attack, or an
    edge without a restriction), and above it at most one edge, played in the reaction
    window of the action or attack below by the seat whose window is open; an attacking or
    defending edge only there, by that side of the attack."""
    cards, keys = state.game.cards, state.game.card_keys
    if len(state.stack) > 2:
        return (
            f"{len(state.stack)} cards are performed at once; at most two are: a card, and "
            "an edge played in its reaction window"
        )
    if not state.stack:
        return None
    below = state.stack[0]
    card = cards[below.card]
    if card.kind == "edge" and card.timing not in state.timings_answering(None, below.player):
        return (
            f"{keys[below.card]} ({card.timing}) answers an attack, so it is performed only "
            "above one"
        )
    for perf in state.stack:
        if cards[perf.card].kind == "edge" and perf.windows is not None:
            return f"{keys[perf.card]} is an edge: only actions and attacks open reaction windows"
    if len(state.stack) == 1:
        return None
    above = state.stack[1]
    edge = cards[above.card]
    if edge.kind != "edge" or card.kind == "edge":
        return (
            f"{keys[above.card]} is performed above {keys[below.card]}: only an edge is "
            "played above a card, in the reaction window of an action or attack"
        )
    if not below.windows or below.windows[0] != above.player:
        return (
            f"{keys[above.card]} is played above {keys[below.card]} by seat {above.player}, "
            f"whose reaction window is not the one open (its windows: {below.windows})"
        )
    if edge.timing not in state.timings_answering(below, above.player):
        return (
            f"{keys[above.card]} ({edge.timing}) is played only by the {edge.timing} side "
            "of the attack below it"
        )
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
