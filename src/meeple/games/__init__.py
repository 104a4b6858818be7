"""The built-in games; importing this package registers each of them."""

from meeple.games import edges, erd

__all__ = ["edges", "erd"]
