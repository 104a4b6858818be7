"""Erd: The Grim Triangle: a clash of Rush, Defense and economy in eighteen (or 24) cards.

The rules as the seed states them, in the order a round plays:

* Setup: each player's Reserve holds 3 Heavies, 3 Lights and 3 Decoys (patch 0.01: 6 Decoys).
  Heavy is worth 2 on Rush, 3 on Defense and 1 as a Turret; Light 1; Decoy 0.
* Allocation: both players at once move cards face down from their Reserve to their Rush and
  Defense piles: up to three per pile (patch 0.01: exactly three).
* Reveal and combat: if exactly one Rush beats the opposing Defense, its player wins. If both
  do, the larger Rush plus Defense wins, then the larger Rush; an exact tie discards every pile
  and play goes on. If neither does, every 3 points by which a Defense exceeds the opposing
  Rush turn one defending Heavy into a Turret; everything else is discarded.
* Recovery: Decoys come back (patch 0.01: until the Reserve holds 9 cards), then one Light for
  each Heavy in the Reserve.
* Escalation: when all six Heavies are in the discards, each player takes back one Heavy if
  every Light is discarded, else one Heavy per Light in Reserve; then all their Lights.
  Patch 0.02: right before an Escalation, a player who alone has non-Decoys in Reserve wins.
* Mercy rule (patch 0.01): a player who ends a round without an Escalation with no Heavy and
  at most one Light in Reserve loses; patch 0.02: no Heavy and at most two Lights, while the
  opponent has a Heavy in Reserve.
* A match is best of 2N + 1 games.

A state is a whole match (see ``rules.md`` for why); each seat's Reserve, discard pile and
Turrets are public, only the pending allocation of a round is hidden until both are in.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from itertools import product
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NamedTuple

from pydantic import Field, field_validator

from meeple.core.errors import NotationError
from meeple.core.game import AgentFactory, Game, Player, State
from meeple.core.options import GameOptions
from meeple.core.registry import register
from meeple.core.simultaneous import Submissions

if TYPE_CHECKING:
    import random

    from rich.console import RenderableType

# -- the cards ------------------------------------------------------------------------------
HEAVY_ON_RUSH = 2
HEAVY_ON_DEFENSE = 3
TURRET_VALUE = 1
LIGHT_VALUE = 1
DECOY_VALUE = 0
PILE_SIZE = 3
"""'up to three cards' / 'exactly 3 face-down cards' in each of Rush and Defense."""
CONVERSION_STEP = 3
"""'For every 3 points each player's Defense exceeds their opponent's Rush by'."""
HEAVIES_IN_GAME = 6
"""'if all six Heavies are in the discard piles'."""
LETTERS = ("H", "L", "D")
KIND_NAMES = ("Heavy", "Light", "Decoy")
KIND_PLURALS = ("Heavies", "Lights", "Decoys")


class Cards(NamedTuple):
    """A set of Erd cards counted by kind: Heavies, Lights, Decoys."""

    heavy: int = 0
    light: int = 0
    decoy: int = 0

    @property
    def total(self) -> int:
        """How many cards in all."""
        return self.heavy + self.light + self.decoy

    def plus(self, other: Cards) -> Cards:
        """These cards together with ``other``."""
        return Cards(self.heavy + other.heavy, self.light + other.light, self.decoy + other.decoy)

    def minus(self, other: Cards) -> Cards:
        """These cards without ``other`` (the caller makes sure they are here)."""
        return Cards(self.heavy - other.heavy, self.light - other.light, self.decoy - other.decoy)

    def covers(self, other: Cards) -> bool:
        """True if ``other`` can be taken from these cards."""
        return self.heavy >= other.heavy and self.light >= other.light and self.decoy >= other.decoy

    @property
    def rush_value(self) -> int:
        """Value as a Rush pile: Heavy 2, Light 1, Decoy 0."""
        return HEAVY_ON_RUSH * self.heavy + LIGHT_VALUE * self.light + DECOY_VALUE * self.decoy

    @property
    def defense_value(self) -> int:
        """Value as a Defense pile, without Turrets: Heavy 3, Light 1, Decoy 0."""
        return HEAVY_ON_DEFENSE * self.heavy + LIGHT_VALUE * self.light + DECOY_VALUE * self.decoy

    def __str__(self) -> str:
        """``HHL``: a letter per card, Heavies first; ``-`` for no card."""
        return "H" * self.heavy + "L" * self.light + "D" * self.decoy or "-"

    def words(self) -> str:
        """``2 Heavies, 1 Light``: for sentences; ``nothing`` for no card."""
        parts = [
            f"{n} {KIND_NAMES[k] if n == 1 else KIND_PLURALS[k]}" for k, n in enumerate(self) if n
        ]
        return ", ".join(parts) or "nothing"

    @classmethod
    def parse(cls, text: str) -> Cards:
        """Read a pile in letters (``HHL``, any order or case) or ``-`` for an empty pile."""
        text = text.strip().upper()
        if text in ("-", ""):
            return cls()
        bad = sorted({c for c in text if c not in LETTERS})
        if bad:
            raise NotationError(
                f"{''.join(bad)!r} in {text!r} is not a card; use H (Heavy), L (Light), "
                "D (Decoy), or - for an empty pile"
            )
        return cls(text.count("H"), text.count("L"), text.count("D"))


NO_CARDS = Cards()


# -- the three rules versions ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RulesVersion:
    """What differs between the original sketch, patch 0.01 and patch 0.02."""

    name: str
    decoys: int
    """Decoys in each starting Reserve: 3, then 6 from patch 0.01 on."""
    exactly_three: bool
    """Each pile takes exactly three cards (0.01) rather than up to three (original)."""
    decoy_refill: int | None
    """Decoys come back until the Reserve holds this many cards (0.01); None: all of them."""
    mercy: Literal["0.01", "0.02"] | None
    """Which mercy rule ends the game at the end of a round, if any."""
    pre_escalation_win: bool
    """0.02: a player who alone has non-Decoys in Reserve right before an Escalation wins."""

    @property
    def starting_reserve(self) -> Cards:
        """Each player's Reserve at the start of a game."""
        return Cards(3, 3, self.decoys)


