"""Placing a pyramid and taking it back (squares, stash, hashes and bounds kept up to date
move by move), and which placements another one dominates."""

from __future__ import annotations

import numpy as np

from meeple.solvers.edges_engine.compiled import compiled, inlined
from meeple.solvers.edges_engine.frame import (
    S_BOUNDS_END,
    S_CUR,
    S_DN,
    S_DN_HULL,
    S_UP,
    S_UP_HULL,
)
from meeple.solvers.edges_engine.squares import (
    CLASS,
    DECIDED,
    GAIN_HULL,
    GAIN_STEPS,
    LOSS_HULL,
    LOSS_STEPS,
    PLACED,
    UNDECIDED,
    square_score,
)


@compiled
def standing_value(sums: np.ndarray, open_cnt: np.ndarray, side: int) -> int:
    """The undecided squares scored as they stand, from ``side``'s point of view."""
    v = 0
    for s in range(sums.shape[0]):
        a = sums[s, 0]
        b = sums[s, 1]
        if open_cnt[s] > 0 and DECIDED[a, b, open_cnt[s]] == UNDECIDED:
            v += square_score(a, b)
    return v if side == 0 else -v


@inlined
def count_square(fields: np.ndarray, base: int, a: int, b: int, k: int, sign: int) -> None:
    """Add (``sign`` 1) or take away (-1) an undecided square's share of the search's bound
    fields -- its standing score and its steps -- at ``fields[base + S_CUR:]``."""
    fields[base + S_CUR] += sign * square_score(a, b)
    for z in range(3):
        fields[base + S_UP + z] += sign * GAIN_STEPS[z, a, b, k]
        fields[base + S_DN + z] += sign * LOSS_STEPS[z, a, b, k]
    fields[base + S_UP_HULL] += sign * GAIN_HULL[a, b, k]
    fields[base + S_DN_HULL] += sign * LOSS_HULL[a, b, k]


@inlined
def placement_gain(sums: np.ndarray, edge_sq: np.ndarray, e: int, sz: int, who: int) -> int:
    """How much ``who``'s standing score rises if ``who`` puts a pyramid of ``sz`` on ``e``."""
    delta = 0
    for j in range(2):
        s = edge_sq[e, j]
        if s < 0:
            continue
        a = sums[s, 0]
        b = sums[s, 1]
        if who == 0:
            delta += square_score(a + sz, b) - square_score(a, b)
        else:
            delta += square_score(a, b) - square_score(a, b + sz)
    return delta


@inlined
def shared_edges(
    sums: np.ndarray, open_cnt: np.ndarray, mask: np.ndarray, sq_nb: np.ndarray, s: int
) -> int:
    """The empty edges of square ``s`` whose other side is an undecided square (a bit mask).

    Its other empty edges are *private*: each touches only ``s`` among the undecided squares
    (the board's rim, or a decided neighbour whose score nothing can change), so which of
    them are empty does not matter -- only how many, which the square's class holds. The key
    describes a square by its class and this mask, so positions that differ only in which
    private edges are filled share an entry.
    """
    m = mask[s]
    shared = 0
    for slot in range(4):
        if m >> slot & 1:
            t = sq_nb[s, slot]
            if t >= 0 and CLASS[sums[t, 0], sums[t, 1], open_cnt[t]] >= 0:
                shared |= 1 << slot
    return shared


@inlined
def place(
    e: int,
    sz: int,
    side: int,
    ply: int,
    owner: np.ndarray,
    sums: np.ndarray,
    open_cnt: np.ndarray,
    mask: np.ndarray,
    stash: np.ndarray,
    edge_sq: np.ndarray,
    edge_bit: np.ndarray,
    sq_nb: np.ndarray,
    sq_nbit: np.ndarray,
    zsq: np.ndarray,
    hashes: np.ndarray,
    n_sym: int,
    st: np.ndarray,
    saved: np.ndarray,
    saved_h: np.ndarray,
) -> int:
    """Put ``side``'s pyramid of strength ``sz`` on edge ``e``: update the squares, the stash,
    the per-symmetry hashes and the bound fields of ``st`` (saved at row ``ply`` first, for
    :func:`unplace`); only the first ``n_sym`` hashes are kept. Returns the score of the
    squares this decides, in the mover's view."""
    owner[e] = side
    stash[side, sz - 1] -= 1
    for f in range(S_CUR, S_BOUNDS_END):
        saved[ply, f - S_CUR] = st[f]
    for g in range(n_sym):
        saved_h[ply, g] = hashes[g]
    gain = 0
    # Both squares' shared masks before either changes (each depends on the other).
    sh_first = 0
    sh_second = 0
    if edge_sq[e, 0] >= 0:
        sh_first = shared_edges(sums, open_cnt, mask, sq_nb, edge_sq[e, 0])
    if edge_sq[e, 1] >= 0:
        sh_second = shared_edges(sums, open_cnt, mask, sq_nb, edge_sq[e, 1])
    newly_decided = 0
    for j in range(2):
        s = edge_sq[e, j]
        if s < 0:
            continue
        a0 = sums[s, 0]
        b0 = sums[s, 1]
        k0 = open_cnt[s]
        sums[s, side] += sz
        open_cnt[s] = k0 - 1
        mask[s] ^= edge_bit[e, j]
        c0 = CLASS[a0, b0, k0]
        if c0 < 0:
            continue  # decided before: nothing in the key or the bounds
        sh0 = sh_first if j == 0 else sh_second
        for g in range(n_sym):
            hashes[g] -= zsq[g, s, c0, sh0]
        count_square(st, 0, a0, b0, k0, -1)
        a1 = sums[s, 0]
        b1 = sums[s, 1]
        c1 = CLASS[a1, b1, k0 - 1]
        if c1 < 0:
            gain += DECIDED[a1, b1, k0 - 1]  # decided by this move: its score is banked
            newly_decided |= 1 << j
        else:
            # Only e left the mask: the square's other neighbours are untouched.
            sh1 = sh0 & ~edge_bit[e, j]
            for g in range(n_sym):
                hashes[g] += zsq[g, s, c1, sh1]
            count_square(st, 0, a1, b1, k0 - 1, 1)
    # A square decided now turns its empty edges private for the undecided squares on
    # their other side: their shared masks lose that edge. (No square borders both of
    # the edge's squares, so no neighbour is met twice.)
    for j in range(2):
        if newly_decided >> j & 1:
            s = edge_sq[e, j]
            for q in range(4):
                t = sq_nb[s, q]
                if mask[s] >> q & 1 and t >= 0:
                    ct = CLASS[sums[t, 0], sums[t, 1], open_cnt[t]]
                    if ct >= 0:
                        sh = shared_edges(sums, open_cnt, mask, sq_nb, t)
                        for g in range(n_sym):
                            hashes[g] += zsq[g, t, ct, sh] - zsq[g, t, ct, sh | sq_nbit[s, q]]
    return gain if side == 0 else -gain


