"""Negamax alpha-beta over the frame, with the last two placements solved in loops."""

from __future__ import annotations

import numpy as np

from meeple.solvers.edges_engine.board import (
    place,
    placement_gain,
    shared_edges,
    standing_value,
    unplace,
    wider_edge_beats_dead,
    wider_edge_beats_private,
)
from meeple.solvers.edges_engine.compiled import compiled
from meeple.solvers.edges_engine.frame import (
    F_ZSIDE,
    S_CUR,
    S_DN,
    S_DN_HULL,
    S_EMPTY,
    S_GEN,
    S_HITS,
    S_NODES,
    S_SIDE,
    S_STOP,
    S_TT_MIN,
    S_UP,
    S_UP_HULL,
    unpack_frame,
)
from meeple.solvers.edges_engine.squares import (
    CLASS,
    HULL_CHANGE,
    PLACED,
    THREAT_CHANGE,
    best_changes,
    best_strength,
    in_hand,
    strength_left,
)
from meeple.solvers.edges_engine.table import (
    NO_LOWER,
    NO_UPPER,
    canonical_key,
    prefetch_row,
    tt_bucket_of,
    tt_find,
    tt_lower_of,
    tt_move_of,
    tt_store,
    tt_upper_of,
    tt_work_of,
    work_of,
)

# Enhanced transposition cut-offs from this many pyramids left (below it the extra probes
# cost more than they save: 14-left positions, benchmarks/edges_solver.py).
ETC_MIN = 8
# Board symmetry in the key from this many pyramids left: deeper, symmetric transpositions
# are too rare to pay for keeping one hash per symmetry.
SYM_MIN = 8
NEG_INF = -1000


@compiled
def last_placement(
    sums: np.ndarray,
    open_cnt: np.ndarray,
    stash: np.ndarray,
    empties: np.ndarray,
    n_empty: int,
    edge_sq: np.ndarray,
    side: int,
) -> int:
    """Exact value with one pyramid left: score the placement in a loop, no recursion."""
    sz = 1 if stash[side, 0] else (2 if stash[side, 1] else 3)
    best = NEG_INF
    for i in range(n_empty):
        delta = placement_gain(sums, edge_sq, empties[i], sz, side)
        if delta > best:
            best = delta
    return standing_value(sums, open_cnt, side) + best


@compiled
def two_left(
    sums: np.ndarray,
    open_cnt: np.ndarray,
    stash: np.ndarray,
    empties: np.ndarray,
    n_empty: int,
    edge_sq: np.ndarray,
    side: int,
    beta: int,
    st: np.ndarray,
    by_left: np.ndarray,
) -> int:
    """Exact value with two pyramids left, in loops: each first placement, then the best
    last one (by the other side, or by the mover again if the other has none left)."""
    last = 1 - side
    if in_hand(stash, last) == 0:
        last = side
    standing = standing_value(sums, open_cnt, side)
    best = NEG_INF
    for sz in range(3, 0, -1):
        if stash[side, sz - 1] == 0:
            continue
        stash[side, sz - 1] -= 1
        sz2 = 1 if stash[last, 0] else (2 if stash[last, 1] else 3)
        stash[side, sz - 1] += 1
        for i in range(n_empty):
            e = empties[i]
            by_left[1] += 1  # each first placement counts as a node, as in the full search
            st[S_NODES] += 1
            first = placement_gain(sums, edge_sq, e, sz, side)  # in the mover's view
            for j in range(2):
                s = edge_sq[e, j]
                if s >= 0:
                    sums[s, side] += sz
            reply = NEG_INF  # in the last mover's view
            for i2 in range(n_empty):
                if i2 != i:
                    delta = placement_gain(sums, edge_sq, empties[i2], sz2, last)
                    if delta > reply:
                        reply = delta
            for j in range(2):
                s = edge_sq[e, j]
                if s >= 0:
                    sums[s, side] -= sz
            v = first + (reply if last == side else -reply)
            if v > best:
                best = v
                if best + standing >= beta:
                    return best + standing
    return best + standing


