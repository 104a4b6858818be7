"""meeple's games as OpenSpiel Python games: ``pyspiel.load_game("python_meeple_erd")``.

Importing this module registers every game with ``pyspiel.register_game`` under
``python_meeple_<game>`` (dashes as underscores), its options as game parameters
(strings where the option is not a number or a flag; an empty string is the default).

- **Dynamics.** Erd and The Triangle Clock are ``SIMULTANEOUS``: where several seats are
  to act the state's current player is ``SIMULTANEOUS`` and ``apply_actions`` takes every
  seat's choice at once. The others are ``SEQUENTIAL``.
- **Chance.** meeple draws every deal, shuffle and die roll from the game's seed. OpenSpiel
  sees that as one explicit chance node at the start choosing the seed, uniformly among
  ``seeds`` outcomes (a parameter, 1,000 by default); everything after it is determined by
  the seed and the moves. Sampling algorithms and ``random_sim_test`` work as with any
  explicit-chance game; an algorithm that enumerates chance sees ``seeds`` worlds, not the
  game's true card-by-card chance tree (documented alternative, docs/envs.md).
- **Observations.** The observation string is the seat's view as JSON; the observation
  tensor is that view encoded by :mod:`meeple.envs.encoding`, or, with the game parameter
  ``observation=designed`` (or the observer parameter of the same name,
  ``make_observation(game, params={"observation": "designed"})``), the batched
  environment's designed observation (:mod:`meeple.envs.observation`). The information state
  string (perfect recall) is the seat's views so far with its own moves between them.
  Both hold only ``state.view(seat)``.
- **Utility.** The game's returns at the end (1 win, -1 loss, 0 draw); zero-sum with two
  seats or two sides (``Game.zero_sum``: Double Edges' teams), general-sum with more seats.
  The registered type (``pyspiel.registered_games()``) holds for every configuration: the
  game's fewest and most seats (Erosion 2-5, Squad Combat 2-4, Edges 2-4: 2, or 4 in Double
  Edges), general-sum where more than two seats of their own are possible.
- **Serialisation** is OpenSpiel's own (the history of actions, the seed's first).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any, NamedTuple

import numpy as np

from meeple.core.errors import IllegalAction, MeepleError
from meeple.core.game import Game, State
from meeple.core.options import describe_options
from meeple.core.registry import game_class, games, make
from meeple.envs import framework_missing
from meeple.envs.observation import OBSERVATIONS, SeatObservation, observation_for

try:
    import pyspiel
except ModuleNotFoundError as missing:  # the envs extra is not installed
    raise framework_missing(missing) from None

SIMULTANEOUS_GAMES = ("erd", "triangle-clock")
DEFAULT_SEEDS = 1000
OWN_PARAMETERS = ("seeds", "observation")
"""Game parameters of the adapter, not options of the game."""
MAX_GAME_LENGTH = 100_000
"""OpenSpiel's ``max_game_length`` for a game whose rules give no bound of their own
(``Game.max_decisions`` is None: Squad Combat): a cap, not a proof that no game is
longer."""


def max_game_length(game: Game[Any, Any, Any]) -> int:
    """The most decisions the rules allow (each simultaneous choice one; OpenSpiel counts
    no chance node in a game's length), where they bound them; :data:`MAX_GAME_LENGTH`
    where they do not."""
    most = game.max_decisions()
    return MAX_GAME_LENGTH if most is None else most


def short_name(game: str) -> str:
    """``python_meeple_triangle_clock`` for ``triangle-clock``."""
    return "python_meeple_" + game.replace("-", "_")


def _looks_numeric(text: str) -> bool:
    """Whether OpenSpiel would read ``text`` in a game string as other than text.

    It reads a value made only of digits, '-' and '.' as a number (and refuses one that is
    no number, ``3-4-5``: "CHECK_TRUE(success)"), and ``true``, ``True``, ``false`` and
    ``False`` as a bool; a value Python reads as a float (``1e5``, ``inf``) is counted too,
    as before."""
    if text and set(text) <= set("0123456789-."):
        return True
    if text in ("true", "True", "false", "False"):
        return True
    try:
        float(text)
    except ValueError:
        return False
    return True


def _parameters(name: str) -> dict[str, Any]:
    """The game's options as OpenSpiel parameters with their defaults.

    OpenSpiel reads ``rules=0.02`` in a game string as a number, so a text option whose
    value it would read as other than text is written with a leading ``v`` (``rules=v0.02``,
    ``heaps=v3-4-5``).
    """
    out: dict[str, Any] = {"seeds": DEFAULT_SEEDS, "observation": OBSERVATIONS[0]}
    for option in describe_options(game_class(name).Options):
        default = option.default
        if isinstance(default, bool | int | float):
            out[option.name] = default
        elif default is None:
            out[option.name] = ""
        else:
            text = str(default)
            out[option.name] = f"v{text}" if _looks_numeric(text) else text
    return out


def _options(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """OpenSpiel parameters back to meeple options (an empty string: the default)."""
    defaults = _parameters(name)
    out = {}
    for key, value in params.items():
        if key in OWN_PARAMETERS or key not in defaults or value in ("", defaults[key]):
            continue
        if isinstance(value, str) and value[:1] == "v" and _looks_numeric(value[1:]):
            value = value[1:]
        out[key] = value
    return out


def player_range(name: str) -> tuple[int, int]:
    """The fewest and most seats any configuration of the game has, from the numbers of its
    ``players`` (``"2-5"``; ``"2 (4 in Double Edges)"``: 2 and 4, no game of 3)."""
    counts = [int(n) for n in re.findall(r"\d+", game_class(name).players)]
    return min(counts), max(counts)


def _game_type(name: str, num_players: int | None = None) -> pyspiel.GameType:
    """The game's type: registered (``num_players`` None) it holds for every player count
    (general-sum where a game takes more than two seats: one winner's 1 against the others'
    -1 does not sum to zero); a loaded game's is zero-sum with two seats. Either is zero-sum
    for a game of two sides whatever its seats (``Game.two_sides``: Double Edges)."""
    cls = game_class(name)
    fewest, most = player_range(name)
    zero_sum = (num_players or most) == 2 or cls.two_sides
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"meeple {cls.title}",
        dynamics=(
            pyspiel.GameType.Dynamics.SIMULTANEOUS
            if name in SIMULTANEOUS_GAMES
            else pyspiel.GameType.Dynamics.SEQUENTIAL
        ),
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if cls.perfect_information
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=most,
        min_num_players=fewest,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(name),
    )


class MeepleSpielGame(pyspiel.Game):
    """One meeple game configuration, as OpenSpiel sees it."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_parameters(self.game_name), **(params or {})}
        self.meeple: Game[Any, Any, Any] = make(self.game_name, **_options(self.game_name, params))
        self.seeds = int(params["seeds"])
        if self.seeds < 1:
            raise MeepleError(f"seeds must be a whole number from 1 up, not {self.seeds}")
        self.observation = str(params["observation"])
        observation_for(self.meeple, self.observation)  # refused here, in one line, not later
        n = self.meeple.num_players
        super().__init__(
            _game_type(self.game_name, n),
            pyspiel.GameInfo(
                num_distinct_actions=self.meeple.num_actions,
                max_chance_outcomes=self.seeds,
                num_players=n,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0 if self.meeple.zero_sum else None,
                max_game_length=max_game_length(self.meeple),
            ),
            params,
        )

    def new_initial_state(self) -> MeepleSpielState:
        """The chance node that picks the seed."""
        return MeepleSpielState(self)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # pyspiel's own pickling rebuilds only the C++ game, so an unpickled game lacked
        # what __init__ sets (the meeple game): load it again from its game string.
        return pyspiel.load_game, (str(self),)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> MeepleObserver:
        """Observation strings and tensors of the seat's view (perfect recall on request);
        ``params={"observation": "designed"}`` (or ``"view"``) overrides the game
        parameter for this observer's tensor."""
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        params = dict(params or {})
        observation = str(params.pop("observation", self.observation))
        if params:
            raise ValueError(
                f"observer parameters are observation only, not {', '.join(sorted(params))}"
            )
        return MeepleObserver(observation_for(self.meeple, observation), perfect_recall)


class _Shared:
    """Holds an immutable value that a copied OpenSpiel state may share.

    OpenSpiel clones a Python state with ``copy.deepcopy``; meeple states and games never
    change, so a clone shares them instead of copying every tuple of the position.
    """

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class _Line(NamedTuple):
    """One line of a seat's information state and the lines before it."""

    text: str
    before: _Line | None


class _Lines(dict[int, _Line]):
    """Each seat's information state up to one state of a trail, by seat, written when
    first asked for. It depends on the trail up to that state alone, so the clones sharing
    the trail share it; a pickle leaves it out (its chains are as deep as the game is long,
    past pickle's recursion limit) and it is written again when asked for."""

    def __reduce__(self) -> tuple[type[_Lines], tuple[()]]:
        return _Lines, ()


class _Passed(NamedTuple):
    """A state passed through, the (seat, move) that led to it (None for the first), and
    the information states up to it as far as they were asked for."""

    step: tuple[int, Any] | None
    state: State[Any]
    lines: _Lines


def _joint_count(moves: list[list[int]]) -> int:
    """How many flat joint actions the seats' legal actions make: the product of the counts
    of the seats that act (one not to act has none, and adds no digit)."""
    return int(np.prod([len(m) for m in moves if m]))


class MeepleSpielState(pyspiel.State):
    """A meeple state behind OpenSpiel's State API (the seed first, then the moves)."""

    def __init__(self, game: MeepleSpielGame) -> None:
        super().__init__(game)
        self._game = _Shared(game.meeple)
        self._inner = _Shared(None)
        self.seeds = game.seeds
        self._trail = _Shared(())
        """The states passed through (:class:`_Passed`): information states are written
        from them when asked for, since writing every seat's view at every move cost
        searches (OpenSpiel's MCTSBot) about two thirds of their time, and each state keeps
        what was written up to it, since writing every view again at each ask made walking
        a game cost the square of its length. A state resampled for a search keeps the
        history it was resampled from, its last state the sampled one
        (:meth:`resample_from_infostate`)."""

    @property
    def meeple_game(self) -> Game[Any, Any, Any]:
        """The meeple game being played."""
        return self._game.value

    @property
    def inner(self) -> State[Any] | None:
        """The meeple state (None before the seed is drawn)."""
        return self._inner.value

    @inner.setter
    def inner(self, state: State[Any]) -> None:
        self._inner = _Shared(state)

    # -- whose turn -----------------------------------------------------------------------------
    def current_player(self) -> int:
        """CHANCE before the seed, SIMULTANEOUS where several seats act, TERMINAL at the end."""
        if self.inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.inner.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        to_act = self.inner.to_act
        if len(to_act) > 1:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return to_act[0]

    def _legal_actions(self, player: int) -> list[int]:
        if self.inner is None:
            return []
        if player == pyspiel.PlayerId.SIMULTANEOUS and len(self.inner.to_act) > 1:
            # legal_actions() with no seat at a simultaneous node: OpenSpiel's flat joint
            # actions, as its C++ games give them (0 to the product of the seats' counts).
            return list(range(_joint_count(self._seat_moves())))
        if player not in self.inner.to_act:
            return []
        return sorted(self.inner.legal_action_ids(player))

    def _seat_moves(self) -> list[list[int]]:
        """Each seat's legal actions, in seat order (empty for a seat not to act)."""
        return [self._legal_actions(p) for p in range(self.meeple_game.num_players)]

    def _joint(self, flat: int) -> list[int]:
        """The seats' actions a flat joint action stands for, decoded as OpenSpiel's
        ``ApplyFlatJointAction`` does: the first seat's choice is the lowest digit."""
        moves = self._seat_moves()
        count = _joint_count(moves)
        if not 0 <= flat < count:
            raise IllegalAction(
                f"joint action {flat} is not one of this simultaneous node's: it takes a flat "
                f"joint action from 0 to {count - 1}, or apply_actions with each seat's action"
            )
        actions = []
        for legal in moves:
            if legal:
                flat, digit = divmod(flat, len(legal))
                actions.append(legal[digit])
            else:
                actions.append(-1)  # OpenSpiel's kInvalidAction: the seat is not to act
        return actions

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every seed, equally likely; SpielError past the start, as OpenSpiel's own games
        refuse it off a chance node (an algorithm may test for chance by its outcomes)."""
        if self.inner is not None:
            raise pyspiel.SpielError(
                "chance_outcomes() is asked at a chance node only: this game's one chance "
                "node is its start, which draws the seed"
            )
        p = 1.0 / self.seeds
        return [(k, p) for k in range(self.seeds)]

    # -- moves ----------------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        self._not_over()
        if self.inner is None:
            if not 0 <= action < self.seeds:
                raise IllegalAction(
                    f"chance outcome {action} is not a seed of this game; "
                    f"the outcomes are 0 to {self.seeds - 1}"
                )
            first = self.meeple_game.new_game(int(action))
            self.inner = first
            self._trail = _Shared((_Passed(None, first, _Lines()),))
            return
        if len(self.inner.to_act) > 1:
            # One action at a simultaneous node is a flat joint action (OpenSpiel's
            # convention); played as the first seat's alone, the others were left to act.
            self._apply_actions(self._joint(int(action)))
            return
        player = self.inner.to_act[0]
        self._play(player, action)

    def _apply_actions(self, actions: list[int]) -> None:
        self._not_over()
        seats = self.meeple_game.num_players
        if self.inner is None or len(actions) != seats:
            # OpenSpiel keeps what it is given in the history, which serialises the state:
            # an action too many was written there as a seat the game does not have.
            where = "at the start's chance node, apply_action(seed)" if self.inner is None else ""
            raise IllegalAction(
                where
                or f"apply_actions takes one action a seat ({seats}), got {len(actions)}; "
                "a seat not to act gives -1 (kInvalidAction)"
            )
        for player in self.inner.to_act:
            self._play(player, actions[player])

    def _not_over(self) -> None:
        """IllegalAction on a terminal state, which takes no action (OpenSpiel's own games
        fail an assertion there)."""
        if self.is_terminal():
            raise IllegalAction("the game is over: a terminal state takes no action")

    def _play(self, player: int, action: int) -> None:
        assert self.inner is not None
        move = self.meeple_game.action_from_id(int(action))
        self.inner = self.inner.apply(player, move)
        # A new tuple, not an append: clones share the old one.
        self._trail = _Shared((*self._trail.value, _Passed((player, move), self.inner, _Lines())))

    def recall(self, seat: int) -> list[str]:
        """``seat``'s views so far (as JSON, each change once), with its own moves between
        them: its information state with perfect recall."""
        trail = self._trail.value
        known = len(trail)
        while known and seat not in trail[known - 1].lines:
            known -= 1
        line = trail[known - 1].lines[seat] if known else None
        for passed in trail[known:]:
            if passed.step is not None and passed.step[0] == seat:
                line = _Line(f"> {passed.step[1]}", line)
            text = json.dumps(passed.state.view(seat), sort_keys=True)
            if line is None or line.text != text:
                line = _Line(text, line)
            passed.lines[seat] = line
        seen = []
        while line is not None:
            seen.append(line.text)
            line = line.before
        return seen[::-1]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        game = self.meeple_game
        joint = self.inner is not None and len(self.inner.to_act) > 1
        if player == pyspiel.PlayerId.SIMULTANEOUS and joint:
            # A flat joint action (``legal_actions()`` here) is every acting seat's move:
            # read as one seat's id, it named a move nobody chose.
            each = self._joint(int(action))
            moves = [(p, game.action_from_id(a)) for p, a in enumerate(each) if a >= 0]
            return ", ".join(f"{game.seat_name(p)}: {move}" for p, move in moves)
        return str(game.action_from_id(int(action)))

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> MeepleSpielState:
        """A state ``player`` cannot tell from this one, hidden parts sampled (IS-MCTS).

        meeple samples the present only (``State.determinize``), not a past that leads to it:
        the kept history is this state's, its last state replaced by the sampled one, so every
        seat's information state ends with its view of the sampled world (its observation),
        and ``player``'s is this state's."""
        clone = self.clone()
        if self.inner is not None:
            seed = int(probability_sampler() * 2**31)
            clone.inner = self.inner.determinize(player, random.Random(seed))
            *kept, last = self._trail.value
            clone._trail = _Shared((*kept, _Passed(last.step, clone.inner, _Lines())))
        return clone

    # -- the end --------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.inner is not None and self.inner.is_over

    def returns(self) -> list[float]:
        """The game's returns (zeros until the end)."""
        if self.inner is None:
            return [0.0] * self.meeple_game.num_players
        return [float(r) for r in self.inner.returns]

    def __str__(self) -> str:
        if self.inner is None:
            return "(the seed is not drawn yet)"
        return json.dumps(self.inner.view(None), sort_keys=True)


class MeepleObserver:
    """OpenSpiel's PyObserver: a seat's view as a string, and its observation (the encoded
    view or the designed observation) as the tensor."""

    def __init__(self, observation: SeatObservation, perfect_recall: bool) -> None:
        self.observation = observation
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(observation.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MeepleSpielState, player: int) -> None:
        """Fill the tensor with ``player``'s observation of ``state``."""
        if self.perfect_recall:
            raise pyspiel.SpielError(
                "meeple's games have no information state tensor (one of fixed size would "
                "hold an observation for each of max_game_length decisions: 1,000 of 667 "
                "numbers for Erd, 455 of 11,699 for two-player Erosion, and Squad Combat has "
                "no bound); use "
                "information_state_string or observation_tensor"
            )
        if state.inner is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = self.observation.encode(state.inner, player)

    def string_from(self, state: MeepleSpielState, player: int) -> str:
        """``player``'s view as JSON (with perfect recall: every view so far and its moves)."""
        if state.inner is None:
            return ""
        if self.perfect_recall:
            return "\n".join(state.recall(player))
        return json.dumps(state.inner.view(player), sort_keys=True)


def _register() -> None:
    for info in games():
        cls = type(
            f"Meeple{info.name.title().replace('-', '')}SpielGame",
            (MeepleSpielGame,),
            {"game_name": info.name, "__doc__": f"meeple's {info.title} for OpenSpiel."},
        )
        cls.__module__ = __name__
        globals()[cls.__name__] = cls  # so that pickle finds the class
        pyspiel.register_game(_game_type(info.name), cls)


_register()
