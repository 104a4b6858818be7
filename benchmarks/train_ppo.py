"""A learned baseline: MaskablePPO (sb3-contrib, torch) on a batched game, a fixed opponent.

    pip install 'meeple[rl]'
    .venv/bin/python benchmarks/train_ppo.py --game edges --steps 300000 --every 25000 \
        --eval-games 200

The learner plays one seat of ``--envs`` games at once on the compiled rules
(``meeple.envs.opponent.OpponentVecEnv`` over ``meeple.envs.vector.MeepleVectorEnv``), the
other seats played by the batched opponent ``--opponent`` (``random``, uniform over the legal
ids, unless the game offers another: The Triangle Clock's ``policy``), seats rotated;
Stable-Baselines3 sees it through its ``VecEnv`` interface (:class:`SB3VecEnv`), with the
legal ids as ``action_masks()``. In a simultaneous game (Erd, The Triangle Clock) the
learner's action is its seat's, the opponent's the others'. Every ``--every`` learner steps
(and before the first) the policy, playing its most probable legal move, meets ``random`` and
the game's hand-written agent (``heuristic``; Edges' ``greedy``) on the readable rules over
``--eval-games`` games each (``meeple.lab.policy.evaluate_policy``: the same seeds at every
checkpoint, seats rotated), scored with the lab's 95% interval (``lab.stats.score_interval``,
a draw counting half). Writes the curve as a PNG and a JSON (``--out``) and prints the
training time (wall-clock and CPU, evaluation excluded).

Options: Edges plays 3x4, Erd single games (``best_of=1``, as its ladder counts them);
``--players`` sets the seats where the game has a choice. An opponent the game does not offer
is refused in one line naming those it does, before anything is trained (and before the rl
extra is looked for). A run against another opponent than ``random`` names it in its files
(``ppo-GAME-vs-OPPONENT.png`` and ``.json``) and its plot's title.

Threads: one for torch and one for numba unless set (``OMP_WAIT_POLICY=PASSIVE`` too): on a
machine whose cores other processes share, spinning threads cost more than they bring.
"""

from __future__ import annotations

import os

# Before numba and torch load: see the module docstring.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import argparse
import json
import time
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FuncFormatter

import meeple
from meeple.core.errors import MeepleError
from meeple.core.game import Game
from meeple.envs.opponent import OpponentVecEnv
from meeple.lab.policy import evaluate_policy

try:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecEnv
except ImportError:  # main() says so, once its arguments are checked
    torch = None
    BaseCallback = VecEnv = object  # type: ignore[assignment,misc]

NO_RL = "this benchmark needs the rl extra: pip install 'meeple[rl]' (sb3-contrib, torch)"

OPTIONS: dict[str, dict[str, Any]] = {"edges": {"board": "3x4"}, "erd": {"best_of": 1}}
"""Each game's options here where they are not its defaults."""


class SB3VecEnv(VecEnv):
    """:class:`OpponentVecEnv` as Stable-Baselines3's ``VecEnv``: one process, no copies
    of the games (they are one batch already)."""

    def __init__(self, inner: OpponentVecEnv) -> None:
        self.inner = inner
        super().__init__(inner.num_envs, inner.observation_space, inner.action_space)
        self._actions: np.ndarray | None = None

    def reset(self) -> np.ndarray:
        """Start every game."""
        return self.inner.reset()

    def step_async(self, actions: np.ndarray) -> None:
        """Keep the actions for ``step_wait``."""
        self._actions = actions

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """The learner's move and the opponent's reply in every game."""
        assert self._actions is not None
        return self.inner.step(self._actions)

    def action_masks(self) -> np.ndarray:
        """The learner's legal ids, ``(num_envs, num_actions)``."""
        return self.inner.action_masks()

    def close(self) -> None:
        """Nothing to free."""

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The attribute of the batch, once per game asked for."""
        return [getattr(self.inner, attr_name)] * len(self._get_indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set the attribute on the batch."""
        setattr(self.inner, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **kwargs: Any
    ) -> list[Any]:
        """``action_masks`` per game (what MaskablePPO asks); other methods on the batch."""
        chosen = self._get_indices(indices)
        if method_name == "action_masks":
            return list(self.inner.action_masks()[chosen])
        result = getattr(self.inner, method_name)(*method_args, **kwargs)
        return [result] * len(chosen)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """No game is wrapped."""
        return [False] * len(self._get_indices(indices))


def policy_of(model: MaskablePPO) -> Any:
    """The model's most probable legal move, as ``lab.policy``'s policy callable."""

    def policy(observation: np.ndarray, legal: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=legal, deterministic=True)
        return int(action)

    return policy


class Checkpoints(BaseCallback):
    """Evaluate every ``every`` learner steps; time training apart from evaluating."""

    def __init__(self, game: Game, every: int, games: int, seed: int) -> None:
        super().__init__()
        self.game, self.every, self.games, self.seed = game, every, games, seed
        self.opponents = ("random", game.heuristic_agent or "random")
        self.points: list[dict[str, Any]] = []
        self.next = 0
        self.eval_wall = 0.0
        self.eval_cpu = 0.0

    def checkpoint(self) -> None:
        """Evaluate now and print a line."""
        wall, cpu = time.perf_counter(), time.process_time()
        point: dict[str, Any] = {"steps": int(self.num_timesteps)}
        for opponent in self.opponents:
            point[opponent] = evaluate_policy(
                self.game, policy_of(self.model), opponent, self.games, self.seed
            )
        self.points.append(point)
        self.eval_wall += time.perf_counter() - wall
        self.eval_cpu += time.process_time() - cpu
        print(
            f"{point['steps']:>9} steps: "
            + "; ".join(
                f"vs {o} {100 * point[o]['score']:.1f}% [{100 * point[o]['low']:.1f}, "
                f"{100 * point[o]['high']:.1f}] ({point[o]['wins']} / {point[o]['draws']} / "
                f"{point[o]['losses']})"
                for o in self.opponents
            ),
            flush=True,
        )
        self.next += self.every

    def _on_training_start(self) -> None:
        self.checkpoint()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self.checkpoint()
        return True


