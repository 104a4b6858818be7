"""Solvers: exact game-theoretic values (Edges, Erd) and the agents built on them.

Importing this package registers the ``perfect`` Edges agent (see :mod:`.edges_agent`) and
the ``equilibrium`` and ``exploit`` Erd agents (:mod:`.erd.agent`, :mod:`.erd.exploit`);
each solver loads only when first used. It also registers the judges of Edges and Erd
(:mod:`.edges_judge`, :mod:`.erd.judge`), which ``meeple analyse`` reviews games with.
"""

from meeple.core.registry import register_agent, register_judge
from meeple.solvers.edges_agent import PerfectAgent
from meeple.solvers.edges_judge import EdgesJudge
from meeple.solvers.erd.agent import EquilibriumAgent
from meeple.solvers.erd.exploit import SafeExploitAgent
from meeple.solvers.erd.judge import ErdJudge

register_agent("edges", "perfect", PerfectAgent)
register_agent("erd", "equilibrium", EquilibriumAgent)
register_agent("erd", "exploit", SafeExploitAgent)
register_judge("edges", EdgesJudge)
register_judge("erd", ErdJudge)

__all__ = ["EdgesJudge", "EquilibriumAgent", "ErdJudge", "PerfectAgent", "SafeExploitAgent"]
