"""Erd: The Grim Triangle: simultaneous hidden allocation to Rush and Defense; see :mod:`.rules`."""

from meeple.core.game import register_renderer
from meeple.core.registry import register_agent, register_batch
from meeple.games.erd.agents import HeuristicAgent
from meeple.games.erd.render import render_state
from meeple.games.erd.rules import (
    VERSIONS,
    Allocate,
    Cards,
    Combat,
    ErdGame,
    ErdOptions,
    ErdState,
    GameEnd,
    RulesVersion,
    Side,
    resolve_round,
)

# The agents and the drawing import the rules, so the package offers them: the rules module
# imports neither.
register_agent("erd", "heuristic", HeuristicAgent)
register_renderer(ErdGame, render_state)
# The batched rules import the rules, so they are offered from the package too, by name:
# numba is imported where a batch is first asked for.
register_batch("erd", f"{__name__}.compiled.batch:ErdBatch")

__all__ = [
    "VERSIONS",
    "Allocate",
    "Cards",
    "Combat",
    "ErdGame",
    "ErdOptions",
    "ErdState",
    "GameEnd",
    "RulesVersion",
    "Side",
    "resolve_round",
]
