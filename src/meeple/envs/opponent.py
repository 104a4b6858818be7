"""One seat of a batched two-seat game, the other played by a fixed batched opponent.

``OpponentVecEnv("edges", num_envs=256, board="3x4")`` is the single-agent view a learner
written for Stable-Baselines3's ``VecEnv`` (PPO, MaskablePPO) expects: every step, every game
is at the learner's turn; the learner's action is played, then the opponent's reply (uniform
over the legal ids: ``random``), and the observation returned is the learner's next one. The
reward is the learner's return (1 win, -1 loss, 0 draw) on the step its game ends, whoever
moved last. The games run on :class:`~meeple.envs.vector.MeepleVectorEnv` (the compiled
rules), so a step costs two batched steps.

No torch and no Stable-Baselines3 here: ``reset()``, ``step(actions)`` and
``action_masks()`` have SB3's ``VecEnv`` meaning (``step`` returns observations, rewards,
dones and one info dict per game, a finished game's last observation under
``"terminal_observation"``, the next game already started), so a subclass that adds SB3's
``VecEnv`` base (``benchmarks/train_edges_ppo.py``) is all a learner needs.

**Seats.** A batched step moves every game at once, so the learner and the opponent take
turns across the whole batch: the learner moves in every game, then the opponent in every
game. A game that starts after the learner's move gives the learner the seat that does not
open it (the opponent opens), one that starts after the opponent's move the seat that
opens: so the learner plays both orders (after ``reset`` it opens every game). This needs
the seats to alternate, one move each, as Edges' two-seat games do; a game where a seat would
move twice running is refused with the slot that did.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meeple.core.errors import MeepleError
from meeple.envs.vector import MeepleVectorEnv

OPPONENTS = ("random",)
"""The batched opponents offered."""


class OpponentVecEnv:
    """The learner's seat of a batch of two-seat games against a batched opponent."""

    def __init__(
        self,
        game: str = "edges",
        num_envs: int = 64,
        opponent: str = "random",
        seed: int = 0,
        **options: Any,
    ) -> None:
        if opponent not in OPPONENTS:
            raise MeepleError(
                f"opponent {opponent!r} is not batched; choose from {', '.join(OPPONENTS)}"
            )
        self.env = MeepleVectorEnv(game, num_envs=num_envs, **options)
        if self.env.simultaneous or self.env.num_seats != 2:
            raise MeepleError(
                f"{self.env.game.title} is not a two-seat game of turns: OpponentVecEnv plays "
                "one seat against one opponent, a move each"
            )
        self.num_envs = num_envs
        self.observation_space = self.env.single_observation_space
        self.action_space = self.env.single_action_space
        self.opponent = opponent
        self.render_mode = None  # nothing to draw: SB3 asks
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.learner = np.zeros(num_envs, dtype=np.int64)
        """The learner's seat in each game now."""
        self.episodes = 0
        """Games finished since the last reset."""
        self._obs = np.zeros((num_envs, *self.observation_space.shape), dtype=np.float32)
        self._mask = np.zeros((num_envs, self.action_space.n), dtype=np.bool_)
        self._started = False

    def reset(self) -> np.ndarray:
        """Start every game (seeds ``seed + k``), the learner opening each: its observations."""
        obs, info = self.env.reset(seed=self.seed)
        self.learner[:] = info["to_act"]
        self.episodes = 0
        self._obs, self._mask = obs, info["action_mask"]
        self._started = True
        return obs.copy()

    def action_masks(self) -> np.ndarray:
        """The learner's legal ids in every game, ``(num_envs, num_actions)`` booleans."""
        return self._mask.copy()

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """The learner's action in every game, then the opponent's reply where the game goes
        on: (observations, rewards, dones, infos), as SB3's ``VecEnv.step``."""
        if not self._started:
            raise MeepleError("call reset() before step()")
        chosen = np.asarray(actions).reshape(-1).astype(np.int64)
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=np.bool_)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        # The learner moves everywhere; games it ends start again with the opponent opening.
        _, _, ended, _, info = self.env.step(chosen)
        self._finish(ended, info, rewards, dones, infos)
        self.learner[ended] = 1 - info["to_act"][ended]
        self._check_turn(info["to_act"], opponent=True)
        # The opponent replies everywhere; games it ends start again with the learner opening.
        obs, _, ended, _, info = self.env.step(self._opponent_moves(info["action_mask"]))
        self._finish(ended, info, rewards, dones, infos)
        self.learner[ended] = info["to_act"][ended]
        self._check_turn(info["to_act"], opponent=False)
        self._obs, self._mask = obs, info["action_mask"]
        return obs.copy(), rewards, dones, infos

    def _finish(
        self,
        ended: np.ndarray,
        info: dict[str, Any],
        rewards: np.ndarray,
        dones: np.ndarray,
        infos: list[dict[str, Any]],
    ) -> None:
        """Record the learner's return and last observation in every game that just ended."""
        for k in np.flatnonzero(ended):
            if dones[k]:
                # SB3 takes one ending a step: a game over after the opponent's opening move
                # would be a second
                raise MeepleError(f"game {int(k)} ended twice in one step: the games are too short")
            rewards[k] = info["rewards"][k, self.learner[k]]
            dones[k] = True
            infos[k]["terminal_observation"] = info["final_obs"][k].copy()
            infos[k]["learner_seat"] = int(self.learner[k])
        self.episodes += int(ended.sum())

    def _check_turn(self, to_act: np.ndarray, opponent: bool) -> None:
        """MeepleError naming a game whose seat to act is not the one expected."""
        expected = 1 - self.learner if opponent else self.learner
        wrong = np.flatnonzero(to_act != expected)
        if wrong.size:
            who = "the opponent" if opponent else "the learner"
            raise MeepleError(
                f"game {int(wrong[0])}: seat {int(to_act[wrong[0]])} is to act where {who} "
                "was: OpponentVecEnv needs the seats to move in turn"
            )

    def _opponent_moves(self, mask: np.ndarray) -> np.ndarray:
        """A uniformly random legal id in every game."""
        keys = self.rng.random(mask.shape) * mask
        return keys.argmax(axis=1)
