"""Monte Carlo tree search for every game: UCT, information-set MCTS, simultaneous moves.

One algorithm serves all three. Each iteration samples a full state consistent with what
the searching seat knows (``observation.determinize``; the state itself when nothing is
hidden), then walks a tree whose nodes are keyed by the *acting seat's information set*
(``state.information_key(seat)``):

* perfect information: the key is the state, and this is plain UCT (with transpositions);
* hidden information: states a seat cannot tell apart share one node, which is
  information-set MCTS with one tree for all observers (Cowling, Powley and Whitehouse's
  MO-ISMCTS keyed by views); availability counts make UCB fair to actions that are legal in
  only some determinizations;
* simultaneous decisions: a seat's node does not depend on the hidden submissions of the
  other seats in the same decision, so each seat's statistics are decoupled from the
  others' choices (decoupled UCT) and nobody searches as if it saw a pending choice.

Returns are backed up per seat (each node maximises the return of the seat acting there),
so games of three to five players need nothing special.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable
from typing import Any

from meeple.agents.rollouts import (
    ENGINE_ROLLOUT_LIMIT,
    SeededSearch,
    check_seconds,
    engine_rollout,
    opponent_model,
    proposals,
    proposer,
    rollout_playout,
)
from meeple.core.agent import Observation, check_budget
from meeple.core.errors import AgentSpecError
from meeple.core.game import Action, Game, State
from meeple.core.registry import RANDOM_ROLLOUT
from meeple.core.rng import make_rng

SEARCHED = "search"
"""The ``opponent`` setting that searches every seat's decisions in the tree."""


