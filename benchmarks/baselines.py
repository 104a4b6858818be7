"""Baselines to beat: each game's random, hand-written and levelled agents against each other.

    .venv/bin/python benchmarks/baselines.py --games 60 --hard-games 6
    .venv/bin/python benchmarks/baselines.py --only edges erd --games 100
    .venv/bin/python benchmarks/baselines.py --designer-for erosion squad-combat triangle-clock
    .venv/bin/python benchmarks/baselines.py --only erd --with easy --skip-exploitability

For each of the five games (default options; Erd single games, as the ladder plays them) the
agents are ``random``, the hand-written agent (``heuristic``; Edges' is ``greedy``) and the
levels of ``meeple.agents.levels`` (``easy``, ``medium``, ``hard``). Where two of these are
the same spec (most games' ``medium`` is the hand-written agent, Edges' ``easy``) they are
one agent, named by every role it plays. Every pair of distinct agents plays through the
lab as ``meeple tournament`` seats a pair (``lab.tournament.pair_seatings``: seats rotated,
one agent alone in a seat at three players or more), each game scored 1, 1/2 or 0 for the
first agent (``lab.metrics.pairwise_results``), with the lab's 95% interval of the score
rate (``lab.stats.score_interval``, a draw counting half). Games are stored (``--db``), so an
interrupted run resumes. ``--with ROLE ...`` plays only the pairs with an agent in one of
those roles (or of those specs): the rows a changed level needs.

``hard`` is the strongest agent meeple offers, at about a second a move (Erd's excepted: it
plays the solved game, fast): a pair with it plays
``--hard-games`` (rounded up to whole seatings), and ``--designer-for GAME ...`` puts the
``designer`` level (the lab's fast agent to balance with) in its place for those games.

For Erd, whose equilibrium meeple computes exactly (``meeple.solvers.erd``), every agent's
exploitability from the opening (what a best response wins against it a game, single games,
the default rules): computed exactly, by backward induction over the solution, for the agents
whose play is a fixed mix per state (``solvers.erd.analysis.exploitability``); ``exploit``
(Erd's hard) tilts towards what its opponent reveals, so its play is not such a mix: its bound
is its allowance, by construction (``solvers.erd.exploit``). ``--skip-exploitability`` leaves
the table out (the heuristic's takes minutes).
"""

from __future__ import annotations

import argparse
import math
import os
import shlex
import sys
import time
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from rich.console import Console
from rich.table import Table

import meeple
from meeple.agents.careless import CarelessAgent
from meeple.agents.levels import DESIGNER_LEVEL, LEVEL_NAMES, level_spec
from meeple.agents.spec import make_agent, parse_spec
from meeple.core.game import Game
from meeple.lab.metrics import pairwise_results
from meeple.lab.run import RunSpec, execute
from meeple.lab.stats import score_interval
from meeple.lab.tournament import pair_seatings
from meeple.store import ResultStore

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its sibling modules
from stores import open_results

GAME_OPTIONS: dict[str, dict[str, object]] = {"erd": {"best_of": 1}}
"""Options other than the defaults: an Erd match of five games becomes one game (as the
ladder and the exploitability table count it)."""


@dataclass(frozen=True)
class Baseline:
    """One distinct agent of a game: its spec and every role it plays there."""

    spec: str
    roles: tuple[str, ...]

    @property
    def label(self) -> str:
        """``easy = greedy``, ``hard = uct:iterations=30000``, or ``random``."""
        roles = [r for r in self.roles if r != self.spec]
        return f"{' = '.join(roles)} = {self.spec}" if roles else self.spec


@dataclass(frozen=True)
class PairScore:
    """A pair's games from the first agent's side."""

    game: str
    a: Baseline
    b: Baseline
    wins: int
    draws: int
    losses: int
    seconds: float

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """A's score rate, a draw counting half."""
        return (self.wins + self.draws / 2) / self.games

    def interval(self) -> tuple[float, float]:
        """The 95% interval of A's score rate (``lab.stats.score_interval``)."""
        return score_interval(self.wins, self.draws, self.losses)


