"""Questions about a Squad Combat position (shared by states and the working copy of a
transition): the pending step, what a character can perform, and the legal actions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.game import Player
from meeple.games.squad_combat.actions import DONE, NO_DIE, PASS, Play, SquadAction
from meeple.games.squad_combat.content import (
    DIE_FACES,
    PARTY_SIZE,
    TARGETED_EFFECTS,
    Card,
    dice_cover,
)
from meeple.games.squad_combat.pieces import (
    ATTACK_DIE,
    BOOST_DIE,
    DEFENSE_DIE,
    DROP,
    END_DISCARD,
    END_WINDOW,
    OVER,
    PAY_CARD,
    PAY_DIE,
    PHASE,
    REACT,
    REFRESH_WINDOW,
    RESOLVE,
    TARGET,
    Character,
    Performance,
    Step,
)

WINDOWS = (REACT, END_WINDOW, REFRESH_WINDOW)
"""The steps that offer edges (``done`` closes them)."""

if TYPE_CHECKING:
    from meeple.games.squad_combat.rules import SquadCombatGame


# -- reading a position (shared by states and the working copy of a transition) -------------
class Reading:
    """Questions about a position; every answer depends only on the fields."""

    __slots__ = ()
    game: SquadCombatGame
    order: tuple[int, ...]
    phase: int
    passed: tuple[bool, ...]
    parties: tuple[tuple[Character, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    decks: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    stack: tuple[Performance, ...]
    dropping: int
    discarding: tuple[int, ...]
    closing: tuple[int, ...]
    refreshing: int
    refresh_windows: tuple[int, ...]
    ended: str | None

    @property
    def step(self) -> Step:
        """The decision pending now, and the seat that makes it."""
        return self.find_step()

    def find_step(self) -> Step:
        """Work out :attr:`step` from the fields."""
        if self.ended is not None:
            return Step(OVER, -1)
        if self.discarding:
            return Step(END_DISCARD, self.discarding[0])
        if self.dropping >= 0:
            return Step(DROP, self.phase)
        if not self.stack:
            if self.closing:
                return Step(END_WINDOW, self.closing[0])
            if self.refreshing >= 0:
                if self.refresh_windows:
                    return Step(REFRESH_WINDOW, self.refresh_windows[0])
                return Step(RESOLVE, self.phase)
            return Step(PHASE, self.phase)
        perf = self.stack[-1]
        card = self.game.cards[perf.card]
        if perf.dice_due:
            return Step(PAY_DIE, perf.player)
        if perf.cards_due:
            return Step(PAY_CARD, perf.player)
        needs_target = card.kind == "attack" or card.effect in TARGETED_EFFECTS
        if needs_target and perf.target is None:
            return Step(TARGET, perf.player)
        if card.effect == "boost" and perf.boost_die is None:
            return Step(BOOST_DIE, perf.player)
        if card.kind == "attack":
            if perf.attack_die is None:
                return Step(ATTACK_DIE, perf.player)
            if perf.defense_die is None:
                assert perf.target is not None
                return Step(DEFENSE_DIE, perf.target[0])
        if perf.windows:
            return Step(REACT, perf.windows[0])
        return Step(RESOLVE, perf.player)

    def alive(self, seat: int) -> bool:
        """Whether the seat still has a character in play."""
        return any(not c.removed for c in self.parties[seat])

    def energy_left(self, seat: int, slot: int) -> int:
        """The character's energy minus its spent energy."""
        ch = self.parties[seat][slot]
        return self.game.characters[ch.card].energy - ch.spent

    def damage(self, seat: int, slot: int) -> int:
        """Total damage of the wounds under the character."""
        damages = self.game.damages
        return sum(damages[w.card] for w in self.parties[seat][slot].wounds)

    def can_perform(self, seat: int, slot: int, card: int, hand_after: int) -> bool:
        """'Performing actions and edges': a character in play that shares a trait with the
        card, has the energy, dice of at least each die cost, and ``hand_after`` cards left
        in its controller's hand for the card costs."""
        ch = self.parties[seat][slot]
        game = self.game
        if ch.removed or not game.matches[ch.card][card]:
            return False
        cost = game.cards[card].cost
        if cost.energy and game.characters[ch.card].energy - ch.spent < cost.energy:
            return False
        if cost.dice and not dice_cover(ch.dice, cost.dice):
            return False
        return hand_after >= cost.cards

    def effect_targets(self, seat: int, card: Card) -> list[tuple[int, int]]:
        """The characters a card may target when played by ``seat``: any enemy character for
        an attack; for an effect, one of the seat's own characters it would change."""
        out = []
        if card.kind == "attack":
            for other, party in enumerate(self.parties):
                if other != seat:
                    out += [(other, s) for s, ch in enumerate(party) if not ch.removed]
            return out
        amount = card.amount or 0
        cards = self.game.cards
        for slot, ch in enumerate(self.parties[seat]):
            if ch.removed:
                continue
            if card.effect == "heal":
                ok = any((cards[w.card].damage or 0) <= amount for w in ch.wounds)
            elif card.effect == "boost":
                ok = bool(ch.dice) and ch.dice[0] < DIE_FACES
            elif card.effect == "energy":
                ok = ch.spent > 0
            else:
                ok = False
            if ok:
                out.append((seat, slot))
        return out

    def playable(self, seat: int, timings: tuple[str, ...]) -> list[Play]:
        """Cards in ``seat``'s hand it may announce now: action and attack cards when
        ``timings`` includes ``action``, edges of the given timings; each with every
        character able to perform it."""
        game = self.game
        hand = self.hands[seat]
        out: list[Play] = []
        previous = -1
        for k in hand:
            if k == previous:
                continue  # the hand is sorted: copies of a card make one choice
            previous = k
            card = game.cards[k]
            timing = "action" if card.kind != "edge" else card.timing
            if timing not in timings:
                continue
            # A card that acts on one of your characters needs one it would change.
            if card.effect in TARGETED_EFFECTS and not self.effect_targets(seat, card):
                continue
            plays = game.play[k]
            for slot in range(PARTY_SIZE):
                if self.can_perform(seat, slot, k, len(hand) - 1):
                    out.append(plays[slot])
        return out

    def window_timings(self, seat: int) -> tuple[str, ...]:
        """Edge timings ``seat`` may use in the window open now (:meth:`timings_answering`
        the card on top of the stack)."""
        return self.timings_answering(self.stack[-1] if self.stack else None, seat)

    def timings_answering(self, perf: Performance | None, seat: int) -> tuple[str, ...]:
        """Edge timings ``seat`` may use in the reaction window of ``perf`` (None: with no
        card on the stack): 'If it does not have a restriction on it, it may be played at
        anytime', so ``anytime`` always; ``defending`` and ``attacking`` only for the two
        sides of an attack."""
        if perf is None or self.game.cards[perf.card].kind != "attack" or perf.target is None:
            return ("anytime",)
        if seat == perf.target[0]:
            return ("anytime", "defending")
        if seat == perf.player:
            return ("anytime", "attacking")
        return ("anytime",)

    def legal(self, player: Player) -> list[SquadAction]:
        """Every action ``player`` may take now."""
        step = self.step
        return self.choices(step) if player == step.seat else []

    def choices(self, step: Step) -> list[SquadAction]:
        """Every action open to the seat deciding ``step``, the step pending now (a transition
        that has just worked it out passes it in rather than working it out again)."""
        kind, seat = step
        game = self.game
        if kind == PHASE:
            actions: list[SquadAction] = list(self.playable(seat, ("action", "anytime")))
            for slot, ch in enumerate(self.parties[seat]):
                if not ch.removed and self.energy_left(seat, slot) >= (
                    game.characters[ch.card].refresh
                ):
                    actions.append(game.refresh[slot])
            actions.append(PASS)
            return actions
        if kind in WINDOWS:
            return [*self.playable(seat, self.window_timings(seat)), DONE]
        if kind == END_DISCARD:
            return [*[game.discard[k] for k in sorted(set(self.hands[seat]))], DONE]
        if kind == DROP:
            dice = self.parties[seat][self.dropping].dice
            return [game.drop[v] for v in sorted(set(dice))]
        perf = self.stack[-1]
        if kind == PAY_DIE:
            dice = self.parties[seat][perf.slot].dice
            return [game.pay[v] for v in sorted(set(dice)) if v >= perf.dice_due[0]]
        if kind == PAY_CARD:
            return [game.discard[k] for k in sorted(set(self.hands[seat]))]
        if kind == TARGET:
            card = game.cards[perf.card]
            return [game.target[t] for t in self.effect_targets(seat, card)]
        if kind == BOOST_DIE:
            assert perf.target is not None
            dice = self.parties[perf.target[0]][perf.target[1]].dice
            return [game.die[v] for v in sorted(set(dice)) if v < DIE_FACES]
        if kind in (ATTACK_DIE, DEFENSE_DIE):
            assert perf.target is not None
            owner, slot = (seat, perf.slot) if kind == ATTACK_DIE else perf.target
            return [NO_DIE, *[game.die[v] for v in sorted(set(self.parties[owner][slot].dice))]]
        return []
