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

**The observation** is the seat to act's (or, once a game is over, the last mover's):
:mod:`.observation` says what each number holds.
"""

from __future__ import annotations

from hashlib import blake2b
from typing import Any

import numpy as np
from numba import prange

from meeple.core.batch import seed_words, seeds_in
from meeple.core.errors import MeepleError
from meeple.core.kernels import kernel
from meeple.core.mt import START, first_words
from meeple.core.options import unserved_refusal
from meeple.core.rng import derive_seed
from meeple.games.squad_combat.compiled import reading as fr
from meeple.games.squad_combat.compiled.observation import (
    A_SIZE,
    deck_copies,
    fill_observation,
    layout,
    observation_of_view,
    observation_slots,
)
from meeple.games.squad_combat.compiled.reading import (
    CH_DICE,
    CH_NDICE,
    CH_NWOUNDS,
    END_NONE,
    MAX_CARDS,
    MAX_EVENTS,
    MAX_KINDS,
    S_DECKN,
    S_DECKS,
    S_DISCN,
    S_ENDED,
    S_HANDN,
    S_HANDS,
    S_LEAD,
    S_ORDER,
    S_PHASE,
    S_ROLLS,
    S_SIZE,
    S_WINNER,
    STREAM,
    T_BASE,
    T_CURSOR,
    T_MISSING,
    T_MODE,
    T_WORDS,
    TAPE_SIZE,
    WORDS,
    ch,
    find_step,
    legal_for,
)
from meeple.games.squad_combat.compiled.rules import SERVED, decode, encode, game_array
from meeple.games.squad_combat.compiled.transitions import act, settle
from meeple.games.squad_combat.content import DIE_FACES, PARTY_SIZE
from meeple.games.squad_combat.pieces import STEP_KINDS
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
        fill_observation(row[:S_SIZE], g, _observer(row), at, copies, lengths, out[b])


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
        fill_observation(s, g, _observer(row), at, copies, lengths, observations[b])


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
        # The batched rules step the compiled rules' positions: the options they serve.
        refusal = unserved_refusal(game.options, SERVED, "batched Squad Combat rules")
        if refusal is not None:
            raise MeepleError(refusal)
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
        self._copies = deck_copies(game)
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
        """The name of every slot (:mod:`.observation` says what each holds)."""
        return observation_slots(self.game)

    def observation_of_view(self, view: dict[str, Any], seat: int) -> np.ndarray:
        """``seat``'s observation from its view of the readable rules (``state.view(seat)``):
        what :meth:`observe` gives that seat, for the one-game adapters."""
        return observation_of_view(self.game, view, seat)
