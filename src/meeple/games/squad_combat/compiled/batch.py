"""Squad Combat batched: many games stepped at once on the compiled rules (:mod:`.rules`),
for the research environments (:mod:`meeple.core.batch` says what each array holds).

**A row** (``int32``) is the compiled position (:mod:`.reading`), then the game's seed (two
words of an ``int64``), the seat to act (-1 once over), the seat that made the last move
(a finished game is observed from its side) and a *window* of the engine's random streams:
the number of the random event it starts after, how many it holds, and the seeds of each
event's refresh and reshuffle streams.

**Chance follows the engine exactly.** A game deals as the readable rules' ``new_game(seed)``
does, from the engine's streams compiled (:func:`meeple.core.mt.first_words`); every later
roll and reshuffle, event number ``rolls``, draws from ``make_rng(seed, "squad-combat",
purpose, rolls)`` as the engine's do: the step kernel hands the compiled rules a *stream
tape* (:func:`.reading.chance_event`) holding the window's seeds. Seeds are hashed in
Python (:func:`meeple.core.rng.derive_seed`): a window with fewer than :data:`SPARE` events
left is given the next :data:`~.reading.MAX_EVENTS` before a step, and a game whose window
still does not reach an event it meets is put back as it was, given a window from there,
and stepped again in the same call.

**The observation** is the seat to act's (or, once a game is over, the last mover's), what
that seat may know and nothing else, every number in [0, 1]; ``[+k]`` is the seat ``k``
places after the observing seat, ``<card>`` runs over the content's cards, ``<slot>`` over
a, b, c (:meth:`SquadCombatBatch.observation_slots` names each; ``docs/batched.md`` has the
table). A count of cards is over the copies of that card in the seat's deck list (0 where
it has none), a count of a seat's hand or deck over its deck list's length:

* ``seat.<i>``: which seat observes (one-hot; its deck and party follow from it);
* ``turn``: the turn over the turn limit; ``step.<kind>``: the pending step, one-hot;
* ``first[+k]``, ``lead[+k]``, ``phase[+k]``: the first player, who opens this turn, whose
  action phase it is (one-hot each); ``passed[+k]``: the seats that passed this turn;
* ``hand[+k]``, ``deck[+k]``: how many cards each seat holds and has in its deck;
* ``own.<card>``: the observing seat's own hand;
* ``discards[+k].<card>``, ``wounds[+k].<card>``: seat ``+k``'s cards on its discard pile
  and lying under characters as wounds;
* ``char[+k].<slot>.removed``, ``.life`` (Life left over Life), ``.energy`` (unspent energy
  over Energy), ``.wounds`` (over 16), ``.dice.1`` ... ``.dice.6`` (dice showing each face,
  over 12);
* ``stack[i]``, the card being performed (``i`` = 0) and an edge answering it (``i`` = 1):
  ``.on``, ``.player[+k]``, ``.card.<card>``, ``.by.<slot>``, ``.dice_due`` (over 6),
  ``.first_due`` (the highest die cost still due, over 6), ``.cards_due`` (over 6, capped),
  ``.target[+k]``, ``.target.<slot>``, ``.boost`` (the boosted die over 6), ``.attack_set``
  and ``.attack`` (the attack die over 6; 0 when declined), ``.defense_set``, ``.defense``,
  ``.attack_bonus``, ``.defense_bonus`` (over 6, capped), ``.windows_open`` and
  ``.windows[+k]`` (seats still to be offered a reaction window);
* ``dropping.<slot>``, ``refreshing.<slot>``: the character trimming its dice, or whose
  refresh is paid but not rolled; ``discarded``: end-of-turn discards made, over 2;
  ``discarding[+k]``, ``closing[+k]``, ``refresh_windows[+k]``: the seats still queued;
* ``winner[+k]``: the winner, once the game is over.

Never in it: another seat's hand, the order of any deck, the seed of the dice to come.
:func:`observation_of_view` computes the same numbers from a seat's view of the readable
rules (``state.view(seat)``).
"""

from __future__ import annotations

from collections import Counter
from hashlib import blake2b
from typing import Any

import numpy as np
from numba import prange

