"""Train a small policy on Edges 2x3 against `random`, with meeple's Gymnasium env.

A masked softmax policy, linear in the encoded view (meeple.envs.encoding), trained by
REINFORCE with a running-mean baseline: numpy only, a few minutes on two cores. It plots
its learning curve (win rate over the last games) and measures the trained policy against
`random` and `greedy` on fresh seeds.

    .venv/bin/python examples/train_edges_reinforce.py --episodes 20000
"""

from __future__ import annotations

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from meeple.envs.gym import MeepleGymEnv

OPTIONS = {"board": "2x3", "stash": "3/3/2", "pie": False}


class LinearPolicy:
    """Scores every action id as w[a] . x + b[a]; samples among the legal ones."""

    def __init__(self, size: int, actions: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((actions, size), dtype=np.float64)
        self.b = np.zeros(actions, dtype=np.float64)
        self.rng = rng

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The masked softmax over action ids."""
        logits = self.w @ x + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits[mask > 0].max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, x: np.ndarray, mask: np.ndarray, greedy: bool = False) -> int:
        """An action id: sampled, or the most probable one."""
        p = self.probabilities(x, mask)
        return int(p.argmax()) if greedy else int(self.rng.choice(len(p), p=p))


def play(
    env: MeepleGymEnv, policy: LinearPolicy, seed: int, greedy: bool = False
) -> tuple[list[tuple[np.ndarray, np.ndarray, int]], float]:
    """One game: the steps taken and the final reward."""
    x, info = env.reset(seed=seed)
    steps = []
    done = False
    reward = 0.0
    while not done:
        mask = info["action_mask"]
        action = policy.act(x, mask, greedy)
        steps.append((x, mask, action))
        x, reward, done, _, info = env.step(action)
    return steps, reward


def train(episodes: int, rate: float, seed: int) -> tuple[LinearPolicy, list[float]]:
    """REINFORCE against random, seats alternating; returns the policy and the rewards."""
    rng = np.random.default_rng(seed)
    envs = [MeepleGymEnv("edges", seat=s, opponents=["random"], **OPTIONS) for s in (0, 1)]
    policy = LinearPolicy(envs[0].observation_space.shape[0], envs[0].game.num_actions, rng)
    baseline = 0.0
    rewards = []
    for episode in range(episodes):
        steps, reward = play(envs[episode % 2], policy, seed * 1_000_003 + episode)
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        for x, mask, action in steps:
            p = policy.probabilities(x, mask)
            grad = -p
            grad[action] += 1.0  # d log p(action) / d logits
            policy.w += rate * advantage * np.outer(grad, x)
            policy.b += rate * advantage * grad
        rewards.append(reward)
        if (episode + 1) % 500 == 0:
            recent = np.mean(np.array(rewards[-500:]) > 0)
            print(f"episode {episode + 1}: won {recent:.0%} of the last 500")
    return policy, rewards


def evaluate(policy: LinearPolicy, opponent: str, games: int) -> float:
    """Share of games won by the greedy policy, seats alternating, fresh seeds."""
    envs = [MeepleGymEnv("edges", seat=s, opponents=[opponent], **OPTIONS) for s in (0, 1)]
    wins = sum(play(envs[k % 2], policy, 10**9 + k, greedy=True)[1] > 0 for k in range(games))
    return wins / games


def main() -> None:
    """Train, plot, evaluate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=20000)
    parser.add_argument("--rate", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("results/examples"))
    args = parser.parse_args()
    policy, rewards = train(args.episodes, args.rate, args.seed)
    won = (np.array(rewards) > 0).astype(float)
    # A moving window of at most 250 episodes, so a short run still draws its curve.
    window = max(1, min(250, len(won) // 4))
    curve = np.convolve(won, np.ones(window) / window, mode="valid")
    args.out.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(np.arange(window, len(won) + 1), curve)
    ax.set_xlabel("episode")
    ax.set_ylabel(f"win rate (last {window})")
    ax.set_title("Edges 2x3: linear REINFORCE against random")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    path = args.out / "edges_reinforce.png"
    fig.savefig(path, dpi=120, bbox_inches="tight")
    print(f"learning curve: {path}")
    for opponent in ("random", "greedy"):
        print(
            f"trained policy (greedy) against {opponent}: won {evaluate(policy, opponent, 400):.1%}"
        )


if __name__ == "__main__":
    main()
