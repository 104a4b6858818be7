"""Erd positions as text: see "Position notation" in ``rules.md``.

Cards are written as in the moves (``HHL``, ``-`` for none), allocations as moves
(``rush=HHL defense=LDD``). A seat's view position writes the opponent's allocation of the
open round as ``?`` once it is made: the only thing in Erd a seat does not see.
"""

from __future__ import annotations

from typing import Any

from meeple.core.position import UNKNOWN, FieldForm, PositionCodec
from meeple.games.erd.rules import (
    Allocate,
    Cards,
    ErdGame,
    ErdState,
    parse_allocation,
)


def _read_cards(raw: Any, game: ErdGame) -> Cards:
    if not isinstance(raw, str):
        raise ValueError(f"cards are written as letters like 'HHLDD' ('-' for none), not {raw!r}")
    return Cards.parse(raw)


def _read_allocation(raw: Any, game: ErdGame) -> Allocate:
    if not isinstance(raw, str):
        raise ValueError(f"an allocation is written like 'rush=HHL defense=LDD', not {raw!r}")
    return parse_allocation(raw)


def check(state: ErdState) -> str | None:
    """Every seat's cards exactly once (the starting Reserve, Turrets counted as Heavies),
    a pending allocation its Reserve allows, the round and the match possible."""
    game: ErdGame = state.game
    start = game.version.starting_reserve
    for seat, side in enumerate(state.sides):
        name = game.seat_name(seat)
        if min(side.reserve) < 0 or min(side.discard) < 0 or side.turrets < 0:
            return f"{name} has a negative count of cards"
        if side.turrets > start.heavy:  # a Turret is a Heavy: more cannot be owned
            return f"{name} has {side.turrets} Turrets, more than the {start.heavy} Heavies owned"
        if side.all_cards != start:
            return (
                f"{name} owns {side.all_cards} (Reserve {side.reserve}, discard "
                f"{side.discard}, {side.turrets} Turrets), but a player owns exactly {start} "
                f"in rules {game.version.name}"
            )
    if state.pending.seats != (0, 1):
        return "the open allocation is made by both seats, [0, 1]"
    for seat in (0, 1):
        chosen = state.pending.of(seat)
        if chosen is not None:
            problem = game.allocation_problem(state.sides[seat].reserve, chosen)
            if problem is not None:
                return f"{game.seat_name(seat)}'s allocation {chosen}: {problem}"
    if not 1 <= state.round <= game.options.round_limit:
        return f"round {state.round} is outside 1..{game.options.round_limit} (the round limit)"
    best_of = game.options.best_of
    if len(state.games) > best_of:
        return f"{len(state.games)} games are over in a match of best of {best_of}"
    for k in range(1, len(state.games)):
        a = sum(1 for g in state.games[:k] if g.winner == 0)
        b = sum(1 for g in state.games[:k] if g.winner == 1)
        if abs(a - b) > best_of - k:
            return f"the match was decided after game {k}, but more games follow"
    if state.match_over and state.pending.chosen != (None, None):
        return "the match is over, so no allocation is open"
    ends = [*state.games, *([state.last.ending] if state.last and state.last.ending else [])]
    for end in ends:
        if end.winner not in (None, 0, 1) or not 1 <= end.round <= game.options.round_limit:
            winner = "nobody" if end.winner is None else f"seat {end.winner}"
            return (
                f"a game ended in round {end.round} won by {winner}; a game is won by seat "
                f"0, seat 1 or nobody, in rounds 1 to {game.options.round_limit}"
            )
    if state.last is not None and state.last.game_number not in (
        len(state.games),
        len(state.games) + 1,
    ):
        return f"the last combat is of game {state.last.game_number}, not the current one"
    return None


def hidden(state: ErdState, player: int | None) -> dict[str, Any]:
    """The opponent's allocation of the open round, once made, is unknown to a seat."""
    chosen = [
        None if c is None else (str(c) if seat == player else UNKNOWN)
        for seat, c in zip(state.pending.seats, state.pending.chosen, strict=True)
    ]
    return {"pending": {"seats": list(state.pending.seats), "chosen": chosen}}


codec = PositionCodec(
    ErdState,
    type_forms={
        Cards: FieldForm(lambda cards, game: str(cards), _read_cards),
        Allocate: FieldForm(lambda action, game: str(action), _read_allocation),
    },
    check=check,
    hidden=hidden,
)
"""Reads and writes Erd positions (found by ``ErdGame.from_position``)."""
