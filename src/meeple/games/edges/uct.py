"""``uct``: Monte Carlo tree search on the compiled Edges rules.

The same search as the generic ``mcts`` agent on a perfect-information game, run on
:mod:`.compiled.rules` instead of the rules engine's Python objects: tens of times more
iterations in the same time (``benchmarks/edges_mcts_speed.py``). numba and the compiled code
are loaded when the agent is built, not when meeple is imported, so the command line starts
fast.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

from meeple.core.agent import Observation, check_budget
from meeple.core.errors import AgentSpecError
from meeple.core.game import Game
from meeple.core.rng import derive_seed
from meeple.games.edges.rules import EdgesAction, EdgesGame, EdgesState

if TYPE_CHECKING:
    from meeple.games.edges.compiled.uct_search import Tree

# Iterations run between two looks at the clock: a few milliseconds of work.
CHUNK = 256


class UCTAgent:
    """UCT with random rollouts on the compiled rules; plays the most visited action.

    ``iterations`` per move, or ``seconds`` per move when given (then the clock decides and
    the choice is no longer reproducible). ``c``: the exploration constant. ``nodes``: the
    most tree nodes kept; past it the search runs rollouts from the leaves it has.
    """

    name = "uct"

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        iterations: int = 20_000,
        seconds: float | None = None,
        c: float = 1.4,
        nodes: int = 1_000_000,
    ) -> None:
        if not isinstance(game, EdgesGame):
            raise AgentSpecError("uct: this agent plays Edges only")
        check_budget(self.name, "iterations", iterations, low=1, allowed="a whole number >= 1")
        check_budget(self.name, "nodes", nodes, low=1, allowed="a whole number >= 1")
        # As mcts: a negative constant would steer the search away from the moves it knows least.
        check_budget(self.name, "c", c, low=0, allowed="a number of at least 0")
        if seconds is not None:
            check_budget(self.name, "seconds", seconds, low=0, allowed="a number above 0")
            if seconds <= 0:
                raise AgentSpecError(f"uct: seconds must be above 0, not {seconds!r}")
        from meeple.games.edges.compiled import rules as compiled_rules
        from meeple.games.edges.compiled import uct_search

        self.game: EdgesGame = game
        self.seed = seed
        self.iterations = int(iterations)
        self.seconds = seconds
        self.c = float(c)
        self.shape = compiled_rules.layout(game)
        moves = 3 * self.shape.edges + 3
        self.tree: Tree = uct_search.Tree(int(nodes), int(nodes) * 16, moves)
        self._decisions = 0
        self.last_iterations = 0
        """Iterations the last decision ran (for benchmarks and the log)."""

    def remember(self, observation: Observation, action: EdgesAction) -> None:
        """A decision made elsewhere (see ``core.agent.catch_up``): counted, since the count
        seeds each decision's search; no search."""
        self._decisions += 1

    def act(self, observation: Observation) -> EdgesAction:
        """The most visited action after the search."""
        legal = observation.legal_actions
        self._decisions += 1
        if len(legal) == 1:
            return legal[0]
        found = self._search(observation)
        best = max(found, key=lambda a: found[a])
        return best

    def root_values(self, observation: Observation) -> dict[EdgesAction, tuple[int, float | None]]:
        """Search the decision as :meth:`act` would and give each legal action's visits
        and mean return to the seat to act (None where it was never tried)."""
        legal = observation.legal_actions
        self._decisions += 1
        if len(legal) == 1:
            return {legal[0]: (0, None)}
        found = self._search(observation)
        return {a: (found[a][0], found[a][1] if found[a][0] else None) for a in found}

    def _search(self, observation: Observation) -> dict[EdgesAction, tuple[int, float]]:
        """Run the decision's search: each root action's (visits, mean value for the side to
        act), in the compiled tree's order."""
        import numpy as np

        from meeple.games.edges.compiled import rules as compiled_rules
        from meeple.games.edges.compiled import uct_search

        state = observation.determinize(random.Random(0))  # Edges hides nothing: the state
        assert isinstance(state, EdgesState)
        shape = self.shape
        root = compiled_rules.encode(state)
        scratch = root.copy()
        arrays = self.tree.arrays()
        uct_search.start(root, shape.edges, shape.players, shape.pie, *arrays)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        chunk_number = 0
        while True:
            todo = CHUNK if deadline is not None else min(CHUNK, self.iterations - done)
            if todo <= 0:
                break
            seed = derive_seed(self.seed, "uct", self._decisions, chunk_number)
            uct_search.iterate(
                root, scratch, shape.edges, shape.players, shape.pie, shape.square_edges,
                self.c, todo, seed, *arrays,
            )  # fmt: skip
            done += todo
            chunk_number += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        moves = len(self.tree.moves)
        actions = np.empty(moves, dtype=np.int16)
        visits = np.empty(moves, dtype=np.int64)
        values = np.empty(moves, dtype=np.float64)
        tree = self.tree
        count = uct_search.root_statistics(
            tree.node_first, tree.node_count, tree.slot_action, tree.slot_visits,
            tree.slot_value, actions, visits, values,
        )  # fmt: skip
        return {
            self.game.action_from_id(int(actions[k])): (int(visits[k]), float(values[k]))
            for k in range(count)
        }