from meeple.core.batch import seed_words, seeds_in
from meeple.core.errors import MeepleError
from meeple.core.kernels import kernel
from meeple.core.mt import START, first_words
from meeple.core.rng import derive_seed
from meeple.games.squad_combat.compiled import reading as fr
from meeple.games.squad_combat.compiled.reading import (
    C_DAMAGE,
    CH_CARD,
    CH_DICE,
    CH_NDICE,
    CH_NWOUNDS,
    CH_REMOVED,
    CH_SPENT,
    CH_WOUNDS,
    CHARACTER_SIZE,
    END_NONE,
    ENERGY,
    G_CHARACTERS,
    LIFE,
    MAX_CARDS,
    MAX_DICE,
    MAX_DUE,
    MAX_EVENTS,
    MAX_KINDS,
    MAX_WOUNDS,
    P_ABONUS,
    P_ADIE,
    P_BOOST,
    P_CARD,
    P_CARDS_DUE,
    P_DBONUS,
    P_DDIE,
    P_DUE,
    P_NDUE,
    P_NWIN,
    P_PLAYER,
    P_SLOT,
    P_TSEAT,
    P_TSLOT,
    P_WIN,
    PERF_SIZE,
    S_CLOSING,
    S_DECKN,
    S_DECKS,
    S_DISCARDED,
    S_DISCARDING,
    S_DISCARDS,
    S_DISCN,
    S_DROPPING,
    S_ENDED,
    S_HANDN,
    S_HANDS,
    S_LEAD,
    S_NCLOSING,
    S_NDISCARDING,
    S_NREFRESH_WINDOWS,
    S_NSTACK,
    S_ORDER,
    S_PASSED,
    S_PHASE,
    S_REFRESH_WINDOWS,
    S_REFRESHING,
    S_ROLLS,
    S_SIZE,
    S_STACK,
    S_TURN,
    S_WINNER,
    STREAM,
    T_BASE,
    T_CURSOR,
    T_MISSING,
    T_MODE,
    T_WORDS,
    TAPE_SIZE,
    WORDS,
    card_at,
    ch,
    find_step,
    legal_for,
)
from meeple.games.squad_combat.compiled.rules import decode, encode, game_array
from meeple.games.squad_combat.compiled.transitions import act, settle
from meeple.games.squad_combat.content import DIE_FACES, PARTY_SIZE
from meeple.games.squad_combat.pieces import END_DISCARDS, SLOTS, STEP_KINDS
from meeple.games.squad_combat.rules import SquadCombatGame, SquadCombatState

compiled = kernel(nogil=True)
batched = kernel(nogil=True, parallel=True)

SEED_AT = S_SIZE
"""Where a row's seed starts: two ``int32`` words of an ``int64``, after the position."""
TO_ACT_AT = SEED_AT + 2
LAST_AT = TO_ACT_AT + 1
WINDOW_AT = LAST_AT + 1
"""The window of random streams: as a stream tape holds it from ``T_BASE`` on."""
ROW = WINDOW_AT + T_WORDS - T_BASE
STEPS = len(STEP_KINDS)
SPARE = 4
"""A window with fewer random events left than this is widened before a step."""

_SERVED = frozenset(
    {
        "players",
        "decks",
        "content",
        "hand_size",
        "first",
        "lead",
        "reactions",
        "reaction_prompts",
        "edge_windows",
        "end_draws",
        "turn_limit",
        "auto_steps",
    }
)
"""The options the batched rules play (all of Squad Combat's today); others are refused."""

# -- the observation's layout: where each part starts, for n seats and K kinds of card ------
(
    A_SEAT,
    A_TURN,
    A_STEP,
    A_FIRST,
    A_LEAD,
    A_PHASE,
    A_PASSED,
    A_HAND,
    A_DECK,
    A_OWN,
    A_DISCARDS,
    A_WOUNDS,
    A_CHARS,
    A_STACK,
    A_DROPPING,
    A_REFRESHING,
    A_DISCARDED,
    A_DISCARDING,
    A_CLOSING,
    A_RWINDOWS,
    A_WINNER,
    A_SIZE,
) = range(22)
CHAR = 10
"""Numbers per character: removed, life, energy, wounds, then the six faces."""
# within a stack entry, after on, player[+k] (n) and card (K): the fixed part
E_BY, E_NDUE, E_FIRST_DUE, E_CARDS_DUE = 0, 3, 4, 5
E_TARGET = 6  # then target[+k] (n), then target.<slot> (3), then the dice and bonuses:
E_BOOST, E_ASET, E_ADIE, E_DSET, E_DDIE, E_ABONUS, E_DBONUS, E_WOPEN = range(8)
MAX_BONUS = 6


def layout(n: int, kinds: int) -> np.ndarray:
    """Where each part of the observation starts (``A_*``), for ``n`` seats and ``kinds``
    cards; ``A_SIZE`` holds the size."""
    sizes = {
        A_SEAT: n,
        A_TURN: 1,
        A_STEP: STEPS,
        A_FIRST: n,
        A_LEAD: n,
        A_PHASE: n,
        A_PASSED: n,
        A_HAND: n,
        A_DECK: n,
        A_OWN: kinds,
        A_DISCARDS: n * kinds,
        A_WOUNDS: n * kinds,
        A_CHARS: n * PARTY_SIZE * CHAR,
        A_STACK: fr.MAX_STACK * _entry(n, kinds),
        A_DROPPING: PARTY_SIZE,
        A_REFRESHING: PARTY_SIZE,
        A_DISCARDED: 1,
        A_DISCARDING: n,
        A_CLOSING: n,
        A_RWINDOWS: n,
        A_WINNER: n,
    }
    at = np.zeros(A_SIZE + 1, dtype=np.int64)
    for part in range(A_SIZE):
        at[part + 1] = at[part] + sizes[part]
    return at


