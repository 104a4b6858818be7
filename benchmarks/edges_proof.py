"""Edges proof cost: nodes and time for the first leaves of a null-window proof.

    .venv/bin/python benchmarks/edges_proof.py --board 3x3 --leaves 400 --tt-bits 22

Runs ``NullWindowProof`` ("can the first player reach at least --threshold?", pie rule off)
from an empty checkpoint in a temporary folder, or from a copy of ``--from FILE``, until
``--leaves`` leaves are searched, and prints the nodes and seconds so far every ``--every``
leaves. One table serves every leaf, as in ``meeple solve --prove``; with one worker the
node counts are the same on every run, so two engines compare exactly on the same leaves.
At the end it prints how the table's rows are shared out by the pyramids left in their
positions: in a long proof, the entries of big subtrees long finished pile up there.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

import meeple
from meeple.solvers import cache
from meeple.solvers.edges_engine import table_rows_left
from meeple.solvers.edges_proof import NullWindowProof, ProofProgress
from meeple.solvers.edges_solver import EdgesSolver, SearchStopped, pyramids_left, table_bits


def table_rows_by_left(tt: np.ndarray) -> dict[int, float]:
    """The share of the table's filled rows held by positions with each number of pyramids
    left."""
    left = table_rows_left(tt)
    counts = np.bincount(left)
    return {k: c / len(left) for k, c in enumerate(counts) if c}


def main() -> None:
    """Run the proof's first leaves and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="3x3")
    parser.add_argument("--threshold", type=int, default=0)
    parser.add_argument("--split", type=int, default=6)
    parser.add_argument("--leaves", type=int, default=400)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--tt-bits", type=int, default=None, help="default: as meeple solve")
    parser.add_argument("--from", dest="start", type=Path, default=None,
                        help="start from a copy of this checkpoint")  # fmt: skip
    args = parser.parse_args()
    game = meeple.make("edges", board=args.board, pie=False, first=0)
    state = game.new_game(0)
    bits = table_bits(pyramids_left(state)) if args.tt_bits is None else args.tt_bits
    EdgesSolver(game.board, tt_bits=12).search(state, depth=2)  # compile (or load) untimed
    solver = EdgesSolver(game.board, tt_bits=bits)
    print(f"{args.board}, at least {args.threshold:+d}, split {args.split}, table 2^{bits}, "
          f"{args.workers} worker(s)", flush=True)  # fmt: skip
    started = time.perf_counter()

    def on_leaf(p: ProofProgress) -> None:
        if p.searched % args.every == 0 or p.searched >= args.leaves:
            seconds = time.perf_counter() - started
            print(f"leaves={p.searched} nodes={p.nodes:,} time={seconds:.1f}s at "
                  f"{p.where_text()}", flush=True)  # fmt: skip
        if p.searched >= args.leaves:
            raise SearchStopped("enough leaves")

    with tempfile.TemporaryDirectory() as folder:
        checkpoint = Path(folder) / "proof.json"
        if args.start is not None:
            shutil.copy(args.start, checkpoint)
        proof = NullWindowProof(solver, args.threshold, checkpoint, args.split,
                                cache.position_id(state), on_leaf=on_leaf,
                                workers=args.workers)  # fmt: skip
        try:
            holds = proof.holds(state)
            print(f"finished: {'holds' if holds else 'fails'}")
        except SearchStopped:
            pass
    rows = table_rows_by_left(solver.tt)
    print("table rows by pyramids left: " + ", ".join(f"{k}: {v:.1%}" for k, v in rows.items()))


if __name__ == "__main__":
    main()
