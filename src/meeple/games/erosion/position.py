"""Erosion positions as text: see "Position notation" in ``rules.md``.

Cards are written by their id in the card file (``WX01``). The seed is part of the
position: the era's later chance (tie-breaker draws, the next era's shuffle) draws from it.
A seat's view position writes as ``?`` the seed, the other seats' hands and deltas, the
order of the decks and, until they are shown, the other seats' challenge cards.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from meeple.core.position import UNKNOWN, FieldForm, PositionCodec, count_problem
from meeple.games.erosion.cards import PROCESS_DECKS
from meeple.games.erosion.rules import ErosionGame, ErosionState


def _write_card(card: int, game: ErosionGame) -> str:
    return game.catalog.ids[card]


def _read_card(raw: Any, game: ErosionGame) -> int:
    index = game.catalog.index
    if not isinstance(raw, str) or raw not in index or index[raw] >= game.catalog.num_process:
        raise ValueError(f"{raw!r} is not a process card id (like 'WX01', 'H12', 'F30')")
    return index[raw]


def _write_drawn(card: int, game: ErosionGame) -> str | None:
    return None if card < 0 else _write_card(card, game)


def _read_drawn(raw: Any, game: ErosionGame) -> int:
    return -1 if raw is None else _read_card(raw, game)


CARD = FieldForm(_write_card, _read_card)
DRAWN = FieldForm(_write_drawn, _read_drawn)
"""A card that may be none: a tie-breaker's, drawn from an empty hand, or a step's."""
PILES = ("decks", "hands", "mountains", "deltas", "discards")


def check(state: ErosionState) -> str | None:
    """Every process card exactly once (decks, hands, mountains, deltas, discard piles, the
    River, a tie-breaker's drawn cards), each deck holding only its own cards, sorted hands,
    possible counts."""
    game: ErosionGame = state.game
    cat = game.catalog
    n = game.num_players
    for name in ("hands", "mountains", "weathered", "deltas", "discards", "scores"):
        if len(getattr(state, name)) != n:
            return f"{name} has {len(getattr(state, name))} entries for {n} seats"
    cards: Counter[int] = Counter(state.river)
    if state.tie is not None:
        cards.update(c for c in state.tie.cards if c >= 0)
    for name in PILES:
        for pile in getattr(state, name):
            cards.update(pile)
    problem = count_problem(cards, Counter(range(cat.num_process)), cat.ids.__getitem__)
    if problem is not None:
        return problem
    for d, deck in enumerate(state.decks):
        stray = [c for c in deck if cat.deck[c] != d]
        if stray:
            return (
                f"card {cat.ids[stray[0]]} is not a {PROCESS_DECKS[d]} card but lies in that deck"
            )
    for p in range(n):
        name = game.seat_name(p)
        if tuple(sorted(state.hands[p])) != state.hands[p]:
            return f"{name}'s hand must be sorted by card id (a hand has no order)"
        if not 0 <= state.weathered[p] <= len(state.mountains[p]):
            rocks = len(state.mountains[p])
            return f"{name} has {state.weathered[p]} weathered rocks on a mountain of {rocks}"
    if not 0 <= state.current < n:
        return f"current is seat {state.current}; the seats are 0 to {n - 1}"
    if len(state.aged) != len(cat.atmospheres):
        return f"aged has {len(state.aged)} entries for {len(cat.atmospheres)} Atmosphere cards"
    if not 1 <= state.era <= game.eras:
        return f"era {state.era} is outside 1..{game.eras}"
    for step in state.agenda:
        if not -1 <= step.seat < n:
            return f"a step of the agenda names seat {step.seat}"
    return None


def hidden(state: ErosionState, player: int | None) -> dict[str, Any]:
    """The seed, the other hands and deltas, the decks' order, unshown challenges and the
    cards a tie-breaker drew."""
    game: ErosionGame = state.game
    ids = game.catalog.ids

    def own(piles: tuple[tuple[int, ...], ...]) -> list[list[str]]:
        return [
            [ids[c] for c in pile] if p == player else [UNKNOWN] * len(pile)
            for p, pile in enumerate(piles)
        ]

    out: dict[str, Any] = {
        "seed": UNKNOWN,
        "hands": own(state.hands),
        "deltas": own(state.deltas),
        "decks": [[UNKNOWN] * len(deck) for deck in state.decks],
    }
    if state.tie is not None:
        # Each tied seat guesses the hardness of a card drawn unseen from its own hand.
        tie = codec.encode_field(game, "tie", state.tie, codec.hints["tie"])
        out["tie"] = {**tie, "cards": [UNKNOWN] * len(state.tie.cards)}
    if not state.challenges_shown:
        out["challenges"] = [c if p == player else UNKNOWN for p, c in enumerate(state.challenges)]
    return out


codec = PositionCodec(
    ErosionState,
    path_forms={f"{name}[][]": CARD for name in PILES}
    | {"river[]": CARD, "tie.cards[]": DRAWN, "agenda[].card": DRAWN},
    check=check,
    hidden=hidden,
)
"""Reads and writes Erosion positions (found by ``ErosionGame.from_position``)."""
