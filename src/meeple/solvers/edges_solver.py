"""Exact Edges solver: turns rules-engine states into arrays and runs the compiled search.

Values are always the first seat's score minus the second seat's (seat 0 minus seat 1) at the
end of the game with perfect play by both, unless a name says "first player" (the seat that
placed the first pyramid). The pie rule is handled here, at the root: it exists on move two
only, so the compiled search never needs to know about it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from meeple.games.edges.board import Board
from meeple.games.edges.rules import (
    EdgesAction,
    EdgesState,
    Pyramid,
    TakeOver,
    score_square,
)
from meeple.solvers import edges_engine as eng

DEFAULT_TT_BITS = 22


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

    @property
    def nodes_per_second(self) -> float:
        """Search speed."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


class EdgesSolver:
    """An exact solver for two-player Edges positions of one board.

    It keeps its transposition table between calls, so solving the children of a position one
    by one (to get every first-move value) reuses the work. ``tt_bits`` sets the table size
    (2**tt_bits entries of 13 bytes).
    """

    def __init__(self, board: Board, tt_bits: int = DEFAULT_TT_BITS, seed: int = 2024) -> None:
        self.board = board
        e, s = board.num_edges, board.num_squares
        self.sq_edges = np.array(board.square_edges, dtype=np.int64).reshape(s, 4)
        edge_sq = np.full((e, 2), -1, dtype=np.int64)
        for i, squares in enumerate(board.edge_squares):
            edge_sq[i, : len(squares)] = squares
        self.edge_sq = edge_sq
        self.sym_e, self.sym_s = board_symmetries(board)
        rng = np.random.default_rng(seed)

        def rand(*shape: int) -> np.ndarray:
            return rng.integers(0, 2**63 - 1, size=shape, dtype=np.int64).astype(np.uint64) * (
                np.uint64(2)
            ) + rng.integers(0, 2, size=shape, dtype=np.int64).astype(np.uint64)

        zedge, zsq = rand(e), rand(s, eng.NCODE)
        self.zedge = np.ascontiguousarray(zedge[self.sym_e])
        self.zsq = np.ascontiguousarray(zsq[self.sym_s])
        self.zstash = rand(2, 3, eng.MAX_COUNT)
        self.zside = rand(1)[0]
        self.hashes = np.zeros(len(self.sym_e), dtype=np.uint64)
        self.tt_bits = tt_bits
        n = 1 << tt_bits
        self.tt_key = np.zeros(n, dtype=np.uint64)
        self.tt_val = np.zeros(n, dtype=np.int8)
        self.tt_flag = np.zeros(n, dtype=np.int8)
        self.tt_move = np.full(n, -1, dtype=np.int16)
        self.tt_rem = np.zeros(n, dtype=np.int8)
        self.stats = SolveStats(by_left=[0] * (e + 1))

    def clear(self) -> None:
        """Forget the transposition table (needed between depth-limited searches)."""
        self.tt_key[:] = 0
        self.tt_rem[:] = 0

    # -- positions --------------------------------------------------------------------------
    def _arrays(self, state: EdgesState) -> dict[str, np.ndarray]:
        if state.game.num_players != 2:
            raise ValueError("the solver plays two-player Edges only, not Double Edges")
        b = self.board
        owner = np.array(state.owner, dtype=np.int64)
        size = np.array(state.pyramid, dtype=np.int64)
        sums = np.zeros((b.num_squares, 2), dtype=np.int64)
        open_cnt = np.zeros(b.num_squares, dtype=np.int64)
        for sq, bounds in enumerate(b.square_edges):
            for i in bounds:
                if owner[i] >= 0:
                    sums[sq, owner[i]] += size[i]
                else:
                    open_cnt[sq] += 1
        stash = np.array(
            [[st.count(Pyramid(sz)) for sz in (1, 2, 3)] for st in state.stashes], dtype=np.int64
        )
        return {"owner": owner, "size": size, "sums": sums, "open": open_cnt, "stash": stash}

    @staticmethod
    def settled(state: EdgesState) -> int:
        """Seat 0's minus seat 1's points on squares that have no empty edge left."""
        total = 0
        for bounds in state.game.board.square_edges:
            if all(state.owner[i] >= 0 for i in bounds):
                sums = [0, 0]
                for i in bounds:
                    sums[state.owner[i]] += state.pyramid[i]
                sq = score_square((sums[0], sums[1]))
                if sq.side is not None:
                    total += sq.points if sq.side == 0 else -sq.points
        return total

    def key(self, state: EdgesState) -> int:
        """The canonical reduced key of a position (equal for positions with equal futures)."""
        a = self._arrays(state)
        side = state.to_act[0] if state.to_act else 0
        common = eng.init_hashes(
            a["owner"], a["sums"], a["open"], a["stash"], side, self.zedge, self.zsq,
            self.zstash, self.zside, self.hashes,
        )  # fmt: skip
        return int(eng.canonical_key(self.hashes, np.uint64(common)))

    # -- search -----------------------------------------------------------------------------
    def search(self, state: EdgesState, alpha: int = -99, beta: int = 99, depth: int = -1) -> int:
        """Seat 0 minus seat 1 at the end with best play, ignoring a pending pie rule.

        ``depth`` >= 0 stops after that many placements and scores squares as they stand.
        With a window (alpha, beta) the result is exact inside it and a bound outside it.
        """
        if state.is_over:
            scores = state.scores()
            return scores[0] - scores[1]
        side = state.to_act[0]
        a = self._arrays(state)
        common = eng.init_hashes(
            a["owner"], a["sums"], a["open"], a["stash"], side, self.zedge, self.zsq,
            self.zstash, self.zside, self.hashes,
        )  # fmt: skip
        common = np.uint64(common)
        offset = self.settled(state)
        sign = 1 if side == 0 else -1
        # The window is on seat 0's total; the engine wants the mover's remaining value.
        lo, hi = (alpha - offset) * sign, (beta - offset) * sign
        if sign < 0:
            lo, hi = hi, lo
        rem = int(a["stash"].sum())
        moves = np.zeros((rem + 1, 3 * self.board.num_edges), dtype=np.int64)
        order = np.zeros_like(moves)
        st = np.zeros(eng.STATE_LEN, dtype=np.int64)
        st[eng.S_SIDE] = side
        st[eng.S_OPEN] = int((a["open"] > 0).sum())
        by_left = np.zeros(self.board.num_edges + 1, dtype=np.int64)
        start = time.perf_counter()
        v = eng.negamax(
            a["owner"], a["size"], a["sums"], a["open"], a["stash"], self.sq_edges, self.edge_sq,
            self.zedge, self.zsq, self.zstash, self.zside, self.hashes, common, self.tt_key,
            self.tt_val, self.tt_flag, self.tt_move, self.tt_rem, moves, order, st, by_left,
            lo, hi, depth,
        )  # fmt: skip
        self.stats.seconds += time.perf_counter() - start
        self.stats.nodes += int(st[eng.S_NODES])
        self.stats.hits += int(st[eng.S_HITS])
        for i, c in enumerate(by_left):
            self.stats.by_left[i] += int(c)
        return offset + sign * int(v)

    def value(self, state: EdgesState) -> int:
        """Seat 0 minus seat 1 with perfect play from ``state``, the pie rule included."""
        if state.is_over:
            return self.search(state)
        if state.pie_available:
            mover = state.to_act[0]
            values = [self.search(state)]
            values += [self.value(state._next(mover, t)) for t in _takeovers(state)]
            return max(values) if mover == 0 else min(values)
        if state.turn == 0 and state.game.options.pie:
            values = [v for _, v in self.move_values(state)]
            return max(values) if state.to_act[0] == 0 else min(values)
        return self.search(state)

    def move_values(
        self,
        state: EdgesState,
        progress: Callable[[int, int], None] | None = None,
    ) -> list[tuple[EdgesAction, int]]:
        """Every legal move up to symmetry with its exact value (seat 0 minus seat 1).

        Moves whose results are the same position up to a board symmetry are solved once;
        only the first of each such group is listed. Best moves for the mover come first.
        """
        mover = state.to_act[0]
        children: dict[tuple[int, int, bool], EdgesAction] = {}
        for action in state.legal_actions(mover):
            child = state._next(mover, action)
            tag = (self.key(child), self.settled(child), child.pie_available)
            children.setdefault(tag, action)
        out: list[tuple[EdgesAction, int]] = []
        total = len(children)
        for i, action in enumerate(children.values()):
            out.append((action, self.value(state._next(mover, action))))
            if progress is not None:
                progress(i + 1, total)
        out.sort(key=lambda av: -av[1] if mover == 0 else av[1])
        return out

    def best_action(self, state: EdgesState, depth: int = -1) -> tuple[EdgesAction, int]:
        """A best move and its value (seat 0 minus seat 1); ``depth`` >= 0 limits the search."""
        mover = state.to_act[0]
        sign = 1 if mover == 0 else -1
        best: tuple[EdgesAction, int] | None = None
        for action in state.legal_actions(mover):
            child = state._next(mover, action)
            v = self.value(child) if depth < 0 else self.search(child, depth=max(depth - 1, 0))
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


