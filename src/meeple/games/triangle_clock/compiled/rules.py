"""The Triangle Clock compiled: the same rules as ``../rules.py``, on one small integer array.

:mod:`meeple.games.triangle_clock.rules` is the reference; this module is a second writing
of the same rules that numba compiles, so that a search can play some ten thousand random
games a second. A differential test plays thousands of random games through both, with every
option, and compares every state, every list of legal actions and every outcome
(``tests/games/triangle_clock/test_fast.py``).

It plays from the *true* state: both hands, the deck's order and both orders of shared
symbols are in the array. A search plays it from a determinized state
(``state.determinize``), never from what a seat cannot know.

A position is one ``int16`` array of :data:`SIZE` values (copying it is one ``memcpy``):

* the round (1 to 33), the :class:`~.pieces.Phase`, the reshuffles so far and the deck's size;
* for each seat, :data:`SEAT_SIZE` values: its four cards by slot (-1 once the game is
  over and only two are left), this round's revealed picks (action ids, -1 for none), the
  uses left of each item, the score, and its pending submission (an action id, -1 for none);
* the 32 shared symbols, rounds 1-16 then 17-32;
* the deck, bottom card first so that a draw takes the last one (-1 past its size);
* a flag per card for the face-up discard pile (the engine keeps it sorted, so the flags
  say everything);
* for each finished round, :data:`RECORD` values: the winner (-1 for none), the points,
  then each seat's two played cards and three picks.

The game's seed is not in the array: chance still to come (a reshuffle of the discard
pile, the shuffle of a Mulligan) comes from numba's own seeded generator in
:func:`playouts`. To follow the engine exactly, :func:`reference_chance` gives :func:`apply`
the words of the engine's own random streams (``random.Random`` under the game's seed),
and :func:`_below` reads them the way ``random.shuffle`` does.

Actions are the rules engine's ids (:meth:`TriangleClockGame.action_id`): picks are
``4 * letter + palette_swap + 2 * right_angle``, then mulligan (32) and memorised (33).
Legal actions come in the engine's order, so a uniformly random index into them picks the
same action in both.

Every option is served: ``items``, ``mulligan_order`` and the hand ranking (``ranking``,
``tie_break``, through :meth:`.hands.Ranking.power`) change the rules and are read into the
tables; the others change only what a person sees or how long they may think.
:func:`tables` refuses a game with an option it does not know.

numba compiles these functions on their first call (measured: 7.6 s of CPU for
:func:`playouts`) and caches the machine code beside the module
(:func:`meeple.core.kernels.kernel`), so later processes load it in under half a second of
CPU.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from meeple.core.kernels import by_identity, encoder, kernel, per_game
from meeple.core.options import unserved_refusal
from meeple.core.rng import make_rng
from meeple.core.simultaneous import Submissions
from meeple.games.triangle_clock.cards import CARDS, NUM_CARDS, NUM_SYMBOLS
from meeple.games.triangle_clock.hands import Ranking
from meeple.games.triangle_clock.pieces import (
    BLOCK,
    HAND_SIZE,
    ROUNDS,
    Item,
    Mulligan,
    Phase,
    Pick,
    RoundResult,
    Seat,
    SeatRound,
    Supply,
    TriangleClockAction,
)
from meeple.games.triangle_clock.rules import TriangleClockGame, TriangleClockState

compiled = kernel(nogil=True)

# -- the layout of a position -------------------------------------------------------------
ROUND, PHASE, RESHUFFLES, DECK_LEN = 0, 1, 2, 3
SEATS_AT = 4
SEAT_SIZE = 12
"""Values per seat: hand (4), picks (3), uses (3), score, pending submission."""
HAND, PICKS, USES, SCORE, PENDING = 0, 4, 7, 10, 11
ORDERS = SEATS_AT + 2 * SEAT_SIZE
DECK = ORDERS + ROUNDS
DISCARDS = DECK + NUM_CARDS
HISTORY = DISCARDS + NUM_CARDS
RECORD = 12
"""Values per finished round: winner, points, then per seat two cards and three picks."""
SIZE = HISTORY + ROUNDS * RECORD
"""Length of a position's array."""

