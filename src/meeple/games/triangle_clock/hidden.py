"""The Triangle Clock's hidden information: what a seat knows, as the key search files it
under; what it cannot see, resampled for search; and the order of shared symbols a seat
with perfect memory keeps from a memorise step."""

from __future__ import annotations

import json
import random
from collections.abc import Hashable, Sequence
from contextlib import suppress
from dataclasses import replace
from typing import TYPE_CHECKING

from meeple.core.game import Player
from meeple.core.simultaneous import Submissions
from meeple.games.triangle_clock.cards import CARDS, NUM_CARDS, NUM_SYMBOLS, sample_cards_holding
from meeple.games.triangle_clock.pieces import (
    BLOCK,
    ROUNDS,
    SEATS,
    Card,
    Phase,
    Pick,
    Seat,
    Supply,
    Symbol,
    with_seat,
)

if TYPE_CHECKING:
    from meeple.games.triangle_clock.rules import TriangleClockAction, TriangleClockState


class Hidden:
    """What a seat knows as search keys it, determinization and memory (mixed into
    :class:`TriangleClockState`)."""

    __slots__ = ()

    def information_key(self: TriangleClockState, player: Player) -> Hashable:
        """The seat's view (:meth:`view`) as plain tuples: the same information, built
        without the JSON (search asks for a key at every node; this is most of its time)."""
        seats, supply, pending, own = self.seats, self.supply, self.pending, self.pending.of(player)
        order = self.orders[self.block]
        return (
            min(self.round, ROUNDS),
            self.phase,
            self.to_act,
            self.shared,
            order if self.phase is Phase.MEMORISE else None,
            self.scores,
            tuple(tuple(s.uses[i] for i in self.game.held[p]) for p, s in enumerate(seats)),
            tuple(
                tuple((s.revealed(x), x.palette_swap, x.right_angle) for x in s.picks)
                for s in seats
            ),
            pending.waiting,
            None if own is None else str(own),
            tuple(CARDS[c] for c in seats[player].hand),
            tuple(x.letter for x in seats[player].picks),
            len(supply.deck),
            supply.discards,
            supply.reshuffles,
            order[: self.revealed_in_block],
            self.history[-1].public_key() if self.history else None,
            self.phase is Phase.OVER and json.dumps(self.result, sort_keys=True),
        )

    def determinize(
        self: TriangleClockState, player: Player, rng: random.Random
    ) -> TriangleClockState:
        """A state consistent with what ``player`` knows, the rest resampled.

        Known, and kept: everything in the seat's view (its hand and pending choice, every
        revealed symbol, the face-up discard pile, scores and items, the order of shared
        symbols while it is shown) and the record of past rounds. Resampled, from canonical
        orders so that the sample depends only on the view and ``rng``: the opponent's cards
        (a card the opponent has revealed a symbol from this round still holds it), the
        opponent's hidden choice, the deck order, the seed of later shuffles, and the shared
        symbols not yet revealed, also those shown in an earlier memorise step: remembering
        them is the seat's own business (see :meth:`remembering` and ``rules.md``).
        """
        other = 1 - player
        mine = self.seats[player]
        theirs = self.seats[other]
        known = set(mine.hand)
        known.update(self.supply.discards)
        pool = [c for c in range(NUM_CARDS) if c not in known]
        # the printed symbols of the opponent's revealed picks (undoing the items is exact)
        printed = [theirs.symbol_at(p.letter) for p in theirs.picks]
        played = sample_cards_holding(pool, printed, rng)
        rest = _shuffled([c for c in pool if c not in played], rng)
        size = len(theirs.hand)
        slots = rng.sample(range(size), len(played))
        hand: list[Card] = [-1] * size
        for slot, card in zip(slots, played, strict=True):
            hand[slot] = card
        for k in range(size):
            if hand[k] < 0:
                hand[k] = rest.pop()
        picks = tuple(
            self.game.pick(2 * slot + CARDS[card].index(s), p.palette_swap, p.right_angle)
            for slot, card, s, p in zip(slots, played, printed, theirs.picks, strict=True)
        )
        new_theirs = Seat(tuple(hand), picks, theirs.uses, theirs.score)
        seats = with_seat(self.seats, other, new_theirs)
        pending = self.pending
        if self.phase is not Phase.MEMORISE and pending.of(other) is not None:
            # the opponent has submitted, but what stays hidden: any allowed choice
            probe = replace(self, seats=seats, pending=Submissions.open((other,)))
            options = [a for a in probe.legal_actions(other) if isinstance(a, Pick)]
            opened: Submissions[TriangleClockAction] = Submissions.open(SEATS)
            pending = opened.submit(other, rng.choice(options))
        orders = self._resampled_orders(rng)
        return replace(
            self,
            seed=rng.getrandbits(63),
            seats=seats,
            supply=Supply(tuple(rest), self.supply.discards, self.supply.reshuffles),
            orders=orders,
            pending=pending,
        )

    def decision_start(self: TriangleClockState) -> TriangleClockState:
        """This state with the open decision's hidden submissions taken back: the
        ``State`` default for the one field that holds them (``pending``), without looking
        through every field for it at each sample of a search."""
        pending = self.pending
        if pending.waiting == pending.seats:
            return self
        return replace(self, pending=pending.rewound())

    @property
    def revealed_in_block(self: TriangleClockState) -> int:
        """How many shared symbols of the current order have been revealed."""
        if self.phase is Phase.OVER:
            return BLOCK
        return (self.round - 1) % BLOCK + (0 if self.phase is Phase.MEMORISE else 1)

    def _resampled_orders(
        self: TriangleClockState, rng: random.Random
    ) -> tuple[tuple[Symbol, ...], ...]:
        """Shared orders with every symbol not yet revealed (and not shown now) reshuffled."""
        orders = []
        for block, order in enumerate(self.orders):
            if block < self.block or (block == self.block and self.phase is Phase.MEMORISE):
                orders.append(order)
                continue
            known = self.revealed_in_block if block == self.block else 0
            # from a sorted list, so the sample does not depend on the true order
            future = _shuffled(sorted(order[known:]), rng)
            orders.append((*order[:known], *future))
        return tuple(orders)

    def memory(self: TriangleClockState, player: Player) -> Hashable | None:
        """During a memorise step, the order shown (with its block): what a player with
        perfect memory keeps once it is hidden again. Nothing at other steps."""
        if self.phase is not Phase.MEMORISE:
            return None
        return (self.block, self.orders[self.block])

    def recalling(self: TriangleClockState, memories: Sequence[Hashable]) -> TriangleClockState:
        """This sample with the current block's order put back as remembered (the latest
        memory of this block; one that contradicts the symbols revealed is ignored)."""
        state = self
        for memory in memories:
            if isinstance(memory, tuple) and len(memory) == 2 and memory[0] == self.block:
                with suppress(ValueError):  # a memory of another game
                    state = self.remembering(memory[1])
        return state

    def remembering(self: TriangleClockState, order: tuple[Symbol, ...]) -> TriangleClockState:
        """This state with the current block's order of shared symbols replaced by ``order``:
        how an agent that remembers the memorise step puts its memory into a sample.

        ValueError if ``order`` contradicts a shared symbol already revealed.
        """
        known = self.revealed_in_block
        current = self.orders[self.block]
        if sorted(order) != list(range(NUM_SYMBOLS)) or order[:known] != current[:known]:
            raise ValueError("the remembered order contradicts the shared symbols revealed")
        orders = list(self.orders)
        orders[self.block] = tuple(order)
        return replace(self, orders=tuple(orders))


def _shuffled(items: list[int], rng: random.Random) -> list[int]:
    """``items``, given in ascending order, in a random order; one ``random()`` per item is
    quicker than ``random.shuffle``, and determinization shuffles the whole deck every time.

    The positions are sorted by their draws (quicker than sorting pairs of draw and item);
    the sort is stable, so two equal draws keep ascending order, as pairs would."""
    draw = rng.random
    keys = [draw() for _ in items]
    return [items[k] for k in sorted(range(len(items)), key=keys.__getitem__)]
