"""Erosion batched: many games stepped at once on the compiled rules (:mod:`.rules`), for the
research environments (:mod:`meeple.core.batch` says what each array holds). One seat acts
at a time, so each game takes one action a step, from the seat to act in it.

**Chance follows the engine exactly.** A row is the compiled position (:mod:`.state`)
followed by the game's seed and the seeds of the streams its era ends read (four ``int16``
words of an ``int64`` each): the tie-breaker's draws of each era, the start drawn among
seats still tied, and each later era's three shuffled decks. Game ``seed`` is dealt as the
readable rules' ``new_game(seed)`` (the three decks, each mountain and the first seat
shuffled or drawn from the engine's streams, compiled: :func:`meeple.core.mt.shuffle`),
and an era's end draws from the same streams as :meth:`ErosionState.tiebreak_draws`,
:meth:`~ErosionState.start_among` and :meth:`~ErosionState.era_decks`, inside the step.

**The observation** is the seat to act's (seat 0's once the game is over), from its own
side: ``+k`` is the seat ``k`` places after it. It holds what that seat may know and
nothing else: the public table, its own hand, never another hand, a delta's cards or the
decks' order (:func:`observation_slots` names each slot; every one lies in [0, 1]):

* ``era``: era over eras; ``turn``: turn over 128 (capped);
* ``phase.turn|draw|uplift|transport|pay|guess|choose|over``: one-hot;
* ``step.number``: the front step's number over 6 (cards to draw, rocks left to transport),
  capped; ``step.rock.<type>``: during a payment, the River rock being paid for;
* ``deck.WX|H|F.empty``; ``deck.WX|H|F.limit``: the draw limit over the largest it can be;
* ``passes``: passes in a row over the seats; ``runout``: 1 once a deck has run out;
* ``tie.start``, ``tie.win``: what an open tie-breaker decides;
* per seat ``[+k]``: ``current``, ``acting``, ``height`` and ``weathered`` (rocks over 16,
  capped), ``hand.WX|H|F`` (cards of each deck in its hand over 12, capped), ``delta``
  (rocks over 16, capped), ``discards`` (cards over the process cards), ``score`` (recorded)
  and ``points`` (if the era ended now) over 64 (capped), ``runout`` (passes since a deck
  ran out over 2), ``tie.in``, ``tie.mohs`` (its tie-breaker card's hardness over 10),
  ``tie.guess`` (its guess over 10);
* ``mountain[+k][i].<type>``, ``.mohs``, ``.fossil``, ``.weathered``: the ``i``-th rock
  from the top of each mountain (the top 8), its rock type one-hot, hardness over 10,
  whether it bears a fossil, whether it is weathered;
* ``hand.<card>``: 1 for each card of the seat's own hand;
* ``discarded.<card>``: 1 for each card on a discard pile;
* ``river.<type>``: River rocks of each type over the cards of that type.

:func:`observation_of_view` computes the same numbers from a seat's view of the readable
rules (``state.view(seat)``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

from meeple.core.batch import seeds_in
from meeple.core.errors import MeepleError
from meeple.core.kernels import kernel
from meeple.core.mt import START, STREAM, randbelow, seed_stream, shuffle
from meeple.core.rng import derive_seed
from meeple.games.erosion.compiled.eras import new_era_decks, points
from meeple.games.erosion.compiled.rules import SERVED, decode, encode, layout, refuse_unserved
from meeple.games.erosion.compiled.state import (
    CHANCE_NEW_ERA,
    K_CHOOSE,
    K_DRAW,
    K_GUESS,
    K_PAY,
    K_TRANSPORT,
    K_UPLIFT,
    R_AGE,
    R_AGED,
    R_AGENDA,
    R_ATMS,
    R_CARDS,
    R_CHANCE_SEATS,
    R_DECK,
    R_ERAS,
    R_FOSSIL,
    R_MIX,
    R_MOHS,
    R_NORMAL,
    R_PLAYERS,
    R_ROCK,
    R_ROCK_TYPES,
    R_RUNOUT,
    R_SCALARS,
    R_SCORES,
    R_SIZE,
    R_TIE_CARDS,
    R_TIE_GUESSES,
    R_TIE_SEATS,
    R_UNDER,
    R_WEATHERED,
    R_WINNERS,
    S_AGENDA_N,
    S_CHANCE,
    S_CHANCE_N,
    S_CURRENT,
    S_ERA,
    S_OVER,
    S_PASSES,
    S_RUNOUT_ON,
    S_TIE_N,
    S_TIE_PURPOSE,
    S_TURN,
    S_WINNERS_N,
    base,
    delta,
    discards,
    hand,
    mountain,
    river,
    size,
)
from meeple.games.erosion.compiled.transitions import (
    apply,
    legal_actions,
    resolve_new_era,
    resolve_tie_draws,
    to_act,
)
from meeple.games.erosion.pieces import HAND_SIZE, PROCESS_DECKS
from meeple.games.erosion.rules import ErosionGame, ErosionState

compiled = kernel(nogil=True)
batched = kernel(nogil=True, parallel=True)

BATCH_SERVED = (
    ("advanced", False),
    ("legend", "off"),
    ("typed_weathering", "shield"),
    ("auto_steps", True),
    *SERVED,
)
"""The options the batched rules serve at one value only: the basic game without the
Legend variant, and what the compiled rules serve at one value only."""

TOP = 8
"""Rocks of each mountain shown, from the top (mountains rarely pass 10 rocks)."""
PHASES = ("turn", "draw", "uplift", "transport", "pay", "guess", "choose", "over")
PHASE_OVER = len(PHASES) - 1
_PHASE_OF_KIND = np.full(16, -1, dtype=np.int64)
for _kind, _name in ((K_DRAW, 1), (K_UPLIFT, 2), (K_TRANSPORT, 3), (K_PAY, 4)):
    _PHASE_OF_KIND[_kind] = _name
_PHASE_OF_KIND[K_GUESS], _PHASE_OF_KIND[K_CHOOSE] = 5, 6
TURN_SCALE = 128.0
ROCK_SCALE = 16.0
HAND_SCALE = 2.0 * HAND_SIZE
POINTS_SCALE = 64.0
MOHS_SCALE = 10.0
SEAT_FIELDS = (
    "current",
    "acting",
    "height",
    "weathered",
    *(f"hand.{d}" for d in PROCESS_DECKS),
    "delta",
    "discards",
    "score",
    "points",
    "runout",
    "tie.in",
    "tie.mohs",
    "tie.guess",
)
F_HAND, F_DELTA, F_TIED = 4, 7, 12

# -- where each part of an observation starts: fixed, then by the game's sizes (``offsets``)
G_ERA, G_TURN, G_PHASE, G_NUMBER, G_ROCK = 0, 1, 2, 10, 11
X_EMPTY, X_LIMIT, X_PASSES, X_RUNOUT, X_TIE, X_SEATS = range(6)
X_MOUNTAINS, X_HAND, X_DISCARDED, X_RIVER, X_SIZE = range(6, 11)


def offsets(players: int, cards: int, types: int) -> np.ndarray:
    """Where each part of the observation starts (``X_*``), and its size last."""
    at = G_ROCK + types
    out = []
    for width in (
        3,
        3,
        1,
        1,
        2,
        players * len(SEAT_FIELDS),
        players * TOP * (types + 3),
        cards,
        cards,
        types,
    ):
        out.append(at)
        at += width
    return np.array([*out, at], dtype=np.int64)


# -- the engine's draws ---------------------------------------------------------------------
@compiled
def _seed_at(row: np.ndarray, at: int) -> np.uint64:
    """The ``int64`` kept in four ``int16`` words of a row (low word first)."""
    value = 0
    for i in range(4):
        value |= (np.int64(row[at + i]) & 0xFFFF) << (16 * i)
    return np.uint64(value)


@compiled
def _start_stream(eras: int, era: int) -> int:
    return eras + era - 1


@compiled
def _deck_stream(eras: int, era: int, d: int) -> int:
    return 2 * eras - 1 + 3 * (era - 2) + d


@compiled
def _chance(row: np.ndarray, R: np.ndarray, eras: int, stream: np.ndarray, out: np.ndarray) -> None:
    """Resolve an era end's chance with the engine's draws, until the next decision."""
    sc = R[R_SCALARS]
    streams = R[R_SIZE] + 4
    while row[sc + S_CHANCE]:
        era = row[sc + S_ERA]
        k = row[sc + S_CHANCE_N]
        seats = R[R_CHANCE_SEATS]
        if row[sc + S_CHANCE] == CHANCE_NEW_ERA:
            start = row[seats]
            if k > 1:
                seed_stream(_seed_at(row, streams + 4 * _start_stream(eras, era)), START, stream)
                start = row[seats + randbelow(k, stream)]
            sizes, order = new_era_decks(row, R)
            first = 0
            for d in range(3):
                at = first + sizes[d]
                seed = _seed_at(row, streams + 4 * _deck_stream(eras, era + 1, d))
                seed_stream(seed, START, stream)
                shuffle(order[first:at], stream)
                first = at
            resolve_new_era(row, R, start, sizes, order, out)
        else:
            seed_stream(_seed_at(row, streams + 4 * (era - 1)), START, stream)
            draws = np.empty(k, dtype=np.int16)
            for i in range(k):
                b = base(R, hand(R, row[seats + i]))
                draws[i] = row[b + 1 + randbelow(row[b], stream)] if row[b] else -1
            resolve_tie_draws(row, R, draws, out)


# -- the kernels ----------------------------------------------------------------------------
@batched
def _step_all(
    states: np.ndarray,
    actions: np.ndarray,
    R: np.ndarray,
    eras: int,
    scratch: np.ndarray,
    rewards: np.ndarray,
    done: np.ndarray,
    illegal: np.ndarray,
) -> None:
    sc = R[R_SCALARS]
    n = R[R_PLAYERS]
    for b in prange(states.shape[0]):
        rewards[b, :] = 0.0
        done[b] = False
        illegal[b] = True
        row = states[b]
        count = legal_actions(row, R, scratch[b])
        for i in range(count):
            if scratch[b, i] == actions[b]:
                illegal[b] = False
                break
        if illegal[b]:
            continue
        apply(row, R, actions[b], scratch[b])
        if row[sc + S_CHANCE]:
            _chance(row, R, eras, np.empty(STREAM, dtype=np.uint64), scratch[b])
        if row[sc + S_OVER]:
            done[b] = True
            k = row[sc + S_WINNERS_N]
            for p in range(n):
                rewards[b, p] = -1.0
            for i in range(k):
                rewards[b, row[R[R_WINNERS] + i]] = 1.0 if k == 1 else 0.0


@compiled
def _observe(
    s: np.ndarray, R: np.ndarray, off: np.ndarray, scales: np.ndarray, out: np.ndarray
) -> int:
    """Write the observation of the seat to act (seat 0 once over); return that seat."""
    out[:] = 0.0
    sc, a = R[R_SCALARS], R[R_AGENDA]
    n, cards, types = R[R_PLAYERS], R[R_CARDS], R[R_ROCK_TYPES]
    rock, mohs, fossil = R[R_ROCK], R[R_MOHS], R[R_FOSSIL]
    acting = to_act(s, R)
    p = max(acting, 0)
    out[G_ERA] = s[sc + S_ERA] / R[R_ERAS]
    out[G_TURN] = min(s[sc + S_TURN] / TURN_SCALE, 1.0)
    phase = 0
    if s[sc + S_OVER]:
        phase = PHASE_OVER
    elif s[sc + S_AGENDA_N]:
        phase = _PHASE_OF_KIND[s[a]]
    if phase >= 0:
        out[G_PHASE + phase] = 1.0
    if s[sc + S_AGENDA_N]:
        out[G_NUMBER] = min(s[a + 2] / HAND_SIZE, 1.0)
        if s[a + 3] >= 0:
            out[G_ROCK + R[rock + s[a + 3]]] = 1.0
    for d in range(3):
        out[off[X_EMPTY] + d] = 1.0 if size(s, R, d) == 0 else 0.0
        limit = 0
        for i in range(R[R_ATMS]):
            if R[R[R_UNDER] + i] == d:
                limit += R[R[R_AGE] + i] if s[R[R_AGED] + i] else R[R[R_NORMAL] + i]
        out[off[X_LIMIT] + d] = min(limit / scales[d], 1.0)
    out[off[X_PASSES]] = min(s[sc + S_PASSES] / n, 1.0)
    runout = s[sc + S_RUNOUT_ON]
    out[off[X_RUNOUT]] = runout
    purpose = s[sc + S_TIE_PURPOSE]
    if purpose:
        out[off[X_TIE] + purpose - 1] = 1.0
    fields = len(SEAT_FIELDS)
    slot = types + 3
    for k in range(n):
        q = (p + k) % n
        at = off[X_SEATS] + k * fields
        out[at] = 1.0 if s[sc + S_CURRENT] == q else 0.0
        out[at + 1] = 1.0 if acting == q else 0.0
        m = base(R, mountain(R, q))
        rocks, weathered = s[m], s[R[R_WEATHERED] + q]
        out[at + 2] = min(rocks / ROCK_SCALE, 1.0)
        out[at + 3] = min(weathered / ROCK_SCALE, 1.0)
        h = base(R, hand(R, q))
        for i in range(s[h]):
            out[at + F_HAND + R[R[R_DECK] + s[h + 1 + i]]] += 1.0
        for d in range(3):
            out[at + F_HAND + d] = min(out[at + F_HAND + d] / HAND_SCALE, 1.0)
        out[at + F_DELTA] = min(size(s, R, delta(R, q)) / ROCK_SCALE, 1.0)
        out[at + F_DELTA + 1] = size(s, R, discards(R, q)) / cards
        out[at + F_DELTA + 2] = min(s[R[R_SCORES] + q] / POINTS_SCALE, 1.0)
        out[at + F_DELTA + 3] = min(points(s, R, q) / POINTS_SCALE, 1.0)
        if runout:
            out[at + F_DELTA + 4] = min(s[R[R_RUNOUT] + q] / 2.0, 1.0)
        for i in range(s[sc + S_TIE_N]):
            if s[R[R_TIE_SEATS] + i] == q:
                out[at + F_TIED] = 1.0
                card = s[R[R_TIE_CARDS] + i]
                if card >= 0:
                    out[at + F_TIED + 1] = min(R[mohs + card] / MOHS_SCALE, 1.0)
                out[at + F_TIED + 2] = min(s[R[R_TIE_GUESSES] + i] / MOHS_SCALE, 1.0)
        for i in range(min(rocks, TOP)):
            card = s[m + 1 + i]
            where = off[X_MOUNTAINS] + (k * TOP + i) * slot
            out[where + R[rock + card]] = 1.0
            out[where + types] = min(R[mohs + card] / MOHS_SCALE, 1.0)
            out[where + types + 1] = R[fossil + card]
            out[where + types + 2] = 1.0 if i < weathered else 0.0
    h = base(R, hand(R, p))
    for i in range(s[h]):
        out[off[X_HAND] + s[h + 1 + i]] = 1.0
    for q in range(n):
        d = base(R, discards(R, q))
        for i in range(s[d]):
            out[off[X_DISCARDED] + s[d + 1 + i]] = 1.0
    r = base(R, river(R))
    for i in range(s[r]):
        out[off[X_RIVER] + R[rock + s[r + 1 + i]]] += 1.0
    for t in range(types):
        out[off[X_RIVER] + t] /= scales[3 + t]
    return acting


@batched
def _observe_all(
    states: np.ndarray, R: np.ndarray, off: np.ndarray, scales: np.ndarray, out: np.ndarray
) -> None:
    for b in prange(states.shape[0]):
        _observe(states[b], R, off, scales, out[b])


@batched
def _look_all(
    states: np.ndarray,
    R: np.ndarray,
    off: np.ndarray,
    scales: np.ndarray,
    scratch: np.ndarray,
    masks: np.ndarray,
    observations: np.ndarray,
    seats: np.ndarray,
) -> None:
    # Masks, observations and seats in one pass over the batch.
    for b in prange(states.shape[0]):
        masks[b, :] = False
        count = legal_actions(states[b], R, scratch[b])
        for i in range(count):
            masks[b, scratch[b, i]] = True
        seats[b] = _observe(states[b], R, off, scales, observations[b])


@batched
def _initials(
    template: np.ndarray,
    R: np.ndarray,
    by_deck: np.ndarray,
    streams: np.ndarray,
    first_drawn: bool,
    out: np.ndarray,
) -> None:
    # new_game: each deck shuffled, each mountain taken from the decks' tops and shuffled,
    # then each hand; the first seat drawn.
    n, cards, sc = R[R_PLAYERS], R[R_CARDS], R[R_SCALARS]
    for b in prange(out.shape[0]):
        row = out[b]
        row[: template.shape[0]] = template
        stream = np.empty(STREAM, dtype=np.uint64)
        decks = np.empty((3, cards), dtype=np.int16)
        sizes = np.zeros(3, dtype=np.int64)
        for d in range(3):
            for c in range(cards):
                if by_deck[d, c] >= 0:
                    decks[d, sizes[d]] = by_deck[d, c]
                    sizes[d] += 1
            seed_stream(streams[b, d], START, stream)
            shuffle(decks[d, : sizes[d]], stream)
        taken = np.empty(cards, dtype=np.int16)
        for pile in range(2 * n):
            p = pile % n
            k = 0
            for d in range(3):
                take = min(R[R_MIX + d], sizes[d])
                for j in range(take):
                    taken[k] = decks[d, sizes[d] - take + j]
                    k += 1
                sizes[d] -= take
            rocks = taken[:k]
            if pile < n:
                seed_stream(streams[b, 3 + p], START, stream)
                shuffle(rocks, stream)
                at = base(R, mountain(R, p))
            else:
                rocks.sort()
                at = base(R, hand(R, p))
            row[at : at + 1 + cards] = -1
            row[at] = k
            row[at + 1 : at + 1 + k] = rocks
        for d in range(3):
            at = base(R, d)
            row[at : at + 1 + cards] = -1
            row[at] = sizes[d]
            row[at + 1 : at + 1 + sizes[d]] = decks[d, : sizes[d]]
        if first_drawn:
            seed_stream(streams[b, 3 + n], START, stream)
            row[sc + S_CURRENT] = randbelow(n, stream)


def _words(seeds: np.ndarray) -> np.ndarray:
    """``(B, k * 4)`` int16 words of ``(B, k)`` int64 seeds, as a row keeps them."""
    seeds = np.ascontiguousarray(seeds, dtype="<i8")
    return seeds.view("<i2").reshape(seeds.shape[0], -1)


class ErosionBatch:
    """:class:`meeple.core.batch.BatchRules` for one Erosion configuration: every option the
    compiled rules serve in the basic game without the Legend variant (the module says what
    each array holds)."""

    def __init__(self, game: ErosionGame) -> None:
        if not isinstance(game, ErosionGame):
            raise MeepleError(f"ErosionBatch takes Erosion, not {game.title}")
        # Its observation has no place for architecture, Atmospheres triggered, legends or
        # challenges: it refuses the advanced game and the variant (in one line), where its
        # observations would leave them out, and what the compiled rules refuse.
        refuse_unserved(game, "batched Erosion rules", BATCH_SERVED)
        self._R = layout(game)
        self.game = game
        cat = game.catalog
        n, cards = game.num_players, cat.num_process
        self._rocks = sorted(set(cat.rock))
        self._eras = game.eras
        self._position = int(self._R[R_SIZE])
        self._chance_streams = 2 * game.eras - 1 + 3 * (game.eras - 1)
        self.num_players = n
        self.num_actions = game.num_actions
        self.state_size = self._position + 4 + 4 * self._chance_streams
        self._off = offsets(n, cards, len(self._rocks))
        self.observation_size = int(self._off[X_SIZE])
        self._scales = np.array(
            [*_limit_scales(game), *(cat.rock.count(t) for t in self._rocks)], dtype=np.float64
        )
        self._template = encode(game.new_game(0))
        self._by_deck = np.full((3, cards), -1, dtype=np.int16)
        for d, members in enumerate(cat.by_deck):
            self._by_deck[d, : len(members)] = members
        self._scratch = np.empty((0, game.num_actions), dtype=np.int16)

    def _buffer(self, batch: int) -> np.ndarray:
        if self._scratch.shape[0] < batch:
            self._scratch = np.empty((batch, self.num_actions), dtype=np.int16)
        return self._scratch[:batch]

    def _streams(self, seed: int) -> tuple[list[int], list[int]]:
        """The engine's stream seeds a game reads: its deal's, then its era ends'."""
        n, eras = self.num_players, self._eras
        deal = [derive_seed(seed, "erosion", "deck", d) for d in range(3)]
        deal += [derive_seed(seed, "erosion", "mountain", p) for p in range(n)]
        deal.append(derive_seed(seed, "erosion", "first"))
        later = [derive_seed(seed, "erosion", "tiebreak", e) for e in range(1, eras + 1)]
        later += [derive_seed(seed, "erosion", "start", e) for e in range(1, eras)]
        later += [
            derive_seed(seed, "erosion", "era", e, "deck", d)
            for e in range(2, eras + 1)
            for d in range(3)
        ]
        return deal, later

    def initial(self, seed: int) -> np.ndarray:
        """The row of the readable rules' ``new_game(seed)``."""
        return self.initials(np.array([seed], dtype=np.int64))[0]

    def initials(self, seeds: np.ndarray) -> np.ndarray:
        """``(len(seeds), state_size)``: each seed's deal, in one compiled call from the
        engine's streams (their seeds derived here, as :func:`make_rng` derives them)."""
        seeds = np.asarray(seeds, dtype=np.int64)
        both = [self._streams(int(s)) for s in seeds.tolist()]
        deal = np.array([d for d, _ in both], dtype=np.uint64).reshape(len(seeds), -1)
        later = np.array([[int(s), *x] for s, (_, x) in zip(seeds, both, strict=True)])
        out = np.empty((len(seeds), self.state_size), dtype=np.int16)
        first_drawn = self.game.options.first == "random"
        _initials(self._template, self._R, self._by_deck, deal, first_drawn, out)
        out[:, self._position :] = _words(later.reshape(len(seeds), -1))
        return out

    def decode(self, row: np.ndarray) -> ErosionState:
        """The readable rules' state of one row, its seed included."""
        seed = int(seeds_in(row[None, :], self._position)[0])
        return decode(self.game, row[: self._position], seed)

    def to_act(self, states: np.ndarray) -> np.ndarray:
        """The seat to act in each game; -1 where it is over."""
        sc, a = int(self._R[R_SCALARS]), int(self._R[R_AGENDA])
        agenda = states[:, sc + S_AGENDA_N] > 0
        seats = np.where(agenda, states[:, a + 1], states[:, sc + S_CURRENT]).astype(np.int64)
        seats[states[:, sc + S_OVER] != 0] = -1
        return seats

    def masks(self, states: np.ndarray, out: np.ndarray) -> None:
        """Each game's legal action ids as booleans."""
        obs = np.empty((states.shape[0], self.observation_size), dtype=np.float32)
        self.look(states, out, obs)

    def step(
        self, states: np.ndarray, actions: np.ndarray, rewards: np.ndarray, done: np.ndarray
    ) -> np.ndarray:
        """Play each game's action in place (see :class:`meeple.core.batch.BatchRules`)."""
        illegal = np.empty(states.shape[0], dtype=np.bool_)
        _step_all(
            states,
            np.asarray(actions, dtype=np.int64),
            self._R,
            self._eras,
            self._buffer(len(states)),
            rewards,
            done,
            illegal,
        )
        return illegal

    def observe(self, states: np.ndarray, out: np.ndarray) -> None:
        """The observation of the seat to act in each game (the module says each slot)."""
        _observe_all(states, self._R, self._off, self._scales, out)

    def look(self, states: np.ndarray, masks: np.ndarray, observations: np.ndarray) -> np.ndarray:
        """:meth:`masks` and :meth:`observe` in one pass; returns :meth:`to_act`."""
        seats = np.empty(states.shape[0], dtype=np.int64)
        _look_all(
            states,
            self._R,
            self._off,
            self._scales,
            self._buffer(len(states)),
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


def _limit_scales(game: ErosionGame) -> list[float]:
    """The largest draw limit each deck can show: both Atmosphere ends at their higher."""
    cat = game.catalog
    return [
        float(
            max(
                1,
                sum(
                    max(cat.normal_limit[i], cat.age_limit[i])
                    for i in range(len(cat.atmospheres))
                    if cat.under[i] == d
                ),
            )
        )
        for d in range(3)
    ]


def observation_slots(game: ErosionGame) -> list[str]:
    """The name of every slot of a seat's observation, in order."""
    cat = game.catalog
    rocks = sorted(set(cat.rock))
    ids = cat.ids[: cat.num_process]
    slots = ["era", "turn", *(f"phase.{p}" for p in PHASES), "step.number"]
    slots += [f"step.rock.{t}" for t in rocks]
    slots += [f"deck.{d}.empty" for d in PROCESS_DECKS]
    slots += [f"deck.{d}.limit" for d in PROCESS_DECKS]
    slots += ["passes", "runout", "tie.start", "tie.win"]
    seats = range(game.num_players)
    for k in seats:
        for field in SEAT_FIELDS:
            head, dot, rest = field.partition(".")
            slots.append(f"{head}[+{k}]{dot}{rest}")
    for k in seats:
        for i in range(TOP):
            at = f"mountain[+{k}][{i}]"
            slots += [f"{at}.{t}" for t in rocks] + [
                f"{at}.mohs",
                f"{at}.fossil",
                f"{at}.weathered",
            ]
    slots += [f"hand.{c}" for c in ids] + [f"discarded.{c}" for c in ids]
    slots += [f"river.{t}" for t in rocks]
    return slots


def observation_of_view(game: ErosionGame, view: dict[str, Any], seat: int) -> np.ndarray:
    """The observation of :class:`ErosionBatch` for ``seat``, computed from that seat's view
    of the readable rules (``state.view(seat)``): the same numbers, by another road."""
    cat = game.catalog
    n, cards = game.num_players, cat.num_process
    rocks = sorted(set(cat.rock))
    types = len(rocks)
    kind = {c: rocks.index(cat.rock[c]) for c in range(cards)}
    index = cat.index
    off = offsets(n, cards, types)
    scales = _limit_scales(game)
    out = np.zeros(int(off[X_SIZE]), dtype=np.float32)

    def put(at: int | np.integer, value: float) -> None:
        out[int(at)] = value

    put(G_ERA, view["era"] / view["eras"])
    put(G_TURN, min(view["turn"] / TURN_SCALE, 1.0))
    if view["phase"] in PHASES:
        put(G_PHASE + PHASES.index(view["phase"]), 1.0)
    step = view["step"]
    if step is not None:
        put(G_NUMBER, min(step["number"] / HAND_SIZE, 1.0))
        if step["card"] is not None:
            put(G_ROCK + kind[index[step["card"]]], 1.0)
    for d, name in enumerate(PROCESS_DECKS):
        put(off[X_EMPTY] + d, float(view["decks"][name]["empty"]))
        put(off[X_LIMIT] + d, min(view["decks"][name]["draw_limit"] / scales[d], 1.0))
    put(off[X_PASSES], min(view["passes_in_row"] / n, 1.0))
    runout = view["runout_passes"]
    put(off[X_RUNOUT], float(runout is not None))
    tie = view["tiebreak"]
    if tie is not None:
        put(off[X_TIE] + ("start", "win").index(tie["purpose"]), 1.0)
    result = view["result"]
    fields = len(SEAT_FIELDS)
    for k in range(n):
        q = (seat + k) % n
        at = int(off[X_SEATS]) + k * fields
        put(at, float(view["current"] == q))
        put(at + 1, float(q in view["to_act"]))
        mountain_view = view["mountains"][q]
        weathered = mountain_view["weathered"]
        put(at + 2, min(len(mountain_view["rocks"]) / ROCK_SCALE, 1.0))
        put(at + 3, min(weathered / ROCK_SCALE, 1.0))
        for d, name in enumerate(PROCESS_DECKS):
            put(at + F_HAND + d, min(view["hands"][q]["by_deck"][name] / HAND_SCALE, 1.0))
        put(at + F_DELTA, min(view["deltas"][q]["count"] / ROCK_SCALE, 1.0))
        put(at + F_DELTA + 1, len(view["discards"][q]) / cards)
        put(at + F_DELTA + 2, min(result["scores"][q] / POINTS_SCALE, 1.0))
        put(at + F_DELTA + 3, min(result["points_now"][q] / POINTS_SCALE, 1.0))
        if runout is not None:
            put(at + F_DELTA + 4, min(runout[q] / 2.0, 1.0))
        if tie is not None and q in tie["seats"]:
            i = tie["seats"].index(q)
            put(at + F_TIED, 1.0)
            if tie["cards"][i] is not None:
                put(at + F_TIED + 1, min(cat.mohs[index[tie["cards"][i]]] / MOHS_SCALE, 1.0))
            put(at + F_TIED + 2, min((tie["guesses"][i] or 0) / MOHS_SCALE, 1.0))
        for i, name in enumerate(mountain_view["rocks"][:TOP]):
            card = index[name]
            where = int(off[X_MOUNTAINS]) + (k * TOP + i) * (types + 3)
            put(where + kind[card], 1.0)
            put(where + types, min(cat.mohs[card] / MOHS_SCALE, 1.0))
            put(where + types + 1, float(cat.fossil[card]))
            put(where + types + 2, float(i < weathered))
    for name in view["hands"][seat]["cards"]:
        put(off[X_HAND] + index[name], 1.0)
    for pile in view["discards"]:
        for name in pile:
            put(off[X_DISCARDED] + index[name], 1.0)
    counts = [0] * types
    for name in view["river"]:
        counts[kind[index[name]]] += 1
    for t in range(types):
        put(off[X_RIVER] + t, counts[t] / cat.rock.count(rocks[t]))
    return out
