"""Resumable null-window proofs: "can seat 0 reach at least ``t``?" for big Edges boards.

The top ``split`` plies are expanded in Python as an AND/OR tree (seat 0 needs one good move,
seat 1's every reply must fail; the pie rule is just another legal action on move two); each
leaf is one compiled null-window search. Every leaf result is appended to a checkpoint file at
once, keyed by the leaf's canonical position, so a stopped run resumes where it was. Seat 0's
moves are tried best first by a shallow search, so a proof usually needs one move per OR node.

With ``workers`` > 1 the leaves below one of seat 1's moves -- all of which must hold, so all
of them are searched anyway -- are searched in that many threads at once (the compiled search
releases the GIL), sharing one transposition table: sibling leaves share most of their
subtrees, and one table searched the first 30 leaves of the 3x3 proof with 2.9x fewer nodes
than a fresh table per leaf.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from meeple.core.errors import MeepleError
from meeple.games.edges.rules import EdgesAction, EdgesState
from meeple.solvers.cache import CheckedLog
from meeple.solvers.edges_solver import EdgesSolver, SearchStopped, in_threads

CHECKPOINT_FORMAT = "edges-proof/3"
# Formats without a check on each line: their answers cannot be told from edited ones, so
# they are refused rather than believed (docs/reliability.md).
UNVERIFIED_FORMATS = ("edges-proof/1", "edges-proof/2")
ENGINE = "edges-engine/1"
"""Names the search whose answers a checkpoint holds; a new engine that could answer a
leaf differently gets a new name, and old checkpoints are refused."""


class ProofUnfinished(MeepleError):
    """A proof asked for its answer before its run has found one (its checkpoint holds no
    answer at the root): not a failed proof, one to run on."""


@dataclass
class ProofProgress:
    """How far a proof has got.

    ``searched`` leaves were searched by this run and ``reused`` answered from the checkpoint;
    ``where`` lists, for each of seat 1's moves on the way to the leaves now being searched,
    which of that node's replies it is and how many there are (so ``((3, 45), (12, 48))``
    reads "the 3rd of 45 replies, then the 12th of 48").
    """

    searched: int = 0
    reused: int = 0
    nodes: int = 0
    last_leaf_seconds: float = 0.0
    where: tuple[tuple[int, int], ...] = ()

    @property
    def walked(self) -> float:
        """The share of the tree behind the run, counting every reply of seat 1 as one equal
        part of its level: ``3/45 > 12/48`` has 2 of 45 replies behind it, and 11 of 48 of
        the third, so (2 + 11 / 48) / 45. A rough measure: replies differ in cost, and where
        a move of seat 0 fails, the next one tried starts its replies again from the first.
        """
        share, part = 0.0, 1.0
        for i, n in self.where:
            part /= n
            share += (i - 1) * part
        return share

    @classmethod
    def from_survey(cls, steps: list[SurveyStep]) -> ProofProgress:
        """The ``where`` of a run stopped at the path a survey read (nothing else known)."""
        return cls(where=tuple((s.position, s.replies) for s in steps if s.mover == 1))

    def where_text(self) -> str:
        """``where`` as people read it: ``3/45 > 12/48 (5.0% walked)`` ("the start" before
        any leaf)."""
        if not self.where:
            return "the start"
        path = " > ".join(f"{i}/{n}" for i, n in self.where)
        return f"{path} ({100 * self.walked:.1f}% walked)"


@dataclass
class SurveyStep:
    """One step down the path a proof run is walking, read from its checkpoint.

    For seat 0 to move: ``move`` is the move being proved (the first, in the order the run
    tries them, that has not failed) and ``failed`` how many were tried before it and
    failed. For seat 1 to move: ``replies`` with ``hold`` of them settled as holding and
    ``open`` not settled yet, and ``move`` the first open one, which the run is in.
    """

    mover: int
    move: str
    failed: int = 0
    replies: int = 0
    hold: int = 0
    open: int = 0
    position: int = 0
    """For seat 1: which reply the run is in, counted from 1 in the run's order, as the
    progress line's ``where`` counts it."""