@compiled
def negamax(frame: np.ndarray, common: np.uint64, alpha: int, beta: int, depth: int) -> int:
    """Negamax alpha-beta; the remaining value for the side to move (fail-soft).

    ``empties`` lists the empty edges first, in any order; its tail is unused. ``depth`` < 0
    searches to the end (exact); otherwise the search stops after ``depth`` placements and
    scores open squares as they stand (the agent's search before the endgame). Returns 0 at
    once, storing nothing, when ``st[S_STOP]`` is raised.
    """
    (
        owner, sums, open_cnt, mask, stash, empties, edge_sq, edge_bit, sq_nb, sq_nbit, zsq,
        zstash, zempty, hashes, tt, moves, order, child_keys, saved, saved_h, history, killers,
        st, by_left,
    ) = unpack_frame(frame)  # fmt: skip
    zside = frame[F_ZSIDE]
    if st[S_STOP]:
        return 0
    side = st[S_SIDE]
    st[S_NODES] += 1
    nodes_before = st[S_NODES]
    rem = in_hand(stash, 0) + in_hand(stash, 1)
    by_left[rem] += 1
    if rem == 0 or depth == 0:
        return standing_value(sums, open_cnt, side)
    n_empty = st[S_EMPTY]
    if rem == 1:
        return last_placement(sums, open_cnt, stash, empties, n_empty, edge_sq, side)
    if rem == 2 and depth != 1:
        return two_left(sums, open_cnt, stash, empties, n_empty, edge_sq, side, beta, st, by_left)
    # Bounds that often decide a null window without a move. A player's placement can only
    # help that player (a square's score never rises with the other side's sum), and it
    # touches at most two squares: so side 0 ends at most at the standing score plus the
    # 2 * (its pyramids left) biggest gains still open to it, and at least at the standing
    # score minus the other side's 2 * (pyramids left) biggest.
    cur = st[S_CUR]
    # Each player's steps are those of its largest pyramid still in the stash.
    big0 = 2 if stash[0, 2] else (1 if stash[0, 1] else 0)
    big1 = 2 if stash[1, 2] else (1 if stash[1, 1] else 0)
    up0 = cur + min(
        best_changes(st[S_UP + big0], 2 * in_hand(stash, 0)),
        best_strength(st[S_UP_HULL], strength_left(stash, 0)),
    )
    lo0 = cur - min(
        best_changes(st[S_DN + big1], 2 * in_hand(stash, 1)),
        best_strength(st[S_DN_HULL], strength_left(stash, 1)),
    )
    high = up0 if side == 0 else -lo0
    if high <= alpha:
        return high
    low = lo0 if side == 0 else -up0
    if low >= beta:
        return low

    use_tt = rem >= st[S_TT_MIN]
    key = np.uint64(0)
    tt_best = -1
    if use_tt:
        n_sym = hashes.shape[0] if rem >= SYM_MIN else 1
        key = canonical_key(hashes, common, n_sym, zempty, n_empty)
        k, data = tt_find(tt, key)
        if k >= 0:
            st[S_HITS] += 1
            lower = tt_lower_of(data)
            upper = tt_upper_of(data)
            tt_best = tt_move_of(data)
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            if lower > alpha:
                alpha = lower
            if upper < beta:
                beta = upper
            if alpha >= beta:
                return lower
    alpha0 = alpha
    # Below SYM_MIN pyramids left only the identity's hash is kept and keyed on.
    child_sym = hashes.shape[0] if rem - 1 >= SYM_MIN else 1

    # Moves, ordered by the change in the mover's standing score (table move first).
    ply = rem
    n = 0
    seen_dead = False
    seen_private = 0  # undecided squares one of whose private edges has been taken
    # Classes of the isolated squares already moved on (bit c of word c // 64; NCLASS < 192).
    seen_iso0 = np.int64(0)
    seen_iso1 = np.int64(0)
    seen_iso2 = np.int64(0)
    # Each move is ranked by the mover's *guaranteed* score after it: the change in its
    # standing score less the most the other side's pyramids could then still take from it
    # (the search's own lower bound, taken after the move). So a move that takes a point
    # but opens two squares to the other side ranks below one that shuts them.
    opp_left = in_hand(stash, 1 - side)  # also: does the other side move next?
    opp_big = big1 if side == 0 else big0
    opp_steps = st[(S_DN if side == 0 else S_UP) + opp_big]
    opp_hull = st[S_DN_HULL if side == 0 else S_UP_HULL]
    opp_strength = strength_left(stash, 1 - side)
    # The table's move is looked at first, so that it stands for its equivalent edges.
    e_tt = tt_best // 4 if tt_best >= 0 else -1
    if e_tt >= 0 and owner[e_tt] >= 0:
        e_tt = -1
    for i in range(-1, n_empty):
        if i < 0:
            if e_tt < 0:
                continue
            e = e_tt
        else:
            e = empties[i]
            if e == e_tt:
                continue
        # A dead edge touches only decided squares: every dead edge is the same move, so only
        # the first one is tried (a pyramid there changes nothing but the stash). Likewise
        # the private edges of one undecided square (touching no other undecided square)
        # are one move: the positions they lead to differ only by swapping two such edges.
        live = 0
        live_sq = -1
        wide = 0  # live_sq's empty edges shared with an undecided square (slot bits)
        for j in range(2):
            s = edge_sq[e, j]
            if s >= 0 and CLASS[sums[s, 0], sums[s, 1], open_cnt[s]] >= 0:
                live += 1
                live_sq = s
        if live == 0:
            if seen_dead:
                continue
            seen_dead = True
        elif live == 1:
            if seen_private >> live_sq & 1:
                continue
            seen_private |= 1 << live_sq
            # An isolated square is in the key without its place on the board, so a move
            # on one is the same move as on any other isolated square of its class.
            wide = shared_edges(sums, open_cnt, mask, sq_nb, live_sq)
            if wide == 0:
                c_iso = CLASS[sums[live_sq, 0], sums[live_sq, 1], open_cnt[live_sq]]
                bit = np.int64(1) << (c_iso & 63)
                if c_iso < 64:
                    if seen_iso0 & bit:
                        continue
                    seen_iso0 |= bit
                elif c_iso < 128:
                    if seen_iso1 & bit:
                        continue
                    seen_iso1 |= bit
                else:
                    if seen_iso2 & bit:
                        continue
                    seen_iso2 |= bit
        # Sizes smallest first. A larger pyramid that leaves both squares exactly as the
        # smaller one would (same class, or same decided score) is never better: keeping
        # the larger one in the stash is at least as good, since a square's score never
        # falls when its owner's sum rises. So it is not tried (on a dead edge: only the
        # smallest size is).
        kept0 = -1
        kept1 = -1
        kept_n = 0
        for sz in range(1, 4):
            if stash[side, sz - 1] == 0:
                continue
            # A wider edge dominates: a pyramid on an edge whose undecided squares are a
            # subset of another empty edge's is never better than the same pyramid there,
            # if the other edge's extra square ends the same with it as with any larger
            # pyramid the mover holds (always so for the largest). Swap the two edges in
            # every continuation: the squares of both get the same; the extra square gets
            # this pyramid instead of what would have gone there later -- nothing, the other
            # side's (never better for the mover), or the mover's own, no better than this
            # one or no different. (Dead edge: any live edge; private edge: a shared one.)
            if (
                live == 0
                and wider_edge_beats_dead(
                    sums, open_cnt, stash, side, empties, n_empty, edge_sq, sz
                )
            ) or (
                wide != 0
                and wider_edge_beats_private(sums, open_cnt, stash, side, sq_nb, live_sq, wide, sz)
            ):
                continue
            gain = 0
            code0 = -1
            code1 = -1
            threat = opp_steps  # the other side's steps once this pyramid is placed
            threat_hull = opp_hull
            for j in range(2):
                s = edge_sq[e, j]
                if s < 0:
                    continue
                a = sums[s, 0]
                b = sums[s, 1]
                k = open_cnt[s]
                threat += THREAT_CHANGE[side, opp_big, sz - 1, a, b, k]
                threat_hull += HULL_CHANGE[side, sz - 1, a, b, k]
                placed = PLACED[side, sz - 1, a, b, k]
                gain += (placed & 15) - 4
                c = placed >> 4
                if j == 0:
                    code0 = c
                else:
                    code1 = c
            if kept_n > 0 and code0 == (kept0 >> 16) and code1 == (kept0 & 0xFFFF) - 1:
                continue
            if kept_n > 1 and code0 == (kept1 >> 16) and code1 == (kept1 & 0xFFFF) - 1:
                continue
            if kept_n == 0:
                kept0 = (code0 << 16) | (code1 + 1)
            else:
                kept1 = (code0 << 16) | (code1 + 1)
            kept_n += 1
            if side == 1:
                gain = -gain
            m = e * 4 + sz
            # The guaranteed score first; among equal ones the two moves that last cut off
            # with as many pyramids left (killers), then moves that cut off anywhere (history).
            guaranteed = gain - min(
                best_changes(threat, 2 * opp_left), best_strength(threat_hull, opp_strength)
            )
            h = history[side, m]
            sc = (guaranteed << 33) + min(h, 1 << 28) * 4 + sz
            if m == killers[rem, 0] or m == killers[rem, 1]:
                sc += 1 << 31
            if m == tt_best:
                sc = 1 << 62
            k = n
            while k > 0 and order[ply, k - 1] < sc:
                order[ply, k] = order[ply, k - 1]
                moves[ply, k] = moves[ply, k - 1]
                k -= 1
            order[ply, k] = sc
            moves[ply, k] = m
            n += 1

    best = NEG_INF
    best_move = -1
    other = 1 - side
    if use_tt and rem >= ETC_MIN:
        # Enhanced transposition cut-off: a child the table already knows well enough may
        # refute this position before any subtree is searched (placements transpose a lot).
        # First every child's key (its bucket asked for at once), then the look-ups.
        for i in range(n):
            m = moves[ply, i]
            e = m // 4
            sz = m % 4
            c_old = stash[side, sz - 1]
            child_common = common ^ zstash[side, sz - 1, c_old] ^ zstash[side, sz - 1, c_old - 1]
            if opp_left > 0:
                child_common ^= zside
            # The sort keys are spent: the row now holds each child's gain.
            order[ply, i] = place(
                e, sz, side, ply, owner, sums, open_cnt, mask, stash, edge_sq, edge_bit, sq_nb,
                sq_nbit, zsq, hashes, child_sym, st, saved, saved_h,
            )  # fmt: skip
            child_key = canonical_key(hashes, child_common, child_sym, zempty, n_empty - 1)
            unplace(
                e, sz, side, ply, owner, sums, open_cnt, mask, stash, edge_sq, edge_bit, hashes,
                child_sym, st, saved, saved_h,
            )  # fmt: skip
            child_keys[ply, i] = child_key
            prefetch_row(tt, tt_bucket_of(tt, child_key))
        for i in range(n):
            k, data = tt_find(tt, child_keys[ply, i])
            if k < 0:
                continue
            gain = order[ply, i]
            cut = NEG_INF
            if opp_left > 0:
                upper = tt_upper_of(data)  # the child's, in the other side's view
                if upper < NO_UPPER and gain - upper >= beta:
                    cut = gain - upper
            else:
                lower = tt_lower_of(data)
                if lower > NO_LOWER and gain + lower >= beta:
                    cut = gain + lower
            if cut > NEG_INF:
                st[S_HITS] += 1
                tt_store(tt, key, cut, NO_UPPER, moves[ply, i], rem, st[S_GEN], tt_work_of(data))
                return cut
    nd = depth - 1 if depth > 0 else depth
    for i in range(n):
        m = moves[ply, i]
        e = m // 4
        sz = m % 4
        kk = sz - 1
        # -- apply: take e out of the empty list (swap with the last empty edge)
        p = 0
        while empties[p] != e:
            p += 1
        empties[p] = empties[n_empty - 1]
        empties[n_empty - 1] = e
        st[S_EMPTY] = n_empty - 1
        c_old = stash[side, kk]
        common ^= zstash[side, kk, c_old] ^ zstash[side, kk, c_old - 1]
        gain = place(
            e, sz, side, ply, owner, sums, open_cnt, mask, stash, edge_sq, edge_bit, sq_nb,
            sq_nbit, zsq, hashes, child_sym, st, saved, saved_h,
        )  # fmt: skip
        if rem - 1 >= st[S_TT_MIN]:
            # The child looks itself up first thing: start fetching its bucket now, so the
            # wait on main memory overlaps the call and the child's first checks.
            child_key = common ^ zside if opp_left > 0 else common
            child_key = canonical_key(hashes, child_key, child_sym, zempty, n_empty - 1)
            prefetch_row(tt, tt_bucket_of(tt, child_key))
        # Two spelled-out calls rather than one with a computed sign and window: merging
        # them measured 15-20% slower in numba (benchmarks/edges_solver.py --left 12 14).
        if opp_left > 0:
            st[S_SIDE] = other
            v = gain - negamax(frame, common ^ zside, gain - beta, gain - alpha, nd)
        else:
            v = gain + negamax(frame, common, alpha - gain, beta - gain, nd)
        # -- undo
        st[S_SIDE] = side
        unplace(
            e, sz, side, ply, owner, sums, open_cnt, mask, stash, edge_sq, edge_bit, hashes,
            child_sym, st, saved, saved_h,
        )  # fmt: skip
        common ^= zstash[side, kk, c_old] ^ zstash[side, kk, c_old - 1]
        empties[n_empty - 1] = empties[p]
        empties[p] = e
        st[S_EMPTY] = n_empty
        if st[S_STOP]:
            return 0

        if v > best:
            best = v
            best_move = m
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    # Weighted by 2^left, so cut-offs near the root count most (capped: on
                    # 5x5, with up to 60 pyramids, the counts would overflow).
                    history[side, m] += 1 << min(rem, 30)
                    if killers[rem, 0] != m:
                        killers[rem, 1] = killers[rem, 0]
                        killers[rem, 0] = m
                    break

    if use_tt:
        lower = best
        upper = best
        if best <= alpha0:
            lower = NO_LOWER
        elif best >= beta:
            upper = NO_UPPER
        work = work_of(st[S_NODES] - nodes_before + 1)
        tt_store(tt, key, lower, upper, best_move, rem, st[S_GEN], work)
    return best
