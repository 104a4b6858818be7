"""Squad Combat's rules written a second time, for numba (1 of 2): the arrays' layout, the
questions about a position (:mod:`meeple.games.squad_combat.reading`) and the small edits
(:mod:`~meeple.games.squad_combat.edits`).

:mod:`.transitions` holds the transitions, :mod:`.rules` the way in from the engine's states.
Each function mirrors the engine's method of the same name, in the same order of steps, so
that the two can be read side by side; the differential test
(``tests/games/squad_combat/test_fast.py``) holds them equal.

A position ``s`` (``int32``) holds, at the offsets ``S_*`` below: the random events so far,
the turn, lead, phase, dice-trim slot, end-of-turn discards made, refreshing slot, winner
(-1: none) and how the game ended (``END_*``); the turn order, who passed, and three queues
of seats (end-of-turn discards, end-of-turn windows, windows before a refresh), each a
length and ``MAX_SEATS`` seats padded with -1; every character (``CH_*``: its card, spent
energy, whether removed, its dice lowest first, its wounds as card and owner, oldest first);
the stack of cards being performed (``P_*``: player, card, slot, die costs due, card costs
due, target seat and slot, boost/attack/defense die with -1 for none, bonuses, and the
seats still to be offered a reaction window, length -1 while they have not opened); each
hand as a count per kind of card; each deck (top card last) and discard pile (oldest first)
as a length and its cards.

The game ``g`` (``int32``) holds the options (``G_*``) and the content's tables: per card
``CARD_SIZE`` values (``C_*``), per character Life, Energy, dice pool and refresh cost, and
whether each character shares a trait with each card.

Action ids are the engine's (:meth:`SquadCombatGame.action_id`): ``pass``, ``done``, ``no
die``, ``die 1-6``, ``pay 1-6``, ``drop 1-6``, ``refresh a-c``, ``target`` per seat and slot,
``play`` per card and slot, ``discard`` per card.
"""

from __future__ import annotations

import numpy as np

from meeple.core.kernels import kernel
from meeple.core.mt import FIRST_WORDS, START, first_words

compiled = kernel(nogil=True)

# -- sizes ----------------------------------------------------------------------------------
MAX_SEATS = 4
MAX_KINDS = 32
MAX_CHARACTERS = 32
MAX_CARDS = 64
MAX_DUE = 6
MAX_WOUNDS = 16
MAX_DICE = 12  # a dice pool is at most 6, and a refresh adds as many before the trim
MAX_STACK = 2  # an edge answering an attack or an action; edges open no windows
FACES = 6
END_DISCARDS = 2

# -- step kinds, in the order of pieces.STEP_KINDS --------------------------------------------
PHASE, PAY_DIE, PAY_CARD, TARGET, BOOST_DIE, ATTACK_DIE, DEFENSE_DIE = 0, 1, 2, 3, 4, 5, 6
REACT, END_WINDOW, REFRESH_WINDOW, DROP, END_DISCARD, RESOLVE, OVER = 7, 8, 9, 10, 11, 12, 13

# -- card tables --------------------------------------------------------------------------
ATTACK, ACTION, EDGE = 0, 1, 2
T_ACTION, T_ANYTIME, T_DEFENDING, T_ATTACKING = 1, 2, 4, 8  # timings as bits of a mask
E_NONE, E_HEAL, E_BOOST, E_ENERGY, E_DRAW, E_DEFENSE, E_ATTACK = 0, 1, 2, 3, 4, 5, 6
C_KIND, C_TIMING, C_EFFECT, C_AMOUNT, C_HIT, C_DAMAGE, C_ENERGY, C_CARDS, C_NDICE = range(9)
C_DICE = 9
CARD_SIZE = C_DICE + MAX_DUE
CHARACTER_SIZE = 4  # life, energy, dice pool, refresh
LIFE, ENERGY, POOL, REFRESH = 0, 1, 2, 3

# -- the game array -------------------------------------------------------------------------
(
    G_PLAYERS,
    G_HAND_SIZE,
    G_LEAD_ROTATE,
    G_ATTACKER_FIRST,
    G_ASK_ONLY_CHOICES,
    G_ANYTIME,
    G_ALL_AT_ONCE,
    G_TURN_LIMIT,
    G_TAKE_SINGLE,
    G_KINDS,
) = range(10)
G_CARDS = 16
G_CHARACTERS = G_CARDS + MAX_KINDS * CARD_SIZE
G_MATCHES = G_CHARACTERS + MAX_CHARACTERS * CHARACTER_SIZE
G_SIZE = G_MATCHES + MAX_CHARACTERS * MAX_KINDS

