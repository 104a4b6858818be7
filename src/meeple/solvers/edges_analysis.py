"""Analysis of Edges with the exact solver: a position and every move from it solved
(:func:`analyse`, what ``meeple solve edges`` prints), the best move now (a hint) and, after
a game, every move that changed the solver's value (a blunder list, as a chess engine gives).

Values are seat 0's score minus seat 1's at the end with best play from the position, as
everywhere in :mod:`.edges_solver`, except :func:`analyse`'s, which are the first player's
(as the solve command reports them); the pie rule is included where it is still open.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from meeple.core.errors import MeepleError
from meeple.core.record import GameRecord
from meeple.games.edges.rules import EdgesAction, EdgesState
from meeple.solvers.edges_solver import DEFAULT_TT_BITS, EdgesSolver, SearchStopped, pyramids_left

HINT_SECONDS = 3.0
"""How long a hint may think (the exact solver first, then a search with what is left)."""
HINT_EXACT_SHARE = 0.5
"""The share of a hint's time the exact solver may take; a search gets the rest."""
HINT_EXACT_LEFT = 18
"""The most pyramids left at which a hint tries the exact solver at all: 3x4 positions with
16 left solve in 0.3-2.8 s, with 18 left in 2-51 s (docs/solving-edges.md, "Speed")."""
ANALYSE_MAX_LEFT = 16
"""By default, a game's analysis solves the positions with at most this many pyramids
left: a whole 2x2 or 2x3 game, the last 16 moves of a bigger one (the first move of 2x3
with the pie rule, 16 left, is the costliest: every first move is solved)."""
# The table of a hint or an analysis: no bigger than this (2^22 entries, 64 MiB), so that a
# hint at the prompt does not first clear a gigabyte.
MAX_TT_BITS = 22


def _solver(state: EdgesState) -> EdgesSolver:
    """A solver for ``state``'s board; a board it cannot take is a :class:`MeepleError`."""
    if state.game.num_players != 2:
        raise MeepleError("the solver plays two-player Edges only, not Double Edges")
    try:
        return EdgesSolver(state.game.board, tt_bits=MAX_TT_BITS)
    except ValueError as exc:
        raise MeepleError(str(exc)) from None


@dataclass(frozen=True)
class Hint:
    """A suggested move: ``value`` is seat 0 minus seat 1 with best play after it --
    exact when ``exact``, else what a search ``depth`` placements deep sees (squares
    scored as they stand then)."""

    action: EdgesAction
    value: int
    exact: bool
    depth: int
    seconds: float

    @property
    def method(self) -> str:
        """How the hint was found, in words."""
        if self.exact:
            return "the exact solver"
        return f"a search {self.depth} placements deep (squares scored as they stand then)"


def hint(state: EdgesState, seconds: float = HINT_SECONDS) -> Hint:
    """The best move for the seat to act: by the exact solver when the position is small
    enough for it to answer within half of ``seconds``, else by a depth-limited search
    deepened while the time lasts (one placement deep at least, whatever the time). Of the
    depths the search finished, the deepest even one counts (one placement deep where none
    did): there the other side has the last word, so the value errs low rather than
    counting the mover's last placement unanswered."""
    if state.is_over:
        raise MeepleError("the game is over: there is no move to suggest")
    start = time.perf_counter()
    deadline = start + seconds
    left = pyramids_left(state)
    solver = _solver(state)
    if left <= HINT_EXACT_LEFT:
        try:
            exact_until = start + seconds * HINT_EXACT_SHARE
            action, value = solver.best_action(state, deadline=exact_until)
            return Hint(action, value, True, left, time.perf_counter() - start)
        except SearchStopped:
            pass  # too big for the time: search instead
    best: tuple[EdgesAction, int] | None = None
    depth = 0
    for deeper in range(1, left + 1):
        solver.clear()  # depth-limited values must not meet those of another depth
        try:
            # The first, one placement deep, is cheap: it runs to the end whatever the time.
            found = solver.best_action(state, depth=deeper,
                                       deadline=deadline if best else None)  # fmt: skip
        except SearchStopped:
            break
        if best is None or deeper % 2 == 0 or deeper == left:
            best, depth = found, deeper
        if time.perf_counter() > deadline:
            break
    assert best is not None
    # A search as deep as the game is long is exact, unless the pie rule is still to come
    # (the depth-limited search does not know it).
    pie_ahead = state.pie_available or (state.turn == 0 and state.game.options.pie)
    exact = depth >= left and not pie_ahead
    return Hint(best[0], best[1], exact, depth, time.perf_counter() - start)


@dataclass(frozen=True)
class MoveVerdict:
    """One move of a game as the solver sees it: the values (seat 0 minus seat 1, best
    play) of the positions before and after it, and a move that keeps the value before."""

    number: int
    """The move's number in the game, from 1."""
    seat: int
    move: str
    before: int
    after: int
    best: str
    """A move of the best value (the move played, when it was one)."""

    @property
    def loss(self) -> int:
        """How many points the move gave away (0: it kept the value)."""
        return abs(self.before - self.after)


