"""Edges batched: many games stepped at once on the compiled rules (:mod:`.rules`), for the
research environments (:mod:`meeple.core.batch` says what each array holds).

The observation is the seat to act's, from its own side's point of view, so one learner can
play every seat (Edges hides nothing, so it is also what every seat may know):

* for each edge, in the board's order: ``empty`` (1 or 0), ``own`` (the strength of the
  pyramid on it over 3, when the seat's side holds it) and ``other`` (the same for the
  other side);
* for each seat, starting with the seat to act and following seat numbers: its stash of
  large, medium and small pyramids, each over the count a stash starts with;
* ``pie``: 1 when the pie take-over is legal now;
* ``progress``: pyramids placed over the pyramids there are.

:func:`observation_of_view` computes the same numbers from a seat's view of the readable
rules (the differential test compares them), so the one-game adapters can offer it too.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import prange

from meeple.core.errors import MeepleError
from meeple.core.kernels import kernel
from meeple.core.mt import first_randrange
from meeple.core.rng import derive_seed
from meeple.games.edges.board import parse_edge
from meeple.games.edges.compiled.rules import (
    apply,
    decode,
    encode,
    layout,
    legal_actions,
    outcome,
    to_act,
)
from meeple.games.edges.rules import FIRST_STREAM, EdgesGame, EdgesState

compiled = kernel(nogil=True)
batched = kernel(nogil=True, parallel=True)
SIZES = "LMS"


@batched
def _to_act_all(states: np.ndarray, n: int, p: int, out: np.ndarray) -> None:
    for b in prange(states.shape[0]):
        out[b] = to_act(states[b], n, p)


@batched
def _masks_all(
    states: np.ndarray, n: int, p: int, pie: bool, scratch: np.ndarray, out: np.ndarray
) -> None:
    for b in prange(states.shape[0]):
        out[b, :] = False
        count = legal_actions(states[b], n, p, pie, scratch[b])
        for i in range(count):
            out[b, scratch[b, i]] = True


@batched
def _step_all(
    states: np.ndarray,
    actions: np.ndarray,
    n: int,
    p: int,
    pie: bool,
    square_edges: np.ndarray,
    scratch: np.ndarray,
    rewards: np.ndarray,
    done: np.ndarray,
    illegal: np.ndarray,
) -> None:
    for b in prange(states.shape[0]):
        rewards[b, :] = 0.0
        done[b] = False
        illegal[b] = True
        state = states[b]
        count = legal_actions(state, n, p, pie, scratch[b])
        for i in range(count):
            if scratch[b, i] == actions[b]:
                illegal[b] = False
                break
        if illegal[b]:
            continue
        apply(state, n, p, actions[b])
        if to_act(state, n, p) < 0:
            done[b] = True
            won = outcome(state, n, square_edges)
            for seat in range(p):
                rewards[b, seat] = won if seat % 2 == 0 else -won


@compiled
def _observe(
    state: np.ndarray, n: int, p: int, pie: bool, start: np.ndarray, out: np.ndarray
) -> None:
    total = (start[0] + start[1] + start[2]) * p
    base = 2 * n + 4 * p
    seat = to_act(state, n, p)
    if seat < 0:
        seat = 0  # a finished game is observed as seat 0 sees it
    side = seat % 2
    for e in range(n):
        holder = state[e]
        out[3 * e] = 1.0 if holder < 0 else 0.0
        strength = state[n + e] / 3.0 if holder >= 0 else 0.0
        out[3 * e + 1] = strength if holder >= 0 and holder % 2 == side else 0.0
        out[3 * e + 2] = strength if holder >= 0 and holder % 2 != side else 0.0
    left = 0
    for k in range(p):
        other = (seat + k) % p
        for g in range(3):
            out[3 * n + 3 * k + g] = state[2 * n + 3 * other + g] / max(1, start[g])
            left += state[2 * n + 3 * other + g]
    pie_now = pie and state[base] == 1 and state[base + 2] == 0
    out[3 * n + 3 * p] = 1.0 if pie_now else 0.0
    # from the stashes, not the turn count: a pie take-over is a turn that places no
    # pyramid (the first one goes back), which took the turn count past the pyramids
    out[3 * n + 3 * p + 1] = (total - left) / total


@batched
def _observe_all(
    states: np.ndarray, n: int, p: int, pie: bool, start: np.ndarray, out: np.ndarray
) -> None:
    for b in prange(states.shape[0]):
        _observe(states[b], n, p, pie, start, out[b])


@batched
def _look_all(
    states: np.ndarray,
    n: int,
    p: int,
    pie: bool,
    start: np.ndarray,
    scratch: np.ndarray,
    masks: np.ndarray,
    observations: np.ndarray,
    seats: np.ndarray,
) -> None:
    # Masks, observations and seats in one pass over the batch (each row is read once).
    for b in prange(states.shape[0]):
        masks[b, :] = False
        count = legal_actions(states[b], n, p, pie, scratch[b])
        for i in range(count):
            masks[b, scratch[b, i]] = True
        _observe(states[b], n, p, pie, start, observations[b])
        seats[b] = to_act(states[b], n, p)


class EdgesBatch:
    """:class:`meeple.core.batch.BatchRules` for one Edges configuration (every option)."""

    def __init__(self, game: EdgesGame) -> None:
        if not isinstance(game, EdgesGame):
            raise MeepleError(f"EdgesBatch takes an Edges game, not {game.title}")
        self.game = game
        shape = layout(game)
        self._n, self._p, self._pie = shape.edges, shape.players, shape.pie
        self._squares = shape.square_edges
        self._start = np.array(
            [game.stash.large, game.stash.medium, game.stash.small], dtype=np.int16
        )
        self.num_players = shape.players
        self.num_actions = game.num_actions
        self.state_size = shape.size
        self.observation_size = 3 * self._n + 3 * self._p + 2
        self._initial: dict[int, np.ndarray] = {}
        self._scratch = np.empty((0, 3 * self._n + 3), dtype=np.int16)

    def _buffer(self, batch: int) -> np.ndarray:
        # Legal-action lists, one row per game, kept between calls (prange writes them).
        if self._scratch.shape[0] < batch:
            self._scratch = np.empty((batch, 3 * self._n + 3), dtype=np.int16)
        return self._scratch[:batch]

    def initial(self, seed: int) -> np.ndarray:
        """The start of game ``seed``: only the turn order depends on it, so the few
        distinct starts are encoded once."""
        first = self.game.first_seat(seed)
        array = self._initial.get(first)
        if array is None:
            array = self._initial[first] = encode(self.game.new_game(seed))
        return array

    def decode(self, row: np.ndarray) -> EdgesState:
        """The readable rules' state of one row."""
        return decode(self.game, row)

    def initials(self, seeds: np.ndarray) -> np.ndarray:
        """:meth:`initial` of many games at once: the first seats drawn as the readable
        rules draw them (:meth:`EdgesGame.first_seat`), in one compiled call."""
        if self.game.first_is_drawn:
            streams = np.array([derive_seed(int(s), *FIRST_STREAM) for s in seeds], np.uint64)
            firsts = np.empty(len(seeds), dtype=np.int64)
            first_randrange(streams, self._p, firsts)
        else:
            firsts = np.full(len(seeds), self.game.first_seat(0), dtype=np.int64)
        for first in set(firsts.tolist()) - set(self._initial):
            seed = next(int(s) for s, f in zip(seeds, firsts, strict=True) if f == first)
            self._initial[first] = encode(self.game.new_game(seed))
        return np.stack([self._initial[f] for f in firsts.tolist()])

    def to_act(self, states: np.ndarray) -> np.ndarray:
        """The seat to act in each game; -1 where it is over."""
        out = np.empty(states.shape[0], dtype=np.int64)
        _to_act_all(states, self._n, self._p, out)
        return out

    def masks(self, states: np.ndarray, out: np.ndarray) -> None:
        """Each game's legal action ids as booleans."""
        _masks_all(states, self._n, self._p, self._pie, self._buffer(len(states)), out)

    def step(
        self, states: np.ndarray, actions: np.ndarray, rewards: np.ndarray, done: np.ndarray
    ) -> np.ndarray:
        """Play each game's action in place (see :class:`meeple.core.batch.BatchRules`)."""
        illegal = np.empty(states.shape[0], dtype=np.bool_)
        _step_all(
            states,
            np.asarray(actions, dtype=np.int64),
            self._n,
            self._p,
            self._pie,
            self._squares,
            self._buffer(len(states)),
            rewards,
            done,
            illegal,
        )
        return illegal

    def observe(self, states: np.ndarray, out: np.ndarray) -> None:
        """The observation of the seat to act in each game (the module says each slot)."""
        _observe_all(states, self._n, self._p, self._pie, self._start, out)

    def look(self, states: np.ndarray, masks: np.ndarray, observations: np.ndarray) -> np.ndarray:
        """:meth:`masks` and :meth:`observe` in one pass; returns :meth:`to_act`."""
        seats = np.empty(states.shape[0], dtype=np.int64)
        _look_all(
            states,
            self._n,
            self._p,
            self._pie,
            self._start,
            self._buffer(len(states)),
            masks,
            observations,
            seats,
        )
        return seats

    def observation_slots(self) -> list[str]:
        """``edge[h0,0].empty``, ``.own``, ``.other`` per edge, then ``stash[+k].L|M|S`` for
        the seat k places after the one to act, then ``pie`` and ``progress``."""
        names = [str(edge) for edge in self.game.board.edges]
        slots = [f"edge[{name}].{part}" for name in names for part in ("empty", "own", "other")]
        slots += [f"stash[+{k}].{size}" for k in range(self._p) for size in SIZES]
        return [*slots, "pie", "progress"]

    def observation_of_view(self, view: dict[str, Any], seat: int) -> np.ndarray:
        """``seat``'s observation from its view of the readable rules (``state.view(seat)``):
        what :meth:`observe` gives that seat, for the one-game adapters."""
        return observation_of_view(self.game, view, seat)