VERSIONS: dict[str, RulesVersion] = {
    "original": RulesVersion(
        "original",
        decoys=3,
        exactly_three=False,
        decoy_refill=None,
        mercy=None,
        pre_escalation_win=False,
    ),
    "0.01": RulesVersion(
        "0.01", decoys=6, exactly_three=True, decoy_refill=9, mercy="0.01", pre_escalation_win=False
    ),
    "0.02": RulesVersion(
        "0.02", decoys=6, exactly_three=True, decoy_refill=9, mercy="0.02", pre_escalation_win=True
    ),
}
"""Patch 0.02 keeps every rule of 0.01 that it does not change."""


class ErdOptions(GameOptions):
    """Options of Erd."""

    rules: Literal["original", "0.01", "0.02"] = Field(
        default="0.02",
        description="rules version: the original sketch, patch 0.01 or patch 0.02",
    )
    best_of: int = Field(
        default=5,
        ge=1,
        le=99,
        description="games in a match (odd: best of 2N+1); 1 plays a single game",
        json_schema_extra={"allowed": "an odd number from 1 to 99"},
    )
    turret_lifetime: Literal["until_recovered", "one_combat"] = Field(
        default="until_recovered",
        description="a Turret adds 1 to Defense in every later combat until an Escalation "
        "takes it back, or in the next combat only",
    )
    escalation_lights: Literal["all", "own"] = Field(
        default="all",
        description="Escalation's 'if all Lights are in the discard': all six Lights of both "
        "players, or each player's own three",
    )
    rush_tiebreak: Literal["value", "cards"] = Field(
        default="value",
        description="'If that's tied, whoever has the larger Rush pile wins': larger by value, "
        "or by number of cards (the original allows piles of 0 to 3 cards; under 0.01 and "
        "0.02 every pile has 3, so by cards such a tie is always exact)",
    )
    match_draws: Literal["count", "replay"] = Field(
        default="count",
        description="a drawn game of a match counts as one of its games, or is replayed "
        "(at most best_of replays in a match; later draws count)",
    )
    round_limit: int = Field(
        default=200,
        ge=1,
        le=100_000,
        description="safeguard: a game still going after this many rounds is a draw",
        json_schema_extra={"allowed": "1 to 100000"},
    )

    @field_validator("rules", mode="before")
    @classmethod
    def _version_as_text(cls, value: Any) -> Any:
        # `rules=0.01` from Python arrives as a float; the versions are names.
        return str(value) if isinstance(value, int | float) else value

    @field_validator("best_of")
    @classmethod
    def _odd(cls, value: int) -> int:
        if value % 2 == 0:
            raise ValueError(f"a match is best of an odd number of games, not {value}")
        return value


