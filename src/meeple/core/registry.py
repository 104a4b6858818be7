"""The registry of games: ``make(name, **options)`` and ``games()``.

Built-in games register themselves when :mod:`meeple.games` is imported; third-party games
can register through the ``meeple.games`` entry-point group.
"""

from __future__ import annotations

import importlib
import sys
import typing
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from meeple.core.errors import (
    AgentPackageError,
    GamePackageError,
    MeepleError,
    UnknownGame,
    did_you_mean,
)
from meeple.core.game import Game, State, shorten
from meeple.core.options import OptionInfo, applies_when_fault, describe_options

_GAMES: dict[str, type[Game[Any, Any, Any]]] = {}


def register(cls: type[Game[Any, Any, Any]]) -> type[Game[Any, Any, Any]]:
    """Class decorator: make a game available to :func:`make` under ``cls.name``.

    A name is one game's: registering another class under a name already taken raises
    ``ValueError`` naming both (the same class imported again keeps its name)."""
    taken = _GAMES.get(cls.name)
    if taken is not None and defined_at(taken) != defined_at(cls):
        raise ValueError(
            f"the game name {cls.name!r} is taken by {defined_at(taken)}; "
            f"{defined_at(cls)} needs a name of its own"
        )
    _GAMES[cls.name] = cls
    return cls


def defined_at(cls: Any) -> str:
    """Where a class or an agent's factory is defined (a factory without a name, a
    ``functools.partial`` say, by its repr)."""
    return f"{getattr(cls, '__module__', '?')}.{getattr(cls, '__qualname__', repr(cls))}"


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def _load_plugins() -> None:
    """Import every module of the ``meeple.games`` entry points, once. A package that does
    not load, or loads incomplete, is GamePackageError, in one line naming it and why; the
    next lookup tries again."""
    _load_group("meeple.games", "game", GamePackageError, _registered_games, _incomplete)


_LOADED_GROUPS: set[str] = set()
"""The entry-point groups imported, or being imported: a package that looks up games or
agents as it loads does not start its group again."""


def _load_group(
    group: str,
    kind: str,
    error: type[GamePackageError],
    registered: Callable[[], set[Any]],
    incomplete: Callable[[str, set[Any]], str | None],
    unusable: str = "cannot be played",
) -> None:
    """Import the module of every entry point in ``group``, once (after an ``error`` the
    next lookup tries again). What each added to ``registered()`` (what a registry holds)
    is checked by ``incomplete(module, new)``, which says why the package cannot be used, or
    None. A package that does not load, or that ``incomplete`` faults, is ``error`` in one
    line naming it and why (``unusable`` says what such a package is: "cannot be played"
    for a game)."""
    if group in _LOADED_GROUPS:
        return
    _LOADED_GROUPS.add(group)
    for ep in entry_points(group=group):
        module = ep.value.partition(":")[0]
        where = f"the {kind} package {module!r} (entry point {ep.name!r} of {group})"
        before = registered()
        try:
            ep.load()
        except Exception as exc:
            _LOADED_GROUPS.discard(group)
            raise error(
                f"{where} does not load: {type(exc).__name__}: {exc}; fix it (python -c "
                f"'import {module}' shows where) or uninstall it"
            ) from exc
        # Checked here, not at the first use: a class missing a method would otherwise be a
        # TypeError traceback from deep inside whichever command first made a state.
        why = incomplete(module, registered() - before)
        if why is not None:
            _LOADED_GROUPS.discard(group)
            raise error(f"{where} {unusable}: {why}; fix it or uninstall it")


def _registered_games() -> set[Any]:
    return set(_GAMES.values())