def baselines(game: Game, designer: bool = False) -> list[Baseline]:
    """random, easy, the hand-written agent, medium and hard for ``game`` (hard replaced by
    the designer level when ``designer``), specs that are the same merged, in that order:
    weakest first (easy is the hand-written agent slipping, or the hand-written agent)."""
    hand = game.heuristic_agent or "random"
    roles: list[tuple[str, str]] = [("random", "random")]
    for level in LEVEL_NAMES:
        spec_level = DESIGNER_LEVEL if designer and level == "hard" else level
        name = f"{level} (designer)" if spec_level != level else level
        roles.append((name, level_spec(game, spec_level)))
        if level == "easy":
            roles.append((hand, hand))
    merged: dict[str, list[str]] = {}
    for role, spec in roles:
        # Written out plainly, as the lab records a seat, so that equal specs merge.
        merged.setdefault(str(parse_spec(spec)), []).append(role)
    return [Baseline(spec, tuple(dict.fromkeys(r))) for spec, r in merged.items()]


def pairs(agents: list[Baseline], among: list[str]) -> list[tuple[Baseline, Baseline]]:
    """Every pair of ``agents`` as (A, B), the stronger (later) agent A so that most rates
    read above one half; only those with an agent in a role or of a spec of ``among`` where
    it names any."""
    found = [(a, b) for b, a in combinations(agents, 2)]
    if not among:
        return found
    return [(a, b) for a, b in found if {*a.roles, a.spec, *b.roles, b.spec} & set(among)]


FAST_HARD = frozenset({"erd"})
"""Games whose hard level is fast: Erd's plays the solved game, about 0.2 s a match."""


def is_slow(game: str, agent: Baseline) -> bool:
    """Whether the agent is a game's hard level at about a second a move."""
    return "hard" in agent.roles and game not in FAST_HARD


def play_pair(
    game: Game,
    a: Baseline,
    b: Baseline,
    games: int,
    store: ResultStore,
    seed: int = 0,
    jobs: int = 1,
    command: str | None = None,
) -> PairScore:
    """Play ``a`` against ``b`` through the lab, seats rotated (at least ``games`` games: a
    whole number of the pair's seatings), and score the games from ``a``'s side."""
    seatings = pair_seatings(a.spec, b.spec, game.num_players)
    count = math.ceil(games / len(seatings)) * len(seatings)
    run = RunSpec(
        kind="baselines",
        game=game.name,
        options=game.options.changed(),
        seatings=seatings,
        seed=seed,
    )
    run.record(store)
    if command:
        store.note_run(run.key, command, None)
    started = time.perf_counter()
    rows = execute(
        run,
        count,
        store,
        backend="process" if jobs > 1 else "serial",
        workers=jobs,
    )
    seconds = time.perf_counter() - started
    scores = [s if first == a.spec else 1 - s for first, _, s in pairwise_results(list(rows))]
    wins, draws = scores.count(1.0), scores.count(0.5)
    return PairScore(game.name, a, b, wins, draws, len(scores) - wins - draws, seconds)


def pair_table(title: str, scores: list[PairScore]) -> Table:
    """The pairs as a table: A's record and score rate with its 95% interval."""
    table = Table(title=title)
    for column in ("game", "agent A", "agent B", "games", "A: W / D / L", "A's score [95%]"):
        table.add_column(column)
    for score in scores:
        low, high = score.interval()
        table.add_row(
            score.game,
            score.a.label,
            score.b.label,
            str(score.games),
            f"{score.wins} / {score.draws} / {score.losses}",
            f"{100 * score.score:.1f}% [{100 * low:.1f}, {100 * high:.1f}]",
        )
    return table


