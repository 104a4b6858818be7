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

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from itertools import product
from typing import TYPE_CHECKING, Any, ClassVar, Literal, get_args

from pydantic import Field, field_validator

from meeple.core.errors import NotationError
from meeple.core.game import Game, Player, State
from meeple.core.options import GameOptions, no_steps
from meeple.core.registry import register
from meeple.core.simultaneous import Submissions
from meeple.core.words import counted
from meeple.games.erd.pieces import (
    EMPTY_PILE,
    KIND_NAMES,
    KIND_PLURALS,
    NO_CARDS,
    NOTATION_HELP,
    PILE_SIZE,
    VERSIONS,
    Allocate,
    Cards,
    RulesVersion,
    Side,
    parse_allocation,
)
from meeple.games.erd.rounds import (
    MERCY_WORDS,
    REASON_TEXT,
    Combat,
    EndReason,
    GameEnd,
    Outcome,
    mercy_losers,
    other,
    resolve_round,
    turrets_converted,
)
from meeple.games.erd.words import combat_when, describe_combat, move_words

if TYPE_CHECKING:
    import random


__all__ = [
    "EMPTY_PILE",
    "KIND_NAMES",
    "KIND_PLURALS",
    "NOTATION_HELP",
    "NO_CARDS",
    "PILE_SIZE",
    "REASON_TEXT",
    "VERSIONS",
    "Allocate",
    "Cards",
    "Combat",
    "ErdGame",
    "ErdOptions",
    "ErdState",
    "GameEnd",
    "RulesVersion",
    "Side",
    "mercy_losers",
    "other",
    "parse_allocation",
    "resolve_round",
    "rules_version",
    "turrets_converted",
]


class ErdOptions(GameOptions):
    """Options of Erd."""

    auto_steps: bool = no_steps()

    rules: Literal["original", "0.01", "0.02"] = Field(
        title="Rules version",
        default="0.02",
        description="rules version: the original sketch, patch 0.01 or patch 0.02",
    )
    best_of: int = Field(
        title="Games in the match (best of)",
        default=5,
        ge=1,
        le=99,
        description="games in a match (odd: best of 2N+1); 1 plays a single game",
        json_schema_extra={"allowed": "an odd number from 1 to 99"},
    )
    turret_lifetime: Literal["until_recovered", "one_combat"] = Field(
        title="How long a Turret lasts",
        default="until_recovered",
        description="a Turret adds 1 to Defense in every later combat until an Escalation "
        "takes it back, or in the next combat only",
    )
    escalation_lights: Literal["all", "own"] = Field(
        title="Escalation counts the Lights of",
        default="all",
        description="Escalation's 'if all Lights are in the discard': all the Lights of both "
        "players, or each player's own Lights",
    )
    rush_tiebreak: Literal["value", "cards"] = Field(
        title="Tied Rush: the larger pile counts by",
        default="value",
        description="'If that's tied, whoever has the larger Rush pile wins': larger by value, "
        "or by number of cards (the original allows piles of 0 to 3 cards; under 0.01 and "
        "0.02 every pile has 3, so by cards such a tie is always exact)",
    )
    match_draws: Literal["count", "replay"] = Field(
        title="A drawn game",
        default="count",
        description="a drawn game of a match counts as one of its games, or is replayed "
        "(at most best_of replays in a match; later draws count)",
        # A single game has no match to replay a draw in.
        json_schema_extra={"applies_when": {"best_of": {"not": 1}}},
    )
    reserve: str = Field(
        default="rules",
        description="each starting Reserve: as the rules version has it (3 Heavies, 3 "
        "Lights, and 3 Decoys originally, 6 from patch 0.01), or a card per letter, "
        "HHHLLLLDDDDDD for one more Light",
        json_schema_extra={
            "allowed": "rules | letters H, L, D (1 to 30 cards)",
            "suggested": [
                ["rules", "as the rules version has it"],
                ["HHHLLLDDD", "the original's: 3 Heavies, 3 Lights, 3 Decoys"],
                ["HHHLLLDDDDDD", "from patch 0.01: 3 Heavies, 3 Lights, 6 Decoys"],
                ["HHHLLLLDDDDDD", "one more Light than patch 0.01's"],
            ],
        },
    )
    mercy: Literal["rules", "none", "0.01", "0.02", "empty"] = Field(
        default="rules",
        description="the mercy rule: the rules version's, none, 0.01's (no Heavy and at most "
        "one Light in Reserve loses), 0.02's (no Heavy and at most two Lights, against a "
        "Heavy), or empty (no Heavy and no Light: the softest)",
    )
    round_limit: int = Field(
        title="Rounds before a game is drawn",
        default=200,
        ge=1,
        le=100_000,
        description="safeguard: a game still going after this many rounds is a draw",
    )

    @field_validator("rules", mode="before")
    @classmethod
    def _version_as_text(cls, value: Any) -> Any:
        # `rules=0.01` from Python arrives as a float; the versions are names.
        return str(value) if isinstance(value, int | float) else value

    @field_validator("reserve")
    @classmethod
    def _reserve(cls, value: str) -> str:
        if value.strip().lower() == "rules":
            return "rules"
        try:
            cards = Cards.parse(value, empty=False)
        except NotationError as exc:
            raise ValueError(str(exc)) from None
        if not 1 <= cards.total <= 30:
            raise ValueError(f"a Reserve holds 1 to 30 cards, not {cards.total}")
        return str(cards)

    @field_validator("best_of")
    @classmethod
    def _odd(cls, value: int) -> int:
        if value % 2 == 0:
            raise ValueError(f"a match is best of an odd number of games, not {value}")
        return value


