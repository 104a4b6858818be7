"""Edges compiled: the same rules as :mod:`meeple.games.edges.rules`, on one small integer
array, for search.

The readable :mod:`meeple.games.edges.rules` is the reference; this module is a second
writing of the same rules that numba compiles, so that a search can play hundreds of
thousands of random games a second. A differential test plays thousands of random games
through both and compares every state and every list of legal actions
(``tests/games/edges/test_fast.py``).

A position is one ``int16`` array (copying it is one ``memcpy``):

* ``[0, n)`` the seat whose pyramid is on each edge (-1: empty), ``[n, 2n)`` its strength;
* ``[2n, 2n + 3p)`` each seat's stash, large/medium/small;
* ``[2n + 3p, 2n + 4p)`` the seats in turn order;
* then the turn (actions taken), the first pyramid's edge (-1 before it) and whether the
  pie rule was used.

Actions are the rules engine's ids (:meth:`EdgesGame.action_id`): size group ``3 - size``
times ``n`` plus the edge, then the three take-overs. Legal actions come in the engine's
order (large pyramids first, edges ascending, take-overs last), so a uniformly random index
into them picks the same action in both.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from meeple.core.errors import OptionError
from meeple.core.kernels import encoder, kernel
from meeple.core.options import unserved_refusal
from meeple.games.edges.rules import EdgesGame, EdgesState, Stash

compiled = kernel(nogil=True)


class Layout(NamedTuple):
    """Where each part of a position lies in its array, and the board's geometry."""

    edges: int
    players: int
    pie: bool
    square_edges: np.ndarray  # (squares, 4) edge indices
    size: int  # length of a position's array


SERVED = frozenset({"board", "stash", "pie", "double", "double_start", "first", "auto_steps"})
"""The options these rules are written for (``auto_steps``: no Edges step has a single
choice); :func:`layout` refuses a game with any other."""


def layout(game: EdgesGame) -> Layout:
    """The array layout of ``game``'s positions; OptionError (one line) for an option these
    rules are not written for (:data:`SERVED`)."""
    refusal = unserved_refusal(game.options, SERVED, "compiled Edges rules")
    if refusal is not None:
        raise OptionError(refusal)
    n, p = game.board.num_edges, game.num_players
    squares = np.array(game.board.square_edges, dtype=np.int16).reshape(-1, 4)
    return Layout(n, p, bool(game.options.pie), squares, 2 * n + 4 * p + 3)


@encoder
def encode(state: EdgesState) -> np.ndarray:
    """The array of a rules-engine state."""
    n, p = len(state.owner), len(state.stashes)
    out = np.empty(2 * n + 4 * p + 3, dtype=np.int16)
    out[:n] = state.owner
    out[n : 2 * n] = state.pyramid
    out[2 * n : 2 * n + 3 * p] = np.array(state.stashes, dtype=np.int16).reshape(-1)
    out[2 * n + 3 * p : 2 * n + 4 * p] = state.order
    out[2 * n + 4 * p :] = (state.turn, state.first_edge, int(state.took_over))
    return out


def decode(game: EdgesGame, array: np.ndarray) -> EdgesState:
    """The rules-engine state of an array (the inverse of :func:`encode`)."""
    n, p = game.board.num_edges, game.num_players
    values = [int(v) for v in array]
    stashes = tuple(Stash(*values[2 * n + 3 * k : 2 * n + 3 * k + 3]) for k in range(p))
    turn, first_edge, took_over = values[2 * n + 4 * p :]
    return EdgesState(
        game=game,
        owner=tuple(values[:n]),
        pyramid=tuple(values[n : 2 * n]),
        stashes=stashes,
        order=tuple(values[2 * n + 3 * p : 2 * n + 4 * p]),
        turn=turn,
        first_edge=first_edge,
        took_over=bool(took_over),
    )


@compiled
def to_act(state: np.ndarray, n: int, p: int) -> int:
    """The seat whose turn it is: the next in order with a pyramid left; -1 at the end."""
    base = 2 * n + 4 * p
    turn = state[base]
    for k in range(p):
        seat = state[2 * n + 3 * p + (turn + k) % p]
        stash = 2 * n + 3 * seat
        if state[stash] + state[stash + 1] + state[stash + 2] > 0:
            return seat
    return -1


