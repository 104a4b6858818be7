"""Opponents by level: ``easy``, ``medium`` and ``hard`` for every game.

A person choosing an opponent should not need to know what ``ismcts:iterations=100`` means.
Each level names an agent spec; the levels of a game are ordered by strength as measured on
the ladder (``benchmarks/agent_ladder.py --levels``, figures in docs/agents.md): each level
beats the one below it. ``hard`` is the strongest agent meeple offers for that game, and
the default opponent of ``meeple play``.
"""

from __future__ import annotations

from meeple.core.errors import AgentSpecError
from meeple.core.game import Game

LEVEL_NAMES = ("easy", "medium", "hard")
DEFAULT_LEVEL = "hard"

LEVELS: dict[str, dict[str, str]] = {
    # Budgets are iterations, not seconds, so that a level is as strong on every machine and
    # its games replay exactly from their seed; each takes about a second a move or less on
    # the 2-core development machine.
    # Compiled UCT beats the generic search, which beats the script.
    "edges": {"easy": "greedy", "medium": "mcts:iterations=1000", "hard": "uct:iterations=30000"},
    # The heuristic plays each round's matrix game at its equilibrium; since it mixes, the
    # generic search (300 iterations) lost 28 of 40 single games to it.
    "erd": {"easy": "random", "medium": "ismcts:iterations=1000", "hard": "heuristic"},
    # Erosion: search at 200 iterations now beats the hand-written agent (32 of 50 games).
    "erosion": {"easy": "random", "medium": "heuristic", "hard": "ismcts:iterations=200"},
    # The Triangle Clock: the search's compiled policy, played on a sampled state, beat the
    # hand-written agent 239 of 400 games; search at 250 iterations with it tied it 20-20
    # (docs/agents.md), so the instant policy is hard and the hand-written agent medium.
    "triangle-clock": {"easy": "random", "medium": "heuristic", "hard": "policy"},
    # Squad Combat: search rolling out with the game's guided rollout (the heuristic's choices,
    # cut after two turns) beat the hand-written agent 16 of 20 at 250 iterations (about a
    # quarter second a move), where random rollouts won 2 of 20.
    "squad-combat": {
        "easy": "random",
        "medium": "heuristic",
        "hard": "ismcts:iterations=250,rollout=guided",
    },
}
"""Agent spec per game and level."""


def level_spec(game: Game, level: str) -> str:
    """The agent spec of ``level`` for ``game``; AgentSpecError naming the levels if
    ``level`` is not one of them."""
    key = level.strip().lower()
    if key not in LEVEL_NAMES:
        raise AgentSpecError(f"{level!r} is not a level; choose one of {', '.join(LEVEL_NAMES)}")
    levels = LEVELS.get(game.name)
    if levels is None:
        # A game without measured levels: its hand-written agent is the best guess at hard.
        fallback = game.heuristic_agent or "random"
        return {"easy": "random", "medium": fallback, "hard": fallback}[key]
    return levels[key]


STRONGER_THAN_HARD: dict[str, tuple[str, str]] = {
    "erd": (
        "exploit:allowance=0.1,knows=heuristic",
        "needs Erd solved first (meeple solve erd: once, 19 s for the 0.02 rules on the "
        "2-core machine, a 63 MB cache entry that takes seconds to read back in every "
        "process), so hard stays the heuristic; it plays "
        "the equilibrium tilted towards what the opponent reveals, recognises the "
        "hand-written agent's play, and can lose at most 0.1 a game to any opponent; it won "
        "77.3% of 1,000 best-of-5 matches against the heuristic (docs/erd-solved.md)",
    ),
}
"""Games whose strongest agent is not a level, with the agent and why it is not ``hard``."""


def strongest(game: Game) -> str:
    """The agent spec meeple offers as the strongest opponent for ``game``: ``hard``, but
    where a stronger agent needs work before it can play (:data:`STRONGER_THAN_HARD`)."""
    if game.name in STRONGER_THAN_HARD:
        return STRONGER_THAN_HARD[game.name][0]
    return level_spec(game, "hard")


def strongest_note(game: Game) -> str:
    """One line for the agent list: which agent is strongest, and why where it is not hard."""
    if game.name in STRONGER_THAN_HARD:
        spec, why = STRONGER_THAN_HARD[game.name]
        return f"The strongest agent meeple offers here is {spec}: it {why}."
    return f"The strongest agent meeple offers here is hard ({strongest(game)})."


def seat_spec(game: Game, text: str) -> str:
    """What a seat given as ``text`` plays: a level word (easy, medium, hard) becomes that
    level's agent spec; anything else is a spec already and is returned as it is."""
    return level_spec(game, text) if text.strip().lower() in LEVEL_NAMES else text
