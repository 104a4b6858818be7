"""Erosion's scoring and eras: the end of an era, its scores and tie-breaker, the new era
and the end of the game."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from meeple.core.game import Player
from meeple.core.rng import make_rng
from meeple.core.words import listed
from meeple.games.erosion.pieces import (
    DELTA_POINTS,
    FOSSIL_POINTS,
    ROCK_POINTS,
    STARTING_MIX,
    WX,
    F,
    H,
    Step,
    Tie,
    put,
    without,
)

if TYPE_CHECKING:
    from meeple.games.erosion.rules import ErosionState


class PointPart(NamedTuple):
    """One part of a seat's points: ``number`` times ``each`` for ``what`` (a kind of rock),
    or, ``counted`` false, a bonus of ``each`` (a legend, the challenge)."""

    what: str
    number: int
    each: int
    counted: bool = True

    @property
    def points(self) -> int:
        """The part's points."""
        return self.number * self.each

    def words(self) -> str:
        """ "5 unweathered rocks × 1", or a bonus's name and points ("legend Everest 5")."""
        if not self.counted:
            return f"{self.what} {self.points}"
        return f"{self.number} {self.what}{'s' if self.number != 1 else ''} × {self.each}"


class Eras:
    """The end of an era and of the game (mixed into :class:`ErosionState`)."""

    __slots__ = ()

    def points(self: ErosionState, seat: int, hidden: bool = True) -> int:
        """What the seat would score if the era ended now: 1 per unweathered rock, 2 per
        delta rock, 3 per weathered fossil rock (plus Reefs, legends and the challenge).
        ``hidden=False`` leaves out a challenge card not yet shown to everyone."""
        return sum(part.points for part in self.point_parts(seat, hidden))

    def point_parts(self: ErosionState, seat: int, hidden: bool = True) -> list[PointPart]:
        """:meth:`points` part by part, those that score: the rocks of each kind, the
        architecture's bonus, each legend held, the challenge met."""
        cat = self.game.catalog
        rocks, weathered = self.mountains[seat], self.weathered_rocks(seat)
        fossils = sum(1 for r in weathered if cat.fossil[r])
        parts = [
            PointPart("unweathered rock", len(rocks) - len(weathered), ROCK_POINTS),
            PointPart("delta rock", len(self.deltas[seat]), DELTA_POINTS),
            PointPart("weathered fossil", fossils, FOSSIL_POINTS),
        ]
        if self.game.options.advanced:
            bonus = sum(e.points for e in self._architecture(seat, "score_bonus"))
            parts.append(
                PointPart("Montane Architecture bonus", 1 if bonus else 0, bonus, counted=False)
            )
        if self.legends:
            parts += [
                PointPart(f"legend {card.name}", 1, card.points, counted=False)
                for card, owner in zip(self.game.legend_cards, self.legends, strict=True)
                if owner == seat
            ]
        if self.challenges and (hidden or self.challenges_shown) and self.challenge_met(seat):
            card = self.game.challenge_cards[self.challenges[seat]]
            parts.append(PointPart(f"challenge {card.name}", 1, card.points, counted=False))
        return [part for part in parts if part.number]

    def _end_era(self: ErosionState, reason: str) -> ErosionState:
        """Score the era; then break a tie for the next era's start, or for the win."""
        n = self.game.num_players
        era = tuple(self.points(p) for p in range(n))
        totals = tuple(a + b for a, b in zip(self.scores, era, strict=True))
        state = replace(
            self,
            scores=totals,
            era_scores=(*self.era_scores, era),
            challenges_shown=bool(self.challenges),
            agenda=(),
            end_reason=reason,
        )
        final = self.era >= self.game.eras
        target = max(totals) if final else min(totals)
        tied = tuple(p for p in range(n) if totals[p] == target)
        purpose: Literal["start", "win"] = "win" if final else "start"
        if len(tied) == 1:
            return state._tie_decided(tied, purpose)
        cards = state.tiebreak_draws(tied)
        hands = list(state.hands)
        for p, card in zip(tied, cards, strict=True):
            if card >= 0:
                hands[p] = without(hands[p], card)
        tie = Tie(purpose, tied, cards, (0,) * len(tied))
        steps = tuple(Step("guess", p) for p in tie.guessers)
        return replace(state, hands=tuple(hands), tie=tie, agenda=(*steps, Step("settle_tie", -1)))

    # -- the era's chance, from the seed (each a method of its own so that the compiled
    # rules' differential test can follow the same draws: meeple.games.erosion.compiled) ------
    def tiebreak_draws(self: ErosionState, tied: tuple[int, ...]) -> tuple[int, ...]:
        """The card each tied seat draws at random from its own hand, -1 for an empty hand
        ('have the competing players draw a card at random from their own hands')."""
        rng = make_rng(self.seed, "erosion", "tiebreak", self.era)
        return tuple(rng.choice(self.hands[p]) if self.hands[p] else -1 for p in tied)

    def start_among(self: ErosionState, seats: tuple[int, ...]) -> int:
        """The next era's start player drawn among seats still tied after the tie-breaker."""
        return make_rng(self.seed, "erosion", "start", self.era).choice(seats)

    def era_decks(self: ErosionState) -> tuple[list[int], list[int], list[int]]:
        """The next era's WX, H and F decks, top card last: every card but the mountains'
        (hands, discards, deltas, River, decks) by class, shuffled."""
        cat = self.game.catalog
        loose = [c for pile in (*self.hands, *self.discards, *self.deltas) for c in pile]
        loose += [*self.river, *self.decks[WX], *self.decks[H], *self.decks[F]]
        era = self.era + 1
        decks: tuple[list[int], list[int], list[int]] = ([], [], [])
        for c in sorted(loose):
            decks[cat.deck[c]].append(c)
        for d in (WX, H, F):
            make_rng(self.seed, "erosion", "era", era, "deck", d).shuffle(decks[d])
        return decks

    def _guess(self: ErosionState, player: Player, hardness: int) -> ErosionState:
        assert self.tie is not None
        i = self.tie.seats.index(player)
        tie = self.tie._replace(guesses=put(self.tie.guesses, i, hardness))
        return replace(self._pop(), tie=tie)

    def _settle_tie(self: ErosionState) -> ErosionState:
        """'The player guessing the closest chooses the tie'; equally close guessers stay
        tied (a seat with no card to draw cannot win the tie-breaker)."""
        assert self.tie is not None
        best = self.tie.closest(self.game.catalog.mohs)
        if len(best) > 1:
            return self._tie_decided(best)
        return replace(self, agenda=(Step("choose", best[0]),))

    def _tie_decided(
        self: ErosionState, seats: tuple[int, ...], purpose: Literal["start", "win"] | None = None
    ) -> ErosionState:
        """The tie is settled in favour of ``seats`` (one seat, or several still tied)."""
        purpose = purpose or (self.tie.purpose if self.tie else "win")
        state = self._return_tie_cards()
        if purpose == "win":
            return replace(state, winners=seats, over=True, agenda=())
        if len(seats) > 1:
            # Still tied after the tie-breaker: the start player is drawn among them, as the
            # first era's start player was.
            seats = (self.start_among(seats),)
        return state._new_era(seats[0])

    def _return_tie_cards(self: ErosionState) -> ErosionState:
        if self.tie is None:
            return self
        hands = list(self.hands)
        for p, c in zip(self.tie.seats, self.tie.cards, strict=True):
            if c >= 0:
                hands[p] = tuple(sorted((*hands[p], c)))
        return replace(self, hands=tuple(hands), tie=None)

    def _new_era(self: ErosionState, start: int) -> ErosionState:
        """'All cards except the Atmospheres and mountains ... are separated into 3 process
        decks and shuffled/arranged as in Set Up'; new hands of 3 WX, 2 H and 1 F are dealt
        one card at a time from the starting player; the lowest scorer starts."""
        n = self.game.num_players
        era = self.era + 1
        decks = self.era_decks()
        hands: list[list[int]] = [[] for _ in range(n)]
        for d, k in enumerate(STARTING_MIX):
            for _ in range(k):
                for j in range(n):
                    if decks[d]:
                        hands[(start + j) % n].append(decks[d].pop())
        state = replace(
            self,
            era=era,
            current=start,
            decks=(tuple(decks[0]), tuple(decks[1]), tuple(decks[2])),
            hands=tuple(tuple(sorted(h)) for h in hands),
            deltas=((),) * n,
            discards=((),) * n,
            river=(),
            agenda=(),
            triggered=(),
            passes_in_row=0,
            runout_passes=None,
            turn=self.turn + 1,
        )
        return state._note_runout()

    @property
    def returns(self: ErosionState) -> tuple[float, ...]:
        """+1 for the winner and -1 for the others; several seats still tied after the
        tie-breaker share first place with 0."""
        n = self.game.num_players
        if not self.over:
            return (0.0,) * n
        if len(self.winners) == 1:
            return tuple(1.0 if p in self.winners else -1.0 for p in range(n))
        return tuple(0.0 if p in self.winners else -1.0 for p in range(n))

    def level_with(self: ErosionState) -> str:
        """Once over, where the winner's total is another's too: "on the tie-breaker, level
        with Andes on 8" ('ties are broken by guessing the hardness'); else empty. Said at
        the end, or it reads as if the rules had picked a winner among equals at random."""
        if not self.over or len(self.winners) != 1:
            return ""
        winner = self.winners[0]
        best = self.scores[winner]
        level = [
            self.game.seat_name(p) for p, s in enumerate(self.scores) if s == best and p != winner
        ]
        return f"on the tie-breaker, level with {listed(level)} on {best}" if level else ""

    def _why_over(self: ErosionState) -> str | None:
        """Why the last era ended, and how the tie-breaker settled a tie for the win."""
        if not self.end_reason:
            return None
        names = [self.game.seat_name(p) for p in self.winners]
        if clause := self.level_with():
            return f"{self.end_reason}; {names[0]} won {clause}"
        if len(self.winners) > 1:
            best = self.scores[self.winners[0]]
            left = "and the tie-breaker left them level"
            return f"{self.end_reason}; {listed(names)} were level on {best}, {left}"
        return self.end_reason

    @property
    def result(self: ErosionState) -> dict[str, Any]:
        """Scores per era and in total, the winner(s), and why the last era ended (with how
        a tie for the win was settled)."""
        game = self.game
        n = game.num_players
        winner = self.winners[0] if len(self.winners) == 1 else None
        return {
            "over": self.over,
            "reason": self._why_over(),
            "era": self.era,
            "eras": game.eras,
            "scores": list(self.scores),
            "era_scores": [list(s) for s in self.era_scores],
            "points_now": [self.points(p, hidden=False) for p in range(n)],
            "winner": winner,
            "winner_name": None if winner is None else game.seat_name(winner),
            "winners": list(self.winners),
        }