def _takeovers(state: EdgesState) -> list[TakeOver]:
    return [a for a in state.legal_actions(state.to_act[0]) if isinstance(a, TakeOver)]


def first_player_sign(state: EdgesState) -> int:
    """+1 if seat 0 placed (or will place) the first pyramid, else -1."""
    return 1 if state.order[0] == 0 else -1


def analyse(
    state: EdgesState,
    tt_bits: int = DEFAULT_TT_BITS,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, object]:
    """Solve a position and every move from it: JSON-safe, values for the first player.

    Returns ``value`` (first player's minus second player's score with perfect play),
    ``moves`` (``[notation, value]`` per move up to symmetry, best first for the mover),
    ``nodes``, ``seconds``, ``nodes_per_second`` and ``nodes_by_left`` (index = pyramids
    still to place).
    """
    solver = EdgesSolver(state.game.board, tt_bits=tt_bits)
    sign = first_player_sign(state)
    start = time.perf_counter()
    if state.is_over:
        moves: list[tuple[EdgesAction, int]] = []
        value = solver.value(state)
    else:
        moves = solver.move_values(state, progress)
        value = moves[0][1]
    elapsed = time.perf_counter() - start
    return {
        "board": str(state.game.board),
        "pie": state.game.options.pie,
        "left": sum(s.total for s in state.stashes),
        "value": sign * value,
        "moves": [[str(a), sign * v] for a, v in moves],
        "nodes": solver.stats.nodes,
        "seconds": round(elapsed, 3),
        # Speed of the compiled search itself (Python root handling excluded).
        "nodes_per_second": round(solver.stats.nodes_per_second),
        "nodes_by_left": solver.stats.by_left,
    }