def _entry(n: int, kinds: int) -> int:
    """Numbers per stack entry."""
    return 1 + n + kinds + E_TARGET + n + PARTY_SIZE + E_WOPEN + 1 + n


@compiled
def _observe(
    s: np.ndarray,
    g: np.ndarray,
    seat: int,
    at: np.ndarray,
    copies: np.ndarray,
    lengths: np.ndarray,
    out: np.ndarray,
) -> None:
    n = copies.shape[0]
    kinds = copies.shape[1]
    out[:] = 0.0
    out[at[A_SEAT] + seat] = 1.0
    limit = g[fr.G_TURN_LIMIT]
    out[at[A_TURN]] = min(s[S_TURN], limit) / limit
    kind, _ = find_step(s, g)
    out[at[A_STEP] + kind] = 1.0
    out[at[A_FIRST] + (s[S_ORDER] - seat) % n] = 1.0
    out[at[A_LEAD] + (s[S_LEAD] - seat) % n] = 1.0
    out[at[A_PHASE] + (s[S_PHASE] - seat) % n] = 1.0
    for q in range(n):
        rel = (q - seat) % n
        out[at[A_PASSED] + rel] = s[S_PASSED + q]
        length = max(1, lengths[q])
        out[at[A_HAND] + rel] = s[S_HANDN + q] / length
        out[at[A_DECK] + rel] = s[S_DECKN + q] / length
        # counts first, as whole numbers (exact in float32), then over the copies
        pile = at[A_DISCARDS] + rel * kinds
        for i in range(s[S_DISCN + q]):
            out[pile + s[S_DISCARDS + q * MAX_CARDS + i]] += 1.0
        for slot in range(PARTY_SIZE):
            c = ch(q, slot)
            base = at[A_CHARS] + (rel * PARTY_SIZE + slot) * CHAR
            who = s[c + CH_CARD] * CHARACTER_SIZE + G_CHARACTERS
            life, energy = g[who + LIFE], g[who + ENERGY]
            hurt = 0
            for w in range(s[c + CH_NWOUNDS]):
                k = s[c + CH_WOUNDS + 2 * w]
                owner = s[c + CH_WOUNDS + 2 * w + 1]
                hurt += g[card_at(k) + C_DAMAGE]
                out[at[A_WOUNDS] + ((owner - seat) % n) * kinds + k] += 1.0
            out[base] = 1.0 if s[c + CH_REMOVED] != 0 else 0.0
            out[base + 1] = max(0, life - hurt) / max(1, life)
            out[base + 2] = max(0, energy - s[c + CH_SPENT]) / max(1, energy)
            out[base + 3] = s[c + CH_NWOUNDS] / MAX_WOUNDS
            for d in range(s[c + CH_NDICE]):
                out[base + 3 + s[c + CH_DICE + d]] += 1.0
            for face in range(DIE_FACES):
                out[base + 4 + face] = out[base + 4 + face] / MAX_DICE
    for q in range(n):
        rel = (q - seat) % n
        for k in range(kinds):
            i = at[A_DISCARDS] + rel * kinds + k
            out[i] = out[i] / max(1, copies[q, k])
            i = at[A_WOUNDS] + rel * kinds + k
            out[i] = out[i] / max(1, copies[q, k])
    for k in range(kinds):
        out[at[A_OWN] + k] = s[S_HANDS + seat * MAX_KINDS + k] / max(1, copies[seat, k])
    size = 1 + n + kinds + E_TARGET + n + PARTY_SIZE + E_WOPEN + 1 + n
    for e in range(s[S_NSTACK]):
        p = S_STACK + e * PERF_SIZE
        base = at[A_STACK] + e * size
        out[base] = 1.0
        out[base + 1 + (s[p + P_PLAYER] - seat) % n] = 1.0
        out[base + 1 + n + s[p + P_CARD]] = 1.0
        fixed = base + 1 + n + kinds
        out[fixed + E_BY + s[p + P_SLOT]] = 1.0
        out[fixed + E_NDUE] = s[p + P_NDUE] / MAX_DUE
        if s[p + P_NDUE] > 0:
            out[fixed + E_FIRST_DUE] = s[p + P_DUE] / DIE_FACES
        out[fixed + E_CARDS_DUE] = min(s[p + P_CARDS_DUE], MAX_DUE) / MAX_DUE
        if s[p + P_TSEAT] >= 0:
            out[fixed + E_TARGET + (s[p + P_TSEAT] - seat) % n] = 1.0
            out[fixed + E_TARGET + n + s[p + P_TSLOT]] = 1.0
        dice = fixed + E_TARGET + n + PARTY_SIZE
        out[dice + E_BOOST] = max(0, s[p + P_BOOST]) / DIE_FACES
        out[dice + E_ASET] = 1.0 if s[p + P_ADIE] >= 0 else 0.0
        out[dice + E_ADIE] = max(0, s[p + P_ADIE]) / DIE_FACES
        out[dice + E_DSET] = 1.0 if s[p + P_DDIE] >= 0 else 0.0
        out[dice + E_DDIE] = max(0, s[p + P_DDIE]) / DIE_FACES
        out[dice + E_ABONUS] = min(max(0, s[p + P_ABONUS]), MAX_BONUS) / MAX_BONUS
        out[dice + E_DBONUS] = min(max(0, s[p + P_DBONUS]), MAX_BONUS) / MAX_BONUS
        out[dice + E_WOPEN] = 1.0 if s[p + P_NWIN] >= 0 else 0.0
        for w in range(s[p + P_NWIN]):
            out[dice + E_WOPEN + 1 + (s[p + P_WIN + w] - seat) % n] = 1.0
    if s[S_DROPPING] >= 0:
        out[at[A_DROPPING] + s[S_DROPPING]] = 1.0
    if s[S_REFRESHING] >= 0:
        out[at[A_REFRESHING] + s[S_REFRESHING]] = 1.0
    out[at[A_DISCARDED]] = min(s[S_DISCARDED], END_DISCARDS) / END_DISCARDS
    _queue(s, S_NDISCARDING, S_DISCARDING, seat, n, out[at[A_DISCARDING] :])
    _queue(s, S_NCLOSING, S_CLOSING, seat, n, out[at[A_CLOSING] :])
    _queue(s, S_NREFRESH_WINDOWS, S_REFRESH_WINDOWS, seat, n, out[at[A_RWINDOWS] :])
    if s[S_WINNER] >= 0:
        out[at[A_WINNER] + (s[S_WINNER] - seat) % n] = 1.0


