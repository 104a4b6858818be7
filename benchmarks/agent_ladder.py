"""The strength ladder per game: random < heuristic < search (small) < search (large).

    .venv/bin/python benchmarks/agent_ladder.py --games 40 --small 50 --large 200 --jobs 2
    .venv/bin/python benchmarks/agent_ladder.py --levels --games 100 --only edges
    .venv/bin/python benchmarks/agent_ladder.py --games 100 --jobs 1 --only erosion \
        --rung ismcts:seconds=1 heuristic --rung ismcts:seconds=1 ismcts:seconds=0.25
    .venv/bin/python benchmarks/agent_ladder.py --levels --games 40 --only erosion \
        --option advanced=true

With ``--levels`` the rungs are the opponents ``meeple play --level`` offers
(``meeple.agents.levels``): medium against easy, hard against medium, and the hardest
against the game's hand-written agent and against itself at a quarter of its budget. With
``--rung UPPER LOWER`` (repeatable) the rungs are exactly those pairs, in every game named;
with ``--option NAME=VALUE`` (repeatable) they are played in that variant.

Each rung plays the agent above it against the one below, seats rotated, through the lab
(so games run on --jobs processes and every game is stored and resumable). Prints win rate
and score rate with 95% intervals (the score rate's from the games' own variance, where a
draw counts half: ``lab.stats.score_interval``); a rung holds when the upper agent's score
rate interval lies above 1/2. With ``--duplicate`` each deal (a game's seed) is played once
with each agent in each seat, and the interval is taken over the deals
(``lab.stats.deal_score_interval``): in card and dice games the luck of the deal then
cancels between the agents instead of widening the interval. Such a rung also prints its
tally (how many deals gave the upper agent each mean score), and ``--pool-with TALLY``
(repeatable) adds the tallies of earlier, independent batches of the same rung (other
``--seed``) and prints the pooled interval (``lab.stats.tally_interval``): a rung too long
for one sitting is judged over batches whose games need not be kept::

    .venv/bin/python benchmarks/agent_ladder.py --duplicate --seed 3 --games 100 \
        --only triangle-clock --rung UPPER LOWER --pool-with 1:12,0.5:25,0:13
"""

from __future__ import annotations

import argparse
import itertools
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

import meeple
from meeple.agents.levels import LEVEL_NAMES, level_spec
from meeple.agents.spec import AgentSpec, parse_spec
from meeple.core.game import Game
from meeple.lab.metrics import agent_results
from meeple.lab.run import RunSpec, execute
from meeple.lab.stats import tally_interval, wilson_interval

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its sibling modules
from stores import open_results

LADDER_OPTIONS = {"erd": {"best_of": 1}}
"""Options that keep a rung affordable (an Erd match of five games becomes one game)."""


def size_rungs(game: Game, small: int, large: int) -> list[tuple[str, str]]:
    """(lower, upper): random < hand-written < search (small) < search (large)."""
    search = "mcts" if game.perfect_information else "ismcts"
    rungs = [
        "random",
        game.heuristic_agent or "random",
        f"{search}:iterations={small}",
        f"{search}:iterations={large}",
    ]
    return list(itertools.pairwise(rungs))


