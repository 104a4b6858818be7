"""The Triangle Clock's batched opponent ``policy``: the compiled guided policy, choosing
from what its own seat may know, for every game of a batch in one compiled call.

:func:`.guided.choose` reads the whole state it is given, so it must be given a
determinization, never the true state. :func:`.guided.deal_unseen` is not one: it deals
again only the other seat's cards with no symbol revealed, from the deck *in its true order*
and those cards, and leaves the revealed cards (their other symbol, their slot), the deck's
order, the other seat's hidden submission and the shared symbols still to come as they
were. :func:`determinize` is the readable rules' ``determinize`` (``hidden.py``) compiled:
everything the seat cannot see is dealt again from canonical (sorted) orders with numba's
generator, so that the result depends only on the seat's view and the seed:

* the other seat's cards: a card holding each symbol it revealed this round (distinct
  cards, weighted as :func:`~meeple.games.triangle_clock.cards.sample_cards_holding`
  weights them), in slots drawn at random, its picks rewritten to match; its other cards
  and the deck drawn from the rest, shuffled;
* the other seat's hidden submission is taken back (the readable rules draw one; the policy
  does not read it);
* the shared symbols not yet revealed, also those shown in an earlier memorise step (the
  opponent does not remember them), shuffled from sorted order.

Then :func:`.guided._choose` picks with ``epsilon`` 0, as :func:`.guided.choose` does: the
planned pick, never a Mulligan. Each game is seeded by its own entry of ``seeds`` (numba's
generator, seeded per game inside the parallel loop), so a batch replays exactly.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from meeple.core.kernels import kernel
from meeple.games.triangle_clock.cards import NUM_CARDS
from meeple.games.triangle_clock.compiled import rules as tc
from meeple.games.triangle_clock.compiled.guided import _EPSILON, _choose, _scratch, settings
from meeple.games.triangle_clock.pieces import BLOCK, ROUNDS

compiled = kernel(nogil=True)
batched = kernel(nogil=True, parallel=True)


@compiled
def _shuffle_tail(values: np.ndarray, start: int, stop: int) -> None:
    """``values[start:stop]`` sorted, then shuffled (numba's generator): an order that
    depends on the values only, not on the order they were in."""
    values[start:stop] = np.sort(values[start:stop])
    for i in range(stop - 1, start, -1):
        j = start + np.random.randint(0, i - start + 1)
        values[i], values[j] = values[j], values[i]


@compiled
def _holds(cards: np.ndarray, card: int, symbol: int) -> bool:
    """Whether ``card`` has ``symbol`` on either side."""
    return cards[card, 0] == symbol or cards[card, 1] == symbol


@compiled
def _draw_holding(unseen: np.ndarray, cards: np.ndarray, symbol: int, besides: int) -> int:
    """An unseen card holding ``symbol`` other than ``besides``, each as likely."""
    count = 0
    for c in range(NUM_CARDS):
        if unseen[c] and c != besides and _holds(cards, c, symbol):
            count += 1
    r = np.random.randint(0, count)
    for c in range(NUM_CARDS):
        if unseen[c] and c != besides and _holds(cards, c, symbol):
            if r == 0:
                return c
            r -= 1
    return -1


@compiled
def determinize(state: np.ndarray, seat: int, cards: np.ndarray, out: np.ndarray) -> None:
    """``out`` := ``state`` (a position, :data:`.rules.SIZE` values) with everything
    ``seat`` cannot see dealt again from canonical orders (the module says what)."""
    out[: tc.SIZE] = state[: tc.SIZE]
    other = tc.SEATS_AT + (1 - seat) * tc.SEAT_SIZE
    phase = state[tc.PHASE]
    # the unseen cards, ascending: the deck and the other seat's hand
    unseen = np.zeros(NUM_CARDS, dtype=np.bool_)
    for i in range(state[tc.DECK_LEN]):
        unseen[state[tc.DECK + i]] = True
    slots = np.empty(tc.HAND_SIZE, dtype=np.int64)
    held = 0
    for slot in range(tc.HAND_SIZE):
        card = state[other + tc.HAND + slot]
        if card >= 0:
            unseen[card] = True
            slots[held] = slot
            held += 1
    # the symbols the other seat revealed this round, as printed
    printed = np.empty(3, dtype=np.int64)
    shown = 0
    for k in range(3):
        pick = state[other + tc.PICKS + k]
        if pick >= 0:
            printed[shown] = cards[state[other + tc.HAND + (pick >> 3)], (pick >> 2) & 1]
            shown += 1
    played = np.full(3, -1, dtype=np.int64)
    if shown == 1:
        played[0] = _draw_holding(unseen, cards, printed[0], -1)
    elif shown >= 2:
        # a first card as likely as the number of second cards that can go with it
        second = 0
        for c in range(NUM_CARDS):
            if unseen[c] and _holds(cards, c, printed[1]):
                second += 1
        total = 0
        for c in range(NUM_CARDS):
            if unseen[c] and _holds(cards, c, printed[0]):
                total += second - (1 if _holds(cards, c, printed[1]) else 0)
        r = np.random.randint(0, total)
        for c in range(NUM_CARDS):
            if unseen[c] and _holds(cards, c, printed[0]):
                weight = second - (1 if _holds(cards, c, printed[1]) else 0)
                if r < weight:
                    played[0] = c
                    break
                r -= weight
        played[1] = _draw_holding(unseen, cards, printed[1], played[0])
    # the played cards in slots drawn at random, their picks rewritten to match
    for k in range(min(shown, 2)):
        j = k + np.random.randint(0, held - k)
        slots[k], slots[j] = slots[j], slots[k]
        card = played[k]
        unseen[card] = False
        pick = state[other + tc.PICKS + k]
        side = 0 if cards[card, 0] == printed[k] else 1
        out[other + tc.HAND + slots[k]] = card
        out[other + tc.PICKS + k] = 4 * (2 * slots[k] + side) + (pick & 3)
    # the rest of the hand and the deck from the other unseen cards, shuffled
    rest = np.empty(NUM_CARDS, dtype=np.int64)
    n = 0
    for c in range(NUM_CARDS):
        if unseen[c]:
            rest[n] = c
            n += 1
    _shuffle_tail(rest, 0, n)
    at = 0
    for k in range(min(shown, 2), held):
        out[other + tc.HAND + slots[k]] = rest[at]
        at += 1
    for i in range(state[tc.DECK_LEN]):
        out[tc.DECK + i] = rest[at]
        at += 1
    if phase != tc.MEMORISE:
        out[other + tc.PENDING] = -1
    # the shared symbols not yet revealed (nor shown now), shuffled
    current = (min(state[tc.ROUND], ROUNDS) - 1) // BLOCK
    for block in range(ROUNDS // BLOCK):
        if block < current or (block == current and phase == tc.MEMORISE):
            continue
        known = 0
        if block == current:
            known = BLOCK if phase == tc.OVER else (state[tc.ROUND] - 1) % BLOCK + 1
        _shuffle_tail(out, tc.ORDERS + block * BLOCK + known, tc.ORDERS + (block + 1) * BLOCK)


@batched
def _policy_actions(
    states: np.ndarray,
    seats: np.ndarray,
    acting: np.ndarray,
    seeds: np.ndarray,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
    params: np.ndarray,
    out: np.ndarray,
) -> None:
    # Each acting game: its seat's determinization, then the policy's pick on it.
    for b in prange(states.shape[0]):
        out[b] = 0
        if not acting[b]:
            continue
        np.random.seed(seeds[b])
        view = np.empty(tc.SIZE, dtype=states.dtype)
        determinize(states[b], seats[b], cards, view)
        moves = np.empty(tc.MAX_ACTIONS, dtype=np.int16)
        scratch = _scratch(view, params)
        out[b] = _choose(view, seats[b], cards, power, strength, moves, params, scratch)


def policy_actions(
    states: np.ndarray,
    seats: np.ndarray,
    acting: np.ndarray,
    seeds: np.ndarray,
    tables: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> np.ndarray:
    """``(B,)``: the policy's action for ``seats[b]`` in each row of ``states`` where
    ``acting`` (0 elsewhere), from that seat's determinization seeded with ``seeds[b]``
    (below ``2**32``)."""
    cards, power, strength = tables
    params = settings()
    params[_EPSILON] = 0.0  # a model of play, as guided.choose: never a random pick
    out = np.zeros(len(states), dtype=np.int64)
    # Contiguous whatever the caller's layout: a kernel is compiled once per argument type,
    # and a column sliced out of the acting seats (``acting[:, 0]``, as `meeple compile`
    # plays it) is another type than the research environment's gathered row; one type
    # keeps the environment's first step from compiling the policy again (seconds).
    _policy_actions(
        np.ascontiguousarray(states),
        np.ascontiguousarray(seats, dtype=np.int64),
        np.ascontiguousarray(acting, dtype=np.bool_),
        np.ascontiguousarray(seeds, dtype=np.int64),
        cards,
        power,
        strength,
        params,
        out,
    )
    return out
