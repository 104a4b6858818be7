"""The contracts every game implements: :class:`Game` (rules plus options) and :class:`State`.

A state is immutable. ``state.apply(player, action)`` returns a new state or raises
:class:`~meeple.core.errors.IllegalAction` with a reason a person can read, leaving the old
state untouched. Simultaneous decisions are states with several seats in ``to_act``: each
submission is held hidden in the state until every one of them has submitted.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import json
import operator
import random
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from meeple.core.errors import (
    GamePackageError,
    IllegalAction,
    MeepleError,
    NotationError,
    OptionError,
    PositionError,
)
from meeple.core.options import PLAYERS, GameOptions, moot_options, option_text, player_counts
from meeple.core.player_rules import fill as fill_player_rules

if TYPE_CHECKING:
    from rich.console import RenderableType

    from meeple.core.agent import Agent

Player = int
"""A seat number, 0 to ``num_players - 1``."""


class Action(Protocol):
    """An action is a small frozen value whose ``str()`` is its notation."""

    def __str__(self) -> str: ...


A = TypeVar("A", bound=Action)
O = TypeVar("O", bound=GameOptions)  # noqa: E741 - the conventional name for an options type
S = TypeVar("S", bound="State[Any]")

MAX_ACTION_TEXT = 200
"""Longest action text any game reads; every notation is far shorter (under 40 characters),
so longer text is a mistake or an attack and is refused before a game parser sees it."""

AgentFactory = Callable[..., "Agent"]
"""Builds an agent; called with the game, a seed and the agent's own keyword parameters."""


def _shipped_text(cls: type, filename: str) -> str:
    """The text of ``filename`` that ships beside the module of the game class ``cls``
    (``rules.md``, ``player_rules.md``): GamePackageError, naming the file, if it is not
    there."""
    package = cls.__module__.rsplit(".", 1)[0]
    try:
        return resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GamePackageError(
            f"{getattr(cls, 'title', cls.__name__)} ships no {filename}: a game's package holds "
            f"rules.md and player_rules.md beside its rules module, here in {package}"
        ) from None


