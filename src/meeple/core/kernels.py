"""Compiled kernels (numba) whose cache on disk is believed only for the sources it came from.

numba's ``cache=True`` checks a cached function against its *own* file only. A kernel that
calls a kernel of another module, or reads a constant defined in one, keeps its old machine
code when only that other module changes: the fast Squad Combat rules could go on running
yesterday's compiled transitions after a ``git pull``, and the differential tests that prove them
equal to the rules engine would be testing the old code. (Measured: a cached ``g`` calling
``f`` of another file still returned the old ``f``'s result after ``f`` changed.)

:func:`kernel` is the decorator the compiled modules use instead of ``njit(cache=True)``.
It keeps each function's cache in a folder named by a hash of every Python source in the
function's package folder, sub-packages included (and of the kernel modules), so any change
there starts a fresh cache and the stale one is removed
(:func:`meeple.core.kernel_cache.cache_folder`, which says where the folder is). A game's
compiled twin lives in its ``compiled/`` sub-package and reads the game's constants (deck
sizes, steps, seats), so kernels defined there are keyed by the whole game package
(:func:`~meeple.core.kernel_cache.sources_root`). Where no folder is writable the kernel
compiles on every run and caches nothing.
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numba
from numba import njit
from numba.core import types

from meeple.core.errors import PositionError
from meeple.core.kernel_cache import cache_folder, sources_root

_DECORATING = threading.Lock()
"""Held while ``numba.config.CACHE_DIR`` points at one package's folder: the server's agent
threads may import two games' compiled modules at once."""


def kernel(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """A decorator like ``njit(**options)`` whose machine code is cached on disk for the
    present sources of the function's package (see the module docstring), and which a
    kernel calling it compiles once for every signed integer type (:func:`one_integer_type`)."""

    def decorate(function: Callable[..., Any]) -> Any:
        folder = cache_folder(sources_root(Path(inspect.getfile(function)).parent))
        if folder is None:
            return one_integer_type(njit(**options)(function))
        # numba reads CACHE_DIR when a function is decorated (its cache locator is chosen
        # then), so setting it around the decoration alone leaves other code's caches alone.
        with _DECORATING:
            # numba.config sets its settings from the environment at import: none is declared.
            saved = numba.config.CACHE_DIR  # type: ignore[attr-defined]
            numba.config.CACHE_DIR = str(folder)  # type: ignore[attr-defined]
            try:
                return one_integer_type(njit(cache=True, **options)(function))
            finally:
                numba.config.CACHE_DIR = saved  # type: ignore[attr-defined]

    return decorate


def _widened(argument: types.Type) -> types.Type:
    """A call's argument type as the callee is compiled for it: a constant as its type
    (``Literal[int](0)`` as ``int64``), a signed integer as ``int64``."""
    argument = types.unliteral(argument)
    # numba's Integer sets signed and bitwidth in __init__, from its name, undeclared.
    if isinstance(argument, types.Integer) and argument.signed and argument.bitwidth < 64:  # type: ignore[attr-defined]
        return types.int64
    return argument


def one_integer_type(dispatcher: Any) -> Any:
    """``dispatcher``, compiled for a call from another kernel with every constant and
    signed integer argument as ``int64``.

    numba compiles a kernel once per distinct signature of the calls it meets, and by
    default a constant argument is a signature of its own (``size(s, R, 0)`` and
    ``size(s, R, 1)`` two compiles) as is each integer width (an ``int16`` read from a row,
    an ``int64`` loop index): the compiled twins' helpers were compiled up to 17 times
    each, and Erosion's twin took half as long again to compile as it does now. The
    values are the same: numba's arithmetic on a narrower integer gives an ``int64``
    already (``abs`` and ``~`` keep the width, and give the same values wherever the
    narrow width holds them), and a value stored into an array takes the array's type
    either way. Calls from Python are left as numba types them.
    """
    resolve = dispatcher.get_call_template

    def get_call_template(args: tuple[types.Type, ...], kws: dict[str, types.Type]) -> Any:
        return resolve(tuple(map(_widened, args)), {k: _widened(v) for k, v in kws.items()})

    # numba's typing of a call from compiled code asks the dispatcher object for this.
    dispatcher.get_call_template = get_call_template
    return dispatcher


_G = TypeVar("_G")
_T = TypeVar("_T")

PER_GAME_LIMIT = 64
"""How many games' tables :func:`per_game` keeps before it starts afresh."""


def by_identity(limit: int) -> Callable[[Callable[[_G], _T]], Callable[[_G], _T]]:
    """A decorator keeping ``make(x)`` per object ``x`` by identity (``x`` held, so its id
    stays its own), for a value asked again and again of the same object where hashing the
    object would cost more than making the value; at most ``limit`` are kept before it
    starts afresh (``.cache_clear()`` forgets them). Errors ``make`` raises are not kept."""

    def decorate(make: Callable[[_G], _T]) -> Callable[[_G], _T]:
        kept: dict[int, tuple[Any, Any]] = {}

        @functools.wraps(make)
        def made_for(x: _G) -> _T:
            found = kept.get(id(x))
            if found is not None and found[0] is x:
                return found[1]
            if len(kept) >= limit:
                kept.clear()
            made = make(x)
            kept[id(x)] = (x, made)
            return made

        made_for.cache_clear = kept.clear  # type: ignore[attr-defined]
        return made_for

    return decorate


def per_game(make: Callable[[_G], _T]) -> Callable[[_G], _T]:
    """``make(game)`` kept per game object (:func:`by_identity`), since a search asks for a
    game's compiled tables at every rollout; at most :data:`PER_GAME_LIMIT` games are kept."""
    return by_identity(PER_GAME_LIMIT)(make)


def encoder(encode: Callable[[_G], _T]) -> Callable[[_G], _T]:
    """A compiled twin's ``encode`` (a rules-engine state to the twin's array), refusing a
    state the array cannot hold with a PositionError that says so: a position read from
    outside may hold a count past the array's integer width, or a text (an ending) the twin
    has no code for, which numpy and the twin's tables would answer with an OverflowError,
    a ValueError or an IndexError. A state the rules reach is always held."""

    @functools.wraps(encode)
    def checked(state: _G) -> _T:
        try:
            return encode(state)
        except (OverflowError, ValueError, IndexError, KeyError) as exc:
            title = state.game.title  # type: ignore[attr-defined]
            raise PositionError(
                f"{title}'s compiled rules cannot hold this position ({exc}): its counts are "
                "past what a game reaches, or a text is not one the rules write"
            ) from None

    return checked