class _Node:
    __slots__ = ("available", "children_n", "children_w", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.children_n: dict[Action, int] = {}
        self.children_w: dict[Action, float] = {}
        self.available: dict[Action, int] = {}


class MCTSAgent(SeededSearch):
    """UCT search with random rollouts; information-set keyed for hidden information.

    ``rollout`` names a compiled rollout of the game (``random``, or a game's ``guided``);
    ``opponent=search`` grows tree nodes for every seat, a rollout's name lets the other
    seats play that policy in the tree instead; ``recall`` keeps what a memorise step shows
    (``State.memory``) and puts it into every sample. ``candidates=K`` limits the root to what
    the rollout policy chooses in K samples; ``widen=W`` then lets the other legal moves join
    the root, in a seeded order, ``W * sqrt(visits)`` of them after that many iterations.
    """

    name = "mcts"

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        iterations: int = 1000,
        seconds: float | None = None,
        c: float = 1.4,
        rollout_limit: int = ENGINE_ROLLOUT_LIMIT,
        mix_threshold: float = 1.0,
        compiled: bool = True,
        rollout: str = RANDOM_ROLLOUT,
        opponent: str = SEARCHED,
        recall: bool = True,
        candidates: int = 0,
        widen: float = 0.0,
    ) -> None:
        check_budget(
            self.name, "iterations", iterations, low=1, allowed="a whole number of at least 1"
        )
        check_seconds(self.name, seconds)
        check_budget(self.name, "c", c, low=0, allowed="a number of at least 0")
        check_budget(
            self.name, "rollout_limit", rollout_limit, low=1, allowed="a whole number of at least 1"
        )
        check_budget(
            self.name, "mix_threshold", mix_threshold, low=0, allowed="a number from 0 to 1"
        )
        if mix_threshold > 1:
            raise AgentSpecError(
                f"{self.name}: mix_threshold must be from 0 to 1, not {mix_threshold!r}"
            )
        self.game = game
        self.seed = seed
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.rollout_limit = rollout_limit
        self.mix_threshold = mix_threshold
        self._perfect = game.perfect_information
        # The game's compiled rules play the same uniformly random rollouts many times
        # faster (a differential test proves them equal to the rules engine); they play
        # to the end, so a rollout limit below the default keeps the engine's rollouts.
        self.compiled = compiled
        self.rollout = rollout
        self._playout = rollout_playout(self.name, game, rollout, compiled, rollout_limit)
        # In a hidden-information game the other seats' nodes are keyed by their own
        # information, which every determinization samples afresh: their nodes are new at
        # almost every iteration and they choose at random. A modelled opponent plays the
        # game's compiled policy there instead, and only the searching seat's choices grow
        # a tree (a best response to the model, as Cowling et al.'s determinized search
        # with an opponent model).
        self.opponent = opponent
        self._choose = None
        if opponent != SEARCHED:
            self._choose = opponent_model(self.name, game, opponent, compiled, SEARCHED)
        self._player = 0
        self.candidates = candidates
        self._propose = proposer(self.name, game, rollout, compiled, candidates)
        check_budget(self.name, "widen", widen, low=0, allowed="a number of at least 0")
        if widen and not candidates:
            raise AgentSpecError(
                f"{self.name}: widen adds moves to the candidates' root; give candidates=K too"
            )
        self.widen = widen
        self._root_actions: set[Action] | None = None
        self._extras: list[Action] = []
        self._root_visits = 0
        self._keep_between_decisions(recall)

    def act(self, observation: Observation) -> Action:
        """After the budget (``seconds`` if given, else ``iterations``): the most visited
        action, or at a simultaneous decision an action drawn in proportion to visits."""
        legal = observation.legal_actions
        self._memory.see(observation)
        if len(legal) == 1:
            return legal[0]
        root, simultaneous, rng = self._search(observation)
        if root is None:
            return rng.choice(legal)
        if simultaneous:
            # In a simultaneous decision the best play is in general mixed, and decoupled
            # UCT's visit counts approximate the mixture once exploration noise is removed:
            # actions visited less than mix_threshold times as often as the favourite get no
            # weight (Lanctot et al.). The default 1.0 keeps only the favourites, which
            # measured strongest against fixed opponents; lower values play mixed.
            visits = [root.children_n.get(a, 0) for a in legal]
            cut = self.mix_threshold * max(visits)
            weights = [v if v >= cut else 0 for v in visits]
            return rng.choices(legal, weights=weights)[0] if any(weights) else rng.choice(legal)
        # Most visits; ties broken by mean return, then by the order of legal actions.
        return max(
            legal,
            key=lambda a: (root.children_n.get(a, 0), _mean(root, a)),
        )

    def root_values(self, observation: Observation) -> dict[Action, tuple[int, float | None]]:
        """Search ``observation``'s decision as :meth:`act` would (the same seeded streams,
        the seat's own information only) and give each legal action's visits and mean
        return to the seat (None where it was never tried); a judge reads these."""
        legal = observation.legal_actions
        self._memory.see(observation)
        if len(legal) == 1:
            return {legal[0]: (0, None)}
        root, _, _ = self._search(observation)
        return {
            a: (
                root.children_n.get(a, 0) if root else 0,
                _mean(root, a) if root and root.children_n.get(a) else None,
            )
            for a in legal
        }

    def _search(self, observation: Observation) -> tuple[_Node | None, bool, random.Random]:
        """Run one decision's search: its root node (None if never reached), whether the
        decision is simultaneous, and the decision's search stream."""
        legal = observation.legal_actions
        # A fresh stream per decision keeps choices reproducible for a fixed seed and
        # iteration budget, whatever happened earlier in the game.
        # Separate streams for sampling hidden parts and for the search itself, so that
        # states a seat cannot tell apart are searched with the very same choices.
        self._decisions += 1
        sample_rng = make_rng(self.seed, self.name, self._decisions, "determinize")
        rng = make_rng(self.seed, self.name, self._decisions, "search")
        player = self._player = observation.player
        tree: dict[tuple[int, Hashable], _Node] = {}
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        self._root_actions = None
        if self._propose is not None:
            # Search only what the rollout policy would play in some of a few samples.
            propose_rng = make_rng(self.seed, self.name, self._decisions, "propose")
            self._root_actions = proposals(
                lambda rng: self._sample(observation, rng),
                self._propose,
                player,
                self.candidates,
                propose_rng,
            )
            # Progressive widening: the proposals agree (one distinct move in half of The
            # Triangle Clock's decisions), so more time bought nothing; the other moves join
            # the root one by one as its visits grow, in an order drawn once per decision.
            self._extras = [a for a in legal if a not in self._root_actions]
            propose_rng.shuffle(self._extras)
        while True:
            if deadline is None:
                if done >= self.iterations:
                    break
            elif time.perf_counter() >= deadline and done > 0:
                break
            # Every seat of a simultaneous decision searches from its start, whatever the
            # others have (secretly) submitted already.
            start = self._sample(observation, sample_rng)
            self._root_visits = done
            self._iterate(start, tree, rng)
            done += 1
        self.last_iterations = done
        # Every sample shares the seat's information set, so the last one names the root
        # (asked once: a key costs as much as a step of the search).
        root_key = (player, start.information_key(player))
        return tree.get(root_key), len(start.to_act) > 1, rng

    def _iterate(
        self, state: State[Any], tree: dict[tuple[int, Hashable], _Node], rng: random.Random
    ) -> None:
        path: list[tuple[_Node, Action, int]] = []
        expanded = False
        while not state.is_over:
            # A simultaneous decision is one joint step: each seat picks from its own node
            # (decoupled UCT), none of them seeing what the others pick.
            acting = state.to_act
            searched = acting if self._choose is None else [p for p in acting if p == self._player]
            keys = [(p, state.information_key(p)) for p in searched]
            new = [k for k in keys if k not in tree]
            if new:
                if expanded:
                    break  # one expansion per iteration; the rest is rollout
                for k in new:
                    tree[k] = _Node()
                expanded = True
            picks = [
                (tree[k], self._select(tree[k], self._legal(state, k[0], not path), rng), k[0])
                for k in keys
            ]
            if len(searched) < len(acting):
                # Every modelled choice is made before any choice of this step is applied.
                choose = self._choose
                assert choose is not None
                chosen = {p: a for _, a, p in picks}
                for p in acting:
                    if p not in chosen:
                        chosen[p] = self._modelled_choice(state, p, choose, rng)
                for p in acting:
                    state = state._next(p, chosen[p])
            else:
                for _, action, p in picks:
                    state = state._next(p, action)
            path.extend(picks)
        returns = self._rollout(state, rng)
        for node, action, player in path:
            node.visits += 1
            node.children_n[action] = node.children_n.get(action, 0) + 1
            node.children_w[action] = node.children_w.get(action, 0.0) + returns[player]

    def _legal(self, state: State[Any], player: int, at_root: bool) -> list[Action]:
        legal = state.legal_actions(player)
        if at_root and player == self._player and self._root_actions:
            allowed = self._root_actions
            if self.widen:
                more = int(self.widen * math.sqrt(self._root_visits))
                allowed = allowed | set(self._extras[:more])
            kept = [a for a in legal if a in allowed]
            return kept or legal
        return legal

    def _select(self, node: _Node, legal: list[Action], rng: random.Random) -> Action:
        children_n, children_w = node.children_n, node.children_w
        if len(children_n) < len(legal):
            untried = [a for a in legal if a not in children_n]
            if untried:
                if not self._perfect:
                    self._count_available(node, legal)
                return rng.choice(untried)
        c = self.c
        if self._perfect:
            # Every legal action is available at every visit: the parent's visits count.
            log_n = math.log(node.visits + 1)
            return max(
                legal,
                key=lambda a: children_w[a] / children_n[a] + c * math.sqrt(log_n / children_n[a]),
            )
        self._count_available(node, legal)
        available = node.available
        return max(
            legal,
            key=lambda a: (
                children_w[a] / children_n[a]
                + c * math.sqrt(math.log(available[a]) / children_n[a])
            ),
        )

    @staticmethod
    def _count_available(node: _Node, legal: list[Action]) -> None:
        available = node.available
        for a in legal:
            available[a] = available.get(a, 0) + 1

    def _rollout(self, state: State[Any], rng: random.Random) -> tuple[float, ...]:
        if self._playout is not None:
            return state.returns if state.is_over else self._playout(state, rng.getrandbits(31))
        return engine_rollout(state, rng, self.rollout_limit)


def _mean(node: _Node, action: Action) -> float:
    n = node.children_n.get(action, 0)
    return node.children_w.get(action, 0.0) / n if n else float("-inf")


class ISMCTSAgent(MCTSAgent):
    """Information-set MCTS: the same search, named for hidden-information games."""

    name = "ismcts"
