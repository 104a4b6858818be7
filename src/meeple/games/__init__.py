"""The built-in games; importing this package registers each of them."""

from meeple.games import edges, erd, erosion

__all__ = ["edges", "erd", "erosion"]
