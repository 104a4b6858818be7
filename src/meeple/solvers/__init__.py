"""Solvers: exact game-theoretic values (Edges so far) and the agents built on them.

Importing this package registers the ``perfect`` Edges agent (see :mod:`.edges_agent`); the
compiled solver itself loads only when it is first used.
"""

from meeple.core.registry import register_agent
from meeple.solvers.edges_agent import PerfectAgent

register_agent("edges", "perfect", PerfectAgent)

__all__ = ["PerfectAgent"]
