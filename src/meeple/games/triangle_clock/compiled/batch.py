"""The Triangle Clock batched: many games stepped at once on the compiled rules
(:mod:`.rules`), for the research environments (:mod:`meeple.core.batch` says what each
array holds; this game's decisions are simultaneous, so its arrays are per seat).

**Both seats act in one step.** ``actions`` is ``(B, 2)``: each seat's action id, taken
only from a seat still to submit in the open decision (``acting``); the other entry is
ignored. The two are applied in seat order, as the readable rules take them one by one
(the engine hides a submission until both are in, so the order changes nothing but the
deck's order when both seats take a Mulligan). A Mulligan is not a submission: the seat
that takes it is still to act in the next step, where the other seat, if it submitted, waits.

**Chance follows the engine exactly.** A row is the compiled position followed by the
game's seed (four ``int16`` words of an ``int64``), so each game deals as the readable
rules' ``new_game(seed)`` does (the deck and both orders of shared symbols shuffled from
the engine's streams, compiled: :func:`meeple.core.mt.fill_words`), and a reshuffle or a
Mulligan reads the words of the engine's own stream for it, as
:func:`.rules.reference_chance` gives them.

**The observation** of seat ``p`` is what that seat may know and nothing else, 336 numbers
in [0, 1], ``+0`` meaning the seat itself and ``+1`` the other seat
(:meth:`TriangleClockBatch.observation_slots` names each):

* ``round``: the round over 32; ``phase.memorise|first|second|third|over``: one-hot;
* ``waiting[+k]``: 1 while seat ``+k`` is yet to submit in the open decision;
* ``pending.A`` ... ``pending.H``, ``pending.palette-swap``, ``pending.right-angle``: the
  seat's own hidden submission (letter one-hot and items), while it waits for the other;
* ``shared.<symbol>``: this round's shared symbol, one-hot (none during a memorise step);
* ``order.<symbol>``: during a memorise step only, where the symbol stands in the order
  shown, ``(position + 1) / 16`` (afterwards remembering it is the learner's business:
  the order is no longer on the table);
* ``seen.<symbol>``: 1 for a shared symbol already revealed in the current block of 16;
* ``score[+k]``: the score over 32 times the ranking's highest strength;
* ``uses[+k].<item>``: uses left over the item's uses (0 for an item the seat lacks);
* ``hand.<letter>.<symbol>``: the printed symbol under each letter of the seat's own hand,
  one-hot (A/B the first card, ..., G/H the fourth; all zero for an empty slot);
* ``picked.<letter>``: 1/3, 2/3 or 1 for the letter the seat picked first, second, third
  this round;
* ``revealed[+k][j].<symbol>``, ``.palette-swap``, ``.right-angle``: seat ``+k``'s
  ``j``-th symbol revealed this round, as shown, and the items it used;
* ``deck``: cards in the deck over 112; ``reshuffles``: reshuffles so far over 4 (capped);
* ``discards.<symbol>``: cards on the face-up discard pile that bear the symbol, over 15.

Never in it: the other seat's hand or pending submission, the deck's order, shared symbols
not yet revealed (outside the memorise step that shows them). :func:`observation_of_view`
computes the same numbers from a seat's view of the readable rules (``state.view(seat)``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

from meeple.core.batch import seed_words, seeds_in
from meeple.core.errors import MeepleError
from meeple.core.kernels import kernel
from meeple.core.mt import START, fill_words
from meeple.core.rng import derive_seed
from meeple.games.triangle_clock.cards import (
    CARD_NAMES,
    CARDS,
    NUM_CARDS,
    NUM_SYMBOLS,
    SYMBOL_NAMES,
)
from meeple.games.triangle_clock.compiled.opponent import policy_actions
from meeple.games.triangle_clock.compiled.rules import (
    DECK,
    DECK_LEN,
    DISCARDS,
    HAND,
    HAND_SIZE,
    MAX_ACTIONS,
    MULL,
    MULLIGAN_ID,
    MULLIGAN_STREAM,
    ORDERS,
    OVER,
    PENDING,
    PHASE,
    PICKS,
    RESHUFFLE_STREAM,
    RESHUFFLES,
    ROUND,
    SCORE,
    SEAT_SIZE,
    SEATS_AT,
    SIZE,
    THIRD,
    USES,
    _revealed,
    _shuffle,
    apply,
    decode,
    encode,
    legal_actions,
    outcome,
    tables,
)
from meeple.games.triangle_clock.pieces import BLOCK, ITEM_LABELS, ITEM_USES, LETTERS, ROUNDS, Phase
from meeple.games.triangle_clock.rules import TriangleClockGame, TriangleClockState

compiled = kernel(nogil=True)
batched = kernel(nogil=True, parallel=True)

PLAYERS = 2
SEED_AT = SIZE
"""Where a row's seed starts: four ``int16`` words of an ``int64``, after the position."""
ROW = SIZE + 4
MEMORISE_PHASE = int(Phase.MEMORISE)
WORDS = 1248
"""Engine words read per shuffle: two twists of the Mersenne Twister, far more than a
shuffle of the 120 cards takes (about 170); running out raises rather than guesses."""
MAX_DECK = NUM_CARDS - PLAYERS * HAND_SIZE
MAX_RESHUFFLES = 4
CARDS_PER_SYMBOL = NUM_SYMBOLS - 1
_USES = np.array(ITEM_USES, dtype=np.float64)