class Game(ABC, Generic[O, S, A]):
    """A game with its options fixed: makes new states and reads and encodes actions.

    Subclasses declare their metadata once, as class variables, and are registered with
    :func:`meeple.core.registry.register`.
    """

    name: ClassVar[str]
    """Registry name, lower case with dashes (``"edges"``)."""
    title: ClassVar[str]
    """Name as printed on the box."""
    summary: ClassVar[str]
    """One sentence on what the game is."""
    Options: ClassVar[type[GameOptions]]
    """The pydantic model of this game's options."""
    players: ClassVar[str]
    """How many players, for listings (``"2"``, ``"2-5"``)."""
    perfect_information: ClassVar[bool] = True
    """True when no seat ever has anything hidden from it (no determinization needed)."""
    has_chance: ClassVar[bool] = True
    """False when the seed decides nothing (no deal, die or draw for who starts: Erd), so
    that every seed gives the same game; the server then publishes no sealed seed, which
    would promise a fair deal where nothing is dealt (the conformance suite checks it)."""
    two_sides: ClassVar[bool] = False
    """True when every configuration is two sides whose returns cancel, however many seats
    (Double Edges' two teams of two): its returns sum to zero, as any game's of two seats
    do (:attr:`zero_sum`)."""

    def __init__(self, options: O) -> None:
        self.options: O = options

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Every game's own action_from_id and action_id are wrapped once here, so that no game
        # has to check what it is given: a bad id (text, a float, out of range), or a value
        # that is not one of its actions, is refused the same way in all. Looked up through
        # the whole class order, not only the class's own namespace: a game may take its
        # notation from a mixin that is not a Game (Erosion's).
        super().__init_subclass__(**kwargs)
        for name, check in (
            ("action_from_id", _checked_action_from_id),
            ("action_id", _checked_action_id),
        ):
            own = getattr(cls, name)
            if not getattr(own, "_checks_id", False) and not getattr(
                own, "__isabstractmethod__", False
            ):
                setattr(cls, name, check(own))

    # -- identity ---------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.name == self.name and other.options == self.options

    def __hash__(self) -> int:
        return hash((self.name, self.options))

    def __repr__(self) -> str:
        changed = ", ".join(f"{k}={v!r}" for k, v in self.options.changed().items())
        return f"meeple.make({self.name!r}{', ' if changed else ''}{changed})"

    # -- seats ------------------------------------------------------------------------------
    @property
    @abstractmethod
    def num_players(self) -> int:
        """Number of seats in this configuration."""

    @property
    def zero_sum(self) -> bool:
        """Whether this configuration's returns sum to zero at every end: two seats, or two
        sides (:attr:`two_sides`); a game of more seats with one winner is not (1 and two
        -1s). The conformance suite checks it at the end of every game it plays."""
        return self.num_players == 2 or self.two_sides

    def seat_name(self, player: Player) -> str:
        """How the game calls a seat (a colour, a team position); ``seat N`` by default."""
        return f"seat {player}"

    def seat_names(self) -> list[str]:
        """What the game calls each of its seats, in seat order (:meth:`seat_name`)."""
        return [self.seat_name(p) for p in range(self.num_players)]

    def notes(self) -> list[str]:
        """What a designer would want to know about this configuration though the rules
        allow it (decks of different sizes), one sentence each: notes, not errors. None by
        default; :meth:`configuration_notes` adds the options the others make moot."""
        return []

    def configuration_notes(self) -> list[str]:
        """Everything said before a game of this configuration is played: the game's
        :meth:`notes` and the options set that the others make moot (Double Edges' who
        starts given to a two-player game), a sentence each. The terminal, the lab and the
        game server say these; a game overrides :meth:`notes`, not this."""
        return [*self.notes(), *moot_options(self.options)]

    def log_words(self, state: S, player: Player, action: A) -> str | None:
        """The move ``player`` makes from ``state`` in words for a move log, where its
        notation alone says little (a hand's slot letter); None where the notation says it.
        Shown to other seats only once the rules reveal the move."""
        return None

    def log_after(self, state: S, player: Player, action: A) -> tuple[str, ...]:
        """What the game did by itself after ``player``'s ``action`` from ``state``, until
        the next decision, a line each, for a move log to tell under the move (Squad
        Combat's dice rolled, hits and misses): a result a later move could push out of
        what the board shows. Every line is public. () by default."""
        return ()

    # -- what a designer counts (the lab's per-card statistics) -----------------------------
    def seat_role(self, player: Player) -> str | None:
        """What the seat plays with that a designer names it by (its deck, its faction), or
        None where seats differ only by their order (the default)."""
        return None

    def score_index(self, player: Player) -> int:
        """Where the score ``player`` plays for stands in ``result["scores"]``: its own by
        default; its team's where teams score (Double Edges), which the lab's mean score of
        a seat reads."""
        return player

    def card_names(self) -> tuple[str, ...]:
        """Every card (and item) this configuration lets a seat play, by the names the game's
        data gives them, so the lab can say which were never played; none by default (a game
        without cards)."""
        return ()

    def length_units(self, state: S) -> dict[str, int]:
        """How long the finished game ``state`` lasted in the game's own units, as a designer
        counts it (``{"rounds": 7}``, ``{"eras": 2, "turns": 31}``); none by default (the lab
        then counts actions only)."""
        return {}

    def at_safeguard(self, result: Mapping[str, Any] | None, units: Mapping[str, int]) -> int:
        """How many games of a finished game (one, or each game of a match) lasted to the
        last round or turn the game's safeguard allows (an option whose description starts
        "safeguard"), however they ended. ``result`` is the game's result where the caller
        has it (None otherwise) and ``units`` its :meth:`length_units`. 0 by default.

        A game the rules decided in that last round may have been played for the limit (a
        search that sees the draw coming waits until the last round to strike): the lab
        counts such games beside those the safeguard itself ended."""
        return 0

    @classmethod
    def player_choices(cls) -> dict[int, dict[str, Any]]:
        """The numbers of players a person may pick, fewest first, each with the options
        that seat it beyond the defaults (``{2: {}, 3: {"players": 3}}``, from the bounds
        of a ``players`` option); none where the seats are fixed. What the launcher and the
        lobby's quick start ask first."""
        counts = player_counts(cls.Options)
        default = cls.Options.model_fields[PLAYERS].default if counts else None
        return {n: {} if n == default else {PLAYERS: n} for n in counts}

    def max_decisions(self) -> int | None:
        """The most decisions one game can take under these options, as its rules bound it: a
        decision is one seat's move, or one choice several seats make at once (OpenSpiel's
        ``max_game_length``); None where the rules give no bound short of a
        safeguard's (a research adapter then caps it itself)."""
        return None

    def cards_played(self, state: S, player: Player, action: A) -> tuple[str, ...]:
        """The cards (and items) ``player`` plays by taking ``action`` in ``state``, named as
        in :meth:`card_names`; none by default."""
        return ()

    # -- states and actions -----------------------------------------------------------------
    @abstractmethod
    def new_game(self, seed: int) -> S:
        """The initial state; all randomness of the game flows from ``seed``."""

    def parse_action(self, text: str) -> A:
        """Read an action from its notation; raises NotationError saying what is expected.

        Every path from text to an action (the CLI prompt, records, the server,
        :meth:`State.apply_text`) comes through here, so the length cap holds for all of
        them before any game's own parser sees the text.
        """
        if not isinstance(text, str):
            raise NotationError(f"a move is written as text; got {type(text).__name__}")
        if len(text) > MAX_ACTION_TEXT:
            raise NotationError(f"a move is at most {MAX_ACTION_TEXT} characters; got {len(text)}")
        return self._parse_action(text)

    @abstractmethod
    def _parse_action(self, text: str) -> A:
        """The game's own parser, given text already checked to be short: :meth:`parse_action`."""

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """Size of the integer action encoding: ids run from 0 to ``num_actions - 1``."""

    @abstractmethod
    def action_id(self, action: A) -> int:
        """The stable integer encoding of an action."""

    @abstractmethod
    def action_from_id(self, action_id: int) -> A:
        """The action with this integer encoding. A game's own method is only ever given a
        whole number from 0 to ``num_actions - 1``: every other id is refused before it is
        called (see ``__init_subclass__``)."""

    # -- extras a game may offer ------------------------------------------------------------
    heuristic_agent: ClassVar[str | None] = None
    """Name of this game's best hand-written agent, if it has one (offered, like every
    game-specific agent, with :func:`meeple.core.registry.register_agent`)."""

    step_names: ClassVar[tuple[str, ...]] = ("move", "over")
    """Every name :attr:`State.step_name` takes: the game's one enumeration of its steps
    and phases (its ``rules.md`` says what each asks, under "Steps and phases")."""

    def render(self, state: S, player: Player | None = None) -> RenderableType:
        """A Rich renderable of the state as ``player`` sees it (``None``: spectator): the
        drawing registered with :func:`register_renderer`, else the view as text."""
        draw = _RENDERERS.get(type(self))
        return draw(state, player) if draw is not None else str(state.view(player))

    def render_text(self, state: S, player: Player | None = None, width: int = 160) -> str:
        """:meth:`render` as plain text, for a reader who cannot see a drawing (the game
        page's "Board as text"): no colours or styles, box-drawing lines as ASCII (a screen
        reader names each box character aloud), lines that only draw dropped, no
        trailing spaces. Only what :meth:`render` shows ``player``, so only what it sees."""
        # Imported here: Rich's console is a cost only the pages that ask for text pay.
        from io import StringIO

        from rich.console import Console

        buffer = StringIO()
        out = Console(
            file=buffer,
            width=width,
            color_system=None,
            force_terminal=False,
            force_jupyter=False,
            highlight=False,
            emoji=False,
            markup=False,
        )
        out.print(self.render(state, player))
        lines = (line.translate(_BOX_TO_ASCII).rstrip() for line in buffer.getvalue().split("\n"))
        # A rule between parts says nothing a reader needs; a blank line still separates.
        kept = ["" if not any(c.isalnum() for c in line) else line for line in lines]
        text = "\n".join(kept)
        while "\n\n\n" in text:
            text = text.replace("\n\n\n", "\n\n")
        return text.strip("\n")

    def memorise_seconds(self, state: S, player: Player) -> float | None:
        """Seconds a person may look at this state before the screen is cleared.

        A game with a memory mechanic returns a number while ``player`` is in a memorise
        step (its view then shows what must be memorised); None means no time limit.
        """
        return None

    def person_view(self, state: S, player: Player | None) -> dict[str, Any]:
        """What a person's screen is sent of ``state.view(player)`` (the game server sends
        it to every seat's and every spectator's page): the view itself, unless the rules
        ask people to remember something that the view keeps for agents (The Triangle
        Clock's ``notes=forbidden``). Agents always read the whole view."""
        return state.view(player)

    def decision_seconds(self, state: S, player: Player) -> float | None:
        """The rules' own time limit for ``player``'s decision now, or None for none.

        A timed interface (the game server) enforces it when the match sets no clock of
        its own; the terminal does not.
        """
        return None

    def card_list(self) -> list[dict[str, Any]]:
        """Every card this configuration may show, as JSON, for clients that draw views
        naming cards by id (the browser); empty for a game whose views say it all."""
        return []

    def view_words(self) -> dict[str, tuple[str, ...] | None]:
        """Every word a string of ``state.view`` can be at a path the research encoder
        (``meeple.envs.encoding``) cannot tell from card ids, seat names, part names or action
        notations alone: ``{"phase": ("turn", ..., "over")}`` for a rare phase that random
        games may not show, ``None`` for free text (a sentence that says what the view holds
        elsewhere), which the encoder leaves out. Paths are named with list positions as
        ``[*]`` (``result.games[*].detail``); none by default."""
        return {}

    def notation_help(self) -> str:
        """A line telling a person how to write an action."""
        return "write an action in this game's notation"

    # -- positions as text (meeple's FEN) --------------------------------------------------
    def position_codec(self) -> Any:
        """The game's :class:`~meeple.core.position.PositionCodec`: the ``codec`` of a
        ``position`` module beside the game's rules, imported on first use (so the rules
        never import it); PositionError if the game has none, GamePackageError if its
        ``position`` module has no ``codec``."""
        package = type(self).__module__.rsplit(".", 1)[0]
        try:
            module = importlib.import_module(f"{package}.position")
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.position":
                raise
            raise PositionError(
                f"{self.title} has no position notation (a module {package}.position "
                "beside its rules, holding a PositionCodec named codec)"
            ) from None
        codec = getattr(module, "codec", None)
        if codec is None:
            raise GamePackageError(
                f"{package}.position holds no PositionCodec named codec, the name meeple "
                f"finds {self.title}'s positions by"
            )
        return codec

    def from_position(self, text: str) -> S:
        """The state a position text describes (see :mod:`meeple.core.position`), checked:
        PositionError naming the first problem (a card missing or twice, an impossible
        count, the wrong seat to act, options of another configuration)."""
        state: S = self.position_codec().from_position(self, text)
        return state

    @classmethod
    def data_problems(cls, option: str, path: Path) -> list[str]:
        """Every problem of a designer's data at ``path`` for the file option ``option``
        (``meeple content check``), one line each naming the file, the entry and the field;
        empty when the game plays with it. This default reports what validating the
        option finds; a game whose loader can say more overrides it."""
        try:
            cls.Options.parse(cls.name, {option: str(path)})
        except OptionError as exc:
            return [str(exc)]
        return []

    @classmethod
    def rules_markdown(cls) -> str:
        """The rules as implemented (the ``rules.md`` that ships beside the game's module)."""
        return _shipped_text(cls, "rules.md")

    def player_rules(self) -> str:
        """The rules a player needs at hand, as Markdown, for this game's options: the
        ``player_rules.md`` beside the game's module filled with :meth:`player_rules_values`
        (see :mod:`meeple.core.player_rules`). Short, unlike :meth:`rules_markdown`."""
        package = type(self).__module__.rsplit(".", 1)[0]
        template = _shipped_text(type(self), "player_rules.md")
        return fill_player_rules(template, self.player_rules_values(), f"{package}/player_rules.md")

    def player_rules_values(self) -> dict[str, str]:
        """The words :meth:`player_rules` fills in: every option as a person types it
        (``true``, ``0.02``) and ``players``, the number of seats; games add their own
        (a board's size, a table drawn from the game's data)."""
        values = {
            # 30.0 seconds reads better as 30: options typed as whole numbers come back so.
            name: option_text(
                int(value) if isinstance(value, float) and value.is_integer() else value
            )
            for name, value in self.options
        }
        values["players"] = str(self.num_players)
        # The lobby's Rules are the default's ("for 2 players") beside a lobby offering 2 to
        # 4: a template may say how many the game takes (``{{player_counts}}``, "2 to 4").
        counts = sorted(type(self).player_choices())
        values["player_counts"] = f"{counts[0]} to {counts[-1]}" if counts else values["players"]
        return values


