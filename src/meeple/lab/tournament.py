"""Round-robin tournaments: every pair of agents, seats rotated, rated by Bradley-Terry."""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations
from typing import Any

from meeple.lab.run import RunSpec


def round_robin_seatings(agents: list[str], players: int) -> list[list[str]]:
    """For each pair (A, B): A in each seat with B in all the others, then the reverse."""
    if len(set(agents)) != len(agents):
        raise ValueError("each agent may enter a tournament once; give distinct specs")
    if len(agents) < 2:
        raise ValueError("a tournament needs at least two agents")
    seatings = []
    for a, b in combinations(agents, 2):
        for focus, other in ((a, b), (b, a)):
            for seat in range(players):
                seatings.append([focus if p == seat else other for p in range(players)])
    return seatings


def tournament_spec(
    game: str, options: dict[str, Any], agents: list[str], players: int, seed: int
) -> RunSpec:
    """The run that plays a round robin (games are spread evenly over the seatings)."""
    return RunSpec(
        kind="tournament",
        game=game,
        options=options,
        seatings=round_robin_seatings(agents, players),
        seed=seed,
    )


def pairwise_results(rows: list[dict[str, Any]]) -> list[tuple[str, str, float]]:
    """Each game as (agent A, agent B, A's score): 1 if A's seat did strictly best, 0 if a
    B seat did strictly better, 1/2 otherwise. A is the agent that holds fewer seats (with
    two players: the one in seat 0)."""
    out = []
    for row in rows:
        seats, returns = row["seats"], row["returns"]
        names = sorted(set(seats), key=lambda name: (seats.count(name), seats.index(name)))
        if len(names) != 2:
            continue
        a, b = names
        a_best = max(r for s, r in zip(seats, returns, strict=True) if s == a)
        b_best = max(r for s, r in zip(seats, returns, strict=True) if s == b)
        out.append((a, b, 1.0 if a_best > b_best else 0.0 if a_best < b_best else 0.5))
    return out


def score_matrix(results: list[tuple[str, str, float]]) -> dict[tuple[str, str], float]:
    """Mean score of each agent against each other agent."""
    sums: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0])
    for a, b, score in results:
        sums[(a, b)][0] += score
        sums[(a, b)][1] += 1
        sums[(b, a)][0] += 1 - score
        sums[(b, a)][1] += 1
    return {k: v[0] / v[1] for k, v in sums.items()}