# -- the position array ---------------------------------------------------------------------
(
    S_ROLLS,
    S_TURN,
    S_LEAD,
    S_PHASE,
    S_DROPPING,
    S_DISCARDED,
    S_REFRESHING,
    S_WINNER,
    S_ENDED,
    S_NSTACK,
    S_NDISCARDING,
    S_NCLOSING,
    S_NREFRESH_WINDOWS,
) = range(13)
END_NONE, END_LAST, END_STALEMATE, END_LIMIT = 0, 1, 2, 3
S_ORDER = 16
S_PASSED = S_ORDER + MAX_SEATS
S_DISCARDING = S_PASSED + MAX_SEATS
S_CLOSING = S_DISCARDING + MAX_SEATS
S_REFRESH_WINDOWS = S_CLOSING + MAX_SEATS
CH_CARD, CH_SPENT, CH_REMOVED, CH_NDICE = 0, 1, 2, 3
CH_DICE = 4
CH_NWOUNDS = CH_DICE + MAX_DICE
CH_WOUNDS = CH_NWOUNDS + 1
CH_SIZE = CH_WOUNDS + 2 * MAX_WOUNDS
S_CHARS = S_REFRESH_WINDOWS + MAX_SEATS
P_PLAYER, P_CARD, P_SLOT, P_NDUE = 0, 1, 2, 3
P_DUE = 4
P_CARDS_DUE = P_DUE + MAX_DUE
P_TSEAT, P_TSLOT, P_BOOST, P_ADIE, P_DDIE, P_ABONUS, P_DBONUS, P_NWIN = range(
    P_CARDS_DUE + 1, P_CARDS_DUE + 9
)
P_WIN = P_NWIN + 1
PERF_SIZE = P_WIN + MAX_SEATS
S_STACK = S_CHARS + MAX_SEATS * 3 * CH_SIZE
S_HANDS = S_STACK + MAX_STACK * PERF_SIZE
S_HANDN = S_HANDS + MAX_SEATS * MAX_KINDS
S_DECKN = S_HANDN + MAX_SEATS
S_DECKS = S_DECKN + MAX_SEATS
S_DISCN = S_DECKS + MAX_SEATS * MAX_CARDS
S_DISCARDS = S_DISCN + MAX_SEATS
S_SIZE = S_DISCARDS + MAX_SEATS * MAX_CARDS

# -- action ids -----------------------------------------------------------------------------
A_PASS, A_DONE, A_NO_DIE = 0, 1, 2
A_DIE = 3 - 1  # die v is A_DIE + v
A_PAY = 9 - 1
A_DROP = 15 - 1
A_REFRESH = 21
A_TARGET = 24
MAX_ACTIONS = A_TARGET + 3 * MAX_SEATS + 4 * MAX_KINDS
"""More than any list of legal actions holds."""


@compiled
def a_play(g: np.ndarray, card: int, slot: int) -> int:
    """The id of ``play <card> by <slot>``."""
    return A_TARGET + 3 * g[G_PLAYERS] + 3 * card + slot


@compiled
def a_discard(g: np.ndarray, card: int) -> int:
    """The id of ``discard <card>``."""
    return A_TARGET + 3 * g[G_PLAYERS] + 3 * g[G_KINDS] + card


# -- reading (reading.py) -------------------------------------------------------------------
@compiled
def ch(seat: int, slot: int) -> int:
    """Where a character starts in the position."""
    return S_CHARS + (seat * 3 + slot) * CH_SIZE


@compiled
def card_at(k: int) -> int:
    """Where a card's row starts in the game array."""
    return G_CARDS + k * CARD_SIZE


@compiled
def top(s: np.ndarray) -> int:
    """Where the card on top of the stack starts."""
    return S_STACK + (s[S_NSTACK] - 1) * PERF_SIZE


