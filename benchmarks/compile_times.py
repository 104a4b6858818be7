"""Where a game's compile goes: each kernel's own compile seconds, from an empty cache.

    .venv/bin/python benchmarks/compile_times.py squad-combat --top 20

Compiles what ``meeple compile`` compiles for one game (its agents and batched rules,
:func:`meeple.agents.warm.warm_game`, then its hints, :func:`meeple.lab.hints.warm_hints`)
into a new, empty ``NUMBA_CACHE_DIR``, timing numba's compile events
(``numba.core.event``). A kernel's own time leaves out the kernels it compiled on the way
(a call to a kernel not yet compiled compiles that one inside it). Prints the kernels by
own time, the sum of own times and the wall time; run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time


def main() -> None:
    """Compile one game's kernels from nothing and print where the time went."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", help="a game's name (edges, erd, erosion, ...)")
    parser.add_argument("--top", type=int, default=25, help="how many kernels to list")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as empty:
        # Before numba is imported: it reads the setting once.
        os.environ["NUMBA_CACHE_DIR"] = empty
        rows = _compile(args.game)
    rows.sort(key=lambda row: -row[0])
    print("| own s | with callees s | kernel |")
    print("| ---: | ---: | --- |")
    for own, total, name in rows[: args.top]:
        print(f"| {own:.2f} | {total:.2f} | `{name}` |")


def _compile(game: str) -> list[tuple[float, float, str]]:
    from numba.core import event

    from meeple.agents.warm import warm_game
    from meeple.lab.hints import warm_hints

    rows: list[tuple[float, float, str]] = []
    # (dispatcher, start, seconds of the kernels compiled inside it)
    open_: list[tuple[object, float, list[float]]] = []

    class Timer(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            open_.append((ev.data["dispatcher"], time.perf_counter(), []))

        def on_end(self, ev: event.Event) -> None:
            dispatcher, start, inner = open_.pop()
            total = time.perf_counter() - start
            if open_:
                open_[-1][2].append(total)
            func = getattr(dispatcher, "py_func", dispatcher)
            name = f"{func.__module__}.{func.__qualname__}"
            rows.append((total - sum(inner), total, name))

    event.register("numba:compile", Timer())
    start = time.perf_counter()
    warm_game(game)
    warm_hints(game)
    wall = time.perf_counter() - start
    print(
        f"{game}: {len(rows)} compiles, {sum(r[0] for r in rows):.1f} s of compiling, "
        f"{wall:.1f} s in all\n"
    )
    return rows


if __name__ == "__main__":
    main()
