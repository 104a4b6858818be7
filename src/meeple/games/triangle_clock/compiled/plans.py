"""The Triangle Clock's hand planner, compiled: the plan of picks for a round and the
strength of the cards a plan keeps.

:func:`planned_pick` is a seat's next pick of the best hand it can still finish this round
(consistent with the picks it has revealed, with Palette Swap and Right Angle where it holds
uses), judged alone or against a set of opponent hands; :func:`kept_strength` is what the two
cards it keeps make with the next shared symbol. The guided rollout (:mod:`.guided`) plans
with them at every pick, some twenty plans a pick, so they work in scratch the caller
makes once (:func:`planned_pick_ranked`, :func:`rank_hands`).
"""

from __future__ import annotations

import numpy as np

from meeple.games.triangle_clock.compiled.rules import (
    BLOCK,
    FIRST,
    HAND,
    ORDERS,
    OVER,
    PALETTE,
    PHASE,
    PICKS,
    RIGHT,
    ROUND,
    ROUNDS,
    SEAT_SIZE,
    SEATS_AT,
    USES,
    compiled,
)

PICK_ORDERS = np.array([[2, 0, 1], [2, 1, 0], [0, 2, 1], [1, 2, 0]], dtype=np.int64)
"""The orders in which a plan's three letters (full card's two, then the other card's one)
can be revealed: the other card's symbol first, or one of the full card's first; the second
pick must come from the other card than the first."""
# Read-only, as a kernel sees a global array: a caller from Python passes the same type, and
# ``planned_pick`` and the ``planned_pick_ranked`` it shares with the guided rollout (which
# reads this array as a global) are compiled once.
PICK_ORDERS.flags.writeable = False


@compiled
def _shown(symbol: int, palette: bool, right: bool) -> int:
    """The symbol revealed after Palette Swap (colour) then Right Angle (90° clockwise)."""
    if palette:
        symbol ^= 1
    if right:
        symbol = (symbol + 4) & 15
    return symbol


@compiled
def _first_order(
    state: np.ndarray, base: int, done: int, letters: tuple[int, int, int], orders: np.ndarray
) -> int:
    """The first of ``orders`` in which a plan of ``letters`` reveals the ``done`` picks
    the seat at ``base`` has revealed, or -1 if none does."""
    for o in range(orders.shape[0]):
        ok = True
        for k in range(done):
            if letters[orders[o, k]] != state[base + PICKS + k] >> 2:
                ok = False
        if ok:
            return o
    return -1


@compiled
def _revealed_at(state: np.ndarray, base: int, done: int, letter: int) -> int:
    """The pick (an action id) among the ``done`` revealed by the seat at ``base`` that
    shows ``letter``, or -1."""
    found = -1
    for k in range(done):
        if state[base + PICKS + k] >> 2 == letter:
            found = state[base + PICKS + k]
    return found


@compiled
def _symbol(state: np.ndarray, base: int, cards: np.ndarray, letter: int, pick: int) -> int:
    """The symbol ``letter`` of the seat at ``base`` shows: as ``pick`` revealed it, or as
    printed where ``pick`` is -1."""
    printed = cards[state[base + HAND + (letter >> 1)], letter & 1]
    if pick < 0:
        return printed
    return _shown(printed, pick & 1 == 1, pick & 2 == 2)


@compiled
def planned_pick(
    state: np.ndarray,
    seat: int,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
    orders: np.ndarray,
    item_cost: float,
    keep_weight: float,
    against: np.ndarray,
    plan: np.ndarray,
) -> int:
    """The next pick (an action id) of ``seat``'s best plan for this round, or -1 outside a
    pick; the plan's power and strength go into ``plan[0:2]``.

    ``against`` has a row (power, strength) per opponent hand the plan may meet. With no
    rows the best plan is the finishable hand of highest strength less ``item_cost`` per
    item (ties to the higher power). Otherwise a plan is worth what it scores on average
    against those hands (the opponent's strength when higher, minus its own when lower),
    less the items: a hand that will lose is best kept weak, as the heuristic agent plays.
    Each plan also gains ``keep_weight`` times :func:`kept_strength` of the two cards it
    keeps."""
    ranked, gains = _ranked(against)
    kept = np.empty(16)
    return planned_pick_ranked(
        state,
        seat,
        cards,
        power,
        strength,
        orders,
        item_cost,
        keep_weight,
        ranked,
        gains,
        plan,
        kept,
    )


