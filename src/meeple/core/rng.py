"""Seeded randomness. Every random choice in a game derives from the game's seed.

Seeds are derived by hashing, not with Python's ``hash()`` (salted per process), so the same
seed gives the same game in every process, on every machine, in every Python version.
"""

from __future__ import annotations

import hashlib
import random


def derive_seed(seed: int, *keys: int | str) -> int:
    """A 63-bit seed for the random stream named by ``keys`` under ``seed``."""
    text = "/".join([str(seed), *map(str, keys)]).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def make_rng(seed: int, *keys: int | str) -> random.Random:
    """An independent ``random.Random`` for the stream named by ``keys`` under ``seed``."""
    return random.Random(derive_seed(seed, *keys))
