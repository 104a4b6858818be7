"""Solve an Erd rules version once, or read it back from the verified cache.

The solver's unit is one game (``best_of`` 1): every game of a match starts from full
Reserves, so a match is a sequence of the same game (docs/erd-solved.md argues this).
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from meeple.core.errors import MeepleError
from meeple.core.files import exists
from meeple.games.erd.rules import VERSIONS, ErdGame, ErdOptions, rules_version
from meeple.solvers import cache
from meeple.solvers.erd.checks import cross_check, stage_exploitability
from meeple.solvers.erd.iteration import Solution, value_iteration
from meeple.solvers.erd.model import build_model, erd_game
from meeple.solvers.erd.store import FORMAT, SUPERSEDED, from_bytes, solution_key, to_bytes

RULES_OPTIONS = ("rules", "turret_lifetime", "escalation_lights", "rush_tiebreak")
"""The options that change a game's play, each always named in a solve's key;
``round_limit`` is the solver's horizon, and ``best_of`` and ``match_draws`` only string
games together."""

VERSION_OPTIONS = ("reserve", "mercy")
"""The options that change the rules version's starting Reserve and mercy rule: named in a
solve's key only where they change them, so a version as shipped keeps the key (and the
cached solve) it had before they existed, and ``mercy=0.02`` under 0.02 is 0.02's solve."""

PLAY_OPTIONS = RULES_OPTIONS + VERSION_OPTIONS
"""Every option that changes a game's play."""


def play_options(options: ErdOptions) -> dict[str, Any]:
    """The options of ``options`` that change play: :data:`RULES_OPTIONS`, and each of
    :data:`VERSION_OPTIONS` that makes the game's rules differ from its version's, as the
    game reads it (a starting Reserve as letters, a mercy rule by name)."""
    play = {k: getattr(options, k) for k in RULES_OPTIONS}
    printed = VERSIONS[options.rules]
    version = rules_version(options)
    if version.starting_reserve != printed.starting_reserve:
        play["reserve"] = str(version.starting_reserve)
    if version.mercy != printed.mercy:
        play["mercy"] = version.mercy or "none"
    return play


def solved_options(options: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The validated options that change play (:func:`play_options`), and the round limit
    (the horizon)."""
    parsed = ErdOptions.parse("erd", options)  # OptionError in the words of meeple play
    return play_options(parsed), parsed.round_limit


def options_of(game: ErdGame) -> dict[str, Any]:
    """The options a solve of ``game`` is for: those that change play, and its round limit."""
    return {**play_options(game.options), "round_limit": game.options.round_limit}


def is_stored(game: ErdGame, folder: Path | None = None) -> bool:
    """Whether the cache holds a solution for ``game``'s rules (not yet checked: reading it
    back checks it, and solves again if it fails)."""
    play, horizon = solved_options(options_of(game))
    folder = folder or cache.default_cache_dir()
    # A folder the system refuses holds nothing: the solve goes on without its cache, as
    # for a folder it cannot write.
    return exists(cache.bytes_path(folder, solution_key(play, horizon)))


def game_for(options: dict[str, Any]) -> ErdGame:
    """The single game the solver models for these options."""
    return erd_game(**options)


def summarise(solution: Solution, cross_sample: int = 50) -> dict[str, Any]:
    """What a solve reports: the opening's value and mix, the cost, and the checks."""
    model = solution.model
    start = model.start_index
    row, _ = solution.mixes(start, solution.horizon)
    stage = model.states[start]
    mix: list[list[Any]] = sorted(
        ([str(stage.rows[i][0]), len(stage.rows[i]), float(row[i])] for i in range(len(row))),
        key=lambda e: -e[2],
    )
    checked, disagreement = cross_check(solution, cross_sample)
    return {
        "opening_value": solution.opening_value,
        "opening_mix": [m for m in mix if m[2] > 1e-9],
        "states": len(model.states),
        "programs": solution.programs,
        "reused": solution.reused,
        "sweeps": solution.sweeps,
        "converged": solution.converged,
        "last_change": solution.last_change,
        "seconds": solution.seconds,
        "allocation_pairs": model.allocation_pairs,
        "engine_calls": model.engine_calls,
        "exploitability": stage_exploitability(solution),
        "cross_checked": checked,
        "cross_check_difference": disagreement,
    }


