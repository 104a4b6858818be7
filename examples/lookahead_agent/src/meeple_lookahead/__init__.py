"""A one-ply lookahead for meeple, installed as a package of its own (docs/agents.md,
"Adding an agent").

meeple imports this module through the ``meeple.agents`` entry point that this package's
``pyproject.toml`` declares, the first time it looks up a game's agents; importing it offers
the agent to every game that keeps a score.
"""

from meeple.core.registry import register_agent
from meeple_lookahead.agent import LookaheadAgent

# The games whose standing is a score to look one move ahead on.
for game in ("edges", "erosion", "triangle-clock"):
    register_agent(game, "lookahead", LookaheadAgent)

__all__ = ["LookaheadAgent"]
