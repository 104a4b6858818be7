"""Resumable null-window proofs: "can seat 0 reach at least ``t``?" for big Edges boards.

The top ``split`` plies are expanded in Python as an AND/OR tree (seat 0 needs one good move,
seat 1's every reply must fail; the pie rule is just another legal action on move two); each
leaf is one compiled null-window search. Every leaf result goes to a JSON checkpoint at once,
keyed by the leaf's canonical position, so a stopped run resumes where it was. Seat 0's moves
are tried best first by a shallow search, so a proof usually needs one move per OR node.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from meeple.core.errors import MeepleError
from meeple.games.edges.rules import EdgesAction, EdgesState
from meeple.solvers.edges_solver import EdgesSolver, SearchStopped

CHECKPOINT_FORMAT = "edges-proof/1"


@dataclass
class ProofProgress:
    """How far a proof has got: leaves searched now, leaves read from the checkpoint."""

    searched: int = 0
    reused: int = 0
    nodes: int = 0
    last_leaf_seconds: float = 0.0


class NullWindowProof:
    """Prove or refute ``value >= threshold`` (seat 0 minus seat 1) with a checkpoint file.

    ``question`` names the root position (e.g. :func:`meeple.solvers.cache.position_id`); a
    checkpoint written for another position, threshold or split is refused rather than
    mixed in. ``deadline`` (a ``time.perf_counter()`` value) stops the run with
    :class:`SearchStopped`; every leaf finished so far is in the checkpoint.
    """

    def __init__(
        self,
        solver: EdgesSolver,
        threshold: int,
        checkpoint: Path,
        split: int = 2,
        question: str = "",
        deadline: float | None = None,
        on_leaf: Callable[[ProofProgress], None] | None = None,
    ) -> None:
        self.solver = solver
        self.threshold = threshold
        self.checkpoint = checkpoint
        self.split = split
        self.question = question
        self.deadline = deadline
        self.on_leaf = on_leaf
        self.progress = ProofProgress()
        self.done: dict[str, bool] = {}
        self._guide = EdgesSolver(solver.board, tt_bits=16)  # shallow searches for ordering
        if checkpoint.exists():
            data = json.loads(checkpoint.read_text(encoding="utf-8"))
            mine = {"threshold": threshold, "split": split, "question": question}
            theirs = {k: data.get(k) for k in mine}
            if data.get("format") != CHECKPOINT_FORMAT or theirs != mine:
                raise MeepleError(
                    f"{checkpoint} is a checkpoint for another question ({theirs}), not "
                    f"{mine}; give another --checkpoint file"
                )
            self.done = data["leaves"]

    @property
    def leaves_searched(self) -> int:
        """Leaves searched by this run (not read from the checkpoint)."""
        return self.progress.searched

    def _leaf_id(self, state: EdgesState) -> str:
        side = state.to_act[0] if state.to_act else 0
        return f"{self.solver.key(state)}:{self.solver.banked(state)}:{side}"

    def _save(self) -> None:
        self.checkpoint.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.checkpoint.parent)
        data = {
            "format": CHECKPOINT_FORMAT,
            "question": self.question,
            "threshold": self.threshold,
            "split": self.split,
            "leaves": self.done,
        }
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
        os.replace(tmp, self.checkpoint)

    def holds(self, state: EdgesState, depth: int = 0) -> bool:
        """Whether seat 0 can reach at least the threshold from ``state`` with best play."""
        if state.is_over or depth >= self.split:
            if state.pie_available:  # the pie rule still pending: expand one more ply
                return self._expand(state, depth)
            leaf = self._leaf_id(state)
            if leaf in self.done:
                self.progress.reused += 1
                return self.done[leaf]
            t = self.threshold
            start = time.perf_counter()
            nodes = self.solver.stats.nodes
            result = self.solver.search(state, t - 1, t, deadline=self.deadline) >= t
            self.done[leaf] = result
            self._save()
            self.progress.searched += 1
            self.progress.nodes += self.solver.stats.nodes - nodes
            self.progress.last_leaf_seconds = time.perf_counter() - start
            if self.on_leaf is not None:
                self.on_leaf(self.progress)
            return result
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SearchStopped("the proof's time budget ran out")
        return self._expand(state, depth)

    def _children(self, state: EdgesState) -> list[tuple[EdgesAction, EdgesState]]:
        """Legal moves up to symmetry and equivalent edges, the mover's most promising first."""
        mover = state.to_act[0]
        seen: set[str] = set()
        children = []
        for action in state.legal_actions(mover):
            child = state._next(mover, action)
            tag = f"{self._leaf_id(child)}:{child.pie_available}"
            if tag not in seen:  # a symmetric copy of a child already listed is skipped
                seen.add(tag)
                children.append((action, child))
        if len(children) > 1 and not state.pie_available:
            sign = 1 if mover == 0 else -1
            self._guide.clear()
            scored = [
                (sign * self._guide.search(c, depth=1), i) for i, (_, c) in enumerate(children)
            ]
            children = [children[i] for _, i in sorted(scored, key=lambda x: (-x[0], x[1]))]
        return children

    def _expand(self, state: EdgesState, depth: int) -> bool:
        mover = state.to_act[0]
        for _, child in self._children(state):
            good = self.holds(child, depth + 1)
            if mover == 0 and good:
                return True
            if mover != 0 and not good:
                return False
        return mover != 0
