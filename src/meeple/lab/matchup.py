"""Two agents against each other over many games, seats alternated."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from meeple.agents import make_agent, play_game
from meeple.core.game import Game
from meeple.core.rng import derive_seed
from meeple.lab.stats import wilson_interval


@dataclass
class MatchupResult:
    """Wins, draws and losses of agent A against agent B."""

    a: str
    b: str
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float:
        """Share of games A won."""
        return self.wins / self.games if self.games else 0.0

    def win_interval(self) -> tuple[float, float]:
        """95% Wilson interval of A's win rate."""
        return wilson_interval(self.wins, self.games)

    def summary(self) -> str:
        """One line: ``greedy vs random: 95.5% wins [92.0, 97.5] (191 W / 7 D / 2 L of 200)``."""
        lo, hi = self.win_interval()
        return (
            f"{self.a} vs {self.b}: {100 * self.win_rate:.1f}% wins "
            f"[95% CI {100 * lo:.1f}, {100 * hi:.1f}] "
            f"({self.wins} W / {self.draws} D / {self.losses} L of {self.games})"
        )


def head_to_head(
    game: Game,
    a: str,
    b: str,
    games: int,
    seed: int = 0,
    on_game: Callable[[MatchupResult], None] | None = None,
) -> MatchupResult:
    """Play ``games`` games of agent spec ``a`` against ``b``.

    A takes seat ``k % num_players`` in game k and B every other seat, so A holds each seat
    equally often when ``games`` is a multiple of the seats (else the first seats once
    more); game k uses seed ``derive_seed(seed, "matchup", k)``, so a run is repeatable.
    A's outcome is the sign of its seat's return.
    """
    result = MatchupResult(a, b)
    n = game.num_players
    for k in range(games):
        game_seed = derive_seed(seed, "matchup", k)
        seat_a = k % n
        agents = [
            make_agent(a if p == seat_a else b, game, derive_seed(game_seed, "seat", p))
            for p in range(n)
        ]
        outcome = play_game(game, agents, game_seed).state.returns[seat_a]
        if outcome > 0:
            result.wins += 1
        elif outcome < 0:
            result.losses += 1
        else:
            result.draws += 1
        if on_game is not None:
            on_game(result)
    return result
