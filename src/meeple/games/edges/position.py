"""Edges positions as text: see "Position notation" in ``rules.md``.

Everything in Edges is public, so a seat's view position is the whole position.
"""

from __future__ import annotations

from typing import Any

from meeple.core.position import FieldForm, JoinedForm, PositionCodec
from meeple.games.edges.board import parse_edge
from meeple.games.edges.rules import EdgesGame, EdgesState, Pyramid, Stash


def _seat(game: EdgesGame, name: object) -> int:
    names = game.seat_names()
    if name not in names:
        raise ValueError(f"{name!r} is not a seat; the seats are {', '.join(names)}")
    return names.index(str(name))


def _write_board(game: EdgesGame, owner: tuple[int, ...], pyramid: tuple[int, ...]) -> list[str]:
    return [
        f"{Pyramid(pyramid[i]).letter} {game.board.edges[i]} {game.seat_name(o)}"
        for i, o in enumerate(owner)
        if o >= 0
    ]


def _read_board(raw: Any, game: EdgesGame) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise ValueError('expected a list of pyramids like ["L h0,1 Red", "M v2,0 Blue"]')
    n = game.board.num_edges
    owner, pyramid = [-1] * n, [0] * n
    for item in raw:
        words = item.split()
        if len(words) != 3:
            raise ValueError(f"{item!r} is not '<size> <edge> <seat>' like 'L h0,1 Red'")
        size = Pyramid.from_letter(words[0])
        edge = parse_edge(words[1])
        i = game.board.edge_index(edge)
        if owner[i] >= 0:
            raise ValueError(f"edge {edge} holds two pyramids")
        owner[i], pyramid[i] = _seat(game, words[2]), int(size)
    return tuple(owner), tuple(pyramid)


def _write_first(edge: int, game: EdgesGame) -> str | None:
    return None if edge < 0 else str(game.board.edges[edge])


def _read_first(raw: Any, game: EdgesGame) -> int:
    if raw is None:
        return -1
    if not isinstance(raw, str):
        raise ValueError(f"expected an edge like 'h0,1' (null before the first move); got {raw!r}")
    return game.board.edge_index(parse_edge(raw))


def _write_order(order: tuple[int, ...], game: EdgesGame) -> list[str]:
    return [game.seat_name(p) for p in order]


def _read_order(raw: Any, game: EdgesGame) -> tuple[int, ...]:
    if not isinstance(raw, list):
        raise ValueError('expected the seats in turn order, like ["Blue", "Red"]')
    return tuple(_seat(game, name) for name in raw)


def _read_stash(raw: Any, game: EdgesGame) -> Stash:
    if not isinstance(raw, str):
        raise ValueError(f"a stash is written large/medium/small like '5/5/5', not {raw!r}")
    return Stash.parse(raw)


def _orders(game: EdgesGame) -> list[tuple[int, ...]]:
    """Every turn order the rules allow: the seed's order from each possible first seat."""
    firsts = range(game.num_players) if game.options.first == "random" else [game.options.first]
    out: list[tuple[int, ...]] = []
    for first in firsts:
        if game.num_players == 2:
            out.append((first, 1 - first))
        else:
            team = first % 2
            order = (team, 1 - team, team + 2, 3 - team)
            k = order.index(first)
            out.append(order[k:] + order[:k])
    return out


def check(state: EdgesState) -> str | None:
    """Every pyramid exactly once (placed or in its owner's stash), the turn count matching
    the pyramids placed, a possible turn order and first edge."""
    game = state.game
    if len(state.stashes) != game.num_players:
        return f"there are {len(state.stashes)} stashes for {game.num_players} seats"
    for seat in range(game.num_players):
        placed = [state.pyramid[i] for i, o in enumerate(state.owner) if o == seat]
        stash = state.stashes[seat]
        for size in Pyramid:
            have = placed.count(size) + stash.count(size)
            if have != game.stash.count(size):
                return (
                    f"{game.seat_name(seat)} has {have} {size.name.lower()} pyramids placed and "
                    f"in stash, but a stash in this game holds {game.stash.count(size)}"
                )
    if state.order not in _orders(game):
        allowed = "; ".join(", ".join(game.seat_name(p) for p in o) for o in _orders(game))
        return f"the turn order {list(state.order)} is not one the rules allow ({allowed})"
    on_board = sum(1 for o in state.owner if o >= 0)
    if state.took_over and not game.options.pie:
        return "took_over is true but the pie rule is off in this game"
    expected = on_board + (1 if state.took_over else 0)
    if state.turn != expected:
        return f"turn is {state.turn}, but {on_board} pyramids placed make it {expected}"
    if (state.first_edge < 0) != (on_board == 0):
        return "first_edge must be null exactly when no pyramid is placed"
    if state.took_over and state.turn < 2:
        return "the pie rule is used on the second move, so turn is at least 2"
    if on_board and not state.took_over and state.turn >= 1:
        first_seat = state.owner[state.first_edge]
        if first_seat != state.order[0]:
            return (
                f"the first pyramid ({_write_first(state.first_edge, game)}) is "
                f"{game.seat_name(first_seat)}'s, but {game.seat_name(state.order[0])} moved first"
            )
    return None


codec = PositionCodec(
    EdgesState,
    joined={"board": JoinedForm(("owner", "pyramid"), _write_board, _read_board)},
    forms={
        "order": FieldForm(_write_order, _read_order),
        "first_edge": FieldForm(_write_first, _read_first),
    },
    type_forms={Stash: FieldForm(lambda s, g: str(s), _read_stash)},
    check=check,
)
"""Reads and writes Edges positions (found by ``EdgesGame.from_position``)."""
