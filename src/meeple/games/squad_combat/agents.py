"""Squad Combat agents."""

from __future__ import annotations

from collections.abc import Callable

from meeple.core.agent import Observation
from meeple.core.game import Game
from meeple.core.rng import make_rng
from meeple.games.squad_combat.content import (
    DIE_FACES,
    PARTY_SIZE,
    TARGETED_EFFECTS,
    Card,
    dice_cover,
)
from meeple.games.squad_combat.rules import (
    ATTACK_DIE,
    BOOST_DIE,
    DEFENSE_DIE,
    DONE,
    DROP,
    END_DISCARD,
    END_WINDOW,
    NO_DIE,
    PASS,
    PAY_CARD,
    PAY_DIE,
    PHASE,
    REACT,
    REFRESH_WINDOW,
    TARGET,
    Die,
    Discard,
    Drop,
    PayDie,
    Play,
    Refresh,
    SquadAction,
    SquadCombatState,
    Target,
)

PASS_VALUE = 0.25
"""An action must be worth more than this to be taken instead of passing."""
ATTACK_USEFULNESS = 3.0
"""How much the agent values keeping an attack card (other cards rank below)."""


class HeuristicAgent:
    """Attacks where it expects to hit (a kill first), defends with the smallest die that
    saves the wound, plays an edge only when it turns a hit into a miss or a miss into a hit,
    heals real wounds, refreshes empty dice pools, and discards cards its squad cannot use.

    It reads only the table and its own hand (a determinized state, whose other hands are
    samples it never looks at).
    """

    name = "heuristic"

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = make_rng(seed, "squad-combat-heuristic")

    def act(self, observation: Observation) -> SquadAction:
        """The action this heuristic prefers at the pending step."""
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        state = observation.determinize(self.rng)
        assert isinstance(state, SquadCombatState)
        kind, seat = state.step
        choose: dict[str, Callable[[SquadCombatState, int, list[SquadAction]], SquadAction]] = {
            PHASE: self.phase,
            PAY_DIE: lambda s, p, legal: min(legal, key=_value),
            PAY_CARD: self.least_useful,
            TARGET: self.target,
            BOOST_DIE: lambda s, p, legal: max(legal, key=_value),
            ATTACK_DIE: self.attack_die,
            DEFENSE_DIE: self.defense_die,
            REACT: self.react,
            END_WINDOW: self.react,
            REFRESH_WINDOW: self.react,
            DROP: lambda s, p, legal: min(legal, key=_value),
            END_DISCARD: self.end_discard,
        }
        return choose[kind](state, seat, legal)

    # -- the action phase -------------------------------------------------------------------
    def phase(self, state: SquadCombatState, seat: int, legal: list[SquadAction]) -> SquadAction:
        """The most valuable play, refresh or pass."""
        best: list[SquadAction] = [PASS]
        best_value = PASS_VALUE
        for action in legal:
            if isinstance(action, Play):
                value = self.play_value(state, seat, action)
            elif isinstance(action, Refresh):
                value = self.refresh_value(state, seat, action.slot)
            else:
                continue
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return self.rng.choice(best)

    def play_value(self, state: SquadCombatState, seat: int, action: Play) -> float:
        """Expected worth of announcing this card with this performer."""
        game = state.game
        k = game.content.card_index[action.card]
        card = game.cards[k]
        if card.kind == "attack":
            dice = _after_paying(state.parties[seat][action.slot].dice, card)
            best = max(dice, default=0)
            return max(
                self.attack_value(state, card, best, target)
                for target in state.effect_targets(seat, card)
            ) - 0.15 * len(card.cost.dice)
        if card.effect == "heal":
            return max(_healable(state, t, card) for t in state.effect_targets(seat, card)) * 0.9
        if card.effect == "draw":
            return 0.6 if len(state.hands[seat]) <= 3 else 0.3
        if card.effect == "energy":
            return 0.4 if any(c.spent >= 2 for c in state.parties[seat] if not c.removed) else 0
        if card.effect == "boost":
            return 0.3
        return 0.0

    def attack_value(self, state: SquadCombatState, card: Card, best: int, target: tuple) -> float:
        """Damage weighted by the chance to beat the defender's best die, plus a kill bonus."""
        seat, slot = target
        ch = state.parties[seat][slot]
        life = state.game.characters[ch.card].life - state.damage(seat, slot)
        defense = max(ch.dice, default=0)
        rating = best + (card.hit or 0)
        chance = 1.0 if rating >= defense else 0.35
        damage = card.damage or 0
        kill = 3.0 if damage >= life else 0.0
        return chance * (damage + kill) + 0.1 * (10 - life)

    def refresh_value(self, state: SquadCombatState, seat: int, slot: int) -> float:
        """Worth refreshing when the character is short of dice, holds only low ones, or
        lacks the dice for an attack card in hand."""
        game = state.game
        ch = state.parties[seat][slot]
        pool = game.characters[ch.card].dice_pool
        missing = pool - len(ch.dice)
        low = sum(1 for d in ch.dice if d <= 2)
        blocked = any(
            game.cards[k].is_attack
            and game.matches[ch.card][k]
            and not dice_cover(ch.dice, game.cards[k].cost.dice)
            for k in set(state.hands[seat])
        )
        return 0.3 * missing + 0.15 * low + (0.8 if blocked else 0.0)

    # -- other decisions --------------------------------------------------------------------
    def target(self, state: SquadCombatState, seat: int, legal: list[SquadAction]) -> SquadAction:
        """Attack: where the hit lands and hurts most. Effects: the character it helps most."""
        perf = state.top
        assert perf is not None
        card = state.game.cards[perf.card]
        targets = [a for a in legal if isinstance(a, Target)]
        if card.kind == "attack":
            best = max(state.parties[seat][perf.slot].dice, default=0)
            return max(
                targets,
                key=lambda t: (self.attack_value(state, card, best, (t.seat, t.slot)), -t.slot),
            )
        if card.effect == "heal":
            return max(targets, key=lambda t: state.damage(t.seat, t.slot))
        if card.effect == "energy":
            return max(targets, key=lambda t: state.parties[t.seat][t.slot].spent)
        return max(
            targets,
            key=lambda t: max(
                (d for d in state.parties[t.seat][t.slot].dice if d < DIE_FACES), default=0
            ),
        )

    def attack_die(
        self, state: SquadCombatState, seat: int, legal: list[SquadAction]
    ) -> SquadAction:
        """The smallest die that beats the defender's best die; none if nothing does."""
        perf = state.top
        assert perf is not None and perf.target is not None
        card = state.game.cards[perf.card]
        defender = state.parties[perf.target[0]][perf.target[1]]
        # The die to find: what the rest of the rating leaves to beat the best defense die.
        rest = perf._replace(attack_die=None).attack_rating(card.hit)
        need = max(defender.dice, default=0) - rest
        if need <= 0:
            return NO_DIE
        dice = sorted(_value(a) for a in legal if isinstance(a, Die))
        for v in dice:
            if v >= need:
                return state.game.die[v]
        return state.game.die[dice[-1]] if dice and need - dice[-1] <= 2 else NO_DIE

    def defense_die(
        self, state: SquadCombatState, seat: int, legal: list[SquadAction]
    ) -> SquadAction:
        """The smallest die that makes the defense beat the attack (counting an edge in
        hand that could add to it); none if the wound cannot be saved."""
        perf = state.top
        assert perf is not None
        card = state.game.cards[perf.card]
        attack = perf.attack_rating(card.hit)
        extra = _edge_bonus(state, seat, "defending")
        for v in sorted(_value(a) for a in legal if isinstance(a, Die)):
            if v > attack - extra:
                return state.game.die[v]
        return NO_DIE

    def react(self, state: SquadCombatState, seat: int, legal: list[SquadAction]) -> SquadAction:
        """In an attack's window, an edge that turns the outcome in this seat's favour, the
        cheapest first. Unrestricted edges wait for the end of the turn, where spent energy
        is about to clear anyway: then the most valuable one worth playing."""
        perf = state.top
        game = state.game
        if perf is None:
            if state.step.kind == END_WINDOW:
                return self.end_of_turn_edge(state, seat, legal)
            return DONE
        card = game.cards[perf.card]
        if card.kind != "attack" or perf.target is None:
            return DONE
        attack = perf.attack_rating(card.hit)
        defense = perf.defense_rating()
        defending = seat == perf.target[0]
        useful = []
        for action in legal:
            if not isinstance(action, Play):
                continue
            edge = game.cards[game.content.card_index[action.card]]
            amount = edge.amount or 0
            saves = defending and edge.effect == "defense" and attack >= defense > attack - amount
            lands = (
                not defending and edge.effect == "attack" and defense > attack >= defense - amount
            )
            if saves or lands:
                useful.append(action)
        if not useful:
            return DONE
        return min(useful, key=lambda a: _cost_weight(game.cards[game.content.card_index[a.card]]))

    def end_of_turn_edge(
        self, state: SquadCombatState, seat: int, legal: list[SquadAction]
    ) -> SquadAction:
        """The unrestricted edge worth most now (energy it restores would clear anyway)."""
        best: SquadAction = DONE
        best_value = PASS_VALUE
        game = state.game
        for action in legal:
            if not isinstance(action, Play):
                continue
            if game.cards[game.content.card_index[action.card]].effect == "energy":
                continue
            value = self.play_value(state, seat, action)
            if value > best_value:
                best, best_value = action, value
        return best

    def least_useful(
        self, state: SquadCombatState, seat: int, legal: list[SquadAction]
    ) -> SquadAction:
        """The card its squad can use least (cards no living character can perform first)."""
        return min(legal, key=lambda a: _usefulness(state, seat, a))

    def end_discard(
        self, state: SquadCombatState, seat: int, legal: list[SquadAction]
    ) -> SquadAction:
        """Discard cards no living character of ours can ever perform; with no attack in
        hand, also the least useful cards, to draw towards one; then stop."""
        cards = [a for a in legal if isinstance(a, Discard)]
        dead = [a for a in cards if _usefulness(state, seat, a) == 0]
        if dead:
            return dead[0]
        if not any(_usefulness(state, seat, a) >= ATTACK_USEFULNESS for a in cards):
            return min(cards, key=lambda a: _usefulness(state, seat, a))
        return DONE