@compiled
def find_step(s: np.ndarray, g: np.ndarray) -> tuple[int, int]:
    """The decision pending now and the seat that makes it (``Reading.find_step``)."""
    if s[S_ENDED] != END_NONE:
        return OVER, -1
    if s[S_NDISCARDING] > 0:
        return END_DISCARD, s[S_DISCARDING]
    if s[S_DROPPING] >= 0:
        return DROP, s[S_PHASE]
    if s[S_NSTACK] == 0:
        if s[S_NCLOSING] > 0:
            return END_WINDOW, s[S_CLOSING]
        if s[S_REFRESHING] >= 0:
            if s[S_NREFRESH_WINDOWS] > 0:
                return REFRESH_WINDOW, s[S_REFRESH_WINDOWS]
            return RESOLVE, s[S_PHASE]
        return PHASE, s[S_PHASE]
    p = top(s)
    player = s[p + P_PLAYER]
    c = card_at(s[p + P_CARD])
    if s[p + P_NDUE] > 0:
        return PAY_DIE, player
    if s[p + P_CARDS_DUE] > 0:
        return PAY_CARD, player
    kind, effect = g[c + C_KIND], g[c + C_EFFECT]
    targeted = effect in (E_HEAL, E_BOOST, E_ENERGY)
    if (kind == ATTACK or targeted) and s[p + P_TSEAT] < 0:
        return TARGET, player
    if effect == E_BOOST and s[p + P_BOOST] < 0:
        return BOOST_DIE, player
    if kind == ATTACK:
        if s[p + P_ADIE] < 0:
            return ATTACK_DIE, player
        if s[p + P_DDIE] < 0:
            return DEFENSE_DIE, s[p + P_TSEAT]
    if s[p + P_NWIN] > 0:
        return REACT, s[p + P_WIN]
    return RESOLVE, player


@compiled
def alive(s: np.ndarray, seat: int) -> bool:
    """Whether the seat still has a character in play."""
    for slot in range(3):  # noqa: SIM110 -- numba compiles no generator
        if s[ch(seat, slot) + CH_REMOVED] == 0:
            return True
    return False


@compiled
def damage(s: np.ndarray, g: np.ndarray, seat: int, slot: int) -> int:
    """Total damage of the wounds under the character."""
    c = ch(seat, slot)
    total = 0
    for i in range(s[c + CH_NWOUNDS]):
        total += g[card_at(s[c + CH_WOUNDS + 2 * i]) + C_DAMAGE]
    return total


@compiled
def can_perform(
    s: np.ndarray, g: np.ndarray, seat: int, slot: int, k: int, hand_after: int
) -> bool:
    """Whether the character may perform card ``k`` (``Reading.can_perform``)."""
    c = ch(seat, slot)
    who = s[c + CH_CARD]
    if s[c + CH_REMOVED] != 0 or g[G_MATCHES + who * MAX_KINDS + k] == 0:
        return False
    row = card_at(k)
    energy = g[row + C_ENERGY]
    if energy > 0 and g[G_CHARACTERS + who * CHARACTER_SIZE + ENERGY] - s[c + CH_SPENT] < energy:
        return False
    needs = g[row + C_NDICE]
    if needs > 0:
        # dice_cover: the highest cost against the highest die, and so on down.
        have = s[c + CH_NDICE]
        if needs > have:
            return False
        for i in range(needs):
            if s[c + CH_DICE + have - 1 - i] < g[row + C_DICE + i]:
                return False
    return hand_after >= g[row + C_CARDS]


@compiled
def targets(s: np.ndarray, g: np.ndarray, seat: int, k: int, out: np.ndarray, n: int) -> int:
    """Append to ``out`` (from ``n``) the target ids of the characters card ``k`` played by
    ``seat`` may target; returns the new length (``Reading.effect_targets``)."""
    row = card_at(k)
    if g[row + C_KIND] == ATTACK:
        for other in range(g[G_PLAYERS]):
            if other != seat:
                for slot in range(3):
                    if s[ch(other, slot) + CH_REMOVED] == 0:
                        out[n] = A_TARGET + 3 * other + slot
                        n += 1
        return n
    effect, amount = g[row + C_EFFECT], g[row + C_AMOUNT]
    for slot in range(3):
        c = ch(seat, slot)
        if s[c + CH_REMOVED] != 0:
            continue
        ok = False
        if effect == E_HEAL:
            for i in range(s[c + CH_NWOUNDS]):
                if g[card_at(s[c + CH_WOUNDS + 2 * i]) + C_DAMAGE] <= amount:
                    ok = True
                    break
        elif effect == E_BOOST:
            ok = s[c + CH_NDICE] > 0 and s[c + CH_DICE] < FACES
        elif effect == E_ENERGY:
            ok = s[c + CH_SPENT] > 0
        if ok:
            out[n] = A_TARGET + 3 * seat + slot
            n += 1
    return n


