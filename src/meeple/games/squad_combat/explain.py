"""Why a Squad Combat action is not legal now, in the rulebook's terms."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.game import Player
from meeple.games.squad_combat.actions import (
    Die,
    Discard,
    Drop,
    PayDie,
    Play,
    Refresh,
    SquadAction,
    Target,
)
from meeple.games.squad_combat.pieces import (
    ATTACK_DIE,
    BOOST_DIE,
    DEFENSE_DIE,
    DROP,
    END_DISCARD,
    PAY_CARD,
    PAY_DIE,
    PHASE,
    SLOTS,
    TARGET,
    dice_text,
)
from meeple.games.squad_combat.reading import WINDOWS

if TYPE_CHECKING:
    from meeple.games.squad_combat.rules import SquadCombatState


def explain(state: SquadCombatState, player: Player, action: SquadAction) -> str:
    """Why an action is not legal now, in the rulebook's terms."""
    game = state.game
    kind, seat = state.step
    legal = state.legal_actions(player)
    shown = ", ".join(str(a) for a in legal[:12]) + (", ..." if len(legal) > 12 else "")
    now = f"now it is {game.seat_name(seat)}'s {kind}; legal: {shown}"
    reason = _specific_reason(state, player, kind, action)
    return f"{reason}; {now}" if reason else f"{action} is not possible: {now}"


NO_CARD_STEPS = (TARGET, BOOST_DIE, ATTACK_DIE, DEFENSE_DIE, PAY_DIE, DROP)
"""The steps where a seat chooses a die or a target, and plays no card."""


def unplayable(state: SquadCombatState, player: Player) -> dict[str, str]:
    """The cards of the seat's hand that no character can play now, each with why: the
    reason for each living character, once where they share it ("Slash is played only
    when attacking"), else one after another ("Vanguard shares no trait with Aimed
    Shot ...; Brawler cannot pay ..."): in the action phase and a reaction window, when the
    seat has a move to make. While it chooses a die or a target, every card, for that
    ("No card is played during the defense die choice"): its cards looked playable there.
    None where it chooses cards (to pay or discard) or has nothing to do."""
    kind, _ = state.step
    if player not in state.to_act:
        return {}
    if kind in NO_CARD_STEPS and state.legal_actions(player):
        keys = state.game.card_keys
        why = f"No card is played during the {kind}"
        return {keys[k]: why for k in dict.fromkeys(state.hands[player])}
    if kind not in (PHASE, *WINDOWS):
        return {}
    legal = state.legal_actions(player)
    if not legal:
        return {}
    played = {a.card for a in legal if isinstance(a, Play)}
    keys = state.game.card_keys
    party = state.parties[player]
    living = [slot for slot in range(len(party)) if not party[slot].removed]
    out = {}
    for k in dict.fromkeys(state.hands[player]):
        if keys[k] in played:
            continue
        reasons = (_specific_reason(state, player, kind, Play(keys[k], s)) for s in living)
        out[keys[k]] = "; ".join(dict.fromkeys(r for r in reasons if r))
    return out


def _specific_reason(
    state: SquadCombatState, player: Player, kind: str, action: SquadAction
) -> str | None:
    game = state.game
    perf = state.top
    if isinstance(action, Play) and kind in (PHASE, *WINDOWS):
        k = game.content.card_index.get(action.card)
        if k is None:
            return None
        card = game.cards[k]
        ch = state.parties[player][action.slot]
        spec = game.characters[ch.card]
        if k not in state.hands[player]:
            return f"{game.seat_name(player)} has no {card.name} in hand"
        if kind == PHASE and card.kind == "edge" and card.timing != "anytime":
            return f"{card.name} is played only when {card.timing}"
        if kind != PHASE and card.kind != "edge":
            return f"only edges are played in a {kind}; {card.name} is an {card.kind}"
        if kind != PHASE and card.timing not in state.window_timings(player):
            return f"{card.name} is played only when {card.timing}"
        if ch.removed:
            return f"{spec.name} ({player}{SLOTS[action.slot]}) has been removed from the game"
        if not game.matches[ch.card][k]:
            return (
                f"{spec.name} shares no trait with {card.name} "
                f"({'/'.join(card.traits)} vs {'/'.join(spec.traits)})"
            )
        hand_after = len(state.hands[player]) - 1
        if not state.can_perform(player, action.slot, k, hand_after):
            # What the cost asks for, and only that: "other cards in hand 4" beside a cost of
            # energy and a die read as a want of cards (a phone newcomer's finding).
            cost = card.cost
            has = [f"energy left {state.energy_left(player, action.slot)}"] if cost.energy else []
            if cost.dice:
                has.append(f"dice {dice_text(ch.dice)}" if ch.dice else "no dice")
            if cost.cards:
                has.append(f"other cards in hand {hand_after}")
            return f"{spec.name} cannot pay {cost} ({cost.words}): {', '.join(has)}"
        return f"{card.name} has nothing to act on now"
    if isinstance(action, Refresh) and kind == PHASE:
        ch = state.parties[player][action.slot]
        spec = game.characters[ch.card]
        if ch.removed:
            return f"{spec.name} has been removed from the game"
        return (
            f"refreshing {spec.name} costs {spec.refresh} energy; it has "
            f"{state.energy_left(player, action.slot)} left"
        )
    if perf is not None and isinstance(action, PayDie) and kind == PAY_DIE:
        dice = state.parties[player][perf.slot].dice
        return (
            f"the cost due is [{perf.dice_due[0]}]: pay with a die of {perf.dice_due[0]} or "
            f"more (dice: {dice_text(dice)})"
        )
    if perf is not None and isinstance(action, Die) and perf.target is not None:
        if kind == BOOST_DIE:
            owner, slot = perf.target
        elif kind == ATTACK_DIE:
            owner, slot = player, perf.slot
        elif kind == DEFENSE_DIE:
            owner, slot = perf.target
        else:
            return None
        return (
            f"{game.who(owner, slot, state)} has no die showing {action.value} "
            f"(dice: {dice_text(state.parties[owner][slot].dice)}"
            + ("; a 6 cannot be raised)" if kind == BOOST_DIE else ")")
        )
    if isinstance(action, Discard) and kind in (PAY_CARD, END_DISCARD):
        return f"{game.seat_name(player)} has no {action.card} in hand"
    if perf is not None and isinstance(action, Target) and kind == TARGET:
        card = game.cards[perf.card]
        if card.kind == "attack":
            return f"{card.name} targets an enemy character in play"
        return f"{card.name} targets one of your characters it would change"
    if isinstance(action, Drop) and kind == DROP:
        return f"there is no die showing {action.value} to drop"
    return None