# -- the observation's slots ----------------------------------------------------------------
O_ROUND = 0
O_PHASE = 1
O_WAITING = O_PHASE + 5
O_PENDING = O_WAITING + 2
O_SHARED = O_PENDING + 10
O_ORDER = O_SHARED + NUM_SYMBOLS
O_SEEN = O_ORDER + NUM_SYMBOLS
O_SCORE = O_SEEN + NUM_SYMBOLS
O_USES = O_SCORE + 2
O_HAND = O_USES + 6
O_PICKED = O_HAND + 8 * NUM_SYMBOLS
O_REVEALED = O_PICKED + 8
REVEAL = NUM_SYMBOLS + 2
O_DECK = O_REVEALED + 2 * 3 * REVEAL
O_RESHUFFLES = O_DECK + 1
O_DISCARDS = O_RESHUFFLES + 1
OBSERVATION_SIZE = O_DISCARDS + NUM_SYMBOLS
"""336 numbers per seat."""


@compiled
def _acting(state: np.ndarray, p: int) -> bool:
    return state[PHASE] != OVER and state[SEATS_AT + p * SEAT_SIZE + PENDING] < 0


@compiled
def _observe(
    state: np.ndarray, p: int, cards: np.ndarray, score_scale: float, out: np.ndarray
) -> None:
    out[:] = 0.0
    phase = state[PHASE]
    rnd = min(state[ROUND], ROUNDS)
    me = SEATS_AT + p * SEAT_SIZE
    out[O_ROUND] = rnd / ROUNDS
    out[O_PHASE + phase] = 1.0
    for k in range(PLAYERS):
        if _acting(state, (p + k) % PLAYERS):
            out[O_WAITING + k] = 1.0
    own = state[me + PENDING]
    if own >= 0 and phase != MEMORISE_PHASE and phase != OVER:
        out[O_PENDING + (own >> 2)] = 1.0
        out[O_PENDING + 8] = own & 1
        out[O_PENDING + 9] = (own >> 1) & 1
    block = (rnd - 1) // BLOCK
    if phase != MEMORISE_PHASE and phase != OVER:
        out[O_SHARED + state[ORDERS + rnd - 1]] = 1.0
    if phase == MEMORISE_PHASE:
        for i in range(BLOCK):
            out[O_ORDER + state[ORDERS + block * BLOCK + i]] = (i + 1) / BLOCK
    # shared symbols of this block revealed so far (the readable rules' revealed_in_block)
    known = BLOCK if phase == OVER else (rnd - 1) % BLOCK + (phase != MEMORISE_PHASE)
    for i in range(known):
        out[O_SEEN + state[ORDERS + block * BLOCK + i]] = 1.0
    for k in range(PLAYERS):
        base = SEATS_AT + ((p + k) % PLAYERS) * SEAT_SIZE
        out[O_SCORE + k] = state[base + SCORE] / score_scale
        for i in range(3):
            out[O_USES + 3 * k + i] = state[base + USES + i] / _USES[i]
        for j in range(3):
            pick = state[base + PICKS + j]
            if pick >= 0:
                at = O_REVEALED + (3 * k + j) * REVEAL
                out[at + _revealed(state, base, pick, cards)] = 1.0
                out[at + NUM_SYMBOLS] = pick & 1
                out[at + NUM_SYMBOLS + 1] = (pick >> 1) & 1
                if k == 0:
                    out[O_PICKED + (pick >> 2)] = (j + 1) / 3
    for slot in range(HAND_SIZE):
        card = state[me + HAND + slot]
        if card >= 0:
            for side in range(2):
                out[O_HAND + (2 * slot + side) * NUM_SYMBOLS + cards[card, side]] = 1.0
    out[O_DECK] = state[DECK_LEN] / MAX_DECK
    out[O_RESHUFFLES] = min(state[RESHUFFLES], MAX_RESHUFFLES) / MAX_RESHUFFLES
    counts = np.zeros(NUM_SYMBOLS, dtype=np.int64)
    for c in range(NUM_CARDS):
        if state[DISCARDS + c]:
            counts[cards[c, 0]] += 1
            counts[cards[c, 1]] += 1
    for s in range(NUM_SYMBOLS):
        out[O_DISCARDS + s] = counts[s] / CARDS_PER_SYMBOL


