"""A proof's leaves searched on a Ray cluster (``meeple solve edges --prove T --backend ray``).

:class:`RayLeaves` is a :data:`~meeple.solvers.edges_proof.LeafRunner`: the proof walks its
tree in this process as always and hands each batch of sibling leaves to it; it sends them to
Ray actors, each a :class:`LeafWorker` with a solver and a transposition table of its own that
it keeps from leaf to leaf (siblings share subtrees, as with threads), and yields their
answers as they come. Only the proof, in this process, writes the checkpoint: a worker holds
no file. A worker that dies (its machine lost, its process killed) loses only the leaf it was
searching: a new worker takes its place and the leaf is searched again, up to ``retries``
times. A cluster that goes away (``ray stop``, its head's machine or this machine's Ray node
lost) ends the run in one line (:func:`~meeple.core.ray_cluster.lost_work`), the answers
found kept in the checkpoint.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Iterator
from contextlib import suppress
from typing import Any

from meeple.core.errors import MeepleError
from meeple.core.ray_cluster import ClusterWatch, RayUnavailable, connect, lost_work
from meeple.games.edges.board import Board
from meeple.games.edges.rules import EdgesState
from meeple.solvers.edges_proof import LeafAnswer, search_leaf
from meeple.solvers.edges_solver import EdgesSolver, SearchStopped

LOST_LEAVES = "The checkpoint keeps every answer found: run the same command again to resume."
"""What a proof on Ray that lost its leaves for good says after Ray's reason."""


class LeafWorker:
    """What one Ray actor holds: a solver whose table serves every leaf sent to it."""

    def __init__(self, board: Board, tt_bits: int, seed: int) -> None:
        self.solver = EdgesSolver(board, tt_bits=tt_bits, seed=seed)

    def search(
        self, leaf: EdgesState, threshold: int, generation: int, seconds: float | None
    ) -> LeafAnswer:
        """Search one leaf (a batch's ``generation`` of table entries; stop after
        ``seconds``, a span since clocks differ between machines)."""
        self.solver.generation = generation
        deadline = None if seconds is None else time.perf_counter() + seconds
        return search_leaf(self.solver, leaf, threshold, deadline)


class RayLeaves:
    """Search a proof's leaves on ``workers`` Ray actors (see the module's doc).

    Connects to the cluster at ``address`` (``ray start --head`` prints it; "auto" finds
    one on this machine), or starts a local one when none is given. ``workers`` None means
    one actor per CPU of the cluster. ``worker_class`` is what each actor runs (a test gives
    one that dies). :meth:`close` ends the actors, and a cluster started here.
    """

    def __init__(
        self,
        board: Board,
        threshold: int,
        tt_bits: int,
        workers: int | None = None,
        address: str | None = None,
        seed: int = 2024,
        retries: int = 3,
        worker_class: type[LeafWorker] | None = None,
    ) -> None:
        ray, self.started_here = connect(address, workers or os.cpu_count() or 1)
        self.ray = ray
        self.threshold = threshold
        self.retries = retries
        count = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote = ray.remote(num_cpus=1)(worker_class or LeafWorker)
        self._make = lambda: self._remote.remote(board, tt_bits, seed)
        self.actors = [self._make() for _ in range(count)]
        self.replaced = 0  # workers that died and were replaced
        self.lost = False  # the cluster went away: nothing is left on it to end
        self.watch = ClusterWatch()  # notices that, which Ray does not raise

    def __call__(
        self, leaves: list[EdgesState], generation: int, deadline: float | None
    ) -> Iterator[tuple[int, LeafAnswer]]:
        """Search ``leaves``, yielding ``(index, answer)`` as each comes back."""
        running: dict[Any, tuple[int, Any]] = {}
        try:
            with lost_work("the leaves under way", LOST_LEAVES):
                yield from self._search(leaves, generation, deadline, running)
        except RayUnavailable:
            self.lost = True
            raise
        finally:
            # Leaves not started are dropped; one being searched finishes on its worker, whose
            # next leaf waits behind it. A cluster gone has nothing to cancel.
            for ref in [] if self.lost else running:
                # A task that finished meanwhile cannot be cancelled: nothing to do then.
                with suppress(Exception):
                    self.ray.cancel(ref)

    def _search(
        self,
        leaves: list[EdgesState],
        generation: int,
        deadline: float | None,
        running: dict[Any, tuple[int, Any]],
    ) -> Iterator[tuple[int, LeafAnswer]]:
        """:meth:`__call__`'s work; ``running`` holds the searches under way."""
        ray = self.ray
        waiting = deque(range(len(leaves)))
        tries = [0] * len(leaves)
        free = list(self.actors)
        while waiting or running:
            while waiting and free:
                i, actor = waiting.popleft(), free.pop()
                left = None if deadline is None else max(0.0, deadline - time.perf_counter())
                ref = actor.search.remote(leaves[i], self.threshold, generation, left)
                running[ref] = (i, actor)
            timeout = None if deadline is None else max(0.0, deadline - time.perf_counter())
            done = self.watch.wait_first(list(running), timeout)
            if not done:
                raise SearchStopped("the proof's time budget ran out")
            i, actor = running.pop(done[0])
            try:
                answer = ray.get(done[0])
            except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError):
                # The worker died: only this leaf is lost. Search it again on a new one.
                tries[i] += 1
                if tries[i] > self.retries:
                    raise MeepleError(
                        f"a leaf's worker died {tries[i]} times. {LOST_LEAVES}"
                    ) from None
                actor = self._replace(actor)
                waiting.appendleft(i)
                free.append(actor)
                continue
            free.append(actor)
            yield i, answer

    def _replace(self, dead: Any) -> Any:
        fresh = self._make()
        self.actors[self.actors.index(dead)] = fresh
        self.replaced += 1
        return fresh

    def close(self) -> None:
        """End the actors (none left where the cluster went away), and the local cluster if
        this object started it."""
        for actor in [] if self.lost else self.actors:
            self.ray.kill(actor)
        self.actors = []
        if self.started_here:
            self.ray.shutdown()
