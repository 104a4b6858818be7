"""Search speed per game: MCTS iterations per second at the first real decision.

    .venv/bin/python benchmarks/search_speed.py --iterations 500

Each game is also timed on plain random playouts from the same position in the same run;
the ratio (iterations per playout time) shows what the tree costs on top of the rollouts,
which is steadier than raw figures on a shared machine.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from rich.console import Console
from rich.table import Table

import meeple
from meeple.agents import make_agent
from meeple.core.agent import Observation
from meeple.core.game import State


def playouts_per_second(state: State[Any], seconds: float = 1.0) -> float:
    """Random games played to the end from ``state`` per second."""
    rng = random.Random(0)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = state
        while not s.is_over:
            p = s.to_act[0]
            s = s._next(p, rng.choice(s.legal_actions(p)))
        done += 1
    return done / (time.perf_counter() - start)


def main() -> None:
    """Measure every registered game and print a table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--only", help="measure one game only")
    args = parser.parse_args()
    table = Table(title=f"MCTS from the opening, {args.iterations} iterations")
    for column in ("game", "agent", "iterations/s", "random playouts/s", "ratio"):
        table.add_column(column)
    for info in meeple.games():
        if args.only and info.name != args.only:
            continue
        game = meeple.make(info.name)
        state = game.new_game(1)
        # Steps with one legal action (a memorise step, a forced draw) are not decisions.
        while len(state.legal_actions(state.to_act[0])) < 2:
            state = state._next(state.to_act[0], state.legal_actions(state.to_act[0])[0])
        state = state.decision_start()
        player = state.to_act[0]
        spec = "mcts" if game.perfect_information else "ismcts"
        agent = make_agent(f"{spec}:iterations={args.iterations}", game, 1)
        start = time.perf_counter()
        agent.act(Observation(state, player))
        rate = args.iterations / (time.perf_counter() - start)
        playouts = playouts_per_second(state)
        table.add_row(info.name, spec, f"{rate:.0f}", f"{playouts:.0f}", f"{rate / playouts:.2f}")
    Console().print(table)


if __name__ == "__main__":
    main()