MEMORISE, FIRST, SECOND, THIRD, OVER = (int(p) for p in Phase)
MULLIGAN_ID, MEMORISED_ID = 32, 33
PALETTE, RIGHT, MULL = int(Item.PALETTE_SWAP), int(Item.RIGHT_ANGLE), int(Item.MULLIGAN)
MAX_ACTIONS = 34
"""Room for any list of legal actions."""
RESHUFFLE_STREAM, MULLIGAN_STREAM = 0, 1
CHANCE_WORDS = 1024
"""Words of each engine stream :func:`reference_chance` hands over: a shuffle of the whole
deck takes about 170 on average (one per card, and a redraw when a word is out of range)."""

_SERVED = frozenset(
    {
        "items",
        "mulligan_order",
        "ranking",
        "tie_break",
        # what a person sees, and time: no rule reads them
        "notes",
        "memorise_seconds",
        "choice_seconds",
        "auto_steps",  # the game never takes a step for a player
    }
)


class Tables(NamedTuple):
    """A game's rules as arrays, passed to every compiled function."""

    cards: np.ndarray
    """(120, 2) the two symbols of each card, the lower first."""
    power: np.ndarray
    """For each ordered four-symbol hand ``a << 12 | b << 8 | c << 4 | d``, a number that
    orders hands as the ranking does (higher wins; equal numbers tie)."""
    strength: np.ndarray
    """For each ordered four-symbol hand, its strength."""
    rules: np.ndarray
    """``mulligan_order`` is literal (0/1), and the number of items each seat holds."""


@per_game
def tables(game: TriangleClockGame) -> Tables:
    """The arrays of ``game``'s rules; ValueError naming an option this module does not
    serve. Kept per game (:func:`meeple.core.kernels.per_game`), since a search asks at
    every rollout."""
    refusal = unserved_refusal(game.options, _SERVED, "compiled Triangle Clock rules")
    if refusal is not None:
        raise ValueError(refusal)
    power, strength = _hand_tables(game.ranking)
    literal = game.options.mulligan_order == "literal"
    rules = np.array([literal, len(game.holdings[0]), len(game.holdings[1])], dtype=np.int16)
    return Tables(_CARDS, power, strength, rules)


_CARDS = np.array(CARDS, dtype=np.int16)
_PICK_IDS = {
    Pick(letter, bool(k & 1), bool(k & 2)): 4 * letter + k for letter in range(8) for k in range(4)
}
"""The engine's action id of every pick (:meth:`TriangleClockGame.action_id`)."""


@lru_cache(maxsize=16)
def _hand_tables(ranking: Ranking) -> tuple[np.ndarray, np.ndarray]:
    """The ranking's power and strength of every ordered four-symbol hand, as arrays (once
    per ranking: the games of one table share one :class:`Ranking`)."""
    codes = [(c >> 12, (c >> 8) & 15, (c >> 4) & 15, c & 15) for c in range(NUM_SYMBOLS**4)]
    power = np.array([ranking.power(*hand) for hand in codes], dtype=np.int32)
    strength = np.array([ranking.strength(*hand) for hand in codes], dtype=np.int16)
    return power, strength


# -- between the engine's states and arrays -------------------------------------------------
@encoder
def encode(state: TriangleClockState) -> np.ndarray:
    """The array of a rules-engine state (everything but the seed)."""
    ids = state.game.action_id
    supply = state.supply
    values = [state.round, int(state.phase), supply.reshuffles, len(supply.deck)]
    for p, seat in enumerate(state.seats):
        chosen = state.pending.of(p)
        values += seat.hand
        values += _NONE[: HAND_SIZE - len(seat.hand)]
        values += [ids(pick) for pick in seat.picks]
        values += _NONE[: 3 - len(seat.picks)]
        values += seat.uses
        values += (seat.score, -1 if chosen is None else ids(chosen))
    for order in state.orders:
        values += order
    values += supply.deck[::-1]
    values += _NONE[: NUM_CARDS - len(supply.deck)]
    flags = [0] * NUM_CARDS
    for card in supply.discards:
        flags[card] = 1
    values += flags
    return np.concatenate((np.array(values, dtype=np.int16), _history(state.history)))


