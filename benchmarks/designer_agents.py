"""The agent to balance with: each game's ``designer`` level against its hand-written agent.

    .venv/bin/python benchmarks/designer_agents.py --games 60
    .venv/bin/python benchmarks/designer_agents.py --games 60 --only squad-combat:3
    .venv/bin/python benchmarks/designer_agents.py --only erosion:2 --spec ismcts:iterations=40

For each game and player count (``GAME:PLAYERS`` in ``--only``; the game alone is its
default count) the ``designer`` level (``meeple.agents.levels``; ``--spec`` tries another
agent in its place) plays the game's hand-written agent through the lab, as ``meeple
tournament`` seats a pair: one agent alone in a seat and the other in every other seat, the
seat and the lone agent rotated game by game (``lab.tournament.pair_seatings``), so the
even score is 1/2 at every player count. A game scores 1 for the designer agent when only
its seats are among the winners, 0 when only the other's are, 1/2 otherwise (the lab's
``pairwise_results``); the interval is the lab's (``lab.stats.score_interval``). ``--games``
is rounded up to a whole number of the pair's seatings (2, 6 or 8 at 2, 3 or 4 players).

Pace: after one game that warms the caches (numba's compiled rules, Erd's solution), CPU
seconds and wall-clock seconds per game over ``--timing-games`` games with the designer agent
in every seat, as a designer's own runs seat it; CPU seconds do not depend on what else the
machine is running, wall-clock seconds do. Games are stored (``--db``), so a run resumes.
"""

from __future__ import annotations

import argparse
import math
import os
import shlex
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

import meeple
from meeple.agents.levels import DESIGNER_LEVEL, level_spec
from meeple.agents.spec import parse_spec
from meeple.lab.metrics import pairwise_results
from meeple.lab.run import RunSpec, execute
from meeple.lab.simulate import play_job
from meeple.lab.stats import score_interval
from meeple.lab.tournament import pair_seatings

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its sibling modules
from stores import open_results

ROWS: list[tuple[str, int | None]] = [
    ("erd", None),
    ("edges", None),
    ("squad-combat", 2),
    ("squad-combat", 3),
    ("squad-combat", 4),
    ("erosion", 2),
    ("erosion", 3),
    ("erosion", 4),
    ("erosion", 5),
    ("triangle-clock", None),
]
"""Each game and player count measured (None: the game has one)."""


def row_name(game: str, players: int | None) -> str:
    """How ``--only`` names a row: ``squad-combat:3``, or the game alone."""
    return game if players is None else f"{game}:{players}"


def chosen_rows(only: list[str] | None) -> list[tuple[str, int | None]]:
    """The rows ``--only`` names (a game alone names all its player counts); all of them
    without it. Exits with the names allowed when one is not a row."""
    if not only:
        return list(ROWS)
    out = []
    for text in only:
        found = [r for r in ROWS if text in (row_name(*r), r[0])]
        if not found:
            names = ", ".join(row_name(*r) for r in ROWS)
            sys.exit(f"--only {text!r} is not a row; choose from {names} (or a game's name)")
        out.extend(r for r in found if r not in out)
    return out


def pace(spec: str, game: str, options: dict[str, object], games: int) -> tuple[float, float]:
    """CPU and wall-clock seconds per game with ``spec`` in every seat, after a warm-up game."""
    n = meeple.make(game, **options).num_players
    run = RunSpec(kind="designer-pace", game=game, options=options, seatings=[[spec] * n])
    play_job(run.job(0))
    cpu, wall = time.process_time(), time.perf_counter()
    for index in range(1, games + 1):
        play_job(run.job(index))
    return (time.process_time() - cpu) / games, (time.perf_counter() - wall) / games


def main() -> None:
    """Measure every row and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=60, help="games against the hand-written")
    parser.add_argument("--timing-games", type=int, default=5, help="self-play games timed")
    parser.add_argument("--only", nargs="*", help="rows: GAME or GAME:PLAYERS")
    parser.add_argument(
        "--spec",
        help="an agent to measure instead of the designer level (the hand-written agent "
        "itself: its pace alone)",
    )
    parser.add_argument("--seed", type=int, default=0, help="the runs' seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes for the matches")
    parser.add_argument("--db", default="sqlite:///results/designer.db")
    args = parser.parse_args()
    if args.games < 1 or args.timing_games < 1:
        parser.error("--games and --timing-games take a whole number of at least 1")
    store = open_results(args.db)
    command = shlex.join([os.path.relpath(sys.executable), *sys.argv])
    console = Console()
    table = Table(title="the designer agent against the hand-written agent, seats rotated")
    for column in (
        "game",
        "players",
        "agent",
        "against",
        "games",
        "W / D / L",
        "score [95%]",
        "CPU s / game",
        "wall s / game",
    ):
        table.add_column(column)
    for game_name, players in chosen_rows(args.only):
        options: dict[str, object] = {} if players is None else {"players": players}
        game = meeple.make(game_name, **options)
        # The spec written out plainly, as the lab records a seat.
        spec = str(parse_spec(args.spec or level_spec(game, DESIGNER_LEVEL)))
        hand = game.heuristic_agent or "random"
        if spec == str(parse_spec(hand)):
            # An agent against itself scores nothing to read: its pace alone is measured.
            cpu, wall = pace(spec, game.name, game.options.changed(), args.timing_games)
            table.add_row(
                game.name,
                str(game.num_players),
                spec,
                "-",
                "0",
                "-",
                "-",
                f"{cpu:.2f}",
                f"{wall:.2f}",
            )
            console.print(
                f"{row_name(game_name, players)}: {spec} is the hand-written agent: "
                f"{cpu:.2f} s CPU, {wall:.2f} s a game",
                soft_wrap=True,
            )
            continue
        seatings = pair_seatings(spec, hand, game.num_players)
        games = math.ceil(args.games / len(seatings)) * len(seatings)
        run = RunSpec(
            kind="designer",
            game=game.name,
            options=game.options.changed(),
            seatings=seatings,
            seed=args.seed,
        )
        run.record(store)
        store.note_run(run.key, command, None)
        label = f"{row_name(game_name, players)}: {spec} vs {hand}"
        with console.status(label):
            rows = execute(
                run,
                games,
                store,
                backend="process" if args.jobs > 1 else "serial",
                workers=args.jobs,
            )
            cpu, wall = pace(spec, game.name, game.options.changed(), args.timing_games)
        scores = [s if a == spec else 1 - s for a, _, s in pairwise_results(list(rows))]
        wins, draws = scores.count(1.0), scores.count(0.5)
        losses = len(scores) - wins - draws
        low, high = score_interval(wins, draws, losses)
        rate = (wins + draws / 2) / len(scores)
        table.add_row(
            game.name,
            str(game.num_players),
            spec,
            hand,
            str(len(scores)),
            f"{wins} / {draws} / {losses}",
            f"{100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}]",
            f"{cpu:.2f}",
            f"{wall:.2f}",
        )
        console.print(
            f"{label}: {wins} / {draws} / {losses}, {100 * rate:.1f}% "
            f"[{100 * low:.1f}, {100 * high:.1f}]; {cpu:.2f} s CPU, {wall:.2f} s a game",
            soft_wrap=True,
        )
    console.print(table)


if __name__ == "__main__":
    main()