@dataclass
class ProofCheck:
    """What checking a finished proof found (:meth:`NullWindowProof.check`).

    ``claim`` is the root's answer in the checkpoint; ``confirmed`` whether the checkpoint's
    leaf answers alone imply it, walked down the tree again: for "holds", one move of seat 0
    that holds at each of its turns and every reply of seat 1 (for "fails" the other way
    round). ``positions`` above the leaves and ``leaves`` (distinct) were walked;
    ``unconfirmed`` names the first position that could not be confirmed. ``searched`` leaves,
    drawn at random from the proof's, were searched again with other hash keys, and
    ``disagree`` lists those whose answer came out different. ``confirming`` (when asked
    for) lists the positions and leaves that confirmed the claim: a certificate's content.
    """

    claim: bool
    confirmed: bool = False
    positions: int = 0
    leaves: int = 0
    unconfirmed: str = ""
    searched: int = 0
    disagree: list[str] = field(default_factory=list)
    confirming: list[str] = field(default_factory=list)


class AnswerStore(Protocol):
    """Where a proof's answers live: its checkpoint, or a certificate (read only)."""

    header: dict[str, object]
    answers: dict[str, bool]
    rejected: int
    started_empty: bool

    def add(self, position: str, holds: bool) -> None:
        """Record one answer."""


class ProofCheckpoint(CheckedLog):
    """Answers on disk: a header line naming the question and the engine, then one
    ``[position id, holds, check]`` line per answer (the leaves', and those of the positions
    above them as they settle), appended and flushed to disk as each comes.

    Nothing in the file is believed unchecked (see :class:`~meeple.solvers.cache.CheckedLog`):
    a line whose answer is not JSON ``true`` or ``false``, or whose check does not match its
    position, answer and this question, is dropped and its position searched again;
    ``rejected`` counts them. A file for another question, engine or format is refused.
    """

    what = "proof checkpoint"

    def __init__(self, path: Path, header: dict[str, object], read_only: bool = False) -> None:
        header = {"format": CHECKPOINT_FORMAT, "engine": ENGINE, **header}
        super().__init__(path, header, read_only)

    def valid(self, value: object) -> bool:
        """A JSON ``true`` or ``false``."""
        return type(value) is bool

    def encode(self, value: bool) -> str:
        """``1`` or ``0``, as the format has always checked them."""
        return str(int(value))

    def refuse(self, header: dict[str, object]) -> None:
        """Refuse the older formats, whose lines carry no check."""
        fmt = header.get("format")
        if fmt in UNVERIFIED_FORMATS:
            raise MeepleError(
                f"{self.path} was written by an older meeple ({fmt}) with no check on its "
                "lines, so its answers cannot be trusted; move it aside and run again (the "
                "proof starts afresh), or give another --checkpoint"
            )


LeafAnswer = tuple[bool, int, float]
"""A searched leaf: whether it holds, the nodes and the seconds its search took."""

LeafRunner = Callable[[list[EdgesState], int, float | None], Iterator[tuple[int, LeafAnswer]]]
"""Searches leaves elsewhere (``meeple.solvers.edges_ray``): called with the leaves, the
table generation of their batch and the proof's deadline, it yields ``(index, answer)`` as
each finishes, raises :class:`SearchStopped` at the deadline, and stops searching what is
left when the caller closes it."""


def search_leaf(
    solver: EdgesSolver, leaf: EdgesState, threshold: int, deadline: float | None = None
) -> LeafAnswer:
    """One leaf's null-window search, "does seat 0 reach at least ``threshold``?", on the
    solver's table: (holds, nodes, seconds)."""
    start = time.perf_counter()
    nodes = solver.stats.nodes
    # Leaves share the table (siblings share subtrees) but not the move ordering: what
    # cut off in one leaf's subtrees misleads in the next.
    solver.fresh_ordering()
    holds = solver.search(leaf, threshold - 1, threshold, deadline=deadline) >= threshold
    return holds, solver.stats.nodes - nodes, time.perf_counter() - start