@batched
def _look_all(
    states: np.ndarray,
    cards: np.ndarray,
    score_scale: float,
    scratch: np.ndarray,
    masks: np.ndarray,
    observations: np.ndarray,
    acting: np.ndarray,
) -> None:
    # Masks, observations and who acts, in one pass over the batch.
    for b in prange(states.shape[0]):
        state = states[b]
        for p in range(PLAYERS):
            masks[b, p, :] = False
            count = legal_actions(state, p, scratch[b])
            for i in range(count):
                masks[b, p, scratch[b, i]] = True
            acting[b, p] = _acting(state, p)
            _observe(state, p, cards, score_scale, observations[b, p])


@batched
def _observe_all(
    states: np.ndarray, cards: np.ndarray, score_scale: float, out: np.ndarray
) -> None:
    for b in prange(states.shape[0]):
        for p in range(PLAYERS):
            _observe(states[b], p, cards, score_scale, out[b, p])


@batched
def _step_all(
    states: np.ndarray,
    actions: np.ndarray,
    chance_seeds: np.ndarray,
    need: np.ndarray,
    cards: np.ndarray,
    power: np.ndarray,
    strength: np.ndarray,
    rules: np.ndarray,
    start: np.ndarray,
    scratch: np.ndarray,
    rewards: np.ndarray,
    done: np.ndarray,
    illegal: np.ndarray,
) -> None:
    for b in prange(states.shape[0]):
        rewards[b, :] = 0.0
        done[b] = False
        illegal[b] = False
        state = states[b, :SIZE]
        acts = np.zeros(PLAYERS, dtype=np.bool_)
        for p in range(PLAYERS):
            acts[p] = _acting(state, p)
            if not acts[p]:
                continue
            count = legal_actions(state, p, scratch[b])
            found = False
            for i in range(count):
                if scratch[b, i] == actions[b, p]:
                    found = True
            if not found:
                illegal[b] = True
        if illegal[b] or not (acts[0] or acts[1]):
            illegal[b] = True
            continue
        first_reshuffle = state[RESHUFFLES]
        no_chance = np.zeros((2, 0), dtype=np.int64)
        for p in range(PLAYERS):
            if not acts[p]:
                continue
            action = actions[b, p]
            chance = no_chance
            if action == MULLIGAN_ID or need[b]:
                chance = np.zeros((2, WORDS), dtype=np.int64)
                if action == MULLIGAN_ID:
                    fill_words(chance_seeds[b, 2 + p], start, chance[MULLIGAN_STREAM])
                if need[b] and state[DECK_LEN] < HAND_SIZE:
                    k = state[RESHUFFLES] - first_reshuffle
                    fill_words(chance_seeds[b, k], start, chance[RESHUFFLE_STREAM])
            apply(state, p, action, cards, power, strength, rules, chance)
        if state[PHASE] == OVER:
            done[b] = True
            winner = outcome(state, rules)
            if winner >= 0:
                rewards[b, winner] = 1.0
                rewards[b, 1 - winner] = -1.0


