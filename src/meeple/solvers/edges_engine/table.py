"""The transposition table: one (n, 2) uint64 array of key and packed data, four rows a
bucket (one cache line), probed without locks, replaced by work and generation."""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from meeple.solvers.edges_engine.compiled import compiled, inlined

# A table entry holds both a lower and an upper bound on its position's value; these stand
# for "no bound yet" (|values| stay far below them: at most 2 per square).
NO_LOWER, NO_UPPER = -127, 127


@compiled
def canonical_key(
    hashes: np.ndarray, common: np.uint64, n_sym: int, zempty: np.ndarray, n_empty: int
) -> np.uint64:
    """A position's table key: the smallest of the first ``n_sym`` per-symmetry hashes, with
    the symmetric part (stashes, side to move) and the number of empty edges."""
    best = hashes[0]
    for g in range(1, n_sym):
        if hashes[g] < best:
            best = hashes[g]
    return best ^ common ^ zempty[n_empty]


@inlined
def pack_entry(
    lower: int, upper: int, move: int, rem: int, gen: int = 0, work: int = 0
) -> np.uint64:
    """One table entry's data word: lower and upper bound (+128 each), best move (+1: 0 for
    none, see :func:`tt_store`), pyramids left, the generation that last wrote it (16 bits)
    and the *work* its bounds cost (the bit length of the nodes searched for them, 6 bits).

    The table is one (n, 2) uint64 array -- key, data -- so a probe touches one cache line.
    Both bounds are kept because a position is met with many different windows: the search
    value is the *remaining* score, so a transposition reached with a different banked score
    asks a shifted question, and the MTD(f) passes ask at different values; a position that
    once failed high and once failed low keeps both answers.
    """
    return (
        np.uint64(lower + 128)
        | (np.uint64(upper + 128) << np.uint64(8))
        | (np.uint64((move + 1) & 0xFFFF) << np.uint64(16))
        | (np.uint64(rem) << np.uint64(32))
        | (np.uint64(gen & 0xFFFF) << np.uint64(40))
        | (np.uint64(work & 0x3F) << np.uint64(56))
    )


@inlined
def work_of(nodes: int) -> int:
    """The bit length of a node count (a subtree's work, as a table entry keeps it)."""
    w = 0
    while nodes > 0:
        nodes >>= 1
        w += 1
    return w


@inlined
def tt_work_of(data: np.uint64) -> int:
    """The work (bit length of the nodes searched) behind a table entry's bounds."""
    return np.int64((data >> np.uint64(56)) & np.uint64(0x3F))


@inlined
def tt_rem_of(data: np.uint64) -> int:
    """Pyramids left in the position a table entry describes."""
    return np.int64((data >> np.uint64(32)) & np.uint64(0xFF))


def table_rows_left(tt: np.ndarray) -> np.ndarray:
    """The pyramids left in the position of every filled row of a table (numpy, for reports;
    the search reads one row at a time with :func:`tt_rem_of`)."""
    data = tt[:, 1]
    return ((data[data != 0] >> np.uint64(32)) & np.uint64(0xFF)).astype(np.int64)


@inlined
def tt_gen_of(data: np.uint64) -> int:
    """The generation of the search that last wrote a table entry."""
    return np.int64((data >> np.uint64(40)) & np.uint64(0xFFFF))


@inlined
def tt_lower_of(data: np.uint64) -> int:
    """The lower bound a table entry holds (``NO_LOWER`` if none)."""
    return np.int64(data & np.uint64(0xFF)) - 128


@inlined
def tt_upper_of(data: np.uint64) -> int:
    """The upper bound a table entry holds (``NO_UPPER`` if none)."""
    return np.int64((data >> np.uint64(8)) & np.uint64(0xFF)) - 128


@inlined
def tt_move_of(data: np.uint64) -> int:
    """The best move a table entry holds (edge * 4 + size), or -1 for none."""
    return np.int64((data >> np.uint64(16)) & np.uint64(0xFFFF)) - 1