def _value(action: SquadAction) -> int:
    if isinstance(action, Die | PayDie | Drop):
        return action.value
    return 0


def _after_paying(dice: tuple[int, ...], card: Card) -> list[int]:
    """The dice left after paying the card's die costs with the smallest dice that do."""
    left = sorted(dice)
    for need in card.cost.dice:
        for i, d in enumerate(left):
            if d >= need:
                del left[i]
                break
    return left


def _healable(state: SquadCombatState, target: tuple[int, int], card: Card) -> float:
    ch = state.parties[target[0]][target[1]]
    damages = state.game.damages
    return float(
        max(
            (damages[w.card] for w in ch.wounds if damages[w.card] <= (card.amount or 0)), default=0
        )
    )


def _edge_bonus(state: SquadCombatState, seat: int, timing: str) -> int:
    """The largest bonus one edge in hand of this timing could add (if someone can pay it)."""
    game = state.game
    hand = state.hands[seat]
    best = 0
    for k in set(hand):
        card = game.cards[k]
        if (
            card.kind == "edge"
            and card.timing == timing
            and any(state.can_perform(seat, s, k, len(hand) - 1) for s in range(PARTY_SIZE))
        ):
            best = max(best, card.amount or 0)
    return best


def _cost_weight(card: Card) -> float:
    return card.cost.energy + 1.5 * len(card.cost.dice) + 2 * card.cost.cards


def _usefulness(state: SquadCombatState, seat: int, action: SquadAction) -> float:
    if not isinstance(action, Discard):
        return 99.0
    game = state.game
    k = game.content.card_index[action.card]
    card = game.cards[k]
    if not any(not c.removed and game.matches[c.card][k] for c in state.parties[seat]):
        return 0.0
    if card.kind == "attack":
        return ATTACK_USEFULNESS + (card.damage or 0) / 10
    if card.effect in TARGETED_EFFECTS:
        return 2.0
    return 1.0
