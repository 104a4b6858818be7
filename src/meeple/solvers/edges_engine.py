"""The compiled hot loop of the Edges solver: negamax alpha-beta over numpy arrays (numba).

A position is a handful of arrays (see :class:`Engine`). The search value is the *remaining*
score difference: the sum, from the side to move's point of view, of the final scores of the
squares that still have an empty edge. Squares that close are folded into the move's gain, so
two positions that differ only in their closed squares share one transposition entry.

The transposition key is reduced (the design note's biggest win): it holds the set of empty
edges, each open square's strength difference and which sides have touched it (all that its
final score can depend on), both stashes and the side to move -- not who owns which edge. It
is made canonical over the board's symmetries by keeping one Zobrist hash per symmetry,
updated incrementally, and taking the smallest.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MAX_SUM = 12  # four Large pyramids around one square
UNDECIDED = 9


def _decided_table() -> np.ndarray:
    """DECIDED[a, b, k]: the final score (side 0) of a square with sums a, b and k empty
    edges if no way of filling or leaving its empty edges can change it, else UNDECIDED.

    Conservative (stash limits ignored), so a decided square really is decided.
    """
    table = np.full((MAX_SUM + 1, MAX_SUM + 1, 5), UNDECIDED, dtype=np.int64)
    adds = [(0, 0)] + [(z, 0) for z in (1, 2, 3)] + [(0, z) for z in (1, 2, 3)]
    for a in range(MAX_SUM + 1):
        for b in range(MAX_SUM + 1):
            reach = {(0, 0)}
            for k in range(5):
                scores = {_score(min(a + x, 99), min(b + y, 99)) for x, y in reach}
                if len(scores) == 1:
                    table[a, b, k] = scores.pop()
                reach = {(x + dx, y + dy) for x, y in reach for dx, dy in adds}
    return table


def _score(a: int, b: int) -> int:
    if a == b:
        return 0
    if a > b:
        return 2 if b == 0 else 1
    return -2 if a == 0 else -1


DECIDED = _decided_table()
NCODE = (2 * MAX_SUM + 1) * 4 + 5  # the last five: a decided square, by its final score
MAX_COUNT = 64  # per size and player, for the stash part of the hash

EXACT, LOWER, UPPER = 1, 2, 3
NEG_INF = -1000

# Fields of the small int64 "state" vector threaded through the search.
S_SIDE, S_OPEN, S_NODES, S_HITS = 0, 1, 2, 3
STATE_LEN = 4


@njit(cache=True, inline="always")
def square_score(a: int, b: int) -> int:
    """Final score of a square for side 0 given the strength sums ``a`` (side 0), ``b``."""
    if a == b:
        return 0
    if a > b:
        return 2 if b == 0 else 1
    return -2 if a == 0 else -1


@njit(cache=True, inline="always")
def square_code(a: int, b: int, k: int) -> int:
    """What an open square (``k`` empty edges) contributes to the reduced key: its strength
    difference and who touched it, or only its final score once nothing can change that."""
    d = DECIDED[a, b, k]
    if d != UNDECIDED:
        return (2 * MAX_SUM + 1) * 4 + d + 2
    t0 = 1 if a > 0 else 0
    t1 = 1 if b > 0 else 0
    return (a - b + MAX_SUM) * 4 + t0 * 2 + t1


@njit(cache=True)
def canonical_key(hashes: np.ndarray, common: np.uint64) -> np.uint64:
    """The smallest of the per-symmetry hashes, combined with the symmetric part."""
    best = hashes[0]
    for g in range(1, hashes.shape[0]):
        if hashes[g] < best:
            best = hashes[g]
    return best ^ common


@njit(cache=True)
def init_hashes(owner, sums, open_cnt, stash, side, zedge, zsq, zstash, zside, hashes) -> np.uint64:
    """Fill the per-symmetry hashes of a position; returns the symmetric (common) part."""
    n_sym = zedge.shape[0]
    for g in range(n_sym):
        h = np.uint64(0)
        for e in range(owner.shape[0]):
            if owner[e] >= 0:
                h ^= zedge[g, e]
        for s in range(sums.shape[0]):
            if open_cnt[s] > 0:
                h ^= zsq[g, s, square_code(sums[s, 0], sums[s, 1], open_cnt[s])]
        hashes[g] = h
    common = np.uint64(0)
    for p in range(2):
        for k in range(3):
            common ^= zstash[p, k, stash[p, k]]
    if side == 1:
        common ^= zside
    return common


@njit(cache=True)
def terminal_value(sums, open_cnt, side) -> int:
    """Remaining value once nobody has a pyramid left: open squares score as they stand."""
    v = 0
    for s in range(sums.shape[0]):
        if open_cnt[s] > 0:
            v += square_score(sums[s, 0], sums[s, 1])
    return v if side == 0 else -v


@njit(cache=True)
def negamax(
    owner,
    size,
    sums,
    open_cnt,
    stash,
    sq_edges,
    edge_sq,
    zedge,
    zsq,
    zstash,
    zside,
    hashes,
    common,
    tt_key,
    tt_val,
    tt_flag,
    tt_move,
    tt_rem,
    moves,
    order,
    st,
    by_left,
    alpha,
    beta,
    depth,
):
    """Negamax alpha-beta; returns the remaining value for the side to move (fail-soft).

    ``depth`` < 0 searches to the end (exact); otherwise the search stops after ``depth``
    placements and scores open squares as they stand (the agent's search before the endgame).
    """
    side = st[S_SIDE]
    st[S_NODES] += 1
    rem = stash[0, 0] + stash[0, 1] + stash[0, 2] + stash[1, 0] + stash[1, 1] + stash[1, 2]
    by_left[rem] += 1
    if rem == 0 or depth == 0:
        return terminal_value(sums, open_cnt, side)
    if rem == 1:
        # The last placement: score it in a loop instead of a call per move (a third of all
        # nodes sit here). Squares score as they stand after it, closed or not.
        sz = 1 if stash[side, 0] else (2 if stash[side, 1] else 3)
        best_delta = NEG_INF
        for e in range(owner.shape[0]):
            if owner[e] >= 0:
                continue
            delta = 0
            for j in range(2):
                s = edge_sq[e, j]
                if s < 0:
                    continue
                a = sums[s, 0]
                b = sums[s, 1]
                if side == 0:
                    delta += square_score(a + sz, b) - square_score(a, b)
                else:
                    delta += square_score(a, b) - square_score(a, b + sz)
            if delta > best_delta:
                best_delta = delta
        return terminal_value(sums, open_cnt, side) + best_delta
    # Every open square is worth at most 2 either way: a cheap bound that decides null windows.
    bound = 2 * st[S_OPEN]
    if bound <= alpha:
        return bound
    if -bound >= beta:
        return -bound

    key = canonical_key(hashes, common)
    mask = tt_key.shape[0] // 2 - 1
    slot = int(key & np.uint64(mask)) * 2
    tt_best = -1
    for k in range(slot, slot + 2):
        if tt_key[k] == key:
            st[S_HITS] += 1
            v = np.int64(tt_val[k])
            f = tt_flag[k]
            tt_best = tt_move[k]
            if f == EXACT:
                return v
            if f == LOWER and v > alpha:
                alpha = v
            elif f == UPPER and v < beta:
                beta = v
            if alpha >= beta:
                return v
            break
    alpha0 = alpha

    # Generate moves with an ordering score: the change in the mover's standing score.
    ply = rem
    n = 0
    seen_dead = False
    for e in range(owner.shape[0]):
        if owner[e] >= 0:
            continue
        # A dead edge touches only decided squares: every dead edge is the same move, so
        # only the first one is tried (a pyramid there changes nothing but the stash).
        dead = True
        for j in range(2):
            s = edge_sq[e, j]
            if s >= 0 and DECIDED[sums[s, 0], sums[s, 1], open_cnt[s]] == UNDECIDED:
                dead = False
        if dead:
            if seen_dead:
                continue
            seen_dead = True
        for k in range(3):  # k = size - 1; Large first
            sz = 3 - k
            kk = sz - 1
            if stash[side, kk] == 0:
                continue
            gain = 0
            for j in range(2):
                s = edge_sq[e, j]
                if s < 0:
                    continue
                a = sums[s, 0]
                b = sums[s, 1]
                before = square_score(a, b)
                if side == 0:
                    a += sz
                else:
                    b += sz
                gain += square_score(a, b) - before
            if side == 1:
                gain = -gain
            m = e * 4 + sz
            sc = gain * 8 + sz
            if m == tt_best:
                sc = 1 << 20
            # insertion sort, best first
            i = n
            while i > 0 and order[ply, i - 1] < sc:
                order[ply, i] = order[ply, i - 1]
                moves[ply, i] = moves[ply, i - 1]
                i -= 1
            order[ply, i] = sc
            moves[ply, i] = m
            n += 1

    best = NEG_INF
    best_move = -1
    other = 1 - side
    other_left = stash[other, 0] + stash[other, 1] + stash[other, 2]
    for i in range(n):
        m = moves[ply, i]
        e = m // 4
        sz = m % 4
        kk = sz - 1
        # -- apply
        owner[e] = side
        size[e] = sz
        c_old = stash[side, kk]
        common ^= zstash[side, kk, c_old] ^ zstash[side, kk, c_old - 1]
        stash[side, kk] = c_old - 1
        for g in range(hashes.shape[0]):
            hashes[g] ^= zedge[g, e]
        gain = 0
        closed = 0
        for j in range(2):
            s = edge_sq[e, j]
            if s < 0:
                continue
            code_old = square_code(sums[s, 0], sums[s, 1], open_cnt[s])
            sums[s, side] += sz
            open_cnt[s] -= 1
            for g in range(hashes.shape[0]):
                hashes[g] ^= zsq[g, s, code_old]
            if open_cnt[s] == 0:
                gain += square_score(sums[s, 0], sums[s, 1])
                closed += 1
            else:
                code_new = square_code(sums[s, 0], sums[s, 1], open_cnt[s])
                for g in range(hashes.shape[0]):
                    hashes[g] ^= zsq[g, s, code_new]
        if side == 1:
            gain = -gain
        st[S_OPEN] -= closed
        nd = depth - 1 if depth > 0 else depth
        if other_left > 0:
            st[S_SIDE] = other
            child_common = common ^ zside
            v = gain - negamax(
                owner, size, sums, open_cnt, stash, sq_edges, edge_sq, zedge, zsq, zstash,
                zside, hashes, child_common, tt_key, tt_val, tt_flag, tt_move, tt_rem, moves,
                order, st, by_left, gain - beta, gain - alpha, nd,
            )  # fmt: skip
        else:
            v = gain + negamax(
                owner, size, sums, open_cnt, stash, sq_edges, edge_sq, zedge, zsq, zstash,
                zside, hashes, common, tt_key, tt_val, tt_flag, tt_move, tt_rem, moves,
                order, st, by_left, alpha - gain, beta - gain, nd,
            )  # fmt: skip
        # -- undo
        st[S_SIDE] = side
        st[S_OPEN] += closed
        for j in range(2):
            s = edge_sq[e, j]
            if s < 0:
                continue
            if open_cnt[s] > 0:
                code_new = square_code(sums[s, 0], sums[s, 1], open_cnt[s])
                for g in range(hashes.shape[0]):
                    hashes[g] ^= zsq[g, s, code_new]
            sums[s, side] -= sz
            open_cnt[s] += 1
            code_old = square_code(sums[s, 0], sums[s, 1], open_cnt[s])
            for g in range(hashes.shape[0]):
                hashes[g] ^= zsq[g, s, code_old]
        for g in range(hashes.shape[0]):
            hashes[g] ^= zedge[g, e]
        stash[side, kk] = c_old
        common ^= zstash[side, kk, c_old] ^ zstash[side, kk, c_old - 1]
        owner[e] = -1
        size[e] = 0

        if v > best:
            best = v
            best_move = m
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break

    # -- store
    flag = EXACT
    if best <= alpha0:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    target = slot
    if tt_key[slot] != key and tt_rem[slot] > rem:
        target = slot + 1  # keep the bigger subtree in the first slot
    tt_key[target] = key
    tt_val[target] = best
    tt_flag[target] = flag
    tt_move[target] = best_move
    tt_rem[target] = rem
    return best
