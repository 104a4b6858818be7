"""The sizes of the one-game adapters' observations: the size table of docs/envs.md.

    .venv/bin/python benchmarks/observation_sizes.py
    .venv/bin/python benchmarks/observation_sizes.py --fresh 5

Prints a Markdown row per configuration of the table: the ``"view"`` encoding's size (every
player count of a game in one cell) and the ``"designed"`` one's. With ``--fresh N`` it also
times learning each encoder and reading the kept one back (as a later process does), and
plays N seeded random games the encoder did not learn from (seeds from 900,000) and counts the
string leaves of every seat's view without their one-hot slot: free text (left out on
purpose), entries of a list longer than any seen while learning, and the rest (lost words).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from meeple.core.registry import make
from meeple.envs import encoding
from meeple.envs.encoding import encoder_for, learn_encoder, leaves, random_views
from meeple.envs.observation import observation_for

ROWS: list[tuple[str, list[tuple[str, dict[str, Any]]]]] = [
    (
        "Edges (3x4; 2x3; 5x5 double)",
        [
            ("edges", {}),
            ("edges", {"board": "2x3"}),
            ("edges", {"board": "5x5", "double": True}),
        ],
    ),
    ("Erd", [("erd", {})]),
    (
        "Erosion (2; 3; 4; 5 players)",
        [("erosion", {"players": n} if n > 2 else {}) for n in (2, 3, 4, 5)],
    ),
    *(
        (
            f"Erosion, `{word}` (2; 3; 4; 5 players)",
            [("erosion", {"players": n, **options}) for n in (2, 3, 4, 5)],
        )
        for word, options in (
            ("advanced=true", {"advanced": True}),
            ("legend=basic", {"legend": "basic"}),
            ("typed_weathering=pass-over", {"typed_weathering": "pass-over"}),
        )
    ),
    ("The Triangle Clock", [("triangle-clock", {})]),
    (
        "Squad Combat (2; 3; 4 players)",
        [("squad-combat", {"players": n} if n > 2 else {}) for n in (2, 3, 4)],
    ),
]


def missing(game: Any, games: int) -> tuple[int, int, int, int]:
    """String leaves of fresh games: all, free text, past a list's learned end, lost."""
    encoder = encoder_for(game)
    words = {path for path, token in encoder.slots if token not in ("?", None)}
    total = free = past = lost = 0
    for view in random_views(game, range(900_000, 900_000 + games)):
        for path, value in leaves(view):
            if not isinstance(value, str):
                continue
            total += 1
            if (path, value) in encoder.slots:
                continue
            if (path, "?") not in encoder.slots:
                past += 1
            elif path not in words:
                free += 1
            else:
                lost += 1
    return total, free, past, lost


def main() -> None:
    """Print the size table's rows, and with --fresh what fresh games' views lose."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fresh", type=int, default=0, help="fresh games a configuration")
    args = parser.parse_args()
    print('| game (options) | `"view"` | `"designed"` |')
    print("| --- | --- | --- |")
    report = []
    for title, configs in ROWS:
        view, designed = [], []
        for name, options in configs:
            game = make(name, **options)
            view.append(f"{observation_for(game, 'view').size:,}")
            designed.append(f"{observation_for(game, 'designed').size:,}")
            if args.fresh:
                start = time.perf_counter()
                learn_encoder(game)
                learned = time.perf_counter() - start
                encoding._cached.cache_clear()  # as a new process: the kept encoder read back
                start = time.perf_counter()
                encoder_for(game)
                read = time.perf_counter() - start
                total, free, past, lost = missing(game, args.fresh)
                report.append(
                    f"{name} {options or ''}: learned in {learned:.1f} s, read back in "
                    f"{read:.2f} s; {total:,} string leaves in {args.fresh} fresh games: "
                    f"{free:,} free text, {past:,} past a list's learned end, {lost:,} lost"
                )
        print(f"| {title} | {'; '.join(view)} | {'; '.join(designed)} |", flush=True)
    for line in report:
        print(line)


if __name__ == "__main__":
    main()
