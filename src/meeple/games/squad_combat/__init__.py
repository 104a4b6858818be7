"""Squad Combat (rulebook v0.5): squads of three, decks of attacks, actions and edges."""

from meeple.core.game import register_renderer
from meeple.core.registry import register_agent, register_batch, register_playout
from meeple.games.squad_combat.agents import HeuristicAgent
from meeple.games.squad_combat.content import (
    Card,
    CharacterCard,
    Content,
    ContentError,
    Cost,
    Deck,
    load_content,
)
from meeple.games.squad_combat.render import render_state
from meeple.games.squad_combat.rules import (
    Character,
    Die,
    Discard,
    Done,
    Drop,
    NoDie,
    Pass,
    PayDie,
    Performance,
    Play,
    Refresh,
    SquadCombatGame,
    SquadCombatOptions,
    SquadCombatState,
    Target,
    Wound,
)

# The agents and the drawing import the rules, so the package offers them: the rules module
# imports neither.
register_agent("squad-combat", "heuristic", HeuristicAgent)
register_renderer(SquadCombatGame, render_state)

# The compiled rules import the rules, so they are offered to search from the package, by
# name: numba is imported where search or a batch first asks for them.
_RULES = f"{__name__}.compiled.rules"
_GUIDED = f"{__name__}.compiled.guided"
register_playout("squad-combat", f"{_RULES}:playout", f"{_RULES}:game_array")
# The heuristic's choices and a material count after two turns: ismcts:rollout=guided (and
# opponent=guided, candidates=K, which ask the same policy for one seat's action).
register_playout(
    "squad-combat",
    f"{_GUIDED}:playout",
    f"{_RULES}:game_array",
    policy="guided",
    choose=f"{_GUIDED}:choose",
)
# The same policy to the end of the turn, each seat's material against the other seats'
# mean: the designer level at three and four players (flat:rollout=field), which values all
# of a world's candidates in one compiled call.
register_playout(
    "squad-combat",
    f"{_GUIDED}:playout_field",
    f"{_RULES}:game_array",
    policy="field",
    choose=f"{_GUIDED}:choose",
    values=f"{_GUIDED}:values_field",
)
register_batch("squad-combat", f"{__name__}.compiled.batch:SquadCombatBatch")


__all__ = [
    "Card",
    "Character",
    "CharacterCard",
    "Content",
    "ContentError",
    "Cost",
    "Deck",
    "Die",
    "Discard",
    "Done",
    "Drop",
    "NoDie",
    "Pass",
    "PayDie",
    "Performance",
    "Play",
    "Refresh",
    "SquadCombatGame",
    "SquadCombatOptions",
    "SquadCombatState",
    "Target",
    "Wound",
    "load_content",
]