class NullWindowProof:
    """Prove or refute ``value >= threshold`` (seat 0 minus seat 1) with a checkpoint file.

    ``question`` names the root position (e.g. :func:`meeple.solvers.cache.position_id`); a
    checkpoint written for another position, threshold or split is refused rather than
    mixed in. ``deadline`` (a ``time.perf_counter()`` value) stops the run with
    :class:`SearchStopped`; every leaf finished so far is in the checkpoint. ``workers``
    threads search the leaves below one of seat 1's moves at once (see the module's doc);
    a ``runner`` searches them elsewhere instead (a Ray cluster: :mod:`.edges_ray`), and only
    this object writes the answers it returns. ``read_only`` leaves a checkpoint with lines
    that fail their check as it is, for a later run to search them again.
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
        workers: int = 1,
        store: AnswerStore | None = None,
        runner: LeafRunner | None = None,
        read_only: bool = False,
    ) -> None:
        if workers < 1:
            raise MeepleError(f"a proof needs at least one worker, not {workers}")
        self.solver = solver
        self.threshold = threshold
        self.checkpoint = checkpoint
        self.split = split
        self.question = question
        self.deadline = deadline
        self.on_leaf = on_leaf
        self.workers = workers
        self.runner = runner
        self.progress = ProofProgress()
        self._guide = EdgesSolver(solver.board, tt_bits=16)  # shallow searches for ordering
        header = {"question": question, "threshold": threshold, "split": split}
        # Another store (a certificate) must be for this very question.
        # Read only (a survey, a check, an export): a damaged checkpoint is left as it is.
        self._store = store or ProofCheckpoint(checkpoint, header, read_only)
        self._solvers = [solver] + [solver.sharing_table() for _ in range(workers - 1)]
        self._where: list[tuple[int, int]] = []
        self._level: tuple[int, int] | None = None
        self._generation = 0

    @property
    def header(self) -> dict[str, object]:
        """What the proof answers (question, threshold, split, engine, format), as its
        checkpoint's first line names it."""
        return self._store.header

    @property
    def done(self) -> dict[str, bool]:
        """Every answer known (leaves and the positions above them): from the checkpoint and
        from this run."""
        return self._store.answers

    @property
    def started_empty(self) -> bool:
        """Whether the checkpoint was an empty file (no header line), taken as a new one."""
        return self._store.started_empty

    @property
    def rejected_lines(self) -> int:
        """Checkpoint lines that failed their check when it was read (searched again)."""
        return self._store.rejected

    @property
    def leaves_searched(self) -> int:
        """Leaves searched by this run (not read from the checkpoint)."""
        return self.progress.searched

    def _leaf_id(self, state: EdgesState) -> str:
        side = state.to_act[0] if state.to_act else 0
        return f"{self.solver.key(state)}:{self.solver.banked(state)}:{side}"

    def _is_leaf(self, state: EdgesState, depth: int) -> bool:
        # A pending pie rule is expanded one more ply: the compiled search knows no pie rule.
        return (state.is_over or depth >= self.split) and not state.pie_available

    def is_leaf(self, state: EdgesState, depth: int) -> bool:
        """Whether the proof searches ``state``, met ``depth`` plies below its root, as one
        leaf (rather than expanding its moves)."""
        return self._is_leaf(state, depth)

    def node_id(self, state: EdgesState) -> str:
        """The name of a position above the leaves in the checkpoint: the same for
        symmetric and equivalent positions."""
        return self._node_id(state)

    def children(self, state: EdgesState) -> list[tuple[EdgesAction, EdgesState]]:
        """The moves the proof expands at ``state``, in the order it tries them (symmetric
        and equivalent ones once; the mover's most promising first)."""
        return self._children(state)

    def holds(self, state: EdgesState, depth: int = 0) -> bool:
        """Whether seat 0 can reach at least the threshold from ``state`` with best play.

        The answer of every position settled above the leaves goes to the checkpoint too, so
        a resumed run walks straight past finished subtrees instead of through their leaves,
        and does not depend on trying the moves in the same order as the run before.
        """
        if self._is_leaf(state, depth):
            return self._all_hold([state])
        node = self._node_id(state)
        known = self.done.get(node)
        # With lines of the checkpoint dropped (failed their check), a settled answer above
        # them is not taken in their place: the walk goes down to search what was dropped,
        # reading the leaves' answers still there, so the leaves alone imply the root again.
        if known is not None and not self.rejected_lines:
            self.progress.reused += 1
            return known
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SearchStopped("the proof's time budget ran out")
        answer = self._expand(state, depth)
        if answer is not known:
            self._store.add(node, answer)
        return answer

    def _node_id(self, state: EdgesState) -> str:
        # A position where the pie rule may still be used is another question than the same
        # board where it may not.
        return self._leaf_id(state) + (":pie" if state.pie_available else "")

    def _children(
        self, state: EdgesState, guided: bool = True
    ) -> list[tuple[EdgesAction, EdgesState]]:
        """Legal moves up to symmetry and equivalent edges, the mover's most promising first
        (``guided``; else in the order of the legal actions)."""
        mover = state.to_act[0]
        seen: set[str] = set()
        children = []
        for action in state.legal_actions(mover):
            child = state._next(mover, action)
            tag = self._node_id(child)
            if tag not in seen:  # a symmetric copy of a child already listed is skipped
                seen.add(tag)
                children.append((action, child))
        if guided and len(children) > 1 and not state.pie_available:
            sign = 1 if mover == 0 else -1
            self._guide.clear()
            scored = [
                (sign * self._guide.search(c, depth=1), i) for i, (_, c) in enumerate(children)
            ]
            children = [children[i] for _, i in sorted(scored, key=lambda x: (-x[0], x[1]))]
        return children

    def _expand(self, state: EdgesState, depth: int) -> bool:
        mover = state.to_act[0]
        children = [child for _, child in self._children(state)]
        if mover != 0 and all(self._is_leaf(c, depth + 1) for c in children):
            # Every one is searched anyway (in parallel): a level of seat 1's replies, as
            # ``where`` and the survey count it.
            return self._all_hold(children, level=True)
        for i, child in enumerate(children):
            if mover != 0:
                self._where.append((i + 1, len(children)))
            try:
                good = self.holds(child, depth + 1)
            finally:
                if mover != 0:
                    self._where.pop()
            if mover == 0 and good:
                return True
            if mover != 0 and not good:
                return False
        return mover != 0

    def survey(self, state: EdgesState) -> tuple[bool | None, list[SurveyStep]]:
        """How far the checkpoint has got, without searching: the root's answer if settled,
        and the path a run would walk down to its next leaf, level by level (the moves
        ordered as a run orders them, by the same shallow searches)."""
        steps: list[SurveyStep] = []
        root = self.done.get(self._node_id(state))
        node, depth = state, 0
        while root is None and not self._is_leaf(node, depth):
            if node.is_over or self.done.get(self._node_id(node)) is not None:
                break
            mover = node.to_act[0]
            children = self._children(node)
            answers = [self._recorded(child, depth + 1) for _, child in children]
            if mover == 0:
                failed = next((i for i, a in enumerate(answers) if a is not False), None)
                if failed is None:
                    break  # every move failed: the run settles this node next
                action, node = children[failed]
                steps.append(SurveyStep(0, str(action), failed=failed))
            else:
                first_open = next((i for i, a in enumerate(answers) if a is None), None)
                if first_open is None:
                    break
                action, node = children[first_open]
                held, unsettled = answers.count(True), answers.count(None)
                steps.append(
                    SurveyStep(1, str(action), 0, len(children), held, unsettled, first_open + 1)
                )
            depth += 1
        return root, steps

    def check(
        self,
        state: EdgesState,
        resample: int = 0,
        searcher: EdgesSolver | None = None,
        seed: int = 0,
        on_step: Callable[[ProofCheck], None] | None = None,
        keep: bool = False,
    ) -> ProofCheck:
        """Check a finished proof: does the checkpoint's answer at the root follow from its
        leaves' answers alone? And are ``resample`` of those leaves, drawn at random
        (``seed``), answered alike by ``searcher`` -- a solver with other hash keys, so that
        a collision of the run's keys could not be repeated?

        The answers recorded above the leaves only guide the walk (they say which move of the
        player who needs one to try); nothing is taken from them. ``on_step`` is called as
        the walk goes and after each leaf searched again. ``keep`` lists in the report the
        positions that confirmed the claim (see :mod:`.edges_certificate`).
        """
        claim = self.done.get(self._node_id(state))
        if claim is None:
            raise ProofUnfinished(
                "the proof is not finished: its checkpoint has no answer at the root"
            )
        report = ProofCheck(claim)
        settled: dict[str, bool] = {}
        drawn: list[tuple[str, EdgesState]] = []  # a uniform sample of the leaves (reservoir)
        rng = random.Random(seed)
        # The side that needs only one good move where it is to move: seat 0 for "holds".
        chooser = 0 if claim else 1

        def confirmed(node: EdgesState, depth: int) -> bool:
            if self._is_leaf(node, depth):
                lid = self._leaf_id(node)
                if lid not in settled:
                    settled[lid] = self.done.get(lid) is claim
                    report.leaves += 1
                    if settled[lid] and resample > 0:
                        if len(drawn) < resample:
                            drawn.append((lid, node))
                        elif (slot := rng.randrange(report.leaves)) < resample:
                            drawn[slot] = (lid, node)
                if not settled[lid] and not report.unconfirmed:
                    report.unconfirmed = f"leaf {lid}"
                return settled[lid]
            nid = self._node_id(node)
            if nid not in settled:
                report.positions += 1
                children = [child for _, child in self._children(node, guided=False)]
                if node.to_act[0] == chooser:
                    # One child that confirms is enough: try those the run settled that way.
                    good = [c for c in children if self._recorded(c, depth + 1) is claim]
                    settled[nid] = any(confirmed(c, depth + 1) for c in good)
                else:
                    settled[nid] = all(confirmed(c, depth + 1) for c in children)
                if not settled[nid] and not report.unconfirmed:
                    report.unconfirmed = f"position {nid}"
                if on_step is not None:
                    on_step(report)
            return settled[nid]

        report.confirmed = confirmed(state, 0)
        if keep and report.confirmed:
            report.confirming = [name for name, good in settled.items() if good]
        if report.confirmed and drawn:
            if searcher is None:
                board, bits = self.solver.board, self.solver.tt_bits
                searcher = EdgesSolver(board, tt_bits=bits, seed=self.solver.seed + 1)
            if searcher.seed == self.solver.seed:
                raise MeepleError("a proof's leaves are searched again with other hash keys: "
                                  "give a solver of another seed")  # fmt: skip
            for lid, leaf in drawn:
                searcher.fresh_ordering()
                holds = searcher.search(leaf, self.threshold - 1, self.threshold) >= self.threshold
                report.searched += 1
                if holds is not claim:
                    report.disagree.append(lid)
                if on_step is not None:
                    on_step(report)
        return report

    def _recorded(self, state: EdgesState, depth: int) -> bool | None:
        """The checkpoint's answer for a position at ``depth`` (a leaf's or a node's)."""
        name = self._leaf_id(state) if self._is_leaf(state, depth) else self._node_id(state)
        return self.done.get(name)

    # -- leaves -----------------------------------------------------------------------------
    def _all_hold(self, leaves: list[EdgesState], level: bool = False) -> bool:
        """Whether every leaf holds: answers from the checkpoint first, then searches (in
        ``workers`` threads), stopping at the first leaf that fails. ``level``: the leaves are
        all of seat 1's replies at a node, a level of ``where``."""
        todo: dict[str, EdgesState] = {}
        # Each batch of sibling leaves is a new generation of table entries: when the table
        # is full, what earlier batches stored goes first (siblings share much of their
        # subtrees; far cousins little).
        self._generation = (self._generation + 1) & 0xFFFF
        for solver in self._solvers:
            solver.generation = self._generation
        for leaf in leaves:
            lid = self._leaf_id(leaf)
            if lid in self.done:
                self.progress.reused += 1
                if not self.done[lid]:
                    return False
            else:
                todo[lid] = leaf
        # Counted among all the replies, those answered from the checkpoint included, as the
        # survey counts them (not among the leaves left to search).
        self._level = (len(leaves) - len(todo), len(leaves)) if level else None
        if self.runner is not None:
            return self._collect(todo, self.runner(list(todo.values()), self._generation,
                                                   self.deadline))  # fmt: skip
        if self.workers == 1 or len(todo) == 1:
            for i, (lid, leaf) in enumerate(todo.items()):
                self._report_where(i)
                if not self._answer(lid, *self._search(self.solver, leaf)):
                    return False
            return True
        return self._all_hold_threaded(todo)

    def _all_hold_threaded(self, todo: dict[str, EdgesState]) -> bool:
        return self._collect(todo, in_threads(self._solvers, list(todo.values()), self._search))

    def _collect(
        self, todo: dict[str, EdgesState], answers: Iterator[tuple[int, LeafAnswer]]
    ) -> bool:
        """Record the leaves' answers as they come; whether every one holds."""
        lids = list(todo)
        # A leaf that fails settles this node; a deadline or Ctrl-C ends the run. Either way
        # the other searches are not needed: leaving the loop stops them.
        with closing(answers) as results:  # type: ignore[type-var]
            for finished, (i, answer) in enumerate(results, start=1):
                self._report_where(finished)
                if not self._answer(lids[i], *answer):
                    return False
        return True

    def _search(self, solver: EdgesSolver, leaf: EdgesState) -> tuple[bool, int, float]:
        """Search one leaf: (holds, nodes, seconds)."""
        return search_leaf(solver, leaf, self.threshold, self.deadline)

    def _answer(self, lid: str, holds: bool, nodes: int, seconds: float) -> bool:
        """Record a searched leaf (checkpoint first, then progress); return its answer."""
        self._store.add(lid, holds)
        self.progress.searched += 1
        self.progress.nodes += nodes
        self.progress.last_leaf_seconds = seconds
        if self.on_leaf is not None:
            self.on_leaf(self.progress)
        return holds

    def _report_where(self, done: int) -> None:
        if self._level is None:  # a single leaf below a move of seat 0: no level of replies
            self.progress.where = tuple(self._where)
            return
        answered, total = self._level
        self.progress.where = (*self._where, (min(answered + done + 1, total), total))