@dataclass
class GameAnalysis:
    """A game's moves judged by the solver: ``verdicts`` for the moves it reached (from
    the first move played with at most ``max_left`` pyramids left), ``skipped`` moves
    before that, and the final value."""

    verdicts: list[MoveVerdict] = field(default_factory=list)
    skipped: int = 0
    max_left: int = ANALYSE_MAX_LEFT

    @property
    def blunders(self) -> list[MoveVerdict]:
        """The moves that changed the value (each gave points away)."""
        return [v for v in self.verdicts if v.loss]


def analyse_game(
    record: GameRecord,
    max_left: int = ANALYSE_MAX_LEFT,
    on_position: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """Judge every move of a recorded Edges game played from a position with at most
    ``max_left`` pyramids left (earlier moves are counted in ``skipped``). ``on_position``
    hears (positions solved, positions to solve). :class:`MeepleError` (a RecordError for
    a record that does not replay) for a game the solver cannot judge."""
    played = record.states()
    first = played[0]
    if not isinstance(first, EdgesState):
        raise MeepleError(f"the record is a game of {record.game}; analyse reads games of Edges")
    states = cast(list[EdgesState], played)  # a record's states are all of its first's game
    solver = _solver(first)
    moves = record.moves
    start = next((i for i, s in enumerate(states[:-1]) if pyramids_left(s) <= max_left), None)
    analysis = GameAnalysis(skipped=len(moves) if start is None else start, max_left=max_left)
    if start is None:
        return analysis
    wanted = states[start:]
    values: list[int] = []
    for done, state in enumerate(wanted):
        if on_position is not None:
            on_position(done, len(wanted))
        values.append(solver.value(state))
    if on_position is not None:
        on_position(len(wanted), len(wanted))
    for i, ((seat, text), before, after) in enumerate(
        zip(moves[start:], values[:-1], values[1:], strict=True)
    ):
        state = wanted[i]
        assert isinstance(state, EdgesState)
        best = text if before == after else str(solver.best_action(state)[0])
        analysis.verdicts.append(MoveVerdict(start + i + 1, seat, text, before, after, best))
    return analysis


def first_player_sign(state: EdgesState) -> int:
    """+1 if seat 0 placed (or will place) the first pyramid, else -1."""
    return 1 if state.order[0] == 0 else -1


def analyse(
    state: EdgesState,
    tt_bits: int = DEFAULT_TT_BITS,
    progress: Callable[[int, int], None] | None = None,
    on_nodes: Callable[[int], None] | None = None,
    workers: int = 1,
    known: dict[str, tuple[int, int]] | None = None,
    on_move: Callable[[EdgesAction, int, int], None] | None = None,
) -> dict[str, object]:
    """Solve a position and every move from it: JSON-safe, values for the first player.

    Returns ``value`` (first player's minus second player's score with perfect play),
    ``moves`` (``[notation, value]`` per move up to symmetry and equivalent edges, best
    first for the mover), ``nodes``, ``seconds``, ``nodes_per_second`` and ``nodes_by_left``
    (index = pyramids still to place). ``progress`` hears (moves solved, moves); ``on_nodes``
    hears the node count while a search runs (the search then runs in a worker thread, so
    Ctrl-C stops it; with ``workers`` > 1, the count of the first worker's searches).
    ``workers`` solves that many moves at once (threads sharing one table); the time per
    node, ``nodes_per_second``, is then per thread. ``known`` holds moves an earlier run
    solved (notation -> (value seat 0 minus seat 1, nodes it cost)), not solved again and
    their nodes counted in; ``on_move`` hears (move, value seat 0 minus seat 1, nodes) as
    each other move is solved (see :meth:`EdgesSolver.move_values`).
    """
    solver = EdgesSolver(state.game.board, tt_bits=tt_bits)
    solver.on_progress = on_nodes
    sign = first_player_sign(state)
    known = known or {}
    start = time.perf_counter()
    if state.is_over:
        moves: list[tuple[EdgesAction, int]] = []
        value = solver.value(state)
    else:
        values = {move: v for move, (v, _) in known.items()}
        moves = solver.move_values(state, progress, workers=workers, known=values,
                                   on_move=on_move)  # fmt: skip
        value = moves[0][1]
    elapsed = time.perf_counter() - start
    listed = {str(a) for a, _ in moves}
    earlier = sum(nodes for move, (_, nodes) in known.items() if move in listed)
    return {
        "board": str(state.game.board),
        "pie": state.game.options.pie,
        "left": pyramids_left(state),
        "value": sign * value,
        "moves": [[str(a), sign * v] for a, v in moves],
        "nodes": solver.stats.nodes + earlier,
        "seconds": round(elapsed, 3),
        # Speed of the compiled search itself (Python root handling excluded).
        "nodes_per_second": round(solver.stats.nodes_per_second),
        "nodes_by_left": solver.stats.by_left,
    }


# A rough size of an exact solve before any of it has run: nodes grow about GROWTH-fold per
# pyramid left. Whole solves of every first move: 2x2 (2/2/2) 87,321 nodes for 12 pyramids
# (2.58 a pyramid), 2x3 (3/3/2) 11,311,725 for 16 (2.76); single 3x4 positions 2.57 at 16
# left and 2.65 at 18 (docs/solving-edges.md, "How deep").
GROWTH = 2.7


def estimated_nodes(left: int) -> float:
    """Roughly how many nodes an exact solve of every move from a position with ``left``
    pyramids to place searches (within a factor of a few: see ``GROWTH``)."""
    return float(GROWTH**left)
