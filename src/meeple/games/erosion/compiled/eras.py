"""Erosion's era end compiled with numba: its scoring, its tie-breaker and the next era's
decks (the kernels of :mod:`.rules`, twins of the reference's ``eras.py``; read
:mod:`.transitions` first, which resolves the era's chance with them).
"""

from __future__ import annotations

import numpy as np

from meeple.games.erosion.compiled.architecture import in_force
from meeple.games.erosion.compiled.legends import legend_points
from meeple.games.erosion.compiled.state import (
    CHANCE_NEW_ERA,
    CHANCE_TIE_START,
    CHANCE_TIE_WIN,
    E_SCORE_BONUS,
    K_CHOOSE,
    LEGEND_OFF,
    PURPOSE_START,
    PURPOSE_WIN,
    R_CARDS,
    R_CHANCE_SEATS,
    R_DECK,
    R_ERA_SCORES,
    R_ERAS,
    R_LEGEND,
    R_MOHS,
    R_PLAYERS,
    R_SCALARS,
    R_SCORES,
    R_TIE_CARDS,
    R_TIE_GUESSES,
    R_TIE_SEATS,
    R_WINNERS,
    S_CHANCE,
    S_CHANCE_N,
    S_ERA,
    S_ERAS_SCORED,
    S_OVER,
    S_REASON,
    S_SHOWN,
    S_TIE_N,
    S_TIE_PURPOSE,
    S_WINNERS_N,
    agenda_clear,
    agenda_push,
    base,
    compiled,
    delta,
    hand,
    insert,
    mountain,
    size,
    weathered_rocks,
)


@compiled
def points(s: np.ndarray, R: np.ndarray, p: int) -> int:
    """What the seat scores now: 1 per unweathered rock, 2 per delta rock, 3 per weathered
    fossil, its Reefs' points, and its legends and met challenge (``points``)."""
    weathered, fossils = weathered_rocks(s, R, p)
    total = size(s, R, mountain(R, p)) - weathered + 2 * size(s, R, delta(R, p)) + 3 * fossils
    return total + in_force(s, R, p, E_SCORE_BONUS, 0) + legend_points(s, R, p)


@compiled
def end_era(s: np.ndarray, R: np.ndarray, reason: int) -> None:
    """Score the era; then the tie-breaker's draws (chance) or the tie decided (``_end_era``)."""
    n, sc = R[R_PLAYERS], R[R_SCALARS]
    scored = s[sc + S_ERAS_SCORED]
    for p in range(n):
        era = points(s, R, p)
        s[R[R_SCORES] + p] += era
        s[R[R_ERA_SCORES] + scored * n + p] = era
    s[sc + S_ERAS_SCORED] = scored + 1
    s[sc + S_SHOWN] = R[R_LEGEND] != LEGEND_OFF
    agenda_clear(s, R)
    s[sc + S_REASON] = reason
    final = s[sc + S_ERA] >= R[R_ERAS]
    target = s[R[R_SCORES]]
    for p in range(1, n):
        v = s[R[R_SCORES] + p]
        if (final and v > target) or (not final and v < target):
            target = v
    tied = 0
    for p in range(n):
        if s[R[R_SCORES] + p] == target:
            s[R[R_CHANCE_SEATS] + tied] = p
            tied += 1
    s[sc + S_CHANCE_N] = tied
    if tied == 1:
        decided(s, R, PURPOSE_WIN if final else PURPOSE_START)
    else:
        s[sc + S_CHANCE] = CHANCE_TIE_WIN if final else CHANCE_TIE_START


@compiled
def decided(s: np.ndarray, R: np.ndarray, purpose: int) -> None:
    """The tie goes to the seats in ``CHANCE_SEATS`` (``_tie_decided``): the tie's cards go
    back, then the game ends or the next era waits for its chance."""
    sc = R[R_SCALARS]
    for i in range(s[sc + S_TIE_N]):
        card = s[R[R_TIE_CARDS] + i]
        if card >= 0:
            insert(s, R, hand(R, s[R[R_TIE_SEATS] + i]), card)
    for key in (R_TIE_SEATS, R_TIE_CARDS, R_TIE_GUESSES):
        s[R[key] : R[key] + R[R_PLAYERS]] = -1
    s[sc + S_TIE_PURPOSE] = 0
    s[sc + S_TIE_N] = 0
    k = s[sc + S_CHANCE_N]
    if purpose == PURPOSE_WIN:
        s[R[R_WINNERS] : R[R_WINNERS] + k] = s[R[R_CHANCE_SEATS] : R[R_CHANCE_SEATS] + k]
        s[sc + S_WINNERS_N] = k
        s[sc + S_OVER] = 1
        agenda_clear(s, R)
        clear_chance(s, R)
    else:
        s[sc + S_CHANCE] = CHANCE_NEW_ERA


@compiled
def clear_chance(s: np.ndarray, R: np.ndarray) -> None:
    """No chance pending."""
    sc = R[R_SCALARS]
    s[sc + S_CHANCE] = 0
    s[sc + S_CHANCE_N] = 0
    s[R[R_CHANCE_SEATS] : R[R_CHANCE_SEATS] + R[R_PLAYERS]] = -1


@compiled
def settle_tie(s: np.ndarray, R: np.ndarray) -> None:
    """The closest guesser chooses; equally close ones stay tied (``_settle_tie``)."""
    sc = R[R_SCALARS]
    k = s[sc + S_TIE_N]
    seats, cards, guesses = R[R_TIE_SEATS], R[R_TIE_CARDS], R[R_TIE_GUESSES]
    closest = 99
    for i in range(k):
        if s[cards + i] >= 0:
            closest = min(closest, abs(s[guesses + i] - R[R[R_MOHS] + s[cards + i]]))
    best = 0
    for i in range(k):
        card = s[cards + i]
        # no holder at all: every tied seat stays tied
        if closest == 99 or (card >= 0 and abs(s[guesses + i] - R[R[R_MOHS] + card]) == closest):
            s[R[R_CHANCE_SEATS] + best] = s[seats + i]
            best += 1
    s[sc + S_CHANCE_N] = best
    if best > 1 or closest == 99:
        decided(s, R, s[sc + S_TIE_PURPOSE])
    else:
        chooser = s[R[R_CHANCE_SEATS]]
        clear_chance(s, R)
        agenda_clear(s, R)
        agenda_push(s, R, K_CHOOSE, chooser, 0, -1)


@compiled
def new_era_decks(s: np.ndarray, R: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The next era's decks before their shuffle: every card but the mountains', deck by
    deck in card order; each deck's size, and the cards (deck ``d`` after decks ``< d``)."""
    cards = R[R_CARDS]
    in_mountain = np.zeros(cards, dtype=np.bool_)
    for p in range(R[R_PLAYERS]):
        b = base(R, mountain(R, p))
        for i in range(s[b]):
            in_mountain[s[b + 1 + i]] = True
    sizes = np.zeros(3, dtype=np.int16)
    order = np.empty(cards, dtype=np.int16)
    at = 0
    for d in range(3):
        first = at
        for c in range(cards):
            if not in_mountain[c] and R[R[R_DECK] + c] == d:
                order[at] = c
                at += 1
        sizes[d] = at - first
    return sizes, order[:at]
