"""The compiled first draw of many seeded streams is CPython's ``random.Random``'s."""

from __future__ import annotations

import random

import numpy as np
import pytest

from meeple.core.mt import (
    FIRST_WORDS,
    START,
    STREAM,
    fill_words,
    first_randrange,
    first_words,
    next_word,
    randbelow,
    seed_stream,
    shuffle,
)
from meeple.core.rng import derive_seed


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 100, 2**31])
def test_the_first_randrange_of_each_seed_is_pythons(n: int) -> None:
    """Thousands of derived seeds and the edge cases of the seed's words."""
    seeds = [derive_seed(s, "edges", "first") for s in range(3000)]
    seeds += [0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1]
    out = np.empty(len(seeds), dtype=np.int64)
    first_randrange(np.array(seeds, dtype=np.uint64), n, out)
    assert out.tolist() == [random.Random(s).randrange(n) for s in seeds]


def test_a_range_it_cannot_draw_from_is_refused() -> None:
    """n outside 1 to 2**31 is a clear ValueError."""
    with pytest.raises(ValueError, match="n must be 1 to 2"):
        first_randrange(np.zeros(1, dtype=np.uint64), 0, np.empty(1, dtype=np.int64))


def test_every_word_of_a_stream_is_pythons() -> None:
    """Two whole twists and more of many streams: ``getrandbits(32)`` word for word."""
    seeds = [derive_seed(s, "reshuffle", 1) for s in range(40)] + [0, 2**32, 2**64 - 1]
    for seed in seeds:
        out = np.empty(1300, dtype=np.int64)
        fill_words(np.uint64(seed), START, out)
        rng = random.Random(seed)
        assert out.tolist() == [rng.getrandbits(32) for _ in range(1300)]


def test_a_stream_read_a_word_at_a_time_is_pythons() -> None:
    """Seeded streams read lazily: words past two twists, ``randrange``, ``choice`` and
    ``shuffle`` as ``random.Random`` gives them."""
    stream = np.empty(STREAM, dtype=np.uint64)
    seeds = [derive_seed(s, "erosion", "deck", 0) for s in range(60)] + [0, 2**32, 2**64 - 1]
    for seed in seeds:
        seed_stream(np.uint64(seed), START, stream)
        rng = random.Random(seed)
        assert [next_word(stream) for _ in range(1300)] == [
            rng.getrandbits(32) for _ in range(1300)
        ]
        for n in (1, 2, 3, 5, 6, 38, 1000, 2**31):
            assert randbelow(n, stream) == rng.randrange(n)
        items = list(range(40))
        array = np.array(items, dtype=np.int16)
        shuffle(array, stream)
        rng.shuffle(items)
        assert array.tolist() == items
        seats = (0, 2, 3)
        assert seats[randbelow(len(seats), stream)] == rng.choice(seats)


def test_the_first_words_of_a_stream_are_pythons() -> None:
    """The first 227 words without the whole twist: the same as Python's, for many seeds."""
    out = np.empty(FIRST_WORDS, dtype=np.int64)
    for seed in [0, 1, 2**32 - 1, 2**32, 2**62 + 12345, *range(3, 300, 7)]:
        first_words(np.uint64(seed), START, out)
        rng = random.Random(seed)
        assert out.tolist() == [rng.getrandbits(32) for _ in range(FIRST_WORDS)]
    with pytest.raises(ValueError, match="at most 227"):
        first_words(np.uint64(1), START, np.empty(FIRST_WORDS + 1, dtype=np.int64))
