"""The compiled hot loop of the Edges solver: negamax alpha-beta over numpy arrays (numba).

A position is a handful of arrays (see :class:`meeple.solvers.edges_solver.Position`). The
search value is the *remaining* score difference from the side to move's point of view: the
sum of the final scores of the squares that are still **undecided**. A square is decided once
no way of filling (or leaving) its empty edges can change its score -- a closed square is the
simplest case. The moment a placement decides a square, its score is folded into that move's
gain, so positions that differ only in decided squares share one transposition entry.

The transposition key is reduced further, following the design note's biggest win:

- each undecided square is described only by its *class* -- the set of (strength sums) that
  behave the same under every way its empty edges could still be filled (which holds how
  many edges are empty) -- and by which of its empty edges it *shares* with another
  undecided square. Its other empty edges are *private* (the rim, or a decided neighbour):
  which of them are filled cannot matter, so they are one move, tried once;
- an *isolated* undecided square (no shared edge) is hashed without its place on the board:
  two positions that differ by moving isolated squares around have the same future;
- decided squares, and empty edges that touch only decided squares ("dead" edges, which can
  change nothing) are not in the key at all; only how many edges are empty is;
- both stashes and the side to move complete it.

One hash per board symmetry -- a *sum* of random words per square, so that two isolated
squares of one class do not cancel as they would under XOR -- is kept up to date move by
move and the smallest is the key, so symmetric positions share an entry. Symmetric
transpositions are rare once few pyramids are left, so below ``SYM_MIN`` only the identity's
hash is kept and keyed on.

Every function here is compiled with ``nogil=True``: the solver may run a search in a worker
thread and read the node counter (or raise the stop flag) from Python while it runs. And
with numba's reference counting off (``_nrt=False``): nothing here allocates, every array
is owned by the caller for the whole search, and the counting cost an atomic increment and
decrement per array argument per node -- about 14% of the search's time under ``perf``, and
the search ran 1.4x faster without it (benchmarks/edges_solver.py --left 14).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

from meeple.core.kernels import kernel

# The engine's compiled functions (see the module docstring for nogil and _nrt).
compiled = kernel(nogil=True, _nrt=False)
inlined = kernel(nogil=True, inline="always", _nrt=False)

MAX_SUM = 12  # four Large pyramids around one square
UNDECIDED = 9


def _score(a: int, b: int) -> int:
    if a == b:
        return 0
    if a > b:
        return 2 if b == 0 else 1
    return -2 if a == 0 else -1


def _reach(k: int) -> list[tuple[int, int]]:
    """Every (added to side 0, added to side 1) that ``k`` empty edges can still bring.

    Each edge stays empty or takes a pyramid of 1-3 of either side. Stash limits are ignored,
    so everything derived from this is conservative (true whatever the stashes hold).
    """
    reach = {(0, 0)}
    adds = [(0, 0)] + [(z, 0) for z in (1, 2, 3)] + [(0, z) for z in (1, 2, 3)]
    for _ in range(k):
        reach = {(x + dx, y + dy) for x, y in reach for dx, dy in adds}
    return sorted(reach)


def _square_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Per (a, b, k) = (side 0's sum, side 1's sum, empty edges) of one square:

    - ``DECIDED``: its final score (side 0's view) if nothing can change it, else UNDECIDED;
    - ``CLASS``: for an undecided square, an id shared by exactly the (a, b, k) whose final
      score is the same function of whatever is still added (-1 when decided);
    - ``HIGH`` / ``LOW``: the best and worst final score still reachable (side 0's view).
    """
    shape = (MAX_SUM + 1, MAX_SUM + 1, 5)
    decided = np.full(shape, UNDECIDED, dtype=np.int64)
    klass = np.full(shape, -1, dtype=np.int64)
    high = np.zeros(shape, dtype=np.int64)
    low = np.zeros(shape, dtype=np.int64)
    ids: dict[tuple[int, ...], int] = {}
    for k in range(5):
        reach = _reach(k)
        for a in range(MAX_SUM + 1):
            for b in range(MAX_SUM + 1):
                outcomes = tuple(_score(a + x, b + y) for x, y in reach)
                high[a, b, k], low[a, b, k] = max(outcomes), min(outcomes)
                if len(set(outcomes)) == 1:
                    decided[a, b, k] = outcomes[0]
                else:
                    klass[a, b, k] = ids.setdefault((k, *outcomes), len(ids))
    return decided, klass, high, low, len(ids)


