"""Erd in words for a move log: the moves (``Game.log_words``: "put 1 Heavy, 2 Decoys on Rush
(worth 2) and 2 Heavies, 1 Light on Defense (worth 7 with 1 Turret)") and the combats a
reveal starts (``Game.log_after``), in the sentences the terminal's board tells them in.

An allocation is secret until both are in: these words name its cards, so a log shows them
to the other seat only once the rules reveal the round (the server's log and the terminal's
both hold back a move of a simultaneous decision until it is complete), as the notation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.game import Player
from meeple.core.words import counted
from meeple.games.erd.pieces import CONVERSION_STEP, TURRET_VALUE, Allocate, Cards
from meeple.games.erd.rounds import Combat, other

if TYPE_CHECKING:
    from meeple.games.erd.rules import ErdGame, ErdState


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


def describe_combat(game: ErdGame, combat: Combat) -> list[str]:
    """What happened in a combat, in the order of the rules, as sentences."""
    name = game.seat_name
    lines = []
    for p in (0, 1):
        q = other(p)
        verb = "beats" if combat.broke_through[p] else "does not beat"
        lines.append(
            f"{name(p)}'s Rush ({combat.rush[p]}) {verb} {name(q)}'s Defense ({combat.defense[q]})."
        )
    outcome = combat.outcome
    if outcome == "exact_tie":
        # The round's end may still end the game (the mercy rule, the round limit): told below.
        goes_on = "" if combat.ending is not None else " and the game goes on"
        lines.append(
            f"Both Rushes broke through with equal Rush + Defense and {_equal_rushes(game, combat)}"
            f": an exact tie. All Rush and Defense cards are discarded{goes_on}."
        )
    elif outcome == "held":
        lines.append("Both Defenses held.")
        lines.extend(
            line for p in (0, 1) if (line := _turrets_told(name(p), combat, p)) is not None
        )
        others = "Every other card" if any(combat.turrets_made) else "Every card"
        lines.append(f"{others} in the piles is discarded.")
    if combat.ending is not None and outcome not in ("exact_tie", "held"):
        lines.append(combat.ending.detail + ".")
        return lines
    if game.options.turret_lifetime == "one_combat" and any(combat.turrets):
        lines.append("The Turrets that defended in this combat are now plain discarded Heavies.")
    back = []
    for p in (0, 1):
        got = Cards(light=combat.lights_back[p], decoy=combat.decoys_back[p])
        back.append(f"{name(p)} takes back {got.words()}")
    lines.append("Recovery: " + "; ".join(back) + ".")
    if combat.escalation:
        parts = []
        for p in (0, 1):
            got = Cards(heavy=combat.escalation_heavies[p], light=combat.escalation_lights[p])
            parts.append(f"{name(p)} takes back {got.words()}")
        # Both players' Heavies: six in the rules, another number under the reserve option.
        heavies = 2 * game.version.heavies
        lines.append(f"All {heavies} Heavies were discarded: Escalation! " + "; ".join(parts) + ".")
    if combat.ending is not None:
        lines.append(combat.ending.detail + ".")
    return lines


def _equal_rushes(game: ErdGame, combat: Combat) -> str:
    """What was equal about the Rushes of an exact tie: their values, or (option
    ``rush_tiebreak=cards``) their numbers of cards, whose values may differ."""
    if game.options.rush_tiebreak == "cards":
        cards = combat.allocations[0].rush.total
        return f"Rush piles of the same size ({counted(cards, 'card')} each)"
    return "equal Rush"


def _turrets_told(who: str, combat: Combat, p: Player) -> str | None:
    """The Turrets a held Defense made, and why it made fewer than its full 3 points earned
    (only the Heavies of its Defense pile can become Turrets); None where it earned none."""
    excess = combat.defense[p] - combat.rush[other(p)]
    earned, made = excess // CONVERSION_STEP, combat.turrets_made[p]
    if earned <= 0:
        return None
    exceeded = f"{who}'s Defense exceeded the Rush by {excess}"
    if made == earned:
        heavies = "Heavy becomes a Turret" if made == 1 else "Heavies become Turrets"
        return f"{exceeded}: {made} defending {heavies}."
    worth = f"worth {counted(earned, 'Turret')}"
    if made == 0:
        return f"{exceeded}, {worth}, but its Defense pile held no Heavy to become one."
    held = (
        "1 Heavy, which becomes a Turret" if made == 1 else f"{made} Heavies, which become Turrets"
    )
    return f"{exceeded}, {worth}, but its Defense pile held only {held}."


def combat_when(combat: Combat) -> str:
    """``game 1, round 3``: which combat it was."""
    return f"game {combat.game_number}, round {combat.round}"
