"""What an Erosion seat cannot see, resampled: determinization for search agents."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

from meeple.core.game import Player
from meeple.core.rng import derive_seed
from meeple.games.erosion.pieces import (
    WX,
    F,
    H,
    Step,
    matchable,
    without,
)

if TYPE_CHECKING:
    from meeple.games.erosion.rules import ErosionState


class Hidden:
    """Determinization (mixed into :class:`ErosionState`)."""

    __slots__ = ()

    def determinize(self: ErosionState, player: Player, rng: random.Random) -> ErosionState:
        """Resample what ``player`` cannot see: the other hands (keeping how many cards of
        each deck they hold), the decks' order and contents (keeping their sizes and decks),
        the other deltas (keeping their sizes), the other challenge cards while hidden, and
        the seed of later chance events. A seat in the middle of a Fluvial play is dealt a
        hand that can pay for the rocks it still has to transport.

        The unknown cards are pooled in sorted order before shuffling, so two states that
        look the same to ``player`` give the same samples for the same ``rng``.
        """
        game = self.game
        cat = game.catalog
        n = game.num_players
        others = [p for p in range(n) if p != player]
        pool: list[list[int]] = [list(self.decks[d]) for d in (WX, H, F)]
        for p in others:
            for c in (*self.hands[p], *self.deltas[p]):
                pool[cat.deck[c]].append(c)
        for cards in pool:
            cards.sort()
        acting = self.agenda[0] if self.agenda else None
        forced: tuple[int, list[int]] = (-1, [])
        if acting is not None and acting.kind in ("transport", "pay") and acting.seat != player:
            forced = (acting.seat, self._payment_sample(acting, pool, rng))
        hands, decks, deltas = self._deal_unknown(pool, others, rng, forced)
        challenges = self.challenges
        if challenges and not self.challenges_shown:
            free = [c for c in range(len(game.challenge_cards)) if c != challenges[player]]
            rng.shuffle(free)
            challenges = tuple(challenges[p] if p == player else free.pop() for p in range(n))
        return replace(
            self,
            seed=derive_seed(rng.getrandbits(62), "determinized"),
            hands=hands,
            decks=decks,
            deltas=deltas,
            challenges=challenges,
        )

    def _payment_sample(
        self: ErosionState, step: Step, pool: list[list[int]], rng: random.Random
    ) -> list[int]:
        """Cards a seat in the middle of a Fluvial play must hold to pay for what is left.

        Rock types nest in classes (decks), so picking River rocks greedily in a random
        order, whenever the unknown cards of that type and the seat's known count of that
        deck's cards still allow it, always finds a full payment when one exists (a laminar
        matroid); the true hand proves that one does.
        """
        cat = self.game.catalog
        rock, deck = cat.rock, cat.deck
        by_type: dict[str, list[int]] = {}
        for cards in pool:
            for c in cards:
                by_type.setdefault(rock[c], []).append(c)
        room = list(self._hand_classes(step.seat))
        river = list(self.river)
        wanted: list[int] = []  # a River rock (or the one being paid for) per card to hold
        owed = step.number
        if step.kind == "pay":
            wanted.append(step.card)
            room[deck[step.card]] -= 1
            river.remove(step.card)
            owed -= 1
        rng.shuffle(river)
        used = Counter(rock[c] for c in wanted)
        for c in river:
            if len(wanted) - (step.kind == "pay") >= owed:
                break
            t = rock[c]
            if used[t] < len(by_type.get(t, ())) and room[deck[c]] > 0:
                used[t] += 1
                room[deck[c]] -= 1
                wanted.append(c)
        out: list[int] = []
        for t, k in used.items():
            out += rng.sample(by_type[t], k)
        return out

    def _deal_unknown(
        self: ErosionState,
        pool: list[list[int]],
        others: list[int],
        rng: random.Random,
        forced: tuple[int, list[int]],
    ) -> tuple[
        tuple[tuple[int, ...], ...],
        tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]],
        tuple[tuple[int, ...], ...],
    ]:
        """Deal the pooled unknown cards back: decks and hands by deck, deltas from the rest."""
        deck_of = self.game.catalog.deck
        hands = list(self.hands)
        deltas = list(self.deltas)
        seat, held = forced
        held_set = set(held)
        wanted = {p: list(self._hand_classes(p)) for p in others}
        new_hands: dict[int, list[int]] = {p: [] for p in others}
        if seat >= 0:
            new_hands[seat] = list(held)
            for c in held:
                wanted[seat][deck_of[c]] -= 1
        leftovers: list[int] = []
        decks: list[tuple[int, ...]] = []
        for d in (WX, H, F):
            cards = [c for c in pool[d] if c not in held_set] if held_set else pool[d][:]
            rng.shuffle(cards)
            at = len(self.decks[d])
            decks.append(tuple(cards[:at]))
            for p in others:
                k = wanted[p][d]
                if k:
                    new_hands[p] += cards[at : at + k]
                    at += k
            leftovers += cards[at:]
        if len(leftovers) > 1:
            rng.shuffle(leftovers)
        at = 0
        for p in others:
            hands[p] = tuple(sorted(new_hands[p]))
            k = len(self.deltas[p])
            if k:
                deltas[p] = tuple(sorted(leftovers[at : at + k]))
                at += k
        return tuple(hands), (decks[0], decks[1], decks[2]), tuple(deltas)

    def can_pay(self: ErosionState, seat: int, hand: tuple[int, ...]) -> bool:
        """Whether ``hand`` can pay for the rest of the seat's Fluvial play."""
        step = self.agenda[0]
        rock = self.game.catalog.rock
        if step.kind == "pay":
            owed = [c for c in hand if rock[c] == rock[step.card]]
            if not owed:
                return False
            rest_hand = without(hand, owed[0])
            rest_river = without(self.river, step.card)
            return matchable(rest_river, rest_hand, rock) >= step.number - 1
        return matchable(self.river, hand, rock) >= step.number