def rules_version(options: ErdOptions) -> RulesVersion:
    """The rules a game with ``options`` plays: its rules version, with the starting Reserve
    and the mercy rule the options give in place of the version's own."""
    version = VERSIONS[options.rules]
    if options.mercy != "rules":
        mercy = None if options.mercy == "none" else options.mercy
        version = replace(version, mercy=mercy)
    if options.reserve != "rules":
        cards = Cards.parse(options.reserve)
        version = replace(version, heavies=cards.heavy, lights=cards.light, decoys=cards.decoy)
    return version


# -- the game -------------------------------------------------------------------------------
SEATS = ("Red", "Blue")


WARNINGS_KEPT = 4096
"""Tables whose move warnings a game keeps (a few hundred bytes each) before forgetting all."""


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
    has_chance: ClassVar[bool] = False  # no deck to shuffle, no die: only the players choose
    heuristic_agent: ClassVar[str | None] = "heuristic"
    step_names: ClassVar[tuple[str, ...]] = ("allocate", "over")

    def __init__(self, options: ErdOptions) -> None:
        super().__init__(options)
        self.version: RulesVersion = rules_version(options)
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
        # ErdState.move_warnings by table (every pair of allocations, 40 ms at the start): a
        # server asks it for each state message of a seat to move.
        self._warnings: dict[tuple[Any, ...], dict[str, str]] = {}

    @property
    def num_players(self) -> int:
        """Erd is for two players."""
        return 2

    def seat_name(self, player: Player) -> str:
        """Red (seat 0) and Blue (seat 1)."""
        return SEATS[player]

    def log_words(self, state: ErdState, player: Player, action: Allocate) -> str:
        """An allocation in words: each pile's cards and value. A log shows another seat's
        only once the round is revealed (:mod:`meeple.games.erd.words`)."""
        return move_words(state, player, action)

    def log_after(self, state: ErdState, player: Player, action: Allocate) -> tuple[str, ...]:
        """Below the allocation that completes a round, the combat its reveal started and
        what followed, in the board's sentences (:func:`meeple.games.erd.words.describe_combat`;
        a log shows no board between the rounds); nothing below the round's first."""
        after = state.apply(player, action)
        assert isinstance(after, ErdState)
        combat = after.last
        if combat is None or combat == state.last:
            return ()
        return (f"Combat of {combat_when(combat)}:", *describe_combat(self, combat))

    def view_words(self) -> dict[str, tuple[str, ...] | None]:
        """How a combat and a game can end; the sentences that tell a game's end (its
        numbers are in the view beside them) are free text."""
        endings = get_args(EndReason)
        return {
            "last_combat.outcome": get_args(Outcome),
            "last_combat.ending": None,
            "result.ending": endings,
            "result.reason": None,
            "result.games[*].reason": endings,
            "result.games[*].reason_text": tuple(REASON_TEXT.values()),
            "result.games[*].detail": None,
        }

    def length_units(self, state: ErdState) -> dict[str, int]:
        """The games of the match (when it is more than one game) and their rounds, all
        together."""
        rounds = {"rounds": sum(g.round for g in state.games)}
        return rounds if self.options.best_of == 1 else {"games": len(state.games), **rounds}

    def at_safeguard(self, result: Mapping[str, Any] | None, units: Mapping[str, int]) -> int:
        """The games of the match that lasted to the round limit: drawn by it, or decided in
        its last round."""
        games = (result or {}).get("games") or []
        return sum(1 for g in games if g.get("rounds") == self.options.round_limit)

    def max_decisions(self) -> int:
        """One allocation a round (both seats at once), at most ``round_limit`` rounds a
        game, and at most ``best_of`` games a match, or twice that where drawn games are
        replayed (``best_of`` replays at most)."""
        games = self.options.best_of * (2 if self.options.match_draws == "replay" else 1)
        return games * self.options.round_limit

    def player_rules_values(self) -> dict[str, str]:
        """The options, the starting Reserve (``cards``, ``heavies``, ``lights``,
        ``decoys``), both players' Heavies and Lights (``all_heavies``, ``all_lights``) and
        the mercy rule in force (``mercy_rule``), for ``player_rules.md``."""
        start = self.version.starting_reserve
        return {
            **super().player_rules_values(),
            "cards": str(start.total),
            "heavies": str(start.heavy),
            "lights": str(start.light),
            "decoys": str(start.decoy),
            "all_heavies": str(2 * start.heavy),
            "all_lights": str(2 * start.light),
            "mercy_rule": self.version.mercy or "none",
        }

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
        """Read ``rush=HHL defense=LDD``; ``-`` is an empty pile (in rules that have one)."""
        return parse_allocation(text, empty=not self.version.exactly_three)

    def notation_help(self) -> str:
        """How to write an allocation."""
        if self.version.exactly_three:
            return NOTATION_HELP + "; in these rules each pile takes exactly three cards"
        return (
            NOTATION_HELP + f"; in the original rules each pile takes up to three cards "
            f"({EMPTY_PILE})"
        )

    @property
    def num_actions(self) -> int:
        """Every (Rush, Defense) pair of piles of at most three cards that the starting
        Reserve can supply."""
        return len(self.all_actions)

    def action_id(self, action: Allocate) -> int:
        """Position of the allocation among :attr:`all_actions`."""
        return self._ids[action]

    def action_from_id(self, action_id: int) -> Allocate:
        """The allocation with this id (``Game`` has checked it is one)."""
        return self.all_actions[action_id]


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
        # One pass over the games: every to_act and is_over asks for the score (match_over).
        winners = [g.winner for g in self.games]
        return (winners.count(0), winners.count(1))

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

    def move_warnings(self, player: Player) -> dict[str, str]:
        """The seat's allocations that lose this game whatever the other seat allocates, or
        that can lose it by a rule of the Reserve (the mercy rule: a Reserve left with no
        Heavy; a pre-Escalation win: one left with Decoys only), with how, as the rules end
        it against one reply and against how many of the other seat's allocations. Both
        Reserves are on the table, so this tells nothing hidden; a new player lost by the
        mercy rule in round 1 with no word before the reveal, and another by a pre-Escalation
        win after a warning that named the mercy rule alone."""
        if player not in self.to_act:
            return {}
        game, other = self.game, 1 - player
        number = len(self.games) + 1
        key = (self.sides, self.round, number, player)
        if key in game._warnings:
            return dict(game._warnings[key])
        replies = game.allocations(self.sides[other].reserve)
        reserve = self.sides[player].reserve
        warned = {}
        version, them = game.version, game.seat_name(other)
        mercy_words = MERCY_WORDS.get(version.mercy or "", "").format(other=them)
        ways = {
            "mercy": f"by the mercy rule ({mercy_words})",
            "pre_escalation": f"by a pre-Escalation win ({them} alone keeping non-Decoys in "
            "Reserve right before an Escalation)",
        }
        for mine in self.legal_actions(player):
            # The Reserve's rules take a Reserve with no Heavy left (mercy), or with Decoys
            # only (a pre-Escalation win): only an allocation of every Heavy (and Light) can
            # meet them, and the others are played out only until a reply they do not lose
            # to (the original sketch's 316 a side cost 0.8 s played out in full).
            every_heavy = reserve.heavy == mine.cards.heavy
            every_light = reserve.light == mine.cards.light
            trap_can = every_heavy and (
                version.mercy is not None or (version.pre_escalation_win and every_light)
            )
            losses = []
            for reply in replies:
                pair = (mine, reply) if player == 0 else (reply, mine)
                ending = resolve_round(game, self.sides, pair, self.round, number)[0].ending
                if ending is not None and ending.winner == other:
                    losses.append(ending)
                elif not trap_can:
                    break
            if len(losses) == len(replies):
                warned[str(mine)] = (
                    f"{mine} loses game {number} whatever {them} allocates: "
                    f"{_lower_first(losses[0].detail)}"
                )
                continue
            counts = [(how, sum(end.reason == why for end in losses)) for why, how in ways.items()]
            # "against 28 of Blue's 50 allocations" meant nothing to a newcomer: the 50 are
            # every allocation Blue can make this round.
            said = [
                f"{how}, against {n} of the {len(replies)} allocations {them} can make"
                for how, n in counts
                if n
            ]
            if said:
                warned[str(mine)] = f"{mine} can lose game {number} " + " and ".join(said)
        if len(game._warnings) > WARNINGS_KEPT:
            game._warnings.clear()
        game._warnings[key] = warned
        return dict(warned)

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
                    f"{game.seat_name(winner)} won the match "
                    f"{counted(max(a, b), 'game')} to {min(a, b)}"
                    if winner is not None
                    else f"the match is drawn, {counted(a, 'game')} each"
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


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if not text.startswith(SEATS) else text


def _counts(cards: Cards) -> dict[str, int]:
    return {"H": cards.heavy, "L": cards.light, "D": cards.decoy}