def solve_erd(
    options: dict[str, Any],
    folder: Path | None = None,
    use_cache: bool = True,
    on_build: Callable[[int, int], None] | None = None,
    on_sweep: Callable[[int, int, int], None] | None = None,
    note: Callable[[str], None] | None = None,
    solve_if_missing: bool = True,
) -> tuple[Solution, dict[str, Any], bool]:
    """The solution for these options (validated), its summary, and whether it came from the
    cache. ``note`` hears why a cache entry was not believed, or why a new solution could
    not be kept (it is returned all the same). With ``solve_if_missing``
    false, a solution not in the cache is a MeepleError naming the command that solves it
    (which takes a minute or so) instead of a solve."""
    play, horizon = solved_options(options)
    game = game_for(play)
    folder = folder or cache.default_cache_dir()
    key = solution_key(play, horizon)
    if use_cache:
        entry = cache.read_bytes(folder, key, FORMAT)
        if entry.problem and note is not None:
            note(f"{entry.problem}; solving again")
        if entry.payload is not None:
            try:
                return (*from_bytes(game, entry.payload), True)
            except ValueError as exc:
                if note is not None:
                    note(f"{exc}; solving again")
    if not solve_if_missing:
        raise MeepleError(
            f"Erd under these options ({solve_command_words(play, horizon)}) is not solved "
            f"in {folder} yet; solve it first (under a minute for 200 rounds of 0.02 on a "
            f"2-core machine) with: {solve_command(play, horizon, folder)}"
        )
    started = time.perf_counter()
    model = build_model(game, progress=on_build)
    built = time.perf_counter() - started
    solution = value_iteration(model, horizon, progress=on_sweep)
    summary = {**summarise(solution), "build_seconds": built}
    if use_cache:
        try:
            cache.store_bytes(folder, key, FORMAT, to_bytes(solution, summary))
        except OSError as exc:
            # The solution is good without the cache: play and answers go on, only the next
            # run solves it again.
            if note is not None:
                note(
                    f"cannot keep the solution in {folder} ({exc.strerror or exc}); the next "
                    "run solves it again (--cache-dir names a folder to keep it in)"
                )
            return solution, summary, False
        for old in SUPERSEDED:
            cache.forget(folder, solution_key(play, horizon, old))
    return solution, summary, False


def _changed(play: dict[str, Any], horizon: int) -> dict[str, Any]:
    """The options of a solve that differ from the defaults, the rules version always: a
    message naming every default too read as if each had been asked for."""
    defaults, default_horizon = solved_options({})
    changed = {k: v for k, v in play.items() if k == "rules" or v != defaults.get(k)}
    if horizon != default_horizon:
        changed["round_limit"] = horizon
    return changed


def solve_command_words(play: dict[str, Any], horizon: int) -> str:
    """The options of a solve as ``name=value`` words (the rules version, those not at
    their defaults, and the round limit), for messages."""
    words = {**_changed(play, horizon), "round_limit": horizon}
    return ", ".join(f"{k}={v}" for k, v in words.items())


def solve_command(play: dict[str, Any], horizon: int, folder: Path) -> str:
    """The ``meeple solve erd`` command that solves these options into ``folder``, with no
    flag for an option at its default (nor for the default folder)."""
    changed = _changed(play, horizon)
    rules = changed.pop("rules")
    flags = [] if rules == solved_options({})[0]["rules"] else [f"--rules {rules}"]
    flags += [f"-o {k}={v}" for k, v in changed.items()]
    if folder != cache.default_cache_dir():
        flags.append(f"--cache-dir {shlex.quote(str(folder))}")
    return " ".join(["meeple solve erd", *flags])
