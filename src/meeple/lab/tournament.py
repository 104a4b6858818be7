"""Round-robin tournaments: every pair of agents, seats rotated, rated by Bradley-Terry."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from meeple.core.words import counted
from meeple.lab.metrics import AgentResult, agent_results
from meeple.lab.run import RunSpec


def pair_seatings(a: str, b: str, players: int) -> list[list[str]]:
    """The distinct seatings of one pair, in the order its games cycle through them: A
    alone in seat 0 (B in every other seat), B alone in seat 0, A alone in seat 1, ...

    With two seats that is just [A, B] and [B, A]. Alternating who sits alone keeps both
    agents' seats as even as the number of games allows at every point of the cycle.
    """
    out: list[list[str]] = []
    for seat in range(players):
        for alone, rest in ((a, b), (b, a)):
            seating = [alone if p == seat else rest for p in range(players)]
            if seating not in out:
                out.append(seating)
    return out


def round_robin_seatings(agents: list[str], players: int) -> list[list[str]]:
    """The seatings of a round robin, interleaved by pair so that cycling through them
    gives every pair the same number of games.

    Game k is played by pair ``k % pairs`` in that pair's seating ``(k // pairs) % S``
    (:func:`pair_seatings`, S of them). ``G * pairs`` games therefore give each pair exactly
    G games, each of its seatings ``G // S`` times or once more, whatever G is; and the
    list does not depend on G, so asking for more games extends a stored run.
    """
    if len(set(agents)) != len(agents):
        raise ValueError("each agent may enter a tournament once; give distinct specs")
    if len(agents) < 2:
        raise ValueError("a tournament needs at least two agents")
    per_pair = [pair_seatings(a, b, players) for a, b in combinations(agents, 2)]
    return [seatings[r] for r in range(len(per_pair[0])) for seatings in per_pair]


def tournament_spec(
    game: str,
    options: dict[str, Any],
    agents: list[str],
    players: int,
    seed: int,
    duplicate: bool = False,
) -> RunSpec:
    """The run that plays a round robin: play ``games_per_pair * pairs`` games of it.

    With ``duplicate`` every pair plays each deal once in each of its seatings: a deal
    spans one pass through all the seatings, so every pair meets the same deals, and the
    games per pair must be a multiple of the pair's seatings for the last deal to be whole.
    """
    return RunSpec(
        kind="tournament",
        game=game,
        options=options,
        seatings=round_robin_seatings(agents, players),
        seed=seed,
        duplicate=duplicate,
    )


@dataclass
class PairPlay:
    """How often one pair met, and who sat where."""

    agents: tuple[str, str]
    games: int = 0
    seats: dict[str, list[int]] = field(default_factory=dict)
    """For each of the two agents, the games it played in each seat."""

    @property
    def balanced(self) -> bool:
        """Each agent held every seat equally often."""
        return all(len(set(counts)) == 1 for counts in self.seats.values())


def pair_plays(rows: Sequence[Mapping[str, Any]]) -> list[PairPlay]:
    """Games and seats of each pair, read from the rows actually played."""
    plays: dict[tuple[str, str], PairPlay] = {}
    for row in rows:
        seats = row["seats"]
        names = tuple(sorted(set(seats)))
        if len(names) != 2:
            continue
        play = plays.setdefault(
            names,
            PairPlay(names, seats={n: [0] * len(seats) for n in names}),
        )
        play.games += 1
        for p, name in enumerate(seats):
            play.seats[name][p] += 1
    return list(plays.values())


def seating_note(plays: list[PairPlay]) -> str:
    """One sentence on games per pair and seat balance, for the table and the report."""
    if not plays:
        return "No pair has played yet."
    counts = sorted({p.games for p in plays})
    games = (
        f"Every pair played {counted(counts[0], 'game')}"
        if len(counts) == 1
        else f"Pairs played {counts[0]} to {counts[-1]} games"
    )
    uneven = [p for p in plays if not p.balanced]
    if not uneven:
        return f"{games}; every agent held each seat equally often."
    players = len(next(iter(uneven[0].seats.values())))
    cycle = len(pair_seatings("a", "b", players))
    held = [n for p in uneven for counts in p.seats.values() for n in counts]
    return (
        f"{games}; seats balance when the games per pair are a multiple of {cycle}: in "
        f"{len(uneven)} of {len(plays)} pairs an agent held a seat {min(held)} to {max(held)} "
        "times"
        + (" (the agent named first takes seat 0 in the extra game)" if cycle == 2 else "")
        + "."
    )


def first_mover_note(rows: Sequence[Mapping[str, Any]]) -> str | None:
    """One sentence on how often each agent of a pair moved first, from the rows played;
    None for a game in which nobody moves first (simultaneous choices).

    Rotating the seats evens the first move only where a fixed seat starts: a game that
    draws its first player from the deal gives a pair's agents the first move unevenly,
    which ``--duplicate`` (each deal in every seating) evens."""
    firsts: dict[tuple[str, str], Counter[str]] = {}
    for row in rows:
        seats, first = row["seats"], row.get("first_player")
        names = tuple(sorted(set(seats)))
        if len(names) != 2 or first is None:
            continue
        count = firsts.setdefault((names[0], names[1]), Counter({n: 0 for n in names}))
        count[seats[first]] += 1
    if not firsts:
        return None
    uneven = {pair: count for pair, count in firsts.items() if len(set(count.values())) > 1}
    if not uneven:
        return "In every pair each agent moved first equally often."
    why = (
        "where the game draws the first player, rotating the seats does not even it; "
        "--duplicate, which plays each deal in every seating, does"
    )
    if len(firsts) == 1:
        [(pair, count)] = firsts.items()
        return (
            f"Moved first: {pair[0]} in {count[pair[0]]} and {pair[1]} in {count[pair[1]]} of "
            f"their {counted(sum(count.values()), 'game')} ({why})."
        )
    gap = max(abs(count[a] - count[b]) for (a, b), count in uneven.items())
    return (
        f"Moved first: in {len(uneven)} of {len(firsts)} pairs one agent more often than the "
        f"other, by up to {counted(gap, 'game')} ({why})."
    )


def pair_records(rows: Sequence[Mapping[str, Any]], agents: list[str]) -> list[AgentResult]:
    """For each pair of ``agents`` that played, in round-robin order, the record of the
    agent listed first: its score rate against the other, with the interval over its games,
    or over the deals where the pair shared deals (``--duplicate``)."""
    by_pair: dict[frozenset[str], list[Mapping[str, Any]]] = {}
    for row in rows:
        names = frozenset(row["seats"])
        if len(names) == 2:
            by_pair.setdefault(names, []).append(row)
    out: list[AgentResult] = []
    for a, b in combinations(agents, 2):
        records = agent_results(by_pair.get(frozenset((a, b)), []))
        out.extend(record for record in records if record.agent == a)
    return out


def round_robin_agents(spec: RunSpec) -> list[str]:
    """The agents of a round robin in the order they were entered."""
    return list(dict.fromkeys(name for seating in spec.seatings for name in seating))


def pair_lines(records: list[AgentResult]) -> list[str]:
    """One sentence per pair: the first agent's score rate against the other, its interval
    and what the interval is taken over."""
    out = []
    for record in records:
        over = (
            counted(record.deals, "deal") if record.deals else counted(record.score.total, "game")
        )
        out.append(
            f"{record.agent} against {record.opponent}: score rate {record.score} over {over} "
            f"({record.wins} W / {record.draws} D / {record.losses} L)."
        )
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