# -- actions --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Allocate:
    """This round's allocation: the cards put face down on Rush and on Defense.

    Notation: ``rush=HHL defense=LDD`` (H Heavy, L Light, D Decoy; ``-`` for an empty pile).
    """

    rush: Cards
    defense: Cards

    @property
    def cards(self) -> Cards:
        """Every card the allocation takes from the Reserve."""
        return self.rush.plus(self.defense)

    def __str__(self) -> str:
        return f"rush={self.rush} defense={self.defense}"


NOTATION_HELP = (
    "write both piles as rush=<cards> defense=<cards> with H (Heavy), L (Light), D (Decoy), "
    "and - for an empty pile, e.g. 'rush=HHL defense=LDD'"
)


# A pile never swallows the next key: in 'rush= defense=-' the Rush pile is empty.
# A key starts only at the start of a word and nothing backtracks, so a long run of letters
# is scanned once rather than once from every position in it (which was quadratic); a word
# followed by ``=`` is the next key, not this pile's cards.
_PILE_RE = re.compile(r"(?<![A-Za-z])([A-Za-z]++)\s*+=(?:\s*+([^\s,;=]++)(?!\s*+=))?+")
_RUSH_KEYS = ("rush", "r")
_DEFENSE_KEYS = ("defense", "defence", "d")


def parse_allocation(text: str) -> Allocate:
    """Read ``rush=HHL defense=LDD`` (keys in any order; ``r=``/``d=`` for short)."""
    piles: dict[str, Cards] = {}
    rest = _PILE_RE.sub(" ", text).replace(",", " ").replace(";", " ").strip()
    if rest:
        raise NotationError(f"{rest!r} is not part of an Erd allocation; {NOTATION_HELP}")
    for key, value in _PILE_RE.findall(text):
        key = key.lower()
        pile = "rush" if key in _RUSH_KEYS else "defense" if key in _DEFENSE_KEYS else None
        if pile is None:
            raise NotationError(f"{key!r} is not a pile; the piles are rush and defense")
        if pile in piles:
            raise NotationError(f"the {pile} pile is given twice in {text!r}")
        piles[pile] = Cards.parse(value)
    missing = [p for p in ("rush", "defense") if p not in piles]
    if missing:
        raise NotationError(f"{text!r} gives no {' and no '.join(missing)} pile; {NOTATION_HELP}")
    return Allocate(piles["rush"], piles["defense"])


# -- one player's side of the table ---------------------------------------------------------
class Side(NamedTuple):
    """One player's cards outside the piles: Reserve, discard pile and Turrets.

    Turrets are Heavies lying sideways in the discard; ``discard`` counts the other cards.
    """

    reserve: Cards
    discard: Cards
    turrets: int

    @property
    def all_cards(self) -> Cards:
        """Every card this player owns (a Turret is a Heavy)."""
        return self.reserve.plus(self.discard).plus(Cards(heavy=self.turrets))

    @property
    def heavies_discarded(self) -> int:
        """Heavies in the discard pile, Turrets included."""
        return self.discard.heavy + self.turrets


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
    reserve = reserve.plus(Cards(decoy=decoys))
    lights = min(reserve.heavy, discard.light)
    reserve = reserve.plus(Cards(light=lights))
    discard = discard.minus(Cards(light=lights, decoy=decoys))
    return Side(reserve, discard, side.turrets), decoys, lights


