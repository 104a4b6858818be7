"""Erd as a zero-sum stochastic game, built from the rules engine.

After each reveal everything in Erd is public, so one game is a stochastic game whose states
are the two sides of the table (Reserve, discard, Turrets of each player) and whose stage
games are matrix games: every allocation of Red against every allocation of Blue. Each cell
of a stage game is what :func:`meeple.games.erd.rules.resolve_round` (the engine itself) says
that pair of allocations does: the game ends (with a winner and a reason) or it goes on in
another state.

Two reductions keep it small, both exact:

* **Mirror states.** Swapping the two sides of a state swaps the players, so its value is the
  negation of the other's. Only one of each mirror pair (the canonical one, the smaller tuple)
  is kept; a cell leading to a non-canonical state stores the canonical one with sign -1.
* **Equivalent allocations.** Allocations whose rows (or columns) lead to the same cell for
  every reply are one choice; one representative is kept and the others are remembered as its
  class. In the original rules Decoys in a pile play exactly like Decoys kept in Reserve
  (all come back, worth 0), so the engine agents' :func:`essential` reduction is applied before
  the engine is asked, which saves most of the work there; a test checks that it is exact.

A pair that combat itself ends is asked of the engine once for the Turrets standing, not once
per state (:data:`COMBAT_ENDINGS`): the same answer, with 40% fewer calls in 0.02.

The round limit is not part of a state: the value iteration in :mod:`.iteration` counts the
rounds left instead (its sweep k is the game with k rounds to go).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from meeple.core.registry import make
from meeple.games.erd.agents import essential
from meeple.games.erd.rules import Allocate, Cards, Combat, ErdGame, Side, resolve_round

Sides = tuple[Side, Side]

NO_LIMIT = 100_000
"""The engine's largest round limit: the model's game never ends by it (the solver counts
rounds itself)."""

REASONS = ("continue", "rush", "both_rushes", "pre_escalation", "mercy", "mercy_draw")
"""Cell codes: index 0 means the game goes on; the others are the engine's end reasons."""
REASON_CODE = {name: code for code, name in enumerate(REASONS)}

# Cell flags (bits): what happened in the round, for the designer's statistics.
ESCALATION = 1
TURRET_MADE = 2
TURRET_STOOD = 4
"""A Turret stood in this combat (either side)."""


def mirror(sides: Sides) -> Sides:
    """The same table with the players swapped."""
    return (sides[1], sides[0])


def canonical(sides: Sides) -> tuple[Sides, int]:
    """The kept one of ``sides`` and its mirror, and +1 if it is ``sides`` itself, else -1."""
    swapped = mirror(sides)
    return (sides, 1) if sides <= swapped else (swapped, -1)