@intrinsic
def prefetch_row(typingctx: Any, table: Any, row: Any) -> Any:
    """Ask the processor to start fetching ``table[row]`` into its cache (LLVM's prefetch).

    The enhanced transposition cut-offs look up every child's entry: fetched one after the
    other, each waits for main memory; asked for all at once, the waits overlap. And a child
    about to be searched has its bucket asked for before the call.
    """

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        table_type = signature.args[0]
        array = context.make_array(table_type)(context, builder, args[0])
        where = cgutils.get_item_pointer2(
            context, builder, data=array.data, shape=cgutils.unpack_tuple(builder, array.shape),
            strides=cgutils.unpack_tuple(builder, array.strides), layout=table_type.layout,
            inds=[args[1], context.get_constant(types.intp, 0)],
        )  # fmt: skip
        byte_ptr = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        hint = ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32])
        # llvmlite names the overload for its LLVM (p0i8 with typed pointers, as in older ones)
        fn = builder.module.declare_intrinsic("llvm.prefetch", [byte_ptr], hint)
        # read (0), keep in all cache levels (3), data (1)
        builder.call(fn, [builder.bitcast(where, byte_ptr), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(table, row), codegen


@inlined
def tt_bucket_of(tt: np.ndarray, key: np.uint64) -> int:
    """The first row of ``key``'s bucket of four rows (one cache line)."""
    return int(key & np.uint64(tt.shape[0] // 4 - 1)) * 4


@inlined
def tt_find(tt: np.ndarray, key: np.uint64) -> tuple[int, np.uint64]:
    """The row of ``key``'s entry in its bucket of four (one cache line) and its data word,
    or (-1, 0).

    A row holds ``key ^ data`` and ``data`` (lockless hashing): searches in several threads
    may share one table, and a row half written by one while another reads it fails this
    check instead of pairing one position's key with another's bounds. The data word is
    read once, so the bounds used are the ones checked.
    """
    bucket = tt_bucket_of(tt, key)
    for k in range(bucket, bucket + 4):
        data = tt[k, 1]
        if tt[k, 0] ^ data == key:
            return k, data
    return -1, np.uint64(0)


@inlined
def tt_store(
    tt: np.ndarray,
    key: np.uint64,
    lower: int,
    upper: int,
    move: int,
    rem: int,
    gen: int = 0,
    work: int = 0,
) -> None:
    """Store bounds: merged with this position's own entry (the tighter of each bound, the
    larger work; the old move kept when the new result only bounds from above), else over
    an entry of another generation than ``gen`` (the one of least work), else over the entry
    of least work. ``work`` is what the bounds cost (:func:`work_of` the nodes searched).
    Rows are written as ``key ^ data``, ``data`` (see :func:`tt_find`).

    A result that only bounds from above (the search failed low) names no good move: its
    "best" is merely the move whose refutation left the highest bound. So a new entry from
    one holds no move, and the next search of the position orders its moves afresh (killers,
    history) instead of trying that one first. This matters to MTD(f): the positions where
    one side failed low in a holding pass are where the other side must find a refutation
    in the failing pass after it -- 18-left position 1's solve took 101.7 M nodes instead of
    142.4 M (benchmarks/edges_solver.py).

    Work rather than pyramids left: positions with as many pyramids left differ in cost by
    orders of magnitude (the bounds settle some at once), and keeping the costly ones took
    13% of the nodes off a proof's leaves with a full table. Generations matter to a long
    proof, where one table serves thousands of searches in a row: ranked by work alone, the
    entries of costly searches long finished would fill three rows of every bucket and leave
    one to the search at hand. One search (and each of
    :class:`~meeple.solvers.edges_solver.EdgesSolver`'s solves) keeps one generation, so
    there the rule is "least work".
    """
    bucket = tt_bucket_of(tt, key)
    target = bucket
    worth = 1 << 20
    if lower == NO_LOWER:
        move = -1
    for k in range(bucket, bucket + 4):
        data = tt[k, 1]
        if tt[k, 0] ^ data == key:
            old_lower = tt_lower_of(data)
            old_upper = tt_upper_of(data)
            # Bounds that contradict (only depth-limited searches can give those) are replaced.
            if lower <= old_upper and upper >= old_lower:
                if lower == NO_LOWER:
                    move = tt_move_of(data)
                if old_lower > lower:
                    lower = old_lower
                if old_upper < upper:
                    upper = old_upper
                if tt_work_of(data) > work:
                    work = tt_work_of(data)
            target = k
            break
        # An entry of the search at hand outranks any of an earlier one.
        w = tt_work_of(data) + (64 if tt_gen_of(data) == gen else 0)
        if w < worth:
            target = k
            worth = w
    data = pack_entry(lower, upper, move, rem, gen, work)
    tt[target, 1] = data
    tt[target, 0] = key ^ data
