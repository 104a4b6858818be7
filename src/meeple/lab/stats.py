"""Statistics for results people compare."""

from __future__ import annotations

import math


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and behaves at 0% and 100%,
    which is where strong agents against random ones live.
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # At 0% and 100% one end equals p exactly on paper; rounding can put it a hair past p,
    # which would draw a negative error bar (matplotlib refuses those).
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))