def markdown_rows(scores: list[PairScore]) -> list[str]:
    """The pairs as the rows of a Markdown table (docs/baselines.md's), its header first."""
    lines = [
        "| game | agent A | agent B | games | A: W / D / L | A's score [95%] |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for score in scores:
        low, high = score.interval()
        lines.append(
            f"| {score.game} | `{score.a.label}` | `{score.b.label}` | {score.games} | "
            f"{score.wins} / {score.draws} / {score.losses} | "
            f"{100 * score.score:.1f}% [{100 * low:.1f}, {100 * high:.1f}] |"
        )
    return lines


def erd_exploitability(console: Console) -> None:
    """Every Erd agent's exploitability from the opening, single games, default rules."""
    from meeple.games.erd.agents import HeuristicAgent
    from meeple.solvers.erd.analysis import (
        equilibrium_strategy,
        exploitability,
        heuristic_strategy,
        slipping_strategy,
        uniform_strategy,
    )
    from meeple.solvers.erd.solve import solve_erd

    game = meeple.make("erd", **GAME_OPTIONS["erd"])
    solution, _, _ = solve_erd({"rules": game.options.rules}, None)
    agents = {b.spec: b for b in baselines(game)}
    table = Table(
        title=f"Erd {game.options.rules}: exploitability (a best response's gain a game, "
        "single games)"
    )
    for column in ("agent", "guarantees from the opening", "exploitability", "how", "seconds"):
        table.add_column(column)
    heuristic = heuristic_strategy(solution, HeuristicAgent(game))
    strategies = {
        "equilibrium": equilibrium_strategy(solution),
        "random": uniform_strategy(solution),
        "heuristic": heuristic,
    }
    for agent in agents.values():
        if parse_spec(agent.spec).name == CarelessAgent.name:
            careless = make_agent(agent.spec, game)
            assert isinstance(careless, CarelessAgent)
            strategies[agent.spec] = slipping_strategy(solution, heuristic, careless.slip)
    for spec, strategy in strategies.items():
        started = time.perf_counter()
        worst, gap = exploitability(solution, strategy)
        label = agents[spec].label if spec in agents else spec
        table.add_row(
            label, f"{worst:+.4f}", f"{gap:.4f}", "exact", f"{time.perf_counter() - started:.1f}"
        )
    for agent in agents.values():
        parsed = parse_spec(agent.spec)
        if parsed.name == "exploit":
            allowance = float(dict(parsed.params).get("allowance", 0))
            table.add_row(agent.label, f">= {-allowance:+.4f}", f"<= {allowance:.4f}", "bound", "-")
    console.print(table)


def main() -> None:
    """Play every pair of every game, print the table, then Erd's exploitability."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=60, help="games a pair of fast agents")
    parser.add_argument("--hard-games", type=int, default=6, help="games a pair with hard")
    parser.add_argument("--only", nargs="*", help="games to measure (names)")
    parser.add_argument(
        "--designer-for", nargs="*", default=[], help="games whose hard is replaced by designer"
    )
    parser.add_argument("--seed", type=int, default=0, help="the runs' seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--db", default="sqlite:///results/baselines.db")
    parser.add_argument(
        "--with",
        dest="with_",
        nargs="*",
        default=[],
        help="play only the pairs with an agent in one of these roles or specs (easy, random)",
    )
    parser.add_argument(
        "--skip-exploitability", action="store_true", help="leave out Erd's exploitability"
    )
    parser.add_argument(
        "--markdown", action="store_true", help="print the pairs as a Markdown table too"
    )
    args = parser.parse_args()
    names = [info.name for info in meeple.games()]
    for name in [*(args.only or []), *args.designer_for]:
        if name not in names:
            sys.exit(f"{name!r} is not a game; choose from {', '.join(names)}")
    if args.games < 1 or args.hard_games < 1:
        parser.error("--games and --hard-games take a whole number of at least 1")
    store = open_results(args.db)
    command = shlex.join([os.path.relpath(sys.executable), *sys.argv])
    console = Console()
    scores: list[PairScore] = []
    for name in names:
        if args.only and name not in args.only:
            continue
        game = meeple.make(name, **GAME_OPTIONS.get(name, {}))
        agents = baselines(game, designer=name in args.designer_for)
        for a, b in pairs(agents, args.with_):
            games = args.hard_games if is_slow(name, a) or is_slow(name, b) else args.games
            with console.status(f"{name}: {a.label} vs {b.label}, {games} games"):
                score = play_pair(game, a, b, games, store, args.seed, args.jobs, command)
            console.print(
                f"{name}: {a.label} vs {b.label}: {score.wins} / {score.draws} / "
                f"{score.losses} ({score.seconds:.0f} s)",
                highlight=False,
            )
            scores.append(score)
    console.print(pair_table("baselines: agent A against agent B, seats rotated", scores))
    if args.markdown:
        print("\n".join(markdown_rows(scores)))
    if not args.skip_exploitability and (not args.only or "erd" in args.only):
        erd_exploitability(console)


if __name__ == "__main__":
    main()