@compiled
def planned_pick_ranked(
    state: np.ndarray,
    seat: int,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
    orders: np.ndarray,
    item_cost: float,
    keep_weight: float,
    ranked: np.ndarray,
    gains: np.ndarray,
    plan: np.ndarray,
    kept: np.ndarray,
) -> int:
    """:func:`planned_pick` with the opponent hands as :func:`_ranked` gives them and
    ``kept`` (16 values) as scratch: a rollout plans some twenty times a pick, and an
    allocation costs as much as a tenth of a plan."""
    plan[0], plan[1] = -1, 0
    phase = state[PHASE]
    if phase < FIRST or phase == OVER:
        return -1
    rows = ranked.shape[0]
    base = SEATS_AT + seat * SEAT_SIZE
    done = phase - 1
    shared = state[ORDERS + state[ROUND] - 1]
    may_swap = state[base + USES + PALETTE] > 0
    may_turn = state[base + USES + RIGHT] > 0
    for k in range(done):
        if state[base + PICKS + k] & 1:
            may_swap = False
        if state[base + PICKS + k] & 2:
            may_turn = False
    best_value, best_power, best_strength, best_pick = -1e9, -1, 0, -1
    # By the mask of the two slots played: what the other two make. Each is worked out when
    # a plan first plays those slots, as most plans are ruled out once a pick is revealed.
    known = 0  # the masks whose ``kept`` is worked out
    for full in range(4):
        for other in range(4):
            if other == full:
                continue
            for side in range(2):
                # tuples rather than arrays: a plan is made some twenty times a pick, and
                # an array is an allocation
                letters = (2 * full, 2 * full + 1, 2 * other + side)
                order = _first_order(state, base, done, letters, orders)
                if order < 0:
                    continue
                played = 1 << full | 1 << other
                if not known >> played & 1:
                    kept[played] = 0.0
                    if keep_weight > 0:
                        kept[played] = keep_weight * _kept_by(
                            state, seat, played, cards, power, strength
                        )
                    known |= 1 << played
                # the pick revealed at each letter, -1 if free
                fixed = (
                    _revealed_at(state, base, done, letters[0]),
                    _revealed_at(state, base, done, letters[1]),
                    _revealed_at(state, base, done, letters[2]),
                )
                # each letter's symbol, final where revealed, as printed where free
                symbols = (
                    _symbol(state, base, cards, letters[0], fixed[0]),
                    _symbol(state, base, cards, letters[1], fixed[1]),
                    _symbol(state, base, cards, letters[2], fixed[2]),
                )
                nxt = orders[order, done]
                # -1: no item; 0-2: the item goes on that letter (a free one)
                for swap in range(-1, 3 if may_swap else 0):
                    if swap >= 0 and fixed[swap] >= 0:
                        continue
                    for turn in range(-1, 3 if may_turn else 0):
                        if turn >= 0 and fixed[turn] >= 0:
                            continue
                        code = shared
                        for j in range(3):
                            shown = symbols[j]
                            if fixed[j] < 0:
                                shown = _shown(shown, swap == j, turn == j)
                            code = code << 4 | shown
                        spent = (swap >= 0) + (turn >= 0)
                        if rows == 0:
                            value = float(strength[code])
                        else:
                            value = _against(power[code], strength[code], ranked, gains)
                        value += kept[played] - item_cost * spent
                        if value < best_value:
                            continue  # the power only breaks a tie: not read (a cache miss)
                        mine = power[code]
                        if value > best_value or mine > best_power:
                            best_value, best_power = value, mine
                            best_strength = strength[code]
                            best_pick = 4 * letters[nxt] + (swap == nxt) + 2 * (turn == nxt)
    plan[0] = best_power
    plan[1] = best_strength
    return best_pick


@compiled
def _ranked(against: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The opponent hands' powers, ascending, and the running sums of their strengths in
    that order (from 0): what :func:`_against` reads."""
    ranked = np.empty(against.shape[0], dtype=np.int64)
    gains = np.empty(against.shape[0] + 1, dtype=np.int64)
    rank_hands(against, ranked, gains)
    return ranked, gains


@compiled
def rank_hands(against: np.ndarray, ranked: np.ndarray, gains: np.ndarray) -> None:
    """:func:`_ranked` into ``ranked`` and ``gains``."""
    gains[0] = 0
    for r in range(against.shape[0]):  # an insertion sort by power, strengths carried along
        power, gain = against[r, 0], against[r, 1]
        i = r
        while i > 0 and ranked[i - 1] > power:
            ranked[i] = ranked[i - 1]
            gains[i + 1] = gains[i]
            i -= 1
        ranked[i] = power
        gains[i + 1] = gain
    for r in range(against.shape[0]):
        gains[r + 1] += gains[r]


@compiled
def _against(mine: int, own: int, ranked: np.ndarray, gains: np.ndarray) -> float:
    """What a hand of power ``mine`` and strength ``own`` scores on average against the
    opponent hands of :func:`_ranked`: their strength where it ranks higher, minus its own
    where it ranks lower. It counts the hands below and above rather than branching on
    each (every comparison a coin toss for the branch predictor), and the running sums
    give the strength of those below."""
    rows = ranked.shape[0]
    below = above = 0
    for r in range(rows):
        below += ranked[r] < mine
        above += ranked[r] > mine
    return (gains[below] - above * own) / rows


@compiled
def _kept_by(
    state: np.ndarray,
    seat: int,
    played: int,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
) -> float:
    """:func:`kept_strength` of the two slots not in the mask ``played``, lower first."""
    low = high = -1
    for slot in range(4):
        if not played >> slot & 1:
            if low < 0:
                low = slot
            else:
                high = slot
    return kept_strength(state, seat, low, high, cards, power, strength)


@compiled
def kept_strength(
    state: np.ndarray,
    seat: int,
    a: int,
    b: int,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
) -> float:
    """The strength of the best hand the cards in slots ``a`` and ``b`` make with the next
    round's shared symbol (one card whole, one symbol of the other), items aside; 0 when the
    next shared symbol is not shown yet (a new order) or the game ends with this round."""
    nxt = state[ROUND] + 1
    if nxt > ROUNDS or (nxt - 1) // BLOCK != (state[ROUND] - 1) // BLOCK:
        return 0.0
    shared = state[ORDERS + nxt - 1]
    base = SEATS_AT + seat * SEAT_SIZE + HAND
    best_power, best_strength = -1, 0
    for whole, part in ((a, b), (b, a)):
        x = cards[state[base + whole], 0]
        y = cards[state[base + whole], 1]
        for side in range(2):
            code = ((shared << 4 | x) << 4 | y) << 4 | cards[state[base + part], side]
            if power[code] > best_power:
                best_power, best_strength = power[code], strength[code]
    return float(best_strength)


__all__ = [
    "PICK_ORDERS",
    "kept_strength",
    "planned_pick",
    "planned_pick_ranked",
    "rank_hands",
]
