"""The designer's lab: simulations, match-ups and their statistics."""

from meeple.lab.matchup import MatchupResult, head_to_head
from meeple.lab.stats import wilson_interval

__all__ = ["MatchupResult", "head_to_head", "wilson_interval"]