@dataclass
class StageGame:
    """One state's matrix game: Red (the row player) against Blue, in classes of allocations."""

    sides: Sides
    rows: list[list[Allocate]]
    """Red's allocations, in classes that play alike; the first of each is its representative."""
    columns: list[list[Allocate]]
    """Blue's allocations, likewise."""
    successor: np.ndarray
    """Per cell: the index of the canonical state the game goes on in, or -1 if it ends."""
    sign: np.ndarray
    """Per cell: +1, or -1 if the successor is the mirror of the canonical state (its value
    for Red is the negated stored value)."""
    payoff: np.ndarray
    """Per cell where the game ends: +1 Red wins, -1 Blue wins, 0 a draw (0 elsewhere)."""
    reason: np.ndarray
    """Per cell: the :data:`REASONS` code."""
    flags: np.ndarray
    """Per cell: :data:`ESCALATION`, :data:`TURRET_MADE`, :data:`TURRET_STOOD` bits."""

    def matrix(self, values: np.ndarray) -> np.ndarray:
        """The stage game's payoffs to Red, the game going on valued by ``values``."""
        ends, lookup = self._lookup
        # One gather: value iteration asks this of every state in every sweep. Indexing
        # keeps the lookup's memory order, which is the cells' (column-major once
        # _merge_alike has picked columns): BLAS sums a product with the matrix in an order
        # that depends on it, so another order would move the solution by round-off.
        return np.concatenate((ends, values, np.negative(values[::-1])))[lookup]

    @cached_property
    def _lookup(self) -> tuple[np.ndarray, np.ndarray]:
        """The payoffs of the cells that end the game (each distinct one once), and per cell
        where :meth:`matrix` reads its payoff in the table of those payoffs followed by the
        values and then the values negated in reverse order: a cell going on in state s reads
        s's value, or its negation at index -1 - s (from the end, so the lookup is the same
        however many states there are). The cells never change once the model is built."""
        going_on = self.successor >= 0
        successor = self.successor[going_on].astype(np.intp)
        sign = self.sign[going_on]
        if not np.isin(sign, (1, -1)).all():
            raise ValueError("a cell going on is signed +1 or -1")
        ends, at = np.unique(self.payoff[~going_on], return_inverse=True)
        lookup = np.empty_like(self.successor, dtype=np.intp)
        lookup[~going_on] = at
        lookup[going_on] = np.where(sign > 0, len(ends) + successor, -1 - successor)
        return ends, lookup


@dataclass
class ErdModel:
    """Every state of one Erd game reachable from the start, with its stage game."""

    game: ErdGame
    start: Sides
    states: list[StageGame] = field(default_factory=list)
    index: dict[Sides, int] = field(default_factory=dict)
    engine_calls: int = 0
    """How many pairs of allocations the engine resolved to build the model."""
    allocation_pairs: int = 0
    """How many pairs of legal allocations the states hold, before any reduction."""

    @property
    def start_index(self) -> int:
        """The canonical state of the opening (itself when both start alike, as in Erd)."""
        return self.locate(self.start)[0]

    @property
    def start_sign(self) -> int:
        """+1 if Red is the row player of the opening's canonical state, else -1."""
        return self.locate(self.start)[1]

    def locate(self, sides: Sides) -> tuple[int, int]:
        """The canonical state of a table, and +1 if Red is its row player, -1 if Blue is."""
        kept, sign = canonical(sides)
        try:
            return self.index[kept], sign
        except KeyError:
            raise KeyError(f"the table {sides} is not a state of this model") from None


def erd_game(**options: Any) -> ErdGame:
    """A single game of Erd (best of 1) with these options, for the solver.

    The round limit is left to the solver: the model's game gets the largest one.
    """
    options = {**options, "best_of": 1, "round_limit": NO_LIMIT}
    game = make("erd", **options)
    assert isinstance(game, ErdGame)
    return game


