"""What one square can still become: tables per (side 0's sum, side 1's sum, empty edges),
built once in Python, and the search's bounds read from them.

A square's score is settled by the strength sums of the pyramids around it; the tables say,
for every sum and number of empty edges, whether it is decided, which class of undecided
squares it is in, and how much each side's further pyramids can still move it.
"""

from __future__ import annotations

import numpy as np

from meeple.solvers.edges_engine.compiled import inlined

MAX_SUM = 12  # four Large pyramids around one square
UNDECIDED = 9


@inlined
def square_score(a: int, b: int) -> int:
    """Final score of a square for side 0 given the strength sums ``a`` (side 0), ``b``."""
    if a == b:
        return 0
    if a > b:
        return 2 if b == 0 else 1
    return -2 if a == 0 else -1


# The same rule in plain Python, for building the tables at import (calling the compiled
# function from Python would compile it first).
_score = square_score.py_func


def _reach(k: int) -> list[tuple[int, int]]:
    """Every (added to side 0, added to side 1) that ``k`` empty edges can still bring.

    Each edge stays empty or takes a pyramid of 1-3 of either side. Stash limits are ignored,
    so everything derived from this is conservative (true whatever the stashes hold).
    """
    reach = {(0, 0)}
    adds = [(0, 0)] + [(z, 0) for z in (1, 2, 3)] + [(0, z) for z in (1, 2, 3)]
    for _ in range(k):
        reach = {(x + dx, y + dy) for x, y in reach for dx, dy in adds}
    return sorted(reach)


