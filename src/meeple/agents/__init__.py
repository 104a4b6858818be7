"""Game-agnostic players, agent specs, and the loop that plays a game with them."""

from meeple.agents.play import play_game
from meeple.agents.random_agent import RandomAgent
from meeple.agents.spec import (
    GENERIC_AGENTS,
    HUMAN,
    AgentSpec,
    AgentSpecError,
    agent_names,
    available_agents,
    make_agent,
    parse_spec,
)

__all__ = [
    "GENERIC_AGENTS",
    "HUMAN",
    "AgentSpec",
    "AgentSpecError",
    "RandomAgent",
    "agent_names",
    "available_agents",
    "make_agent",
    "parse_spec",
    "play_game",
]