@inlined
def unplace(
    e: int,
    sz: int,
    side: int,
    ply: int,
    owner: np.ndarray,
    sums: np.ndarray,
    open_cnt: np.ndarray,
    mask: np.ndarray,
    stash: np.ndarray,
    edge_sq: np.ndarray,
    edge_bit: np.ndarray,
    hashes: np.ndarray,
    n_sym: int,
    st: np.ndarray,
    saved: np.ndarray,
    saved_h: np.ndarray,
) -> None:
    """Take back :func:`place` (the hashes and bound fields come back from row ``ply``)."""
    for f in range(S_CUR, S_BOUNDS_END):
        st[f] = saved[ply, f - S_CUR]
    for g in range(n_sym):
        hashes[g] = saved_h[ply, g]
    for j in range(2):
        s = edge_sq[e, j]
        if s < 0:
            continue
        sums[s, side] -= sz
        open_cnt[s] += 1
        mask[s] ^= edge_bit[e, j]
    stash[side, sz - 1] += 1
    owner[e] = -1


@inlined
def indifferent(
    sums: np.ndarray, open_cnt: np.ndarray, stash: np.ndarray, side: int, u: int, z: int
) -> bool:
    """Whether square ``u`` ends the same with ``side``'s pyramid of strength ``z`` on one of
    its empty edges as with any larger pyramid ``side`` holds (same class or same decided
    score afterwards, so the same score however its other edges are filled).

    Trivially true of ``side``'s largest pyramid in hand.
    """
    a = sums[u, 0]
    b = sums[u, 1]
    k = open_cnt[u]
    code = PLACED[side, z - 1, a, b, k] >> 4
    for bigger in range(z + 1, 4):
        if stash[side, bigger - 1] > 0 and PLACED[side, bigger - 1, a, b, k] >> 4 != code:
            return False
    return True


@inlined
def wider_edge_beats_private(
    sums: np.ndarray,
    open_cnt: np.ndarray,
    stash: np.ndarray,
    side: int,
    sq_nb: np.ndarray,
    sq: int,
    wide: int,
    z: int,
) -> bool:
    """Whether ``side``'s pyramid of ``z`` on a private edge of square ``sq`` is dominated
    (see :func:`negamax`): one of the edges ``wide`` (slot bits) that ``sq`` shares with an
    undecided neighbour leads to a neighbour :func:`indifferent` between ``z`` and
    ``side``'s larger pyramids."""
    for slot in range(4):
        if wide >> slot & 1 and indifferent(sums, open_cnt, stash, side, sq_nb[sq, slot], z):
            return True
    return False


@inlined
def wider_edge_beats_dead(
    sums: np.ndarray,
    open_cnt: np.ndarray,
    stash: np.ndarray,
    side: int,
    empties: np.ndarray,
    n_empty: int,
    edge_sq: np.ndarray,
    z: int,
) -> bool:
    """Whether ``side``'s pyramid of ``z`` on a dead edge is dominated (see
    :func:`negamax`): some empty edge touches undecided squares, each of them
    :func:`indifferent` between ``z`` and ``side``'s larger pyramids."""
    for i in range(n_empty):
        e = empties[i]
        n_live = 0
        all_indifferent = True
        for j in range(2):
            u = edge_sq[e, j]
            if u >= 0 and CLASS[sums[u, 0], sums[u, 1], open_cnt[u]] >= 0:
                n_live += 1
                all_indifferent &= indifferent(sums, open_cnt, stash, side, u, z)
        if n_live > 0 and all_indifferent:
            return True
    return False
