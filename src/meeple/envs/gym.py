"""One seat of a meeple game as a single-agent Gymnasium environment.

``MeepleGymEnv("edges", seat=0, opponents=["random"], board="2x3")``: the learner plays
``seat``; built-in agents (any agent spec) play the others, inside ``step``. The
observation is the learner's encoded view (``observation="view"``, the default) or the
batched environment's designed observation (``"designed"``; :mod:`meeple.envs.observation`),
the action an integer action id, and ``info["action_mask"]`` (also ``action_masks()``, as
masked PPO expects) says which ids are legal; an illegal id loses the game (reward -1), or raises
with ``illegal_action="raise"``. The reward is the game's return for the learner at the
end (1 win, -1 loss, 0 draw), 0 before. Importing the module registers every game with
Gymnasium as ``meeple/<game>-v0`` (``gymnasium.make``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Literal

import numpy as np

from meeple.agents import make_agent
from meeple.core.agent import Agent, Observation
from meeple.core.errors import IllegalAction, MeepleError
from meeple.core.game import State
from meeple.core.registry import games, make
from meeple.core.rng import derive_seed
from meeple.core.words import counted
from meeple.envs import framework_missing
from meeple.envs.inputs import action_id_of, game_seed, generator_seed
from meeple.envs.observation import ObservationKind, observation_for
from meeple.envs.pettingzoo import (
    RENDER_MODES,
    check_render_mode,
    render_board,
    started,
)

try:
    import gymnasium
    from gymnasium import spaces
except ModuleNotFoundError as missing:  # the envs extra is not installed
    raise framework_missing(missing) from None


class GameResult(Mapping[str, Any]):
    """A finished game's result, as ``info["result"]`` gives it: read as the dict it holds
    (``info["result"]["winner"]``; ``dict(info["result"])`` for a dict), yet no dict.

    Gymnasium's vector envs spread a dict in ``info`` into an array per field, typed by the
    first env's value: a won game's winner 0 beside a drawn game's None raised TypeError in
    ``gymnasium.make_vec`` (and a score of 2.5 would have been cut to 2). Anything else they
    keep whole, one per env, in an array of objects."""

    __slots__ = ("_fields",)

    def __init__(self, fields: Mapping[str, Any]) -> None:
        self._fields = dict(fields)

    def __getitem__(self, key: str) -> Any:
        return self._fields[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def __repr__(self) -> str:
        return f"GameResult({self._fields!r})"


class MeepleGymEnv(gymnasium.Env):
    """One seat of a game against built-in agents."""

    # Gymnasium's checker asks every rendering env for a frame rate; a turn-based board has
    # none of its own, so this is the 4 of Gymnasium's own text games (Blackjack, Taxi).
    # gymnasium annotates metadata as an instance variable, though Env sets it on the class.
    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # type: ignore[misc]

    def __init__(
        self,
        game: str = "edges",
        seat: int = 0,
        opponents: list[str] | str | None = None,
        render_mode: str | None = None,
        illegal_action: Literal["lose", "raise"] = "lose",
        observation: ObservationKind = "view",
        **options: Any,
    ) -> None:
        self.game = make(game, **options)
        if illegal_action not in ("lose", "raise"):
            raise MeepleError(
                f"illegal_action must be one of 'lose', 'raise', not {illegal_action!r}"
            )
        self.illegal_action = illegal_action
        if not 0 <= seat < self.game.num_players:
            raise MeepleError(f"seat must be 0 to {self.game.num_players - 1}, not {seat}")
        # One spec as text is every opponent's (a string is not a list of one-letter specs).
        others = [opponents] if isinstance(opponents, str) else opponents or ["random"]
        if len(others) == 1:
            others = others * (self.game.num_players - 1)
        if len(others) != self.game.num_players - 1:
            raise MeepleError(
                f"{self.game.title} needs {counted(self.game.num_players - 1, 'opponent')}, "
                f"got {len(others)}"
            )
        self.seat = seat
        self.opponent_specs = others
        for spec in others:
            make_agent(spec, self.game)  # a bad spec fails here, not in the middle of play
        self.render_mode = check_render_mode(render_mode)
        self.observer = observation_for(self.game, observation)
        self.observation_space = spaces.Box(
            self.observer.low, self.observer.high, (self.observer.size,), np.float32
        )
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.game_state: State[Any] | None = None
        self.opponents: dict[int, Agent] = {}
        self.lost_by: int | None = None
        """The illegal action id that ended this episode (``illegal_action="lose"``)."""

    def _others_play(self) -> None:
        state = self.game_state
        assert state is not None
        while not state.is_over and self.seat not in state.to_act:
            player = state.to_act[0]
            state = state.apply(player, self.opponents[player].act(Observation(state, player)))
        # In a simultaneous decision the learner may be to act beside others: they choose
        # after the learner, each seeing only its own view.
        self.game_state = state

    def _observation(self) -> tuple[np.ndarray, dict[str, Any]]:
        assert self.game_state is not None
        observation = self.observer.encode(self.game_state, self.seat)
        return observation, {"action_mask": self.action_masks()}

    def action_masks(self) -> np.ndarray:
        """int8 over the action ids: 1 where the learner may play it now."""
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        state = self.game_state
        if state is not None and self.lost_by is None and self.seat in state.to_act:
            mask[state.legal_action_ids(self.seat)] = 1
        return mask

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game (``seed`` fixes it and the opponents' choices)."""
        if seed is None:
            super().reset()
            seed = int(self.np_random.integers(2**31))
        else:
            seed = game_seed(seed)
            super().reset(seed=generator_seed(seed))
        self.game_state = self.game.new_game(seed)
        self.lost_by = None
        others = [p for p in range(self.game.num_players) if p != self.seat]
        self.opponents = {
            p: make_agent(spec, self.game, derive_seed(seed, "seat", p))
            for p, spec in zip(others, self.opponent_specs, strict=True)
        }
        self._others_play()
        return self._observation()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner plays ``action``; the others answer until it is its turn again."""
        state = started(self.game_state)
        if state.is_over or self.lost_by is not None:
            # Gymnasium leaves a step past the end undefined: said, not a second reward.
            raise MeepleError("the episode is over (terminated): call reset() for a new game")
        action = action_id_of(action)
        legal = state.legal_action_ids(self.seat)
        if action not in legal:
            if self.illegal_action == "raise":
                raise IllegalAction(f"action {action} is not legal now; legal ids: {legal[:20]}")
            # The usual convention for learners that ignore the mask: the game is lost, and
            # over (an empty mask, a step refused until reset).
            self.lost_by = action
            observation, info = self._observation()
            info |= {
                "illegal_action": action,
                "result": GameResult(
                    {"reason": "illegal action", "seat": self.seat, "action": action}
                ),
            }
            return observation, -1.0, True, False, info
        self.game_state = state.apply(self.seat, self.game.action_from_id(action))
        self._others_play()
        over = self.game_state.is_over
        reward = float(self.game_state.returns[self.seat]) if over else 0.0
        observation, info = self._observation()
        if over:
            info["result"] = GameResult(self.game_state.result)
        return observation, reward, over, False, info

    def render(self) -> str | None:
        """The game's text board from the agent's seat: returned (``render_mode="ansi"``) or
        printed (``"human"``, returning None)."""
        return render_board(self.render_mode, self.game_state, self.seat)


def register_all() -> None:
    """Put every game in Gymnasium's registry as ``meeple/<game>-v0``, so that
    ``gymnasium.make("meeple/edges-v0", board="2x3")`` and ``gymnasium.make_vec`` make it."""
    for info in games():
        gymnasium.register(f"meeple/{info.name}-v0", MeepleGymEnv, kwargs={"game": info.name})


register_all()
