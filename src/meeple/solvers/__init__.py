"""Solvers: exact game-theoretic values (Edges, Erd) and the agents built on them.

Importing this package registers the ``perfect`` Edges agent (see :mod:`.edges_agent`) and
the ``equilibrium`` and ``exploit`` Erd agents (:mod:`.erd.agent`, :mod:`.erd.exploit`);
each solver loads only when first used.
"""

from meeple.core.registry import register_agent
from meeple.solvers.edges_agent import PerfectAgent
from meeple.solvers.erd.agent import EquilibriumAgent
from meeple.solvers.erd.exploit import SafeExploitAgent

register_agent("edges", "perfect", PerfectAgent)
register_agent("erd", "equilibrium", EquilibriumAgent)
register_agent("erd", "exploit", SafeExploitAgent)

__all__ = ["EquilibriumAgent", "PerfectAgent", "SafeExploitAgent"]