def build_model(
    game: ErdGame,
    start: Side | Sides | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ErdModel:
    """Explore every state reachable from the start and build each stage game with the
    engine. ``start``: both players' side (default: the rules version's starting Reserve),
    or a pair of sides, Red's and Blue's (tests use uneven ones).

    ``progress(done, known)`` is called after each state: states built, states found so far.
    """
    side = start or game.starting_side
    pair = (side, side) if isinstance(side, Side) else side
    model = ErdModel(game, (pair[0], pair[1]))
    first, _ = canonical(model.start)
    model.index[first] = 0
    queue: list[Sides] = [first]
    combat_endings: dict[CombatKey, Cell] = {}
    while len(model.states) < len(queue):
        sides = queue[len(model.states)]
        model.states.append(_stage_game(model, sides, queue, combat_endings))
        if progress is not None:
            progress(len(model.states), len(queue))
    return model


COMBAT_ENDINGS = frozenset({"rush", "both_rushes"})
"""The engine's reasons for a game that combat itself ends. Combat reads nothing of the table
but the Turrets standing (:func:`meeple.games.erd.rounds.combat`), and such a game ends
before the table changes, so the engine's answer for a pair of allocations and the Turrets
holds in every state with those Turrets (0.02: 8,184 answers for 187,688 such pairs)."""

Cell = tuple[int, int, float, int, int]
"""One pair of allocations in a stage game: successor, sign, payoff, reason and flags (the
arrays of :class:`StageGame`)."""

CombatKey = tuple[tuple[int, int], tuple[Allocate, Allocate]]
"""Turrets standing on each side, and the pair of allocations."""

_CELL_TYPES = (np.int32, np.int8, np.float64, np.int8, np.int8)
"""The arrays' types, field by field of a :data:`Cell`."""


def _stage_game(
    model: ErdModel, sides: Sides, queue: list[Sides], combat_endings: dict[CombatKey, Cell]
) -> StageGame:
    """Ask the engine about every pair of (essential) allocations of one state, except a
    pair that combat ends whose answer ``combat_endings`` already holds (and gets here)."""
    game = model.game
    mine, theirs = (game.allocations(s.reserve) for s in sides)
    model.allocation_pairs += len(mine) * len(theirs)
    rows = _classes(game, mine)
    columns = _classes(game, theirs)
    turrets = (sides[0].turrets, sides[1].turrets)
    stood = TURRET_STOOD if any(turrets) else 0
    cells: list[Cell] = []
    for row in rows:
        for column in columns:
            pair = (row[0], column[0])
            cell = combat_endings.get((turrets, pair))
            if cell is None:
                report, after = resolve_round(game, sides, pair, 1)
                model.engine_calls += 1
                cell = _cell(model, report, after, stood, queue)
                if report.ending is not None and report.ending.reason in COMBAT_ENDINGS:
                    combat_endings[turrets, pair] = cell
            cells.append(cell)
    # Filled cell by cell as Python tuples, made arrays once (a NumPy store per cell costs
    # more than the tuple).
    table = np.array(cells, dtype=np.float64).reshape(len(rows), len(columns), len(_CELL_TYPES))
    arrays = (table[..., k].astype(kind) for k, kind in enumerate(_CELL_TYPES))
    return _merge_alike(StageGame(sides, rows, columns, *arrays))


def _cell(model: ErdModel, report: Combat, after: Sides, stood: int, queue: list[Sides]) -> Cell:
    """The engine's answer for one pair as a :data:`Cell`; a state it goes on in that is new
    gets the next index and joins the ``queue`` to build."""
    flags = (
        stood
        | (ESCALATION if report.escalation else 0)
        | (TURRET_MADE if any(report.turrets_made) else 0)
    )
    if report.ending is not None:
        winner = report.ending.winner
        payoff = 0.0 if winner is None else 1.0 if winner == 0 else -1.0
        return -1, 1, payoff, REASON_CODE[report.ending.reason], flags
    kept, sign = canonical(after)
    found = model.index.get(kept)
    if found is None:
        found = model.index[kept] = len(queue)
        queue.append(kept)
    return found, sign, 0.0, 0, flags


def _classes(game: ErdGame, allocations: tuple[Allocate, ...]) -> list[list[Allocate]]:
    """Allocations grouped by what can change the outcome (:func:`essential`); the essential
    allocation itself leads its class (it is one of the legal ones)."""
    groups: dict[Allocate, list[Allocate]] = {}
    for action in allocations:
        groups.setdefault(essential(game, action), []).append(action)
    out = []
    for key, members in groups.items():
        lead = key if key in members else members[0]
        out.append([lead, *(a for a in members if a != lead)])
    return out


def _merge_alike(stage: StageGame) -> StageGame:
    """Merge rows (and columns) whose cells are identical against every reply."""
    cells: tuple[np.ndarray, ...] = (
        stage.successor,
        stage.sign,
        stage.payoff,
        stage.reason,
        stage.flags,
    )
    keep_rows = _alike(stage.rows, list(cells))
    rows = [[a for i in group for a in stage.rows[i]] for group in keep_rows]
    lead_rows = [g[0] for g in keep_rows]
    cells = tuple(c[lead_rows] for c in cells)
    keep_cols = _alike(stage.columns, [c.T for c in cells])
    columns = [[a for j in group for a in stage.columns[j]] for group in keep_cols]
    lead_cols = [g[0] for g in keep_cols]
    successor, sign, payoff, reason, flags = (c[:, lead_cols] for c in cells)
    return StageGame(stage.sides, rows, columns, successor, sign, payoff, reason, flags)


def _alike(items: list[Any], cells: list[np.ndarray]) -> list[list[int]]:
    """Indices of rows that are identical in every one of ``cells``, grouped, in order."""
    groups: dict[bytes, list[int]] = {}
    for i in range(len(items)):
        key = b"".join(np.ascontiguousarray(c[i]).tobytes() for c in cells)
        groups.setdefault(key, []).append(i)
    return list(groups.values())


def tiny_start(heavy: int, light: int, decoy: int) -> Side:
    """A starting side with fewer cards of each kind, for tests against brute force."""
    return Side(Cards(heavy, light, decoy), Cards(), 0)


@dataclass(frozen=True)
class ModelDifference:
    """Where two models of Erd (e.g. a rules version with and without an option) differ."""

    only_first: int
    """States reachable in the first model only."""
    only_second: int
    """States reachable in the second model only."""
    different: int
    """States in both whose stage games differ: some pair of allocations ends the game
    differently or goes on to a different state."""

    @property
    def same_game(self) -> bool:
        """True if the two are one game: same states, every pair of allocations the same
        outcome (so the same values and optimal mixes, without solving either)."""
        return self.only_first == self.only_second == self.different == 0


def model_difference(first: ErdModel, second: ErdModel) -> ModelDifference:
    """Compare two models state by state and allocation pair by allocation pair.

    Classes of allocations are a model's own bookkeeping (an option can merge or split
    them), so each stage game is compared over every legal allocation pair, mapped to its
    class in each model; a cell that goes on is compared by the table it leads to.
    """
    shared = first.index.keys() & second.index.keys()
    different = sum(
        not _same_stage(first, first.states[first.index[s]], second, second.states[second.index[s]])
        for s in shared
    )
    return ModelDifference(
        len(first.index) - len(shared), len(second.index) - len(shared), different
    )


def _same_stage(a: ErdModel, sa: StageGame, b: ErdModel, sb: StageGame) -> bool:
    """True if every pair of legal allocations has the same outcome in both stage games."""
    rows = sorted((x for c in sa.rows for x in c), key=str)
    columns = sorted((x for c in sa.columns for x in c), key=str)
    if rows != sorted((x for c in sb.rows for x in c), key=str) or columns != sorted(
        (x for c in sb.columns for x in c), key=str
    ):
        return False
    return bool(np.array_equal(_outcomes(a, sa, rows, columns), _outcomes(b, sb, rows, columns)))


def _outcomes(model: ErdModel, stage: StageGame, rows: list, columns: list) -> np.ndarray:
    """Per pair of allocations (in the order given): the payoff and reason of a game that
    ends, or the successor table (as its sides, signed) of one that goes on, as one key."""
    where_row = {x: i for i, c in enumerate(stage.rows) for x in c}
    where_col = {x: j for j, c in enumerate(stage.columns) for x in c}
    i = np.array([where_row[x] for x in rows])
    j = np.array([where_col[x] for x in columns])
    keys = np.empty(stage.successor.shape, dtype=object)
    for (r, c), succ in np.ndenumerate(stage.successor):
        if succ >= 0:
            keys[r, c] = (model.states[succ].sides, int(stage.sign[r, c]))
        else:
            keys[r, c] = (float(stage.payoff[r, c]), int(stage.reason[r, c]))
    return keys[np.ix_(i, j)]
