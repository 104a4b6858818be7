"""Erosion's transitions: the four player actions, uplift, draws and the Atmospheric
Triggers, and the Montane Legend Variant's claims."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from meeple.core.game import Player
from meeple.games.erosion.cards import (
    ROCK_CLASS,
    UPON_UPLIFT,
)
from meeple.games.erosion.pieces import (
    HAND_SIZE,
    Choose,
    Draw,
    ErosionAction,
    Fault,
    Fluvial,
    Guess,
    Hillslope,
    Pass,
    Pay,
    Redraw,
    Step,
    Transport,
    Trigger,
    Uplift,
    Weather,
    put,
    without,
)

if TYPE_CHECKING:
    from meeple.games.erosion.rules import ErosionState


ALL_PASSED = "all players passed in a row"
"""Why an era ends when every seat passed in a row."""


def second_pass(seat_name: str) -> str:
    """Why an era ends when a seat passes the second time after a deck ran out."""
    return f"{seat_name} passed a second time after a deck ran out"


class Transitions:
    """How an action changes a state (mixed into :class:`ErosionState`)."""

    __slots__ = ()

    def _next(self: ErosionState, player: Player, action: ErosionAction) -> ErosionState:
        state = self._act(player, action)
        return state._settle()

    def _act(self: ErosionState, player: Player, action: ErosionAction) -> ErosionState:
        cat = self.game.catalog
        if isinstance(action, Pass):
            return self._pass(player)
        if isinstance(action, (Weather, Hillslope, Fluvial)):
            c = cat.index[action.card]
            played = replace(
                self,
                hands=put(self.hands, player, without(self.hands[player], c)),
                discards=put(self.discards, player, (*self.discards[player], c)),
                passes_in_row=0,
            )
            return played._process(player, c, action)
        if isinstance(action, (Draw, Redraw)):
            if self.agenda:
                return self._draw(player, action.counts)._pop()
            state = self
            if isinstance(action, Redraw):
                state = replace(
                    self,
                    hands=put(self.hands, player, ()),
                    discards=put(self.discards, player, self.discards[player] + self.hands[player]),
                )
            state = state._draw(player, action.counts)
            return replace(state, passes_in_row=0, agenda=(Step("end", player),))
        if isinstance(action, Uplift):
            return self._uplift(player, cat.index[action.card])
        if isinstance(action, Transport):
            step = self.agenda[0]
            pay = Step("pay", player, step.number, cat.index[action.card])
            return replace(self, agenda=(pay, *self.agenda[1:]))
        if isinstance(action, Pay):
            return self._pay(player, cat.index[action.card])
        if isinstance(action, Trigger):
            a = cat.atm_index[action.card]
            return replace(
                self._pop(),
                aged=put(self.aged, a, not self.aged[a]),
                triggered=(*self.triggered, a),
            )
        if isinstance(action, Fault):
            return self._pop()._erode(action.mountain, 1)
        if isinstance(action, Guess):
            return self._guess(player, action.hardness)
        if isinstance(action, Choose):
            return self._pop()._tie_decided((action.seat,))
        raise TypeError(f"not an Erosion action: {action!r}")

    def _pop(self: ErosionState) -> ErosionState:
        return replace(self, agenda=self.agenda[1:])

    def _process(
        self: ErosionState, player: Player, card: int, action: ErosionAction
    ) -> ErosionState:
        """Resolve a WX, H or F play: its rocks, then what follows in the turn."""
        tail = (Step("refill", player), Step("end", player))
        if isinstance(action, Fluvial):
            return replace(self, agenda=(Step("transport", player, action.rocks), *tail))
        assert isinstance(action, (Weather, Hillslope))
        m = action.mountain
        if isinstance(action, Weather):
            targets = self.weather_targets(player, card, m)
            rocks = action.rocks or len(targets)
            state = self._weather(m, targets[:rocks])
        else:
            rocks = action.rocks
            state = self._erode(m, rocks)
        # 'For each card that you weather or hillslope, draw a card ... If you then have more
        # cards than 6, reduce your hand to 6 ... as uplifted rocks.'
        uplift = (Step("draw", player, rocks), Step("uplift", player))
        if self.game.options.empty_hand == "before-uplift":
            # 'If your play empties your hand, draw 6' read literally: at once, so the
            # uplift draws come on top of the six and are uplifted.
            return replace(state, agenda=(tail[0], *uplift, tail[1]))
        return replace(state, agenda=(*uplift, *tail))

    def _erode(self: ErosionState, mountain: int, rocks: int) -> ErosionState:
        """Move the top ``rocks`` (weathered) rocks of a mountain to the River."""
        top = self.mountains[mountain][:rocks]
        state = replace(
            self,
            mountains=put(self.mountains, mountain, self.mountains[mountain][rocks:]),
            weathered=put(self.weathered, mountain, self.weathered[mountain] - rocks),
            river=self.river + top,
        )
        return state._weather(mountain, []) if self.below(mountain) else state

    def _weather(self: ErosionState, mountain: int, rocks: list[int]) -> ErosionState:
        """Mark rocks of a mountain weathered: those that join the weathered run at the top
        count in :attr:`weathered`, the others (pass-over only) in :attr:`weathered_below`."""
        pile = self.mountains[mountain]
        below = set(self.below(mountain)) | set(rocks)
        top = self.weathered[mountain]
        while top < len(pile) and pile[top] in below:
            below.discard(pile[top])
            top += 1
        state = replace(self, weathered=put(self.weathered, mountain, top))
        if below or state.weathered_below:
            n = self.game.num_players
            lists = state.weathered_below or ((),) * n
            lists = put(lists, mountain, tuple(sorted(below)))
            state = replace(state, weathered_below=lists if any(lists) else ())
        return state

    def _draw(self: ErosionState, player: Player, counts: tuple[int, int, int]) -> ErosionState:
        """Draw from the tops of the decks (all chosen before looking)."""
        decks = list(self.decks)
        drawn: list[int] = []
        for d, k in enumerate(counts):
            if k:
                drawn += decks[d][-k:]
                decks[d] = decks[d][:-k]
        hand = tuple(sorted(self.hands[player] + tuple(drawn)))
        state = replace(
            self, decks=(decks[0], decks[1], decks[2]), hands=put(self.hands, player, hand)
        )
        return state._note_runout()

    def _note_runout(self: ErosionState) -> ErosionState:
        """Start counting passes once a deck has run out ('after the last card has been
        drawn from any deck')."""
        if self.runout_passes is None and not all(self.decks):
            return replace(self, runout_passes=(0,) * self.game.num_players)
        return self

    def _uplift(self: ErosionState, player: Player, card: int) -> ErosionState:
        """A card from the hand goes to the base of the mountain; 'upon uplift' architecture
        resolves at once (Advanced Rules)."""
        cat = self.game.catalog
        state = replace(
            self,
            hands=put(self.hands, player, without(self.hands[player], card)),
            mountains=put(self.mountains, player, (*self.mountains[player], card)),
        )
        effect = cat.effect[card]
        if not self.game.options.advanced or effect is None:
            return state
        if self.game.options.uplift_architecture == "once" and effect.kind in UPON_UPLIFT:
            # 'Rules that say "upon uplift" apply only when the card is first uplifted'
            if card in self.fired:
                return state
            state = replace(state, fired=tuple(sorted((*self.fired, card))))
        extra: tuple[Step, ...] = ()
        if effect.kind == "uplift_trigger":
            extra = tuple(Step("trigger", player, age=age) for age in effect.ages)
        elif effect.kind == "uplift_hillslope":
            extra = tuple(Step("fault", player) for _ in range(effect.rocks))
        return replace(state, agenda=extra + state.agenda)

    def _pay(self: ErosionState, player: Player, card: int) -> ErosionState:
        """The paid rock goes to the discards and the River rock to the delta."""
        step = self.agenda[0]
        river_rock = step.card
        rest = self.agenda[1:]
        if step.number > 1:
            rest = (Step("transport", player, step.number - 1), *rest)
        return replace(
            self,
            hands=put(self.hands, player, without(self.hands[player], card)),
            discards=put(self.discards, player, (*self.discards[player], card)),
            river=without(self.river, river_rock),
            deltas=put(self.deltas, player, tuple(sorted((*self.deltas[player], river_rock)))),
            agenda=rest,
        )

    def pass_ends_era(self: ErosionState, player: Player) -> bool:
        """Whether ``player`` passing now ends the era: every player has then passed in a
        row, or it is ``player``'s second pass since a deck ran out."""
        if self.passes_in_row + 1 >= self.game.num_players:
            return True
        return self.runout_passes is not None and self.runout_passes[player] + 1 >= 2

    def _pass(self: ErosionState, player: Player) -> ErosionState:
        """A pass; the era ends when all players pass in a row, or when a seat passes the
        second time after a deck ran out (:meth:`pass_ends_era`)."""
        runout = self.runout_passes
        if runout is not None:
            runout = put(runout, player, runout[player] + 1)
        state = replace(self, passes_in_row=self.passes_in_row + 1, runout_passes=runout)
        if self.pass_ends_era(player):
            if state.passes_in_row >= self.game.num_players:
                return state._end_era(ALL_PASSED)
            return state._end_era(second_pass(self.game.seat_name(player)))
        return replace(state, agenda=(Step("end", player),))

    def _end_turn(self: ErosionState) -> ErosionState:
        n = self.game.num_players
        return replace(
            self,
            agenda=self.agenda[1:],
            current=(self.current + 1) % n,
            triggered=(),
            turn=self.turn + 1,
        )

    def automatic_steps(
        self: ErosionState, player: Player, action: ErosionAction
    ) -> list[tuple[Player, ErosionAction]]:
        """The steps with a single possible choice that the engine takes itself once
        ``player`` has played ``action`` here (a forced draw, uplift or payment), in order:
        what a move log shows after the move, since the record holds only the move."""
        return [(seat, step) for seat, step, _ in self.forced_steps(player, action)]

    def forced_steps(
        self: ErosionState, player: Player, action: ErosionAction
    ) -> list[tuple[Player, ErosionAction, ErosionState]]:
        """:meth:`automatic_steps`, each with the state it was taken from (to say it in
        words)."""
        taken: list[tuple[Player, ErosionAction, ErosionState]] = []
        self._act(player, action)._settle(taken)
        return taken

    def _settle(
        self: ErosionState,
        taken: list[tuple[Player, ErosionAction, ErosionState]] | None = None,
    ) -> ErosionState:
        """Carry out every step that needs no decision; stop at the next real choice.
        ``taken``: a list that the single-choice actions taken are added to, each with the
        state it was taken from."""
        state = self
        while not state.over and state.agenda:
            step = state.agenda[0]
            kind = step.kind
            if kind == "end":
                state = state._end_turn()
            elif kind == "refill":
                # 'If your play empties your hand, draw 6 new cards, observing draw limits.'
                if state.hands[step.seat]:
                    state = state._pop()
                else:
                    draw = Step("draw", step.seat, HAND_SIZE)
                    state = replace(state, agenda=(draw, *state.agenda[1:]))
            elif kind == "uplift" and len(state.hands[step.seat]) <= HAND_SIZE:
                state = state._pop()
            elif kind == "settle_tie":
                state = state._pop()._settle_tie()
            else:
                options = state._step_actions(step)
                if len(options) > 1 or (options and not state.game.options.auto_steps):
                    break
                if options and taken is not None:
                    taken.append((step.seat, options[0], state))
                state = state._act(step.seat, options[0]) if options else state._pop()
        return state._claim_legends()

    # -- legends (variant) ------------------------------------------------------------------
    def legend_met(self: ErosionState, legend: int, seat: int) -> bool:
        """A legend's condition: the height, and the capstone rock type (basic claims), or
        both listed types as the top two rocks in any order (advanced claims)."""
        card = self.game.legend_cards[legend]
        rocks = self.mountains[seat]
        if self.height_m(seat) < card.condition.min_height_m or not rocks:
            return False
        cat = self.game.catalog
        wanted = card.condition.rocks
        if self.game.options.legend == "advanced":
            return len(rocks) >= 2 and sorted(cat.rock[r] for r in rocks[:2]) == sorted(wanted)
        return cat.rock[rocks[0]] in wanted

    def _claim_legends(self: ErosionState) -> ErosionState:
        if not self.game.legend_cards or self.over:
            return self
        n = self.game.num_players
        owners = list(self.legends)
        for i, owner in enumerate(owners):
            if owner >= 0:
                continue
            for k in range(n):
                seat = (self.current + k) % n
                if self.legend_met(i, seat):
                    owners[i] = seat
                    break
        owned = tuple(owners)
        return self if owned == self.legends else replace(self, legends=owned)

    def challenge_met(self: ErosionState, seat: int) -> bool:
        """Whether the seat meets its challenge card's condition now."""
        if not self.challenges:
            return False
        cond = self.game.challenge_cards[self.challenges[seat]].condition
        cat = self.game.catalog
        rocks = self.mountains[seat]
        weathered = self.weathered_rocks(seat)
        if cond.kind == "height_at_least":
            return self.height_m(seat) >= cond.metres
        if cond.kind == "delta_at_least":
            return len(self.deltas[seat]) >= cond.rocks
        if cond.kind == "weathered_fossils_at_least":
            return sum(cat.fossil[r] for r in weathered) >= cond.rocks
        if cond.kind == "class_in_mountain_at_least":
            return sum(ROCK_CLASS[cat.rock[r]] == cond.rock_class for r in rocks) >= cond.rocks
        if cond.kind == "unweathered_at_least":
            return len(rocks) - len(weathered) >= cond.rocks
        return bool(rocks) and not weathered