@compiled
def _queue(s: np.ndarray, count: int, start: int, seat: int, n: int, out: np.ndarray) -> None:
    # 1 for each seat of a queue, from ``seat``'s side
    for i in range(s[count]):
        out[(s[start + i] - seat) % n] = 1.0


@compiled
def _observer(row: np.ndarray) -> int:
    """The seat a row is observed by: the seat to act, else the last mover."""
    seat = row[TO_ACT_AT]
    return seat if seat >= 0 else row[LAST_AT]


@batched
def _observe_all(
    states: np.ndarray,
    g: np.ndarray,
    at: np.ndarray,
    copies: np.ndarray,
    lengths: np.ndarray,
    out: np.ndarray,
) -> None:
    for b in prange(states.shape[0]):
        row = states[b]
        _observe(row[:S_SIZE], g, _observer(row), at, copies, lengths, out[b])


@batched
def _look_all(
    states: np.ndarray,
    g: np.ndarray,
    at: np.ndarray,
    copies: np.ndarray,
    lengths: np.ndarray,
    scratch: np.ndarray,
    masks: np.ndarray,
    observations: np.ndarray,
    seats: np.ndarray,
) -> None:
    # Masks, observations and seats in one pass over the batch.
    for b in prange(states.shape[0]):
        row = states[b]
        s = row[:S_SIZE]
        masks[b, :] = False
        kind, seat = find_step(s, g)
        if seat >= 0:
            count = legal_for(s, g, kind, seat, scratch[b])
            for i in range(count):
                masks[b, scratch[b, i]] = True
        seats[b] = seat
        _observe(s, g, _observer(row), at, copies, lengths, observations[b])


@batched
def _step_all(
    states: np.ndarray,
    actions: np.ndarray,
    g: np.ndarray,
    scratch: np.ndarray,
    tapes: np.ndarray,
    backup: np.ndarray,
    rewards: np.ndarray,
    done: np.ndarray,
    illegal: np.ndarray,
    missing: np.ndarray,
) -> None:
    for b in prange(states.shape[0]):
        rewards[b, :] = 0.0
        done[b] = False
        illegal[b] = True
        missing[b] = False
        row = states[b]
        s = row[:S_SIZE]
        kind, seat = find_step(s, g)
        if seat < 0:
            continue
        action = np.int32(actions[b])
        count = legal_for(s, g, kind, seat, scratch[b])
        for i in range(count):
            if scratch[b, i] == action:
                illegal[b] = False
                break
        if illegal[b]:
            continue
        backup[b, :] = s
        tape = tapes[b]
        tape[T_MODE] = STREAM
        tape[T_CURSOR] = 0
        tape[T_MISSING] = 0
        tape[T_BASE:T_WORDS] = row[WINDOW_AT:ROW]
        act(s, g, seat, action, kind, tape)
        settle(s, g, tape, scratch[b])
        if tape[T_MISSING]:
            # an event beyond the window: put the game back for the caller to widen it
            s[:] = backup[b]
            missing[b] = True
            continue
        row[LAST_AT] = seat
        row[TO_ACT_AT] = find_step(s, g)[1]
        if s[S_ENDED] != END_NONE:
            done[b] = True
            winner = s[S_WINNER]
            if winner >= 0:
                for p in range(rewards.shape[1]):
                    rewards[b, p] = 1.0 if p == winner else -1.0


