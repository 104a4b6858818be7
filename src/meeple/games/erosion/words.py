"""Erosion's moves in words for a move log (``Game.log_words``): "weathered 2 rocks of
Andes' mountain (shale, basalt) with WX12 (Salt Crystallization)".

Every seat and every spectator is shown the same words, so they name only what the whole
table sees: the move's notation, the mountains, the River, the Atmosphere cards, how many
cards a hand holds. A drawn card is never named (only how many came from which deck), nor
the cards of a hand thrown away by a redraw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from meeple.core.game import Player
from meeple.core.words import counted, listed, possessive
from meeple.games.erosion.cards import AGE_NAMES
from meeple.games.erosion.pieces import (
    Choose,
    Draw,
    ErosionAction,
    Fault,
    Fluvial,
    Guess,
    Hillslope,
    Pass,
    Pay,
    Redraw,
    Transport,
    Trigger,
    Uplift,
    Weather,
    put,
)

if TYPE_CHECKING:
    from meeple.games.erosion.rules import ErosionState

DECK_WORDS = ("weathering", "hillslope", "fluvial")
"""The decks (WX, H, F) as a player says them."""


def move_words(state: ErosionState, player: Player, action: ErosionAction) -> str:
    """``action`` played by ``player`` from ``state`` in words, followed by the steps with a
    single possible choice that the engine then takes itself (a forced payment or draw),
    which the move log does not list as moves of their own."""
    words = action_words(state, player, action)
    then = [
        said if seat == player else f"{state.game.seat_name(seat)} {said}"
        for seat, step, before in state.forced_steps(player, action)
        for said in [action_words(before, seat, step)]
    ]
    return f"{words}; then, the only choice: {'; '.join(then)}" if then else words


def action_words(state: ErosionState, player: Player, action: ErosionAction) -> str:
    """One action in words, without the forced steps that follow it; from what the whole
    table sees of ``state`` alone (a seat that cannot tell two states apart reads the same)."""
    if isinstance(action, Weather | Hillslope | Fluvial | Pass | Trigger | Fault):
        return _play_words(state, player, action)
    if isinstance(action, Draw | Redraw):
        return _draw_words(state, player, action)
    if isinstance(action, Uplift):
        return (
            f"put {_rock(state, action.card)} from their hand at the base of their mountain "
            "(uplift: a hand keeps at most 6 cards)"
        )
    if isinstance(action, Transport):
        return f"chose {_rock(state, action.card)} in the River for their delta"
    if isinstance(action, Pay):
        step = state.agenda[0] if state.agenda else None
        rock = f" for {state.game.catalog.ids[step.card]}" if step and step.card >= 0 else ""
        return f"paid{rock} with {_rock(state, action.card)} from their hand"
    if isinstance(action, Guess):
        return f"guessed hardness {action.hardness} for the card drawn for the tie-breaker"
    if isinstance(action, Choose):
        return f"chose {state.game.seat_name(action.seat)} to take the tie"
    raise TypeError(f"not an Erosion action: {action!r}")


def _play_words(
    state: ErosionState,
    player: Player,
    action: Weather | Hillslope | Fluvial | Pass | Trigger | Fault,
) -> str:
    game = state.game
    cat = game.catalog

    def whose(mountain: int) -> str:
        return "their own" if mountain == player else possessive(game.seat_name(mountain))

    if isinstance(action, Pass):
        if not state.pass_ends_era(player):
            return "passed"
        if state.era >= game.eras:
            return "passed, which ends the game"
        after = cast("ErosionState", state.apply(player, action))
        return f"passed, which {_era_end(after, state.era)}"
    if isinstance(action, Weather):
        card = cat.index[action.card]
        targets = state.weather_targets(player, card, action.mountain)
        rocks = targets[: action.rocks or len(targets)]
        return (
            f"weathered {counted(len(rocks), 'rock')} ({_types(state, rocks)}) of "
            f"{whose(action.mountain)} mountain with {_process(state, action.card)}"
        )
    if isinstance(action, Hillslope):
        rocks = list(state.mountains[action.mountain][: action.rocks])
        return (
            f"moved {counted(len(rocks), 'weathered rock')} ({_types(state, rocks)}) from the "
            f"top of {whose(action.mountain)} mountain to the River with "
            f"{_process(state, action.card)}"
        )
    if isinstance(action, Fluvial):
        return (
            f"played {_process(state, action.card)} to carry "
            f"{counted(action.rocks, 'rock')} from the River into their delta, paying for "
            f"{'each' if action.rocks > 1 else 'it'} with a card of the same rock type"
        )
    if isinstance(action, Fault):
        top = state.mountains[action.mountain][:1]
        return (
            f"moved the top weathered rock ({_types(state, list(top))}) of "
            f"{whose(action.mountain)} mountain to the River (Earthquake Fault)"
        )
    a = cat.atm_index[action.card]
    aged = not state.aged[a]
    ends = (cat.normal_limit[a], cat.age_limit[a])
    limit = state.draw_limit(cat.under[a]) - ends[state.aged[a]] + ends[aged]
    side = f"its {AGE_NAMES[cat.atmospheres[a].age]} side" if aged else "its normal side"
    return (
        f"turned Atmosphere card {action.card} to {side} (Atmospheric Trigger): the "
        f"{DECK_WORDS[cat.under[a]]} deck's draw limit is {limit}"
    )


def _era_end(after: ErosionState, era: int) -> str:
    """How era ``era`` ended, ``after`` the pass that ended it, before the last: its scores
    (the era's end shows every challenge card, so every seat may read them) and who starts
    the next era, 'the lowest-scoring player' by total score, or that a tie-breaker decides."""
    game = after.game
    name = game.seat_name
    scored = ", ".join(f"{name(p)} {points}" for p, points in enumerate(after.era_scores[-1]))
    lowest = min(after.scores)
    starters = [name(p) for p, total in enumerate(after.scores) if total == lowest]
    if len(starters) == 1:
        starts = f"{starters[0]}, the lowest scorer, starts era {era + 1}"
    else:
        starts = (
            f"{listed(starters)} tie for the lowest score ({lowest}): a tie-breaker decides "
            f"which of them starts era {era + 1}"
        )
    return f"ends era {era} of {game.eras}: it scored {scored}; {starts}"


def _draw_words(state: ErosionState, player: Player, action: Draw | Redraw) -> str:
    counts = action.counts
    parts = [(k, DECK_WORDS[d]) for d, k in enumerate(counts) if k]
    if len(parts) == 1:
        drawn = counted(parts[0][0], f"{parts[0][1]} card")
    else:
        decks = ", ".join(f"{k} {deck}" for k, deck in parts)
        drawn = f"{counted(sum(counts), 'card')} ({decks})"
    if isinstance(action, Redraw):
        held = counted(len(state.hands[player]), "card")
        return f"discarded their whole hand of {held} and drew {drawn}"
    step = state.agenda[0] if state.agenda else None
    if step is None:
        return f"drew {drawn} instead of playing a card (Draw Cards)"
    # The uplift draw is followed by its uplift step; a new hand's draw is not.
    if len(state.agenda) > 1 and state.agenda[1].kind == "uplift":
        return f"drew {drawn}: one per rock they processed (the uplift draw)"
    return f"drew a new hand of {drawn}, their hand being empty"


def _rock(state: ErosionState, card: str) -> str:
    """A process card as a rock: ``H41 (basalt)``."""
    cat = state.game.catalog
    return f"{card} ({cat.rock[cat.index[card]]})"


def _process(state: ErosionState, card: str) -> str:
    """A played card by its process: ``WX12 (Salt Crystallization)``."""
    cat = state.game.catalog
    return f"{card} ({cat.process_name[cat.index[card]]})"


def _types(state: ErosionState, rocks: list[int]) -> str:
    cat = state.game.catalog
    return ", ".join(cat.rock[r] for r in rocks)


def era_scored(state: ErosionState, player: Player, action: ErosionAction) -> tuple[str, ...]:
    """The era a pass ends, scored part by part ("Era 1 scored: Alps 7 = 5 unweathered
    rocks × 1 + 1 delta rock × 2; Andes ..."): the end of a game said "16 recorded" and no
    why. A pass only counts passes, so the points are those of ``state``, as the rules
    scored them; every challenge card is shown at the scoring."""
    if not isinstance(action, Pass) or not state.pass_ends_era(player):
        return ()
    game = state.game
    seats = []
    for p in range(game.num_players):
        parts = state.point_parts(p)
        total = sum(part.points for part in parts)
        said = " + ".join(part.words() for part in parts)
        seats.append(f"{game.seat_name(p)} {total}" + (f" = {said}" if said else ""))
    era = f"Era {state.era}" if game.eras > 1 else "The era"
    return (f"{era} is scored: " + "; ".join(seats) + ".",)


def tie_broken(state: ErosionState, player: Player, action: ErosionAction) -> tuple[str, ...]:
    """How a tie-breaker the last guess completes came out: each guesser's drawn card, its
    Mohs hardness and how far the guess was, and who is closest ("... Alps is closest and
    chooses who takes the tie"), or that equally close guesses leave the tie standing. Once
    settled the drawn cards go back to the hands, and a shared win read with no why."""
    tie = state.tie
    if not isinstance(action, Guess) or tie is None:
        return ()
    if sum(1 for step in state.agenda if step.kind == "guess") > 1:
        return ()  # a guess still to come
    game, cat = state.game, state.game.catalog
    # As the guess leaves it (the rules' _guess), so the closest is the rules' own.
    tie = tie._replace(guesses=put(tie.guesses, tie.seats.index(player), action.hardness))
    said = []
    for seat, card, guess in zip(tie.seats, tie.cards, tie.guesses, strict=True):
        if card < 0:
            said.append(f"{game.seat_name(seat)} had no card to draw")
            continue
        said.append(
            f"{game.seat_name(seat)} drew {_rock(state, cat.ids[card])}, hardness "
            f"{cat.mohs[card]}, and guessed {guess} ({abs(guess - cat.mohs[card])} off)"
        )
    names = [game.seat_name(seat) for seat in tie.closest(cat.mohs)]
    if len(names) == 1:
        outcome = f"{names[0]} is closest and chooses who takes the tie"
    else:
        stands = "they share the win" if tie.purpose == "win" else "the next era's start is drawn"
        outcome = f"{listed(names)} are equally close: {stands}"
    aim = "the win" if tie.purpose == "win" else "the next era's start"
    return (f"The tie-breaker for {aim}: " + "; ".join(said) + f". {outcome}.",)
