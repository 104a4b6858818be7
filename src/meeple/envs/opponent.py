"""One seat of a batch of games, the other seats played by a fixed batched opponent.

``OpponentVecEnv("edges", num_envs=256, board="3x4")`` is the single-agent view a learner
written for Stable-Baselines3's ``VecEnv`` (PPO, MaskablePPO) expects: every step, every game
is at the learner's turn; the learner's action is played, then the opponents' moves (uniform
over the legal ids: ``random``, in every game; a game's batched rules may offer more, as The
Triangle Clock's ``policy``: :func:`opponents`) until each game is at the learner's turn
again, and the observation returned is the learner's next one. The reward is the learner's
return (1 win, -1 loss, 0 draw) on the step its game ends, whoever moved last. The games run on
:class:`~meeple.envs.vector.MeepleVectorEnv` (the compiled rules): a step is one batched step
for the learner's move, then as many as the opponents need, each moving only the games where
an opponent is to act (``step(..., active=...)``) while the others wait.

Any number of seats, any order of turns: a seat may move several times running (Erosion,
Squad Combat), the opponents' replies go on until the learner is to act. **Simultaneous
games** (Erd, The Triangle Clock) take every acting seat's action in one step: the learner's
action is its seat's, the opponent draws the other acting seats'; where only opponents act,
they move alone. Observations and masks are the learner's seat's, ``(B, size)`` and ``(B,
actions)``, as for a game of turns.

No torch and no Stable-Baselines3 here: ``reset()``, ``step(actions)`` and
``action_masks()`` have SB3's ``VecEnv`` meaning (``step`` returns observations, rewards,
dones and one info dict per game, a finished game's last observation under
``"terminal_observation"``, the next game already started), so a subclass that adds SB3's
``VecEnv`` base (``benchmarks/train_ppo.py``) is all a learner needs. In a game of turns that
last observation is the one ``MeepleVectorEnv`` reports, seat 0's in Edges and Erosion and
the last mover's in Squad Combat, not always the learner's (SB3 reads it only for an
episode cut short, which a finished game is not).

**Seats.** Game ``k`` of ``reset`` gives the learner seat ``k % seats``, and each game a slot
starts after it the seat after the one it had: the learner plays every seat, each as often.
The opponents open the games where the learner's seat does not.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meeple.core.errors import MeepleError
from meeple.envs import framework_missing
from meeple.envs.inputs import action_ids, batch_seed, generator_seed
from meeple.envs.vector import MeepleVectorEnv

try:
    from gymnasium import spaces
except ModuleNotFoundError as missing:  # the envs extra is not installed
    raise framework_missing(missing) from None

OPPONENTS = ("random",)
"""The batched opponents every game offers; a game's batched rules may offer more (their
``opponents``: :func:`opponents`)."""


def opponents(rules: Any) -> tuple[str, ...]:
    """The batched opponents a game's batched rules offer: :data:`OPPONENTS`, then the
    game's own (``rules.opponents``, each played by ``rules.opponent_actions(name, states,
    seats, acting, seeds)``: the Triangle Clock's ``policy``)."""
    return (*OPPONENTS, *getattr(rules, "opponents", ()))


MAX_REPLIES = 10_000
"""The most batched opponent steps one learner step waits for (a guard against a game where
the learner would never be to act again)."""


