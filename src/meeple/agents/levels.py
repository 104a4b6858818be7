"""Opponents by level: ``easy``, ``medium`` and ``hard`` for every game; and ``designer``.

A person choosing an opponent should not need to know what ``ismcts:iterations=100`` means.
Each level names an agent spec; the levels of a game are ordered by strength as measured on
the ladder (``benchmarks/agent_ladder.py --levels``, figures in docs/agents.md): each level
beats the one below it. ``hard`` is the strongest agent meeple offers for that game, and
the default opponent of ``meeple play``.

``designer`` is not one of those levels: it is the agent a designer balances a game with in
the lab (``meeple simulate GAME --seat designer``), chosen to beat the hand-written agent
at about a second a whole game. A seat may be given as it wherever a level is taken; the
lobby and ``meeple play``'s level list leave it out (it is no opponent for people, and in
most games weaker than hard).
"""

from __future__ import annotations

from meeple.core.errors import AgentSpecError
from meeple.core.game import Game

LEVEL_NAMES = ("easy", "medium", "hard")
DEFAULT_LEVEL = "hard"

DESIGNER_LEVEL = "designer"
"""Not an opponent for people: the lab's agent to balance a game with (DESIGNER)."""

SEAT_WORDS = (*LEVEL_NAMES, DESIGNER_LEVEL)
"""The words a seat may be given as instead of an agent spec."""

LEVELS: dict[str, dict[str, str]] = {
    # Budgets are iterations, not seconds, so that a level is as strong on every machine and
    # its games replay exactly from their seed; each takes about a second a move or less on
    # the 2-core development machine.
    # Compiled UCT beats the generic search, which beats the script. Elsewhere easy is the
    # hand-written agent playing a random move at three decisions in ten (careless): it beats
    # random and loses to medium in each game (docs/agents.md), where random as easy passed
    # Erosion's game away in its first turns and looked like no player at all.
    "edges": {"easy": "greedy", "medium": "mcts:iterations=1000", "hard": "uct:iterations=30000"},
    # Erd's strongest agent plays the solved game, tilted towards what the opponent reveals
    # (at most 0.1 a game exploitable): it won 77.2% of 1,000 matches against the heuristic,
    # which won 25 of 30 against random. It needs the rules solved once (``solve=true``:
    # 19-31 s on the 2-core machine, then read from the cache in a few seconds).
    "erd": {
        "easy": "careless",
        "medium": "heuristic",
        "hard": "exploit:allowance=0.1,knows=heuristic,solve=true",
    },
    # Erosion: search at 2,500 iterations (a little under its median count in a second,
    # benchmarks/search_budget.py) beats the hand-written agent 36 of 40 games, where 200
    # iterations won 25 of 40 (benchmarks/head_to_head.py; docs/agents.md). The hand-written
    # agent as medium values a pass by the reply it invites (wary): plain, it passes while
    # behind and the leader ends a two-player game with one pass; wary scored 59.2% of 300
    # two-player games against it.
    "erosion": {
        "easy": "careless",
        "medium": "heuristic:wary=true",
        "hard": "ismcts:iterations=2500",
    },
    # The Triangle Clock: moves tried in shared worlds with rollouts three rounds deep (FD1 at
    # a second a move beat the hand-written agent 67.0% and itself at 0.25 s 55.6%, where the
    # tree searches met one of the two). Sixty worlds: FD1's median in a second, 64, rounded
    # down (benchmarks/search_budget.py); a decided race stops sooner.
    "triangle-clock": {
        "easy": "careless",
        "medium": "heuristic",
        "hard": "flat:worlds=60,rollout=deep,opponent=guided",
    },
    # Squad Combat: search rolling out with the game's guided rollout (the heuristic's choices,
    # cut after two turns). At 2,500 iterations (a little under its median in a second) it beat
    # the hand-written agent 15 of 16, where 250 iterations won 16 of 20 and random rollouts
    # at 250 won 2 of 20.
    "squad-combat": {
        "easy": "careless",
        "medium": "heuristic",
        "hard": "ismcts:iterations=2500,rollout=guided",
    },
}
"""Agent spec per game and level."""

