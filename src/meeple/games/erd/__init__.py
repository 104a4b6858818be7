"""Erd: The Grim Triangle: simultaneous hidden allocation to Rush and Defense; see :mod:`.rules`."""

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
