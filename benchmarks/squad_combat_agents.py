"""How strong is the Squad Combat heuristic, and how even are the demo decks?

Two measurements, each with a Rich progress bar:

* agents: ``--a`` against ``--b`` (heuristic against random by default) with
  ``meeple.lab.head_to_head``, seats alternated;
* decks: the demo decks against each other, both seats played by ``--deck-agent``
  (heuristic by default); the first player is drawn from each game's seed, so each deck
  moves first about half the time. It prints each deck's win rate and the first player's.

.venv/bin/python benchmarks/squad_combat_agents.py --games 400 --deck-games 1000
"""

from __future__ import annotations

import argparse
from collections import Counter

from rich.progress import Progress

import meeple
from meeple.agents import make_agent, play_game
from meeple.core.rng import derive_seed
from meeple.lab import head_to_head, wilson_interval


def agents(args: argparse.Namespace) -> None:
    """Agent A against agent B."""
    game = meeple.make("squad-combat", players=args.players)
    with Progress() as progress:
        task = progress.add_task(f"{args.a} vs {args.b}, {args.players} players", total=args.games)
        result = head_to_head(
            game, args.a, args.b, args.games, args.seed, on_game=lambda r: progress.advance(task)
        )
    print(result.summary())


def decks(args: argparse.Namespace) -> None:
    """Every seat played by the same agent: which deck wins, and how often the first player."""
    game = meeple.make("squad-combat", players=args.players, decks=args.decks)
    wins: Counter[str] = Counter()
    first_wins = draws = 0
    with Progress() as progress:
        task = progress.add_task(
            f"{' vs '.join(game.deck_keys)} ({args.deck_agent})", total=args.deck_games
        )
        for k in range(args.deck_games):
            seed = derive_seed(args.seed, "decks", k)
            seats = [
                make_agent(args.deck_agent, game, derive_seed(seed, "seat", p))
                for p in range(game.num_players)
            ]
            state = play_game(game, seats, seed).state
            if state.winner is None:
                draws += 1
            else:
                wins[game.deck_keys[state.winner]] += 1
                first_wins += state.winner == state.order[0]
            progress.advance(task)
    n = args.deck_games
    for key in dict.fromkeys(game.deck_keys):
        lo, hi = wilson_interval(wins[key], n)
        seats = game.deck_keys.count(key)
        print(
            f"{key} ({seats} seat{'s' if seats > 1 else ''}): {100 * wins[key] / n:.1f}% wins "
            f"[95% CI {100 * lo:.1f}, {100 * hi:.1f}] ({wins[key]} of {n})"
        )
    lo, hi = wilson_interval(first_wins, n)
    print(
        f"first player: {100 * first_wins / n:.1f}% wins [95% CI {100 * lo:.1f}, {100 * hi:.1f}]"
        f"; draws {draws} of {n}"
    )


def main() -> None:
    """Run the measurements the flags ask for."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400, help="agent match-up games")
    parser.add_argument("--deck-games", type=int, default=1000, help="deck match-up games")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--decks", default=None, help="deck ids per seat (default: alternate)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--a", default="heuristic")
    parser.add_argument("--b", default="random")
    parser.add_argument("--deck-agent", default="heuristic")
    parser.add_argument("--only", choices=["agents", "decks"], default=None)
    args = parser.parse_args()
    if args.only != "decks":
        agents(args)
    if args.only != "agents":
        decks(args)


if __name__ == "__main__":
    main()
