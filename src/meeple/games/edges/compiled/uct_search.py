"""The compiled UCT search behind the ``uct`` Edges agent (see :mod:`meeple.games.edges.uct`).

Plain UCT as in Kocsis and Szepesvari, the same algorithm as the generic ``mcts`` agent on a
perfect-information game (UCB1 selection, one node expanded per iteration, one uniformly
random rollout, the result backed up as +1/0/-1 for the side that chose each action), run
on the compiled rules of :mod:`.rules` beside it. The tree lives in flat preallocated arrays:

* per node: its first child slot, how many children it has, its visits, the side to act;
* per child slot: the action id, the child node (-1 until expanded), visits and total value
  from the point of view of the side that acts at the parent.

When the arrays are full the search stops growing the tree and keeps running rollouts from
its leaves, so a long search degrades gracefully instead of failing.
"""

from __future__ import annotations

import math

import numpy as np

from meeple.games.edges.compiled.rules import (
    apply,
    compiled,
    legal_actions,
    outcome,
    rollout,
    to_act,
)


class Tree:
    """The arrays of one search tree (numba works on them directly)."""

    def __init__(self, nodes: int, slots: int, moves: int) -> None:
        """Room for ``nodes`` nodes and ``slots`` child slots; ``moves``: the most legal
        actions any position has."""
        self.node_first = np.empty(nodes, dtype=np.int32)
        self.node_count = np.empty(nodes, dtype=np.int32)
        self.node_visits = np.empty(nodes, dtype=np.int64)
        self.node_side = np.empty(nodes, dtype=np.int8)
        self.slot_action = np.empty(slots, dtype=np.int16)
        self.slot_child = np.empty(slots, dtype=np.int32)
        self.slot_visits = np.empty(slots, dtype=np.int32)
        self.slot_value = np.empty(slots, dtype=np.float64)
        self.used = np.zeros(2, dtype=np.int64)  # nodes, slots in use
        self.moves = np.empty(moves, dtype=np.int16)
        self.path = np.empty(4 * moves + 8, dtype=np.int64)

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays in the order the compiled functions take them."""
        return (
            self.node_first,
            self.node_count,
            self.node_visits,
            self.node_side,
            self.slot_action,
            self.slot_child,
            self.slot_visits,
            self.slot_value,
            self.used,
            self.moves,
            self.path,
        )


@compiled
def _new_node(
    state: np.ndarray,
    n: int,
    p: int,
    pie: bool,
    nf: np.ndarray,
    nc: np.ndarray,
    nv: np.ndarray,
    ns: np.ndarray,
    sa: np.ndarray,
    sc: np.ndarray,
    sv: np.ndarray,
    sw: np.ndarray,
    used: np.ndarray,
    moves: np.ndarray,
) -> int:
    """Add a node for ``state`` with one empty slot per legal action; -1 if there is no room."""
    count = legal_actions(state, n, p, pie, moves)
    node, first = used[0], used[1]
    if node >= nf.shape[0] or first + count > sa.shape[0]:
        return -1
    nf[node] = first
    nc[node] = count
    nv[node] = 0
    seat = to_act(state, n, p)
    ns[node] = seat % 2 if seat >= 0 else 0
    for k in range(count):
        sa[first + k] = moves[k]
        sc[first + k] = -1
        sv[first + k] = 0
        sw[first + k] = 0.0
    used[0] = node + 1
    used[1] = first + count
    return node


@compiled
def start(
    root: np.ndarray,
    n: int,
    p: int,
    pie: bool,
    nf: np.ndarray,
    nc: np.ndarray,
    nv: np.ndarray,
    ns: np.ndarray,
    sa: np.ndarray,
    sc: np.ndarray,
    sv: np.ndarray,
    sw: np.ndarray,
    used: np.ndarray,
    moves: np.ndarray,
    path: np.ndarray,
) -> None:
    """Empty the tree and make ``root`` its first node."""
    used[0] = 0
    used[1] = 0
    _new_node(root, n, p, pie, nf, nc, nv, ns, sa, sc, sv, sw, used, moves)


@compiled
def _select(
    node: int,
    c: float,
    nf: np.ndarray,
    nc: np.ndarray,
    nv: np.ndarray,
    sv: np.ndarray,
    sw: np.ndarray,
) -> int:
    """The child slot with the best UCB1 score; an unvisited child first (the first one in
    the engine's order, as the tree is expanded one child per visit)."""
    first, count = nf[node], nc[node]
    log_n = math.log(max(nv[node], 1))
    best = first
    best_score = -1e300
    for k in range(first, first + count):
        if sv[k] == 0:
            return k
        score = sw[k] / sv[k] + c * math.sqrt(log_n / sv[k])
        if score > best_score:
            best_score = score
            best = k
    return best


@compiled
def iterate(
    root: np.ndarray,
    scratch: np.ndarray,
    n: int,
    p: int,
    pie: bool,
    square_edges: np.ndarray,
    c: float,
    iterations: int,
    seed: int,
    nf: np.ndarray,
    nc: np.ndarray,
    nv: np.ndarray,
    ns: np.ndarray,
    sa: np.ndarray,
    sc: np.ndarray,
    sv: np.ndarray,
    sw: np.ndarray,
    used: np.ndarray,
    moves: np.ndarray,
    path: np.ndarray,
) -> None:
    """Run ``iterations`` iterations of UCT from ``root`` on the tree (seeded)."""
    np.random.seed(seed)
    for _ in range(iterations):
        scratch[:] = root
        node = 0
        depth = 0
        while nc[node] > 0:
            slot = _select(node, c, nf, nc, nv, sv, sw)
            path[depth] = slot
            path[depth + 1] = node
            depth += 2
            apply(scratch, n, p, np.int64(sa[slot]))  # one compiled apply: see rollout
            child = sc[slot]
            if child < 0:
                child = _new_node(scratch, n, p, pie, nf, nc, nv, ns, sa, sc, sv, sw, used, moves)
                if child >= 0:
                    sc[slot] = child
                rollout(scratch, n, p, pie, moves)
                break
            node = child
        z = outcome(scratch, n, square_edges)
        nv[0] += 1
        for k in range(0, depth, 2):
            slot = path[k]
            parent = path[k + 1]
            sv[slot] += 1
            sw[slot] += z if ns[parent] == 0 else -z
            child = sc[slot]
            if child >= 0:
                nv[child] += 1


@compiled
def root_statistics(
    nf: np.ndarray,
    nc: np.ndarray,
    sa: np.ndarray,
    sv: np.ndarray,
    sw: np.ndarray,
    actions: np.ndarray,
    visits: np.ndarray,
    values: np.ndarray,
) -> int:
    """Copy the root's children (action, visits, mean value for the side to act) out;
    return how many there are."""
    first, count = nf[0], nc[0]
    for k in range(count):
        actions[k] = sa[first + k]
        visits[k] = sv[first + k]
        values[k] = sw[first + k] / sv[first + k] if sv[first + k] else 0.0
    return count
