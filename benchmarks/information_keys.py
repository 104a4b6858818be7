"""Search iterations with a game's own information key against the view's JSON, one process.

    .venv/bin/python benchmarks/information_keys.py triangle-clock ismcts:seconds=0.5
    .venv/bin/python benchmarks/information_keys.py squad-combat ismcts:seconds=0.5 --repeat 6

Plays 60 random actions from seed 1 (then on to a decision with three choices or more), and
asks the agent for a move there, alternating the game's ``information_key`` with the default
``State.information_key`` (the view as canonical JSON). Prints the iterations each made, and
their medians; the first call of each warms caches and compiled code and is dropped.
"""

from __future__ import annotations

import argparse
import random
import statistics

import meeple
from meeple.agents.spec import make_agent
from meeple.core.agent import Observation
from meeple.core.game import State
from meeple.core.record import Playthrough


def main() -> None:
    """Alternate the two keys at one decision and print the iterations of each."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("spec", help="a time-budgeted search, e.g. ismcts:seconds=0.5")
    parser.add_argument("--repeat", type=int, default=4)
    args = parser.parse_args()
    game = meeple.make(args.game)
    cls = type(game.new_game(0))
    own = cls.information_key
    rng = random.Random(1)
    play = Playthrough(game, 1)
    for step in range(10_000):
        player = play.state.to_act[0]
        legal = play.state.legal_actions(player)
        if step >= 60 and len(legal) >= 3:
            break
        play.play(player, rng.choice(legal))
    observation = Observation(play.state, play.state.to_act[0])
    made: dict[str, list[int]] = {"view JSON": [], "own key": []}
    for _ in range(args.repeat + 1):
        for label, key in (("view JSON", State.information_key), ("own key", own)):
            cls.information_key = key  # type: ignore[method-assign]
            agent = make_agent(args.spec, game)
            agent.act(observation)
            made[label].append(agent.last_iterations)
    cls.information_key = own  # type: ignore[method-assign]
    for label, runs in made.items():
        print(f"{label}: median {statistics.median(runs[1:]):.0f} iterations {runs[1:]}")


if __name__ == "__main__":
    main()
