"""The small changes every Squad Combat transition is made of, on a working copy of a
state: the log, characters, hands, discards, dice, draws and the card being performed."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from meeple.core.rng import make_rng
from meeple.games.squad_combat.pieces import LOG_LINES, Character, put
from meeple.games.squad_combat.reading import Reading


class Edits(Reading):
    """A working copy of a state's fields, changed in place by one transition."""

    __slots__ = ()
    seed: int
    rolls: int
    turn: int
    lead: int
    discarded: int
    winner: int | None
    log: tuple[str, ...]

    if TYPE_CHECKING:
        # The fields are the slots of the working copy, rules._Table, which
        # dataclasses.make_dataclass builds from the state's fields (unseen by mypy).
        def __setattr__(self, name: str, value: Any) -> None: ...

    def say(self, line: str) -> None:
        """Add a line to the log."""
        self.log = (*self.log[-(LOG_LINES - 1) :], line)

    def name(self, seat: int) -> str:
        """The seat's name (Red, Blue, ...)."""
        return self.game.seat_name(seat)

    def who(self, seat: int, slot: int) -> str:
        """A character as the log names it."""
        return self.game.who(seat, slot, self)

    def set_character(self, seat: int, slot: int, ch: Character) -> None:
        """Put the changed character back in its place."""
        party = self.parties[seat]
        self.parties = put(self.parties, seat, put(party, slot, ch))

    def rng(self, purpose: str) -> random.Random:
        """The stream of the next random event, numbered so that a record replays it."""
        self.rolls += 1
        return make_rng(self.seed, "squad-combat", purpose, self.rolls)

    def take_from_hand(self, seat: int, card: int) -> None:
        """Remove one copy of a card from the seat's hand."""
        hand = list(self.hands[seat])
        hand.remove(card)
        self.hands = put(self.hands, seat, tuple(hand))

    def to_discard(self, owner: int, card: int) -> None:
        """Put a card on top of its owner's discard pile."""
        self.discards = put(self.discards, owner, (*self.discards[owner], card))

    def spend_die(self, seat: int, slot: int, value: int) -> None:
        """Remove a die of this value from the character."""
        ch = self.parties[seat][slot]
        dice = list(ch.dice)
        dice.remove(value)
        self.set_character(seat, slot, ch._replace(dice=tuple(dice)))

    def draw(self, seat: int, count: int) -> int:
        """Draw up to ``count`` cards; an empty deck is replaced by its shuffled discards."""
        drawn = 0
        for _ in range(count):
            if not self.decks[seat]:
                pile = list(self.discards[seat])
                if not pile:
                    break
                self.rng("reshuffle").shuffle(pile)
                self.decks = put(self.decks, seat, tuple(pile))
                self.discards = put(self.discards, seat, ())
                self.say(f"{self.name(seat)} shuffles {len(pile)} discarded cards into a new deck.")
            deck = self.decks[seat]
            self.decks = put(self.decks, seat, deck[:-1])
            self.hands = put(self.hands, seat, tuple(sorted((*self.hands[seat], deck[-1]))))
            drawn += 1
        return drawn

    def replace_top(self, **changes: Any) -> None:
        """Change the card being performed on top of the stack."""
        self.stack = (*self.stack[:-1], self.stack[-1]._replace(**changes))
