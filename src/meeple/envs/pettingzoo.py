"""PettingZoo environments for meeple's games: ``env(game, **options)`` and ``parallel_env``.

One AEC environment serves every game and option: agents ``player_0`` ..., observations
``{"observation": float32 vector of the seat's view, "action_mask": int8 over the game's
action ids}`` (``observation="view"``, the generic encoding, or ``"designed"``, the batched
environment's: :mod:`meeple.envs.observation`), rewards only at the end (the game's
returns: 1 win, -1 loss, 0 draw), and ``render_mode="ansi"`` gives the game's own text
board. A simultaneous decision is taken one seat at a time, each seeing only its own view
(the game holds the earlier choices hidden), so AEC play is exact. Games whose decisions are
all simultaneous (Erd, The Triangle Clock) also get a ``parallel_env`` in which every seat
to act moves in one step.

Registered as ``meeple/<game>-v0`` in PettingZoo's registry (``pettingzoo.make``).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from typing import Any

import numpy as np
from rich.console import Console

from meeple.core.errors import IllegalAction, MeepleError
from meeple.core.game import Game, State
from meeple.core.registry import games, make
from meeple.core.rng import make_rng
from meeple.envs import framework_missing
from meeple.envs.inputs import action_id_of, game_seed
from meeple.envs.observation import ObservationKind, observation_for

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
except ModuleNotFoundError as missing:  # the envs extra is not installed
    raise framework_missing(missing) from None

SIMULTANEOUS_GAMES = ("erd", "triangle-clock")
"""Games whose decisions are taken by the seats at once: they get a parallel env."""

PARALLELIZABLE_GAMES = ("erd",)
"""Games whose every decision is taken by every seat: their AEC env is ``is_parallelizable``
(PettingZoo's ``aec_to_parallel`` steps each agent once a cycle). Not The Triangle Clock: a
seat that takes a Mulligan then chooses again alone (``parallel_env`` serves it)."""


def agent_name(player: int) -> str:
    """``player_0`` for seat 0."""
    return f"player_{player}"


RENDER_MODES = ("human", "ansi")
"""What the environments draw: the game's text board, printed (``"human"``) or returned
(``"ansi"``). No picture (``"rgb_array"``)."""


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` where the environments offer it (None draws nothing): a mode they do
    not offer is refused when the environment is made, not answered with nothing at every
    ``render()``."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise MeepleError(
            f"render_mode {render_mode!r} is not offered; allowed: 'human' (render() prints "
            "the game's text board), 'ansi' (render() returns it) or None"
        )
    return render_mode


def render_board(
    render_mode: str | None, state: State[Any] | None, player: int | None = None
) -> str | None:
    """What ``render()`` gives in ``render_mode``: the text board for ``"ansi"``; for
    ``"human"`` the board printed and None (PettingZoo's and Gymnasium's convention); None
    with no mode or before the first reset."""
    if render_mode is None or state is None:
        return None
    board = text_board(state, player)
    if render_mode == "human":
        print(board, end="")
        return None
    return board


def text_board(state: State[Any], player: int | None = None) -> str:
    """The game's terminal drawing of the state, as plain text."""
    console = Console(width=100, color_system=None, force_terminal=False)
    with console.capture() as capture:
        console.print(state.game.render(state, player))
    return capture.get()


def started(state: State[Any] | None) -> State[Any]:
    """The game being played; before the first ``reset()`` a MeepleError saying what to
    call, where PettingZoo's own code would fail on an attribute not yet set."""
    if state is None:
        raise MeepleError("there is no game yet: call reset() before step(), last() or observe()")
    return state


class _MeepleSpaces:
    """What every meeple environment shares: the game, its spaces and its observation."""

    render_mode: str | None

    def _setup(
        self, game: str | Game[Any, Any, Any], observation: str, options: dict[str, Any]
    ) -> None:
        self.game = make(game, **options) if isinstance(game, str) else game
        self.observer = observation_for(self.game, observation)
        self.possible_agents = [agent_name(p) for p in range(self.game.num_players)]
        self._index = {a: p for p, a in enumerate(self.possible_agents)}
        space = spaces.Dict(
            {
                "observation": spaces.Box(
                    self.observer.low, self.observer.high, (self.observer.size,), np.float32
                ),
                "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents
        }
        # The game as the readable rules hold it, for inspection; not ``state``, which
        # would hide PettingZoo's state() (a global observation, which meeple does not
        # offer: calling it says so, as PettingZoo's envs without one do).
        self.game_state: State[Any] | None = None
        self._seeds: random.Random | None = None

    def _player(self, agent: str) -> int:
        """The seat of ``agent``, or MeepleError naming the agents."""
        if agent not in self._index:
            raise MeepleError(
                f"there is no agent {agent!r}; agents: {', '.join(self.possible_agents)}"
            )
        return self._index[agent]

    def observation_space(self, agent: str) -> spaces.Space:
        """The same Dict space for every agent (cached)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """Discrete over the game's integer action ids (cached)."""
        return self.action_spaces[agent]

    def _new_state(self, seed: int | None) -> None:
        """A new game from ``seed``; without one, from the stream the last seeded reset
        started (Gymnasium's and PettingZoo's convention: ``reset(seed=s)`` then ``reset()``
        replays the same games), or a fresh seed if no reset was ever seeded."""
        if seed is not None:
            self.seed_used = game_seed(seed)
            self._seeds = make_rng(self.seed_used, "resets")
        elif self._seeds is not None:
            self.seed_used = self._seeds.randrange(2**31)
        else:
            self.seed_used = secrets.randbelow(2**31)
        self.game_state = self.game.new_game(self.seed_used)

    def _observe(self, player: int) -> dict[str, np.ndarray]:
        state = started(self.game_state)
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if player in state.to_act:
            mask[state.legal_action_ids(player)] = 1
        return {"observation": self.observer.encode(state, player), "action_mask": mask}

    def _apply(self, player: int, action: Any) -> None:
        state = self.game_state
        assert state is not None
        action_id = self._checked(player, action)
        self.game_state = state.apply(player, self.game.action_from_id(action_id))

    def _checked(self, player: int, action: Any) -> int:
        """``action`` as an id legal for ``player`` now, or ``IllegalAction`` naming those."""
        state = self.game_state
        assert state is not None
        action_id = action_id_of(action)
        legal = state.legal_action_ids(player)
        if action_id not in legal:
            raise IllegalAction(
                f"action {action_id} is not legal for {agent_name(player)} now; "
                f"legal ids: {legal[:20]}{' ...' if len(legal) > 20 else ''}"
            )
        return action_id


class MeepleAEC(_MeepleSpaces, AECEnv):
    """Any meeple game as a PettingZoo AEC environment."""

    # Each instance names its own game: metadata is replaced, never changed in place.
    metadata: Mapping[str, Any] = {
        "render_modes": list(RENDER_MODES),
        "name": "meeple_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Game[Any, Any, Any],
        render_mode: str | None = None,
        observation: ObservationKind = "view",
        **options: Any,
    ) -> None:
        super().__init__()
        self._setup(game, observation, options)
        self.render_mode = check_render_mode(render_mode)
        self.metadata = {
            **self.metadata,
            "name": f"meeple_{self.game.name.replace('-', '_')}_v0",
            "is_parallelizable": self.game.name in PARALLELIZABLE_GAMES,
        }

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` fixes the deal and every chance event."""
        self._new_state(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        state = self.game_state
        assert state is not None
        self.agent_selection = agent_name(state.to_act[0])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's view, encoded, and the mask of its legal action ids."""
        return self._observe(self._player(agent))

    def step(self, action: Any) -> None:
        """The selected agent takes ``action`` (an action id)."""
        self._playing()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._apply(self._index[agent], action)
        state = self.game_state
        assert state is not None
        if state.is_over:
            for a, value in zip(self.agents, state.returns, strict=True):
                self.rewards[a] = float(value)
                self.terminations[a] = True
                self.infos[a] = {"result": state.result}
        else:
            self.agent_selection = agent_name(state.to_act[0])
        self._accumulate_rewards()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, reward, ends and info (PettingZoo's ``last``)."""
        self._playing()
        return super().last(observe)

    def _playing(self) -> None:
        """MeepleError, saying what to call, once there is no game or every agent has left
        it (each stepped with None after the end), where PettingZoo's own code would fail
        on an agent no longer in its tables."""
        started(self.game_state)
        if not self.agents:
            raise MeepleError("the game is over and every agent has left it: call reset()")

    def render(self) -> str | None:
        """The game's text board: returned (``render_mode="ansi"``) or printed
        (``"human"``, returning None)."""
        return render_board(self.render_mode, self.game_state)

    def close(self) -> None:
        """Nothing to release."""


class MeepleParallel(_MeepleSpaces, ParallelEnv):
    """A game whose decisions are simultaneous, every seat to act moving in one step."""

    # Each instance names its own game: metadata is replaced, never changed in place.
    metadata: Mapping[str, Any] = {"render_modes": list(RENDER_MODES), "name": "meeple_parallel_v0"}

    def __init__(
        self,
        game: str | Game[Any, Any, Any],
        render_mode: str | None = None,
        observation: ObservationKind = "view",
        **options: Any,
    ) -> None:
        self._setup(game, observation, options)
        self.render_mode = check_render_mode(render_mode)
        self.metadata = {**self.metadata, "name": f"meeple_{self.game.name}_parallel_v0"}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game: every agent's first observation, and empty infos."""
        self._new_state(seed)
        self.agents = self.possible_agents[:]
        return {a: self._observe(p) for a, p in self._index.items()}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Every seat to act moves (others' entries are ignored; their masks are empty)."""
        state = started(self.game_state)
        if not self.agents:
            raise MeepleError("the game is over: call reset() for a new one")
        if not isinstance(actions, Mapping):
            raise IllegalAction(
                f"step takes a dict of each agent's action id, such as {{'player_0': 3}}, "
                f"not {type(actions).__name__}"
            )
        for name in actions:
            self._player(name)  # an agent's name misspelt is refused, not ignored
        for player in state.to_act:
            agent = agent_name(player)
            if agent not in actions:
                raise IllegalAction(f"{agent} is to act and gave no action")
            self._checked(player, actions[agent])  # every seat's, before any seat moves
        for player in state.to_act:
            self._apply(player, actions[agent_name(player)])
        state = started(self.game_state)
        over = state.is_over
        rewards = {
            a: float(r) if over else 0.0 for a, r in zip(self.agents, state.returns, strict=True)
        }
        observations = {a: self._observe(self._index[a]) for a in self.agents}
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        infos = {a: ({"result": state.result} if over else {}) for a in self.agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The game's text board: returned (``render_mode="ansi"``) or printed
        (``"human"``, returning None)."""
        return render_board(self.render_mode, self.game_state)

    def close(self) -> None:
        """Nothing to release."""


def env(
    game: str = "edges",
    render_mode: str | None = None,
    observation: ObservationKind = "view",
    **options: Any,
) -> MeepleAEC:
    """The AEC environment of ``game`` with its options, e.g. ``env("erosion", players=3)``;
    ``observation="designed"`` observes as the batched environment does."""
    return MeepleAEC(game, render_mode=render_mode, observation=observation, **options)


def parallel_env(
    game: str = "erd",
    render_mode: str | None = None,
    observation: ObservationKind = "view",
    **options: Any,
) -> MeepleParallel:
    """The parallel environment of a game whose decisions are all simultaneous."""
    if make(game).name not in SIMULTANEOUS_GAMES:
        # A choice of environment, not of a move: no IllegalAction.
        raise MeepleError(
            f"{game} has turns, not simultaneous decisions; use env(). Parallel games: "
            f"{', '.join(SIMULTANEOUS_GAMES)}"
        )
    return MeepleParallel(game, render_mode=render_mode, observation=observation, **options)


def register_all() -> None:
    """Put every game in PettingZoo's registry as ``meeple/<game>-v0``."""
    try:
        from pettingzoo import register
    except ImportError:  # an older PettingZoo without a registry
        return
    for info in games():
        register("aec", f"meeple/{info.name}-v0", env, kwargs={"game": info.name})
        if info.name in SIMULTANEOUS_GAMES:
            register("parallel", f"meeple/{info.name}-v0", parallel_env, kwargs={"game": info.name})


register_all()
