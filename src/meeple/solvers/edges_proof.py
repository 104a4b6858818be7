"""Resumable null-window proofs: "can seat 0 reach at least ``t``?" for big Edges boards.

The top ``split`` plies are expanded in Python as an AND/OR tree (seat 0 needs one good move,
seat 1's every reply must fail; the pie rule is just another legal action on move two); each
leaf is one compiled null-window search. Every leaf result goes to a JSON checkpoint at once,
keyed by the leaf's canonical position, so a stopped run resumes where it was.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

from meeple.games.edges.rules import EdgesState
from meeple.solvers.edges_solver import EdgesSolver


class NullWindowProof:
    """Prove or refute ``value >= threshold`` (seat 0 minus seat 1) with a checkpoint file."""

    def __init__(
        self, solver: EdgesSolver, threshold: int, checkpoint: Path, split: int = 2
    ) -> None:
        self.solver = solver
        self.threshold = threshold
        self.checkpoint = checkpoint
        self.split = split
        self.done: dict[str, bool] = {}
        if checkpoint.exists():
            self.done = json.loads(checkpoint.read_text(encoding="utf-8"))["leaves"]
        self.leaves_searched = 0

    def _leaf_id(self, state: EdgesState) -> str:
        side = state.to_act[0] if state.to_act else 0
        return f"{self.solver.key(state)}:{self.solver.settled(state)}:{side}"

    def _save(self) -> None:
        self.checkpoint.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.checkpoint.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"threshold": self.threshold, "leaves": self.done}, fh)
        os.replace(tmp, self.checkpoint)

    def holds(self, state: EdgesState, depth: int = 0) -> bool:
        """Whether seat 0 can reach at least the threshold from ``state`` with best play."""
        if state.is_over or depth >= self.split:
            leaf = self._leaf_id(state) if not state.pie_available else None
            if leaf is not None and leaf in self.done:
                return self.done[leaf]
            if leaf is None:  # the pie rule still pending: expand one more ply
                return self._expand(state, depth)
            t = self.threshold
            start = time.perf_counter()
            result = self.solver.search(state, t - 1, t) >= t
            self.done[leaf] = result
            self.leaves_searched += 1
            self._save()
            self.last_leaf_seconds = time.perf_counter() - start
            return result
        return self._expand(state, depth)

    def _expand(self, state: EdgesState, depth: int) -> bool:
        mover = state.to_act[0]
        seen: set[str] = set()
        for action in state.legal_actions(mover):
            child = state._next(mover, action)
            tag = f"{self._leaf_id(child)}:{child.pie_available}"
            if tag in seen:
                continue  # a symmetric copy of a child already examined
            seen.add(tag)
            good = self.holds(child, depth + 1)
            if mover == 0 and good:
                return True
            if mover != 0 and not good:
                return False
        return mover != 0