def escalation_due(sides: tuple[Side, Side]) -> bool:
    """'if all six Heavies are in the discard piles' (Turrets lie in the discard)."""
    return sides[0].heavies_discarded + sides[1].heavies_discarded == HEAVIES_IN_GAME


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


def mercy_losers(version: RulesVersion, sides: tuple[Side, Side]) -> tuple[Player, ...]:
    """Seats the mercy rule catches at the end of a round without an Escalation.

    0.01: no Heavies and at most one Light in Reserve. 0.02: no Heavies and at most two Lights
    in Reserve, while the opponent has a Heavy in Reserve.
    """
    if version.mercy is None:
        return ()
    caught = []
    for p, side in enumerate(sides):
        reserve = side.reserve
        if version.mercy == "0.01":
            if reserve.heavy == 0 and reserve.light <= 1:
                caught.append(p)
        elif reserve.heavy == 0 and reserve.light <= 2 and sides[other(p)].reserve.heavy > 0:
            caught.append(p)
    return tuple(caught)


def combat_ending(game: ErdGame, report: Combat, winner: Player, round_number: int) -> GameEnd:
    """How combat won the game: one Rush broke through, or both did and the totals decided."""
    names = game.seat_name
    rush, defense = report.rush, report.defense
    loser = other(winner)
    if report.outcome == "one_rush":
        detail = (
            f"{names(winner)}'s Rush ({rush[winner]}) broke through {names(loser)}'s "
            f"Defense ({defense[loser]}) in round {round_number}"
        )
        return GameEnd(winner, "rush", round_number, detail)
    if report.outcome == "both_total":
        compared = (
            f"Rush + Defense {rush[winner] + defense[winner]} against "
            f"{rush[loser] + defense[loser]}"
        )
    elif game.options.rush_tiebreak == "cards":
        cards = rush_sizes(report.allocations, "cards")
        compared = f"Rush + Defense tied, a Rush of {cards[winner]} cards against {cards[loser]}"
    else:
        compared = f"Rush + Defense tied, Rush {rush[winner]} against {rush[loser]}"
    detail = (
        f"Both Rushes broke through in round {round_number}; {names(winner)} wins on {compared}"
    )
    return GameEnd(winner, "both_rushes", round_number, detail)


def discard_piles(
    game: ErdGame, sides: tuple[Side, Side], report: Combat
) -> tuple[list[Side], list[int]]:
    """After a combat that did not end the game: Turrets (only when both Defenses held), then
    every other card of the piles to its owner's discard. Returns the sides and the Turrets
    made."""
    made = [0, 0]
    after = []
    for p in (0, 1):
        side, alloc = sides[p], report.allocations[p]
        if report.outcome == "held":
            made[p] = turrets_converted(
                report.defense[p], report.rush[other(p)], alloc.defense.heavy
            )
        discard = side.discard.plus(alloc.cards).minus(Cards(heavy=made[p]))
        standing = side.turrets
        if game.options.turret_lifetime == "one_combat":
            # 'All other cards ..., including Turrets, are discarded': read as a Turret that
            # served in this combat going back to being a plain discarded Heavy.
            discard, standing = discard.plus(Cards(heavy=standing)), 0
        after.append(Side(side.reserve.minus(alloc.cards), discard, standing + made[p]))
    return after, made


