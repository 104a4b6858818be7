"""The ``equilibrium`` Erd agent: plays the solved optimal mixed strategy, seeded.

The solution comes from the verified cache (``meeple solve erd --rules ...`` fills it); an
agent asked for a game not solved yet says which command solves it, or solves it when made
with ``solve=true`` (about 20 s for 0.02). The solver is imported when the agent is built, not
when meeple is imported, so the command line starts fast.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from meeple.core.agent import Observation
from meeple.core.errors import MeepleError
from meeple.core.game import Game
from meeple.core.rng import make_rng
from meeple.games.erd.rules import Allocate, ErdGame, ErdState

if TYPE_CHECKING:
    from meeple.solvers.erd.iteration import Solution
    from meeple.solvers.erd.model import StageGame


_LOADED: dict[tuple[object, ...], Solution] = {}
_LOADING = threading.Lock()


class StageAt(NamedTuple):
    """Where a state lies in a solution: its stage game, and how a seat plays it."""

    index: int  # type: ignore[assignment]  # a field by this name hides tuple.index
    """The stage game's index in the solution's model."""
    stage: StageGame
    left: int
    """Rounds left, the solution's horizon counting down (at least 1)."""
    as_row: bool
    """Whether the seat is the stage game's row player."""


def stage_at(solution: Solution, state: ErdState, player: int) -> StageAt:
    """The stage game ``state`` is in, the rounds left and whether ``player`` plays its
    rows: the one lookup the equilibrium and exploiting agents share."""
    index, sign = solution.model.locate(state.sides)
    left = max(1, solution.horizon - state.round + 1)
    # In the canonical table Red is the row player unless the table was mirrored.
    as_row = (player == 0) == (sign == 1)
    return StageAt(index, solution.model.states[index], left, as_row)


def wait_to_make(
    game: Game, *, solve: bool = False, cache_dir: str | None = None, **_other: object
) -> str | None:
    """What making an agent that plays the solved game waits for, for a person to read
    while it lasts: the solution read back (seconds), or the rules solved first where the
    agent may solve them (``solve``); None where it has nothing to read and may not solve,
    since it then stops at once with the command that solves the rules. Takes the agent's
    parameters as a spec gives them (``cache_dir`` is where it looks; the others change
    nothing here)."""
    from meeple.solvers.erd.solve import is_stored

    if not isinstance(game, ErdGame):
        return None
    if is_stored(game, Path(cache_dir) if cache_dir else None):
        return "reading the solved game for the computer player (a few seconds)..."
    if not solve:
        return None
    return (
        "solving Erd under these rules for the computer player: once, about half a minute; "
        "later games read the solution back in a few seconds..."
    )


def unprepared(game: Game) -> str | None:
    """Why an agent that plays the solved game cannot be made at once for ``game``: its
    rules are not solved in the cache yet (None: they are, or the game is not Erd). A
    server prepares such a game off the request path (:func:`prepare`) or refuses it."""
    from meeple.solvers.erd.solve import is_stored

    if not isinstance(game, ErdGame) or is_stored(game):
        return None
    return "Erd under these rules has not been solved on this server (about half a minute)"


def shipped(game: Game) -> bool:
    """Whether ``game`` plays as one of Erd's rules versions with every other option that
    changes play at its default: the variants a server solves unless its operator allows
    more (a client asking for a new round limit must not cost it minutes of CPU)."""
    from meeple.core.registry import make
    from meeple.solvers.erd.solve import options_of

    if not isinstance(game, ErdGame):
        return False
    wanted = options_of(game)
    version = make("erd", rules=wanted["rules"])
    assert isinstance(version, ErdGame)
    return wanted == options_of(version)


def prepare(game: Game) -> None:
    """Solve ``game``'s rules into the cache (for :func:`unprepared`); run it in a process
    of its own, as a server does, since it takes half a minute of CPU."""
    from meeple.solvers.erd.solve import options_of, solve_erd

    if isinstance(game, ErdGame):
        solve_erd(options_of(game), solve_if_missing=True)


class EquilibriumAgent:
    """Draws each allocation from the optimal mix of the state and the rounds left.

    Against any opponent it earns at least the game's value in expectation (0 from the
    opening, which is symmetric); nothing it does can be exploited beyond the solver's
    tolerance. Allocations that play alike form one class; within a class it picks at random.
    """

    name = "equilibrium"
    wait_to_make = staticmethod(wait_to_make)
    unprepared = staticmethod(unprepared)
    shipped = staticmethod(shipped)
    prepare = staticmethod(prepare)

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        cache_dir: str | None = None,
        solution: Solution | None = None,
        solve: bool = False,
    ) -> None:
        """``cache_dir``: where solved results are kept (default: the user's cache);
        ``solution``: play this one instead (a test's tiny variant); ``solve``: solve the
        game now if it is not in the cache (about 20 s for 0.02), instead of refusing with
        the command that solves it."""
        if not isinstance(game, ErdGame):
            raise MeepleError("the equilibrium agent plays Erd only")
        self.game = game
        self.rng = make_rng(seed, "erd-equilibrium")
        if solution is None:
            from meeple.solvers import cache
            from meeple.solvers.erd.solve import options_of, solve_erd

            options = options_of(game)
            folder = Path(cache_dir) if cache_dir else cache.default_cache_dir()
            # A lab run makes an agent per game: read the (large) solution once per process;
            # a server's threads making agents at once wait for one solve, not one each.
            # Keyed by the folder itself, so that a default folder moved by the environment
            # is read anew, not answered from another folder's solution.
            key = (folder, tuple(sorted(options.items())))
            with _LOADING:
                solution = _LOADED.get(key)
                if solution is None:
                    found = solve_erd(options, folder, solve_if_missing=solve)[0]
                    solution = _LOADED[key] = found
        self.solution: Solution = solution

    def mix(self, state: ErdState, player: int) -> tuple[list[list[Allocate]], list[float]]:
        """The classes of ``player``'s allocations in ``state`` and the optimal probability
        of each."""
        at = stage_at(self.solution, state, player)
        row, column = self.solution.mixes(at.index, at.left)
        classes = at.stage.rows if at.as_row else at.stage.columns
        return classes, [float(p) for p in (row if at.as_row else column)]

    def act(self, observation: Observation) -> Allocate:
        """An allocation drawn from the optimal mix."""
        state = observation.determinize(self.rng)
        assert isinstance(state, ErdState)
        classes, weights = self.mix(state, observation.player)
        chosen = self.rng.choices(classes, weights=weights)[0]
        return self.rng.choice(chosen)
