"""Erosion (John Douglass, Sierra Madre Games): mountains grow from below and erode from
above; see :mod:`.rules`."""

from meeple.core.game import register_renderer
from meeple.core.registry import register_agent, register_batch, register_playout
from meeple.games.erosion.agents import HeuristicAgent
from meeple.games.erosion.cards import CardError, standard_cards, standard_legends
from meeple.games.erosion.render import render_state
from meeple.games.erosion.rules import (
    Choose,
    Draw,
    ErosionAction,
    ErosionGame,
    ErosionOptions,
    ErosionState,
    Fault,
    Fluvial,
    Guess,
    Hillslope,
    Pass,
    Pay,
    Redraw,
    Transport,
    Trigger,
    Uplift,
    Weather,
)

# The agents and the drawing import the rules, so the package offers them: the rules module
# imports neither.
register_agent("erosion", "heuristic", HeuristicAgent)
register_renderer(ErosionGame, render_state)

# The compiled rules import the rules, so they are offered to search from the package; they
# serve every option (an option their check refused would keep the engine's rollouts).
# ``values`` plays a flat search's candidates in a world in one call. By name: numba is
# imported where search or a batch first asks for them.
_RULES = f"{__name__}.compiled.rules"
register_playout("erosion", f"{_RULES}:playout", f"{_RULES}:served", values=f"{_RULES}:values")
# Many games at once for the research environments (meeple.envs.vector), on the same rules.
register_batch("erosion", f"{__name__}.compiled.batch:ErosionBatch")


__all__ = [
    "CardError",
    "Choose",
    "Draw",
    "ErosionAction",
    "ErosionGame",
    "ErosionOptions",
    "ErosionState",
    "Fault",
    "Fluvial",
    "Guess",
    "Hillslope",
    "Pass",
    "Pay",
    "Redraw",
    "Transport",
    "Trigger",
    "Uplift",
    "Weather",
    "standard_cards",
    "standard_legends",
]