@compiled
def legal_actions(state: np.ndarray, n: int, p: int, pie: bool, out: np.ndarray) -> int:
    """Write the legal action ids into ``out`` in the engine's order; return how many."""
    seat = to_act(state, n, p)
    if seat < 0:
        return 0
    count = 0
    stash = 2 * n + 3 * seat
    for group in range(3):  # large, medium, small
        if state[stash + group] > 0:
            for e in range(n):
                if state[e] < 0:
                    out[count] = group * n + e
                    count += 1
    base = 2 * n + 4 * p
    if pie and state[base] == 1 and state[base + 2] == 0:
        for group in range(3):
            if state[stash + group] > 0:
                out[count] = 3 * n + group
                count += 1
    return count


@compiled
def apply(state: np.ndarray, n: int, p: int, action: int) -> None:
    """Play ``action`` (legal) for the seat to act, in place."""
    seat = to_act(state, n, p)
    base = 2 * n + 4 * p
    group, rest = action // n, action % n
    if group == 3:  # the pie rule: the first pyramid goes back, this seat's takes its edge
        edge = state[base + 1]
        previous = state[edge]
        state[2 * n + 3 * previous + 3 - state[n + edge]] += 1
        state[2 * n + 3 * seat + rest] -= 1
        state[edge] = seat
        state[n + edge] = 3 - rest
        state[base + 2] = 1
    else:
        state[rest] = seat
        state[n + rest] = 3 - group
        state[2 * n + 3 * seat + group] -= 1
        if state[base + 1] < 0:
            state[base + 1] = rest
    state[base] += 1


@compiled
def score_difference(state: np.ndarray, n: int, square_edges: np.ndarray) -> int:
    """Side 0's points minus side 1's as the board stands (seats score for ``seat % 2``)."""
    total = 0
    for s in range(square_edges.shape[0]):
        a = 0
        b = 0
        for k in range(4):
            e = square_edges[s, k]
            if state[e] >= 0:
                if state[e] % 2 == 0:
                    a += state[n + e]
                else:
                    b += state[n + e]
        if a > b:
            total += 2 if b == 0 else 1
        elif b > a:
            total -= 2 if a == 0 else 1
    return total


@compiled
def outcome(state: np.ndarray, n: int, square_edges: np.ndarray) -> int:
    """+1 if side 0 has more points, -1 if side 1 has, 0 for equal points."""
    diff = score_difference(state, n, square_edges)
    return (diff > 0) - (diff < 0)


@compiled
def rollout(state: np.ndarray, n: int, p: int, pie: bool, moves: np.ndarray) -> None:
    """Play uniformly random legal actions to the end of the game, in place."""
    count = legal_actions(state, n, p, pie, moves)
    while count > 0:
        # An int64, as callers from Python and the batch pass it: ``apply`` compiles once.
        apply(state, n, p, np.int64(moves[np.random.randint(count)]))
        count = legal_actions(state, n, p, pie, moves)


@compiled
def random_games(
    start: np.ndarray, n: int, p: int, pie: bool, square_edges: np.ndarray, games: int, seed: int
) -> np.ndarray:
    """Outcomes (side 0's view) of ``games`` uniformly random games from ``start``."""
    np.random.seed(seed)
    results = np.zeros(3, dtype=np.int64)  # side 1 won, drawn, side 0 won
    scratch = start.copy()
    moves = np.empty(3 * n + 3, dtype=np.int16)
    for _ in range(games):
        scratch[:] = start
        rollout(scratch, n, p, pie, moves)
        results[outcome(scratch, n, square_edges) + 1] += 1
    return results


def playouts(state: EdgesState, games: int, seed: int = 0) -> tuple[int, int, int]:
    """How ``games`` uniformly random games from ``state`` end: side 0's wins, draws, side
    1's wins. Seeded: the same arguments give the same counts."""
    shape = layout(state.game)
    lost, drawn, won = random_games(
        encode(state), shape.edges, shape.players, shape.pie, shape.square_edges, games, seed
    )
    return int(won), int(drawn), int(lost)


@compiled
def _one_random_game(
    start: np.ndarray, n: int, p: int, pie: bool, square_edges: np.ndarray, seed: int
) -> int:
    """The outcome (side 0's view) of one uniformly random game from ``start``."""
    np.random.seed(seed)
    scratch = start.copy()
    rollout(scratch, n, p, pie, np.empty(3 * n + 3, dtype=np.int16))
    return outcome(scratch, n, square_edges)


def playout(state: EdgesState, seed: int) -> tuple[float, ...]:
    """Each seat's returns after one uniformly random game from ``state`` (seeded), as
    :attr:`EdgesState.returns` gives them: search's rollout on the compiled rules."""
    shape = layout(state.game)
    diff = _one_random_game(
        encode(state), shape.edges, shape.players, shape.pie, shape.square_edges, seed
    )
    return tuple(float(diff if seat % 2 == 0 else -diff) for seat in range(shape.players))
