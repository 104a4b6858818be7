"""Erosion's Montane Legend Variant compiled with numba: legend claims and challenge cards
(the kernels of :mod:`.rules`; read :mod:`.transitions` first).

The position holds each legend card's owner (``R[R_LEGENDS]``, -1 while unclaimed, in the
order of ``ErosionGame.legend_cards``) and each seat's challenge card (``R[R_CHALLENGES]``,
an index into ``ErosionGame.challenge_cards``); the table holds each legend's height (in
rocks), its two rock types and points, and each challenge's kind
(:data:`.state.CHALLENGE_NAMES`), number (rocks), rock class and points. With
``legend=off`` there are no legend cards and every kernel here does nothing.
"""

from __future__ import annotations

import numpy as np

from meeple.games.erosion.compiled.state import (
    C_CAPSTONE,
    C_CLASS,
    C_DELTA,
    C_FOSSILS,
    C_HEIGHT,
    C_UNWEATHERED,
    LEGEND_ADVANCED,
    LEGEND_OFF,
    R_CHALLENGE_CLASS,
    R_CHALLENGE_KIND,
    R_CHALLENGE_N,
    R_CHALLENGE_POINTS,
    R_CHALLENGES,
    R_CLASS,
    R_LEGEND,
    R_LEGEND_HEIGHT,
    R_LEGEND_POINTS,
    R_LEGEND_ROCK_A,
    R_LEGEND_ROCK_B,
    R_LEGENDS,
    R_LEGENDS_N,
    R_PLAYERS,
    R_ROCK,
    R_SCALARS,
    S_CURRENT,
    S_OVER,
    base,
    compiled,
    delta,
    mountain,
    size,
    weathered_rocks,
)


@compiled
def legend_met(s: np.ndarray, R: np.ndarray, legend: int, seat: int) -> bool:
    """A legend's condition: the height, and the capstone's rock type (basic claims), or
    both listed types as the top two rocks in any order (advanced claims)
    (``legend_met``)."""
    b = base(R, mountain(R, seat))
    rocks = s[b]
    if rocks < R[R[R_LEGEND_HEIGHT] + legend] or rocks == 0:
        return False
    a, z = R[R[R_LEGEND_ROCK_A] + legend], R[R[R_LEGEND_ROCK_B] + legend]
    top = R[R[R_ROCK] + s[b + 1]]
    if R[R_LEGEND] == LEGEND_ADVANCED:
        if rocks < 2:
            return False
        second = R[R[R_ROCK] + s[b + 2]]
        return (top == a and second == z) or (top == z and second == a)
    return top in (a, z)


@compiled
def claim_legends(s: np.ndarray, R: np.ndarray) -> None:
    """Each unclaimed legend goes to the first seat meeting it, from the seat whose turn it
    is round the table (``_claim_legends``, after every settle)."""
    sc = R[R_SCALARS]
    if R[R_LEGEND] == LEGEND_OFF or s[sc + S_OVER]:
        return
    n = R[R_PLAYERS]
    for i in range(R[R_LEGENDS_N]):
        if s[R[R_LEGENDS] + i] >= 0:
            continue
        for k in range(n):
            seat = (s[sc + S_CURRENT] + k) % n
            if legend_met(s, R, i, seat):
                s[R[R_LEGENDS] + i] = seat
                break


@compiled
def challenge_met(s: np.ndarray, R: np.ndarray, seat: int) -> bool:
    """Whether the seat meets its challenge card's condition now (``challenge_met``)."""
    if R[R_LEGEND] == LEGEND_OFF:
        return False
    card = s[R[R_CHALLENGES] + seat]
    kind, wanted = R[R[R_CHALLENGE_KIND] + card], R[R[R_CHALLENGE_N] + card]
    b = base(R, mountain(R, seat))
    rocks = s[b]
    weathered, fossils = weathered_rocks(s, R, seat)
    if kind == C_HEIGHT:
        return rocks >= wanted
    if kind == C_DELTA:
        return size(s, R, delta(R, seat)) >= wanted
    if kind == C_FOSSILS:
        return fossils >= wanted
    if kind == C_CLASS:
        found = 0
        for i in range(rocks):
            found += R[R[R_CLASS] + s[b + 1 + i]] == R[R[R_CHALLENGE_CLASS] + card]
        return found >= wanted
    if kind == C_UNWEATHERED:
        return rocks - weathered >= wanted
    if kind == C_CAPSTONE:
        return rocks > 0 and weathered == 0
    return False


@compiled
def legend_points(s: np.ndarray, R: np.ndarray, p: int) -> int:
    """The seat's points from the variant if the era ended now: its legends, and its
    challenge card if met (the variant's part of ``points``, challenge shown or not)."""
    if R[R_LEGEND] == LEGEND_OFF:
        return 0
    total = 0
    for i in range(R[R_LEGENDS_N]):
        if s[R[R_LEGENDS] + i] == p:
            total += R[R[R_LEGEND_POINTS] + i]
    if challenge_met(s, R, p):
        total += R[R[R_CHALLENGE_POINTS] + s[R[R_CHALLENGES] + p]]
    return total
