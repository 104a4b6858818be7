"""What a researcher hands an environment, checked once for every adapter: action ids
(one, or an array of them for a batch) and seeds.

An action id is a whole number: a Python or NumPy integer (a 0-d integer array too), never a
bool, a float or a string, which ``int()`` would turn silently into another id (3.7 into 3,
True into 1, "3" into 3). A batch's seeds are 64-bit integers, negative ones too, as the
readable rules take them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meeple.core.errors import IllegalAction, MeepleError

SEED_BELOW = 2**63
"""Games' seeds are 64-bit integers: ``seed + k`` of a reset must stay below this."""


def whole_number(value: object) -> int | None:
    """``value`` as an int where it is a whole number (a NumPy one or a 0-d integer array
    too, not a bool); None otherwise."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        return None
    return int(value)


def action_id_of(action: Any) -> int:
    """``action`` as an integer id, or ``IllegalAction`` saying what an action is."""
    action_id = whole_number(action)
    if action_id is None:
        raise IllegalAction(f"an action is an integer id, not {action!r}")
    return action_id


def action_ids(actions: Any, shape: tuple[int, ...]) -> np.ndarray:
    """``actions`` as an integer array of ``shape`` (one id per game, or per game and seat);
    MeepleError naming the shape and dtype wanted and those given otherwise (a float, bool
    or NaN action is refused, never rounded into another id)."""
    chosen = np.asarray(actions)
    if chosen.shape != shape or not np.issubdtype(chosen.dtype, np.integer):
        wanted = " x ".join(map(str, shape))
        raise MeepleError(
            f"step takes {wanted} integer action ids, got shape {chosen.shape} of {chosen.dtype}"
        )
    return chosen


def check_seeds_fit(seed: int, last: int) -> None:
    """MeepleError where a reset's seeds (``last`` the largest: ``seed + k``) would not fit
    the 64-bit seeds the games are started from."""
    if seed < -SEED_BELOW or last >= SEED_BELOW:
        added = " with the games' k added" if last != seed else ""
        raise MeepleError(f"seed must be a 64-bit integer, -2**63 to 2**63 - 1{added}, not {seed}")


def batch_seed(seed: object, games: int) -> int:
    """``seed`` of a batch of ``games`` (its games take ``seed + k``) as an int; MeepleError
    unless it is a whole number whose games' seeds fit in 64 bits."""
    start = whole_number(seed)
    if start is None:
        raise MeepleError(f"seed must be a whole number, not {seed!r}")
    check_seeds_fit(start, start + games - 1)
    return start


def game_seed(seed: object) -> int:
    """The seed of one game's reset as an int, the same domain a batch's seeds have, so a
    seed one adapter takes every adapter takes and plays alike: the readable rules would
    start a game from any value's text (1.5, True and "1.5" each a game of its own), which
    the batched twin cannot."""
    return batch_seed(seed, 1)


def generator_seed(seed: int) -> int:
    """The 64-bit pattern of a game seed, to seed a NumPy generator (Gymnasium's too) with:
    they take only non-negative seeds, the games any 64-bit one. Non-negative seeds are
    themselves, so a stream seeded from one stays as it was."""
    return seed & (2**64 - 1)