def end_of_round(
    game: ErdGame, sides: tuple[Side, Side], round_number: int
) -> tuple[GameEnd | None, bool]:
    """The checks after Recovery: the 0.02 pre-Escalation win, whether an Escalation happens,
    the mercy rule (only without an Escalation), and the safeguard round limit.

    Returns how the game ended (None if it goes on) and whether to escalate.
    """
    version, names = game.version, game.seat_name
    end: GameEnd | None = None
    escalation = False
    if escalation_due(sides):
        holders = [p for p in (0, 1) if sides[p].reserve.total > sides[p].reserve.decoy]
        if version.pre_escalation_win and len(holders) == 1:
            detail = (
                f"Right before an Escalation in round {round_number}, only "
                f"{names(holders[0])} had non-Decoys in Reserve: a pre-Escalation win"
            )
            end = GameEnd(holders[0], "pre_escalation", round_number, detail)
        else:
            escalation = True
    else:
        caught = mercy_losers(version, sides)
        # Both caught needs both without Heavies in Reserve, so all six discarded and an
        # Escalation first: it cannot arise in play, but gaps.md's draw covers it.
        if len(caught) == 2:
            detail = f"Both players ended round {round_number} within the mercy rule: a draw"
            end = GameEnd(None, "mercy_draw", round_number, detail)
        elif caught:
            loser = caught[0]
            detail = (
                f"{names(loser)} ended round {round_number} with "
                f"{sides[loser].reserve.words()} in Reserve and loses by the mercy rule"
            )
            end = GameEnd(other(loser), "mercy", round_number, detail)
    limit = game.options.round_limit
    if end is None and round_number >= limit:
        detail = f"The game reached the round limit of {limit}: a draw by round limit"
        end = GameEnd(None, "round_limit", round_number, detail)
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
    report = Combat(game_number, round_number, allocations, turrets, rush, defense, broke, outcome)
    winner = combat_winner(rush, defense, broke, outcome, rush_sizes(allocations, tiebreak))
    if winner is not None:
        return replace(report, ending=combat_ending(game, report, winner, round_number)), sides

    after, made = discard_piles(game, sides, report)
    decoys, lights = [0, 0], [0, 0]
    for p in (0, 1):
        after[p], decoys[p], lights[p] = recover(game.version, after[p])
    new_sides = (after[0], after[1])
    report = replace(
        report,
        turrets_made=(made[0], made[1]),
        decoys_back=(decoys[0], decoys[1]),
        lights_back=(lights[0], lights[1]),
    )
    end, escalation = end_of_round(game, new_sides, round_number)
    if escalation:
        new_sides, heavies, lights_up = escalate(new_sides, game.options.escalation_lights)
        report = replace(
            report, escalation=True, escalation_heavies=heavies, escalation_lights=lights_up
        )
    return replace(report, ending=end), new_sides


# -- the game -------------------------------------------------------------------------------
SEATS = ("Red", "Blue")


