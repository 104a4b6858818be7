"""What OpenSpiel's strings and tensor of a meeple state cost as a game goes on, one process.

    .venv/bin/python benchmarks/information_state_speed.py
    .venv/bin/python benchmarks/information_state_speed.py "python_meeple_erosion(players=5)"

Walks one seeded random game (the first seed whose game lasts past ``--at`` moves) and asks,
after every move, every seat's information state string, observation string and observation
tensor, as an algorithm that reads them at each step does. Prints each one's mean cost per
call near move 10 and near move ``--at`` (the 11 moves around each), their ratio, and, as the
reference, the information state string of the state at ``--at`` rebuilt from its history
(nothing carried over from the walk: written from scratch).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import pyspiel

import meeple.envs.openspiel  # noqa: F401  (registers the games)

WINDOW = 5
"""Moves either side of a measured move whose calls are averaged."""

Ask = Callable[[pyspiel.State, int], object]
ASKS: dict[str, Ask] = {
    "information_state_string": lambda state, seat: state.information_state_string(seat),
    "observation_string": lambda state, seat: state.observation_string(seat),
    "observation_tensor": lambda state, seat: state.observation_tensor(seat),
}


def long_game(game: pyspiel.Game, moves: int) -> list[int]:
    """The actions (seed first) of the first seeded random game lasting past ``moves``."""
    for seed in range(1000):
        rng = random.Random(seed)
        state = game.new_initial_state()
        state.apply_action(seed % game.max_chance_outcomes())
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        if len(state.history()) > moves + WINDOW + 1:
            return state.history()[: moves + WINDOW + 2]
    raise SystemExit(f"no random game of {game} lasted {moves} moves")


def walk(game: pyspiel.Game, actions: list[int]) -> dict[str, dict[int, float]]:
    """Seconds per call of each ask after each move (its mean over the seats)."""
    costs: dict[str, dict[int, float]] = {name: {} for name in ASKS}
    state = game.new_initial_state()
    seats = range(game.num_players())
    for move, action in enumerate(actions):
        state.apply_action(action)
        for name, ask in ASKS.items():
            start = time.perf_counter()
            for seat in seats:
                ask(state, seat)
            costs[name][move] = (time.perf_counter() - start) / len(seats)
    return costs


def from_scratch(game: pyspiel.Game, actions: list[int]) -> float:
    """Seconds per seat of the information state strings of a state rebuilt from its
    history, asked once."""
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    start = time.perf_counter()
    for seat in range(game.num_players()):
        state.information_state_string(seat)
    return (time.perf_counter() - start) / game.num_players()


def near(costs: dict[int, float], move: int) -> float:
    """The mean cost of the calls within ``WINDOW`` moves of ``move``."""
    return statistics.mean(costs[m] for m in range(move - WINDOW, move + WINDOW + 1))


def main() -> None:
    """Walk the game and print the cost of each ask early and late."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", nargs="?", default="python_meeple_squad_combat(players=4)")
    parser.add_argument("--at", type=int, default=300, help="the late move measured")
    args = parser.parse_args()
    game = pyspiel.load_game(args.game)
    actions = long_game(game, args.at)
    costs = walk(game, actions)
    print(f"{args.game}, seed {actions[0]}: ms per call, mean of every seat")
    print(f"{'':26} {'move 10':>9} {f'move {args.at}':>9} {'ratio':>7}")
    for name, cost in costs.items():
        early, late = near(cost, 10), near(cost, args.at)
        print(f"{name:26} {early * 1e3:9.3f} {late * 1e3:9.3f} {late / early:7.1f}")
    scratch = from_scratch(game, actions[: args.at + 1])
    print(f"information state string at move {args.at} from scratch: {scratch * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
