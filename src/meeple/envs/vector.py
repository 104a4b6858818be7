"""Many games at once on the compiled rules, as a Gymnasium vector environment.

``MeepleVectorEnv("edges", num_envs=256, board="3x4")`` steps 256 games of one
configuration per call, with NumPy arrays in and out: one action id per game for the seat to
act in it, which is the seat the observation of that game was for (self-play: one learner
plays every seat, as in pgx). Per game and step:

* ``observation``: the designed, fixed-size observation of the seat to act
  (``env.observation_slots()`` names each slot; every slot lies in [0, 1]);
* ``reward``: the return of the seat that just acted (1 win, -1 loss, 0 draw), non-zero only
  on the step that ends a game; ``info["rewards"]`` holds every seat's, ``(B, seats)``;
* ``info["action_mask"]``: the legal ids of the seat to act now, ``info["to_act"]`` that
  seat, ``info["acted"]`` the seat that just acted;
* a finished game starts again in the same step (Gymnasium's same-step autoreset):
  ``info["final_obs"]`` holds the observation it ended on, where ``info["_final_obs"]``.

**Simultaneous games** (The Triangle Clock: ``rules.simultaneous``) take every acting
seat's action in one step, with PettingZoo-style per-seat data (as pgx gives rewards):
``actions`` is ``(B, seats)``, one id per seat (the entry of a seat not to act is ignored);
``observation`` is ``(B, seats, size)``, each seat's own; ``reward`` and
``info["rewards"]`` are ``(B, seats)``; ``info["action_mask"]`` is ``(B, seats, actions)``
(all False for a seat not to act) and ``info["acting"]`` ``(B, seats)`` says which seats
act now, ``info["acted"]`` which acted in the step just taken.

``step(actions, active=mask)`` moves only the games where ``mask`` (``(B,)`` booleans) is
True; the others stay as they are (their actions are not read; their rewards are 0, their
``info["acted"]`` -1, or all False for a simultaneous game): a learner against opponents
(:mod:`meeple.envs.opponent`) lets the opponents move where they are to act while the games
at the learner's turn wait.

Game ``k`` of ``reset(seed=s)`` is the readable rules' ``new_game(s + k)``, and the games a
slot plays after it take seeds ``s + k + B``, ``s + k + 2B``, ... (64-bit integers: past
``2**63 - 1`` they wrap round to ``-2**63``): a run replays exactly. A seed may be negative. An
action that is not legal raises :class:`~meeple.core.errors.IllegalAction` before any game
moves. Only games whose compiled twin can step a batch are offered
(:func:`meeple.core.registry.batch_rules` names them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from meeple.core.batch import arrays
from meeple.core.errors import IllegalAction, MeepleError
from meeple.core.registry import batch_rules, make
from meeple.core.words import counted
from meeple.envs import framework_missing
from meeple.envs.inputs import (
    action_ids,
    check_seeds_fit,
    generator_seed,
    whole_number,
)

try:
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ModuleNotFoundError as missing:  # the envs extra is not installed
    raise framework_missing(missing) from None

MAX_ENVS = 1 << 20
"""The most games one environment steps at once (a bound on the memory it takes)."""


class MeepleVectorEnv(VectorEnv):
    """A batch of games of one configuration (see the module docstring)."""

    # gymnasium annotates metadata as an instance variable, though VectorEnv sets it on the class.
    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # type: ignore[misc]

    def __init__(self, game: str = "edges", num_envs: int = 64, **options: Any) -> None:
        count = whole_number(num_envs)
        if count is None:
            raise MeepleError(f"num_envs must be a whole number, not {num_envs!r}")
        num_envs = count
        if not 1 <= num_envs <= MAX_ENVS:
            raise MeepleError(f"num_envs must be 1 to {MAX_ENVS}, not {num_envs}")
        self.game = make(game, **options)
        self.rules = batch_rules(self.game)
        self.num_envs = num_envs
        self.num_seats = self.rules.num_players
        self.simultaneous = bool(getattr(self.rules, "simultaneous", False))
        size, actions = self.rules.observation_size, self.rules.num_actions
        # a simultaneous game's data is per seat: one more axis after the game's
        seats = (self.num_seats,) if self.simultaneous else ()
        self.single_observation_space = spaces.Box(0.0, 1.0, (*seats, size), np.float32)
        self.single_action_space: spaces.Space[Any] = (
            spaces.MultiDiscrete([actions] * self.num_seats)
            if self.simultaneous
            else spaces.Discrete(actions)
        )
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._states, self._masks, self._obs = arrays(self.rules, num_envs)
        self._seeds = np.zeros(num_envs, dtype=np.int64)
        self._started = False

    def observation_slots(self) -> list[str]:
        """The name of every slot of an observation, in order."""
        return list(self.rules.observation_slots())

    def _look(self) -> dict[str, Any]:
        seats = self.rules.look(self._states, self._masks, self._obs)
        # Who acts changes only when the states do (a step or a reset, both of which end
        # here), so the next step reads it from here rather than asking the rules again.
        self._acting = seats.copy()
        return {
            "action_mask": self._masks.copy(),
            "acting" if self.simultaneous else "to_act": seats,
        }

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | np.ndarray | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start every game: seeds ``seed + k``, or one per game from a list (or array) of
        ``num_envs`` seeds, where None is drawn as Gymnasium's vector environments draw it;
        drawn when None. Returns the observations and the info described in the module."""
        start = whole_number(seed)
        if start is not None:
            check_seeds_fit(start, start + self.num_envs - 1)
        # Gymnasium seeds its generator (the one that draws seeds after an unseeded reset)
        # only from non-negative ints; a negative game seed gives it its 64-bit pattern.
        super().reset(seed=None if start is None else generator_seed(start))
        if options:
            raise MeepleError("reset takes no options: a game's options are given when it is made")
        if seed is None:
            seeds = self.np_random.integers(0, 2**62, self.num_envs)
        elif start is not None:
            seeds = start + np.arange(self.num_envs, dtype=np.int64)
        else:
            seeds = self._listed_seeds(seed)
        self._seeds[:] = seeds
        self._states[:] = self.rules.initials(self._seeds)
        self._started = True
        info = self._look()
        info["seed"] = self._seeds.copy()
        return self._obs.copy(), info

    def _listed_seeds(self, seed: Any) -> np.ndarray:
        """One seed per game from a list, tuple or array of whole numbers (None: drawn);
        MeepleError saying what a seed may be otherwise."""
        allowed = f"a whole number, or a list of {counted(self.num_envs, 'seed')} (None: drawn)"
        if isinstance(seed, np.ndarray):
            seed = seed.tolist()
        if not isinstance(seed, list | tuple):
            raise MeepleError(f"seed must be {allowed}, not {seed!r}")
        if len(seed) != self.num_envs:
            raise MeepleError(f"reset needs {counted(self.num_envs, 'seed')}, got {len(seed)}")
        wrong = [s for s in seed if s is not None and whole_number(s) is None]
        if wrong:
            raise MeepleError(f"seed must be {allowed}; {wrong[0]!r} is not a whole number")
        for s in seed:
            if s is not None:
                check_seeds_fit(int(s), int(s))
        drawn = self.np_random.integers(0, 2**62, self.num_envs)
        return np.array(
            [int(s) if s is not None else int(d) for s, d in zip(seed, drawn, strict=True)],
            dtype=np.int64,
        )

    def step(
        self, actions: Any, active: Any = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play one action in every game, or in the games ``active`` marks (see the module
        docstring)."""
        if not self._started:
            raise MeepleError("call reset() before step()")
        shape = (self.num_envs, self.num_seats) if self.simultaneous else (self.num_envs,)
        chosen = action_ids(actions, shape)
        acted = self._acting.copy()
        rows = None if active is None else self._active_rows(active)
        if rows is not None:
            waiting = np.ones(self.num_envs, dtype=np.bool_)
            waiting[rows] = False
            acted[waiting] = False if self.simultaneous else -1
        self._check_legal(chosen, acted)
        rewards = np.zeros((self.num_envs, self.num_seats), dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=np.bool_)
        if rows is None:
            self.rules.step(self._states, chosen, rewards, done)
        elif len(rows):
            # the rows move as a batch of their own: a game's row is all its state
            part, part_rewards, part_done = self._states[rows], rewards[rows], done[rows]
            self.rules.step(part, chosen[rows], part_rewards, part_done)
            self._states[rows], rewards[rows], done[rows] = part, part_rewards, part_done
        info: dict[str, Any] = {"rewards": rewards, "acted": acted}
        if done.any():
            self.rules.observe(self._states, self._obs)
            info["final_obs"] = self._obs.copy()
            info["_final_obs"] = done.copy()
            # int64, as the rows keep seeds: past 2**63 - 1 a slot's seeds wrap round to
            # -2**63 (documented), where Python's ints would leave the 64 bits
            self._seeds[done] += self.num_envs
            self._states[done] = self.rules.initials(self._seeds[done])
        info.update(self._look())
        if self.simultaneous:
            reward = rewards
        else:
            reward = np.where(acted >= 0, rewards[np.arange(self.num_envs), acted], 0.0)
            reward = reward.astype(np.float32)
        return self._obs.copy(), reward, done, np.zeros_like(done), info

    def _active_rows(self, active: Any) -> np.ndarray:
        """The indices of the games ``active`` marks; MeepleError unless it is ``(B,)``
        booleans."""
        mask = np.asarray(active)
        if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
            raise MeepleError(
                f"active must be {self.num_envs} booleans, one per game, got shape "
                f"{mask.shape} of {mask.dtype}"
            )
        return np.flatnonzero(mask)

    def _check_legal(self, chosen: np.ndarray, acted: np.ndarray) -> None:
        """IllegalAction naming the first game (and seat) whose action is not legal."""
        masks = self._masks
        if self.simultaneous:
            # a seat not to act may send anything: its entry is ignored
            masks = masks.reshape(-1, masks.shape[-1])
            flat = np.where(acted.reshape(-1), chosen.reshape(-1), -1)
            considered = acted.reshape(-1)
        else:
            # a game that waits (``active``) may send anything: its action is not read
            considered = acted >= 0
            flat = np.where(considered, chosen, -1)
        in_range = (flat >= 0) & (flat < self.rules.num_actions)
        legal = ~considered
        legal[in_range] = masks[np.flatnonzero(in_range), flat[in_range]]
        if legal.all():
            return
        k = int(np.flatnonzero(~legal)[0])
        where = f"game {k}"
        if self.simultaneous:
            where = f"game {k // self.num_seats} for seat {k % self.num_seats}"
        raise IllegalAction(
            f"action {int(chosen.reshape(-1)[k])} is not legal in {where}; legal ids: "
            f"{np.flatnonzero(masks[k]).tolist()}"
        )

    @property
    def rows(self) -> np.ndarray:
        """Every game's row now, ``(B, state_size)`` (the batched rules' own arrays, not a
        copy: read it, never write it)."""
        return self._states

    def states(self) -> list[Any]:
        """The readable rules' state of every game now (for checking and display; slow)."""
        decode = getattr(self.rules, "decode", None)
        if decode is None:
            raise MeepleError(f"{self.game.title}'s batched rules do not decode their states")
        return [decode(row) for row in self._states]
