"""Erosion (John Douglass, Sierra Madre Games): mountains grow from below and erode from
above; see :mod:`.rules`."""

from meeple.games.erosion.cards import CardError, standard_cards, standard_legends
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