@register
class ErdGame(Game[ErdOptions, "ErdState", Allocate]):
    """Erd in any of its three rules versions, as a match of best of ``best_of`` games."""

    name: ClassVar[str] = "erd"
    title: ClassVar[str] = "Erd: The Grim Triangle"
    summary: ClassVar[str] = (
        "Both players secretly split cards between Rush and Defense; "
        "a Rush that breaks through wins."
    )
    Options: ClassVar[type[GameOptions]] = ErdOptions
    players: ClassVar[str] = "2"
    perfect_information: ClassVar[bool] = False
    heuristic_agent: ClassVar[str | None] = "heuristic"
    step_names: ClassVar[tuple[str, ...]] = ("allocate", "over")

    def __init__(self, options: ErdOptions) -> None:
        super().__init__(options)
        self.version: RulesVersion = VERSIONS[options.rules]
        start = self.version.starting_reserve
        self.starting_side: Side = Side(start, NO_CARDS, 0)
        # Every allocation the starting Reserve allows, piles of at most three cards: the
        # integer encoding, and the shared action objects legal_actions hands out.
        piles = [
            Cards(h, li, d)
            for size in range(PILE_SIZE + 1)
            for h in range(size + 1)
            for li in range(size - h + 1)
            for d in (size - h - li,)
        ]
        self.all_actions: tuple[Allocate, ...] = tuple(
            Allocate(r, d) for r, d in product(piles, piles) if start.covers(r.plus(d))
        )
        self._ids: dict[Allocate, int] = {a: i for i, a in enumerate(self.all_actions)}
        self._legal: dict[Cards, tuple[Allocate, ...]] = {}

    @property
    def num_players(self) -> int:
        """Erd is for two players."""
        return 2

    def seat_name(self, player: Player) -> str:
        """Red (seat 0) and Blue (seat 1)."""
        return SEATS[player]

    # -- states -----------------------------------------------------------------------------
    def new_game(self, seed: int) -> ErdState:
        """Both Reserves full, nothing discarded, round 1 of game 1.

        Erd has no chance at all, so the seed changes nothing; it is kept for the record.
        """
        return ErdState(
            game=self,
            sides=(self.starting_side, self.starting_side),
            pending=Submissions.open((0, 1)),
            round=1,
            games=(),
            last=None,
        )

    def cards_to_place(self, reserve: Cards) -> tuple[int, int] | None:
        """How many cards each pile must take from ``reserve``: ``(per pile, in all)``.

        None in the original rules (anything up to three per pile). From patch 0.01 on, three
        per pile; a Reserve too small for six is placed whole, at most three per pile.
        """
        if not self.version.exactly_three:
            return None
        return PILE_SIZE, min(2 * PILE_SIZE, reserve.total)

    def allocations(self, reserve: Cards) -> tuple[Allocate, ...]:
        """Every legal allocation from ``reserve``, in id order (cached per Reserve)."""
        found = self._legal.get(reserve)
        if found is None:
            found = tuple(
                a for a in self.all_actions if self.allocation_problem(reserve, a) is None
            )
            self._legal[reserve] = found
        return found

    def allocation_problem(self, reserve: Cards, action: Allocate) -> str | None:
        """Why ``action`` cannot be allocated from ``reserve``, or None if it can."""
        for pile_name, pile in (("Rush", action.rush), ("Defense", action.defense)):
            if min(pile) < 0:
                return f"the {pile_name} pile cannot hold a negative number of cards"
            if pile.total > PILE_SIZE:
                return f"a {pile_name} pile holds at most three cards, not {pile.total} ({pile})"
        need = action.cards
        for k in range(3):
            if need[k] > reserve[k]:
                held = f"{reserve[k]} {KIND_NAMES[k] if reserve[k] == 1 else KIND_PLURALS[k]}"
                return f"the Reserve holds {held}, but this allocation uses {need[k]}"
        rule = self.cards_to_place(reserve)
        if rule is not None:
            per_pile, total = rule
            version = self.version.name
            if total == 2 * per_pile:
                for pile_name, pile in (("Rush", action.rush), ("Defense", action.defense)):
                    if pile.total != per_pile:
                        return (
                            f"in rules {version} each pile takes exactly three cards; "
                            f"the {pile_name} pile has {pile.total}"
                        )
            elif need.total != total:
                return (
                    f"in rules {version} a Reserve of {reserve.total} cards is placed whole "
                    f"(at most three per pile), not {need.total} of them"
                )
        return None

    # -- notation and encoding --------------------------------------------------------------
    def _parse_action(self, text: str) -> Allocate:
        """Read ``rush=HHL defense=LDD``; ``-`` is an empty pile."""
        return parse_allocation(text)

    def notation_help(self) -> str:
        """How to write an allocation."""
        if self.version.exactly_three:
            return NOTATION_HELP + "; in these rules each pile takes exactly three cards"
        return NOTATION_HELP + "; in the original rules each pile takes up to three cards"

    @property
    def num_actions(self) -> int:
        """Every (Rush, Defense) pair of piles of at most three cards that the starting
        Reserve can supply."""
        return len(self.all_actions)

    def action_id(self, action: Allocate) -> int:
        """Position of the allocation among :attr:`all_actions`."""
        try:
            return self._ids[action]
        except KeyError:
            raise ValueError(f"{action} is not an allocation of this game") from None

    def action_from_id(self, action_id: int) -> Allocate:
        """The allocation with this id; ValueError if out of range."""
        if not 0 <= action_id < len(self.all_actions):
            raise ValueError(f"action id {action_id} is outside 0..{len(self.all_actions) - 1}")
        return self.all_actions[action_id]

    # -- extras -----------------------------------------------------------------------------
    def agents(self) -> Mapping[str, AgentFactory]:
        """``heuristic``: looks one round ahead against every allocation the opponent has."""
        from meeple.games.erd.agents import HeuristicAgent

        return {"heuristic": HeuristicAgent}

    def render(self, state: ErdState, player: Player | None = None) -> RenderableType:
        """The table as ``player`` sees it: Reserves, discards, Turrets, the last combat."""
        from meeple.games.erd.render import render_state

        return render_state(state, player)


