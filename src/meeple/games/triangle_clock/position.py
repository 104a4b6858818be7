"""The Triangle Clock positions as text: see "Position notation" in ``rules.md``.

Cards are written by their two symbols (``Ns+SEc``), symbols as ``Ns``/``SWc``, picks as
moves (``C +right-angle``). The seed is part of the position: later reshuffles and
mulligans draw from streams under it. A seat's view position writes as ``?`` the seed, the
other seat's hand and pending choice, the order of the deck, and the shared symbols not yet
revealed (all of them shown while that seat memorises them).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from meeple.core.errors import NotationError
from meeple.core.position import UNKNOWN, FieldForm, PositionCodec, count_problem
from meeple.games.triangle_clock.cards import (
    CARD_NAMES,
    NUM_CARDS,
    NUM_SYMBOLS,
    SYMBOL_NAMES,
    parse_card,
    parse_symbol,
)
from meeple.games.triangle_clock.rules import (
    BLOCK,
    HAND_SIZE,
    ROUNDS,
    Phase,
    Pick,
    Seat,
    TriangleClockGame,
    TriangleClockState,
)

_CARD_INDEX = {name: card for card, name in enumerate(CARD_NAMES)}
_SYMBOL_INDEX = {name: symbol for symbol, name in enumerate(SYMBOL_NAMES)}


def _read_card(raw: Any, game: TriangleClockGame) -> int:
    if not isinstance(raw, str):
        raise ValueError(f"a card is written by its two symbols like 'Ns+SEc', not {raw!r}")
    if raw in _CARD_INDEX:  # as written; anything else goes through the forgiving parser
        return _CARD_INDEX[raw]
    return parse_card(raw)


def _read_symbol(raw: Any, game: TriangleClockGame) -> int:
    if not isinstance(raw, str):
        raise ValueError(f"a symbol is written like 'Ns' or 'SWc', not {raw!r}")
    if raw in _SYMBOL_INDEX:
        return _SYMBOL_INDEX[raw]
    return parse_symbol(raw)


def _read_pick(raw: Any, game: TriangleClockGame) -> Pick:
    action = game.parse_action(raw) if isinstance(raw, str) else None
    if not isinstance(action, Pick):
        raise NotationError(
            f"{raw!r} is not a pick; write a letter and items like 'C +right-angle'"
        )
    return action


CARD = FieldForm(lambda card, game: CARD_NAMES[card], _read_card)
SYMBOL = FieldForm(lambda symbol, game: SYMBOL_NAMES[symbol], _read_symbol)
PICKS_IN_PHASE = {Phase.MEMORISE: 0, Phase.FIRST: 0, Phase.SECOND: 1, Phase.THIRD: 2}


def check(state: TriangleClockState) -> str | None:
    """Every card exactly once (hands, deck, discard pile), hands of four, picks that fit
    the phase and the hand, item uses within what the seat started with, the round and the
    history in step, and two orders of all sixteen symbols."""
    game: TriangleClockGame = state.game
    cards: Counter[int] = Counter(state.supply.deck)
    cards.update(state.supply.discards)
    for seat in state.seats:
        cards.update(seat.hand)
    problem = count_problem(cards, Counter(range(NUM_CARDS)), CARD_NAMES.__getitem__)
    if problem is not None:
        return problem
    if tuple(sorted(state.supply.discards)) != state.supply.discards:
        return "the discard pile is kept sorted"
    if not 1 <= state.round <= ROUNDS + 1:
        return f"round {state.round} is outside 1..{ROUNDS + 1} ({ROUNDS + 1}: the game is over)"
    if (state.round == ROUNDS + 1) != (state.phase is Phase.OVER):
        return f"the phase is over exactly when round {ROUNDS + 1} is reached"
    if state.phase is Phase.MEMORISE and state.round % BLOCK != 1:
        return f"the memorise step opens rounds 1 and {BLOCK + 1} only, not round {state.round}"
    if len(state.history) != state.round - 1:
        done = len(state.history)
        return f"round {state.round} follows {state.round - 1} finished rounds, not {done}"
    for p, seat in enumerate(state.seats):
        name = game.seat_name(p)
        if state.phase is not Phase.OVER and len(seat.hand) != HAND_SIZE:
            return f"{name} holds {len(seat.hand)} cards; a hand holds {HAND_SIZE}"
        want = PICKS_IN_PHASE.get(state.phase, 0)
        if len(seat.picks) != want:
            return (
                f"in the {state.phase.label} phase a seat has revealed {want} picks; "
                f"{name} has {len(seat.picks)}"
            )
        for k, pick in enumerate(seat.picks):
            if pick.letter not in seat.letters_open((Phase.FIRST, Phase.SECOND)[k]):
                return f"{name}'s pick {pick} does not fit its hand"
        start = game.initial_uses(p)
        if len(seat.uses) != len(start):
            return f"{name}'s item uses are {len(start)} numbers, one per item"
        if any(not 0 <= u <= s for u, s in zip(seat.uses, start, strict=True)):
            return f"{name}'s item uses {list(seat.uses)} are outside 0..{list(start)}"
    for number, past in enumerate(state.history, start=1):
        if past.round != number:
            return f"the history's round {number} is written as round {past.round}"
        if past.winner not in (None, 0, 1) or past.points < 0:
            return f"round {number} was won by seat 0, seat 1 or nobody, for 0 points or more"
    for order in state.orders:
        if sorted(order) != list(range(NUM_SYMBOLS)):
            return "each order of shared symbols holds all sixteen symbols once"
    if len(state.orders) != ROUNDS // BLOCK:
        return f"there are {ROUNDS // BLOCK} orders of shared symbols"
    if state.phase is not Phase.OVER and state.pending.seats != (0, 1):
        return "both seats take part in the open decision"
    for p, chosen in zip(state.pending.seats, state.pending.chosen, strict=True):
        if chosen is not None and state.why_illegal(p, chosen) is not None:
            return f"{game.seat_name(p)}'s pending choice: {state.why_illegal(p, chosen)}"
    return None


def _shown(seat: Seat, pick: Pick) -> str:
    """A pick as the other seat saw it: ``?=SEc +right-angle`` (the symbol revealed)."""
    items = str(pick)[1:]
    return f"{UNKNOWN}={SYMBOL_NAMES[seat.revealed(pick)]}{items}"


def hidden(state: TriangleClockState, player: int | None) -> dict[str, Any]:
    """What a seat does not see: the seed, the other hand and choice, the deck's order and
    the shared symbols not yet revealed (unless it is memorising them now)."""
    codec_ = codec
    seats = codec_.encode_field(state.game, "seats", state.seats, codec_.hints["seats"])
    for p, seat in enumerate(seats):
        if p != player:
            # The other hand is unknown, so is the letter of a pick: only what it showed.
            seat["hand"] = [UNKNOWN] * len(seat["hand"])
            seat["picks"] = [_shown(state.seats[p], pick) for pick in state.seats[p].picks]
    pending = {
        "seats": list(state.pending.seats),
        "chosen": [
            None if c is None else (str(c) if s == player else UNKNOWN)
            for s, c in zip(state.pending.seats, state.pending.chosen, strict=True)
        ],
    }
    shown = state.round - 1 + (state.shared is not None)
    orders = []
    for block, order in enumerate(state.orders):
        known = shown - block * BLOCK
        if state.phase is Phase.MEMORISE and block == state.block:
            known = BLOCK
        orders.append([SYMBOL_NAMES[s] if k < known else UNKNOWN for k, s in enumerate(order)])
    supply = codec_.encode_field(state.game, "supply", state.supply, codec_.hints["supply"])
    supply["deck"] = [UNKNOWN] * len(state.supply.deck)
    return {"seed": UNKNOWN, "seats": seats, "pending": pending, "orders": orders, "supply": supply}


codec = PositionCodec(
    TriangleClockState,
    type_forms={Pick: FieldForm(lambda pick, game: str(pick), _read_pick)},
    path_forms={
        "seats[].hand[]": CARD,
        "supply.deck[]": CARD,
        "supply.discards[]": CARD,
        "orders[][]": SYMBOL,
        "history[].shared": SYMBOL,
        "history[].seats[].cards[]": CARD,
        "history[].seats[].hand[]": SYMBOL,
    },
    check=check,
    hidden=hidden,
)
"""Reads and writes Triangle Clock positions (found by ``TriangleClockGame.from_position``)."""
