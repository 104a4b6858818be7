"""Match seeds a player can trust: drawn by the server, committed to at the start, shown
at the end.

The seed decides every hidden card of a match, so whoever knows it early can work out the
others' hands. The server draws each seed from :mod:`secrets` (128 bits: far past guessing
or searching), never sends it before the match is over, and publishes from the start its
commitment: the SHA-256 (hex) of a random salt followed by the seed in decimal. At the end
the seed and the salt are shown, and any player can check that the match was dealt from the
seed committed to (:func:`verify_seed`; in a shell,
``printf '%s%s' SALT SEED | sha256sum``).
"""

from __future__ import annotations

import hashlib
import secrets

SEED_BITS = 128
"""How many random bits a server-drawn seed has."""


def draw_seed() -> int:
    """A new match's seed: ``SEED_BITS`` bits from the operating system's secure source."""
    return secrets.randbits(SEED_BITS)


def new_salt() -> str:
    """A salt for a seed's commitment: 32 hex digits (128 bits), so the commitment of a
    seed cannot be found by trying seeds."""
    return secrets.token_hex(16)


def seed_commitment(seed: int, salt: str) -> str:
    """The commitment to ``seed``: SHA-256 (hex) of the salt followed by the seed in
    decimal, both as ASCII text."""
    return hashlib.sha256(f"{salt}{seed}".encode("ascii")).hexdigest()


def verify_seed(commitment: str, seed: int | str, salt: str) -> bool:
    """True if ``seed`` and ``salt`` (as the server shows them at the end; the seed as an
    integer or its decimal text) are what ``commitment`` (shown from the start) was made of."""
    try:
        value = int(seed)
    except ValueError:
        return False
    if value < 0 or not salt.isascii():
        return False
    return secrets.compare_digest(seed_commitment(value, salt), commitment.lower())