def _incomplete(module: str, new: set[type[Game[Any, Any, Any]]]) -> str | None:
    """Why the games the package of ``module`` registered (``new`` while it loaded, or any
    from its top-level package, which may have been imported before) cannot be played:
    none registered, an option without a default or with an ``applies_when`` written wrong,
    or a game or state class lacking a method every one defines; or None."""
    package = module.split(".")[0]
    mine = new | {
        cls
        for cls in _GAMES.values()
        if cls.__module__ == package or cls.__module__.startswith(f"{package}.")
    }
    if not mine:
        return "it registers no game (decorate its Game class with meeple.core.registry.register)"
    for cls in sorted(mine, key=defined_at):
        required = [name for name, field in cls.Options.model_fields.items() if field.is_required()]
        if required:
            # A game is made with no options at all (meeple play <game>, the lobby's form).
            return (
                f"option {required[0]!r} of {defined_at(cls.Options)} has no default; every option "
                "needs one (Field(default=...))"
            )
        fault = applies_when_fault(cls.Options)
        if fault:
            return f"{fault}, in {defined_at(cls.Options)}"
        state = _state_class(cls)
        for kind, klass in (("Game", cls), ("State", state)):
            missing = sorted(getattr(klass, "__abstractmethods__", ()))
            if klass is not None and missing:
                return (
                    f"{defined_at(klass)} lacks {', '.join(missing)}, which every {kind} defines "
                    "(docs/new-game.md)"
                )
        inherited = getattr(state, "determinize", None) is State.determinize
        if state is not None and not cls.perfect_information and inherited:
            return (
                f"{defined_at(cls)} hides information (perfect_information = False), yet "
                f"{defined_at(state)} lacks determinize (docs/new-game.md)"
            )
    return None


def _state_class(cls: type[Game[Any, Any, Any]]) -> type | None:
    """The state class a game names in its ``Game[Options, State, Action]`` base (a name
    in quotes is looked up in the module that wrote it), or None where it names none."""
    for klass in cls.__mro__:
        # From the class's own namespace: one inherited would name a state of another module.
        for base in klass.__dict__.get("__orig_bases__", ()):
            if typing.get_origin(base) is not Game:
                continue
            state = typing.get_args(base)[1]
            if isinstance(state, typing.ForwardRef):
                state = state.__forward_arg__
            if isinstance(state, str):
                state = getattr(sys.modules.get(klass.__module__), state, None)
            return state if isinstance(state, type) else None
    return None


def game_class(name: str) -> type[Game[Any, Any, Any]]:
    """The registered game class for ``name`` (case and ``-``/``_`` do not matter)."""
    _load_plugins()
    cls = _GAMES.get(_key(name)) if isinstance(name, str) else None
    if cls is None:
        known = ", ".join(sorted(_GAMES)) or "(none)"
        what = (
            f"no game called {name!r}{did_you_mean(_key(name), _GAMES)}"
            if isinstance(name, str)
            else (f"a game is named by text, not {shorten(repr(name))}")
        )
        raise UnknownGame(f"{what}; the games are: {known}")
    return cls


def make(name: str, **options: Any) -> Game[Any, Any, Any]:
    """A game with validated options, e.g. ``make("edges", board="3x3")``.

    Raises UnknownGame for an unknown name and OptionError for an unknown option or a bad
    value, naming the option and what it accepts.
    """
    cls = game_class(name)
    return cls(cls.Options.parse(cls.name, options))


@dataclass(frozen=True)
class GameInfo:
    """A registered game as listed by :func:`games`."""

    name: str
    title: str
    players: str
    summary: str
    perfect_information: bool
    options: list[OptionInfo]


def games() -> list[GameInfo]:
    """The registered games with their options, sorted by name."""
    _load_plugins()
    return [
        GameInfo(
            name=cls.name,
            title=cls.title,
            players=cls.players,
            summary=cls.summary,
            perfect_information=cls.perfect_information,
            options=describe_options(cls.Options),
        )
        for _, cls in sorted(_GAMES.items())
    ]


_EXTRA_AGENTS: dict[str, dict[str, Any]] = {}

Ref = Callable[..., Any] | str
"""What the compiled registrations take: the object, or where it is, as
``"package.module:name"``, imported at its first use.

A game's compiled twin is numba code: importing it imports numba and builds its kernels'
dispatchers (a fifth of a second per process, all games together). Registering it by name
keeps that out of every process that never plays a compiled rollout or a batched step (the
command line, a server that hands out no searching agent)."""

_PLAYOUTS: dict[tuple[str, str], tuple[Ref, Ref | None]] = {}
_CHOICES: dict[tuple[str, str], Ref] = {}
_VALUES: dict[tuple[str, str], Ref] = {}

