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
side, what that seat may know and nothing else, with slots for each option that adds to
the table (the Advanced Rules, the Legend variant, ``typed_weathering=pass-over``):
:mod:`.observation` writes it and says what each slot holds; its
:func:`~.observation.observation_of_view` computes the same numbers from a seat's view of
the readable rules (``state.view(seat)``).

**Every option is served** (:data:`BATCH_SERVED` lists none at one value only): the
Legend variant's challenge cards are dealt per seed from the engine's stream as
``new_game`` deals them, and its legends claimed at the deal; the rest of the options is
the compiled rules' (:mod:`.rules`).
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
from meeple.games.erosion.compiled.eras import new_era_decks
from meeple.games.erosion.compiled.legends import claim_legends
from meeple.games.erosion.compiled.observation import (
    X_SIZE,
    observation_of_view,
    observation_slots,
    observe,
    offsets,
    scales_of,
)
from meeple.games.erosion.compiled.rules import SERVED, decode, encode, layout, refuse_unserved
from meeple.games.erosion.compiled.state import (
    CHANCE_NEW_ERA,
    R_AGENDA,
    R_CARDS,
    R_CHALLENGES,
    R_CHANCE_SEATS,
    R_LEGENDS,
    R_LEGENDS_N,
    R_MIX,
    R_PLAYERS,
    R_SCALARS,
    R_SIZE,
    R_WINNERS,
    S_AGENDA_N,
    S_CHANCE,
    S_CHANCE_N,
    S_CURRENT,
    S_ERA,
    S_OVER,
    S_WINNERS_N,
    base,
    hand,
    mountain,
)
from meeple.games.erosion.compiled.transitions import (
    apply,
    legal_actions,
    resolve_new_era,
    resolve_tie_draws,
)
from meeple.games.erosion.rules import ErosionGame, ErosionState

__all__ = ["BATCH_SERVED", "ErosionBatch", "observation_of_view", "observation_slots"]

compiled = kernel(nogil=True)
batched = kernel(nogil=True, parallel=True)

BATCH_SERVED = SERVED
"""The options the batched rules serve at one value only: what the compiled rules serve
at one value only (none: each option at every value)."""


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


@batched
def _observe_all(
    states: np.ndarray, R: np.ndarray, off: np.ndarray, scales: np.ndarray, out: np.ndarray
) -> None:
    for b in prange(states.shape[0]):
        observe(states[b], R, off, scales, out[b])


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
        seats[b] = observe(states[b], R, off, scales, observations[b])


@batched
def _initials(
    template: np.ndarray,
    R: np.ndarray,
    by_deck: np.ndarray,
    streams: np.ndarray,
    first_drawn: bool,
    challenges: int,
    out: np.ndarray,
) -> None:
    # new_game: each deck shuffled, each mountain taken from the decks' tops and shuffled,
    # then each hand; the first seat drawn; the Legend variant's challenge cards shuffled,
    # one a seat, and the legends its mountains already meet claimed.
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
        if challenges:
            order = np.arange(challenges).astype(np.int16)
            seed_stream(streams[b, 4 + n], START, stream)
            shuffle(order, stream)
            row[R[R_CHALLENGES] : R[R_CHALLENGES] + n] = order[:n]
            row[R[R_LEGENDS] : R[R_LEGENDS] + R[R_LEGENDS_N]] = -1
            claim_legends(row, R)


def _words(seeds: np.ndarray) -> np.ndarray:
    """``(B, k * 4)`` int16 words of ``(B, k)`` int64 seeds, as a row keeps them."""
    seeds = np.ascontiguousarray(seeds, dtype="<i8")
    return seeds.view("<i2").reshape(seeds.shape[0], -1)


class ErosionBatch:
    """:class:`meeple.core.batch.BatchRules` for one Erosion configuration: every option the
    compiled rules serve (the module says what each array holds)."""

    def __init__(self, game: ErosionGame) -> None:
        if not isinstance(game, ErosionGame):
            raise MeepleError(f"ErosionBatch takes Erosion, not {game.title}")
        # what the compiled rules refuse, in one line
        refuse_unserved(game, "batched Erosion rules", BATCH_SERVED)
        self._R = layout(game)
        self.game = game
        cat = game.catalog
        n, cards = game.num_players, cat.num_process
        self._eras = game.eras
        self._position = int(self._R[R_SIZE])
        self._chance_streams = 2 * game.eras - 1 + 3 * (game.eras - 1)
        self.num_players = n
        self.num_actions = game.num_actions
        self.state_size = self._position + 4 + 4 * self._chance_streams
        self._off = offsets(game)
        self.observation_size = int(self._off[X_SIZE])
        self._scales = scales_of(game)
        self._challenges = len(game.challenge_cards)
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
        if self._challenges:
            deal.append(derive_seed(seed, "erosion", "challenges"))
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
        _initials(self._template, self._R, self._by_deck, deal, first_drawn, self._challenges, out)
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