@compiled
def playable(s: np.ndarray, g: np.ndarray, seat: int, timings: int, out: np.ndarray, n: int) -> int:
    """Append to ``out`` (from ``n``) the plays ``seat`` may announce now for the timings in
    the mask; returns the new length (``Reading.playable``)."""
    hand = S_HANDS + seat * MAX_KINDS
    after = s[S_HANDN + seat] - 1
    for k in range(g[G_KINDS]):
        if s[hand + k] == 0:
            continue
        row = card_at(k)
        if g[row + C_TIMING] & timings == 0:
            continue
        effect = g[row + C_EFFECT]
        # A targeted effect needs a target: counted in the free end of ``out`` (the plays
        # written next overwrite them).
        if effect in (E_HEAL, E_BOOST, E_ENERGY) and targets(s, g, seat, k, out, n) == n:
            continue
        for slot in range(3):
            if can_perform(s, g, seat, slot, k, after):
                out[n] = a_play(g, k, slot)
                n += 1
    return n


@compiled
def window_timings(s: np.ndarray, g: np.ndarray, seat: int) -> int:
    """The edge timings ``seat`` may use in the window open now, as a mask."""
    if s[S_NSTACK] > 0:
        p = top(s)
        if g[card_at(s[p + P_CARD]) + C_KIND] == ATTACK and s[p + P_TSEAT] >= 0:
            if seat == s[p + P_TSEAT]:
                return T_ANYTIME | T_DEFENDING
            if seat == s[p + P_PLAYER]:
                return T_ANYTIME | T_ATTACKING
    return T_ANYTIME


@compiled
def distinct_dice(
    s: np.ndarray, c: int, base: int, low: int, high: int, out: np.ndarray, n: int
) -> int:
    """Append ``base + v`` for each distinct die value ``low <= v <= high`` on the character
    at ``c``, ascending; returns the new length."""
    last = -1
    for i in range(s[c + CH_NDICE]):
        v = s[c + CH_DICE + i]
        if v != last and low <= v <= high:
            out[n] = base + v
            n += 1
        last = v
    return n


@compiled
def hand_discards(s: np.ndarray, g: np.ndarray, seat: int, out: np.ndarray, n: int) -> int:
    """Append a discard for each kind of card in the seat's hand; returns the new length."""
    hand = S_HANDS + seat * MAX_KINDS
    for k in range(g[G_KINDS]):
        if s[hand + k] > 0:
            out[n] = a_discard(g, k)
            n += 1
    return n


@compiled
def legal_for(s: np.ndarray, g: np.ndarray, kind: int, seat: int, out: np.ndarray) -> int:
    """The legal action ids of ``seat`` at a step of ``kind`` (``Reading.legal``)."""
    if kind == PHASE:
        n = playable(s, g, seat, T_ACTION | T_ANYTIME, out, 0)
        for slot in range(3):
            c = ch(seat, slot)
            if s[c + CH_REMOVED] == 0:
                spec = G_CHARACTERS + s[c + CH_CARD] * CHARACTER_SIZE
                if g[spec + ENERGY] - s[c + CH_SPENT] >= g[spec + REFRESH]:
                    out[n] = A_REFRESH + slot
                    n += 1
        out[n] = A_PASS
        return n + 1
    if kind in (REACT, END_WINDOW, REFRESH_WINDOW):
        n = playable(s, g, seat, window_timings(s, g, seat), out, 0)
        out[n] = A_DONE
        return n + 1
    if kind == END_DISCARD:
        n = hand_discards(s, g, seat, out, 0)
        out[n] = A_DONE
        return n + 1
    if kind == DROP:
        return distinct_dice(s, ch(seat, s[S_DROPPING]), A_DROP, 1, FACES, out, 0)
    if kind in (OVER, RESOLVE):
        return 0
    p = top(s)
    if kind == PAY_DIE:
        c = ch(seat, s[p + P_SLOT])
        return distinct_dice(s, c, A_PAY, s[p + P_DUE], FACES, out, 0)
    if kind == PAY_CARD:
        return hand_discards(s, g, seat, out, 0)
    if kind == TARGET:
        return targets(s, g, seat, s[p + P_CARD], out, 0)
    if kind == BOOST_DIE:
        c = ch(s[p + P_TSEAT], s[p + P_TSLOT])
        return distinct_dice(s, c, A_DIE, 1, FACES - 1, out, 0)
    # the attack die (the attacker's) or the defense die (the defender's)
    c = ch(seat, s[p + P_SLOT]) if kind == ATTACK_DIE else ch(s[p + P_TSEAT], s[p + P_TSLOT])
    out[0] = A_NO_DIE
    return distinct_dice(s, c, A_DIE, 1, FACES, out, 1)


