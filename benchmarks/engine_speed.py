"""Random games per second: each game's rules engine against its compiled rules, in one run.

    .venv/bin/python benchmarks/engine_speed.py --seconds 2 --repeat 3
    .venv/bin/python benchmarks/engine_speed.py --only erosion
    .venv/bin/python benchmarks/engine_speed.py --only erosion --advanced true --players 5

For every game, from a new game (seed 0 and up), it times uniformly random games played to
the end through the public API (``meeple.make``, ``new_game``, ``legal_actions``, ``apply``):
the *reference*. Where a game has a compiled copy of its rules (a module
``meeple.games.<game>.compiled.rules`` with ``playouts(state, games, seed)``, which plays
``games`` uniformly random games from ``state`` to the end and is proven equal to the rules
engine by a differential test), the same run times that too, and the table shows the ratio.
The two are timed alternately ``--repeat`` times and the median ratio is shown with its
range, since on a shared machine the ratio is steadier than either rate. With ``--only``,
any other ``--name value`` is a game option (as ``meeple simulate`` takes them).
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

import meeple
from meeple.core.game import Game
from meeple.core.registry import game_class


def engine_rate(game: Game, seconds: float) -> float:
    """Uniformly random games to the end through the public API, per second."""
    rng = random.Random(0)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_game(done)
        while not state.is_over:
            player = state.to_act[0]
            state = state.apply(player, rng.choice(state.legal_actions(player)))
        done += 1
    return done / (time.perf_counter() - start)


def compiled_rate(game: Game, playouts: Callable, seconds: float) -> float:
    """Random games per second through a compiled ``playouts(state, games, seed)``."""
    done, batch, start = 0, 16, time.perf_counter()
    while time.perf_counter() - start < seconds:
        playouts(game.new_game(done), batch, seed=done)
        done += batch
        batch = min(batch * 2, 4096)
    return done / (time.perf_counter() - start)


def compiled_playouts(name: str) -> Callable | None:
    """The game's compiled ``playouts`` function, or None where it has no compiled rules."""
    package = game_class(name).__module__.rsplit(".", 1)[0]
    try:
        return importlib.import_module(f"{package}.compiled.rules").playouts
    except ModuleNotFoundError:
        return None


def game_options(words: list[str]) -> dict[str, str]:
    """``--name value`` pairs as game options (``--draw-from one``: ``draw_from="one"``)."""
    if len(words) % 2 or not all(w.startswith("--") for w in words[::2]):
        raise SystemExit(f"game options come as --name value pairs, not {' '.join(words)}")
    pairs = zip(words[::2], words[1::2], strict=True)
    return {name[2:].replace("-", "_"): value for name, value in pairs}


def main() -> None:
    """Measure every registered game (or ``--only`` one) and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="alternating repetitions")
    parser.add_argument("--only", help="one game's name")
    args, rest = parser.parse_known_args()
    options = game_options(rest) if args.only else {}
    if rest and not args.only:
        parser.error("game options (--name value) need --only GAME")
    console = Console()
    shown = " ".join(f"{k}={v}" for k, v in options.items())
    title = "Random games per second, public API vs compiled rules" + (
        f" ({shown})" if shown else ""
    )
    table = Table(title=title)
    for column in ("game", "rules engine games/s", "compiled games/s", "compiled / engine"):
        table.add_column(column, justify="right" if column != "game" else "left")
    for info in meeple.games():
        if args.only and info.name != args.only:
            continue
        game = meeple.make(info.name, **options)
        playouts = compiled_playouts(info.name)
        if playouts is not None:
            playouts(game.new_game(0), 2, seed=0)  # compile (or load numba's cache) first
        engine, compiled = [], []
        for _ in range(args.repeat):
            engine.append(engine_rate(game, args.seconds))
            if playouts is not None:
                compiled.append(compiled_rate(game, playouts, args.seconds))
            console.log(
                f"{info.name}: engine {engine[-1]:,.0f}/s",
                *([f"compiled {compiled[-1]:,.0f}/s"] if compiled else []),
            )
        if compiled:
            ratios = [c / e for c, e in zip(compiled, engine, strict=True)]
            ratio = f"{statistics.median(ratios):.1f}x ({min(ratios):.1f}-{max(ratios):.1f})"
            table.add_row(
                info.name,
                f"{statistics.median(engine):,.0f}",
                f"{statistics.median(compiled):,.0f}",
                ratio,
            )
        else:
            table.add_row(info.name, f"{statistics.median(engine):,.0f}", "-", "-")
    console.print(table)


if __name__ == "__main__":
    main()