DECIDED, CLASS, HIGH, LOW, NCLASS = _square_tables()
assert NCLASS < 192, "the search's set of isolated classes seen holds 192 bits"


def _pack_steps(steps: list[int]) -> int:
    """A histogram of steps of 1-4 points as one word: how many of each, 8 bits apiece."""
    word = 0
    for step in steps:
        if step > 0:
            word += 1 << (8 * (step - 1))
    return word


def _step_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per (size, a, b, k) of an undecided square: what each further pyramid of at most
    ``size`` can do to its score.

    ``GAIN_STEPS``: side 0's score with t more of its own pyramids is at most
    ``score(a + size * t, b)`` (a square's score only rises with its owner's sum, only falls
    with the other's); the t-th pyramid's step is the rise from t - 1 to t, for t = 1..k.
    ``LOSS_STEPS``: the same for side 1's pyramids and side 0's loss. Both are packed
    (:func:`_pack_steps`); decided squares have none. With Large pyramids (size 3) the steps
    of one square add up to ``HIGH - score`` (``score - LOW``), but spread over the pyramids
    it takes to get there, which is what makes the search's bounds count pyramids rather
    than squares; a player whose Large ones are all placed is bounded by the smaller steps.
    """
    shape = (3, MAX_SUM + 1, MAX_SUM + 1, 5)
    gain = np.zeros(shape, dtype=np.int64)
    loss = np.zeros(shape, dtype=np.int64)
    for size in (1, 2, 3):
        for a in range(MAX_SUM + 1):
            for b in range(MAX_SUM + 1):
                for k in range(5):
                    if CLASS[a, b, k] < 0:
                        continue
                    up = [_score(a + size * t, b) for t in range(k + 1)]
                    down = [_score(a, b + size * t) for t in range(k + 1)]
                    rises = [up[t] - up[t - 1] for t in range(1, k + 1)]
                    falls = [down[t - 1] - down[t] for t in range(1, k + 1)]
                    gain[size - 1, a, b, k] = _pack_steps(rises)
                    loss[size - 1, a, b, k] = _pack_steps(falls)
    return gain, loss


GAIN_STEPS, LOSS_STEPS = _step_tables()


# The strength bound's slopes, in sixths of a point per unit of strength, largest first.
HULL_SLOPES = (24, 18, 12, 6, 4, 3, 2)
HULL_BITS = 9  # units per slope: at most 12 a square, so 42 squares (EdgesSolver refuses more)


def _hull_word(swing: list[int]) -> int:
    """The units of strength, per slope, of the upper concave envelope of ``swing``.

    ``swing[x]`` is what one side's score on a square gains (or the other loses) once ``x``
    more strength of that side's pyramids surround it. Each segment of the envelope gives
    its length in units at its slope, rounded up to the next of ``HULL_SLOPES`` (so the
    bound stays a bound), packed ``HULL_BITS`` bits per slope.
    """
    word, x = 0, 0
    while x < len(swing) - 1:
        # The steepest chord from x: the next corner of the concave envelope.
        best, end = -1.0, x + 1
        for x2 in range(x + 1, len(swing)):
            slope = (swing[x2] - swing[x]) / (x2 - x)
            if slope >= best:
                best, end = slope, x2
        if best > 0:
            i = max(i for i, v in enumerate(HULL_SLOPES) if v >= 6 * best - 1e-9)
            word += (end - x) << (HULL_BITS * i)
        x = end
    return word


def _hull_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per (a, b, k) of an undecided square: :func:`_hull_word` of side 0's gain
    (``GAIN_HULL``) and of side 1's (``LOSS_HULL``: side 0's loss) with up to ``3 k`` more
    strength -- k pyramids of 3 at most, whatever their sizes."""
    shape = (MAX_SUM + 1, MAX_SUM + 1, 5)
    gain = np.zeros(shape, dtype=np.int64)
    loss = np.zeros(shape, dtype=np.int64)
    for a in range(MAX_SUM + 1):
        for b in range(MAX_SUM + 1):
            for k in range(1, 5):
                if CLASS[a, b, k] < 0:
                    continue
                now = _score(a, b)
                gain[a, b, k] = _hull_word([_score(a + x, b) - now for x in range(3 * k + 1)])
                loss[a, b, k] = _hull_word([now - _score(a, b + x) for x in range(3 * k + 1)])
    return gain, loss


GAIN_HULL, LOSS_HULL = _hull_tables()


def _placement_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What one pyramid does to one of the squares it touches, for the move loop's ranking.

    Per (side, size - 1, a, b, k) of the square before the placement: ``PLACED`` packs the
    square's class afterwards (or 1000 + its score, if the placement decides it) above four
    bits of the change in its score (side 0's view, + 4); ``THREAT_CHANGE`` adds the index
    of the other side's largest pyramid in front and gives how that side's steps on the
    square (``LOSS_STEPS`` against side 0, ``GAIN_STEPS`` against side 1) change, and
    ``HULL_CHANGE`` how its envelope units (``LOSS_HULL``, ``GAIN_HULL``) change. Read
    once per square instead of the tables and scores they are made of.
    """
    placed = np.zeros((2, 3, MAX_SUM + 1, MAX_SUM + 1, 5), dtype=np.int64)
    threat = np.zeros((2, 3, 3, MAX_SUM + 1, MAX_SUM + 1, 5), dtype=np.int64)
    hull = np.zeros((2, 3, MAX_SUM + 1, MAX_SUM + 1, 5), dtype=np.int64)
    for side, steps, units in ((0, LOSS_STEPS, LOSS_HULL), (1, GAIN_STEPS, GAIN_HULL)):
        for size in (1, 2, 3):
            for a in range(MAX_SUM + 1):
                for b in range(MAX_SUM + 1):
                    for k in range(1, 5):
                        a1, b1 = (a + size, b) if side == 0 else (a, b + size)
                        if a1 > MAX_SUM or b1 > MAX_SUM:
                            continue
                        code = CLASS[a1, b1, k - 1]
                        if code < 0:
                            code = 1000 + DECIDED[a1, b1, k - 1]
                        change = _score(a1, b1) - _score(a, b)
                        placed[side, size - 1, a, b, k] = (code << 4) | (change + 4)
                        hull[side, size - 1, a, b, k] = units[a1, b1, k - 1] - units[a, b, k]
                        for big in range(3):
                            threat[side, big, size - 1, a, b, k] = (
                                steps[big, a1, b1, k - 1] - steps[big, a, b, k]
                            )
    return placed, threat, hull


PLACED, THREAT_CHANGE, HULL_CHANGE = _placement_tables()
MAX_COUNT = 64  # per size and player, for the stash part of the hash

# A table entry holds both a lower and an upper bound on its position's value; these stand
# for "no bound yet" (|values| stay far below them: at most 2 per square).
NO_LOWER, NO_UPPER = -127, 127
# Enhanced transposition cut-offs from this many pyramids left (below it the extra probes
# cost more than they save: 14-left positions, benchmarks/edges_solver.py).
ETC_MIN = 8
# Board symmetry in the key from this many pyramids left: deeper, symmetric transpositions
# are too rare to pay for keeping one hash per symmetry.
SYM_MIN = 8
NEG_INF = -1000

# Fields of the small int64 "state" vector threaded through the search (and read from Python).
S_SIDE, S_NODES, S_HITS, S_EMPTY, S_STOP, S_TT_MIN = 0, 1, 2, 3, 4, 5
# The undecided squares: their standing score (side 0's view), and the packed histograms of
# the steps side 0's pyramids could still gain (S_UP + size - 1, for pyramids of at most that
# size) or side 1's make it lose (S_DN + size - 1), summed over the squares (GAIN_STEPS,
# LOSS_STEPS) -- the search's bounds.
S_CUR, S_UP, S_DN = 6, 7, 10
# And the same squares' units of strength by slope (GAIN_HULL, LOSS_HULL): the strength bound.
S_UP_HULL, S_DN_HULL = 13, 14
S_BOUNDS_END = 15  # the bound fields S_CUR..S_BOUNDS_END are saved and restored per ply
# The table's current generation (see :func:`tt_store`), then the vector's length.
S_GEN = S_BOUNDS_END
STATE_LEN = S_GEN + 1

# The search's arrays travel down the recursion as one *frame*: a uint64 vector of their
# addresses and sizes (see :func:`make_frame`), unpacked into array views at each node.
# numba passes an array argument as all its fields (pointer, sizes, strides, ...), so 25
# arrays cost about 200 words pushed per recursive call -- 12% of the search's time under
# ``perf`` -- where a frame costs one.
(
    F_OWNER, F_SUMS, F_OPEN, F_MASK, F_STASH, F_EMPTIES, F_EDGE_SQ, F_EDGE_BIT, F_SQ_NB,
    F_SQ_NBIT, F_ZSQ, F_ZSTASH, F_ZEMPTY, F_HASHES, F_TT, F_MOVES, F_ORDER, F_CHILD_KEYS,
    F_SAVED, F_SAVED_H, F_HISTORY, F_KILLERS, F_ST, F_BY_LEFT,
) = range(24)  # fmt: skip
# ... then the sizes: edges, squares, symmetries, table rows, plies (pyramids left + 1), and
# the hash word of the side to move.
F_EDGES, F_SQUARES, F_SYM, F_TT_ROWS, F_PLIES, F_ZSIDE = range(24, 30)
FRAME_LEN = 30
# Each array's name, dtype and shape, in terms of the board's edges E and squares S, the
# symmetries G, the table's rows T and the plies P (make_frame checks them all).
FRAME_ARRAYS = (
    ("owner", np.int64, "E"), ("sums", np.int64, "S 2"), ("open_cnt", np.int64, "S"),
    ("mask", np.int64, "S"), ("stash", np.int64, "2 3"), ("empties", np.int64, "E"),
    ("edge_sq", np.int64, "E 2"), ("edge_bit", np.int64, "E 2"), ("sq_nb", np.int64, "S 4"),
    ("sq_nbit", np.int64, "S 4"), ("zsq", np.uint64, "G S NCLASS 16"),
    ("zstash", np.uint64, "2 3 MAX_COUNT"), ("zempty", np.uint64, "E+1"),
    ("hashes", np.uint64, "G"), ("tt", np.uint64, "T 2"), ("moves", np.int64, "P 3E"),
    ("order", np.int64, "P 3E"), ("child_keys", np.uint64, "P 3E"),
    ("saved", np.int64, "P SAVED"), ("saved_h", np.uint64, "P G"),
    ("history", np.int64, "2 4E"), ("killers", np.int64, "E+1 2"), ("st", np.int64, "STATE"),
    ("by_left", np.int64, "E+1"),
)  # fmt: skip


@inlined
def best_changes(steps: int, count: int) -> int:
    """The sum of the ``count`` largest steps in the packed histogram ``steps``."""
    total = 0
    for i in range(4, 0, -1):
        c = (steps >> (8 * (i - 1))) & 255
        if c >= count:
            return total + i * count
        total += i * c
        count -= c
    return total


@inlined
def in_hand(stash, p: int) -> int:
    """How many pyramids player ``p`` still has to place."""
    return stash[p, 0] + stash[p, 1] + stash[p, 2]


@inlined
def strength_left(stash, p: int) -> int:
    """The strength of player ``p``'s pyramids still in its stash (Small 1 ... Large 3)."""
    return stash[p, 0] + 2 * stash[p, 1] + 3 * stash[p, 2]


@inlined
def best_strength(hull: int, strength: int) -> int:
    """The most a side's pyramids of ``strength`` in all can gain, by the envelopes ``hull``.

    Each pyramid adds its strength to the (at most two) squares of its edge, so the squares
    share twice the side's strength left; each square's gain is at most its envelope at
    the strength it gets, and the envelopes' units taken steepest first bound the sum.
    """
    units = 2 * strength
    total = 0
    for i in range(len(HULL_SLOPES)):
        c = (hull >> (HULL_BITS * i)) & ((1 << HULL_BITS) - 1)
        if c >= units:
            return (total + HULL_SLOPES[i] * units) // 6
        total += HULL_SLOPES[i] * c
        units -= c
    return total // 6


@inlined
def square_score(a: int, b: int) -> int:
    """Final score of a square for side 0 given the strength sums ``a`` (side 0), ``b``."""
    if a == b:
        return 0
    if a > b:
        return 2 if b == 0 else 1
    return -2 if a == 0 else -1


@compiled
def canonical_key(hashes, common: np.uint64, n_sym: int, zempty, n_empty: int) -> np.uint64:
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
def prefetch_row(typingctx, table, row):
    """Ask the processor to start fetching ``table[row]`` into its cache (LLVM's prefetch).

    The enhanced transposition cut-offs look up every child's entry: fetched one after the
    other, each waits for main memory; asked for all at once, the waits overlap. And a child
    about to be searched has its bucket asked for before the call.
    """

    def codegen(context, builder, signature, args):
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
def tt_bucket_of(tt, key: np.uint64) -> int:
    """The first row of ``key``'s bucket of four rows (one cache line)."""
    return int(key & np.uint64(tt.shape[0] // 4 - 1)) * 4


@inlined
def tt_find(tt, key: np.uint64) -> tuple[int, np.uint64]:
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
    tt, key: np.uint64, lower: int, upper: int, move: int, rem: int, gen: int = 0, work: int = 0
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


def _view_at(dtype):
    """An intrinsic ``view(address, shape)``: a C-contiguous ``dtype`` array over memory that
    someone else owns (no reference counting, which the engine runs without)."""

    @intrinsic
    def view(typingctx, address, shape):
        ndim = len(shape)
        array_type = types.Array(dtype, ndim, "C")

        def codegen(context, builder, signature, args):
            array = context.make_array(array_type)(context, builder)
            data = builder.inttoptr(args[0], context.get_value_type(types.CPointer(dtype)))
            dims = [
                context.cast(builder, value, signature.args[1][d], types.intp)
                for d, value in enumerate(cgutils.unpack_tuple(builder, args[1], ndim))
            ]
            itemsize = context.get_constant(types.intp, context.get_abi_sizeof(
                context.get_data_type(dtype)))  # fmt: skip
            strides = [itemsize] * ndim
            for d in range(ndim - 2, -1, -1):
                strides[d] = builder.mul(strides[d + 1], dims[d + 1])
            populate_array(array, data=data, shape=dims, strides=strides, itemsize=itemsize,
                           meminfo=None)  # fmt: skip
            return array._getvalue()

        return array_type(address, shape), codegen

    return view


int64_view = _view_at(types.int64)
uint64_view = _view_at(types.uint64)


def make_frame(arrays: dict[str, np.ndarray], zside: np.uint64) -> np.ndarray:
    """The frame of the search's arrays (named as in :data:`FRAME_ARRAYS`).

    The caller keeps every array alive, unmoved, while a search runs on the frame. Each must
    be C-contiguous with the dtype and shape :func:`unpack_frame` views it with: the search
    reads bare memory, so anything else is refused here.
    """
    e, s = arrays["owner"].shape[0], arrays["sums"].shape[0]
    sizes = {
        "E": e, "S": s, "G": arrays["hashes"].shape[0], "T": arrays["tt"].shape[0],
        "P": arrays["moves"].shape[0], "E+1": e + 1, "3E": 3 * e, "4E": 4 * e,
        "NCLASS": NCLASS, "MAX_COUNT": MAX_COUNT, "SAVED": S_BOUNDS_END - S_CUR,
        "STATE": STATE_LEN,
    }  # fmt: skip
    frame = np.zeros(FRAME_LEN, dtype=np.uint64)
    for slot, (name, dtype, dims) in enumerate(FRAME_ARRAYS):
        array = arrays[name]
        shape = tuple(int(sizes.get(d, d)) for d in dims.split())
        if array.dtype != dtype or array.ndim != len(shape) or not array.flags.c_contiguous:
            raise ValueError(f"{name}: needs a C-contiguous {len(shape)}-d {np.dtype(dtype)} array")
        if array.shape != shape:
            raise ValueError(f"{name}: shape {array.shape}, needs {shape}")
        frame[slot] = array.ctypes.data
    frame[F_EDGES], frame[F_SQUARES], frame[F_SYM] = e, s, sizes["G"]
    frame[F_TT_ROWS], frame[F_PLIES], frame[F_ZSIDE] = sizes["T"], sizes["P"], zside
    return frame


@inlined
def unpack_frame(frame):
    """Views of the search's arrays, in :data:`FRAME_ARRAYS` order, from a frame."""
    n_e = np.int64(frame[F_EDGES])
    n_s = np.int64(frame[F_SQUARES])
    n_g = np.int64(frame[F_SYM])
    plies = np.int64(frame[F_PLIES])
    n_moves = 3 * n_e
    return (
        int64_view(frame[F_OWNER], (n_e,)),
        int64_view(frame[F_SUMS], (n_s, 2)),
        int64_view(frame[F_OPEN], (n_s,)),
        int64_view(frame[F_MASK], (n_s,)),
        int64_view(frame[F_STASH], (2, 3)),
        int64_view(frame[F_EMPTIES], (n_e,)),
        int64_view(frame[F_EDGE_SQ], (n_e, 2)),
        int64_view(frame[F_EDGE_BIT], (n_e, 2)),
        int64_view(frame[F_SQ_NB], (n_s, 4)),
        int64_view(frame[F_SQ_NBIT], (n_s, 4)),
        uint64_view(frame[F_ZSQ], (n_g, n_s, NCLASS, 16)),
        uint64_view(frame[F_ZSTASH], (2, 3, MAX_COUNT)),
        uint64_view(frame[F_ZEMPTY], (n_e + 1,)),
        uint64_view(frame[F_HASHES], (n_g,)),
        uint64_view(frame[F_TT], (np.int64(frame[F_TT_ROWS]), 2)),
        int64_view(frame[F_MOVES], (plies, n_moves)),
        int64_view(frame[F_ORDER], (plies, n_moves)),
        uint64_view(frame[F_CHILD_KEYS], (plies, n_moves)),
        int64_view(frame[F_SAVED], (plies, S_BOUNDS_END - S_CUR)),
        uint64_view(frame[F_SAVED_H], (plies, n_g)),
        int64_view(frame[F_HISTORY], (2, 4 * n_e)),
        int64_view(frame[F_KILLERS], (n_e + 1, 2)),
        int64_view(frame[F_ST], (STATE_LEN,)),
        int64_view(frame[F_BY_LEFT], (n_e + 1,)),
    )


@compiled
def standing_value(sums, open_cnt, side) -> int:
    """The undecided squares scored as they stand, from ``side``'s point of view."""
    v = 0
    for s in range(sums.shape[0]):
        a = sums[s, 0]
        b = sums[s, 1]
        if open_cnt[s] > 0 and DECIDED[a, b, open_cnt[s]] == UNDECIDED:
            v += square_score(a, b)
    return v if side == 0 else -v


@inlined
def count_square(fields, base: int, a: int, b: int, k: int, sign: int) -> None:
    """Add (``sign`` 1) or take away (-1) an undecided square's share of the search's bound
    fields -- its standing score and its steps -- at ``fields[base + S_CUR:]``."""
    fields[base + S_CUR] += sign * square_score(a, b)
    for z in range(3):
        fields[base + S_UP + z] += sign * GAIN_STEPS[z, a, b, k]
        fields[base + S_DN + z] += sign * LOSS_STEPS[z, a, b, k]
    fields[base + S_UP_HULL] += sign * GAIN_HULL[a, b, k]
    fields[base + S_DN_HULL] += sign * LOSS_HULL[a, b, k]


@inlined
def placement_gain(sums, edge_sq, e: int, sz: int, who: int) -> int:
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
def shared_edges(sums, open_cnt, mask, sq_nb, s: int) -> int:
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
    e, sz, side, ply, owner, sums, open_cnt, mask, stash, edge_sq, edge_bit, sq_nb, sq_nbit,
    zsq, hashes, n_sym, st, saved, saved_h,
) -> int:  # fmt: skip
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
    e, sz, side, ply, owner, sums, open_cnt, mask, stash, edge_sq, edge_bit, hashes, n_sym, st,
    saved, saved_h,
) -> None:  # fmt: skip
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


@compiled
def last_placement(sums, open_cnt, stash, empties, n_empty, edge_sq, side) -> int:
    """Exact value with one pyramid left: score the placement in a loop, no recursion."""
    sz = 1 if stash[side, 0] else (2 if stash[side, 1] else 3)
    best = NEG_INF
    for i in range(n_empty):
        delta = placement_gain(sums, edge_sq, empties[i], sz, side)
        if delta > best:
            best = delta
    return standing_value(sums, open_cnt, side) + best


@compiled
def two_left(sums, open_cnt, stash, empties, n_empty, edge_sq, side, beta, st, by_left) -> int:
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


@inlined
def indifferent(sums, open_cnt, stash, side: int, u: int, z: int) -> bool:
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
def wider_edge_beats_private(sums, open_cnt, stash, side, sq_nb, sq: int, wide: int, z) -> bool:
    """Whether ``side``'s pyramid of ``z`` on a private edge of square ``sq`` is dominated
    (see :func:`negamax`): one of the edges ``wide`` (slot bits) that ``sq`` shares with an
    undecided neighbour leads to a neighbour :func:`indifferent` between ``z`` and
    ``side``'s larger pyramids."""
    for slot in range(4):
        if wide >> slot & 1 and indifferent(sums, open_cnt, stash, side, sq_nb[sq, slot], z):
            return True
    return False


@inlined
def wider_edge_beats_dead(sums, open_cnt, stash, side, empties, n_empty, edge_sq, z) -> bool:
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


@compiled
def negamax(frame, common, alpha, beta, depth):
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
