"""Performing cards in Squad Combat: announcing and paying, the dice refresh, the attack
steps and their resolution, and the effects of actions and edges."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.words import counted
from meeple.games.squad_combat.content import DIE_FACES, Card
from meeple.games.squad_combat.pieces import (
    ATTACK_DIE,
    BOOST_DIE,
    LAST_STANDING,
    Performance,
    Wound,
    dice_text,
    put,
)
from meeple.games.squad_combat.windows import Windows

if TYPE_CHECKING:
    from meeple.games.squad_combat.rules import _Transition


class Combat(Windows):
    """The transitions of a card being performed (mixed into the working copy)."""

    __slots__ = ()

    def announce(self: _Transition, seat: int, card: int, slot: int) -> None:
        """'Announce you are playing the card. Pay for any costs': the card leaves the hand,
        energy is spent at once; dice and card costs follow as decisions."""
        spec = self.game.cards[card]
        self.take_from_hand(seat, card)
        ch = self.parties[seat][slot]
        if spec.cost.energy:
            self.set_character(seat, slot, ch._replace(spent=ch.spent + spec.cost.energy))
        self.stack = (
            *self.stack,
            Performance(seat, card, slot, spec.cost.dice, spec.cost.cards),
        )
        self.say(f"{self.who(seat, slot)} plays {spec.name} ({spec.cost}).")

    def refresh_dice(self: _Transition, seat: int, slot: int) -> None:
        """'Pay the character's dice refresh energy cost to roll a number of dice equal to
        the character's dice pool value and add them to the character.' The energy is paid
        now; under ``edge_windows=anytime`` every seat may play an unrestricted edge before
        the dice are rolled (:meth:`roll_refresh`)."""
        ch = self.parties[seat][slot]
        card = self.game.characters[ch.card]
        self.set_character(seat, slot, ch._replace(spent=ch.spent + card.refresh))
        self.say(f"{self.who(seat, slot)} refreshes ({card.refresh} energy).")
        self.refreshing = slot
        if self.anytime:
            seats = (*self.seats_after(seat), seat)
            self.refresh_windows = tuple(s for s in seats if self.alive(s))
        else:
            self.roll_refresh()

    def roll_refresh(self: _Transition) -> None:
        """The refresh announced in this action phase rolls its dice."""
        seat, slot = self.phase, self.refreshing
        self.refreshing = -1
        self.refresh_windows = ()
        ch = self.parties[seat][slot]
        card = self.game.characters[ch.card]
        rng = self.rng("refresh")
        rolled = [rng.randint(1, DIE_FACES) for _ in range(card.dice_pool)]
        dice = tuple(sorted((*ch.dice, *rolled)))
        self.set_character(seat, slot, ch._replace(dice=dice))
        self.say(
            f"{self.who(seat, slot)} rolls {dice_text(sorted(rolled))}: dice {dice_text(dice)}."
        )
        if len(dice) > card.dice_pool:
            self.dropping = slot
        else:
            self.advance_phase(seat)

    def drop_die(self: _Transition, seat: int, value: int) -> None:
        """'Remove dice from the character until they no longer have more dice on them than
        their dice pool value', the player choosing which."""
        slot = self.dropping
        self.spend_die(seat, slot, value)
        ch = self.parties[seat][slot]
        if len(ch.dice) <= self.game.characters[ch.card].dice_pool:
            self.dropping = -1
            self.say(f"{self.who(seat, slot)} keeps {dice_text(ch.dice)}.")
            self.advance_phase(seat)

    def choose_die(self: _Transition, seat: int, kind: str, value: int) -> None:
        """The boost die, or attack step 3: the attack die, then the defense die (0 when
        declined). Once both are chosen the reaction windows open."""
        perf = self.stack[-1]
        if kind == BOOST_DIE:
            self.replace_top(boost_die=value)
            return
        assert perf.target is not None
        if kind == ATTACK_DIE:
            owner, slot = seat, perf.slot
            self.replace_top(attack_die=value)
            role = "attack"
        else:
            owner, slot = perf.target
            windows = self.attack_windows(perf.player, owner)
            self.replace_top(defense_die=value, windows=windows)
            role = "defense"
        if value:
            self.spend_die(owner, slot, value)
            self.say(f"{self.who(owner, slot)} spends a {value} as the {role} die.")
        elif not self.parties[owner][slot].dice:
            # Nothing to choose, so nobody was asked: "declines" read as a choice.
            self.say(f"{self.who(owner, slot)} has no die for the {role} (counts as 0).")
        else:
            self.say(f"{self.who(owner, slot)} declines the {role} die (counts as 0).")

    # -- resolving --------------------------------------------------------------------------
    def resolve(self: _Transition) -> None:
        """Resolve the top card, discard it (or attach it as a wound), and move on."""
        perf = self.stack[-1]
        self.stack = self.stack[:-1]
        card = self.game.cards[perf.card]
        attached = False
        if card.kind == "attack":
            attached = self.resolve_attack(perf, card)
        else:
            self.resolve_effect(perf, card)
        if not attached:
            self.to_discard(perf.player, perf.card)
        if self.ended is None and card.kind != "edge":
            # An action or attack was the player's action; an edge takes no action phase.
            self.advance_phase(perf.player)

    def resolve_attack(self: _Transition, perf: Performance, card: Card) -> bool:
        """Attack steps 4 and 5: ratings with modifiers; a hit puts the card under the
        defender as a wound. Returns whether the card was attached."""
        assert perf.target is not None and perf.attack_die is not None
        assert perf.defense_die is not None
        seat, slot = perf.target
        attack, defense = perf.attack_rating(card.hit), perf.defense_rating()
        defender = self.who(seat, slot)
        # Each rating with what made it where more than its die did: "attack 6 (die 5,
        # hit +1)", so a reader sees why a 5 hit a 6.
        attack_words = _rating(attack, perf.attack_die, ("hit", card.hit or 0),
                               ("edges", perf.attack_bonus))  # fmt: skip
        defense_words = _rating(defense, perf.defense_die, ("edges", perf.defense_bonus))
        if attack < defense:
            self.say(
                f"{card.name} misses {defender}: attack {attack_words} < defense {defense_words}."
            )
            return False
        ch = self.parties[seat][slot]
        ch = ch._replace(wounds=(*ch.wounds, Wound(perf.card, perf.player)))
        self.set_character(seat, slot, ch)
        self.say(
            f"{card.name} hits {defender}: attack {attack_words} >= defense {defense_words}; "
            f"a wound of {card.damage}: {self.life_left(seat, slot)}."
        )
        if self.damage(seat, slot) >= self.game.characters[ch.card].life:
            self.remove_character(seat, slot)
        return True

    def life_left(self: _Transition, seat: int, slot: int) -> str:
        """ "4 of 7 life left": as the page's heart shows it, said after every wound put on
        or taken off ("(4/7)" beside a heart of 3/7 read as a contradiction, and a heal
        that said nothing left the last hit's figure standing)."""
        life = self.game.characters[self.parties[seat][slot].card].life
        return f"{max(0, life - self.damage(seat, slot))} of {life} life left"

    def remove_character(self: _Transition, seat: int, slot: int) -> None:
        """'If a character ever has a wound value ... greater than or equal to its life,
        remove it from the game.' Its wound cards go to their owners' discard piles."""
        ch = self.parties[seat][slot]
        self.say(f"{self.who(seat, slot)} is removed from the game.")
        for w in ch.wounds:
            self.to_discard(w.owner, w.card)
        self.set_character(seat, slot, ch._replace(wounds=(), dice=(), removed=True))
        if not self.alive(seat):
            self.passed = put(self.passed, seat, True)
            self.say(f"{self.name(seat)} has no character left.")
            alive = [s for s in range(self.game.num_players) if self.alive(s)]
            if len(alive) == 1:
                self.end(alive[0], LAST_STANDING)

    def resolve_effect(self: _Transition, perf: Performance, card: Card) -> None:
        """An action's or edge's effect (see ``content.EFFECT_HELP``)."""
        amount = card.amount or 0
        effect = card.effect
        if effect in ("defense", "attack"):
            # Played in a reaction window: the attack it answers is below it.
            bonus = "defense_bonus" if effect == "defense" else "attack_bonus"
            outer = self.stack[-1]
            self.replace_top(**{bonus: getattr(outer, bonus) + amount})
            self.say(f"{card.name}: {effect} +{amount}.")
            return
        if effect == "draw":
            drawn = self.draw(perf.player, amount)
            self.say(f"{card.name}: {self.name(perf.player)} draws {counted(drawn, 'card')}.")
            return
        assert perf.target is not None
        seat, slot = perf.target
        ch = self.parties[seat][slot]
        cards = self.game.cards
        eligible = [w for w in ch.wounds if (cards[w.card].damage or 0) <= amount]
        # An edge played in the window before this action resolved may have taken away
        # what it was aimed at (healed the wound, spent or raised the die).
        if (effect == "heal" and not eligible) or (
            effect == "boost" and perf.boost_die not in ch.dice
        ):
            self.say(f"{card.name} has nothing left to act on and no effect.")
            return
        if effect == "heal":
            # The worst wound it can treat; the latest of equals.
            best = max(reversed(eligible), key=lambda w: cards[w.card].damage or 0)
            wounds = list(ch.wounds)
            del wounds[len(wounds) - 1 - wounds[::-1].index(best)]
            self.set_character(seat, slot, ch._replace(wounds=tuple(wounds)))
            self.to_discard(best.owner, best.card)
            self.say(
                f"{card.name} removes a wound of {cards[best.card].damage} from "
                f"{self.who(seat, slot)}: {self.life_left(seat, slot)}."
            )
        elif effect == "boost":
            assert perf.boost_die is not None
            dice = list(ch.dice)
            dice.remove(perf.boost_die)
            new = min(DIE_FACES, perf.boost_die + amount)
            self.set_character(seat, slot, ch._replace(dice=tuple(sorted((*dice, new)))))
            self.say(f"{card.name} turns {self.who(seat, slot)}'s {perf.boost_die} into {new}.")
        elif effect == "energy":
            self.set_character(seat, slot, ch._replace(spent=max(0, ch.spent - amount)))
            self.say(f"{card.name} restores energy to {self.who(seat, slot)}.")

    def fizzle(self: _Transition) -> None:
        """A card whose last target vanished while its costs were paid has no effect."""
        perf = self.stack[-1]
        card = self.game.cards[perf.card]
        self.stack = self.stack[:-1]
        self.to_discard(perf.player, perf.card)
        self.say(f"{card.name} has no target left and no effect.")
        if card.kind != "edge":
            self.advance_phase(perf.player)


def _rating(total: int, die: int | None, *modifiers: tuple[str, int]) -> str:
    """A rating as a log says it: its total, and where a modifier added to the die, what
    made it: ``6 (die 5, hit +1)``, ``2 (no die, hit +2)``; ``4`` where the die alone did."""
    added = [f"{name} {value:+d}" for name, value in modifiers if value]
    if not added:
        return str(total)
    # A die is 1 to 6: none is a die declined ("no die"), which adds nothing.
    return f"{total} ({f'die {die}' if die else 'no die'}, {', '.join(added)})"