_NONE = [-1] * RECORD * ROUNDS


@by_identity(1024)
def _history(history: tuple[RoundResult, ...]) -> np.ndarray:
    """The finished rounds' values, padded to 32 rounds: the end of a state's array. The
    samples of a search share their history, and it is more than half of the array, so
    it is kept by identity as :func:`_record` keeps a record's (read-only, as it is shared)."""
    values: list[int] = []
    for result in history:
        values += _record(result)
    values += _NONE[: RECORD * (ROUNDS - len(history))]
    array = np.array(values, dtype=np.int16)
    array.flags.writeable = False
    return array


@by_identity(4096)
def _record(result: RoundResult) -> tuple[int, ...]:
    """A finished round's values. A game's records are encoded again at every step, so
    they are kept by identity (hashing a record costs more than encoding it)."""
    values = [-1 if result.winner is None else result.winner, result.points]
    for play in result.seats:
        values += play.cards
        values += [_PICK_IDS[pick] for pick in play.picks]
    return tuple(values)


def decode(game: TriangleClockGame, array: np.ndarray, seed: int = 0) -> TriangleClockState:
    """The rules-engine state of an array (the inverse of :func:`encode`); the array holds
    no seed, so the state gets ``seed`` for the chance still to come."""
    v = [int(x) for x in array]
    phase = Phase(v[PHASE])
    orders = (tuple(v[ORDERS : ORDERS + BLOCK]), tuple(v[ORDERS + BLOCK : ORDERS + ROUNDS]))
    seats = []
    for p in range(2):
        base = SEATS_AT + p * SEAT_SIZE
        hand = tuple(c for c in v[base + HAND : base + HAND + HAND_SIZE] if c >= 0)
        picks = tuple(_pick(game, a) for a in v[base + PICKS : base + PICKS + 3] if a >= 0)
        seats.append(Seat(hand, picks, tuple(v[base + USES : base + USES + 3]), v[base + SCORE]))
    waiting: tuple[int, ...] = ()
    chosen: tuple[TriangleClockAction | None, ...] = ()
    if phase is not Phase.OVER:
        waiting = (0, 1)
        chosen = tuple(
            None
            if v[SEATS_AT + p * SEAT_SIZE + PENDING] < 0
            else game.action_from_id(v[SEATS_AT + p * SEAT_SIZE + PENDING])
            for p in range(2)
        )
    history = tuple(_round_result(game, v, r, orders) for r in range(v[ROUND] - 1))
    return TriangleClockState(
        game=game,
        seed=seed,
        round=v[ROUND],
        phase=phase,
        seats=(seats[0], seats[1]),
        supply=Supply(
            tuple(v[DECK : DECK + v[DECK_LEN]][::-1]),
            tuple(c for c in range(NUM_CARDS) if v[DISCARDS + c]),
            v[RESHUFFLES],
        ),
        orders=orders,
        pending=Submissions(waiting, chosen),
        history=history,
    )


def _pick(game: TriangleClockGame, action_id: int) -> Pick:
    action = game.action_from_id(action_id)
    assert isinstance(action, Pick)
    return action