def quarter_budget(spec: str) -> str:
    """``spec`` with its ``iterations``, ``worlds`` or ``seconds`` divided by four (the spec
    itself if it has none)."""
    parsed = parse_spec(spec)
    params = dict(parsed.params)
    if "seconds" in params:
        params["seconds"] = f"{float(params['seconds']) / 4:g}"
    for count in ("iterations", "worlds"):
        if count in params:
            params[count] = str(max(1, int(params[count]) // 4))
    return str(AgentSpec(parsed.name, params))


def level_rungs(game: Game) -> list[tuple[str, str]]:
    """(lower, upper): easy < medium < hard, hard against the hand-written agent, and hard
    against itself at a quarter of its budget (where it has one)."""
    easy, medium, hard = (level_spec(game, level) for level in LEVEL_NAMES)
    rungs = [(easy, medium), (medium, hard)]
    hand_written = game.heuristic_agent or "random"
    if hand_written != hard and (hand_written, hard) not in rungs:
        rungs.append((hand_written, hard))
    if quarter_budget(hard) != hard:
        rungs.append((quarter_budget(hard), hard))
    return rungs


def main() -> None:
    """Run every rung of every game and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--small", type=int, default=50)
    parser.add_argument("--large", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", help="games to measure")
    parser.add_argument("--db", default="sqlite:///results/ladder.db")
    parser.add_argument(
        "--levels", action="store_true", help="the rungs of meeple play's easy/medium/hard"
    )
    parser.add_argument(
        "--rung",
        nargs=2,
        action="append",
        metavar=("UPPER", "LOWER"),
        help="play this pair instead of the standard rungs (repeatable)",
    )
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help="play each deal once with each agent in each seat (games 2k and 2k+1 share a "
        "seed): the luck of the deal cancels, and the interval is taken over the deals",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the run's seed (part of its key): another seed is an independent run of a rung",
    )
    parser.add_argument(
        "--pool-with",
        action="append",
        default=[],
        type=parse_tally,
        metavar="TALLY",
        help="with --duplicate: an earlier batch's tally (MEAN:DEALS,..., as printed) to pool "
        "with this run's (repeatable)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        type=parse_option,
        metavar="NAME=VALUE",
        help="a game option for every game measured (repeatable), e.g. advanced=true: the "
        "rungs in a variant",
    )
    args = parser.parse_args()
    if args.pool_with and not args.duplicate:
        parser.error("--pool-with pools deals: give --duplicate too")
    tallies: list[str] = []
    store = open_results(args.db)
    command = shlex.join([os.path.relpath(sys.executable), *sys.argv])
    duplicated = ", each deal in both seatings" if args.duplicate else ""
    table = Table(title=f"strength ladder ({args.games} games per rung, seats rotated{duplicated})")
    for column in ("game", "upper", "lower", "W / D / L", "win rate [95% CI]", "score rate"):
        table.add_column(column)
    console = Console()
    for info in meeple.games():
        if args.only and info.name not in args.only:
            continue
        options = {**LADDER_OPTIONS.get(info.name, {}), **dict(args.option)}
        game = meeple.make(info.name, **options)
        # As the game read them ("true" is True), so a rung's stored run has one key.
        options = {name: getattr(game.options, name) for name in options}
        if args.rung:
            rungs = [(lower, upper) for upper, lower in args.rung]
        elif args.levels:
            rungs = level_rungs(game)
        else:
            rungs = size_rungs(game, args.small, args.large)
        for lower, upper in rungs:
            n = game.num_players
            seatings = [[upper if p == s else lower for p in range(n)] for s in range(n)]
            spec = RunSpec(
                kind="ladder",
                game=game.name,
                options=options,
                seatings=seatings,
                seed=args.seed,
                duplicate=args.duplicate,
            )
            # So that `meeple results` can say what made the run, and how to resume it, while
            # it is still being played (the note needs the run recorded first).
            spec.record(store)
            store.note_run(spec.key, command, None)
            label = f"{game.name}: {upper} vs {lower}"
            with console.status(label) as status:
                played = [0]

                # Rungs at a second a move run for hours: show how far they are (a line every
                # ten games where the output is a log, not a terminal).
                def progress(
                    _row: object,
                    status: Any = status,
                    label: str = label,
                    played: list[int] = played,
                ) -> None:
                    played[0] += 1
                    status.update(f"{label}, {played[0]}/{args.games}")
                    if not console.is_terminal and played[0] % 10 == 0:
                        console.print(f"{label}: {played[0]}/{args.games} games")

                rows = execute(
                    spec,
                    args.games,
                    store,
                    backend="process",
                    workers=args.jobs,
                    on_row=progress,
                )
            # The upper agent's record, whichever seat it held.
            [up] = [r for r in agent_results(rows) if r.agent == upper]
            games = up.wins + up.draws + up.losses
            lo, hi = wilson_interval(up.wins, games)
            table.add_row(
                game.name,
                upper,
                lower,
                f"{up.wins} / {up.draws} / {up.losses}",
                f"{100 * up.wins / games:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]",
                str(up.score),
            )
            if up.deal_tally:
                tallies.append(f"{game.name}: {upper} vs {lower}: {format_tally(up.deal_tally)}")
                if args.pool_with:
                    pooled = [*up.deal_tally, *itertools.chain(*args.pool_with)]
                    rate, (lo, hi) = tally_interval(pooled)
                    deals = sum(count for _, count in pooled)
                    tallies.append(
                        f"  pooled with {len(args.pool_with)} earlier batch(es): {deals} deals, "
                        f"score rate {100 * rate:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
                    )
    console.print(table)
    if tallies:
        console.print("deals by the upper agent's mean score (MEAN:DEALS):")
        for line in tallies:
            console.print(line, soft_wrap=True)


def parse_option(text: str) -> tuple[str, str]:
    """``advanced=true`` as (option, value), the option's dashes read as underscores (as
    ``meeple play``'s flags are); the game checks the value."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE, e.g. advanced=true")
    return name.replace("-", "_"), value


def format_tally(tally: list[tuple[float, int]]) -> str:
    """A deal tally as ``--pool-with`` reads it: ``1:12,0.5:25,0:13``."""
    return ",".join(f"{mean:g}:{count}" for mean, count in tally)


def parse_tally(text: str) -> list[tuple[float, int]]:
    """``1:12,0.5:25,0:13`` as (mean score, deals) pairs; a clear error otherwise."""
    try:
        pairs = [part.split(":") for part in text.split(",")]
        tally = [(float(mean), int(count)) for mean, count in pairs]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a tally: give MEAN:DEALS pairs separated by commas, "
            "e.g. 1:12,0.5:25,0:13"
        ) from None
    if any(not 0 <= mean <= 1 or count < 0 for mean, count in tally):
        raise argparse.ArgumentTypeError(
            f"{text!r}: each mean score is from 0 to 1 and each count at least 0"
        )
    return tally


if __name__ == "__main__":
    main()