def observation_of_view(
    game: EdgesGame, view: dict[str, Any], seat: int | None = None
) -> np.ndarray:
    """The observation of :class:`EdgesBatch`, computed from a view of the readable rules
    (``state.view(seat)``, the same for every seat) from ``seat``'s side: by default the
    seat to act (seat 0 once the game is over), as the batch observes."""
    board = game.board
    n, p = board.num_edges, game.num_players
    start = (game.stash.large, game.stash.medium, game.stash.small)
    if seat is None:
        seat = view["to_act"][0] if view["to_act"] else 0
    side = seat % 2
    out = np.zeros(3 * n + 3 * p + 2, dtype=np.float32)
    out[0 : 3 * n : 3] = 1.0
    for name, placed in view["edges"].items():
        e = board.index[parse_edge(name)]
        strength = (3 - SIZES.index(placed["pyramid"])) / 3.0
        out[3 * e] = 0.0
        out[3 * e + (1 if placed["seat"] % 2 == side else 2)] = strength
    for k in range(p):
        stash = view["stashes"][(seat + k) % p]
        for g, size in enumerate(SIZES):
            out[3 * n + 3 * k + g] = stash[size] / max(1, start[g])
    out[3 * n + 3 * p] = 1.0 if view["pie_available"] else 0.0
    total = sum(start) * p
    left = sum(stash[size] for stash in view["stashes"] for size in SIZES)
    out[3 * n + 3 * p + 1] = (total - left) / total
    return out
