"""Edges, by Peter Aronson: surround squares with more pyramid points than your opponent.

The rules as the seed states them, in order:

* Setup: each player has a stash of Icehouse pyramids (3 x 4 board: five Large, five Medium,
  five Small). Large is worth 3 points, Medium 2, Small 1.
* First move: a random player places any pyramid on any edge.
* Pie rule: the second player may instead return that pyramid to its owner and place one of
  their own, of any size, on the same edge.
* Thereafter players alternate, each placing a pyramid on an empty edge, until all pyramids
  are placed (on 3 x 4 one edge stays empty).
* Scoring: a square scores 1 point for the player with the higher sum of pyramid points on
  its four edges, 2 points if that player's are the only pyramids there; equal sums score 0.
  The higher total wins; equal totals draw.
* Other boards: 3 x 3 (4/4/4 each), 4 x 4 (7/7/6), 5 x 5 (10/10/10), and Double Edges, a
  5 x 5 team game of four players with 5/5/5 each, played A1, B1, A2, B2.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, ClassVar, Literal, NamedTuple

from pydantic import Field, field_validator, model_validator

from meeple.core.errors import NotationError
from meeple.core.game import Game, Player, State
from meeple.core.options import GameOptions, no_steps, option_text
from meeple.core.registry import register
from meeple.core.rng import make_rng
from meeple.games.edges.board import Board, board, parse_edge

# The pieces and moves live in their own module (words.py reads them too); every module
# that imports them from here still finds them.
from meeple.games.edges.pieces import LARGE_FIRST, EdgesAction, Place, Pyramid, TakeOver
from meeple.games.edges.words import move_words

FIRST_STREAM = ("edges", "first")
"""The random stream under a game's seed that draws the first seat."""


class Stash(NamedTuple):
    """The pyramids a player has not yet placed, written large/medium/small (``5/5/5``)."""

    large: int
    medium: int
    small: int

    def count(self, pyramid: Pyramid) -> int:
        """How many of this size are left."""
        return self[3 - pyramid]

    def take(self, pyramid: Pyramid) -> Stash:
        """The stash with one pyramid of this size removed."""
        counts = list(self)
        counts[3 - pyramid] -= 1
        return Stash(*counts)

    def give_back(self, pyramid: Pyramid) -> Stash:
        """The stash with one pyramid of this size returned to it."""
        counts = list(self)
        counts[3 - pyramid] += 1
        return Stash(*counts)

    @property
    def total(self) -> int:
        """Pyramids left in all."""
        return self.large + self.medium + self.small

    def __str__(self) -> str:
        return f"{self.large}/{self.medium}/{self.small}"

    @classmethod
    def parse(cls, text: str) -> Stash:
        """Read ``L/M/S`` counts such as ``5/5/5``."""
        m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*/\s*(\d+)\s*", text)
        if not m:
            raise ValueError(f"{text!r} is not a stash; write large/medium/small counts like 5/5/5")
        return cls(*(int(g) for g in m.groups()))


SEED_STASHES: dict[tuple[int, int], Stash] = {
    (3, 4): Stash(5, 5, 5),
    (3, 3): Stash(4, 4, 4),
    (4, 4): Stash(7, 7, 6),
    (5, 5): Stash(10, 10, 10),
}
"""Each player's stash on the boards the seed names."""

DOUBLE_EDGES_STASH = Stash(5, 5, 5)
"""Double Edges: 'each player has a standard stash of 15 pyramids'."""


def even_stash(pyramids: int) -> Stash:
    """``pyramids`` split as evenly as possible over the sizes, larger sizes first.

    This reproduces every stash in the seed's table (15 -> 5/5/5, 12 -> 4/4/4, 20 -> 7/7/6,
    30 -> 10/10/10) and is the default for boards the seed does not name.
    """
    base, extra = divmod(pyramids, 3)
    return Stash(*(base + (1 if i < extra else 0) for i in range(3)))


