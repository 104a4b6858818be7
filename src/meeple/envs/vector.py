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

Game ``k`` of ``reset(seed=s)`` is the readable rules' ``new_game(s + k)``, and the games a
slot plays after it take seeds ``s + k + B``, ``s + k + 2B``, ...: a run replays exactly. An
action that is not legal raises :class:`~meeple.core.errors.IllegalAction` before any game
moves. Only games whose compiled twin can step a batch are offered
(:func:`meeple.core.registry.batch_rules` names them).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from meeple.core.errors import IllegalAction, MeepleError
from meeple.core.registry import batch_rules, make

MAX_ENVS = 1 << 20
"""The most games one environment steps at once (a bound on the memory it takes)."""


class MeepleVectorEnv(VectorEnv):
    """A batch of games of one configuration (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, game: str = "edges", num_envs: int = 64, **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int):
            raise MeepleError(f"num_envs must be a whole number, not {num_envs!r}")
        if not 1 <= num_envs <= MAX_ENVS:
            raise MeepleError(f"num_envs must be 1 to {MAX_ENVS}, not {num_envs}")
        self.game = make(game, **options)
        self.rules = batch_rules(self.game)
        self.num_envs = num_envs
        self.num_seats = self.rules.num_players
        size, actions = self.rules.observation_size, self.rules.num_actions
        self.single_observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._states = np.zeros((num_envs, self.rules.state_size), dtype=np.int16)
        self._seeds = np.zeros(num_envs, dtype=np.int64)
        self._masks = np.zeros((num_envs, actions), dtype=np.bool_)
        self._obs = np.zeros((num_envs, size), dtype=np.float32)
        self._started = False

    def observation_slots(self) -> list[str]:
        """The name of every slot of an observation, in order."""
        return list(self.rules.observation_slots())

    def _look(self) -> dict[str, Any]:
        seats = self.rules.look(self._states, self._masks, self._obs)
        return {"action_mask": self._masks.copy(), "to_act": seats}

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start every game: seeds ``seed + k`` (or one per game from a list; drawn when
        None). Returns the observations and the info described in the module."""
        super().reset(seed=seed if isinstance(seed, int) else None)
        if options:
            raise MeepleError("reset takes no options: a game's options are given when it is made")
        if seed is None:
            seeds = self.np_random.integers(0, 2**62, self.num_envs)
        elif isinstance(seed, list):
            if len(seed) != self.num_envs:
                raise MeepleError(f"reset needs {self.num_envs} seeds, got {len(seed)}")
            seeds = np.array(seed, dtype=np.int64)
        else:
            seeds = seed + np.arange(self.num_envs, dtype=np.int64)
        self._seeds[:] = seeds
        self._states[:] = self.rules.initials(self._seeds)
        self._started = True
        info = self._look()
        info["seed"] = self._seeds.copy()
        return self._obs.copy(), info

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play one action in every game (see the module docstring)."""
        if not self._started:
            raise MeepleError("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or not np.issubdtype(chosen.dtype, np.integer):
            raise MeepleError(
                f"step takes {self.num_envs} integer action ids, got shape {chosen.shape} "
                f"of {chosen.dtype}"
            )
        in_range = (chosen >= 0) & (chosen < self.rules.num_actions)
        legal = in_range.copy()
        legal[in_range] = self._masks[np.flatnonzero(in_range), chosen[in_range]]
        if not legal.all():
            k = int(np.flatnonzero(~legal)[0])
            raise IllegalAction(
                f"action {int(chosen[k])} is not legal in game {k}; legal ids: "
                f"{np.flatnonzero(self._masks[k]).tolist()}"
            )
        acted = self.rules.to_act(self._states)
        rewards = np.zeros((self.num_envs, self.num_seats), dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=np.bool_)
        self.rules.step(self._states, chosen, rewards, done)
        info: dict[str, Any] = {"rewards": rewards, "acted": acted}
        if done.any():
            self.rules.observe(self._states, self._obs)
            info["final_obs"] = self._obs.copy()
            info["_final_obs"] = done.copy()
            self._seeds[done] += self.num_envs
            self._states[done] = self.rules.initials(self._seeds[done])
        info.update(self._look())
        reward = rewards[np.arange(self.num_envs), acted]
        return self._obs.copy(), reward, done, np.zeros_like(done), info

    def states(self) -> list[Any]:
        """The readable rules' state of every game now (for checking and display; slow)."""
        decode = getattr(self.rules, "decode", None)
        if decode is None:
            raise MeepleError(f"{self.game.title}'s batched rules do not decode their states")
        return [decode(row) for row in self._states]
