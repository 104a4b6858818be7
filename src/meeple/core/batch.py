"""Batched rules: many games of one configuration stepped at once on arrays, for research.

A game whose compiled twin can step a whole batch registers a :class:`BatchRules` factory
(:func:`meeple.core.registry.register_batch`); the research environments
(:mod:`meeple.envs.vector`) build on it without knowing the game. Every array is NumPy:

* ``states``: ``(B, state_size)`` integers, one compiled position per row (the layout is
  the game's compiled twin's, so a row decodes to the readable rules' state): ``int16``
  unless the rules name another dtype as ``state_dtype``;
* ``actions``: ``(B,)`` action ids (the readable rules' ids) for the seat to act in each
  game;
* ``masks``: ``(B, num_actions)`` booleans, the legal ids of the seat to act;
* ``observations``: ``(B, observation_size)`` float32, each row what the seat to act may
  know, laid out slot by slot as :meth:`BatchRules.observation_slots` names them;
* ``rewards``: ``(B, num_players)`` float32, each seat's return, non-zero only on the step
  that ends a game.

Rules whose decisions are simultaneous set ``simultaneous = True`` and give every seat its
own data, with a seat axis after the game's: ``actions`` ``(B, num_players)`` (an entry is
read only for a seat to act), ``masks`` ``(B, num_players, num_actions)``, ``observations``
``(B, num_players, observation_size)`` (each seat's own), and :meth:`BatchRules.to_act`
``(B, num_players)`` booleans, the seats yet to act.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

import numpy as np
from numba import prange

from meeple.core.kernels import kernel


class BatchRules(Protocol):
    """The rules of one game configuration over a batch of positions (see the module)."""

    num_players: int
    num_actions: int
    state_size: int
    observation_size: int

    def initial(self, seed: int) -> np.ndarray:
        """The position a game starts in with ``seed``: the readable rules' ``new_game``."""
        ...

    def initials(self, seeds: np.ndarray) -> np.ndarray:
        """``(len(seeds), state_size)``: :meth:`initial` of each seed, at once."""
        ...

    def to_act(self, states: np.ndarray) -> np.ndarray:
        """``(B,)`` the seat to act in each game; -1 where the game is over."""
        ...

    def masks(self, states: np.ndarray, out: np.ndarray) -> None:
        """Write each game's legal action ids, as booleans, into ``out`` ``(B, A)``."""
        ...

    def step(
        self, states: np.ndarray, actions: np.ndarray, rewards: np.ndarray, done: np.ndarray
    ) -> np.ndarray:
        """Play each game's action in place; write each seat's return into ``rewards`` and
        whether the game ended into ``done``. Returns ``(B,)`` booleans: True where the
        action was not legal (that game is left as it was)."""
        ...

    def observe(self, states: np.ndarray, out: np.ndarray) -> None:
        """Write the observation of the seat to act in each game into ``out``."""
        ...

    def look(self, states: np.ndarray, masks: np.ndarray, observations: np.ndarray) -> np.ndarray:
        """:meth:`masks` and :meth:`observe` at once (one pass); returns :meth:`to_act`."""
        ...

    def observation_slots(self) -> list[str]:
        """The name of every slot of an observation, in order."""
        ...

    def observation_of_view(self, view: dict[str, Any], seat: int) -> np.ndarray:
        """``seat``'s observation computed from its view of the readable rules
        (``state.view(seat)``): the numbers :meth:`observe` gives where ``seat`` is to act
        (:mod:`meeple.envs.observation` offers it to the one-game adapters)."""
        ...


class Arrays(NamedTuple):
    """The arrays a batch of games is stepped in (shaped as the module says)."""

    states: np.ndarray
    masks: np.ndarray
    observations: np.ndarray


def arrays(rules: BatchRules, batch: int) -> Arrays:
    """Zeroed ``states``, ``masks`` and ``observations`` for ``batch`` games of ``rules``:
    the states in the rules' ``state_dtype`` (``int16`` unless named), and a seat axis on
    the masks and observations where the rules are ``simultaneous``."""
    seats = (rules.num_players,) if getattr(rules, "simultaneous", False) else ()
    dtype = getattr(rules, "state_dtype", np.int16)
    return Arrays(
        np.zeros((batch, rules.state_size), dtype=dtype),
        np.zeros((batch, *seats, rules.num_actions), dtype=np.bool_),
        np.zeros((batch, *seats, rules.observation_size), dtype=np.float32),
    )


def seed_words(seeds: np.ndarray, dtype: np.dtype | type) -> np.ndarray:
    """Each ``int64`` seed as the words of ``dtype`` a row of that dtype keeps it in, low
    word first: ``(B, 8 // itemsize)``."""
    word = np.dtype(dtype).newbyteorder("<")
    return np.ascontiguousarray(seeds, dtype="<i8").view(word).reshape(len(seeds), -1)


def seeds_in(states: np.ndarray, at: int) -> np.ndarray:
    """The ``int64`` seed each row of ``states`` keeps from column ``at`` (as
    :func:`seed_words` writes it)."""
    words = 8 // states.dtype.itemsize
    return np.ascontiguousarray(states[:, at : at + words]).view("<i8").reshape(-1)


@kernel(nogil=True, parallel=True)
def _pick_legal(masks: np.ndarray, draws: np.ndarray, out: np.ndarray) -> None:
    # The r-th legal id of each row, r = floor(draw * count): two passes over a row, no
    # temporary arrays (np.nonzero over a whole batch of wide masks cost more than a step).
    for row in prange(masks.shape[0]):
        count = 0
        for a in range(masks.shape[1]):
            if masks[row, a]:
                count += 1
        out[row] = 0
        if count == 0:
            continue
        target = min(int(draws[row] * count), count - 1)
        for a in range(masks.shape[1]):
            if masks[row, a]:
                if target == 0:
                    out[row] = a
                    break
                target -= 1


def random_legal_ids(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal id for every row of ``masks`` (``(B, A)``, or ``(B, S, A)``
    for a simultaneous game's seats), drawn from ``rng``: ``(B,)`` or ``(B, S)`` ``int64``.
    A row with no legal id (a seat not to act) gets 0, which the environments ignore."""
    if masks.dtype != np.bool_ or masks.ndim not in (2, 3):
        raise ValueError(
            f"masks must be booleans of shape (B, A) or (B, S, A), got {masks.dtype} "
            f"of shape {masks.shape}"
        )
    flat = np.ascontiguousarray(masks.reshape(-1, masks.shape[-1]))
    out = np.empty(flat.shape[0], dtype=np.int64)
    _pick_legal(flat, rng.random(flat.shape[0]), out)
    return out.reshape(masks.shape[:-1])