@compiled
def _below(words: np.ndarray, cursor: np.ndarray, n: int) -> int:
    # random.Random._randbelow(n) over a stream's words.
    k = 0
    while (n >> k) > 0:
        k += 1
    while True:
        at = cursor[0]
        if at >= words.shape[0]:
            raise ValueError("the engine's random words ran out")
        cursor[0] = at + 1
        r = words[at] >> (32 - k)
        if r < n:
            return r


@batched
def _initials(
    template: np.ndarray,
    streams: np.ndarray,
    first: int,
    decklists: np.ndarray,
    lengths: np.ndarray,
    pools: np.ndarray,
    hand_size: int,
    out: np.ndarray,
) -> None:
    # new_game: the first seat, each deck shuffled and its hand drawn, each party's dice.
    n = decklists.shape[0]
    for b in prange(out.shape[0]):
        row = out[b]
        row[:] = 0
        row[:S_SIZE] = template
        words = np.empty(WORDS, dtype=np.int64)
        cursor = np.zeros(1, dtype=np.int64)
        seat0 = first
        if seat0 < 0:
            first_words(streams[b, 0], START, words)
            seat0 = _below(words, cursor, n)
        for k in range(n):
            row[S_ORDER + k] = (seat0 + k) % n
        row[S_LEAD] = seat0
        row[S_PHASE] = seat0
        for seat in range(n):
            size = lengths[seat]
            deck = decklists[seat, :size].copy()
            first_words(streams[b, 1 + seat], START, words)
            cursor[0] = 0
            for i in range(size - 1, 0, -1):
                j = _below(words, cursor, i + 1)
                deck[i], deck[j] = deck[j], deck[i]
            cut = max(0, size - hand_size)  # the top card is the last
            for i in range(cut):
                row[S_DECKS + seat * MAX_CARDS + i] = deck[i]
            row[S_DECKN + seat] = cut
            for i in range(cut, size):
                row[S_HANDS + seat * MAX_KINDS + deck[i]] += 1
            row[S_HANDN + seat] = size - cut
            first_words(streams[b, 1 + n + seat], START, words)
            cursor[0] = 0
            for slot in range(PARTY_SIZE):
                c = ch(seat, slot)
                for _ in range(pools[seat, slot]):
                    value = 1 + _below(words, cursor, DIE_FACES)
                    i = row[c + CH_NDICE]  # sorted as it goes: lowest first
                    while i > 0 and row[c + CH_DICE + i - 1] > value:
                        row[c + CH_DICE + i] = row[c + CH_DICE + i - 1]
                        i -= 1
                    row[c + CH_DICE + i] = value
                    row[c + CH_NDICE] += 1
        row[TO_ACT_AT] = seat0
        row[LAST_AT] = seat0


def row_seeds(states: np.ndarray) -> np.ndarray:
    """The seed each row's game was dealt from."""
    return seeds_in(states, SEED_AT)


