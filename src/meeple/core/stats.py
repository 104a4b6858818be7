"""Statistics the solvers' estimates and the lab's reports share (the lab's own are in
:mod:`meeple.lab.stats`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def bootstrap_interval(
    samples: Sequence[float] | np.ndarray,
    level: float = 0.95,
    resamples: int = 10_000,
    seed: int = 0,
) -> tuple[float, float]:
    """A percentile bootstrap interval of the mean (seeded, so a report repeats): for means
    of skewed samples, where a t-interval's symmetry is a poor guess. Fewer than two
    samples: the mean itself at both ends."""
    data = np.asarray(samples, dtype=float)
    if data.size < 2:
        return float(data.mean()), float(data.mean())
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, data.size, (resamples, data.size))].mean(axis=1)
    tail = (1 - level) / 2
    return float(np.quantile(means, tail)), float(np.quantile(means, 1 - tail))


def mean_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """Student's t interval of the mean of ``values`` (95% by default), for quantities that
    are not shares of games: moves per game, a score margin, a paired difference.

    With fewer than two values, or values that never vary, nothing is known of the spread:
    the interval is the mean itself, and reports flag such a sample as small (docs/metrics.md,
    "Reading the intervals").
    """
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    mean = sum(values) / n
    if n < 2:
        return (mean, mean)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    if variance <= 0:
        return (mean, mean)
    # The t quantile from scipy.special, imported here: the same function scipy.stats' t.ppf
    # calls, without scipy.stats' 0.5 s import, which every command that reports paid.
    from scipy.special import stdtrit

    half = float(stdtrit(n - 1, 0.5 + level / 2)) * math.sqrt(variance / n)
    return (mean - half, mean + half)
