"""The turn structure of Squad Combat: action phases in turn order until everyone has
passed, the end of the turn (spent energy, discards, draws), and the end of the game."""

from __future__ import annotations

from meeple.core.words import counted
from meeple.games.squad_combat.pieces import (
    END_WINDOW,
    REACT,
    REFRESH_WINDOW,
    STALEMATE,
    turn_limit_reached,
)
from meeple.games.squad_combat.windows import Windows


class Turns(Windows):
    """The transitions between phases and turns (mixed into the working copy)."""

    __slots__ = ()

    def advance_phase(self, seat: int) -> None:
        """The next action phase goes to the next player in turn order who has not passed;
        when everyone has passed, the end-of-turn windows open, then the turn ends."""
        order = self.order
        n = len(order)
        i = order.index(seat)
        for k in range(1, n + 1):
            nxt = order[(i + k) % n]
            if not self.passed[nxt]:
                self.phase = nxt
                return
        if not self.open_end_windows():
            self.end_turn()

    def close_window(self, kind: str) -> None:
        """The deciding seat's window closes (it said ``done``, or had nothing to play)."""
        if kind == REACT:
            self.replace_top(windows=(self.stack[-1].windows or ())[1:])
            return
        if kind == REFRESH_WINDOW:
            self.refresh_windows = self.refresh_windows[1:]
            return
        assert kind == END_WINDOW
        self.closing = self.closing[1:]
        if not self.closing:
            self.end_turn()

    def end_turn(self) -> None:
        """'Remove all spent focus counters from characters in play', then the discards."""
        self.say(f"Turn {self.turn} ends: spent energy clears.")
        self.parties = tuple(
            tuple(c._replace(spent=0) if c.spent else c for c in party) for party in self.parties
        )
        n = len(self.order)
        i = self.order.index(self.lead)
        self.discarding = tuple(
            s for s in (self.order[(i + k) % n] for k in range(n)) if self.alive(s)
        )
        self.discarded = 0

    def finish_discards(self, seat: int) -> None:
        """'Each player may then discard up to two cards from their hand, then draw up to
        their hand size': seat by seat, the deciding seat draws now and the next discards;
        all at once (``end_draws``), every seat draws after the last seat's discards."""
        self.discarding = self.discarding[1:]
        self.discarded = 0
        if self.game.options.end_draws == "seat-by-seat":
            self.draw_up(seat)
        elif not self.discarding:
            for s in (self.lead, *self.seats_after(self.lead)):
                if self.alive(s):
                    self.draw_up(s)
        if not self.discarding:
            self.start_turn()

    def draw_up(self, seat: int) -> None:
        """The seat draws up to its hand size."""
        want = self.game.options.hand_size - len(self.hands[seat])
        if want > 0:
            drawn = self.draw(seat, want)
            self.say(f"{self.name(seat)} draws {counted(drawn, 'card')}.")

    def start_turn(self) -> None:
        """A new turn: everyone with a character in play gets action phases again."""
        game = self.game
        if not self.can_still_wound():
            self.end(None, STALEMATE)
            return
        if self.turn >= game.options.turn_limit:
            self.end(None, turn_limit_reached(game.options.turn_limit))
            return
        self.turn += 1
        alive = [s for s in self.order if self.alive(s)]
        if game.options.lead == "rotate":
            i = self.order.index(self.lead)
            n = len(self.order)
            self.lead = next(
                s for s in (self.order[(i + k) % n] for k in range(1, n + 1)) if s in alive
            )
        else:
            self.lead = alive[0]
        self.passed = tuple(not self.alive(s) for s in range(game.num_players))
        self.phase = self.lead
        self.say(f"Turn {self.turn}: {self.name(self.lead)} leads.")

    def can_still_wound(self) -> bool:
        """Whether any player could ever wound again: some living character of theirs can
        perform one of their attack cards (or a heal, which may bring an attack back) that is
        not stuck under a character, given enough turns to gather energy, dice and cards."""
        game = self.game
        for seat in range(game.num_players):
            if not self.alive(seat):
                continue
            owned = set(self.hands[seat]) | set(self.decks[seat]) | set(self.discards[seat])
            total = len(self.hands[seat]) + len(self.decks[seat]) + len(self.discards[seat])
            for k in owned:
                card = game.cards[k]
                if card.kind != "attack" and card.effect != "heal":
                    continue
                cost = card.cost
                for ch in self.parties[seat]:
                    spec = game.characters[ch.card]
                    if (
                        not ch.removed
                        and game.matches[ch.card][k]
                        and spec.energy >= cost.energy
                        and spec.dice_pool >= len(cost.dice)
                        and total - 1 >= cost.cards
                    ):
                        return True
        return False

    def end(self, winner: int | None, reason: str) -> None:
        """The game is over: a winner, or a draw (None), and why."""
        self.winner = winner
        self.ended = reason
        self.discarding = ()
        self.closing = ()
        self.refreshing = -1
        self.refresh_windows = ()
        self.dropping = -1
        verdict = "a draw" if winner is None else f"{self.name(winner)} wins"
        self.say(f"Game over ({reason}): {verdict}.")
