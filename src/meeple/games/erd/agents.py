"""Erd-specific agents."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from meeple.core.agent import Observation, check_budget
from meeple.core.game import Game, Player
from meeple.core.matrix_games import solve_matrix_game
from meeple.core.rng import make_rng
from meeple.games.erd.rules import Allocate, Cards, ErdGame, ErdState, Side, resolve_round


class HeuristicAgent:
    """Looks one round ahead and plays that round as the matrix game it is.

    For every pair of allocations (its own against the opponent's) it plays the round out
    with the rules themselves (:func:`~meeple.games.erd.rules.resolve_round`) on the public
    table: a won game scores 1, a lost one -1, a game that goes on a small material balance
    (Heavies, Lights and Turrets against the opponent's). It then draws its allocation
    (seeded) from an optimal mixed strategy of that one-round zero-sum game. Erd's
    allocations are simultaneous, so any fixed choice can be read and answered: an agent
    that always opened with its best-on-average allocation lost every match to a player
    who always made the reply to it. Strategies are a pure function of the public position,
    so they are remembered (every game starts from the same position).
    """

    name = "heuristic"

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        heavy: float = 0.12,
        light: float = 0.04,
        turret: float = 0.06,
    ) -> None:
        """``heavy``, ``light``, ``turret``: what a Heavy or a Light in Reserve and a standing
        Turret are worth while a game goes on (a won game is 1)."""
        # A card in Reserve or a standing Turret is never worth less than none.
        for name, value in (("heavy", heavy), ("light", light), ("turret", turret)):
            check_budget(self.name, name, value, low=0, allowed="a number of at least 0")
        assert isinstance(game, ErdGame)
        self.game: ErdGame = game
        self.rng = make_rng(seed, "erd-heuristic")
        self.weights = (heavy, light, turret)

    def act(self, observation: Observation) -> Allocate:
        """An allocation drawn from the one-round game's optimal mix."""
        state = observation.determinize(self.rng)
        assert isinstance(state, ErdState)
        # Of the round's number only whether it has reached the round limit changes what a
        # round is worth (the number itself is only in the words): every round before the
        # limit asks as round 1, so the cache answers a position that comes back, as in a
        # long game of repeated allocations, instead of solving it again each round.
        limit = self.game.options.round_limit
        round_number = state.round if state.round >= limit else 1
        mix = one_round_strategy(
            self.game, self.weights, state.sides, observation.player, round_number
        )
        essences, weights = zip(*mix.items(), strict=True)
        chosen = self.rng.choices(essences, weights=weights)[0]
        legal = observation.legal_actions
        return self.rng.choice([a for a in legal if essential(self.game, a) == chosen])


@lru_cache(maxsize=4096)
def one_round_strategy(
    game: ErdGame,
    weights: tuple[float, float, float],
    sides: tuple[Side, Side],
    player: Player,
    round_number: int,
) -> Mapping[Allocate, float]:
    """``player``'s optimal mix (allocation -> probability, zero weights left out) in the
    zero-sum game of one round: 1 for a won game, -1 for a lost one, else the material
    balance after the round. Allocations that play alike (:func:`essential`) are one row."""
    opponent = 1 - player
    mine = sorted({essential(game, a) for a in game.allocations(sides[player].reserve)}, key=str)
    theirs = sorted(
        {essential(game, a) for a in game.allocations(sides[opponent].reserve)}, key=str
    )
    payoff = [[round_outcome(game, weights, sides, player, round_number, a, b) for b in theirs]
              for a in mine]  # fmt: skip
    solution = solve_matrix_game(payoff)
    mix = {a: p for a, p in zip(mine, solution.row, strict=True) if p > 1e-9}
    return MappingProxyType(mix)  # shared by every caller of the cache: read-only


def round_outcome(
    game: ErdGame,
    weights: tuple[float, float, float],
    sides: tuple[Side, Side],
    player: Player,
    round_number: int,
    mine: Allocate,
    theirs: Allocate,
) -> float:
    """What one round of ``mine`` against ``theirs`` is worth to ``player``: 1 or -1 for a
    game it ends, else the material balance it leaves."""
    opponent = 1 - player
    pair = (mine, theirs) if player == 0 else (theirs, mine)
    report, after = resolve_round(game, sides, pair, round_number)
    if report.ending is None:
        return material(weights, after[player]) - material(weights, after[opponent])
    winner = report.ending.winner
    return 0.0 if winner is None else 1.0 if winner == player else -1.0


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
