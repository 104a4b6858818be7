"""Erosion's legal actions: what each step of a turn allows a seat to do."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.game import Player
from meeple.core.words import counted
from meeple.games.erosion.cards import (
    AGE_NAMES,
)
from meeple.games.erosion.pieces import (
    HAND_SIZE,
    HARDNESSES,
    Choose,
    Draw,
    ErosionAction,
    Fault,
    Fluvial,
    Guess,
    Hillslope,
    Pay,
    Redraw,
    Step,
    Transport,
    Trigger,
    Uplift,
    Weather,
    matchable,
    without,
)

if TYPE_CHECKING:
    from meeple.games.erosion.rules import ErosionState


class LegalActions:
    """The legal actions of a state (mixed into :class:`ErosionState`)."""

    __slots__ = ()

    def legal_actions(self: ErosionState, player: Player) -> list[ErosionAction]:
        """Every action ``player`` may take now (empty if the seat is not to act)."""
        if player not in self.to_act:
            return []
        if not self.agenda:
            return self._turn_actions(player)
        return self._step_actions(self.agenda[0])

    def unplayable(self: ErosionState, player: Player) -> dict[str, str]:
        """The process cards in the seat's hand that no action of its turn can play, each
        with why ('A card may not be played unless it processes at least one rock'): none
        outside the choice of a turn's action, when no card is played."""
        if player not in self.to_act or self.agenda:
            return {}
        played = {
            a.card
            for a in self._turn_actions(player)
            if isinstance(a, (Weather, Hillslope, Fluvial))
        }
        cat = self.game.catalog
        return {
            cat.ids[c]: self._unplayable_words(player, c)
            for c in dict.fromkeys(self.hands[player])
            if cat.ids[c] not in played
        }

    def _unplayable_words(self: ErosionState, player: Player, card: int) -> str:
        """Why a card of the hand cannot be played anywhere this turn."""
        cat = self.game.catalog
        name, kind, icon = cat.ids[card], cat.kind[card], cat.icon[card]
        if kind == "transport_n" and not self.river:
            return f"{name} transports rocks from the River, and the River is empty"
        if kind == "transport_n":
            possible = matchable(self.river, without(self.hands[player], card), cat.rock)
            each = "paid for" if cat.n[card] == 1 else "each paid for"
            can = f"only {possible} can be" if possible else "none can be"
            return (
                f"{name} transports exactly {counted(cat.n[card], 'rock')} from the River, "
                f"{each} with a rock of its type from your hand, and {can}"
            )
        need = "under 4000 m" if icon == "hill" else "of 4000 m or more"
        if not any(self.icon_allows(card, m) for m in range(self.game.num_players)):
            return (
                f"{name} has a {icon} icon: it plays only on a mountain {need} (as at the start "
                "of your turn), and none is"
            )
        where = f"no mountain {need}" if icon is not None else "no mountain"
        if kind == "hillslope_n":
            return f"{name} moves weathered rocks, and {where} has one"
        return (
            f"{name} weathers {self._weathers_what(card)}, and the top unweathered rock of {where}"
            " is one"
        )

    def _weathers_what(self: ErosionState, card: int) -> str:
        """The rocks a weathering card weathers, in words ("rocks of hardness 6 or less")."""
        cat = self.game.catalog
        types = sorted(cat.types[card])
        what = (
            f"of hardness {cat.max_hardness[card]} or less"
            if cat.kind[card] == "weather_n"
            else "of type "
            + " or ".join([", ".join(types[:-1]), types[-1]] if types[1:] else types)
        )
        unless = ", unless their architecture resists it" if self.game.options.advanced else ""
        return f"rocks {what}{unless}"

    def _turn_actions(self: ErosionState, player: Player) -> list[ErosionAction]:
        game = self.game
        cat = game.catalog
        table = game._ids
        acts = game._actions
        out: list[ErosionAction] = []
        n = game.num_players
        for c in self.hands[player]:
            kind = cat.kind[c]
            cid = cat.ids[c]
            if kind == "weather_n":
                for m in range(n):
                    for k in range(1, self.weather_reach(player, c, m) + 1):
                        out.append(acts[table[Weather(cid, m, k)]])
            elif kind == "weather_types":
                for m in range(n):
                    if self.weather_reach(player, c, m):
                        out.append(acts[table[Weather(cid, m, 0)]])
            elif kind == "hillslope_n":
                for m in range(n):
                    for k in range(1, self.hillslope_reach(c, m) + 1):
                        out.append(acts[table[Hillslope(cid, m, k)]])
            else:
                for k in self.fluvial_counts(player, c):
                    out.append(acts[table[Fluvial(cid, k)]])
        hand = len(self.hands[player])
        # 'Draw a number of cards from any of the 3 process decks' (option draw_from)
        one = game.options.draw_from == "one"
        if hand < HAND_SIZE:
            ways = self.draw_options(player, HAND_SIZE - hand, one)
            out += [acts[table[Draw(*s)]] for s in ways]
        if hand:
            out += [acts[table[Redraw(*s)]] for s in self.draw_options(player, HAND_SIZE, one)]
        out.append(acts[0])
        return out

    def _step_actions(self: ErosionState, step: Step) -> list[ErosionAction]:
        game = self.game
        cat = game.catalog
        acts, table = game._actions, game._ids
        seat = step.seat
        kind = step.kind
        if kind == "draw":
            return [acts[table[Draw(*s)]] for s in self.draw_options(seat, step.number)]
        if kind == "uplift":
            return [acts[table[Uplift(cat.ids[c])]] for c in dict.fromkeys(self.hands[seat])]
        if kind == "transport":
            have = {cat.rock[c] for c in self.hands[seat]}
            return [acts[table[Transport(cat.ids[c])]] for c in self.river if cat.rock[c] in have]
        if kind == "pay":
            rock = cat.rock[step.card]
            return [acts[table[Pay(cat.ids[c])]] for c in self.hands[seat] if cat.rock[c] == rock]
        if kind == "trigger":
            return [acts[table[Trigger(cat.atmospheres[a].id)]] for a in self._triggerable(step)]
        if kind == "fault":
            n = game.num_players
            return [acts[table[Fault(m)]] for m in range(n) if self.weathered[m]]
        if kind == "guess":
            return [acts[table[Guess(g)]] for g in HARDNESSES]
        if kind == "choose":
            assert self.tie is not None
            return [acts[table[Choose(s)]] for s in self.tie.seats]
        return []

    def _triggerable(self: ErosionState, step: Step) -> list[int]:
        cat = self.game.catalog
        return [
            i
            for i, atm in enumerate(cat.atmospheres)
            if (step.age == "any" or atm.age == step.age) and i not in self.triggered
        ]

    def why_illegal(self: ErosionState, player: Player, action: ErosionAction) -> str | None:
        """None for a legal action; otherwise the rule it breaks, as specifically as we can."""
        legal = self.legal_actions(player)
        if action in legal:
            return None
        return self._reason(player, action) or f"{action} is not possible now"

    def _reason(self: ErosionState, player: Player, action: ErosionAction) -> str | None:
        game = self.game
        cat = game.catalog
        phase = self.phase
        if phase == "draw" and isinstance(action, Draw):
            caps = self.draw_caps(player)
            total = min(self.agenda[0].number, sum(caps))
            return (
                f"draw exactly {counted(total, 'card')} with at most "
                f"WX{caps[0]} H{caps[1]} F{caps[2]} (draw limits, and the cards left in each deck)"
            )
        if phase != "turn":
            wanted = {
                "draw": "choose the cards to draw ('draw WX1 H1 F0')",
                "uplift": "uplift cards from your hand to the base of your mountain until "
                "you hold six ('uplift WX12')",
                "transport": "choose a rock in the River to transport ('transport F81')",
                "pay": "pay for the rock with a rock of the same type from your hand",
                "trigger": "choose the Atmosphere card to trigger ('trigger ATM3')",
                "fault": "choose a mountain with a weathered rock for the Earthquake Fault",
                "guess": "guess the Mohs hardness of the rock you drew ('guess 1' to 'guess 10')",
                "choose": "choose which tied seat takes the tie ('choose <seat>')",
            }[phase]
            if (
                isinstance(action, (Pay, Uplift))
                and cat.index[action.card] not in self.hands[player]
            ):
                return f"{action.card} is not in your hand"
            if isinstance(action, Pay) and phase == "pay":
                rock = cat.rock[self.agenda[0].card]
                return f"the River rock is {rock}: pay with a {rock} from your hand"
            if isinstance(action, Transport) and phase == "transport":
                c = cat.index[action.card]
                if c not in self.river:
                    return f"{action.card} is not in the River"
                return f"you have no {cat.rock[c]} in hand to pay for {action.card}"
            if isinstance(action, Trigger) and phase == "trigger":
                age = self.agenda[0].age
                if cat.atm_index[action.card] in self.triggered:
                    return f"{action.card} was already triggered this turn (once per turn)"
                return f"this trigger is for one {AGE_NAMES.get(age, 'any')} atmosphere"
            return f"now {wanted}"
        if isinstance(action, (Weather, Hillslope, Fluvial)):
            c = cat.index[action.card]
            if c not in self.hands[player]:
                return f"{action.card} is not in your hand"
            if isinstance(action, Fluvial):
                possible = matchable(self.river, without(self.hands[player], c), cat.rock)
                if action.rocks != cat.n[c]:
                    return (
                        f"{action.card} transports exactly {counted(cat.n[c], 'rock')} (one "
                        "more only with a Glacier on a mountain of 4000 m or more)"
                    )
                return (
                    f"{action.card} must transport exactly {counted(action.rocks, 'rock')}, but "
                    f"only {possible} River rocks can be paid for with matching rocks in your hand"
                )
            m = action.mountain
            icon = cat.icon[c]
            if not self.icon_allows(c, m):
                need = "under 4000 m" if icon == "hill" else "4000 m or more"
                return (
                    f"{action.card} has a {icon} icon: it plays only on mountains {need} at the "
                    f"start of your turn, and mountain {m} is {self.height_m(m)} m"
                )
            if isinstance(action, Weather):
                reach = self.weather_reach(player, c, m)
                if reach == 0:
                    # Why, in the rock's own numbers: a mountain's rocks are drawn without
                    # their hardness, and "cannot weather the top rock" left it a riddle.
                    standing = self.unweathered_rocks(m)
                    top = (
                        f"is {cat.rock[standing[0]]}, hardness {cat.mohs[standing[0]]}"
                        if standing
                        else "is none: every rock is weathered"
                    )
                    return (
                        f"{action.card} weathers {self._weathers_what(c)}, and the top unweathered"
                        f" rock of mountain {m} {top} (a card may not be played unless it processes"
                        " at least one rock)"
                    )
                if cat.kind[c] == "weather_types" and action.rocks:
                    return f"{action.card} weathers every unshielded rock it lists; omit x"
                if cat.kind[c] == "weather_n":
                    return self._weather_count_words(player, c, m, reach)
            else:
                if self.weathered[m] == 0:
                    return f"mountain {m} has no weathered rock to hillslope"
                return f"{action.card} can hillslope 1 to {self.hillslope_reach(c, m)} rocks"
        if isinstance(action, (Draw, Redraw)):
            hand = len(self.hands[player])
            up_to = HAND_SIZE - hand if isinstance(action, Draw) else HAND_SIZE
            if isinstance(action, Draw) and hand >= HAND_SIZE:
                return "your hand is full (6 cards)"
            caps = self.draw_caps(player)
            total = min(up_to, sum(caps))
            if total == 0:
                return "the draw limits (or empty decks) allow no card to be drawn"
            return (
                f"draw exactly {counted(total, 'card')} with at most "
                f"WX{caps[0]} H{caps[1]} F{caps[2]} (draw limits, and the cards left in each deck)"
            )
        return None

    def _weather_count_words(
        self: ErosionState, player: Player, card: int, mountain: int, reach: int
    ) -> str:
        """Why a count of rocks is wrong for a numbered WX card on this mountain: what its
        number (with the architecture's bonus) allows or, where the mountain allows fewer,
        the rock that stops it (it shields those below)."""
        cat = self.game.catalog
        name = cat.ids[card]
        limit = self.weather_limit(player, card)
        write = "write x1" if reach == 1 else f"write x1 to x{reach}"
        if reach >= limit:
            bonus = " with your architecture's bonus" if limit > cat.n[card] else ""
            return f"{name} weathers at most {counted(limit, 'rock')}{bonus}: {write}"
        below = self.below(mountain)
        rest = [r for r in self.mountains[mountain][self.weathered[mountain] :] if r not in below]
        if len(rest) <= reach:
            why = f"mountain {mountain} has no more unweathered rock"
        elif cat.mohs[stop := rest[reach]] > cat.max_hardness[card]:
            why = (
                f"the next rock, {cat.ids[stop]} ({cat.rock[stop]}, hardness {cat.mohs[stop]}), "
                f"is harder than the {cat.max_hardness[card]} it weathers, and shields those below"
            )
        else:
            why = f"the next rock, {cat.ids[stop]}, resists it, and shields those below"
        only = f"{name} can weather only {counted(reach, 'rock')} of mountain {mountain}"
        return f"{only} ({write}): {why}"
