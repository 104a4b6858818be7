"""The search's arrays as one *frame*, and the small state vector threaded through it."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

from meeple.solvers.edges_engine.compiled import inlined
from meeple.solvers.edges_engine.squares import NCLASS

MAX_COUNT = 64  # per size and player, for the stash part of the hash

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


def _view_at(dtype: Any) -> Any:
    """An intrinsic ``view(address, shape)``: a C-contiguous ``dtype`` array over memory that
    someone else owns (no reference counting, which the engine runs without)."""

    @intrinsic
    def view(typingctx: Any, address: Any, shape: Any) -> Any:
        ndim = len(shape)
        array_type = types.Array(dtype, ndim, "C")

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
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
def unpack_frame(frame: np.ndarray) -> tuple[np.ndarray, ...]:
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