RANDOM_ROLLOUT = "random"
"""The rollout every compiled playout offers first: uniformly random legal actions."""


def resolve(ref: Ref) -> Any:
    """The object a registration names: ``ref`` itself, or the ``name`` imported from
    ``package.module`` where it is written ``"package.module:name"``."""
    if not isinstance(ref, str):
        return ref
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)


def register_agent(game_name: str, name: str, factory: Any) -> None:
    """Offer an agent for one game from outside :mod:`meeple.agents`: a game's own agents
    from its package, a solver's, or a package of agents of its own (found through the
    ``meeple.agents`` entry points, docs/agents.md "Adding an agent").

    Layers above the games (solvers) contribute agents here, so that neither games nor
    :mod:`meeple.agents` need to import them. A name is one agent's per game: registering
    another factory under a name the game already has raises ``ValueError`` naming both
    (the same factory imported again keeps its name).
    """
    agents = _EXTRA_AGENTS.setdefault(_key(game_name), {})
    taken = agents.get(name)
    if taken is not None and defined_at(taken) != defined_at(factory):
        raise ValueError(
            f"the agent name {name!r} of {game_name} is taken by {defined_at(taken)}; "
            f"{defined_at(factory)} needs a name of its own"
        )
    agents[name] = factory


def register_playout(
    game_name: str,
    playout: Ref,
    check: Ref | None = None,
    policy: str = RANDOM_ROLLOUT,
    choose: Ref | None = None,
    values: Ref | None = None,
) -> None:
    """Offer a compiled playout for one game: ``playout(state, seed)`` plays from ``state``
    and gives each seat's return (from -1 to 1).

    Each function may be given as ``"package.module:name"`` (:data:`Ref`): the built-in
    games register their compiled twins so, and the module is imported the first time
    search asks for it.

    ``policy`` names how it plays: ``"random"`` plays uniformly random legal actions to the
    end; another name (a game's ``"guided"`` rollout, say) may prefer some actions and may
    stop early and return an evaluation of the position in the same scale. Search picks one
    with its ``rollout`` parameter.

    A game's package registers its compiled rules here (they import the rules module, so the
    rules cannot name them), and search reads them with :func:`compiled_playout`. ``check``,
    given a game, raises ``ValueError`` (or a :class:`MeepleError`) where the compiled rules
    do not serve its options; search then keeps the engine's rollouts. The rules a playout
    plays must be proven equal to the rules engine by a differential test.

    ``choose(state, seat, seed)``, where given, is the same policy's single action for
    ``seat`` in ``state`` (an engine action): search can let the seats it does not search for
    play it inside the tree (its ``opponent`` parameter). Like the playout it reads the whole
    state, so it is only ever given a determinization.

    ``values(state, seat, actions, seed)``, where given, is ``seat``'s return after each of
    its ``actions`` in ``state`` (a determinization where only that seat acts), each then
    played out as ``playout(after, seed)`` would, in one call: flat search asks it for all
    its candidates in a world at once, sparing the engine's step and an encoding per
    candidate. It may draw the chance of the action itself otherwise than the engine does.
    """
    _PLAYOUTS[(_key(game_name), policy)] = (playout, check)
    if choose is not None:
        _CHOICES[(_key(game_name), policy)] = choose
    if values is not None:
        _VALUES[(_key(game_name), policy)] = values


def rollout_policies(game_name: str) -> list[str]:
    """The names of the compiled rollouts registered for ``game_name``, sorted."""
    key = _key(game_name)
    return sorted(policy for name, policy in _PLAYOUTS if name == key)


def compiled_playout(
    game: Game[Any, Any, Any], policy: str = RANDOM_ROLLOUT
) -> Callable[[Any, int], tuple[float, ...]] | None:
    """The compiled playout ``policy`` registered for ``game``'s name if it serves
    ``game``'s options, else None."""
    playout, _check = _PLAYOUTS.get((_key(game.name), policy), (None, None))
    if playout is None or compiled_refusal(game, policy) is not None:
        return None
    return resolve(playout)


