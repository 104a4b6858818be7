"""Erd-specific agents."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from meeple.core.agent import Observation
from meeple.core.game import Game, Player
from meeple.core.rng import make_rng
from meeple.games.erd.rules import Allocate, Cards, ErdGame, ErdState, Side, resolve_round


class HeuristicAgent:
    """Looks one round ahead: plays the allocation with the best average outcome against every
    allocation the opponent could make, each equally likely.

    A won game scores 1 and a lost one -1; a game that goes on scores a small material
    balance (Heavies, Lights and Turrets against the opponent's). The search uses the rules
    themselves (:func:`~meeple.games.erd.rules.resolve_round`) on the public table. Scores are
    a pure function of the position, so they are remembered (every game starts from the same
    position). It chooses at random (seeded) among the allocations within ``tolerance`` of the
    best score: in a simultaneous game a player who always makes the same choice in the same
    position is easy to read.
    """

    name = "heuristic"

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        heavy: float = 0.12,
        light: float = 0.04,
        turret: float = 0.06,
        tolerance: float = 0.02,
    ) -> None:
        """``heavy``, ``light``, ``turret``: what a Heavy or a Light in Reserve and a standing
        Turret are worth while a game goes on (a won game is 1); ``tolerance``: how far below
        the best score an allocation may be and still be chosen."""
        assert isinstance(game, ErdGame)
        self.game: ErdGame = game
        self.rng = make_rng(seed, "erd-heuristic")
        self.weights = (heavy, light, turret)
        self.tolerance = tolerance

    def act(self, observation: Observation) -> Allocate:
        """One of the allocations with the best one-round outcome, at random."""
        state = observation.determinize(self.rng)
        assert isinstance(state, ErdState)
        scores = score_allocations(
            self.game, self.weights, state.sides, observation.player, state.round
        )
        legal = observation.legal_actions
        best = max(scores[a] for a in legal)
        return self.rng.choice([a for a in legal if scores[a] >= best - self.tolerance - 1e-9])


@lru_cache(maxsize=4096)
def score_allocations(
    game: ErdGame,
    weights: tuple[float, float, float],
    sides: tuple[Side, Side],
    player: Player,
    round_number: int,
) -> Mapping[Allocate, float]:
    """Average outcome of each of ``player``'s allocations over the opponent's, all equally
    likely: 1 for a won game, -1 for a lost one, else the material balance after the round."""
    opponent = 1 - player
    mine = game.allocations(sides[player].reserve)
    theirs = Counter(essential(game, a) for a in game.allocations(sides[opponent].reserve))
    total = sum(theirs.values())
    by_essence: dict[Allocate, float] = {}
    scores = {}
    for action in mine:
        key = essential(game, action)
        if key not in by_essence:
            value = 0.0
            for reply, count in theirs.items():
                pair = (key, reply) if player == 0 else (reply, key)
                report, after = resolve_round(game, sides, pair, round_number)
                if report.ending is None:
                    outcome = material(weights, after[player]) - material(weights, after[opponent])
                else:
                    winner = report.ending.winner
                    outcome = 0.0 if winner is None else 1.0 if winner == player else -1.0
                value += count * outcome
            by_essence[key] = value / total
        scores[action] = by_essence[key]
    return MappingProxyType(scores)  # shared by every caller of the cache: read-only


def essential(game: ErdGame, action: Allocate) -> Allocate:
    """The allocation with what cannot change the outcome left out.

    In the original rules a Decoy is worth nothing and always comes back, so Decoys in a pile
    play exactly like Decoys kept in Reserve.
    """
    version = game.version
    if version.decoy_refill is None and version.mercy is None:
        return Allocate(Cards(*action.rush[:2]), Cards(*action.defense[:2]))
    return action


def material(weights: tuple[float, float, float], side: Side) -> float:
    """What a side has to fight with next round: weighted Heavies and Lights in Reserve, and
    Turrets."""
    heavy, light, turret = weights
    return heavy * side.reserve.heavy + light * side.reserve.light + turret * side.turrets
