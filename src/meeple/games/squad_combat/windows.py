"""When edges may be played in Squad Combat: the windows.

The seed: "Edges are cards that can be played anytime the card itself states it can be
played. If it does not have a restriction on it, it may be played at anytime", and a player
who passed "may still play edges". Software needs moments to ask, so under the default
``edge_windows=anytime`` an unrestricted edge may be played:

* in its owner's own action phase (an edge is not an action, so the phase goes on);
* before any action resolves (an action card, or a dice refresh before its dice are rolled),
  by every seat, in turn order after the performer and the performer last;
* after an attack's dice, by every seat: the two sides first (``reactions`` orders them, and
  only they may add their ``defending`` or ``attacking`` edges), then the others in turn order
  after the attacker;
* at the end of a turn, once everyone has passed and before spent energy clears and the
  discards begin, by every seat in turn order from the lead.

Passed seats are asked too; seats with no character left are not. Under
``reaction_prompts=playable`` a seat with nothing it could play is not asked (skipping it
reveals only that its hand holds nothing playable, as the action phase already does).
``edge_windows=own`` keeps the narrower windows of before: the owner's action phase and the
attack windows of the two sides.
"""

from __future__ import annotations

from meeple.games.squad_combat.edits import Edits


class Windows(Edits):
    """Opening and closing the windows for edges (mixed into the working copy)."""

    __slots__ = ()
    closing: tuple[int, ...]
    refreshing: int
    refresh_windows: tuple[int, ...]

    @property
    def anytime(self) -> bool:
        """Whether unrestricted edges get every window (``edge_windows=anytime``)."""
        return self.game.options.edge_windows == "anytime"

    def seats_after(self, seat: int) -> list[int]:
        """Seats with a character left, in turn order after ``seat`` (``seat`` excluded)."""
        order = self.order
        n = len(order)
        i = order.index(seat)
        return [s for s in (order[(i + k) % n] for k in range(1, n)) if self.alive(s)]

    def attack_windows(self, attacker: int, defender: int) -> tuple[int, ...]:
        """The seats offered a window after an attack's dice, in the order they are asked."""
        sides = (defender, attacker)
        if self.game.options.reactions == "attacker-first":
            sides = (attacker, defender)
        if not self.anytime:
            return sides
        return sides + tuple(s for s in self.seats_after(attacker) if s not in sides)

    def open_action_windows(self) -> bool:
        """Before the action on top of the stack resolves, every seat may play an
        unrestricted edge. Returns whether windows opened (they open once per action)."""
        perf = self.stack[-1]
        if not self.anytime or perf.windows is not None:
            return False
        if self.game.cards[perf.card].kind != "action":
            return False
        seats = (*self.seats_after(perf.player), perf.player)
        self.replace_top(windows=tuple(s for s in seats if self.alive(s)))
        return True

    def open_end_windows(self) -> bool:
        """Everyone has passed: each seat, from the lead, may play unrestricted edges before
        the turn's end clears spent energy. Returns whether the windows opened."""
        if not self.anytime:
            return False
        seats = [self.lead, *self.seats_after(self.lead)]
        self.closing = tuple(s for s in seats if self.alive(s))
        return bool(self.closing)