def plot(points: list[dict[str, Any]], opponents: tuple[str, ...], path: Path, title: str) -> None:
    """The score rates with their intervals against learner steps."""
    fig, ax = plt.subplots(figsize=(6, 3.4))
    steps = np.array([p["steps"] for p in points])
    for opponent, colour in zip(opponents, ("tab:blue", "tab:red"), strict=True):
        score = np.array([p[opponent]["score"] for p in points])
        low = np.array([p[opponent]["low"] for p in points])
        high = np.array([p[opponent]["high"] for p in points])
        ax.plot(steps, score, marker="o", ms=3, color=colour, label=f"against {opponent}")
        ax.fill_between(steps, low, high, color=colour, alpha=0.2)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x / 1000:g}k" if x else "0"))
    ax.set_xlabel("learner steps")
    ax.set_ylabel("score rate (95% interval)")
    ax.set_ylim(0, 1)
    ax.set_title(title, fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=80, bbox_inches="tight")


def title(game: Game, options: dict[str, Any], opponent: str = "random") -> str:
    """The plot's title: the game and its options as trained, and the opponent."""
    written = ", ".join(f"{k}={v}" for k, v in options.items())
    shown = f" ({written})" if written else ""
    return f"MaskablePPO on {game.title}{shown}, trained against {opponent}"


def stem(game: str, opponent: str = "random") -> str:
    """The output files' name without suffix: ``ppo-GAME``, and ``-vs-OPPONENT`` when the
    opponent is not ``random``, so runs against different opponents keep their own files."""
    return f"ppo-{game}" if opponent == "random" else f"ppo-{game}-vs-{opponent}"


def setup(
    game_name: str, options: dict[str, Any], envs: int, opponent: str, seed: int
) -> tuple[Game, OpponentVecEnv]:
    """The readable game and the learner's batched env against ``opponent``; an opponent the
    game does not offer (or a bad option) is refused in one line, ``error: ...`` (the env's
    own message, which names the opponents it offers)."""
    try:
        game = meeple.make(game_name, **options)
        inner = OpponentVecEnv(game_name, num_envs=envs, opponent=opponent, seed=seed, **options)
    except MeepleError as error:
        raise SystemExit(f"error: {error}") from None
    return game, inner


def main() -> None:
    """Train, evaluating at checkpoints; write the curve and print the times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="edges", help="the game (its batched rules)")
    parser.add_argument("--players", type=int, default=None, help="seats, where it may vary")
    parser.add_argument(
        "--opponent",
        default="random",
        help="the batched opponent to train against (one the game does not offer is refused)",
    )
    parser.add_argument("--steps", type=int, default=300_000, help="learner steps to train")
    parser.add_argument("--envs", type=int, default=64, help="games in the batch")
    parser.add_argument(
        "--rollout", type=int, default=128, help="batched steps between updates (n_steps)"
    )
    parser.add_argument("--every", type=int, default=25_000, help="learner steps a checkpoint")
    parser.add_argument("--eval-games", type=int, default=200, help="games a checkpoint")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="default results/ppo/GAME")
    args = parser.parse_args()
    options = dict(OPTIONS.get(args.game, {}))
    if args.players is not None:
        options["players"] = args.players
    game, inner = setup(args.game, options, args.envs, args.opponent, args.seed)
    if torch is None:
        raise SystemExit(NO_RL)
    out = args.out or Path("results/ppo") / args.game
    name = stem(args.game, args.opponent)
    torch.set_num_threads(int(os.environ.get("TORCH_THREADS", "1")))
    env = SB3VecEnv(inner)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.rollout,
        batch_size=min(1024, args.rollout * args.envs),
        n_epochs=4,
        learning_rate=3e-4,
        gamma=1.0,  # a game is a dozen moves; its one reward comes at the end
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed,
        verbose=0,
    )
    callback = Checkpoints(game, args.every, args.eval_games, seed=10**6 + args.seed)
    wall, cpu = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=args.steps, callback=callback)
    callback.checkpoint()
    train_wall = time.perf_counter() - wall - callback.eval_wall
    train_cpu = time.process_time() - cpu - callback.eval_cpu
    out.mkdir(parents=True, exist_ok=True)
    result = {
        "game": args.game,
        "options": options,
        "opponent": args.opponent,
        "steps": int(model.num_timesteps),
        "envs": args.envs,
        "rollout": args.rollout,
        "seed": args.seed,
        "train_wall_s": round(train_wall, 1),
        "train_cpu_s": round(train_cpu, 1),
        "eval_games": args.eval_games,
        "points": callback.points,
    }
    (out / f"{name}.json").write_text(json.dumps(result, indent=1))
    plot(
        callback.points,
        callback.opponents,
        out / f"{name}.png",
        title(game, options, args.opponent),
    )
    print(
        f"trained {model.num_timesteps} learner steps in {train_wall:.0f} s wall-clock, "
        f"{train_cpu:.0f} s CPU (evaluation excluded: {callback.eval_wall:.0f} s); "
        f"curve: {out / f'{name}.png'}"
    )


if __name__ == "__main__":
    main()
