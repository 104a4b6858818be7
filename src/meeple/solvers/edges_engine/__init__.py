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

The engine is split where its parts divide it:

- :mod:`.squares`: what one square can still become (tables built once in Python) and the
  bounds read from them;
- :mod:`.frame`: the search's arrays, passed down the recursion as one frame, and its state
  vector;
- :mod:`.table`: the transposition table (entries, buckets, lockless probes, replacement);
- :mod:`.board`: placing and taking back a pyramid, and which placements are dominated;
- :mod:`.search`: negamax itself, with the last two placements in loops;
- :mod:`.compiled`: how every function here is compiled.

All of them sit in one folder on purpose: the compiled functions inline one another across
the modules, and the kernels' disk cache is keyed on every source of the folder
(:mod:`meeple.core.kernels`), so a change to any part recompiles them all.
"""

from meeple.solvers.edges_engine.board import (
    count_square,
    indifferent,
    place,
    placement_gain,
    shared_edges,
    standing_value,
    unplace,
)
from meeple.solvers.edges_engine.frame import (
    F_EDGES,
    F_OWNER,
    F_ZSIDE,
    FRAME_ARRAYS,
    FRAME_LEN,
    MAX_COUNT,
    S_BOUNDS_END,
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
    STATE_LEN,
    make_frame,
    unpack_frame,
)
from meeple.solvers.edges_engine.search import ETC_MIN, NEG_INF, SYM_MIN, negamax
from meeple.solvers.edges_engine.squares import (
    CLASS,
    DECIDED,
    GAIN_HULL,
    GAIN_STEPS,
    HIGH,
    HULL_BITS,
    HULL_CHANGE,
    LOSS_HULL,
    LOSS_STEPS,
    LOW,
    MAX_SUM,
    NCLASS,
    PLACED,
    THREAT_CHANGE,
    UNDECIDED,
    _score,
    best_changes,
    best_strength,
    strength_left,
)
from meeple.solvers.edges_engine.table import (
    NO_LOWER,
    NO_UPPER,
    canonical_key,
    pack_entry,
    table_rows_left,
    tt_find,
    tt_gen_of,
    tt_lower_of,
    tt_move_of,
    tt_store,
    tt_upper_of,
    tt_work_of,
    work_of,
)

__all__ = [
    "CLASS", "DECIDED", "ETC_MIN", "FRAME_ARRAYS", "FRAME_LEN", "F_EDGES", "F_OWNER", "F_ZSIDE",
    "GAIN_HULL", "GAIN_STEPS", "HIGH", "HULL_BITS", "HULL_CHANGE", "LOSS_HULL", "LOSS_STEPS",
    "LOW", "MAX_COUNT", "MAX_SUM", "NCLASS", "NEG_INF", "NO_LOWER", "NO_UPPER", "PLACED",
    "STATE_LEN", "SYM_MIN", "S_BOUNDS_END", "S_CUR", "S_DN", "S_DN_HULL", "S_EMPTY", "S_GEN",
    "S_HITS", "S_NODES", "S_SIDE", "S_STOP", "S_TT_MIN", "S_UP", "S_UP_HULL", "THREAT_CHANGE",
    "UNDECIDED", "_score", "best_changes", "best_strength", "canonical_key", "count_square",
    "indifferent", "make_frame", "negamax", "pack_entry", "place", "placement_gain",
    "shared_edges", "standing_value", "strength_left", "table_rows_left", "tt_find",
    "tt_gen_of", "tt_lower_of", "tt_move_of", "tt_store", "tt_upper_of", "tt_work_of",
    "unpack_frame", "unplace", "work_of",
]  # fmt: skip
