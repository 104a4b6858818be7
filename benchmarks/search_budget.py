"""What a time budget buys a search: iterations per decision over whole games.

    .venv/bin/python benchmarks/search_budget.py triangle-clock \
        --spec ismcts:seconds=1,rollout=guided,opponent=guided,candidates=8,widen=0.25 \
        --spec ismcts:seconds=0.25,rollout=guided,opponent=guided,candidates=8,widen=0.25

Each spec plays ``--games`` games against ``--opponent`` (seats alternated) and reports the
iterations its search ran at each decision it searched (a decision with one legal action is
not searched). A rung "1 s against 0.25 s" compares these counts, not the seconds: on a
loaded machine both shrink. Run it on an otherwise idle machine for figures to compare.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from rich.console import Console
from rich.table import Table

import meeple
from meeple.agents import make_agent, play_game
from meeple.core.agent import Agent, Observation


class Counted:
    """An agent that passes every decision to a search agent and keeps its iterations."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.iterations: list[int] = []

    def act(self, observation: Observation) -> Any:
        """The inner agent's action; its iteration count is kept when it searched."""
        action = self.inner.act(observation)
        if self.inner.last_iterations:
            self.iterations.append(self.inner.last_iterations)
        return action

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def main() -> None:
    """Play the games and print the iterations per searched decision of each spec."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--spec", action="append", required=True, help="a search agent spec")
    parser.add_argument("--opponent", default="policy")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    game = meeple.make(args.game)
    table = Table(title=f"{game.title}: iterations per searched decision")
    for column in ("spec", "games", "decisions", "median", "mean", "min", "max"):
        table.add_column(column)
    console = Console()
    for spec in args.spec:
        counted = Counted(make_agent(spec, game, seed=1))
        for k in range(args.games):
            other: Agent = make_agent(args.opponent, game, seed=2 + k)
            seats: list[Any] = [counted, other] if k % 2 == 0 else [other, counted]
            with console.status(f"{spec}: game {k + 1} of {args.games}"):
                play_game(game, seats, seed=args.seed + k)
        counts = counted.iterations
        table.add_row(
            spec,
            str(args.games),
            str(len(counts)),
            f"{statistics.median(counts):,.0f}",
            f"{statistics.fmean(counts):,.0f}",
            f"{min(counts):,}",
            f"{max(counts):,}",
        )
    console.print(table)


if __name__ == "__main__":
    main()