class State(ABC, Generic[A]):
    """An immutable game state. Subclasses are frozen dataclasses holding plain data."""

    game: Game[Any, Any, A]

    @property
    @abstractmethod
    def to_act(self) -> tuple[Player, ...]:
        """The seats that must decide now; empty when the game is over."""

    @abstractmethod
    def legal_actions(self, player: Player) -> list[A]:
        """Every action ``player`` may take now (empty if the seat is not to act)."""

    @abstractmethod
    def _next(self, player: Player, action: A) -> State[A]:
        """The state after a legal action; called only once the action has been checked."""

    def why_illegal(self, player: Player, action: A) -> str | None:
        """Why ``action`` is illegal for ``player`` now, or None if it is legal.

        Games override this to give specific reasons; the default checks membership in
        :meth:`legal_actions`.
        """
        if action in self.legal_actions(player):
            return None
        return f"{action} is not a legal action now"

    def unplayable(self, player: Player) -> dict[str, str]:
        """The pieces ``player`` holds that no legal action of theirs can use now (a card
        game's cards in hand), each named as its notation names it, with why in the rules'
        words: what a page shows as not playable, and says why, so that a newcomer is not
        left clicking at a card that does nothing. Games without such pieces give none."""
        return {}

    def move_warnings(self, player: Player) -> dict[str, str]:
        """Legal moves of ``player`` that lose the game whatever the others do, by their
        notation, with why in the rules' words: what the terminal asks to confirm and a page
        says before the move is sent (a newcomer's Erd allocation that keeps no Heavy in
        Reserve loses by the mercy rule at once). Games without such traps give none."""
        return {}

    def apply(self, player: Player, action: A) -> State[A]:
        """The state after ``player`` takes ``action``.

        Raises IllegalAction with a readable reason if the game is over, the seat is not to
        act, or the rules forbid the action; ``self`` is never changed.
        """
        game = self.game
        player = check_seat(game, player)
        if self.is_over:
            raise IllegalAction("the game is over; no more actions are taken")
        to_act = self.to_act
        if player not in to_act:
            raise IllegalAction(
                f"{seats_text(game, [player])} is not to act now; "
                f"waiting for {seats_text(game, to_act)}"
            )
        try:
            reason = self.why_illegal(player, action)
        except (IndexError, KeyError, TypeError, AttributeError, ValueError):
            # A game's reasons read the action's fields; an action of another game, or one
            # built for another configuration (a seat or card index this game does not have),
            # breaks that reading instead of being explained.
            raise IllegalAction(
                f"{shorten(repr(action))} is not an action of {game.title} in this "
                f"configuration; {game.notation_help()}"
            ) from None
        if reason is not None:
            raise IllegalAction(reason)
        return self._next(player, action)

    def apply_text(self, player: Player, text: str) -> State[A]:
        """Parse ``text`` with the game's notation and apply it."""
        return self.apply(player, self.game.parse_action(text))

    def position(self) -> str:
        """The whole state as text, hidden parts included (a designer's and a tester's
        tool, not a seat's view); ``game.from_position`` reads it back to an equal state."""
        text: str = self.game.position_codec().position(self)
        return text

    def view_position(self, player: Player | None) -> str:
        """What ``player`` knows, as a position with every unknown written ``?``: for
        analysis; ``from_position`` refuses it (a state must be whole to be played)."""
        text: str = self.game.position_codec().view_position(self, player)
        return text

    def legal_action_ids(self, player: Player) -> list[int]:
        """The integer encodings of :meth:`legal_actions`."""
        return [self.game.action_id(a) for a in self.legal_actions(player)]

    @property
    def is_over(self) -> bool:
        """True once nobody is to act."""
        return not self.to_act

    @property
    def step_name(self) -> str:
        """What is being decided now, one of ``game.step_names``, so that a script can tell
        the steps apart (with the option ``auto_steps=false`` it meets every one of them)."""
        return "over" if self.is_over else "move"

    @property
    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """Per-seat outcome; all zero until the game is over (1 win, -1 loss, 0 draw)."""

    @property
    @abstractmethod
    def result(self) -> dict[str, Any]:
        """Game-specific outcome, JSON-safe: scores, winner, and why the game ended."""

    def standing(self) -> list[Any] | None:
        """The scores as they stand: ``result["scores"]``, or None in a game without them.

        The lab reads it after every action to follow the lead (the seat with the highest
        number leads). A game whose ``result`` costs more to build than a move costs to play
        overrides it with a direct count; a game that keeps no score may give a running
        count of who is ahead instead (Squad Combat: the Life each party has left).
        """
        scores = self.result.get("scores")
        return None if scores is None else list(scores)

    def standing_after(self, before: State[A], action: A, scores: list[Any] | None) -> Any:
        """:meth:`standing` of this state, which ``action`` led to from ``before`` whose
        standing was ``scores``: a game may update those instead of counting again."""
        return self.standing()

    @abstractmethod
    def view(self, player: Player | None) -> dict[str, Any]:
        """JSON-safe: exactly what ``player`` may know; ``None`` is the spectator's view."""

    def information_key(self, player: Player) -> Hashable:
        """A hashable key, equal for two states exactly when ``player`` cannot tell them apart.

        Search keys its tree nodes by it. Perfect-information states are their own key;
        otherwise it is the seat's view as canonical JSON (games may override it with
        something faster that identifies the same information).
        """
        if self.game.perfect_information:
            return self
        return json.dumps(self.view(player), sort_keys=True, separators=(",", ":"))

    def memory(self, player: Player) -> Hashable | None:
        """What ``player``, remembering perfectly, keeps from this moment that later views
        stop showing; None when there is nothing to keep (the default).

        Games with something to memorise (The Triangle Clock's order of shared symbols)
        override it. It must hold nothing the seat's view does not show now, and what a
        memorise step shows it shows every seat alike (as The Triangle Clock's rules do): a
        searching agent keeps the values and gives them back to :meth:`recalling`, in its
        own samples and in those it models the other seats' choices on.
        """
        return None

    def recalling(self, memories: Sequence[Hashable]) -> State[A]:
        """This state, a determinization, made consistent with what its seat remembers:
        ``memories`` are values :meth:`memory` gave earlier, oldest first, a later one
        winning. The default has nothing to recall and returns the state itself."""
        return self

    def decision_start(self) -> State[A]:
        """This state with the hidden submissions of the current simultaneous decision taken
        back, so that every seat in it is to act again.

        Search uses it so that each seat of a simultaneous decision chooses from the same
        state whatever order the submissions arrived in (decoupled search). The default
        rewinds every :class:`~meeple.core.simultaneous.Submissions` field of a dataclass
        state; a game that holds hidden submissions some other way overrides it.
        """
        from meeple.core.simultaneous import Submissions

        if not dataclasses.is_dataclass(self):
            return self
        changes = {
            f.name: value.rewound()
            for f in dataclasses.fields(self)
            if isinstance(value := getattr(self, f.name), Submissions)
            and value.waiting != value.seats
        }
        return dataclasses.replace(self, **changes) if changes else self

    def determinize(self, player: Player, rng: random.Random) -> State[A]:
        """A full state consistent with what ``player`` knows, hidden parts resampled.

        Perfect-information games have nothing hidden, so the state itself is returned.
        """
        if self.game.perfect_information:
            return self
        raise NotImplementedError(f"{self.game.name} must implement determinize")