DESIGNER: dict[str, str | dict[int, str]] = {
    # The agent a designer balances with (``--seat designer`` in the lab): clearly stronger
    # than the game's hand-written agent and fast enough that hundreds of games take minutes.
    # Measured by benchmarks/designer_agents.py (its table in docs/lab.md, "The agent to
    # balance with"); budgets in iterations or worlds, so a run replays from its seed.
    # Erd's hard level plays the solved game, 0.2 s a match: it is already both.
    "erd": "exploit:allowance=0.1,knows=heuristic,solve=true",
    # A tenth of hard's search: about a quarter second a game, and it still beats greedy
    # nearly every game.
    "edges": "uct:iterations=3000",
    # Shared worlds with random rollouts, a world's candidates played in one compiled call;
    # the race drops a candidate once it trails by a standard error (z=1). A spec per player
    # count: five players' random games say less about a move (a hundred worlds won 58.3% of
    # 120 games, the interval not clear of a half), so they get 150 worlds; four players
    # race from the eighth world, which keeps their longer games under a second.
    "erosion": {
        2: "flat:worlds=100,z=1",
        3: "flat:worlds=100,z=1",
        4: "flat:worlds=100,min_worlds=8,z=1",
        5: "flat:worlds=150,z=1",
    },
    # The compiled policy (the guided rollout's choice, no search): hundredths of a second a
    # game, and it beats the hand-written agent.
    "triangle-clock": "policy",
    # Sixteen shared worlds, racing (z=1 from the fourth world), with the field rollout: the
    # guided policy to the end of the turn, then material against the other seats' mean.
    # Against the best other seat (rollout=guided) a wound to a seat not ahead counted for
    # nothing, so at three and four players searching seats refreshed and passed and their
    # games ran three times as many turns (5.7 and 11.3 s a game); the field rollout also
    # values a world's candidates in one compiled call. 0.15, 0.30 and 0.66 s a game at
    # two, three and four players, and it beats the hand-written agent at each.
    "squad-combat": "flat:worlds=16,min_worlds=4,z=1,rollout=field",
}
"""The designer level per game: the lab's agent to balance with (not a lobby opponent); a
game whose player counts want different budgets maps each count to its spec."""


def designer_spec(game: Game) -> str:
    """The designer level's spec for ``game`` at its player count; the hand-written agent
    (or ``random``) where meeple names none for that game or count."""
    found = DESIGNER.get(game.name)
    if isinstance(found, dict):
        found = found.get(game.num_players)
    return found or game.heuristic_agent or "random"


def level_spec(game: Game, level: str) -> str:
    """The agent spec of ``level`` for ``game``; AgentSpecError naming the levels if
    ``level`` is not one of them."""
    key = level.strip().lower()
    if key == DESIGNER_LEVEL:
        return designer_spec(game)
    if key not in LEVEL_NAMES:
        raise AgentSpecError(f"{level!r} is not a level; choose one of {', '.join(SEAT_WORDS)}")
    levels = LEVELS.get(game.name)
    if levels is None:
        # A game without measured levels: its hand-written agent is the best guess at hard.
        fallback = game.heuristic_agent or "random"
        easy = "careless" if game.heuristic_agent else "random"
        return {"easy": easy, "medium": fallback, "hard": fallback}[key]
    return levels[key]


def measured(game: Game) -> bool:
    """Whether meeple's levels for ``game`` were measured against each other (the five
    games' ladder, docs/agents.md), rather than guessed from its hand-written agent (a game
    added from outside meeple)."""
    return game.name in LEVELS


def strongest(game: Game) -> str:
    """The agent spec meeple offers as the strongest opponent for ``game``: its ``hard``."""
    return level_spec(game, "hard")


def strongest_note(game: Game) -> str:
    """One line for the agent list: which agent is strongest."""
    return f"The strongest agent meeple offers here is hard ({strongest(game)})."


def seat_spec(game: Game, text: str) -> str:
    """What a seat given as ``text`` plays: a level word (easy, medium, hard) becomes that
    level's agent spec, and so does ``designer``; anything else is a spec already and is
    returned as it is."""
    return level_spec(game, text) if text.strip().lower() in SEAT_WORDS else text


def agent_label(game_name: str, spec: str) -> str:
    """What a person is shown for a computer seat: "Computer (hard)" for a level's spec,
    else "Computer (" + the agent's name + ")" (its parameters are for the curious)."""
    return f"Computer ({agent_word(game_name, spec)})"


def agent_word(game_name: str, spec: str) -> str:
    """A computer seat in a word: its level ("hard") for a level's spec, else the agent's
    name ("flat" for ``flat:worlds=60``)."""
    for level, level_spec_text in LEVELS.get(game_name, {}).items():
        if level_spec_text == spec:
            return level
    return spec.split(":", 1)[0].strip() or spec
