"""Exact Edges solver: turns rules-engine states into arrays and runs the compiled search.

Values are always the first seat's score minus the second seat's (seat 0 minus seat 1) at the
end of the game with perfect play by both, unless a name says "first player" (the seat that
placed the first pyramid). The pie rule is handled here, at the root: it exists on move two
only, so the compiled search never needs to know about it.
"""

from __future__ import annotations

import queue
import random
import threading
import time
from collections.abc import Callable, Generator
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import closing
from dataclasses import dataclass, field
from typing import TypeVar, cast

import numpy as np

from meeple.core.errors import MeepleError
from meeple.games.edges.board import Board
from meeple.games.edges.rules import (
    MAX_SIDE,
    EdgesAction,
    EdgesGame,
    EdgesState,
    Pyramid,
    TakeOver,
)
from meeple.solvers import edges_engine as eng

DEFAULT_TT_BITS = 22
# MTD(f)'s first guess (EdgesSolver.solve): from this many pyramids left, a search of
# GUESS_DEPTH placements -- an even number, so the other side has the last word and the
# guess errs low -- in a small table of its own. With fewer left the guess's own search
# costs about what it saves (3x4, 10 and 12 left: same time, 20-35% more nodes in all).
GUESS_MIN = 14
GUESS_DEPTH = 6
T = TypeVar("T")
R = TypeVar("R")


def pyramids_left(state: EdgesState) -> int:
    """How many pyramids are still to place, both stashes together."""
    return sum(s.total for s in state.stashes)


def random_position(game: EdgesGame, left: int, rng: random.Random) -> EdgesState:
    """A position of ``game`` reached by random moves from the start, with ``left`` pyramids
    still to place: the fixed-seed test positions of the solver's tests and benchmarks."""
    state = game.new_game(0)
    while pyramids_left(state) > left:
        mover = state.to_act[0]
        state = state._next(mover, rng.choice(state.legal_actions(mover)))
    return state