def shorten(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters, for quoting a person's input in a message."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _number_below(value: object, limit: int) -> int | None:
    """``value`` as an int if it is a whole number (not a bool, a float or text) from 0 to
    ``limit - 1``, else None."""
    if isinstance(value, bool):
        return None
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None
    return number if 0 <= number < limit else None


def check_seat(game: Game[Any, Any, Any], player: object) -> Player:
    """``player`` as a seat number of ``game``; IllegalAction saying which seats exist."""
    seat = _number_below(player, game.num_players)
    if seat is None:
        raise IllegalAction(
            f"there is no seat {shorten(repr(player))}; a seat is a whole number "
            f"from 0 to {game.num_players - 1}"
        )
    return seat


class ActionIdError(MeepleError):
    """An action id that is not a whole number in the game's range, or a value asked for
    its id that is not one of the game's actions."""


def _checked_action_from_id(method: Callable[[Any, int], Any]) -> Callable[[Any, object], Any]:
    @functools.wraps(method)
    def action_from_id(self: Game[Any, Any, Any], action_id: object) -> Any:
        number = _number_below(action_id, self.num_actions)
        if number is None:
            raise ActionIdError(
                f"there is no action id {shorten(repr(action_id))} in {self.title}; "
                f"an action id is a whole number from 0 to {self.num_actions - 1}"
            )
        return method(self, number)

    action_from_id._checks_id = True  # type: ignore[attr-defined]
    return action_from_id


def _checked_action_id(method: Callable[[Any, Any], int]) -> Callable[[Any, object], int]:
    @functools.wraps(method)
    def action_id(self: Game[Any, Any, Any], action: object) -> int:
        try:
            return method(self, action)
        except (KeyError, TypeError, AttributeError, IndexError, ValueError):
            # A game looks its actions up, or reads their fields: anything else (another
            # game's action, a string, a list) breaks that instead of having an id.
            raise ActionIdError(
                f"{shorten(repr(action))} is not an action of {self.title}, so it has no action id"
            ) from None

    action_id._checks_id = True  # type: ignore[attr-defined]
    return action_id


def seat_text(game: Game[Any, Any, Any], player: Player) -> str:
    """``Red (seat 0)``: a seat as a person reads it; ``seat 0`` where the game names its
    seats no other way (the default ``seat_name``), not ``seat 0 (seat 0)``."""
    name = game.seat_name(player)
    return name if name == f"seat {player}" else f"{name} (seat {player})"


def seats_text(game: Game[Any, Any, Any], players: Sequence[Player]) -> str:
    """``Red (seat 0), Blue (seat 1)``: seats as a person reads them."""
    return ", ".join(seat_text(game, p) for p in players)


_RENDERERS: dict[type[Any], Callable[[Any, Player | None], RenderableType]] = {}


def _box_to_ascii() -> dict[int, str]:
    """Unicode's box-drawing characters (U+2500 to U+257F) as the ASCII a terminal of old
    drew them with: a horizontal line ``-``, a double one ``=``, a vertical one ``|``, a
    corner or a crossing ``+``."""
    table: dict[int, str] = {}
    for code in range(0x2500, 0x2580):
        name = unicodedata.name(chr(code), "")
        horizontal, vertical = "HORIZONTAL" in name, "VERTICAL" in name
        if horizontal == vertical:  # a corner, a crossing, a diagonal
            table[code] = "+"
        elif horizontal:
            table[code] = "=" if "DOUBLE" in name else "-"
        else:
            table[code] = "|"
    return table


_BOX_TO_ASCII = _box_to_ascii()


def register_renderer(
    game: type[Game[Any, Any, Any]], draw: Callable[[Any, Player | None], RenderableType]
) -> None:
    """Give ``game`` its terminal drawing, ``draw(state, player)``, used by
    :meth:`Game.render`.

    A game's package registers its render module here, so that the rules module does not
    import the drawing, which imports the rules.
    """
    _RENDERERS[game] = draw
