"""How big a null-window proof will be, measured before it is run: Knuth's random probes.

A proof of "can seat 0 reach at least ``t``?" (:class:`~meeple.solvers.edges_proof.
NullWindowProof`) walks an AND/OR tree: where the side that needs one good move (the
*chooser*: seat 0 for a "yes", seat 1 for a "no") is to move, the proof tries its moves best
first and usually needs only the first; where the other side is to move, every reply must be
searched. A *probe* walks from the root to a sample depth: at the chooser's nodes it takes the
first move in the proof's own order, at the other side's it takes one reply drawn uniformly
and multiplies a weight by the number of replies. The weight is then an unbiased estimate of
the number of positions the proof meets at that depth (Knuth 1975), and the weight times the
nodes of one compiled null-window search of the sampled position an unbiased estimate of the
nodes of all of them. The mean over probes is the estimate, with a bootstrap interval.

What it assumes, and how that errs (measured against finished proofs in docs/solving-edges.md):

- The chooser's first move holds. Where it does not, a proof tries the next and pays for
  both; the share of sampled positions whose answer goes against the claim says how often.
- Every position is counted where the tree reaches it. A proof searches a position reached
  twice (another order of the same moves) once, and its leaf searches share a table, so a
  proof costs less than the tree: by the factor measured on 2x3 and 3x3.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from meeple.core.stats import bootstrap_interval
from meeple.games.edges.rules import EdgesState
from meeple.solvers.edges_proof import NullWindowProof
from meeple.solvers.edges_solver import EdgesSolver, SearchStopped, pyramids_left, table_bits

# Resamples of the bootstrap interval: enough for a stable 95% interval at a few hundred probes.
RESAMPLES = 2000


@dataclass
class Probe:
    """One random walk down the proof's tree and the search of where it ended.

    ``leaves`` estimates how many positions the proof meets at its split depth (the product
    of the replies counted on the way down to it), ``weight`` how many at the sample depth;
    the sampled position took ``nodes`` nodes and ``seconds`` of CPU time to search, and its
    answer went with the claim (``agrees``) or not.
    """

    leaves: float
    weight: float
    nodes: int
    seconds: float
    agrees: bool


@dataclass
class Interval:
    """An estimate and its 95% bootstrap interval."""

    mean: float
    low: float
    high: float


@dataclass
class ProofEstimate:
    """What the probes so far say about the proof (:func:`estimate_proof`)."""

    threshold: int
    split: int
    depth: int
    claim: bool
    probes: list[Probe] = field(default_factory=list)

    def _interval(self, values: np.ndarray, seed: int = 0) -> Interval:
        mean = float(values.mean()) if len(values) else 0.0
        if len(values) < 2:
            return Interval(mean, mean, mean)
        low, high = bootstrap_interval(values, resamples=RESAMPLES, seed=seed)
        return Interval(mean, low, high)

    @property
    def leaves(self) -> Interval:
        """Positions the proof meets at its split depth (its leaves, counted in the tree)."""
        return self._interval(np.array([p.leaves for p in self.probes], dtype=float))

    @property
    def sampled(self) -> Interval:
        """Positions the proof meets at the sample depth (the leaves if it is the split)."""
        return self._interval(np.array([p.weight for p in self.probes], dtype=float))

    @property
    def nodes(self) -> Interval:
        """Nodes of the compiled searches below the sample depth, all of them together."""
        return self._interval(np.array([p.weight * p.nodes for p in self.probes], dtype=float))

    @property
    def core_hours(self) -> Interval:
        """CPU hours of those searches, at the speed the probes ran."""
        hours = [p.weight * p.seconds / 3600 for p in self.probes]
        return self._interval(np.array(hours, dtype=float))

    @property
    def agreeing(self) -> float:
        """The share of sampled positions whose answer went with the claim."""
        return sum(p.agrees for p in self.probes) / len(self.probes) if self.probes else 0.0

    @property
    def nodes_per_second(self) -> float:
        """The probes' search speed (nodes per CPU second)."""
        seconds = sum(p.seconds for p in self.probes)
        return sum(p.nodes for p in self.probes) / seconds if seconds > 0 else 0.0


def estimate_proof(
    state: EdgesState,
    threshold: int,
    probes: int,
    split: int,
    depth: int | None = None,
    claim: bool = True,
    seed: int = 0,
    tt_bits: int | None = None,
    deadline: float | None = None,
    on_probe: Callable[[ProofEstimate], None] | None = None,
    solver: EdgesSolver | None = None,
) -> ProofEstimate:
    """Estimate the proof of "seat 0 reaches at least ``threshold``" at ``split`` by
    ``probes`` random probes, each sampled position searched at ``depth`` plies (default: the
    split; deeper where the split's leaves are too big to search one by one).

    ``claim`` is the answer the proof is expected to find: True walks the tree of a "yes"
    (seat 0 chooses), False that of a "no" (seat 1 chooses). Each sampled position is
    searched with a cleared table, so the probes are independent. ``deadline`` (a
    ``time.perf_counter()`` value) ends the run early with the probes finished by then;
    ``on_probe`` is called after each.
    """
    depth = split if depth is None else depth
    if depth < split:
        raise ValueError(f"the sample depth ({depth}) cannot be above the split ({split})")
    board = state.game.board
    if solver is None:
        bits = tt_bits or table_bits(max(0, pyramids_left(state) - depth))
        solver = EdgesSolver(board, tt_bits=bits)
    # The proof's own move order and merging of symmetric moves, on answers kept in memory.
    walker = NullWindowProof(solver, threshold, Path(), split=depth, store=_NoStore())
    chooser = 0 if claim else 1
    rng = random.Random(seed)
    result = ProofEstimate(threshold, split, depth, claim)
    # Probes pass the same positions near the root again and again: order their moves once.
    known: dict[str, list[EdgesState]] = {}
    for _ in range(probes):
        if deadline is not None and time.perf_counter() > deadline:
            break
        node, weight, leaves, ply = state, 1.0, 1.0, 0
        while not walker.is_leaf(node, ply):
            name = walker.node_id(node)
            if name not in known:
                known[name] = [child for _, child in walker.children(node)]
            children = known[name]
            if node.to_act[0] == chooser:
                node = children[0]
            else:
                node = rng.choice(children)
                weight *= len(children)
            ply += 1
            if ply == split:
                leaves = weight
        if ply < split:  # the game ended above the split: that position is a leaf
            leaves = weight
        solver.clear()
        nodes, cpu = solver.stats.nodes, time.process_time()
        try:
            value = solver.search(node, threshold - 1, threshold, deadline=deadline)
        except SearchStopped:
            break  # the probe cut short is left out: only whole ones are counted
        cpu = time.process_time() - cpu
        agrees = (value >= threshold) is claim
        result.probes.append(Probe(leaves, weight, solver.stats.nodes - nodes, cpu, agrees))
        if on_probe is not None:
            on_probe(result)
    return result


class _NoStore:
    """Answers kept in memory only: the probes record nothing."""

    def __init__(self) -> None:
        self.header: dict[str, object] = {}
        self.answers: dict[str, bool] = {}
        self.rejected = 0
        self.started_empty = False

    def add(self, position: str, holds: bool) -> None:
        """Keep nothing: a probe never settles a position."""
