"""Erosion's notation and action ids: every action that can ever be legal, in a fixed order,
and how a player writes one (``weather WX12 on 1 x2``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from meeple.core.errors import NotationError
from meeple.core.words import counted
from meeple.games.erosion.cards import PROCESS_DECKS
from meeple.games.erosion.pieces import (
    _CARD_WORD_RE,
    _DRAW_PART_RE,
    _DRAW_RE,
    _FLUVIAL_RE,
    _NUMBER_RE,
    _WEATHER_RE,
    HAND_SIZE,
    HARDNESSES,
    WX,
    Catalog,
    Choose,
    Draw,
    ErosionAction,
    F,
    Fault,
    Fluvial,
    Guess,
    H,
    Hillslope,
    Pass,
    Pay,
    Redraw,
    Transport,
    Trigger,
    Uplift,
    Weather,
)

if TYPE_CHECKING:
    from meeple.games.erosion.rules import ErosionOptions


class Notation:
    """Action ids and notation (mixed into :class:`~meeple.games.erosion.rules.ErosionGame`,
    which builds the list once per game: its length depends on the seats and the cards)."""

    catalog: Catalog
    if TYPE_CHECKING:
        # The game's seats (a read-only property of the game that mixes this in).
        @property
        def num_players(self) -> int: ...

        # The game's options (the Advanced Rules: architecture), set by the game.
        options: ErosionOptions

    _actions: tuple[ErosionAction, ...]
    _ids: dict[ErosionAction, int]

    def _build_actions(self) -> None:
        """Every action that can ever be legal, in a fixed order: its index is its id.

        A play lists only the counts its card can reach: a numeric WX card 1 to its number
        (plus an Exfoliation Dome's bonus), a typed WX card none (it weathers all it can), an
        H card 1 to its number, an F card its number (or one more with a Glacier).
        """
        cat = self.catalog
        n = self.num_players
        actions: list[ErosionAction] = [Pass()]
        for c in cat.by_deck[WX]:
            top = cat.n[c] + cat.weather_bonus if cat.kind[c] == "weather_n" else 0
            counts = range(1, top + 1) if top else (0,)
            actions += [Weather(cat.ids[c], m, k) for m in range(n) for k in counts]
        for c in cat.by_deck[H]:
            actions += [
                Hillslope(cat.ids[c], m, k) for m in range(n) for k in range(1, cat.n[c] + 1)
            ]
        for c in cat.by_deck[F]:
            actions += [
                Fluvial(cat.ids[c], k) for k in range(cat.n[c], cat.n[c] + cat.transport_bonus + 1)
            ]
        splits = [
            (a, b, c)
            for a in range(7)
            for b in range(7)
            for c in range(7)
            if a + b + c <= HAND_SIZE
        ]
        actions += [Draw(*s) for s in splits if sum(s)]
        actions += [Redraw(*s) for s in splits if sum(s)]
        ids = cat.ids[: cat.num_process]
        actions += [Uplift(i) for i in ids]
        actions += [Transport(i) for i in ids]
        actions += [Pay(i) for i in ids]
        actions += [Trigger(a.id) for a in cat.atmospheres]
        actions += [Fault(m) for m in range(n)]
        actions += [Guess(g) for g in HARDNESSES]
        actions += [Choose(s) for s in range(n)]
        self._actions = tuple(actions)
        self._ids = {a: i for i, a in enumerate(actions)}

    def action(self, action: ErosionAction) -> ErosionAction:
        """The shared instance of an action (legal-move lists hand out shared objects)."""
        return self._actions[self._ids[action]]

    def _parse_action(self, text: str) -> ErosionAction:
        """Read an action in the notation of :meth:`notation_help`."""
        words = text.strip().lower()
        if words == "pass":
            return self._actions[0]
        cat = self.catalog
        m = _WEATHER_RE.match(text)
        if m:
            verb, card, seat, rocks = m.groups()
            card = self._card_id(card, "WX" if verb.lower() == "weather" else "H")
            action: ErosionAction
            if verb.lower() == "weather":
                action = Weather(card, int(seat), int(rocks or 0))
            else:
                action = Hillslope(card, int(seat), int(rocks or 0))
            return self._known(action, text)
        m = _FLUVIAL_RE.match(text)
        if m:
            card = self._card_id(m.group(1), "F")
            rocks = int(m.group(2)) if m.group(2) else cat.n[cat.index[card]]
            return self._known(Fluvial(card, rocks), text)
        m = _DRAW_RE.match(text)
        if m:
            rest = m.group(2)
            counts = {"WX": 0, "H": 0, "F": 0}
            for deck, k in _DRAW_PART_RE.findall(rest):
                counts[deck.upper()] += int(k)
            if _DRAW_PART_RE.sub("", rest).strip(" ,") or not _DRAW_PART_RE.search(rest):
                raise NotationError(
                    f"{text!r}: write the cards from each deck, e.g. "
                    f"'{m.group(1).lower()} WX2 H1 F0'"
                )
            cls = Draw if m.group(1).lower() == "draw" else Redraw
            return self._known(cls(counts["WX"], counts["H"], counts["F"]), text)
        m = _CARD_WORD_RE.match(text)
        if m:
            verb = m.group(1).lower()
            if verb == "trigger":
                card = m.group(2).upper()
                if card not in cat.atm_index:
                    atms = ", ".join(a.id for a in cat.atmospheres)
                    raise NotationError(f"{text!r}: there is no Atmosphere card {card} ({atms})")
                return self._known(Trigger(card), text)
            card = self._card_id(m.group(2), None)
            by_card: dict[str, type[Uplift | Transport | Pay]]
            by_card = {"uplift": Uplift, "transport": Transport, "pay": Pay}
            return self._known(by_card[verb](card), text)
        m = _NUMBER_RE.match(text)
        if m:
            verb, number = m.group(1).lower(), int(m.group(2))
            by_number: dict[str, type[Guess | Choose | Fault]]
            by_number = {"guess": Guess, "choose": Choose, "fault": Fault}
            return self._known(by_number[verb](number), text)
        raise NotationError(f"{text!r} is not an Erosion action; {self.notation_help()}")

    def _card_id(self, text: str, deck: str | None) -> str:
        card = text.upper()
        i = self.catalog.process_card(card)
        # "WX9" is WX09: the ids' zero is no part of the card's number (a terminal newcomer
        # was told there is no card WX9, WX01-WX38 named beside it). Looked for only where
        # the id as written names no card: every record's replay parses its moves here.
        if i < 0 and (number := re.fullmatch(r"([A-Z]+)0*(\d+)", card)):
            same = [c for c in self.catalog.index if re.fullmatch(rf"{number[1]}0*{number[2]}", c)]
            if len(same) == 1:
                card = same[0]
                i = self.catalog.process_card(card)
        if i < 0:
            raise NotationError(f"there is no process card {card} (WX01-WX38, H39-H70, F71-F90)")
        if deck is not None and PROCESS_DECKS[self.catalog.deck[i]] != deck:
            word = {"WX": "weathering", "H": "hillslope", "F": "fluvial"}[deck]
            raise NotationError(f"{card} is not a {deck} card, so it cannot be played as {word}")
        return card

    def _known(self, action: ErosionAction, text: str) -> ErosionAction:
        found = self._ids.get(action)
        if found is not None:
            return self._actions[found]
        cat = self.catalog
        n = self.num_players
        mountain = getattr(action, "mountain", 0)
        if mountain >= n:
            raise NotationError(f"{text!r}: there is no mountain {mountain} (seats 0-{n - 1})")
        if isinstance(action, Weather):
            c = cat.index[action.card]
            if cat.kind[c] == "weather_types":
                listed = ", ".join(sorted(cat.types[c]))
                raise NotationError(
                    f"{text!r}: {action.card} weathers every unshielded {listed} rock it "
                    "reaches; write it without a count"
                )
            # Architecture is of the Advanced Rules: without them no bonus is to be had.
            top, bonus = cat.n[c], cat.weather_bonus if self.options.advanced else 0
            counts = "x1" if top == 1 else f"x1 to x{top}"
            more = f" (up to x{top + bonus} with your architecture's bonus)" if bonus else ""
            raise NotationError(
                f"{text!r}: say how many rocks {action.card} weathers: {counts}{more}"
            )
        if isinstance(action, Hillslope):
            c = cat.index[action.card]
            raise NotationError(f"{text!r}: {action.card} hillslopes x1 to x{cat.n[c]} rocks")
        if isinstance(action, Fluvial):
            c = cat.index[action.card]
            raise NotationError(
                f"{text!r}: {action.card} transports exactly {counted(cat.n[c], 'rock')} (one more "
                "with a "
                "Glacier)"
            )
        if isinstance(action, (Draw, Redraw)):
            raise NotationError(f"{text!r}: a draw is 1 to 6 cards in all")
        raise NotationError(
            f"{text!r} is out of range (seats 0-{n - 1}, guesses 1-10, mountains 0-{n - 1})"
        )

    def notation_help(self) -> str:
        """How to write an action."""
        return (
            "write 'weather WX12 on 1 x2' (card WX12 on the mountain of seat 1, 2 rocks; a "
            "card listing rock types takes no x: 'weather WX04 on 1'), "
            "'hillslope H45 on 0 x1', 'fluvial F74 x2', 'draw WX2 H1 F0' (cards from each deck), "
            "'redraw WX2 H2 F2', 'pass'; during a turn: 'uplift WX12', 'transport F81', "
            "'pay F85', 'trigger ATM3', 'fault on 2'; tie-breaker: 'guess 7', 'choose 1'"
        )

    @property
    def num_actions(self) -> int:
        """Pass, the plays (card x mountain x rocks), draw splits, then the turn's steps."""
        return len(self._actions)

    def action_id(self, action: ErosionAction) -> int:
        """Position in the fixed list of every action (see :meth:`num_actions`)."""
        return self._ids[action]

    def action_from_id(self, action_id: int) -> ErosionAction:
        """The action with this id (``Game`` has checked it is one)."""
        return self._actions[action_id]
