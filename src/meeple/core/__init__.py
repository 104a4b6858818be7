"""Game-agnostic contracts: games, states, actions, options, errors, registry, RNG, records."""

from meeple.core.agent import Agent, Observation
from meeple.core.errors import (
    IllegalAction,
    MeepleError,
    NotationError,
    OptionError,
    RecordError,
    UnknownGame,
)
from meeple.core.game import Action, Game, Player, State
from meeple.core.options import GameOptions
from meeple.core.record import GameRecord, Playthrough
from meeple.core.registry import GameInfo, games, make, register

__all__ = [
    "Action",
    "Agent",
    "Game",
    "GameInfo",
    "GameOptions",
    "GameRecord",
    "IllegalAction",
    "MeepleError",
    "NotationError",
    "Observation",
    "OptionError",
    "Player",
    "Playthrough",
    "RecordError",
    "State",
    "UnknownGame",
    "games",
    "make",
    "register",
]
