"""How meeple writes a count in a sentence: ``1 move``, ``2 moves``, never ``1 moves``;
and a list in a sentence: ``Alps, Andes and Rockies``.

Counts that can be one are common in what a person reads (a game stopped after its first
move, a run of one game, a card drawn alone); every message that counts goes through here.
"""

from __future__ import annotations

from collections.abc import Iterable


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` with ``noun`` in the right number: ``counted(1, "card")`` is ``1 card``,
    ``counted(3, "card")`` ``3 cards``; ``plural`` for a noun not made plural by an s
    (``counted(2, "try", "tries")``). Thousands are grouped (``12,000 games``)."""
    return f"{number:,} {noun if number == 1 else plural or noun + 's'}"


def signed_count(value: float, noun: str) -> str:
    """A signed whole number with ``noun`` in the right number, as a score's change or a
    difference is written: ``+1 point``, ``-3 points``, ``+0 points``."""
    number = round(value)
    return f"{number:+d} {noun if abs(number) == 1 else noun + 's'}"


def possessive(name: str) -> str:
    """A name that owns something in a sentence: ``Red's``, ``A1's``, ``Andes'``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def listed(words: Iterable[str], conjunction: str = "and") -> str:
    """Words as a sentence lists them: ``Alps``, ``Alps and Andes``, ``Alps, Andes and
    Rockies`` (``2, 3 or 4`` with ``conjunction="or"``)."""
    *most, last = words
    return f"{', '.join(most)} {conjunction} {last}" if most else last
