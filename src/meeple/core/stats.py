"""Statistics the solvers' estimates share (the lab's own are in :mod:`meeple.lab.stats`)."""

from __future__ import annotations

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