@dataclass(frozen=True, slots=True, eq=True)
class ErdState(State[Allocate]):
    """A point in a match: both sides of the table, this round's hidden allocations, and the
    games already played."""

    game: ErdGame
    sides: tuple[Side, Side]
    pending: Submissions[Allocate]
    """This round's allocations; each stays hidden from the other seat until both are in."""
    round: int
    """The round being allocated in the current game, from 1."""
    games: tuple[GameEnd, ...]
    """The games of the match already over, in order."""
    last: Combat | None
    """The last combat revealed (possibly the one that ended the previous game)."""

    # -- the match --------------------------------------------------------------------------
    @property
    def score(self) -> tuple[int, int]:
        """Games won by each seat in this match."""
        return (
            sum(1 for g in self.games if g.winner == 0),
            sum(1 for g in self.games if g.winner == 1),
        )

    @property
    def games_counted(self) -> int:
        """Games that count towards best-of: all of them, or (``match_draws=replay``) the
        decided ones plus any draws beyond the ``best_of`` replays a match allows."""
        if self.game.options.match_draws == "count":
            return len(self.games)
        draws = sum(1 for g in self.games if g.winner is None)
        return len(self.games) - draws + max(0, draws - self.game.options.best_of)

    @property
    def match_over(self) -> bool:
        """Every game is played, or one seat leads by more than the games left."""
        best_of = self.game.options.best_of
        left = best_of - self.games_counted
        a, b = self.score
        return left <= 0 or abs(a - b) > left

    @property
    def game_number(self) -> int:
        """The game of the match being played (the last one once the match is over)."""
        return len(self.games) if self.match_over else len(self.games) + 1

    @property
    def to_act(self) -> tuple[Player, ...]:
        """Both seats until they have allocated for this round; nobody once the match is over."""
        if self.match_over:
            return ()
        return self.pending.waiting

    @property
    def step_name(self) -> str:
        """``allocate`` (both seats at once) until the match is ``over``."""
        return "over" if self.match_over else "allocate"

    # -- actions ----------------------------------------------------------------------------
    def legal_actions(self, player: Player) -> list[Allocate]:
        """Every allocation the seat's Reserve allows, if it is yet to allocate."""
        if player not in self.to_act:
            return []
        return list(self.game.allocations(self.sides[player].reserve))

    def why_illegal(self, player: Player, action: Allocate) -> str | None:
        """A specific reason: a pile over three cards, cards not in Reserve, a pile that
        must take exactly three."""
        if not isinstance(action, Allocate):
            return f"{action!r} is not an Erd allocation; {NOTATION_HELP}"
        problem = self.game.allocation_problem(self.sides[player].reserve, action)
        if problem is not None:
            return f"{self.game.seat_name(player)} cannot allocate {action}: {problem}"
        return None

    def _next(self, player: Player, action: Allocate) -> ErdState:
        pending = self.pending.submit(player, action)
        if not pending.complete:
            return replace(self, pending=pending)
        chosen = pending.revealed()
        report, sides = resolve_round(
            self.game, self.sides, (chosen[0], chosen[1]), self.round, len(self.games) + 1
        )
        fresh: Submissions[Allocate] = Submissions.open((0, 1))
        if report.ending is None:
            return replace(self, sides=sides, pending=fresh, round=self.round + 1, last=report)
        games = (*self.games, report.ending)
        after = replace(self, sides=sides, pending=fresh, games=games, last=report)
        if after.match_over:
            return after
        # The next game of the match starts from full Reserves.
        start = self.game.starting_side
        return replace(after, sides=(start, start), round=1)

    # -- outcome ----------------------------------------------------------------------------
    @property
    def winner(self) -> Player | None:
        """The seat that won the match; None while it goes on or if it is drawn."""
        if not self.match_over:
            return None
        a, b = self.score
        return None if a == b else (0 if a > b else 1)

    @property
    def returns(self) -> tuple[float, ...]:
        """+1 to the match winner, -1 to the loser; zeros for a drawn or unfinished match."""
        winner = self.winner
        if winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    @property
    def result(self) -> dict[str, Any]:
        """Winner, why (the deciding game's reason, or the match score), and every game."""
        game = self.game
        winner = self.winner
        games = [g.to_json(game, k) for k, g in enumerate(self.games, start=1)]
        reason: str | None = None
        ending: str | None = None
        if self.match_over:
            last = self.games[-1]
            ending = last.reason
            if game.options.best_of == 1:
                reason = last.detail
            else:
                a, b = self.score
                verdict = (
                    f"{game.seat_name(winner)} won the match {_games(max(a, b))} to {min(a, b)}"
                    if winner is not None
                    else f"the match is drawn, {_games(a)} each"
                )
                reason = f"{verdict}; in the last game, {_lower_first(last.detail)}"
        return {
            "over": self.match_over,
            "winner": winner,
            "winner_name": None if winner is None else game.seat_name(winner),
            "reason": reason,
            "ending": ending,
            "best_of": game.options.best_of,
            "score": list(self.score),
            "games": games,
        }

    # -- what a seat sees -------------------------------------------------------------------
    def view(self, player: Player | None) -> dict[str, Any]:
        """Everything on the table, which is public, and this round's allocations as far as
        ``player`` may know them: who has allocated, and only its own choice."""
        game = self.game
        return {
            "game": game.name,
            "rules": game.options.rules,
            "seats": [game.seat_name(p) for p in (0, 1)],
            "game_number": self.game_number,
            "round": self.round,
            "to_act": list(self.to_act),
            "sides": [
                {
                    "reserve": _counts(side.reserve),
                    "discard": _counts(side.discard),
                    "turrets": side.turrets,
                }
                for side in self.sides
            ],
            "allocations": self.pending.view(player),
            "last_combat": None if self.last is None else self.last.to_json(),
            "result": self.result,
        }

    def information_key(self, player: Player) -> Hashable:
        """What ``player`` knows, as a hashable value: the public table and match, who has
        allocated this round, and its own allocation (what :meth:`view` is made of)."""
        own = self.pending.of(player)
        return (self.sides, self.round, self.games, self.last, self.pending.waiting, own)

    def determinize(self, player: Player, rng: random.Random) -> ErdState:
        """The opponent's hidden allocation, if made, resampled among those its Reserve
        allows; everything else in Erd is public."""
        opponent = other(player)
        if self.match_over or self.pending.of(opponent) is None:
            return self
        guess = rng.choice(self.game.allocations(self.sides[opponent].reserve))
        seats = self.pending.seats
        chosen = tuple(guess if s == opponent else self.pending.of(s) for s in seats)
        return replace(self, pending=Submissions(seats, chosen))


def _games(count: int) -> str:
    return f"{count} game" if count == 1 else f"{count} games"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if not text.startswith(SEATS) else text


def _counts(cards: Cards) -> dict[str, int]:
    return {"H": cards.heavy, "L": cards.light, "D": cards.decoy}
