"""Two agent specs against each other, seats alternated, in one process (no database).

    .venv/bin/python benchmarks/head_to_head.py erosion ismcts:iterations=200 heuristic 40
    .venv/bin/python benchmarks/head_to_head.py erd heuristic ismcts:iterations=1000 20 best_of=1

Game k is played with seed k; the first agent takes seat k % 2 (the second agent the other
seat) and is built with seed k, the second with seed k + 999. Prints the first agent's
wins / draws / losses and its score rate with a 95% interval (``lab.stats.score_interval``:
Wilson's, from the games' own variance where there are draws). Trailing ``name=value``
words are game options. Two-player games only; the lab (``meeple compare``, the ladder)
does the same with a database and worker processes. ``--first-seed N`` starts at game N
(to extend a run with new games); ``--each`` prints every game's result as it ends.
"""

from __future__ import annotations

import argparse
import time

import meeple
from meeple.agents.play import play_game
from meeple.agents.spec import make_agent
from meeple.lab.stats import score_interval


def main() -> None:
    """Play the games named on the command line and print the tally."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("first", help="the agent whose score is reported (a spec)")
    parser.add_argument("second", help="its opponent (a spec)")
    parser.add_argument("games", type=int)
    parser.add_argument("options", nargs="*", help="game options, name=value")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--each", action="store_true", help="print each game as it ends")
    args = parser.parse_args()
    bad = [word for word in args.options if "=" not in word]
    if bad:
        parser.error(f"game options are name=value words, not {' '.join(bad)}")
    name, first, second = args.game, args.first, args.second
    options = dict(word.split("=", 1) for word in args.options)
    game = meeple.make(name, **options)
    if game.num_players != 2:
        parser.error(
            f"{name} with these options has {game.num_players} seats; this script plays "
            "two-player games (meeple tournament plays more)"
        )
    wins = draws = losses = 0
    start = time.perf_counter()
    games = args.games
    for seed in range(args.first_seed, args.first_seed + games):
        seat = seed % 2
        agents = [make_agent(second, game, seed=seed + 999)] * 2
        agents[seat] = make_agent(first, game, seed=seed)
        returns = play_game(game, agents, seed).state.returns
        mine, theirs = returns[seat], returns[1 - seat]
        wins += mine > theirs
        draws += mine == theirs
        losses += mine < theirs
        if args.each:
            print(f"game {seed}: seat {seat}, returns {returns}, W/D/L {wins}/{draws}/{losses}")
    score = wins + draws / 2
    low, high = score_interval(wins, draws, losses)
    print(
        f"{name} {options or ''} {first} vs {second}: W/D/L {wins}/{draws}/{losses}, "
        f"score {score / games:.1%} [{low:.0%}, {high:.0%}] in {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
