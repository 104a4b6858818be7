"""Squad Combat's moves in words for a move log (``Game.log_words``): "had Red Vanguard (0a)
perform Slash (attack card)", "dropped a 6 from Red Vanguard's dice (0a keeps 3)".

Every seat and every spectator is shown the same words, so they name only what the table
sees once the move is made: the cards a move plays or discards (face up from then on), the
characters, their dice and the card being performed; never a card still in a hand or deck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.game import Player
from meeple.games.squad_combat.actions import (
    Die,
    Discard,
    Done,
    Drop,
    NoDie,
    Pass,
    PayDie,
    Play,
    Refresh,
    SquadAction,
    Target,
)
from meeple.games.squad_combat.pieces import (
    ATTACK_DIE,
    BOOST_DIE,
    END_WINDOW,
    PAY_CARD,
    REACT,
    REFRESH_WINDOW,
)

if TYPE_CHECKING:
    from meeple.games.squad_combat.rules import SquadCombatState

WINDOW_WORDS = {
    REACT: "the reaction window",
    END_WINDOW: "the end-of-turn window",
    REFRESH_WINDOW: "the window before a refresh",
}


def move_words(state: SquadCombatState, player: Player, action: SquadAction) -> str:
    """``action`` played by ``player`` from ``state`` in words (the step it answers, from
    ``state``, says what a die or a discard was for)."""
    game = state.game
    kind = state.step.kind
    perf = state.top
    performed = game.cards[perf.card].name if perf is not None else "the card"
    if isinstance(action, Play):
        card = game.cards[game.content.card_index[action.card]]
        return f"had {game.who(player, action.slot, state)} perform {card.name} ({card.kind} card)"
    if isinstance(action, Refresh):
        ch = state.parties[player][action.slot]
        spec = game.characters[ch.card]
        return (
            f"refreshed the dice of {game.who(player, action.slot, state)}: it pays "
            f"{spec.refresh} energy and rolls {spec.dice_pool} new dice (its action this phase)"
        )
    if isinstance(action, Pass):
        return "passed: no more actions this turn (edges still allowed)"
    if isinstance(action, PayDie) and perf is not None:
        return f"paid the [{perf.dice_due[0]}] die cost of {performed} with a {action.value}"
    if isinstance(action, Discard):
        thrown = game.cards[game.content.card_index[action.card]].name
        if kind == PAY_CARD:
            return f"discarded {thrown} to pay the card cost (C) of {performed}"
        return f"discarded {thrown} at the end of the turn"
    if isinstance(action, Target):
        whom = game.who(action.seat, action.slot, state)
        if perf is not None and game.cards[perf.card].kind == "attack":
            return f"attacked {whom} with {performed}"
        return f"aimed {performed} at {whom}"
    if isinstance(action, Die | NoDie):
        return _die_words(state, kind, action, performed)
    if isinstance(action, Drop):
        slot = state.dropping
        ch = state.parties[player][slot]
        pool = game.characters[ch.card].dice_pool
        return (
            f"removed a {action.value} from the dice of {game.who(player, slot, state)} "
            f"(a character keeps as many dice as its pool, {pool})"
        )
    if isinstance(action, Done):
        if kind in WINDOW_WORDS:
            return f"closed {WINDOW_WORDS[kind]} (no more edges)"
        return "kept the rest of their hand (no more end-of-turn discards)"
    raise TypeError(f"not a Squad Combat action for this step: {action!r}")


def _die_words(state: SquadCombatState, kind: str, action: Die | NoDie, performed: str) -> str:
    role = {BOOST_DIE: "boost", ATTACK_DIE: "attack"}.get(kind, "defense")
    if isinstance(action, NoDie):
        return f"spent no {role} die (it counts as 0)"
    perf = state.top
    if kind == BOOST_DIE and perf is not None and perf.target is not None:
        whom = state.game.who(*perf.target, state)
        return f"chose the {action.value} of {whom} for {performed} to raise"
    return f"spent a {action.value} as the {role} die"
