"""How an Erd round is resolved, in the seed's order: combat, Turrets and discards,
Recovery, Escalation, and the checks that end a game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from meeple.core.game import Player
from meeple.core.words import counted
from meeple.games.erd.pieces import (
    CONVERSION_STEP,
    TURRET_VALUE,
    Allocate,
    Cards,
    RulesVersion,
    Side,
)

if TYPE_CHECKING:
    from meeple.games.erd.rules import ErdGame


# -- how a round is resolved ----------------------------------------------------------------
Outcome = Literal["one_rush", "both_total", "both_rush", "exact_tie", "held"]
"""What combat decided: one Rush broke through; both did and Rush + Defense or then Rush
decided; both did in an exact tie; neither did (the Defenses held)."""

EndReason = Literal["rush", "both_rushes", "pre_escalation", "mercy", "mercy_draw", "round_limit"]

REASON_TEXT: dict[str, str] = {
    "rush": "Rush broke through",
    "both_rushes": "both Rushes broke through",
    "pre_escalation": "pre-Escalation win",
    "mercy": "mercy rule",
    "mercy_draw": "mercy rule for both players: a draw",
    "round_limit": "draw by round limit",
}
"""A few words on each way a game ends, as the result reports it."""


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How one game of the match ended."""

    winner: Player | None
    """The winning seat; None for a draw."""
    reason: EndReason
    round: int
    """The round in which the game ended."""
    detail: str
    """A sentence a player follows: who won and why."""

    def to_json(self, game: ErdGame, number: int) -> dict[str, Any]:
        """JSON-safe: the game's number in the match, winner, reason and detail."""
        return {
            "game": number,
            "winner": self.winner,
            "winner_name": None if self.winner is None else game.seat_name(self.winner),
            "reason": self.reason,
            "reason_text": REASON_TEXT[self.reason],
            "rounds": self.round,
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class Combat:
    """Everything that happened from one reveal to the start of the next round."""

    game_number: int
    round: int
    allocations: tuple[Allocate, Allocate]
    turrets: tuple[int, int]
    """Turrets standing in each discard during this combat."""
    rush: tuple[int, int]
    """Value of each Rush pile."""
    defense: tuple[int, int]
    """Value of each Defense: the pile plus its owner's Turrets."""
    broke_through: tuple[bool, bool]
    """Whether each player's Rush beat the opposing Defense."""
    outcome: Outcome
    turrets_made: tuple[int, int] = (0, 0)
    decoys_back: tuple[int, int] = (0, 0)
    lights_back: tuple[int, int] = (0, 0)
    escalation: bool = False
    escalation_heavies: tuple[int, int] = (0, 0)
    escalation_lights: tuple[int, int] = (0, 0)
    ending: GameEnd | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-safe: the revealed piles, their values and what followed."""
        return {
            "game": self.game_number,
            "round": self.round,
            "rush": [str(a.rush) for a in self.allocations],
            "defense": [str(a.defense) for a in self.allocations],
            "turrets": list(self.turrets),
            "rush_value": list(self.rush),
            "defense_value": list(self.defense),
            "broke_through": list(self.broke_through),
            "outcome": self.outcome,
            "turrets_made": list(self.turrets_made),
            "decoys_back": list(self.decoys_back),
            "lights_back": list(self.lights_back),
            "escalation": self.escalation,
            "escalation_heavies": list(self.escalation_heavies),
            "escalation_lights": list(self.escalation_lights),
            "ending": None if self.ending is None else self.ending.detail,
        }


def other(player: Player) -> Player:
    """The opponent's seat."""
    return 1 - player


def rush_sizes(allocations: tuple[Allocate, Allocate], tiebreak: str = "value") -> tuple[int, int]:
    """What 'the larger Rush pile' compares (option ``rush_tiebreak``): each Rush pile's
    value, or its number of cards."""
    if tiebreak == "cards":
        return (allocations[0].rush.total, allocations[1].rush.total)
    return (allocations[0].rush.rush_value, allocations[1].rush.rush_value)


def combat(
    sides: tuple[Side, Side], allocations: tuple[Allocate, Allocate], tiebreak: str = "value"
) -> tuple[tuple[int, int], tuple[int, int], tuple[bool, bool], Outcome]:
    """Reveal: Rush and Defense values, whose Rush broke through, and what that decides.

    A Rush breaks through when its total value is higher than the opposing Defense, which
    counts its pile and every Turret its owner has standing. A tie of Rush plus Defense goes
    to the larger Rush pile, by ``tiebreak`` (see :func:`rush_sizes`).
    """
    rush = (allocations[0].rush.rush_value, allocations[1].rush.rush_value)
    defense = (
        allocations[0].defense.defense_value + TURRET_VALUE * sides[0].turrets,
        allocations[1].defense.defense_value + TURRET_VALUE * sides[1].turrets,
    )
    broke = (rush[0] > defense[1], rush[1] > defense[0])
    if broke[0] != broke[1]:
        return rush, defense, broke, "one_rush"
    if not broke[0]:
        return rush, defense, broke, "held"
    if rush[0] + defense[0] != rush[1] + defense[1]:
        return rush, defense, broke, "both_total"
    sizes = rush_sizes(allocations, tiebreak)
    if sizes[0] != sizes[1]:
        return rush, defense, broke, "both_rush"
    return rush, defense, broke, "exact_tie"


def combat_winner(
    rush: tuple[int, int],
    defense: tuple[int, int],
    broke: tuple[bool, bool],
    outcome: Outcome,
    sizes: tuple[int, int] | None = None,
) -> Player | None:
    """The seat that wins the game in combat, if combat decides it (``sizes``: what the
    Rush tie-break compares, the Rush values unless given)."""
    if outcome == "one_rush":
        return 0 if broke[0] else 1
    if outcome == "both_total":
        return 0 if rush[0] + defense[0] > rush[1] + defense[1] else 1
    if outcome == "both_rush":
        sizes = rush if sizes is None else sizes
        return 0 if sizes[0] > sizes[1] else 1
    return None


def turrets_converted(defense: int, opposing_rush: int, defending_heavies: int) -> int:
    """'For every 3 points each player's Defense exceeds their opponent's Rush by, they
    convert one of their Defending Heavies (if any) into a Turret'."""
    return min(defending_heavies, max(0, defense - opposing_rush) // CONVERSION_STEP)


def recover(version: RulesVersion, side: Side) -> tuple[Side, int, int]:
    """Recovery: Decoys back, then one Light per Heavy in Reserve. Returns the side and how
    many Decoys and Lights came back."""
    reserve, discard = side.reserve, side.discard
    if version.decoy_refill is None:
        decoys = discard.decoy
    else:
        decoys = min(discard.decoy, max(0, version.decoy_refill - reserve.total))
    # The Decoys back leave the Heavies in Reserve as they were, so the Lights they call
    # back are counted first and both kinds move from discard to Reserve in one step.
    lights = min(reserve.heavy, discard.light)
    back = Cards(0, lights, decoys)
    return Side(reserve.plus(back), discard.minus(back), side.turrets), decoys, lights


def escalation_due(sides: tuple[Side, Side]) -> bool:
    """'if all six Heavies are in the discard piles' (Turrets lie in the discard).

    Asked after the piles are discarded, when every Heavy lies in a Reserve or a discard
    pile: all of them are discarded when no Reserve holds one. Counting against the seed's
    six would miss it for a ``reserve`` option with another number of Heavies (and a game
    without Heavies has none to escalate with).
    """
    in_reserve = sides[0].reserve.heavy + sides[1].reserve.heavy
    return in_reserve == 0 and sides[0].heavies_discarded + sides[1].heavies_discarded > 0


def escalate(
    sides: tuple[Side, Side], lights_rule: Literal["all", "own"]
) -> tuple[tuple[Side, Side], tuple[int, int], tuple[int, int]]:
    """Escalation: Heavies back (one each if every Light is discarded, else one per Light in
    Reserve), then every Light back. Returns the sides, and the Heavies and Lights recovered.

    A player takes back plain discarded Heavies before Turrets: the Heavy in hand is the same
    card either way, and a Turret left standing still defends.
    """
    if lights_rule == "all":
        none_left = all(s.reserve.light == 0 for s in sides)
        wanted = tuple(1 if none_left else s.reserve.light for s in sides)
    else:
        # Each player asks the question of its own three Lights.
        wanted = tuple(max(1, s.reserve.light) for s in sides)
    out, heavies, lights = [], [], []
    for side, want in zip(sides, wanted, strict=True):
        back = min(want, side.heavies_discarded)
        from_discard = min(back, side.discard.heavy)
        from_turrets = back - from_discard
        back_cards = Cards(heavy=back, light=side.discard.light)
        out.append(
            Side(
                side.reserve.plus(back_cards),
                Cards(side.discard.heavy - from_discard, 0, side.discard.decoy),
                side.turrets - from_turrets,
            )
        )
        heavies.append(back)
        lights.append(side.discard.light)
    return (out[0], out[1]), (heavies[0], heavies[1]), (lights[0], lights[1])


MERCY_WORDS = {
    "0.01": "no Heavy and at most one Light in Reserve",
    "0.02": "no Heavy and at most two Lights in Reserve, while {other} has a Heavy",
    "empty": "no Heavy and no Light in Reserve",
}
"""Each mercy rule (:func:`mercy_losers`) in the words that tell a losing player why."""


def mercy_losers(version: RulesVersion, sides: tuple[Side, Side]) -> tuple[Player, ...]:
    """Seats the mercy rule catches at the end of a round without an Escalation.

    0.01: no Heavies and at most one Light in Reserve. 0.02: no Heavies and at most two Lights
    in Reserve, while the opponent has a Heavy in Reserve. "empty" (an option's softer rule):
    no Heavy and no Light in Reserve.
    """
    if version.mercy is None:
        return ()
    caught = []
    for p, side in enumerate(sides):
        reserve = side.reserve
        if version.mercy == "0.01":
            if reserve.heavy == 0 and reserve.light <= 1:
                caught.append(p)
        elif version.mercy == "empty":
            if reserve.heavy == 0 and reserve.light == 0:
                caught.append(p)
        elif reserve.heavy == 0 and reserve.light <= 2 and sides[other(p)].reserve.heavy > 0:
            caught.append(p)
    return tuple(caught)


def game_end(
    game: ErdGame,
    reason: EndReason,
    winner: Player | None,
    round_number: int,
    numbers: tuple[int, ...] = (),
) -> GameEnd:
    """How a game ended, its sentence written from a few numbers (the compiled rules keep
    just these):

    * ``rush``: the winner's Rush and the loser's Defense;
    * ``both_rushes``: the winner's and the loser's compared figures, then 1 when Rush +
      Defense tied and the Rush pile decided (by value, or cards under
      ``rush_tiebreak=cards``), 0 when the totals decided;
    * ``mercy``: the loser's Reserve, Heavies, Lights and Decoys;
    * the other reasons: none.
    """
    names = game.seat_name
    if reason == "rush":
        assert winner is not None
        detail = (
            f"{names(winner)}'s Rush ({numbers[0]}) broke through {names(other(winner))}'s "
            f"Defense ({numbers[1]}) in round {round_number}"
        )
    elif reason == "both_rushes":
        assert winner is not None
        mine, theirs, tied = numbers
        if not tied:
            compared = f"on Rush + Defense {mine} against {theirs}"
        elif game.options.rush_tiebreak == "cards":
            compared = (
                f"with Rush + Defense tied, on the Rush of more cards ({counted(mine, 'card')} "
                f"against {theirs})"
            )
        else:
            compared = f"with Rush + Defense tied, on the larger Rush ({mine} against {theirs})"
        detail = (
            f"Both Rushes broke through in round {round_number}; {names(winner)} wins {compared}"
        )
    elif reason == "pre_escalation":
        assert winner is not None
        detail = (
            f"Right before an Escalation in round {round_number}, only "
            f"{names(winner)} had non-Decoys in Reserve: a pre-Escalation win"
        )
    elif reason == "mercy":
        assert winner is not None
        reserve = Cards(*numbers)
        mercy = game.version.mercy
        assert mercy is not None  # only a mercy rule in force ends a game by mercy
        rule = MERCY_WORDS[mercy].format(other=names(winner))
        detail = (
            f"{names(other(winner))} ended round {round_number} with "
            f"{reserve.words()} in Reserve and loses by the mercy rule ({rule})"
        )
    elif reason == "mercy_draw":
        mercy = game.version.mercy
        assert mercy is not None  # only a mercy rule in force catches both players
        rule = MERCY_WORDS[mercy].format(other="the other")
        detail = f"Both players ended round {round_number} within the mercy rule ({rule}): a draw"
    else:
        limit = game.options.round_limit
        detail = f"The game reached the round limit of {limit}: a draw by round limit"
    return GameEnd(winner, reason, round_number, detail)


def combat_ending(game: ErdGame, report: Combat, winner: Player, round_number: int) -> GameEnd:
    """How combat won the game: one Rush broke through, or both did and the totals decided."""
    rush, defense = report.rush, report.defense
    loser = other(winner)
    if report.outcome == "one_rush":
        return game_end(game, "rush", winner, round_number, (rush[winner], defense[loser]))
    if report.outcome == "both_total":
        numbers = (rush[winner] + defense[winner], rush[loser] + defense[loser], 0)
    else:
        sizes = rush_sizes(report.allocations, game.options.rush_tiebreak)
        numbers = (sizes[winner], sizes[loser], 1)
    return game_end(game, "both_rushes", winner, round_number, numbers)


def turrets_made(
    allocations: tuple[Allocate, Allocate],
    rush: tuple[int, int],
    defense: tuple[int, int],
    outcome: Outcome,
) -> tuple[int, int]:
    """Turrets each player makes in a combat that did not end the game: only when both
    Defenses held (:func:`turrets_converted`), none otherwise."""
    if outcome != "held":
        return (0, 0)
    return (
        turrets_converted(defense[0], rush[1], allocations[0].defense.heavy),
        turrets_converted(defense[1], rush[0], allocations[1].defense.heavy),
    )


def discard_piles(
    game: ErdGame,
    sides: tuple[Side, Side],
    allocations: tuple[Allocate, Allocate],
    made: tuple[int, int],
) -> tuple[Side, Side]:
    """After a combat that did not end the game: the Heavies that became Turrets (``made``,
    per player) stand as Turrets, and every other card of the piles goes to its owner's
    discard. Returns the sides."""
    after = []
    for side, alloc, turrets in zip(sides, allocations, made, strict=True):
        piles = alloc.cards
        discarded = piles.minus(Cards(heavy=turrets)) if turrets else piles
        standing = side.turrets
        if game.options.turret_lifetime == "one_combat":
            # 'All other cards ..., including Turrets, are discarded': read as a Turret that
            # served in this combat going back to being a plain discarded Heavy.
            discarded, standing = discarded.plus(Cards(heavy=standing)), 0
        after.append(
            Side(side.reserve.minus(piles), side.discard.plus(discarded), standing + turrets)
        )
    return after[0], after[1]


def end_of_round(
    game: ErdGame, sides: tuple[Side, Side], round_number: int
) -> tuple[GameEnd | None, bool]:
    """The checks after Recovery: the 0.02 pre-Escalation win, whether an Escalation happens,
    the mercy rule (only without an Escalation), and the safeguard round limit.

    Returns how the game ended (None if it goes on) and whether to escalate.
    """
    version = game.version
    end: GameEnd | None = None
    escalation = False
    if escalation_due(sides):
        holders = [p for p in (0, 1) if sides[p].reserve.total > sides[p].reserve.decoy]
        if version.pre_escalation_win and len(holders) == 1:
            end = game_end(game, "pre_escalation", holders[0], round_number)
        else:
            escalation = True
    else:
        caught = mercy_losers(version, sides)
        # Both caught needs both without Heavies in Reserve, so all of them discarded and an
        # Escalation first: only a ``reserve`` without Heavies gets here, but gaps.md's draw
        # covers it.
        if len(caught) == 2:
            end = game_end(game, "mercy_draw", None, round_number)
        elif caught:
            loser = caught[0]
            end = game_end(game, "mercy", other(loser), round_number, sides[loser].reserve)
    if end is None and round_number >= game.options.round_limit:
        end = game_end(game, "round_limit", None, round_number)
    return end, escalation


def resolve_round(
    game: ErdGame,
    sides: tuple[Side, Side],
    allocations: tuple[Allocate, Allocate],
    round_number: int,
    game_number: int = 1,
) -> tuple[Combat, tuple[Side, Side]]:
    """Everything from the reveal to the next round, in the seed's order: combat, Turrets and
    discards, Recovery, Escalation, and the checks that end a game.

    Returns what happened and each side afterwards (unchanged when combat ends the game: the
    piles stay on the table).
    """
    tiebreak = game.options.rush_tiebreak
    rush, defense, broke, outcome = combat(sides, allocations, tiebreak)
    turrets = (sides[0].turrets, sides[1].turrets)
    revealed = (game_number, round_number, allocations, turrets, rush, defense, broke, outcome)
    # The Rush piles' sizes decide only a tie of Rush + Defense (outcome "both_rush").
    sizes = rush_sizes(allocations, tiebreak) if outcome == "both_rush" else None
    winner = combat_winner(rush, defense, broke, outcome, sizes)
    if winner is not None:
        ending = combat_ending(game, Combat(*revealed), winner, round_number)
        return Combat(*revealed, ending=ending), sides

    made = turrets_made(allocations, rush, defense, outcome)
    discarded = discard_piles(game, sides, allocations, made)
    red, red_decoys, red_lights = recover(game.version, discarded[0])
    blue, blue_decoys, blue_lights = recover(game.version, discarded[1])
    new_sides = (red, blue)
    end, escalation = end_of_round(game, new_sides, round_number)
    heavies_up, lights_up = (0, 0), (0, 0)
    if escalation:
        new_sides, heavies_up, lights_up = escalate(new_sides, game.options.escalation_lights)
    # The whole report built once, and only then (combat's figures are passed on as they
    # are): the Erd solver asks this of every pair of allocations of every state (hundreds
    # of thousands), and a copy per step of the round cost a fifth of it.
    return Combat(
        *revealed,
        turrets_made=made,
        decoys_back=(red_decoys, blue_decoys),
        lights_back=(red_lights, blue_lights),
        escalation=escalation,
        escalation_heavies=heavies_up,
        escalation_lights=lights_up,
        ending=end,
    ), new_sides