class OpponentVecEnv:
    """The learner's seat of a batch of games against a batched opponent in the others."""

    def __init__(
        self,
        game: str = "edges",
        num_envs: int = 64,
        opponent: str = "random",
        seed: int = 0,
        **options: Any,
    ) -> None:
        self.env = MeepleVectorEnv(game, num_envs=num_envs, **options)
        num_envs = self.env.num_envs
        seed = batch_seed(seed, num_envs)
        offered = opponents(self.env.rules)
        if opponent not in offered:
            raise MeepleError(
                f"{self.env.game.title} has no batched opponent {opponent!r}; it offers "
                f"{', '.join(offered)}"
            )
        if self.env.num_seats < 2:
            raise MeepleError(
                f"{self.env.game.title} has one seat here: OpponentVecEnv needs an opponent's"
            )
        self.num_envs = num_envs
        self.num_seats = self.env.num_seats
        self.simultaneous = self.env.simultaneous
        size, actions = self.env.rules.observation_size, self.env.rules.num_actions
        self.observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.action_space = spaces.Discrete(actions)
        self.opponent = opponent
        self.render_mode = None  # nothing to draw: SB3 asks
        self.seed = seed
        self.rng = np.random.default_rng(generator_seed(seed))
        self.learner = np.zeros(num_envs, dtype=np.int64)
        """The learner's seat in each game now."""
        self.episodes = 0
        """Games finished since the last reset."""
        self.opponent_steps = 0
        """Batched steps the opponents took since the last reset."""
        self._rows = np.arange(num_envs)
        self._obs = np.zeros((num_envs, size), dtype=np.float32)
        self._mask = np.zeros((num_envs, actions), dtype=np.bool_)
        self._info: dict[str, Any] = {}
        self._started = False

    def reset(self) -> np.ndarray:
        """Start every game (seeds ``seed + k``), the learner in seat ``k % seats``, the
        opponents opening where that seat does not: the learner's observations."""
        obs, info = self.env.reset(seed=self.seed)
        self.learner[:] = self._rows % self.num_seats
        self.episodes = 0
        self.opponent_steps = 0
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        dones = np.zeros(self.num_envs, dtype=np.bool_)
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        self._reply(obs, info, rewards, dones, infos)
        self._started = True
        return self._obs.copy()

    def action_masks(self) -> np.ndarray:
        """The learner's legal ids in every game, ``(num_envs, num_actions)`` booleans."""
        return self._mask.copy()

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """The learner's action in every game, then the opponents' until it is to act again:
        (observations, rewards, dones, infos), as SB3's ``VecEnv.step``."""
        if not self._started:
            raise MeepleError("call reset() before step()")
        chosen = action_ids(actions, (self.num_envs,))
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=np.bool_)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if self.simultaneous:
            # the other acting seats move with the learner, as the rules have them
            joint = self._opponent_moves(self._info)
            joint[self._rows, self.learner] = chosen
        else:
            joint = chosen
        obs, _, ended, _, info = self.env.step(joint)
        self._finish(ended, info, rewards, dones, infos)
        self._reply(obs, info, rewards, dones, infos)
        return self._obs.copy(), rewards, dones, infos

    def _learner_acts(self, info: dict[str, Any]) -> np.ndarray:
        """``(B,)`` True where the learner's seat is to act."""
        if self.simultaneous:
            return info["acting"][self._rows, self.learner]
        return info["to_act"] == self.learner

    def _reply(
        self,
        obs: np.ndarray,
        info: dict[str, Any],
        rewards: np.ndarray,
        dones: np.ndarray,
        infos: list[dict[str, Any]],
    ) -> None:
        """The opponents move where they are to act, the other games waiting, until the
        learner is to act in every game; keep its observations and masks."""
        for _ in range(MAX_REPLIES):
            waiting = ~self._learner_acts(info)
            if not waiting.any():
                break
            self.opponent_steps += 1
            obs, _, ended, _, info = self.env.step(self._opponent_moves(info), active=waiting)
            self._finish(ended, info, rewards, dones, infos)
        else:
            k = int(np.flatnonzero(~self._learner_acts(info))[0])
            raise MeepleError(
                f"game {k}: the learner's seat {int(self.learner[k])} was not to act after "
                f"{MAX_REPLIES} opponent moves"
            )
        self._info = info
        if self.simultaneous:
            self._obs = obs[self._rows, self.learner]
            self._mask = info["action_mask"][self._rows, self.learner]
        else:
            self._obs, self._mask = obs, info["action_mask"]

    def _finish(
        self,
        ended: np.ndarray,
        info: dict[str, Any],
        rewards: np.ndarray,
        dones: np.ndarray,
        infos: list[dict[str, Any]],
    ) -> None:
        """Record the learner's return and last observation in every game that just ended;
        the learner takes the next seat in the game that starts there."""
        for k in np.flatnonzero(ended):
            if dones[k]:
                # SB3 takes one ending a step: a game the opponents ended before the learner
                # moved in it would be a second
                raise MeepleError(f"game {int(k)} ended twice in one step: the games are too short")
            seat = int(self.learner[k])
            final = info["final_obs"][k]
            rewards[k] = info["rewards"][k, seat]
            dones[k] = True
            infos[k]["terminal_observation"] = (final[seat] if self.simultaneous else final).copy()
            infos[k]["learner_seat"] = seat
            self.learner[k] = (seat + 1) % self.num_seats
        self.episodes += int(ended.sum())

    def _opponent_moves(self, info: dict[str, Any]) -> np.ndarray:
        """The opponent's action in every game (for every seat, in a simultaneous game:
        ``(B, seats)``; the learner's seat's and a seat not to act's are ignored)."""
        mask = info["action_mask"]
        if self.opponent == "random":
            # A uniformly random legal id. Random keys, not core.batch.random_legal_ids:
            # the learning curves in docs/baselines.md were trained with this stream, and
            # replay from it.
            keys = self.rng.random(mask.shape) * mask
            return keys.argmax(axis=-1)
        # the game's own opponent, each game seeded from the env's stream at every step
        rules, rows = self.env.rules, self.env.rows
        if not self.simultaneous:
            seats = info["to_act"]
            acting = (seats >= 0) & (seats != self.learner)
            seeds = self.rng.integers(0, 2**32, self.num_envs)
            return rules.opponent_actions(self.opponent, rows, seats, acting, seeds)
        joint = np.zeros(mask.shape[:2], dtype=np.int64)
        for offset in range(1, self.num_seats):
            seats = (self.learner + offset) % self.num_seats
            acting = info["acting"][self._rows, seats]
            seeds = self.rng.integers(0, 2**32, self.num_envs)
            joint[self._rows, seats] = rules.opponent_actions(
                self.opponent, rows, seats, acting, seeds
            )
        return joint