def table_bits(left: int) -> int:
    """The table size (as ``tt_bits``) that measured fastest for a search with ``left``
    pyramids to place: 2^(16 + left // 2) entries, from 2^16 to 2^26 (1 GiB).

    A bigger table saves nodes only once the search outgrows it, and every probe of a
    bigger one waits longer on memory: 3x4 positions with 16 left search 1% more nodes
    with 2^24 entries than with 2^26 but run 10-20% faster; with 18 left, 2^25 beat both
    2^24 (+19% nodes) and 2^26 (benchmarks/edges_solver.py, see docs/solving-edges.md).
    """
    return min(26, max(16, 16 + left // 2))


def board_symmetries(b: Board) -> tuple[np.ndarray, np.ndarray]:
    """Edge and square permutations of the board's symmetries (4, or 8 when square).

    Works on doubled coordinates: the midpoint of every edge and the centre of every square
    are lattice points, so a symmetry is a map of points.
    """
    w, h = 2 * b.cols, 2 * b.rows

    def edge_point(i: int) -> tuple[int, int]:
        e = b.edges[i]
        return (2 * e.col + 1, 2 * e.row) if e.kind == "h" else (2 * e.col, 2 * e.row + 1)

    edge_at = {edge_point(i): i for i in range(b.num_edges)}
    square_at = {
        (2 * c + 1, 2 * r + 1): r * b.cols + c for r in range(b.rows) for c in range(b.cols)
    }
    transforms: list[Callable[[int, int], tuple[int, int]]] = [
        lambda x, y: (x, y),
        lambda x, y: (w - x, y),
        lambda x, y: (x, h - y),
        lambda x, y: (w - x, h - y),
    ]
    if b.rows == b.cols:
        transforms += [
            lambda x, y: (y, x),
            lambda x, y: (h - y, x),
            lambda x, y: (y, w - x),
            lambda x, y: (h - y, w - x),
        ]
    sym_e = np.array(
        [[edge_at[t(*edge_point(i))] for i in range(b.num_edges)] for t in transforms],
        dtype=np.int64,
    )
    sym_s = np.array(
        [[square_at[t(*pt)] for pt, _ in sorted(square_at.items(), key=lambda kv: kv[1])]
         for t in transforms],
        dtype=np.int64,
    )  # fmt: skip
    return sym_e, sym_s


@dataclass
class SolveStats:
    """What a search cost: nodes visited, table hits, nodes by pyramids still to place."""

    nodes: int = 0
    hits: int = 0
    seconds: float = 0.0
    by_left: list[int] = field(default_factory=list)

    @classmethod
    def for_board(cls, board: Board) -> SolveStats:
        """Nothing counted yet, with a count for every number of pyramids left on ``board``."""
        return cls(by_left=[0] * (board.num_edges + 1))

    @property
    def nodes_per_second(self) -> float:
        """Search speed."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def add(self, other: SolveStats) -> None:
        """Count another search's costs in too (a twin's, searching in another thread)."""
        self.nodes += other.nodes
        self.hits += other.hits
        self.seconds += other.seconds
        for i, count in enumerate(other.by_left):
            self.by_left[i] += count


MAX_SQUARES = ((1 << eng.HULL_BITS) - 1) // 12
"""The most squares a board the solver takes may have: the strength bound counts up to 12
units of strength a square, per slope, in HULL_BITS bits (``edges_engine.best_strength``),
and more squares could overflow it."""


class BoardTooLarge(MeepleError, ValueError):
    """A board with more squares than the solver can count (:data:`MAX_SQUARES`)."""


def check_board(board: Board) -> None:
    """BoardTooLarge, naming the limit and the largest standard boards within it, if the
    solver cannot take ``board``."""
    if board.num_squares > MAX_SQUARES:
        rows = max(r for r in range(1, MAX_SIDE + 1) if r * r <= MAX_SQUARES)
        example = f"{rows}x{min(MAX_SIDE, MAX_SQUARES // rows)}"  # the squarest board at the limit
        raise BoardTooLarge(
            f"the Edges solver takes boards of up to {MAX_SQUARES} squares ({example}, for "
            f"one), not {board.num_squares}; play or simulate larger boards with the other agents"
        )


class SearchStopped(Exception):
    """A search was stopped (its deadline passed, or :meth:`EdgesSolver.stop` was called)."""


@dataclass
class Position:
    """A position as the compiled search sees it (arrays it changes and restores in place).

    ``banked`` is seat 0's minus seat 1's score on the squares already decided; the search
    adds the value of the rest.
    """

    owner: np.ndarray
    sums: np.ndarray
    open_cnt: np.ndarray
    mask: np.ndarray
    stash: np.ndarray
    empties: np.ndarray
    n_empty: int
    side: int
    banked: int
    bounds: np.ndarray
    """The search's bound fields (``st[S_CUR:S_BOUNDS_END]`` of edges_engine) for this
    position."""

    @property
    def left(self) -> int:
        """Pyramids still to place."""
        return int(self.stash.sum())


class EdgesSolver:
    """An exact solver for two-player Edges positions of one board.

    It keeps its transposition table between calls, so solving the children of a position one
    by one (to get every first-move value) reuses the work. ``tt_bits`` sets the table size
    (2**tt_bits entries of 16 bytes). ``tt_min`` is the fewest pyramids left at which the
    table is used (below it a search is cheaper than a table probe).

    Set ``on_progress`` (called with the node count about five times a second) or give a
    ``deadline`` to :meth:`solve` / :meth:`search` to run the compiled search in a worker
    thread; Ctrl-C then stops it cleanly. Otherwise it runs in the calling thread.

    ``generation`` tags the table entries the next searches write: when the table is full,
    entries of another generation are replaced first (see ``edges_engine.tt_store``). A
    caller running many unrelated searches on one table (a proof) moves it on between them.
    """

    def __init__(
        self, board: Board, tt_bits: int = DEFAULT_TT_BITS, seed: int = 2024, tt_min: int = 3
    ) -> None:
        self.board = board
        check_board(board)
        e, s = board.num_edges, board.num_squares
        self.sq_edges = np.array(board.square_edges, dtype=np.int64).reshape(s, 4)
        edge_sq = np.full((e, 2), -1, dtype=np.int64)
        edge_bit = np.zeros((e, 2), dtype=np.int64)
        for i, squares in enumerate(board.edge_squares):
            for j, sq in enumerate(squares):
                edge_sq[i, j] = sq
                edge_bit[i, j] = 1 << board.square_edges[sq].index(i)
        self.edge_sq, self.edge_bit = edge_sq, edge_bit
        # Across each of a square's four edges: the neighbouring square (-1 at the rim), and
        # the bit of that same edge in the neighbour's mask.
        self.sq_nb = np.full((s, 4), -1, dtype=np.int64)
        self.sq_nbit = np.zeros((s, 4), dtype=np.int64)
        for sq in range(s):
            for slot, i in enumerate(board.square_edges[sq]):
                for j, other in enumerate(board.edge_squares[i]):
                    if other != sq:
                        self.sq_nb[sq, slot] = other
                        self.sq_nbit[sq, slot] = edge_bit[i, j]
        self.sym_e, self.sym_s = board_symmetries(board)
        self.seed = seed
        rng = np.random.default_rng(seed)

        def rand(*shape: int) -> np.ndarray:
            return rng.integers(0, 2**63 - 1, size=shape, dtype=np.int64).astype(np.uint64) * (
                np.uint64(2)
            ) + rng.integers(0, 2, size=shape, dtype=np.int64).astype(np.uint64)

        # zsq[g, s, class, shared]: the hash of "square s, of this class, with these empty
        # edges shared with undecided neighbours" after symmetry g -- the image square, with
        # the image edges.
        base = rand(s, eng.NCLASS, 16)
        n_sym = len(self.sym_e)
        zsq = np.zeros((n_sym, s, eng.NCLASS, 16), dtype=np.uint64)
        for g in range(n_sym):
            for sq in range(s):
                image = int(self.sym_s[g, sq])
                for m in range(16):
                    mapped = 0
                    for slot in range(4):
                        if m >> slot & 1:
                            edge = int(self.sym_e[g, self.sq_edges[sq, slot]])
                            mapped |= 1 << board.square_edges[image].index(edge)
                    zsq[g, sq, :, m] = base[image, :, mapped]
        zsq[:, :, :, 0] = rand(eng.NCLASS)  # an isolated square: where it is does not matter
        self.zsq = zsq
        self.zstash = rand(2, 3, eng.MAX_COUNT)
        self.zside = rand(1)[0]
        self.zempty = rand(e + 1)
        self.hashes = np.zeros(n_sym, dtype=np.uint64)
        self.tt_bits = tt_bits
        self.tt_min = tt_min
        n = 1 << tt_bits
        self.tt = np.zeros((n, 2), dtype=np.uint64)  # key, packed data (edges_engine)
        self.history = np.zeros((2, 4 * e), dtype=np.int64)  # cut-off counts, for ordering
        # The last two moves that cut off, by pyramids left (also for ordering).
        self.killers = np.full((e + 1, 2), -1, dtype=np.int64)
        self.stats = SolveStats.for_board(board)
        self.generation = 0
        self.on_progress: Callable[[int], None] | None = None
        self._exact: dict[int, int] = {}  # canonical key -> exact remaining value (mover's)
        self._running: np.ndarray | None = None
        self._guesser: EdgesSolver | None = None  # for solve's first guess (its own table)

    def sharing_table(self) -> EdgesSolver:
        """Another solver over this one's transposition table, for a search in another thread.

        It draws the same random words (so its keys are this one's) and has its own move
        ordering state and counters. Searches in several threads may then share the table:
        each row is checked as it is read (lockless hashing, see ``edges_engine.tt_find``), so
        a row one thread is writing never lends another thread wrong bounds. :meth:`clear` on
        either solver clears the shared table.
        """
        twin = EdgesSolver(self.board, tt_bits=2, seed=self.seed, tt_min=self.tt_min)
        twin.tt, twin.tt_bits = self.tt, self.tt_bits
        return twin

    def clear(self) -> None:
        """Forget the transposition table (needed between depth-limited searches)."""
        self.tt[:] = 0
        self.fresh_ordering()
        self._exact.clear()

    def fresh_ordering(self) -> None:
        """Forget the move-ordering state (history and killers) but keep the table: for a
        search of a position unrelated to the ones before. Cut-offs in other subtrees
        mislead more than they help: the leaves of the 3x3 proof took 21% fewer nodes with
        their ordering started afresh for each (300 leaves, benchmarks/edges_proof.py)."""
        self.history[:] = 0
        self.killers[:] = -1

    def stop(self) -> None:
        """Ask a search running in another thread to stop (it raises :class:`SearchStopped`)."""
        running = self._running  # read once: the search may finish meanwhile
        if running is not None:
            running[eng.S_STOP] = 1
        if self._guesser is not None:
            self._guesser.stop()  # solve may be finding its first guess

    # -- positions --------------------------------------------------------------------------
    def position(self, state: EdgesState) -> Position:
        """The arrays of a rules-engine state."""
        if state.game.num_players != 2:
            raise ValueError("the solver plays two-player Edges only, not Double Edges")
        stash = np.array(
            [[st.count(Pyramid(sz)) for sz in (1, 2, 3)] for st in state.stashes], dtype=np.int64
        )
        side = state.to_act[0] if state.to_act else 0
        return self._build(np.array(state.owner), np.array(state.pyramid), stash, side)

    def _build(self, owner: np.ndarray, size: np.ndarray, stash: np.ndarray, side: int) -> Position:
        b = self.board
        owner = owner.astype(np.int64)
        sums = np.zeros((b.num_squares, 2), dtype=np.int64)
        open_cnt = np.zeros(b.num_squares, dtype=np.int64)
        mask = np.zeros(b.num_squares, dtype=np.int64)
        for sq, edges in enumerate(b.square_edges):
            for slot, i in enumerate(edges):
                if owner[i] >= 0:
                    sums[sq, owner[i]] += size[i]
                else:
                    open_cnt[sq] += 1
                    mask[sq] |= 1 << slot
        banked = 0
        bounds = np.zeros(eng.S_BOUNDS_END - eng.S_CUR, dtype=np.int64)
        for sq in range(b.num_squares):
            a_, b_, k = int(sums[sq, 0]), int(sums[sq, 1]), int(open_cnt[sq])
            if eng.CLASS[a_, b_, k] < 0:
                banked += int(eng.DECIDED[a_, b_, k])
            else:
                eng.count_square(bounds, -eng.S_CUR, a_, b_, k, 1)
        empty = np.flatnonzero(owner < 0)
        empties = np.full(b.num_edges, -1, dtype=np.int64)
        empties[: len(empty)] = empty
        return Position(
            owner, sums, open_cnt, mask, stash.astype(np.int64), empties, len(empty), side,
            banked, bounds,
        )  # fmt: skip

    def _hash(self, pos: Position) -> int:
        """Fill ``self.hashes`` for ``pos``; returns the symmetric part (stashes, side)."""
        self.hashes[:] = 0
        for sq in range(self.board.num_squares):
            c = eng.CLASS[pos.sums[sq, 0], pos.sums[sq, 1], pos.open_cnt[sq]]
            if c >= 0:
                shared = eng.shared_edges(pos.sums, pos.open_cnt, pos.mask, self.sq_nb, sq)
                self.hashes += self.zsq[:, sq, c, shared]
        common = np.uint64(0)
        for p in range(2):
            for k in range(3):
                common ^= self.zstash[p, k, pos.stash[p, k]]
        if pos.side == 1:
            common ^= self.zside
        return int(common)

    def key(self, state: EdgesState | Position) -> int:
        """The canonical reduced key of a position (equal for positions with equal futures:
        symmetric ones, and ones that differ only in decided squares, dead edges, which
        private edges are filled, or where isolated squares lie; see edges_engine)."""
        pos = state if isinstance(state, Position) else self.position(state)
        common = self._hash(pos)
        n_sym = len(self.hashes)
        key = eng.canonical_key(self.hashes, np.uint64(common), n_sym, self.zempty, pos.n_empty)
        return int(key)

    @staticmethod
    def banked(state: EdgesState) -> int:
        """Seat 0's minus seat 1's points on squares whose score can no longer change."""
        total = 0
        for bounds in state.game.board.square_edges:
            sums, k = [0, 0], 0
            for i in bounds:
                if state.owner[i] >= 0:
                    sums[state.owner[i]] += state.pyramid[i]
                else:
                    k += 1
            d = int(eng.DECIDED[sums[0], sums[1], k])
            if d != eng.UNDECIDED:
                total += d
        return total

    # -- search -----------------------------------------------------------------------------
    def _run(self, pos: Position, lo: int, hi: int, depth: int, deadline: float | None) -> int:
        """The compiled search on ``pos`` with a window on the mover's remaining value."""
        common = np.uint64(self._hash(pos))
        rem = pos.left
        moves = np.zeros((rem + 1, 3 * self.board.num_edges), dtype=np.int64)
        order = np.zeros_like(moves)
        child_keys = np.zeros(moves.shape, dtype=np.uint64)
        st = np.zeros(eng.STATE_LEN, dtype=np.int64)
        st[eng.S_SIDE] = pos.side
        st[eng.S_CUR : eng.S_BOUNDS_END] = pos.bounds
        saved = np.zeros((rem + 1, len(pos.bounds)), dtype=np.int64)
        saved_h = np.zeros((rem + 1, len(self.hashes)), dtype=np.uint64)
        st[eng.S_EMPTY] = pos.n_empty
        st[eng.S_TT_MIN] = self.tt_min
        st[eng.S_GEN] = self.generation
        by_left = np.zeros(self.board.num_edges + 1, dtype=np.int64)
        arrays = {
            "owner": pos.owner, "sums": pos.sums, "open_cnt": pos.open_cnt, "mask": pos.mask,
            "stash": pos.stash, "empties": pos.empties, "edge_sq": self.edge_sq,
            "edge_bit": self.edge_bit, "sq_nb": self.sq_nb, "sq_nbit": self.sq_nbit,
            "zsq": self.zsq, "zstash": self.zstash, "zempty": self.zempty,
            "hashes": self.hashes, "tt": self.tt, "moves": moves, "order": order,
            "child_keys": child_keys, "saved": saved, "saved_h": saved_h,
            "history": self.history, "killers": self.killers, "st": st, "by_left": by_left,
        }  # fmt: skip
        # The frame holds bare addresses: ``arrays`` keeps the arrays alive until we return.
        args = (eng.make_frame(arrays, self.zside), common, lo, hi, depth)
        start = time.perf_counter()
        self._running = st  # so that stop() reaches it from another thread
        try:
            if self.on_progress is None and deadline is None:
                v = eng.negamax(*args)
            else:
                v = self._threaded(args, st, deadline)
        finally:
            self._running = None
        self.stats.seconds += time.perf_counter() - start
        self.stats.nodes += int(st[eng.S_NODES])
        self.stats.hits += int(st[eng.S_HITS])
        for i, c in enumerate(by_left):
            self.stats.by_left[i] += int(c)
        if st[eng.S_STOP]:
            raise SearchStopped("the search was stopped before it finished")
        return int(v)

    def _threaded(self, args: tuple, st: np.ndarray, deadline: float | None) -> int:
        """Run the search in a worker thread (it releases the GIL) and watch it from here."""
        result: list[int] = []
        began, finished = threading.Event(), threading.Event()

        def work() -> None:
            began.set()
            try:
                result.append(eng.negamax(*args))
            finally:
                finished.set()

        worker = threading.Thread(target=work, daemon=True)
        base = self.stats.nodes
        # The worker is waited for on its own event, not Thread.join: on Python 3.11 a join
        # interrupted by Ctrl-C or SIGTERM marks a still-running thread as stopped
        # (bpo-45274), so a second join returned at once while the search went on over
        # arrays about to be freed -- a segfault as the process exited.
        try:
            worker.start()
            while not finished.is_set():
                finished.wait(0.2)
                if self.on_progress is not None:
                    self.on_progress(base + int(st[eng.S_NODES]))
                if deadline is not None and time.perf_counter() > deadline:
                    st[eng.S_STOP] = 1
            if self.on_progress is not None:
                self.on_progress(base + int(st[eng.S_NODES]))
        except KeyboardInterrupt:
            st[eng.S_STOP] = 1
            # Interrupted inside start(), the thread may never have been launched: if it has
            # not begun within seconds it never will.
            if began.wait(5):
                finished.wait()
            raise
        return result[0] if result else 0

    def search(
        self,
        state: EdgesState,
        alpha: int = -99,
        beta: int = 99,
        depth: int = -1,
        deadline: float | None = None,
    ) -> int:
        """Seat 0 minus seat 1 at the end with best play, ignoring a pending pie rule.

        ``depth`` >= 0 stops after that many placements and scores squares as they stand.
        With a window (alpha, beta) the result is exact inside it and a bound outside it.
        ``deadline`` (a ``time.perf_counter()`` value) stops the search with
        :class:`SearchStopped`.
        """
        if state.is_over:
            scores = state.scores()
            return scores[0] - scores[1]
        pos = self.position(state)
        sign = 1 if pos.side == 0 else -1
        # The window is on seat 0's total; the engine wants the mover's remaining value.
        lo, hi = (alpha - pos.banked) * sign, (beta - pos.banked) * sign
        if sign < 0:
            lo, hi = hi, lo
        return pos.banked + sign * self._run(pos, lo, hi, depth, deadline)

    def solve(self, state: EdgesState, deadline: float | None = None) -> int:
        """Seat 0 minus seat 1 with best play, ignoring a pending pie rule: exact, by MTD(f).

        A sequence of null-window searches (each a yes/no question "at least g?") converges
        on the value; they share the table, and cost less than one open-window search.
        Exact values are remembered, also for the colour-swapped position.
        """
        if state.is_over:
            scores = state.scores()
            return scores[0] - scores[1]
        pos = self.position(state)
        sign = 1 if pos.side == 0 else -1
        key = self.key(pos)
        if key not in self._exact:
            swap = self.key(self._swap(pos))
            if swap in self._exact:
                self._exact[key] = self._exact[swap]
        if key not in self._exact:
            g, lo, hi = self._first_guess(pos, deadline), -99, 99
            while lo < hi:
                beta = max(g, lo + 1)
                g = self._run(pos, beta - 1, beta, -1, deadline)  # restored after
                if g < beta:
                    hi = g
                else:
                    lo = g
            self._exact[key] = g
        return pos.banked + sign * self._exact[key]

    def _first_guess(self, pos: Position, deadline: float | None) -> int:
        """Where :meth:`solve` starts: a short search's value, which usually errs low.

        A null-window pass that fails ("not at least g") costs far more than one that holds,
        and leaves the table misleading the next: its cut-off moves were good enough for g,
        not for g - 1. From below, every pass but the last holds. (3x4, 18 pyramids left,
        benchmark position 1, engine of commit e63c727: from 0 the passes "at least 0?",
        "-1?" failed and "-2?" held, 239 M nodes; from -2 "at least -2?" held and "-1?"
        failed, 142 M -- 102 M since failed-low entries hold no move, see ``tt_store``.)
        """
        if pos.left < GUESS_MIN:
            return 0
        if self._guesser is None:
            self._guesser = EdgesSolver(self.board, tt_bits=16, seed=self.seed)
        guesser = self._guesser
        # Its entries hold no depth: those of another root's guess were searched to another.
        guesser.clear()
        guesser.stats = SolveStats.for_board(self.board)  # what this guess costs, added below
        try:
            return guesser._run(pos, -99, 99, GUESS_DEPTH, deadline)
        finally:
            self.stats.add(guesser.stats)

    def _swap(self, pos: Position) -> Position:
        """The colour-swapped position: same future, seats exchanged (same mover's value)."""
        # Side 0's standing score negates, and what it could gain is what side 1 could lose.
        b = pos.bounds
        up = b[eng.S_UP - eng.S_CUR : eng.S_DN - eng.S_CUR]
        down = b[eng.S_DN - eng.S_CUR : eng.S_UP_HULL - eng.S_CUR]
        hulls = [b[eng.S_DN_HULL - eng.S_CUR], b[eng.S_UP_HULL - eng.S_CUR]]
        bounds = np.concatenate(([-b[0]], down, up, hulls))
        return Position(
            np.where(pos.owner >= 0, 1 - pos.owner, -1), pos.sums[:, ::-1].copy(),
            pos.open_cnt, pos.mask, pos.stash[::-1].copy(), pos.empties, pos.n_empty,
            1 - pos.side, -pos.banked, bounds,
        )  # fmt: skip

    def value(self, state: EdgesState, deadline: float | None = None) -> int:
        """Seat 0 minus seat 1 with perfect play from ``state``, the pie rule included."""
        if state.is_over:
            return self.solve(state)
        if state.pie_available:
            mover = state.to_act[0]
            values = [self.solve(state, deadline)]
            values += [self.value(state._next(mover, t), deadline) for t in _takeovers(state)]
            return max(values) if mover == 0 else min(values)
        if state.turn == 0 and state.game.options.pie:
            values = [v for _, v in self.move_values(state, deadline=deadline)]
            return max(values) if state.to_act[0] == 0 else min(values)
        return self.solve(state, deadline)

    def move_values(
        self,
        state: EdgesState,
        progress: Callable[[int, int], None] | None = None,
        deadline: float | None = None,
        workers: int = 1,
        known: dict[str, int] | None = None,
        on_move: Callable[[EdgesAction, int, int], None] | None = None,
    ) -> list[tuple[EdgesAction, int]]:
        """Every legal move up to equivalence with its exact value (seat 0 minus seat 1).

        Moves whose results share a key -- the same position up to a board symmetry, or up
        to which private edge of a square was filled, or where isolated squares lie -- are
        solved once; only the first of each such group is listed. Best moves first.
        ``workers`` > 1 solves that many moves at once in threads sharing this solver's
        table (the compiled search releases the GIL); their costs are added to ``stats``.
        ``known`` gives values already solved, by the move's notation (a run resumed), and
        ``on_move`` hears (move, value, nodes it cost) as each of the others is solved.
        ``progress`` hears (moves solved, moves), first before any is solved.
        """
        mover = state.to_act[0]
        children: dict[tuple[int, int, bool], EdgesAction] = {}
        for action in state.legal_actions(mover):
            child = state._next(mover, action)
            tag = (self.key(child), self.banked(child), child.pie_available)
            children.setdefault(tag, action)
        known = known or {}
        actions = list(children.values())
        out = [(a, known[str(a)]) for a in actions if str(a) in known]
        todo = [a for a in actions if str(a) not in known]
        count = len(actions)

        def solved(solver: EdgesSolver, action: EdgesAction) -> int:
            nodes = solver.stats.nodes
            value = solver.value(state._next(mover, action), deadline)
            if on_move is not None:
                on_move(action, value, solver.stats.nodes - nodes)
            return value

        if progress is not None:
            progress(len(out), count)
        if workers > 1 and len(todo) > 1:
            out += self._values_in_threads(todo, workers, solved, len(out), count, progress)
        else:
            for action in todo:
                out.append((action, solved(self, action)))
                if progress is not None:
                    progress(len(out), count)
        out.sort(key=lambda av: -av[1] if mover == 0 else av[1])
        return out

    def _values_in_threads(
        self,
        actions: list[EdgesAction],
        workers: int,
        solve: Callable[[EdgesSolver, EdgesAction], int],
        done: int,
        count: int,
        progress: Callable[[int, int], None] | None,
    ) -> list[tuple[EdgesAction, int]]:
        """The moves' values, ``workers`` at a time (this solver and twins on its table);
        ``done`` of ``count`` were known before."""
        twins = [self.sharing_table() for _ in range(workers - 1)]
        values: dict[int, int] = {}
        try:
            with closing(in_threads([self, *twins], actions, solve)) as results:
                for i, value in results:
                    values[i] = value
                    if progress is not None:
                        progress(done + len(values), count)
        finally:
            for twin in twins:
                self.stats.add(twin.stats)
        return [(a, values[i]) for i, a in enumerate(actions)]

    def best_action(
        self, state: EdgesState, depth: int = -1, deadline: float | None = None
    ) -> tuple[EdgesAction, int]:
        """A best move and its value (seat 0 minus seat 1); ``depth`` >= 0 limits the search.

        Exact play solves the position once, then asks of each move in turn the yes/no
        question "does it keep that value?" (a null-window search sharing the table) and
        takes the first that does -- far cheaper than solving every move.
        """
        mover = state.to_act[0]
        sign = 1 if mover == 0 else -1
        actions = state.legal_actions(mover)
        if (
            depth < 0
            and not state.pie_available
            and not (state.turn == 0 and state.game.options.pie)
        ):
            target = self.solve(state, deadline)
            for action in actions:
                child = state._next(mover, action)
                if child.is_over:
                    a, b = child.scores()
                    kept = a - b == target
                elif mover == 0:
                    kept = self.search(child, target - 1, target, deadline=deadline) >= target
                else:
                    kept = self.search(child, target, target + 1, deadline=deadline) <= target
                if kept:
                    return action, target
            raise AssertionError("no move keeps the solved value")  # the solver is exact
        best: tuple[EdgesAction, int] | None = None
        for action in actions:
            child = state._next(mover, action)
            if depth < 0:
                v = self.value(child, deadline)
            else:
                v = self.search(child, depth=max(depth - 1, 0), deadline=deadline)
            if best is None or sign * v > sign * best[1]:
                best = (action, v)
        assert best is not None
        return best

    def principal_line(self, state: EdgesState) -> list[tuple[int, EdgesAction]]:
        """A line of best play to the end (used to check values against the rules engine)."""
        line = []
        while not state.is_over:
            mover = state.to_act[0]
            action, _ = self.best_action(state)
            line.append((mover, action))
            state = state._next(mover, action)
        return line


def in_threads(
    solvers: list[EdgesSolver], items: list[T], search: Callable[[EdgesSolver, T], R]
) -> Generator[tuple[int, R]]:
    """``search(solver, item)`` for every item, as many at once as there are solvers (each
    search on a free one, in a thread: the compiled search releases the GIL), yielding
    ``(index of the item, result)`` as each finishes.

    The solvers usually share one table (:meth:`EdgesSolver.sharing_table`). A search that
    raises (a deadline: :class:`SearchStopped`) raises here; and once the caller stops
    listening -- the generator closed, or Ctrl-C while it waits -- the searches still
    running are stopped and those not started are dropped.
    """
    free: queue.SimpleQueue[EdgesSolver] = queue.SimpleQueue()
    for solver in solvers:
        free.put(solver)
    halt = threading.Event()

    def task(item: T) -> R | None:
        solver = free.get()
        try:
            return None if halt.is_set() else search(solver, item)
        finally:
            free.put(solver)

    with ThreadPoolExecutor(len(solvers), thread_name_prefix="search") as pool:
        futures = {pool.submit(task, item): i for i, item in enumerate(items)}
        try:
            for future in as_completed(futures):
                yield futures[future], cast(R, future.result())
        finally:
            halt.set()
            for future in futures:
                future.cancel()
            for solver in solvers:
                solver.stop()


def _takeovers(state: EdgesState) -> list[TakeOver]:
    return [a for a in state.legal_actions(state.to_act[0]) if isinstance(a, TakeOver)]


def compiled_state() -> str:
    """Whether the compiled search is ``"loaded"`` (in this process), ``"cached"`` (compiled
    on disk, loads in a second or two) or ``"cold"`` (numba compiles it on first use: about
    20 s, a minute on a busy machine); ``"unknown"`` where numba's cache cannot be read."""
    if eng.negamax.signatures:
        return "loaded"
    try:
        # numba's own index of the compiled versions on disk; empty when missing or stale
        # (the source changed). Private to numba, so anything unexpected reads "unknown".
        index = eng.negamax._cache._cache_file._load_index()
    except Exception:  # only a hint for what to tell the user
        return "unknown"
    return "cached" if index else "cold"


def warm_up() -> None:
    """Compile (or load from numba's cache) the search by solving the smallest board, so
    the first real search starts at once."""
    from meeple.core.registry import make

    game = make("edges", board="1x1", stash="1/1/0", pie=False)
    assert isinstance(game, EdgesGame)
    EdgesSolver(game.board, tt_bits=10).value(game.new_game(0))