@batched
def _initials(template: np.ndarray, seeds: np.ndarray, start: np.ndarray, out: np.ndarray) -> None:
    # new_game: the deck shuffled under stream "deck", each block's order under its own.
    for b in prange(out.shape[0]):
        row = out[b]
        row[:SIZE] = template
        words = np.empty((1, WORDS), dtype=np.int64)
        cursor = np.zeros(1, dtype=np.int64)
        fill_words(seeds[b, 0], start, words[0])
        deck = np.arange(NUM_CARDS).astype(np.int16)
        _shuffle(deck, NUM_CARDS, words, cursor, 0)
        for p in range(PLAYERS):
            for k in range(HAND_SIZE):
                row[SEATS_AT + p * SEAT_SIZE + HAND + k] = deck[p * HAND_SIZE + k]
        for i in range(MAX_DECK):
            row[DECK + i] = deck[NUM_CARDS - 1 - i]
        for block in range(ROUNDS // BLOCK):
            cursor[0] = 0
            fill_words(seeds[b, 1 + block], start, words[0])
            order = np.arange(NUM_SYMBOLS).astype(np.int16)
            _shuffle(order, NUM_SYMBOLS, words, cursor, 0)
            for i in range(NUM_SYMBOLS):
                row[ORDERS + block * BLOCK + i] = order[i]


def row_seeds(states: np.ndarray) -> np.ndarray:
    """The seed each row's game was dealt from."""
    return seeds_in(states, SEED_AT)


class TriangleClockBatch:
    """:class:`meeple.core.batch.BatchRules` for one Triangle Clock configuration: every
    option the compiled rules serve (the module says what each array holds)."""

    simultaneous = True
    opponents = ("policy",)
    """The batched opponents this game offers besides ``random``
    (:class:`~meeple.envs.opponent.OpponentVecEnv`): ``policy``, the compiled guided policy
    choosing from its own seat's determinization (:mod:`.opponent`)."""

    def __init__(self, game: TriangleClockGame) -> None:
        if not isinstance(game, TriangleClockGame):
            raise MeepleError(f"TriangleClockBatch takes The Triangle Clock, not {game.title}")
        try:
            self._tables = tables(game)
        except ValueError as exc:
            raise MeepleError(str(exc)) from None
        self.game = game
        self.num_players = PLAYERS
        self.num_actions = game.num_actions
        self.state_size = ROW
        self.observation_size = OBSERVATION_SIZE
        self._scale = float(ROUNDS * max(1, max(spec.strength for spec in game.ranking.ranks)))
        self._template = encode(game.new_game(0))
        self._scratch = np.empty((0, MAX_ACTIONS), dtype=np.int16)

    def _buffer(self, batch: int) -> np.ndarray:
        if self._scratch.shape[0] < batch:
            self._scratch = np.empty((batch, MAX_ACTIONS), dtype=np.int16)
        return self._scratch[:batch]

    def initial(self, seed: int) -> np.ndarray:
        """The row of the readable rules' ``new_game(seed)``."""
        return self.initials(np.array([seed], dtype=np.int64))[0]

    def initials(self, seeds: np.ndarray) -> np.ndarray:
        """``(len(seeds), state_size)``: each seed's deal, shuffled in one compiled call from
        the engine's streams (their seeds derived here, as :func:`make_rng` derives them)."""
        streams = np.array(
            [
                [derive_seed(int(s), "deck")]
                + [derive_seed(int(s), "shared-order", block + 1) for block in range(2)]
                for s in seeds
            ],
            dtype=np.uint64,
        ).reshape(-1, 3)
        out = np.empty((len(seeds), ROW), dtype=np.int16)
        _initials(self._template, streams, START, out)
        out[:, SEED_AT:ROW] = seed_words(np.asarray(seeds, dtype=np.int64), np.int16)
        return out

    def decode(self, row: np.ndarray) -> TriangleClockState:
        """The readable rules' state of one row, its seed included."""
        return decode(self.game, row[:SIZE], int(row_seeds(row[None, :])[0]))

    def to_act(self, states: np.ndarray) -> np.ndarray:
        """``(B, 2)`` booleans: the seats yet to submit in each game's open decision."""
        # two columns of the array: cheaper in NumPy than a parallel kernel's start
        pending = states[:, SEATS_AT + PENDING : SEATS_AT + PLAYERS * SEAT_SIZE : SEAT_SIZE]
        return (pending < 0) & (states[:, PHASE] != OVER)[:, None]

    def masks(self, states: np.ndarray, out: np.ndarray) -> None:
        """``(B, 2, A)``: each seat's legal action ids (none for a seat not to act)."""
        obs = np.empty((states.shape[0], PLAYERS, OBSERVATION_SIZE), dtype=np.float32)
        self.look(states, out, obs)

    def step(
        self, states: np.ndarray, actions: np.ndarray, rewards: np.ndarray, done: np.ndarray
    ) -> np.ndarray:
        """Play each acting seat's action of ``actions`` ``(B, 2)`` in place; ``(B,)`` True
        where one was not legal (that game is left as it was)."""
        actions = np.asarray(actions, dtype=np.int64)
        acting = self.to_act(states)
        mulligans = acting & (actions == MULLIGAN_ID)
        need = (states[:, DECK_LEN] < HAND_SIZE) & (
            (states[:, PHASE] == THIRD) | mulligans.any(axis=1)
        )
        chance_seeds = np.zeros((len(states), 4), dtype=np.uint64)
        if need.any() or mulligans.any():
            seeds = row_seeds(states)
            for b in np.flatnonzero(need).tolist():
                done_before = int(states[b, RESHUFFLES])
                for k in range(2):
                    chance_seeds[b, k] = derive_seed(
                        int(seeds[b]), "reshuffle", done_before + 1 + k
                    )
            for b, p in np.argwhere(mulligans).tolist():
                uses = int(states[b, SEATS_AT + p * SEAT_SIZE + USES + MULL])
                rnd = int(states[b, ROUND])
                chance_seeds[b, 2 + p] = derive_seed(int(seeds[b]), "mulligan", rnd, p, uses)
        illegal = np.empty(states.shape[0], dtype=np.bool_)
        t = self._tables
        _step_all(
            states,
            actions,
            chance_seeds,
            need,
            t.cards,
            t.power,
            t.strength,
            t.rules,
            START,
            self._buffer(len(states)),
            rewards,
            done,
            illegal,
        )
        return illegal

    def observe(self, states: np.ndarray, out: np.ndarray) -> None:
        """``(B, 2, observation_size)``: each seat's observation (the module names the slots)."""
        _observe_all(states, self._tables.cards, self._scale, out)

    def look(self, states: np.ndarray, masks: np.ndarray, observations: np.ndarray) -> np.ndarray:
        """:meth:`masks` and :meth:`observe` in one pass; returns :meth:`to_act`."""
        acting = np.empty((states.shape[0], PLAYERS), dtype=np.bool_)
        _look_all(
            states,
            self._tables.cards,
            self._scale,
            self._buffer(len(states)),
            masks,
            observations,
            acting,
        )
        return acting

    def opponent_actions(
        self,
        name: str,
        states: np.ndarray,
        seats: np.ndarray,
        acting: np.ndarray,
        seeds: np.ndarray,
    ) -> np.ndarray:
        """``(B,)``: opponent ``name``'s action for ``seats[b]`` in each game where
        ``acting`` (0 elsewhere), each game seeded by ``seeds[b]`` (below ``2**32``): one of
        :attr:`opponents`, as :func:`.opponent.policy_actions` plays it."""
        if name not in self.opponents:
            raise MeepleError(
                f"The Triangle Clock offers no batched opponent {name!r}; "
                f"it offers {', '.join(self.opponents)}"
            )
        t = self._tables
        return policy_actions(states, seats, acting, seeds, (t.cards, t.power, t.strength))

    def observation_slots(self) -> list[str]:
        """The name of every slot (the module docstring says what each holds)."""
        return observation_slots()

    def observation_of_view(self, view: dict[str, Any], seat: int) -> np.ndarray:
        """``seat``'s observation from its view of the readable rules (``state.view(seat)``):
        what :meth:`observe` gives that seat, for the one-game adapters."""
        return observation_of_view(self.game, view, seat)


def observation_slots() -> list[str]:
    """The name of every slot of a seat's observation, in order."""
    symbols = SYMBOL_NAMES
    items = ITEM_LABELS
    slots = ["round", *(f"phase.{phase.label}" for phase in Phase)]
    slots += ["waiting[+0]", "waiting[+1]"]
    slots += [f"pending.{letter}" for letter in LETTERS] + [
        f"pending.{items[0]}",
        f"pending.{items[1]}",
    ]
    for part in ("shared", "order", "seen"):
        slots += [f"{part}.{s}" for s in symbols]
    slots += ["score[+0]", "score[+1]"]
    slots += [f"uses[+{k}].{item}" for k in range(2) for item in items]
    slots += [f"hand.{letter}.{s}" for letter in LETTERS for s in symbols]
    slots += [f"picked.{letter}" for letter in LETTERS]
    for k in range(2):
        for j in range(3):
            at = f"revealed[+{k}][{j}]"
            slots += [f"{at}.{s}" for s in symbols] + [f"{at}.{items[0]}", f"{at}.{items[1]}"]
    slots += ["deck", "reshuffles", *(f"discards.{s}" for s in symbols)]
    return slots


def observation_of_view(game: TriangleClockGame, view: dict[str, Any], seat: int) -> np.ndarray:
    """The observation of :class:`TriangleClockBatch` for ``seat``, computed from that seat's
    view of the readable rules (``state.view(seat)``): the same numbers, by another road."""
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    symbol = {name: s for s, name in enumerate(SYMBOL_NAMES)}
    phase = [ph.label for ph in Phase].index(view["phase"])
    scale = float(ROUNDS * max(1, max(spec.strength for spec in game.ranking.ranks)))
    out[O_ROUND] = view["round"] / ROUNDS
    out[O_PHASE + phase] = 1.0
    seats = (seat, 1 - seat)
    for k, s in enumerate(seats):
        out[O_WAITING + k] = 1.0 if s in view["to_act"] else 0.0
    mine = view["submissions"]["mine"]
    if mine is not None and view["phase"] not in ("memorise", "over"):
        pick = game.action_id(game.parse_action(mine))
        out[O_PENDING + (pick >> 2)] = 1.0
        out[O_PENDING + 8] = pick & 1
        out[O_PENDING + 9] = (pick >> 1) & 1
    if view["shared"] is not None:
        out[O_SHARED + symbol[view["shared"]]] = 1.0
    if view["memorise"] is not None:
        for i, name in enumerate(view["memorise"]["order"]):
            out[O_ORDER + symbol[name]] = (i + 1) / BLOCK
    for name in view["shared_revealed"]:
        out[O_SEEN + symbol[name]] = 1.0
    for k, s in enumerate(seats):
        out[O_SCORE + k] = view["scores"][s] / scale
        for i, label in enumerate(ITEM_LABELS):
            out[O_USES + 3 * k + i] = view["items"][s].get(label, 0) / ITEM_USES[i]
        for j, shown in enumerate(view["revealed"][s]):
            at = O_REVEALED + (3 * k + j) * REVEAL
            out[at + symbol[shown["symbol"]]] = 1.0
            out[at + NUM_SYMBOLS] = ITEM_LABELS[0] in shown["items"]
            out[at + NUM_SYMBOLS + 1] = ITEM_LABELS[1] in shown["items"]
    for slot, card in enumerate(view["hand"]):
        for side in range(2):
            out[O_HAND + (2 * slot + side) * NUM_SYMBOLS + symbol[card["symbols"][side]]] = 1.0
            if card["played"][side] is not None:
                out[O_PICKED + 2 * slot + side] = card["played"][side] / 3
    out[O_DECK] = view["deck"] / MAX_DECK
    out[O_RESHUFFLES] = min(view["reshuffles"], MAX_RESHUFFLES) / MAX_RESHUFFLES
    counts = [0] * NUM_SYMBOLS
    for name in view["discards"]:
        for s in CARDS[CARD_NAMES.index(name)]:
            counts[s] += 1
    for s in range(NUM_SYMBOLS):
        out[O_DISCARDS + s] = counts[s] / CARDS_PER_SYMBOL
    return out