def compiled_refusal(game: Game[Any, Any, Any], policy: str = RANDOM_ROLLOUT) -> str | None:
    """Why the compiled playout ``policy`` registered for ``game``'s name does not serve
    ``game``'s options, in its own words (a deck past what its arrays hold, an option it
    does not serve); None where it does, or where none is registered."""
    _playout, check = _PLAYOUTS.get((_key(game.name), policy), (None, None))
    if check is None:
        return None
    try:
        resolve(check)(game)
    except (ValueError, MeepleError) as exc:
        return str(exc)
    return None


def opponent_policies(game_name: str) -> list[str]:
    """The names of the compiled rollouts of ``game_name`` that can also choose one action
    (``register_playout``'s ``choose``), sorted."""
    key = _key(game_name)
    return sorted(policy for name, policy in _CHOICES if name == key)


def compiled_choice(
    game: Game[Any, Any, Any], policy: str
) -> Callable[[Any, int, int], Any] | None:
    """The single-action form of the compiled rollout ``policy`` for ``game`` if it is
    registered and serves ``game``'s options, else None."""
    choose = _CHOICES.get((_key(game.name), policy))
    if choose is None or compiled_playout(game, policy) is None:
        return None
    return resolve(choose)


def compiled_values(
    game: Game[Any, Any, Any], policy: str
) -> Callable[[Any, int, list[Any], int], list[float]] | None:
    """The all-candidates form of the compiled rollout ``policy`` for ``game``
    (``register_playout``'s ``values``) if it is registered and serves ``game``'s options,
    else None."""
    values = _VALUES.get((_key(game.name), policy))
    if values is None or compiled_playout(game, policy) is None:
        return None
    return resolve(values)


def game_agents(game_name: str) -> dict[str, Any]:
    """Agents registered for ``game_name`` with :func:`register_agent`, by name, those of
    the installed agent packages (the ``meeple.agents`` entry points) included."""
    _load_agent_plugins()
    return dict(_EXTRA_AGENTS.get(_key(game_name), {}))


def _load_agent_plugins() -> None:
    """Import every module of the ``meeple.agents`` entry points, once: each registers its
    agents with :func:`register_agent` as it is imported. A package that does not load, or
    registers no agent, is AgentPackageError in one line naming it and why; the next lookup
    tries again."""
    _load_group(
        "meeple.agents", "agent", AgentPackageError, _registered_agents, _no_agent, "is of no use"
    )


def _registered_agents() -> set[Any]:
    return {(game, name) for game, agents in _EXTRA_AGENTS.items() for name in agents}


def _no_agent(module: str, new: set[Any]) -> str | None:
    """Why an agent package registered nothing, or None where it registered an agent."""
    if new:
        return None
    return (
        "it registers no agent (call meeple.core.registry.register_agent(game, name, "
        "factory) when it is imported)"
    )


_JUDGES: dict[str, Any] = {}


def register_judge(game_name: str, factory: Any) -> None:
    """Offer a judge of decisions for one game: ``factory(game, settings)`` makes an object
    with ``judge(history, moves, seat, chosen)`` (:class:`meeple.core.review.Judge`).

    Like agents, judges that need a solver are registered by the layer that has one; a game
    without a judge is judged by search (``meeple.lab.review.make_judge``)."""
    _JUDGES[_key(game_name)] = factory


def game_judge(game_name: str) -> Any | None:
    """The judge factory registered for ``game_name``, or None."""
    return _JUDGES.get(_key(game_name))


_BATCHES: dict[str, Ref] = {}


def register_batch(game_name: str, factory: Ref) -> None:
    """Offer batched rules for one game: ``factory(game)`` makes a
    :class:`meeple.core.batch.BatchRules` for that configuration, or raises
    :class:`~meeple.core.errors.MeepleError` naming the options it does not serve. Like a
    playout, ``factory`` may be ``"package.module:name"``, imported at its first use."""
    _BATCHES[_key(game_name)] = factory


def batch_rules(game: Game[Any, Any, Any]) -> Any:
    """The batched rules of ``game``'s configuration; MeepleError naming the games that
    have them if this one does not."""
    factory = _BATCHES.get(_key(game.name))
    if factory is None:
        offered = ", ".join(sorted(_BATCHES)) or "none"
        raise MeepleError(f"{game.title} has no batched rules yet; games that have: {offered}")
    return resolve(factory)(game)