def _square_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Per (a, b, k) = (side 0's sum, side 1's sum, empty edges) of one square:

    - ``DECIDED``: its final score (side 0's view) if nothing can change it, else UNDECIDED;
    - ``CLASS``: for an undecided square, an id shared by exactly the (a, b, k) whose final
      score is the same function of whatever is still added (-1 when decided);
    - ``HIGH`` / ``LOW``: the best and worst final score still reachable (side 0's view).
    """
    shape = (MAX_SUM + 1, MAX_SUM + 1, 5)
    decided = np.full(shape, UNDECIDED, dtype=np.int64)
    klass = np.full(shape, -1, dtype=np.int64)
    high = np.zeros(shape, dtype=np.int64)
    low = np.zeros(shape, dtype=np.int64)
    ids: dict[tuple[int, ...], int] = {}
    for k in range(5):
        reach = _reach(k)
        for a in range(MAX_SUM + 1):
            for b in range(MAX_SUM + 1):
                outcomes = tuple(_score(a + x, b + y) for x, y in reach)
                high[a, b, k], low[a, b, k] = max(outcomes), min(outcomes)
                if len(set(outcomes)) == 1:
                    decided[a, b, k] = outcomes[0]
                else:
                    klass[a, b, k] = ids.setdefault((k, *outcomes), len(ids))
    return decided, klass, high, low, len(ids)


DECIDED, CLASS, HIGH, LOW, NCLASS = _square_tables()
assert NCLASS < 192, "the search's set of isolated classes seen holds 192 bits"


def _pack_steps(steps: list[int]) -> int:
    """A histogram of steps of 1-4 points as one word: how many of each, 8 bits apiece."""
    word = 0
    for step in steps:
        if step > 0:
            word += 1 << (8 * (step - 1))
    return word


def _step_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per (size, a, b, k) of an undecided square: what each further pyramid of at most
    ``size`` can do to its score.

    ``GAIN_STEPS``: side 0's score with t more of its own pyramids is at most
    ``score(a + size * t, b)`` (a square's score only rises with its owner's sum, only falls
    with the other's); the t-th pyramid's step is the rise from t - 1 to t, for t = 1..k.
    ``LOSS_STEPS``: the same for side 1's pyramids and side 0's loss. Both are packed
    (:func:`_pack_steps`); decided squares have none. With Large pyramids (size 3) the steps
    of one square add up to ``HIGH - score`` (``score - LOW``), but spread over the pyramids
    it takes to get there, which is what makes the search's bounds count pyramids rather
    than squares; a player whose Large ones are all placed is bounded by the smaller steps.
    """
    shape = (3, MAX_SUM + 1, MAX_SUM + 1, 5)
    gain = np.zeros(shape, dtype=np.int64)
    loss = np.zeros(shape, dtype=np.int64)
    for size in (1, 2, 3):
        for a in range(MAX_SUM + 1):
            for b in range(MAX_SUM + 1):
                for k in range(5):
                    if CLASS[a, b, k] < 0:
                        continue
                    up = [_score(a + size * t, b) for t in range(k + 1)]
                    down = [_score(a, b + size * t) for t in range(k + 1)]
                    rises = [up[t] - up[t - 1] for t in range(1, k + 1)]
                    falls = [down[t - 1] - down[t] for t in range(1, k + 1)]
                    gain[size - 1, a, b, k] = _pack_steps(rises)
                    loss[size - 1, a, b, k] = _pack_steps(falls)
    return gain, loss


GAIN_STEPS, LOSS_STEPS = _step_tables()


# The strength bound's slopes, in sixths of a point per unit of strength, largest first.
HULL_SLOPES = (24, 18, 12, 6, 4, 3, 2)
HULL_BITS = 9  # units per slope: at most 12 a square, so 42 squares (EdgesSolver refuses more)


def _hull_word(swing: list[int]) -> int:
    """The units of strength, per slope, of the upper concave envelope of ``swing``.

    ``swing[x]`` is what one side's score on a square gains (or the other loses) once ``x``
    more strength of that side's pyramids surround it. Each segment of the envelope gives
    its length in units at its slope, rounded up to the next of ``HULL_SLOPES`` (so the
    bound stays a bound), packed ``HULL_BITS`` bits per slope.
    """
    word, x = 0, 0
    while x < len(swing) - 1:
        # The steepest chord from x: the next corner of the concave envelope.
        best, end = -1.0, x + 1
        for x2 in range(x + 1, len(swing)):
            slope = (swing[x2] - swing[x]) / (x2 - x)
            if slope >= best:
                best, end = slope, x2
        if best > 0:
            i = max(i for i, v in enumerate(HULL_SLOPES) if v >= 6 * best - 1e-9)
            word += (end - x) << (HULL_BITS * i)
        x = end
    return word


def _hull_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per (a, b, k) of an undecided square: :func:`_hull_word` of side 0's gain
    (``GAIN_HULL``) and of side 1's (``LOSS_HULL``: side 0's loss) with up to ``3 k`` more
    strength -- k pyramids of 3 at most, whatever their sizes."""
    shape = (MAX_SUM + 1, MAX_SUM + 1, 5)
    gain = np.zeros(shape, dtype=np.int64)
    loss = np.zeros(shape, dtype=np.int64)
    for a in range(MAX_SUM + 1):
        for b in range(MAX_SUM + 1):
            for k in range(1, 5):
                if CLASS[a, b, k] < 0:
                    continue
                now = _score(a, b)
                gain[a, b, k] = _hull_word([_score(a + x, b) - now for x in range(3 * k + 1)])
                loss[a, b, k] = _hull_word([now - _score(a, b + x) for x in range(3 * k + 1)])
    return gain, loss


GAIN_HULL, LOSS_HULL = _hull_tables()


def _placement_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What one pyramid does to one of the squares it touches, for the move loop's ranking.

    Per (side, size - 1, a, b, k) of the square before the placement: ``PLACED`` packs the
    square's class afterwards (or 1000 + its score, if the placement decides it) above four
    bits of the change in its score (side 0's view, + 4); ``THREAT_CHANGE`` adds the index
    of the other side's largest pyramid in front and gives how that side's steps on the
    square (``LOSS_STEPS`` against side 0, ``GAIN_STEPS`` against side 1) change, and
    ``HULL_CHANGE`` how its envelope units (``LOSS_HULL``, ``GAIN_HULL``) change. Read
    once per square instead of the tables and scores they are made of.
    """
    placed = np.zeros((2, 3, MAX_SUM + 1, MAX_SUM + 1, 5), dtype=np.int64)
    threat = np.zeros((2, 3, 3, MAX_SUM + 1, MAX_SUM + 1, 5), dtype=np.int64)
    hull = np.zeros((2, 3, MAX_SUM + 1, MAX_SUM + 1, 5), dtype=np.int64)
    for side, steps, units in ((0, LOSS_STEPS, LOSS_HULL), (1, GAIN_STEPS, GAIN_HULL)):
        for size in (1, 2, 3):
            for a in range(MAX_SUM + 1):
                for b in range(MAX_SUM + 1):
                    for k in range(1, 5):
                        a1, b1 = (a + size, b) if side == 0 else (a, b + size)
                        if a1 > MAX_SUM or b1 > MAX_SUM:
                            continue
                        code = CLASS[a1, b1, k - 1]
                        if code < 0:
                            code = 1000 + DECIDED[a1, b1, k - 1]
                        change = _score(a1, b1) - _score(a, b)
                        placed[side, size - 1, a, b, k] = (code << 4) | (change + 4)
                        hull[side, size - 1, a, b, k] = units[a1, b1, k - 1] - units[a, b, k]
                        for big in range(3):
                            threat[side, big, size - 1, a, b, k] = (
                                steps[big, a1, b1, k - 1] - steps[big, a, b, k]
                            )
    return placed, threat, hull


PLACED, THREAT_CHANGE, HULL_CHANGE = _placement_tables()


@inlined
def best_changes(steps: int, count: int) -> int:
    """The sum of the ``count`` largest steps in the packed histogram ``steps``."""
    total = 0
    for i in range(4, 0, -1):
        c = (steps >> (8 * (i - 1))) & 255
        if c >= count:
            return total + i * count
        total += i * c
        count -= c
    return total


@inlined
def in_hand(stash: np.ndarray, p: int) -> int:
    """How many pyramids player ``p`` still has to place."""
    return stash[p, 0] + stash[p, 1] + stash[p, 2]


@inlined
def strength_left(stash: np.ndarray, p: int) -> int:
    """The strength of player ``p``'s pyramids still in its stash (Small 1 ... Large 3)."""
    return stash[p, 0] + 2 * stash[p, 1] + 3 * stash[p, 2]


@inlined
def best_strength(hull: int, strength: int) -> int:
    """The most a side's pyramids of ``strength`` in all can gain, by the envelopes ``hull``.

    Each pyramid adds its strength to the (at most two) squares of its edge, so the squares
    share twice the side's strength left; each square's gain is at most its envelope at
    the strength it gets, and the envelopes' units taken steepest first bound the sum.
    """
    units = 2 * strength
    total = 0
    for i in range(len(HULL_SLOPES)):
        c = (hull >> (HULL_BITS * i)) & ((1 << HULL_BITS) - 1)
        if c >= units:
            return (total + HULL_SLOPES[i] * units) // 6
        total += HULL_SLOPES[i] * c
        units -= c
    return total // 6
