"""What sharing worlds buys a comparison: paired against unpaired spread of two moves' values.

    .venv/bin/python benchmarks/shared_worlds.py triangle-clock --rollout ahead --opponent guided

Positions come from games of ``--players`` (the hand-written agent by default), stopped at
a few decisions into the game. At each, ``flat`` ranks the moves over ``--worlds`` shared
worlds; for its two best moves the table shows each move's spread of values across worlds,
the spread of their difference world by world (the same determinization, other seats'
choices and rollout seed for both: common random numbers), and the spread of the
difference were the worlds not shared (the sum of the two variances). Their ratio is how
many times fewer worlds a shared comparison needs for the same precision. It also shows,
for one move, how much of a value's variance is the rollout's luck (many rollouts from one
determinization) rather than the determinization.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

import meeple
from meeple.agents import make_agent
from meeple.agents.flat import FlatAgent
from meeple.core.agent import Observation


def positions(game_name: str, players: str, count: int, seed: int) -> list[Observation]:
    """``count`` decisions with more than one legal move, one per game, each some way in."""
    game = meeple.make(game_name)
    rng = random.Random(seed)
    found = []
    for k in range(count):
        agents = [make_agent(players, game, 100 * k + p) for p in range(game.num_players)]
        state = game.new_game(seed + k)
        stop = rng.randrange(10, 60)
        steps = 0
        while not state.is_over:
            p = state.to_act[0]
            if steps >= stop and len(state.legal_actions(p)) > 1:
                found.append(Observation(state, p))
                break
            state = state.apply(p, agents[p].act(Observation(state, p)))
            steps += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--rollout", default="random")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--players", default="heuristic")
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--worlds", type=int, default=300)
    parser.add_argument("--rollouts", type=int, default=20, help="rollouts per determinization")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    table = Table(title=f"{args.game}: rollout={args.rollout}, opponent={args.opponent}")
    for column in (
        "position",
        "moves",
        "best two means",
        "var each",
        "var of paired diff",
        "var unpaired",
        "ratio",
        "rollout share",
    ):
        table.add_column(column, justify="right")
    spec = f"flat:rollout={args.rollout},opponent={args.opponent},worlds={args.worlds}"
    for i, observation in enumerate(positions(args.game, args.players, args.positions, args.seed)):
        game = observation.game
        # no race: every move is played in every world
        agent = make_agent(spec, game, args.seed)
        assert isinstance(agent, FlatAgent)
        kept: dict = {}

        def keep(alive: list, values: dict, kept: dict = kept) -> list:
            kept.update(values)
            return alive

        agent._race = keep  # type: ignore[method-assign]
        agent.min_worlds = 2
        agent.act(observation)
        ranked = sorted(kept, key=lambda a: -float(np.mean(kept[a])))
        first, second = (np.asarray(kept[a]) for a in ranked[:2])
        paired = float(np.var(first - second))
        unpaired = float(np.var(first) + np.var(second))
        table.add_row(
            str(i),
            str(len(kept)),
            f"{first.mean():+.3f} {second.mean():+.3f}",
            f"{np.var(first):.3f}",
            f"{paired:.3f}",
            f"{unpaired:.3f}",
            f"{unpaired / paired:.1f}x" if paired else "-",
            f"{rollout_share(agent, observation, ranked[0], args):.0%}",
        )
    Console().print(table)


def rollout_share(
    agent: FlatAgent, observation: Observation, action: Any, args: argparse.Namespace
) -> float:
    """Share of one move's value variance that lies within a determinization (the rollout's
    luck), from ``--rollouts`` rollouts in each of 60 worlds."""
    rng = random.Random(args.seed)
    player = observation.player
    rows = []
    for _ in range(60):
        world = agent._sample(observation, rng)
        others = agent._others(world, player, rng)
        rows.append(
            [
                agent._value(world, player, action, others, rng.getrandbits(31))
                for _ in range(args.rollouts)
            ]
        )
    values = np.asarray(rows)
    within = float(values.var(axis=1, ddof=1).mean())
    return within / float(values.var(ddof=1)) if values.var() else 0.0


if __name__ == "__main__":
    main()