def _round_result(
    game: TriangleClockGame, v: list[int], r: int, orders: tuple[tuple[int, ...], ...]
) -> RoundResult:
    """The record of round ``r + 1`` from its values, ranks named by the game's ranking."""
    base = HISTORY + r * RECORD
    shared = orders[r // BLOCK][r % BLOCK]
    plays = []
    for p in range(2):
        cards = tuple(v[base + 2 + 5 * p : base + 4 + 5 * p])
        picks = tuple(_pick(game, a) for a in v[base + 4 + 5 * p : base + 7 + 5 * p])
        # the two cards in the order first picked from: the first pick's slot holds cards[0]
        by_slot = {picks[0].slot: cards[0], picks[1].slot: cards[1]}
        hand = (shared, *(k.changed(CARDS[by_slot[k.slot]][k.side]) for k in picks))
        value = game.ranking.evaluate(hand)
        plays.append(SeatRound(cards, picks, hand, value.name, value.strength))
    winner = v[base] if v[base] >= 0 else None
    return RoundResult(r + 1, shared, (plays[0], plays[1]), winner, v[base + 1])


def reference_chance(
    state: TriangleClockState, player: int, action: object, words: int = CHANCE_WORDS
) -> np.ndarray:
    """The chance ``action`` may meet, as the rules engine draws it: a ``(2, words)`` array
    of 32-bit words from the engine's reshuffle stream (the next reshuffle, when a draw
    this action makes may find the deck short) and its Mulligan stream (for a Mulligan).
    Given to :func:`apply`, it makes the compiled rules shuffle exactly as the engine does;
    a row the action does not need is left zero."""
    out = np.zeros((2, words), dtype=np.int64)
    mulligan = isinstance(action, Mulligan)
    if mulligan:
        uses = state.seats[player].uses[Item.MULLIGAN]
        rng = make_rng(state.seed, "mulligan", state.round, player, uses)
        out[MULLIGAN_STREAM] = [rng.getrandbits(32) for _ in range(words)]
    ends_round = state.phase is Phase.THIRD and len(state.to_act) == 1
    if (mulligan or ends_round) and len(state.supply.deck) < HAND_SIZE:
        rng = make_rng(state.seed, "reshuffle", state.supply.reshuffles + 1)
        out[RESHUFFLE_STREAM] = [rng.getrandbits(32) for _ in range(words)]
    return out


NO_CHANCE = np.zeros((2, 0), dtype=np.int64)
"""No engine words: chance comes from numba's generator (seeded by :func:`playouts`)."""


# -- the rules, compiled --------------------------------------------------------------------
@compiled
def to_act(state: np.ndarray) -> int:
    """The first seat yet to submit in the open decision; -1 once the game is over."""
    if state[PHASE] == OVER:
        return -1
    for p in range(2):
        if state[SEATS_AT + p * SEAT_SIZE + PENDING] < 0:
            return p
    return -1


@compiled
def legal_actions(state: np.ndarray, player: int, out: np.ndarray) -> int:
    """Write ``player``'s legal action ids into ``out`` in the engine's order; return how
    many (0 when the seat is not to act)."""
    base = SEATS_AT + player * SEAT_SIZE
    phase = state[PHASE]
    if phase == OVER or state[base + PENDING] >= 0:
        return 0
    if phase == MEMORISE:
        out[0] = MEMORISED_ID
        return 1
    # Palette Swap and Right Angle: a use left, and not yet used this round
    palette = state[base + USES + PALETTE] > 0
    right = state[base + USES + RIGHT] > 0
    for k in range(phase - 1):
        pick = state[base + PICKS + k]
        if pick & 1:
            palette = False
        if pick & 2:
            right = False
    count = 0
    if phase == THIRD:  # the unused symbols of the two played cards, the first card's first
        for k in range(2):
            letter = (state[base + PICKS + k] >> 2) ^ 1
            count = _add_combos(out, count, 4 * letter, palette, right)
    else:
        for letter in range(8):
            if phase == SECOND and letter >> 1 == state[base + PICKS] >> 3:
                continue  # the second symbol comes from another card
            count = _add_combos(out, count, 4 * letter, palette, right)
    if phase == FIRST and state[base + USES + MULL] > 0:
        out[count] = MULLIGAN_ID
        count += 1
    return count


@compiled
def _add_combos(out: np.ndarray, count: int, first: int, palette: bool, right: bool) -> int:
    """The picks of one letter: plain, with Palette Swap, with Right Angle, with both."""
    out[count] = first
    count += 1
    if palette:
        out[count] = first + 1
        count += 1
    if right:
        out[count] = first + 2
        count += 1
        if palette:
            out[count] = first + 3
            count += 1
    return count


@compiled
def _below(n: int, chance: np.ndarray, cursor: np.ndarray, stream: int) -> int:
    """A random whole number in ``[0, n)``: from numba's generator, or, given engine
    words, as ``random.Random._randbelow`` reads them (the top ``n.bit_length()`` bits of
    a word, drawing again while out of range)."""
    if chance.shape[1] == 0:
        return np.random.randint(0, n)
    k = 0
    while (n >> k) > 0:
        k += 1
    while True:
        at = cursor[stream]
        if at >= chance.shape[1]:
            raise ValueError("the engine's random words ran out")
        cursor[stream] = at + 1
        r = chance[stream, at] >> (32 - k)
        if r < n:
            return r


@compiled
def _shuffle(
    items: np.ndarray, size: int, chance: np.ndarray, cursor: np.ndarray, stream: int
) -> None:
    """``random.shuffle`` of ``items[:size]`` (in the engine's order), in place."""
    for i in range(size - 1, 0, -1):
        j = _below(i + 1, chance, cursor, stream)
        items[i], items[j] = items[j], items[i]


@compiled
def _shuffle_deck(
    state: np.ndarray, extra: np.ndarray, chance: np.ndarray, cursor: np.ndarray, stream: int
) -> None:
    """The engine's ``shuffle_in``: ``extra`` under the deck, then the deck shuffled."""
    size = state[DECK_LEN]
    top_first = np.empty(size + extra.shape[0], dtype=np.int16)
    for i in range(size):
        top_first[i] = state[DECK + size - 1 - i]
    for i in range(extra.shape[0]):
        top_first[size + i] = extra[i]
    size += extra.shape[0]
    _shuffle(top_first, size, chance, cursor, stream)
    for i in range(size):
        state[DECK + size - 1 - i] = top_first[i]
    state[DECK_LEN] = size


@compiled
def _draw(state: np.ndarray, chance: np.ndarray, cursor: np.ndarray) -> int:
    """The top card of the deck; an empty deck first becomes the shuffled discard pile."""
    size = state[DECK_LEN]
    if size == 0:
        pile = np.empty(NUM_CARDS, dtype=np.int16)
        for c in range(NUM_CARDS):
            if state[DISCARDS + c]:
                pile[size] = c
                size += 1
                state[DISCARDS + c] = 0
        _shuffle(pile, size, chance, cursor, RESHUFFLE_STREAM)
        for i in range(size):
            state[DECK + size - 1 - i] = pile[i]
        state[RESHUFFLES] += 1
    size -= 1
    card = state[DECK + size]
    state[DECK + size] = -1
    state[DECK_LEN] = size
    return card


@compiled
def _mulligan(
    state: np.ndarray, player: int, rules: np.ndarray, chance: np.ndarray, cursor: np.ndarray
) -> None:
    """Four new cards for ``player``; the old ones shuffled into the deck, after the new
    cards are drawn (new-first) or before (literal)."""
    base = SEATS_AT + player * SEAT_SIZE
    old = state[base + HAND : base + HAND + HAND_SIZE].copy()
    if rules[0]:
        _shuffle_deck(state, old, chance, cursor, MULLIGAN_STREAM)
    for k in range(HAND_SIZE):
        state[base + HAND + k] = _draw(state, chance, cursor)
    if not rules[0]:
        _shuffle_deck(state, old, chance, cursor, MULLIGAN_STREAM)
    state[base + USES + MULL] -= 1


@compiled
def _revealed(state: np.ndarray, base: int, pick: int, cards: np.ndarray) -> int:
    """The symbol a pick shows: the printed symbol, Palette Swap, then Right Angle."""
    letter = pick >> 2
    s = cards[state[base + HAND + (letter >> 1)], letter & 1]
    if pick & 1:
        s ^= 1
    if pick & 2:
        s = (s + 4) & 15
    return s


@compiled
def _end_round(
    state: np.ndarray,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
    chance: np.ndarray,
    cursor: np.ndarray,
) -> None:
    """Compare hands, score, record the round, discard, deal replacements."""
    rnd = state[ROUND]
    shared = state[ORDERS + rnd - 1]
    record = HISTORY + (rnd - 1) * RECORD
    value = np.empty(2, dtype=np.int64)
    worth = np.empty(2, dtype=np.int64)
    for p in range(2):
        base = SEATS_AT + p * SEAT_SIZE
        code = shared
        for k in range(3):
            pick = state[base + PICKS + k]
            code = code << 4 | _revealed(state, base, pick, cards)
            state[record + 4 + 5 * p + k] = pick
        value[p] = power[code]
        worth[p] = strength[code]
    winner = -1
    if value[0] != value[1]:
        winner = 0 if value[0] > value[1] else 1
    points = 0 if winner < 0 else worth[1 - winner]
    state[record] = winner
    state[record + 1] = points
    last = rnd == ROUNDS
    for p in range(2):
        base = SEATS_AT + p * SEAT_SIZE
        first = state[base + PICKS] >> 3
        second = state[base + PICKS + 1] >> 3
        state[record + 2 + 5 * p] = state[base + HAND + first]
        state[record + 3 + 5 * p] = state[base + HAND + second]
        state[DISCARDS + state[base + HAND + first]] = 1
        state[DISCARDS + state[base + HAND + second]] = 1
        if winner == p:
            state[base + SCORE] += points
        for k in range(3):
            state[base + PICKS + k] = -1
    for p in range(2):  # Tick is dealt first
        base = SEATS_AT + p * SEAT_SIZE
        first = state[record + 4 + 5 * p] >> 3
        second = state[record + 5 + 5 * p] >> 3
        if last:  # nothing is dealt; the two kept cards close up, in slot order
            kept = 0
            for k in range(HAND_SIZE):
                if k != first and k != second:
                    state[base + HAND + kept] = state[base + HAND + k]
                    kept += 1
            state[base + HAND + 2] = -1
            state[base + HAND + 3] = -1
        else:  # the top card fills the lower emptied slot
            low, high = min(first, second), max(first, second)
            state[base + HAND + low] = _draw(state, chance, cursor)
            state[base + HAND + high] = _draw(state, chance, cursor)
    state[ROUND] = rnd + 1
    if last:
        state[PHASE] = OVER
    elif rnd % BLOCK == 0:
        state[PHASE] = MEMORISE
    else:
        state[PHASE] = FIRST


@compiled
def apply(
    state: np.ndarray,
    player: int,
    action: int,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
    rules: np.ndarray,
    chance: np.ndarray,
) -> None:
    """``player`` takes ``action`` (legal), in place. ``chance`` holds engine words
    (:func:`reference_chance`) or is :data:`NO_CHANCE` for numba's generator."""
    cursor = np.zeros(2, dtype=np.int64)
    if action == MULLIGAN_ID:
        _mulligan(state, player, rules, chance, cursor)
        return
    state[SEATS_AT + player * SEAT_SIZE + PENDING] = action
    if state[SEATS_AT + PENDING] < 0 or state[SEATS_AT + SEAT_SIZE + PENDING] < 0:
        return
    phase = state[PHASE]
    for p in range(2):
        base = SEATS_AT + p * SEAT_SIZE
        if phase != MEMORISE:  # reveal: the pick recorded, its items spent
            pick = state[base + PENDING]
            state[base + PICKS + phase - 1] = pick
            state[base + USES + PALETTE] -= pick & 1
            state[base + USES + RIGHT] -= (pick >> 1) & 1
        state[base + PENDING] = -1
    if phase == THIRD:
        _end_round(state, cards, power, strength, chance, cursor)
    else:
        state[PHASE] = phase + 1


@compiled
def outcome(state: np.ndarray, rules: np.ndarray) -> int:
    """The winner once the game is over: the higher score, else the seat holding more
    items; -1 for a draw."""
    a = state[SEATS_AT + SCORE]
    b = state[SEATS_AT + SEAT_SIZE + SCORE]
    if a != b:
        return 0 if a > b else 1
    if rules[1] != rules[2]:
        return 0 if rules[1] > rules[2] else 1
    return -1


@compiled
def rollout(
    state: np.ndarray,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
    rules: np.ndarray,
    moves: np.ndarray,
) -> None:
    """Uniformly random legal actions to the end of the game, in place (numba's generator
    for the chance on the way); the first seat yet to submit acts first."""
    # The action as an int64 and a writable empty chance array: the types a caller from
    # Python passes, so that ``apply`` (and all it calls) is compiled once, not once more
    # for this call (the global NO_CHANCE is a read-only array inside a kernel).
    no_chance = np.zeros((2, 0), dtype=np.int64)
    seat = to_act(state)
    while seat >= 0:
        count = legal_actions(state, seat, moves)
        action = np.int64(moves[np.random.randint(0, count)])
        apply(state, seat, action, cards, power, strength, rules, no_chance)
        seat = to_act(state)


@compiled
def random_games(
    start: np.ndarray,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
    rules: np.ndarray,
    games: int,
    seed: int,
) -> np.ndarray:
    """Winners of ``games`` uniformly random games from ``start``: Tick's wins, draws,
    Tock's wins."""
    np.random.seed(seed)
    results = np.zeros(3, dtype=np.int64)
    scratch = start.copy()
    moves = np.empty(MAX_ACTIONS, dtype=np.int16)
    for _ in range(games):
        scratch[:] = start
        rollout(scratch, cards, power, strength, rules, moves)
        winner = outcome(scratch, rules)
        results[0 if winner == 0 else (2 if winner == 1 else 1)] += 1
    return results


def playouts(state: TriangleClockState, games: int, seed: int = 0) -> tuple[int, int, int]:
    """How ``games`` uniformly random games from ``state`` (the true state: play it from a
    determinized one in a search) end: Tick's wins, draws, Tock's wins. Chance still to
    come is drawn from numba's generator seeded with ``seed``: the same arguments give the
    same counts, but not the engine's own reshuffles (those need the game's seed)."""
    t = tables(state.game)
    won, drawn, lost = random_games(
        encode(state), t.cards, t.power, t.strength, t.rules, games, seed
    )
    return int(won), int(drawn), int(lost)


@compiled
def _one_random_game(
    start: np.ndarray,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
    rules: np.ndarray,
    seed: int,
) -> int:
    """The winner (-1 for a draw) of one uniformly random game from ``start``."""
    np.random.seed(seed)
    scratch = start.copy()
    rollout(scratch, cards, power, strength, rules, np.empty(MAX_ACTIONS, dtype=np.int16))
    return outcome(scratch, rules)


_RETURNS = {0: (1.0, -1.0), 1: (-1.0, 1.0), -1: (0.0, 0.0)}


def playout(state: TriangleClockState, seed: int) -> tuple[float, ...]:
    """Each seat's returns after one uniformly random game from ``state`` (seeded), as
    :attr:`TriangleClockState.returns` gives them: a search's rollout on the compiled rules.
    A search plays it from a determinized state (``observation.determinize``), whose
    hidden parts are a sample, never from the true state it cannot see."""
    return _RETURNS[_one_random_game(encode(state), *tables(state.game), seed)]


__all__ = [
    "MAX_ACTIONS",
    "NO_CHANCE",
    "SIZE",
    "Tables",
    "apply",
    "decode",
    "encode",
    "legal_actions",
    "outcome",
    "playout",
    "playouts",
    "reference_chance",
    "rollout",
    "tables",
    "to_act",
]