@compiled
def legal(s: np.ndarray, g: np.ndarray, out: np.ndarray) -> int:
    """The legal action ids of the seat to act, in the engine's order; returns how many."""
    kind, seat = find_step(s, g)
    if seat < 0:
        return 0
    return legal_for(s, g, kind, seat, out)


# -- small edits (edits.py) -----------------------------------------------------------------
# -- chance: where a random draw comes from ------------------------------------------------
# A *stream tape* (the batched rules' mode, :mod:`.batch`) holds the seeds of the engine's
# own streams for the next random events and, once an event begins, that event's stream's
# 32-bit words (stored as int32 bit patterns): the compiled rules then draw exactly what
# ``make_rng(seed, "squad-combat", purpose, rolls)`` draws in the engine.
STREAM = -1
"""``tape[T_MODE]`` of a stream tape (a recorded tape starts with its cursor, at least 1)."""
T_MODE, T_CURSOR, T_MISSING, T_BASE, T_COUNT = range(5)
T_SEEDS = 5
MAX_EVENTS = 16
"""Random events whose streams' seeds a stream tape holds: events ``T_BASE + 1`` to
``T_BASE + T_COUNT``, each with the seed of its refresh stream then of its reshuffle stream
(each seed as two int32 words, low first)."""
T_WORDS = T_SEEDS + 4 * MAX_EVENTS
WORDS = FIRST_WORDS
"""Engine words loaded per event: 227, the most the first twist gives without regenerating
the whole state; a reshuffle of a whole deck (64 cards at most) takes about 90 at most (one
per card, and a redraw when a word is out of range), so running out never happens (it
would raise, never guess)."""
TAPE_SIZE = T_WORDS + WORDS
REFRESH_STREAM, RESHUFFLE_STREAM = 0, 1


@compiled
def chance_event(s: np.ndarray, tape: np.ndarray, purpose: int) -> None:
    """A random event (number ``s[S_ROLLS]``) begins (``Edits.rng``): on a stream tape, load
    the words of its engine stream; where the tape holds no seed for it, mark the tape
    missing (the caller plays the action again once it has the seed)."""
    if tape.shape[0] == 0 or tape[T_MODE] != STREAM:
        return
    i = s[S_ROLLS] - tape[T_BASE] - 1
    tape[T_CURSOR] = 0
    if i < 0 or i >= tape[T_COUNT]:
        tape[T_MISSING] = 1
        tape[T_WORDS:] = 0  # draws of 0 until the caller notices: never a loop
        return
    at = T_SEEDS + 4 * i + 2 * purpose
    seed = (np.int64(tape[at + 1]) << 32) | (np.int64(tape[at]) & 0xFFFFFFFF)
    words = np.empty(WORDS, dtype=np.int64)
    first_words(np.uint64(seed), START, words)
    for j in range(WORDS):
        tape[T_WORDS + j] = words[j]


@compiled
def below(tape: np.ndarray, n: int) -> int:
    """A uniform draw from ``0 .. n-1`` (Python's ``Random._randbelow(n)``): from numba's
    generator, the next draw on the tape, ``[cursor, n, value, n, value, ...]``, which
    must be a draw below the same ``n``, or the current event's words on a stream tape (the
    top ``n.bit_length()`` bits of a word, drawing again while out of range)."""
    if tape.shape[0] == 0:
        return np.random.randint(0, n)
    if tape[T_MODE] == STREAM:
        k = 0
        while (n >> k) > 0:
            k += 1
        while True:
            at = tape[T_CURSOR]
            if at >= WORDS:
                raise ValueError("the engine's random words ran out")
            tape[T_CURSOR] = at + 1
            r = (np.int64(tape[T_WORDS + at]) & 0xFFFFFFFF) >> (32 - k)
            if r < n:
                return r
    at = tape[0]
    if at + 1 >= tape.shape[0] or tape[at] != n:
        raise ValueError("the compiled rules drew other chance than the tape holds")
    tape[0] = at + 2
    return tape[at + 1]


