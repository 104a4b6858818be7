"""Ratings from a tournament: Bradley-Terry strengths on the Elo scale, with intervals."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable

import numpy as np
from pydantic import BaseModel

ELO_PER_NATURAL_UNIT = 400 / math.log(10)
PRIOR_GAMES = 1.0
"""Each pair of agents gets this many virtual drawn games: a weak prior that keeps ratings
finite when one agent wins every game (the plain maximum-likelihood estimate diverges)."""


def expected_score(elo_gap: float) -> float:
    """The score an agent ``elo_gap`` points above another is expected to make against it."""
    return 1 / (1 + 10 ** (-elo_gap / 400))


def ratings_note() -> str:
    """How to read a ratings table, for a reader who has not met Elo: what 1500 and a gap
    of points mean, what the interval is, and how games narrow it."""
    near, far = (100 * expected_score(gap) for gap in (100, 200))
    return (
        "Elo: 1500 is the mean of these agents, so a rating compares only with the others in "
        f"this table; an agent 100 points above another is expected to score {near:.0f}% in "
        f"their games, 200 points above {far:.0f}% (score: the share of its games an agent "
        "won, a draw or a shared win counting half). 95% CI: where a rating would likely fall "
        "if the tournament were played again with other seeds; two agents whose intervals do "
        "not overlap are shown to differ. At the same scores, four times the games about halve "
        "the intervals; a pair in which one agent wins almost every game tells less, and "
        "keeps them wide."
    )


class Rating(BaseModel):
    """An agent's rating and its 95% interval (Elo scale, mean of the field = 1500)."""

    agent: str
    elo: float
    low: float
    high: float
    games: int
    score: float


def pair_outcomes(
    results: Iterable[tuple[str, str, float]],
) -> dict[tuple[str, str], tuple[float, int]]:
    """Add up (agent A, agent B, A's score in 0..1) into A's total score and games per pair."""
    totals: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0])
    for a, b, score in results:
        if a == b:
            continue
        key = (a, b) if a < b else (b, a)
        totals[key][0] += score if a < b else 1 - score
        totals[key][1] += 1
    return {k: (v[0], int(v[1])) for k, v in totals.items()}


def bradley_terry(results: Iterable[tuple[str, str, float]]) -> list[Rating]:
    """Fit Bradley-Terry strengths to pairwise results (draws count half a win each).

    The intervals are +-1.96 standard errors from the pseudo-inverse of the observed
    information (the Hessian of the negative log-likelihood), with the ratings' mean fixed.
    Two agents whose intervals do not overlap differ at 95% or more: the gap's standard error
    is at most the sum of theirs, whatever their correlation.
    """
    pairs = pair_outcomes(results)
    agents = sorted({a for pair in pairs for a in pair})
    if len(agents) < 2:
        raise ValueError("ratings need at least two agents that played each other")
    index = {a: i for i, a in enumerate(agents)}
    k = len(agents)
    rows = [
        (index[a], index[b], score + PRIOR_GAMES / 2, games + PRIOR_GAMES)
        for (a, b), (score, games) in pairs.items()
    ]

    def nll(theta: np.ndarray) -> tuple[float, np.ndarray]:
        value, grad = 0.0, np.zeros(k)
        for i, j, s, g in rows:
            p = 1 / (1 + math.exp(-(theta[i] - theta[j])))
            value -= s * math.log(p) + (g - s) * math.log(1 - p)
            d = g * p - s
            grad[i] += d
            grad[j] -= d
        # pin the mean at zero: strengths are only defined up to a constant
        mean = theta.mean()
        return value + 0.5 * k * mean * mean, grad + mean

    # Imported here: scipy.optimize takes about 0.3 s to import (see core.matrix_games).
    from scipy.optimize import minimize

    fit = minimize(nll, np.zeros(k), jac=True, method="L-BFGS-B")
    theta = fit.x - fit.x.mean()
    hessian = np.zeros((k, k))
    for i, j, _, g in rows:
        p = 1 / (1 + math.exp(-(theta[i] - theta[j])))
        w = g * p * (1 - p)
        hessian[i, i] += w
        hessian[j, j] += w
        hessian[i, j] -= w
        hessian[j, i] -= w
    # Strengths are defined up to a constant, so the information has the all-ones direction
    # as its null space; its pseudo-inverse is the covariance with the mean held at zero.
    # (Inverting it with a penalty on the mean added, as the fit does, leaves that penalty's
    # variance in every rating: intervals of +-241 points that no number of games narrowed.)
    cov = np.linalg.pinv(hessian)
    played: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for (a, b), (score, games) in pairs.items():
        played[a][0] += score
        played[a][1] += games
        played[b][0] += games - score
        played[b][1] += games
    out = []
    for agent, i in index.items():
        se = math.sqrt(max(cov[i, i], 0.0)) * ELO_PER_NATURAL_UNIT
        elo = 1500 + theta[i] * ELO_PER_NATURAL_UNIT
        out.append(
            Rating(
                agent=agent,
                elo=elo,
                low=elo - 1.96 * se,
                high=elo + 1.96 * se,
                games=int(played[agent][1]),
                score=played[agent][0] / played[agent][1],
            )
        )
    return sorted(out, key=lambda r: -r.elo)