class SquadCombatBatch:
    """:class:`meeple.core.batch.BatchRules` for one Squad Combat configuration: every
    option and content the compiled rules serve (the module says what each array holds)."""

    state_dtype = np.int32
    """Rows are the compiled rules' ``int32`` positions, with more after them."""

    def __init__(self, game: SquadCombatGame) -> None:
        if not isinstance(game, SquadCombatGame):
            raise MeepleError(f"SquadCombatBatch takes Squad Combat, not {game.title}")
        unknown = sorted(set(type(game.options).model_fields) - _SERVED)
        if unknown:
            raise MeepleError(
                f"the batched Squad Combat rules do not serve option {', '.join(unknown)}; "
                f"they serve {', '.join(sorted(_SERVED))}"
            )
        try:
            self._g = game_array(game)
        except ValueError as exc:
            raise MeepleError(str(exc)) from None
        n, kinds = game.num_players, len(game.cards)
        self.game = game
        self.num_players = n
        self.num_actions = game.num_actions
        self.state_size = ROW
        self._at = layout(n, kinds)
        self.observation_size = int(self._at[A_SIZE])
        self._copies = _copies(game)
        self._lengths = np.array([len(d) for d in game.decklists], dtype=np.int64)
        self._decklists = np.zeros((n, MAX_CARDS), dtype=np.int32)
        for seat, deck in enumerate(game.decklists):
            self._decklists[seat, : len(deck)] = deck
        self._pools = np.array(
            [[game.characters[c].dice_pool for c in party] for party in game.parties],
            dtype=np.int32,
        )
        first = game.options.first
        self._first = -1 if first == "random" else int(first)
        template = encode(game.new_game(0))
        # what a seed deals is written by the kernel: nothing of seed 0's may stay
        template[S_HANDS : S_HANDN + n] = 0
        template[S_DECKS:S_DISCN] = 0
        for seat in range(n):
            for slot in range(PARTY_SIZE):
                c = ch(seat, slot)
                template[c + CH_NDICE : c + CH_NWOUNDS] = 0
        self._template = template
        self._scratch = np.empty((0, fr.MAX_ACTIONS), dtype=np.int32)
        self._tapes = np.zeros((0, TAPE_SIZE), dtype=np.int32)
        self._backup = np.empty((0, S_SIZE), dtype=np.int32)

    def _buffers(self, batch: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._scratch.shape[0] < batch:
            self._scratch = np.empty((batch, fr.MAX_ACTIONS), dtype=np.int32)
            self._tapes = np.zeros((batch, TAPE_SIZE), dtype=np.int32)
            self._backup = np.empty((batch, S_SIZE), dtype=np.int32)
        return self._scratch[:batch], self._tapes[:batch], self._backup[:batch]

    def initial(self, seed: int) -> np.ndarray:
        """The row of the readable rules' ``new_game(seed)``."""
        return self.initials(np.array([seed], dtype=np.int64))[0]

    def initials(self, seeds: np.ndarray) -> np.ndarray:
        """``(len(seeds), state_size)``: each seed's deal, in one compiled call from the
        engine's streams (their seeds derived here, as :func:`make_rng` derives them)."""
        n = self.num_players
        streams = np.array(
            [
                [derive_seed(int(s), "squad-combat", "first")]
                + [derive_seed(int(s), "squad-combat", "deck", p) for p in range(n)]
                + [derive_seed(int(s), "squad-combat", "setup-dice", p) for p in range(n)]
                for s in seeds
            ],
            dtype=np.uint64,
        ).reshape(-1, 1 + 2 * n)
        out = np.empty((len(seeds), ROW), dtype=np.int32)
        _initials(
            self._template,
            streams,
            self._first,
            self._decklists,
            self._lengths,
            self._pools,
            self.game.options.hand_size,
            out,
        )
        out[:, SEED_AT:TO_ACT_AT] = seed_words(np.asarray(seeds, dtype=np.int64), np.int32)
        return out

    def row(self, state: SquadCombatState) -> np.ndarray:
        """The row of a readable state (its seed included; the window of streams empty)."""
        out = np.zeros(ROW, dtype=np.int32)
        out[:S_SIZE] = encode(state)
        out[SEED_AT:TO_ACT_AT] = seed_words(np.array([state.seed]), np.int32)[0]
        out[TO_ACT_AT] = state.to_act[0] if state.to_act else -1
        out[LAST_AT] = max(0, out[TO_ACT_AT])
        return out

    def decode(self, row: np.ndarray) -> SquadCombatState:
        """The readable rules' state of one row, its seed included."""
        return decode(self.game, row[:S_SIZE], int(row_seeds(row[None, :])[0]))

    def to_act(self, states: np.ndarray) -> np.ndarray:
        """``(B,)`` the seat to act in each game; -1 where it is over."""
        return states[:, TO_ACT_AT].astype(np.int64)

    def masks(self, states: np.ndarray, out: np.ndarray) -> None:
        """``(B, A)``: the legal action ids of the seat to act."""
        obs = np.empty((states.shape[0], self.observation_size), dtype=np.float32)
        self.look(states, out, obs)

    def step(
        self, states: np.ndarray, actions: np.ndarray, rewards: np.ndarray, done: np.ndarray
    ) -> np.ndarray:
        """Play each game's action in place (see :class:`meeple.core.batch.BatchRules`);
        ``(B,)`` True where it was not legal (that game is left as it was)."""
        actions = np.asarray(actions, dtype=np.int64)
        batch = states.shape[0]
        # windows about to run out are widened first: a step seldom meets more than
        # SPARE events, and each game stepped again is a kernel call more
        left = states[:, WINDOW_AT] + states[:, WINDOW_AT + 1] - states[:, S_ROLLS]
        short = np.flatnonzero(left < SPARE)
        if len(short):
            part = states[short]
            self._widen(part)
            states[short] = part
        illegal = np.empty(batch, dtype=np.bool_)
        missing = np.empty(batch, dtype=np.bool_)
        _step_all(states, actions, self._g, *self._buffers(batch), rewards, done, illegal, missing)
        if missing.any():
            # met a random event its window did not reach: widen the window, step again
            games = np.flatnonzero(missing)
            part = states[games]
            self._widen(part)
            part_rewards = np.zeros((len(games), rewards.shape[1]), dtype=rewards.dtype)
            part_done = np.empty(len(games), dtype=np.bool_)
            part_illegal = np.empty(len(games), dtype=np.bool_)
            again = np.empty(len(games), dtype=np.bool_)
            _step_all(
                part,
                actions[games],
                self._g,
                *self._buffers(len(games)),
                part_rewards,
                part_done,
                part_illegal,
                again,
            )
            if again.any():  # a fresh window holds MAX_EVENTS events
                raise MeepleError(f"a step met more than {MAX_EVENTS} random events")
            states[games] = part
            rewards[games] = part_rewards
            done[games] = part_done
            illegal[games] = part_illegal
        return illegal

    def _widen(self, rows: np.ndarray) -> None:
        """Give each row the seeds of its next :data:`MAX_EVENTS` random events."""
        for row, seed in zip(rows, row_seeds(rows).tolist(), strict=True):
            rolls = int(row[S_ROLLS])
            # derive_seed(seed, "squad-combat", purpose, event), its formula written out: this
            # is the step's one Python loop per game, and the calls took half its time
            # (a test holds the two equal)
            seeds = [
                int.from_bytes(
                    blake2b(
                        f"{seed}/squad-combat/{purpose}/{event}".encode(), digest_size=8
                    ).digest(),
                    "big",
                )
                >> 1
                for event in range(rolls + 1, rolls + 1 + MAX_EVENTS)
                for purpose in ("refresh", "reshuffle")
            ]
            row[WINDOW_AT] = rolls
            row[WINDOW_AT + 1] = MAX_EVENTS
            row[WINDOW_AT + 2 : ROW] = np.array(seeds, dtype="<i8").view("<i4")

    def observe(self, states: np.ndarray, out: np.ndarray) -> None:
        """``(B, observation_size)``: the observation of the seat to act (the last mover's
        where a game is over)."""
        _observe_all(states, self._g, self._at, self._copies, self._lengths, out)

    def look(self, states: np.ndarray, masks: np.ndarray, observations: np.ndarray) -> np.ndarray:
        """:meth:`masks` and :meth:`observe` in one pass; returns :meth:`to_act`."""
        seats = np.empty(states.shape[0], dtype=np.int64)
        scratch = self._buffers(states.shape[0])[0]
        _look_all(
            states,
            self._g,
            self._at,
            self._copies,
            self._lengths,
            scratch,
            masks,
            observations,
            seats,
        )
        return seats

    def observation_slots(self) -> list[str]:
        """The name of every slot (the module docstring says what each holds)."""
        return observation_slots(self.game)

    def observation_of_view(self, view: dict[str, Any], seat: int) -> np.ndarray:
        """``seat``'s observation from its view of the readable rules (``state.view(seat)``):
        what :meth:`observe` gives that seat, for the one-game adapters."""
        return observation_of_view(self.game, view, seat)


def _copies(game: SquadCombatGame) -> np.ndarray:
    """``(n, K)`` the copies of each card in each seat's deck list."""
    out = np.zeros((game.num_players, len(game.cards)), dtype=np.int64)
    for seat, deck in enumerate(game.decklists):
        for k in deck:
            out[seat, k] += 1
    return out


def observation_slots(game: SquadCombatGame) -> list[str]:
    """The name of every slot of an observation, in order."""
    n = game.num_players
    cards = game.card_keys
    seats = [f"[+{k}]" for k in range(n)]
    slots = [f"seat.{i}" for i in range(n)] + ["turn"]
    slots += [f"step.{kind.replace(' ', '-')}" for kind in STEP_KINDS]
    for part in ("first", "lead", "phase", "passed", "hand", "deck"):
        slots += [f"{part}{r}" for r in seats]
    slots += [f"own.{c}" for c in cards]
    for part in ("discards", "wounds"):
        slots += [f"{part}{r}.{c}" for r in seats for c in cards]
    faces = [f"dice.{v}" for v in range(1, DIE_FACES + 1)]
    for r in seats:
        for slot in SLOTS:
            at = f"char{r}.{slot}"
            slots += [f"{at}.{x}" for x in ("removed", "life", "energy", "wounds", *faces)]
    for e in range(fr.MAX_STACK):
        at = f"stack[{e}]"
        slots += [f"{at}.on", *(f"{at}.player{r}" for r in seats)]
        slots += [f"{at}.card.{c}" for c in cards] + [f"{at}.by.{x}" for x in SLOTS]
        slots += [f"{at}.{x}" for x in ("dice_due", "first_due", "cards_due")]
        slots += [f"{at}.target{r}" for r in seats] + [f"{at}.target.{x}" for x in SLOTS]
        slots += [
            f"{at}.{x}"
            for x in (
                "boost",
                "attack_set",
                "attack",
                "defense_set",
                "defense",
                "attack_bonus",
                "defense_bonus",
                "windows_open",
            )
        ]
        slots += [f"{at}.windows{r}" for r in seats]
    slots += [f"dropping.{x}" for x in SLOTS] + [f"refreshing.{x}" for x in SLOTS]
    slots += ["discarded"]
    for part in ("discarding", "closing", "refresh_windows", "winner"):
        slots += [f"{part}{r}" for r in seats]
    return slots


def observation_of_view(game: SquadCombatGame, view: dict[str, Any], seat: int) -> np.ndarray:
    """The observation of :class:`SquadCombatBatch` for ``seat``, computed from that seat's
    view of the readable rules (``state.view(seat)``): the same numbers, by another road."""
    n, kinds = game.num_players, len(game.cards)
    at = layout(n, kinds)
    copies = _copies(game)
    lengths = [max(1, len(d)) for d in game.decklists]
    index = game.content.card_index
    out = np.zeros(int(at[A_SIZE]), dtype=np.float32)

    def rel(q: int) -> int:
        return (q - seat) % n

    def over(count: int, whole: int) -> float:
        return count / max(1, whole)

    out[at[A_SEAT] + seat] = 1.0
    limit = game.options.turn_limit
    out[at[A_TURN]] = min(view["turn"], limit) / limit
    out[at[A_STEP] + STEP_KINDS.index(view["step"]["kind"])] = 1.0
    out[at[A_FIRST] + rel(view["order"][0])] = 1.0
    out[at[A_LEAD] + rel(view["lead"])] = 1.0
    out[at[A_PHASE] + rel(view["phase"])] = 1.0
    under: Counter[tuple[int, int]] = Counter(
        (w["owner"], index[w["card"]])
        for party in view["characters"]
        for ch_view in party
        for w in ch_view["wounds"]
    )
    for q in range(n):
        out[at[A_PASSED] + rel(q)] = float(view["passed"][q])
        out[at[A_HAND] + rel(q)] = view["hand_sizes"][q] / lengths[q]
        out[at[A_DECK] + rel(q)] = view["deck_sizes"][q] / lengths[q]
        pile = Counter(index[c] for c in view["discards"][q])
        for k in range(kinds):
            out[at[A_DISCARDS] + rel(q) * kinds + k] = over(pile[k], copies[q, k])
            out[at[A_WOUNDS] + rel(q) * kinds + k] = over(under[q, k], copies[q, k])
        for slot, ch_view in enumerate(view["characters"][q]):
            base = at[A_CHARS] + (rel(q) * PARTY_SIZE + slot) * CHAR
            life, energy = ch_view["life"], ch_view["energy"]
            out[base] = float(ch_view["removed"])
            out[base + 1] = max(0, life - ch_view["damage"]) / max(1, life)
            out[base + 2] = max(0, energy - ch_view["spent"]) / max(1, energy)
            out[base + 3] = len(ch_view["wounds"]) / MAX_WOUNDS
            for face in range(1, DIE_FACES + 1):
                out[base + 3 + face] = ch_view["dice"].count(face) / MAX_DICE
    held = Counter(index[c] for c in view["hand"])
    for k in range(kinds):
        out[at[A_OWN] + k] = over(held[k], copies[seat, k])
    size = _entry(n, kinds)
    for e, perf in enumerate(view["stack"]):
        base = int(at[A_STACK]) + e * size
        out[base] = 1.0
        out[base + 1 + rel(perf["player"])] = 1.0
        out[base + 1 + n + index[perf["card"]]] = 1.0
        fixed = base + 1 + n + kinds
        out[fixed + E_BY + SLOTS.index(perf["performer"][1])] = 1.0
        due = perf["dice_due"]
        out[fixed + E_NDUE] = len(due) / MAX_DUE
        if due:
            out[fixed + E_FIRST_DUE] = due[0] / DIE_FACES
        out[fixed + E_CARDS_DUE] = min(perf["cards_due"], MAX_DUE) / MAX_DUE
        if perf["target"] is not None:
            out[fixed + E_TARGET + rel(int(perf["target"][0]))] = 1.0
            out[fixed + E_TARGET + n + SLOTS.index(perf["target"][1])] = 1.0
        dice = fixed + E_TARGET + n + PARTY_SIZE
        out[dice + E_BOOST] = (perf["boost_die"] or 0) / DIE_FACES
        out[dice + E_ASET] = perf["attack_die"] is not None
        out[dice + E_ADIE] = (perf["attack_die"] or 0) / DIE_FACES
        out[dice + E_DSET] = perf["defense_die"] is not None
        out[dice + E_DDIE] = (perf["defense_die"] or 0) / DIE_FACES
        out[dice + E_ABONUS] = min(max(0, perf["attack_bonus"]), MAX_BONUS) / MAX_BONUS
        out[dice + E_DBONUS] = min(max(0, perf["defense_bonus"]), MAX_BONUS) / MAX_BONUS
        out[dice + E_WOPEN] = perf["windows"] is not None
        for q in perf["windows"] or ():
            out[dice + E_WOPEN + 1 + rel(q)] = 1.0
    if view["dropping"] >= 0:
        out[at[A_DROPPING] + view["dropping"]] = 1.0
    if view["refreshing"] >= 0:
        out[at[A_REFRESHING] + view["refreshing"]] = 1.0
    out[at[A_DISCARDED]] = min(view["discarded"], END_DISCARDS) / END_DISCARDS
    for part, key in (
        (A_DISCARDING, "discarding"),
        (A_CLOSING, "closing"),
        (A_RWINDOWS, "refresh_windows"),
    ):
        for q in view[key]:
            out[at[part] + rel(q)] = 1.0
    winner = view["result"]["winner"]
    if winner is not None:
        out[at[A_WINNER] + rel(winner)] = 1.0
    return out