@compiled
def take_from_hand(s: np.ndarray, seat: int, k: int) -> None:
    """Remove one copy of card ``k`` from the seat's hand."""
    s[S_HANDS + seat * MAX_KINDS + k] -= 1
    s[S_HANDN + seat] -= 1


@compiled
def to_discard(s: np.ndarray, owner: int, k: int) -> None:
    """Put a card on top of its owner's discard pile."""
    s[S_DISCARDS + owner * MAX_CARDS + s[S_DISCN + owner]] = k
    s[S_DISCN + owner] += 1


@compiled
def spend_die(s: np.ndarray, seat: int, slot: int, value: int) -> None:
    """Remove a die of this value from the character (the dice stay sorted)."""
    c = ch(seat, slot)
    n = s[c + CH_NDICE]
    i = 0
    while s[c + CH_DICE + i] != value:
        i += 1
    for j in range(i, n - 1):
        s[c + CH_DICE + j] = s[c + CH_DICE + j + 1]
    s[c + CH_DICE + n - 1] = 0
    s[c + CH_NDICE] = n - 1


@compiled
def add_die(s: np.ndarray, c: int, value: int) -> None:
    """Put a die of this value on the character at ``c``, keeping the dice sorted."""
    n = s[c + CH_NDICE]
    i = n
    while i > 0 and s[c + CH_DICE + i - 1] > value:
        s[c + CH_DICE + i] = s[c + CH_DICE + i - 1]
        i -= 1
    s[c + CH_DICE + i] = value
    s[c + CH_NDICE] = n + 1


@compiled
def draw(s: np.ndarray, seat: int, count: int, tape: np.ndarray) -> int:
    """Draw up to ``count`` cards; an empty deck is replaced by its shuffled discards."""
    deck = S_DECKS + seat * MAX_CARDS
    pile = S_DISCARDS + seat * MAX_CARDS
    drawn = 0
    for _ in range(count):
        if s[S_DECKN + seat] == 0:
            n = s[S_DISCN + seat]
            if n == 0:
                break
            s[S_ROLLS] += 1
            chance_event(s, tape, RESHUFFLE_STREAM)
            for i in range(n):
                s[deck + i] = s[pile + i]
                s[pile + i] = 0
            # Python's random.shuffle, draw for draw.
            for i in range(n - 1, 0, -1):
                j = below(tape, i + 1)
                s[deck + i], s[deck + j] = s[deck + j], s[deck + i]
            s[S_DECKN + seat] = n
            s[S_DISCN + seat] = 0
        n = s[S_DECKN + seat] - 1
        k = s[deck + n]
        s[deck + n] = 0
        s[S_DECKN + seat] = n
        s[S_HANDS + seat * MAX_KINDS + k] += 1
        s[S_HANDN + seat] += 1
        drawn += 1
    return drawn


@compiled
def pop_seat(s: np.ndarray, count: int, start: int) -> None:
    """Drop the first seat of a queue."""
    n = s[count]
    for i in range(n - 1):
        s[start + i] = s[start + i + 1]
    s[start + n - 1] = -1
    s[count] = n - 1


@compiled
def clear_queue(s: np.ndarray, count: int, start: int, empty: int) -> None:
    """Empty a queue (``empty`` is its length then: 0, or -1 for None)."""
    for i in range(MAX_SEATS):
        s[start + i] = -1
    s[count] = empty


@compiled
def seat_index(s: np.ndarray, seat: int) -> int:
    """The seat's place in the turn order."""
    i = 0
    while s[S_ORDER + i] != seat:
        i += 1
    return i


@compiled
def queue_after(s: np.ndarray, g: np.ndarray, seat: int, last: int, count: int, start: int) -> None:
    """Fill a queue with the seats with a character left in turn order after ``seat``, then
    ``last`` when it is >= 0 and alive (``seats_after`` and the filters around it)."""
    n = g[G_PLAYERS]
    i = seat_index(s, seat)
    m = 0
    for k in range(1, n):
        other = s[S_ORDER + (i + k) % n]
        if alive(s, other):
            s[start + m] = other
            m += 1
    if last >= 0 and alive(s, last):
        s[start + m] = last
        m += 1
    for j in range(m, MAX_SEATS):
        s[start + j] = -1
    s[count] = m