_BOARD_RE = re.compile(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*")
MAX_SIDE = 9


class EdgesOptions(GameOptions):
    """Options of Edges."""

    auto_steps: bool = no_steps()

    board: str | None = Field(
        title="Board size",
        default=None,
        description="rows x columns of squares; default 3x4 (5x5 for Double Edges)",
        json_schema_extra={
            "allowed": f"3x4 | 3x3 | 4x4 | 5x5 | RxC with 1..{MAX_SIDE} each",
            "default_words": "3x4",
            "suggested": [
                ["3x4", "the rules' board for two players"],
                ["3x3", "smaller (solved: a draw with best play)"],
                ["4x4", "larger"],
                ["5x5", "Double Edges' board"],
            ],
        },
    )
    stash: str | None = Field(
        title="Pyramids per player",
        default=None,
        description="each player's pyramids as large/medium/small; default: the rulebook's stash "
        "for the board (custom boards: an even split of edges/players; Double Edges: 5/5/5 on "
        "any board)",
        json_schema_extra={"allowed": "L/M/S counts, e.g. 5/5/5", "default_words": "by board"},
    )
    pie: bool = Field(
        title="Pie rule",
        default=True,
        description="modified pie rule: the second player may take over the first pyramid",
    )
    double: bool = Field(
        title="Double Edges: four players in two teams",
        default=False,
        description="Double Edges: four players in two teams, A1 B1 A2 B2",
    )
    first: int | Literal["random"] = Field(
        title="Who starts",
        default="random",
        description="seat that places the first pyramid; random: drawn at random as the match "
        "starts",
        json_schema_extra={"allowed": "random | a seat number"},
    )
    double_start: Literal["any", "a1"] = Field(
        title="Double Edges: who starts",
        default="any",
        description="Double Edges: the first player is drawn among all four seats, so 'A1' "
        "may move second, third or fourth (any); or A1 (seat 0) always starts, so the names "
        "follow the rulebook's order of play A1, B1, A2, B2 (a1; the seating is the draw)",
        json_schema_extra={"applies_when": {"double": True}},
    )

    @field_validator("board")
    @classmethod
    def _board_shape(cls, value: str | None) -> str | None:
        if value is None:
            return None
        m = _BOARD_RE.fullmatch(value)
        if not m:
            raise ValueError(f"{value!r} is not a board size; write rows x columns like 3x4")
        rows, cols = int(m.group(1)), int(m.group(2))
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise ValueError(f"a board has 1 to {MAX_SIDE} rows and columns")
        return f"{rows}x{cols}"

    @field_validator("stash")
    @classmethod
    def _stash_shape(cls, value: str | None) -> str | None:
        if value is None:
            return None
        stash = Stash.parse(value)
        if stash.total == 0:
            raise ValueError("a stash needs at least one pyramid")
        return str(stash)

    @model_validator(mode="after")
    def _fits(self) -> EdgesOptions:
        rows, cols = resolve_board(self)
        players = 4 if self.double else 2
        if self.first != "random" and not 0 <= self.first < players:
            raise ValueError(
                f"first must be random or a seat from 0 to {players - 1}, not {self.first}"
            )
        if self.double and self.double_start == "a1" and self.first not in ("random", 0):
            raise ValueError(
                f"with double_start=a1, A1 (seat 0) starts: first must be random or 0, "
                f"not {self.first}"
            )
        stash = resolve_stash(self, rows, cols)
        edges = board(rows, cols).num_edges
        if stash.total * players > edges:
            raise ValueError(
                f"{players} stashes of {stash.total} pyramids ({stash}) do not fit the "
                f"{edges} edges of a {rows}x{cols} board; a stash of at most "
                f"{edges // players} pyramids fits, such as {even_stash(edges // players)}"
            )
        return self


def resolve_board(options: EdgesOptions) -> tuple[int, int]:
    """The board size the options ask for, defaults applied."""
    text = options.board or ("5x5" if options.double else "3x4")
    rows, cols = text.split("x")
    return int(rows), int(cols)


def resolve_stash(options: EdgesOptions, rows: int, cols: int) -> Stash:
    """Each player's stash, defaults applied (see the options' descriptions)."""
    if options.stash is not None:
        return Stash.parse(options.stash)
    if options.double:
        return DOUBLE_EDGES_STASH
    return SEED_STASHES.get((rows, cols)) or even_stash(board(rows, cols).num_edges // 2)


_PLACE_RE = re.compile(r"^\s*([LMSlms])\s*([hvHV].*)$")
_PIE_RE = re.compile(r"^\s*pie\s+([LMSlms])\s*$", re.IGNORECASE)

TWO_PLAYER_SEATS = ("Red", "Blue")
DOUBLE_SEATS = ("A1", "B1", "A2", "B2")


class SquareScore(NamedTuple):
    """How one square scores: each side's strength, who takes it, and for how many points."""

    strength: tuple[int, int]
    side: int | None
    points: int


def _totals(squares: list[SquareScore]) -> tuple[int, int]:
    """Each side's points from its squares."""
    totals = [0, 0]
    for sq in squares:
        if sq.side is not None:
            totals[sq.side] += sq.points
    return totals[0], totals[1]


@lru_cache(maxsize=4096)  # strengths are small sums; scoring is called after every move
def score_square(strength: tuple[int, int]) -> SquareScore:
    """Score one square from the two sides' strength sums on its edges.

    The higher sum scores 1; 2 if the other side has no pyramid there at all (every pyramid
    is worth at least 1, so that is a sum of 0); equal sums score 0 for both.
    """
    a, b = strength
    if a == b:
        return SquareScore(strength, None, 0)
    side, other = (0, b) if a > b else (1, a)
    return SquareScore(strength, side, 2 if other == 0 else 1)


@register
class EdgesGame(Game[EdgesOptions, "EdgesState", EdgesAction]):
    """Edges on any board, with or without the pie rule, for two players or Double Edges."""

    name: ClassVar[str] = "edges"
    title: ClassVar[str] = "Edges"
    summary: ClassVar[str] = (
        "Place pyramids on the edges of a grid; each square goes to the stronger surround."
    )
    Options: ClassVar[type[GameOptions]] = EdgesOptions
    players: ClassVar[str] = "2 (4 in Double Edges)"
    heuristic_agent: ClassVar[str | None] = "greedy"
    step_names: ClassVar[tuple[str, ...]] = ("place", "pie", "over")
    two_sides: ClassVar[bool] = True  # Double Edges' teams win and lose together

    def __init__(self, options: EdgesOptions) -> None:
        super().__init__(options)
        rows, cols = resolve_board(options)
        self.board: Board = board(rows, cols)
        self.stash: Stash = resolve_stash(options, rows, cols)
        self._players = 4 if options.double else 2
        n = self.board.num_edges
        # One shared object per possible action keeps legal-move generation cheap.
        self._places = {p: tuple(Place(p, e) for e in self.board.edges) for p in Pyramid}
        self._takeovers = {p: TakeOver(p) for p in Pyramid}
        self._num_actions = 3 * n + 3

    # -- seats and sides --------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        """2, or 4 in Double Edges."""
        return self._players

    def seat_name(self, player: Player) -> str:
        """Red and Blue; A1, B1, A2, B2 in Double Edges."""
        names = DOUBLE_SEATS if self.options.double else TWO_PLAYER_SEATS
        return names[player]

    @classmethod
    def player_choices(cls) -> dict[int, dict[str, Any]]:
        """Two players, or four in Double Edges."""
        return {2: {}, 4: {"double": True}}

    def max_decisions(self) -> int:
        """Every pyramid of every stash is placed once, one a move; a take-over (the pie
        rule) is one move more, since the first pyramid goes back to its stash."""
        return self._players * self.stash.total + (1 if self.options.pie else 0)

    def log_words(self, state: EdgesState, player: Player, action: EdgesAction) -> str:
        """A placement or a take-over in words: the pyramid's size and strength, the squares
        its edge bounds (:mod:`meeple.games.edges.words`)."""
        return move_words(state, player, action)

    def player_rules_values(self) -> dict[str, str]:
        """The options, and the board and stash they resolve to, for ``player_rules.md``."""
        first = self.options.first
        empty = self.board.num_edges - self.stash.total * self._players
        return {
            **super().player_rules_values(),
            "rows": str(self.board.rows),
            "columns": str(self.board.cols),
            "edges": str(self.board.num_edges),
            "large": str(self.stash.large),
            "medium": str(self.stash.medium),
            "small": str(self.stash.small),
            "empty": {0: "no edge stays empty", 1: "one edge stays empty"}.get(
                empty, f"{empty} edges stay empty"
            ),
            "a1_starts": option_text(self.options.double and self.options.double_start == "a1"),
            "first_name": "" if first == "random" else self.seat_name(first),
        }

    @staticmethod
    def side_of(player: Player) -> int:
        """The side a seat scores for: itself with two players; its team in Double Edges
        (seats 0 and 2 are team A, 1 and 3 team B)."""
        return player % 2

    def score_index(self, player: Player) -> int:
        """Its side's score: a team's in Double Edges (``result["scores"]`` has one per side)."""
        return self.side_of(player)

    def side_name(self, side: int) -> str:
        """``Red``/``Blue``, or ``Team A``/``Team B`` in Double Edges."""
        return f"Team {'AB'[side]}" if self.options.double else TWO_PLAYER_SEATS[side]

    # -- states -----------------------------------------------------------------------------
    @property
    def first_is_drawn(self) -> bool:
        """Whether the first seat is drawn from the seed (stream :data:`FIRST_STREAM`)."""
        # 'Team A, 1st player' moves first in Double Edges with a1: the seat names follow
        # the order, and nothing is drawn.
        a1 = self.options.double and self.options.double_start == "a1"
        return self.options.first == "random" and not a1

    def first_seat(self, seed: int) -> int:
        """The seat that places the first pyramid in game ``seed``: the only part of a new
        game that depends on its seed."""
        if self.first_is_drawn:
            return make_rng(seed, *FIRST_STREAM).randrange(self._players)
        return 0 if self.options.first == "random" else self.options.first

    def new_game(self, seed: int) -> EdgesState:
        """An empty board; the first seat is drawn from the seed unless the options fix it.

        With four players the order is the first team's first player, the other team's
        first player, then the two second players (A1, B1, A2, B2 when team A starts).
        """
        first = self.first_seat(seed)
        if self._players == 2:
            order: tuple[int, ...] = (first, 1 - first)
        else:
            first_team = first % 2
            order = (first_team, 1 - first_team, first_team + 2, 3 - first_team)
            order = order[order.index(first) :] + order[: order.index(first)]
        n = self.board.num_edges
        return EdgesState(
            game=self,
            owner=(-1,) * n,
            pyramid=(0,) * n,
            stashes=(self.stash,) * self._players,
            order=order,
            turn=0,
            first_edge=-1,
            took_over=False,
        )

    # -- notation and encoding --------------------------------------------------------------
    def _parse_action(self, text: str) -> EdgesAction:
        """Read ``L h2,3`` (a size and an edge) or ``pie M`` (take over the first pyramid)."""
        m = _PIE_RE.match(text)
        if m:
            return self._takeovers[Pyramid.from_letter(m.group(1))]
        m = _PLACE_RE.match(text)
        if not m:
            raise NotationError(f"{text!r} is not an Edges move; {self.notation_help()}")
        edge = parse_edge(m.group(2))
        self.board.edge_index(edge)  # an edge off this board is a notation error
        return self._places[Pyramid.from_letter(m.group(1))][self.board.index[edge]]

    def notation_help(self) -> str:
        """How to write a move."""
        return (
            "write a size (L, M or S) and an edge (h<row>,<col> or v<row>,<col>), e.g. "
            "'L h0,1'; or 'pie M' on the second move to take over the first pyramid"
        )

    @property
    def num_actions(self) -> int:
        """3 sizes x edges placements, then 3 pie-rule take-overs."""
        return self._num_actions

    def action_id(self, action: EdgesAction) -> int:
        """Placements are ``(3 - size) * edges + edge``; take-overs follow them."""
        n = self.board.num_edges
        if isinstance(action, TakeOver):
            return 3 * n + (3 - action.pyramid)
        return (3 - action.pyramid) * n + self.board.edge_index(action.edge)

    def action_from_id(self, action_id: int) -> EdgesAction:
        """The action with this id (``Game`` has checked it is one)."""
        n = self.board.num_edges
        group, rest = divmod(action_id, n)
        if group == 3:
            return self._takeovers[Pyramid(3 - rest)]
        return self._places[Pyramid(3 - group)][rest]


@dataclass(frozen=True, slots=True, eq=True)
class EdgesState(State[EdgesAction]):
    """A position: who owns which edge with which pyramid, stashes, and whose turn it is."""

    game: EdgesGame
    owner: tuple[int, ...]
    """The seat whose pyramid is on each edge; -1 for an empty edge."""
    pyramid: tuple[int, ...]
    """The strength of the pyramid on each edge; 0 for an empty edge."""
    stashes: tuple[Stash, ...]
    order: tuple[int, ...]
    """Seats in turn order, starting with the first player."""
    turn: int
    """Actions taken so far (a pie-rule take-over counts as one)."""
    first_edge: int
    """The edge of the first pyramid of the game, -1 before it is placed."""
    took_over: bool
    """Whether the pie rule was used."""

    # -- whose turn -------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[Player, ...]:
        """The seat whose turn it is; nobody once every pyramid is placed."""
        n = len(self.order)
        for k in range(n):
            seat = self.order[(self.turn + k) % n]
            if self.stashes[seat].total:
                return (seat,)
        return ()

    @property
    def pie_available(self) -> bool:
        """The pie rule may be used now: it is on, and this is the second move of the game."""
        return self.game.options.pie and self.turn == 1 and not self.took_over

    @property
    def step_name(self) -> str:
        """``place``; ``pie`` on the second move while the pie rule offers a take-over beside
        the placements; ``over``."""
        if self.is_over:
            return "over"
        return "pie" if self.pie_available else "place"

    # -- actions ----------------------------------------------------------------------------
    def legal_actions(self, player: Player) -> list[EdgesAction]:
        """Every pyramid size left times every empty edge, plus take-overs on move two."""
        if player not in self.to_act:
            return []
        stash = self.stashes[player]
        places = self.game._places
        actions: list[EdgesAction] = []
        empty = [i for i, o in enumerate(self.owner) if o < 0]
        for size in LARGE_FIRST:
            if stash.count(size):
                row = places[size]
                actions += [row[i] for i in empty]
        if self.pie_available:
            actions.extend(self.game._takeovers[s] for s in LARGE_FIRST if stash.count(s))
        return actions

    def why_illegal(self, player: Player, action: EdgesAction) -> str | None:
        """A specific reason: an occupied edge, a size not in the stash, a late pie rule."""
        game = self.game
        stash = self.stashes[player]
        if not isinstance(action, (Place, TakeOver)):
            return f"{action!r} is not an Edges action"
        if stash.count(action.pyramid) == 0:
            return (
                f"{game.seat_name(player)} has no {action.pyramid.name.lower()} pyramid left "
                f"(stash L/M/S = {stash})"
            )
        if isinstance(action, TakeOver):
            if not game.options.pie:
                return "the pie rule is off in this game"
            if not self.pie_available:
                return "the pie rule can be used only on the second move of the game"
            return None
        if action.edge not in game.board.index:
            return f"there is no edge {action.edge} on a {game.board} board"
        i = game.board.index[action.edge]
        if self.owner[i] >= 0:
            holder = game.seat_name(self.owner[i])
            letter = Pyramid(self.pyramid[i]).letter
            return f"edge {action.edge} already holds {holder}'s {letter}"
        return None

    def _next(self, player: Player, action: EdgesAction) -> EdgesState:
        if isinstance(action, TakeOver):
            i = self.first_edge
            previous_owner = self.owner[i]
            stashes = list(self.stashes)
            stashes[previous_owner] = stashes[previous_owner].give_back(Pyramid(self.pyramid[i]))
            stashes[player] = stashes[player].take(action.pyramid)
            return replace(
                self,
                owner=_set(self.owner, i, player),
                pyramid=_set(self.pyramid, i, int(action.pyramid)),
                stashes=tuple(stashes),
                turn=self.turn + 1,
                took_over=True,
            )
        i = self.game.board.index[action.edge]
        # The constructor, not dataclasses.replace: this is the hot path of every search.
        return EdgesState(
            self.game,
            _set(self.owner, i, player),
            _set(self.pyramid, i, int(action.pyramid)),
            _set(self.stashes, player, self.stashes[player].take(action.pyramid)),
            self.order,
            self.turn + 1,
            i if self.first_edge < 0 else self.first_edge,
            self.took_over,
        )

    # -- scoring ----------------------------------------------------------------------------
    def square_scores(self) -> list[SquareScore]:
        """How every square scores now (row-major)."""
        owner, pyramid = self.owner, self.pyramid
        out = []
        for bounds in self.game.board.square_edges:
            sums = [0, 0]
            for e in bounds:
                if owner[e] >= 0:
                    sums[owner[e] % 2] += pyramid[e]
            out.append(score_square((sums[0], sums[1])))
        return out

    def scores(self) -> tuple[int, int]:
        """Points of each side (seat, or team in Double Edges) as the board stands."""
        return _totals(self.square_scores())

    def standing(self) -> list[int]:
        """``result["scores"]`` without building the rest of the result."""
        return list(self.scores())

    def standing_after(
        self, before: State[EdgesAction], action: EdgesAction, scores: list[Any] | None
    ) -> list[int]:
        """The standing updated on the one or two squares the placed pyramid bounds (the
        lab follows the lead after every action; counting every square costs half a move)."""
        if scores is None or not isinstance(action, Place):
            return self.standing()
        board = self.game.board
        owner, pyramid = self.owner, self.pyramid
        i = board.index[action.edge]
        side, placed = owner[i] % 2, pyramid[i]
        totals = list(scores)
        for square in board.edge_squares[i]:
            sums = [0, 0]
            for e in board.square_edges[square]:
                if owner[e] >= 0:
                    sums[owner[e] % 2] += pyramid[e]
            now = score_square((sums[0], sums[1]))
            sums[side] -= placed  # the square before the pyramid came
            was = score_square((sums[0], sums[1]))
            if was.side is not None:
                totals[was.side] -= was.points
            if now.side is not None:
                totals[now.side] += now.points
        return totals

    @property
    def returns(self) -> tuple[float, ...]:
        """+1 for each seat of the side with more points, -1 for the other, 0 on a draw."""
        if not self.is_over:
            return (0.0,) * self.game.num_players
        final = self.scores()
        diff = (final[0] > final[1]) - (final[0] < final[1])
        return tuple(float(diff if p % 2 == 0 else -diff) for p in range(self.game.num_players))

    @property
    def result(self) -> dict[str, Any]:
        """Scores, winner and per-square owners; ``over`` says whether the game has ended."""
        game = self.game
        squares = self.square_scores()
        scores = _totals(squares)
        winner = None if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
        return {
            "over": self.is_over,
            "reason": "all pyramids are placed" if self.is_over else None,
            "sides": [game.side_name(0), game.side_name(1)],
            "scores": list(scores),
            "winner": winner,
            "winner_name": None if winner is None else game.side_name(winner),
            "margin": abs(scores[0] - scores[1]),
            "squares": [
                {
                    "row": k // game.board.cols,
                    "col": k % game.board.cols,
                    "side": sq.side,
                    "points": sq.points,
                    "strength": list(sq.strength),
                }
                for k, sq in enumerate(squares)
            ],
        }

    # -- what a seat sees -------------------------------------------------------------------
    def view(self, player: Player | None) -> dict[str, Any]:
        """Everything: Edges has no hidden information, so every seat sees the same."""
        game = self.game
        return {
            "game": game.name,
            "board": str(game.board),
            "seats": game.seat_names(),
            "order": list(self.order),
            "to_act": list(self.to_act),
            "turn": self.turn,
            "stashes": [{"L": s.large, "M": s.medium, "S": s.small} for s in self.stashes],
            "edges": {
                str(game.board.edges[i]): {"seat": o, "pyramid": Pyramid(self.pyramid[i]).letter}
                for i, o in enumerate(self.owner)
                if o >= 0
            },
            "first_edge": (
                str(game.board.edges[self.first_edge]) if self.first_edge >= 0 else None
            ),
            "pie_available": self.pie_available,
            "took_over": self.took_over,
            "result": self.result,
        }


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])
