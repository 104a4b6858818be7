"""Erd's moves in words for a move log (``Game.log_words``): "put 1 Heavy, 2 Decoys on Rush
(worth 2) and 2 Heavies, 1 Light on Defense (worth 7 with 1 Turret)".

An allocation is secret until both are in: these words name its cards, so a log shows them
to the other seat only once the rules reveal the round (the server's log and the terminal's
both hold back a move of a simultaneous decision until it is complete), as the notation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.game import Player
from meeple.core.words import counted
from meeple.games.erd.pieces import TURRET_VALUE, Allocate

if TYPE_CHECKING:
    from meeple.games.erd.rules import ErdState


def move_words(state: ErdState, player: Player, action: Allocate) -> str:
    """``player``'s allocation from ``state`` in words: each pile's cards and its value (a
    Defense with its owner's Turrets, which defend with it)."""
    turrets = state.sides[player].turrets
    defense = action.defense.defense_value + TURRET_VALUE * turrets
    standing = f" with {counted(turrets, 'Turret')}" if turrets else ""
    return (
        f"put {action.rush.words()} on Rush (worth {action.rush.rush_value}) and "
        f"{action.defense.words()} on Defense (worth {defense}{standing})"
    )
