"""``random.Random(seed).randrange(n)`` for many seeds at once, compiled.

Seeding Python's Mersenne Twister costs a few microseconds, which dominates a batched
environment that starts thousands of games a second (:mod:`meeple.core.batch`). This is
CPython's own algorithm (``init_by_array`` on the seed's 32-bit words, ``getrandbits`` with
rejection for ``randrange``), written for numba so the first draw of each of many seeded
streams comes in one call (:func:`first_randrange`), and a kernel can read any stream's
words (:func:`fill_words`), or read a stream a word at a time (:func:`seed_stream`,
:func:`next_word`, :func:`randbelow`, :func:`shuffle`); a test compares them with
``random.Random`` over many seeds.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from meeple.core.kernels import kernel

_N = 624
_MASK = 0xFFFFFFFF

compiled = kernel(nogil=True)
batched = kernel(nogil=True, parallel=True)


def _genrand_start() -> np.ndarray:
    # init_genrand(19650218): the same for every seed, so made once.
    mt = np.empty(_N, dtype=np.uint64)
    mt[0] = 19650218
    for i in range(1, _N):
        mt[i] = (1812433253 * (int(mt[i - 1]) ^ (int(mt[i - 1]) >> 30)) + i) & _MASK
    return mt


_START = _genrand_start()
START = _START
"""The state every seeding starts from (``init_genrand(19650218)``), for :func:`fill_words`."""


@compiled
def _seeded(seed: np.uint64, start: np.ndarray, mt: np.ndarray) -> None:
    # init_by_array over the seed's 32-bit words (low first), from init_genrand(19650218).
    mt[:] = start
    key = np.empty(2, dtype=np.uint64)
    key[0] = seed & _MASK
    key[1] = seed >> 32
    length = 2 if key[1] else 1
    i, j = 1, 0
    for _ in range(max(_N, length)):
        mt[i] = (
            (mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525) & _MASK)) + key[j] + j
        ) & _MASK
        i += 1
        j += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(_N - 1):
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941) & _MASK)) - i) & _MASK
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    mt[0] = 0x80000000


@compiled
def _twisted(mt: np.ndarray, k: int) -> np.uint64:
    # Word k of the first twist, for k < 227: it reads only words not yet twisted.
    y = (mt[k] & 0x80000000) | (mt[k + 1] & 0x7FFFFFFF)
    return mt[k + 397] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)


@compiled
def _temper(y: np.uint64) -> np.uint64:
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & _MASK


@compiled
def _twist(mt: np.ndarray) -> None:
    # CPython's genrand_uint32 regeneration of all 624 words, in place.
    for k in range(_N):
        y = (mt[k] & 0x80000000) | (mt[(k + 1) % _N] & 0x7FFFFFFF)
        mt[k] = mt[(k + 397) % _N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)


@compiled
def fill_words(seed: np.uint64, start: np.ndarray, out: np.ndarray) -> None:
    """``out[i]`` = the i-th ``getrandbits(32)`` of ``random.Random(seed)`` (``start`` is
    :data:`START`); for calling from other kernels, one stream at a time."""
    mt = np.empty(_N, dtype=np.uint64)
    _seeded(np.uint64(seed), start, mt)
    for i in range(out.shape[0]):
        if i % _N == 0:
            _twist(mt)
        out[i] = _temper(mt[i % _N])


STREAM = _N + 1
"""The length of a stream's array (:func:`seed_stream`): the generator's words, then where
it stands in them."""


@compiled
def seed_stream(seed: np.uint64, start: np.ndarray, stream: np.ndarray) -> None:
    """Seed ``stream`` (:data:`STREAM` ``uint64``) as ``random.Random(seed)`` is seeded
    (``start`` is :data:`START`), for :func:`next_word`, :func:`randbelow` and
    :func:`shuffle`."""
    _seeded(np.uint64(seed), start, stream[:_N])
    stream[_N] = 0


@compiled
def next_word(stream: np.ndarray) -> np.uint64:
    """The stream's next ``getrandbits(32)``. CPython twists its 624 words all at once, in
    order and in place; twisting each word just before it is read gives the same words, so
    a stream read a few times costs its seeding and a few twists, not 624."""
    k = np.int64(stream[_N])
    y = (stream[k] & 0x80000000) | (stream[(k + 1) % _N] & 0x7FFFFFFF)
    stream[k] = stream[(k + 397) % _N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    stream[_N] = (k + 1) % _N
    return _temper(stream[k])


@compiled
def randbelow(n: int, stream: np.ndarray) -> int:
    """``random.Random._randbelow(n)``, for ``1 <= n <= 2**31``: ``randrange(n)``, and the
    index ``choice`` draws (the top ``n.bit_length()`` bits of a word, again while out of
    range)."""
    k = 0
    while (n >> k) > 0:
        k += 1
    while True:
        r = np.int64(next_word(stream) >> np.uint64(32 - k))
        if r < n:
            return r


@compiled
def shuffle(items: np.ndarray, stream: np.ndarray) -> None:
    """``random.Random.shuffle(items)``, in place."""
    for i in range(items.shape[0] - 1, 0, -1):
        j = randbelow(i + 1, stream)
        items[i], items[j] = items[j], items[i]


FIRST_WORDS = 227
"""How many words :func:`first_words` gives: the first twist's words that read no word it
has already regenerated."""


@compiled
def first_words(seed: np.uint64, start: np.ndarray, out: np.ndarray) -> None:
    """:func:`fill_words` for at most :data:`FIRST_WORDS` words, without regenerating the
    whole state (a third of the work, for a kernel that seeds many short streams)."""
    if out.shape[0] > FIRST_WORDS:
        raise ValueError("first_words gives at most 227 words")
    mt = np.empty(_N, dtype=np.uint64)
    _seeded(np.uint64(seed), start, mt)
    for i in range(out.shape[0]):
        out[i] = _temper(_twisted(mt, i))


@batched
def _first_randrange(
    seeds: np.ndarray, n: int, bits: int, start: np.ndarray, out: np.ndarray
) -> None:
    for k in prange(seeds.shape[0]):
        mt = np.empty(_N, dtype=np.uint64)
        _seeded(np.uint64(seeds[k]), start, mt)
        out[k] = -1
        for index in range(227):  # a draw of 227 rejections in a row never happens
            r = _temper(_twisted(mt, index)) >> (32 - bits)
            if r < n:
                out[k] = r
                break


def first_randrange(seeds: np.ndarray, n: int, out: np.ndarray) -> None:
    """``out[k] = random.Random(seeds[k]).randrange(n)`` for non-negative seeds below
    2**64 and ``1 <= n <= 2**31``."""
    if not 1 <= n <= 2**31:
        raise ValueError(f"n must be 1 to 2**31, not {n}")
    _first_randrange(seeds, n, n.bit_length(), _START, out)
    if (out < 0).any():  # rejected 227 times: a probability below 2**-227
        raise RuntimeError("randrange needed more than the first 227 draws")
