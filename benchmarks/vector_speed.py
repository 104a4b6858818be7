"""Steps a second of the batched environments against OpenSpiel and meeple's PettingZoo.

    .venv/bin/python benchmarks/vector_speed.py --seconds 2 --repeat 3 --batch 1024

Every measure steps random legal actions and produces, at every step, what a learner needs:
the batched environment (``meeple.envs.vector``) its observations, masks and rewards for
the whole batch; OpenSpiel's C++ ``dots_and_boxes`` 3x4, stepped from Python, each state's
legal actions and observation tensor; meeple's PettingZoo adapter (``env(game)``) each
``last()``. The batched measures draw their random legal ids with
``meeple.core.batch.random_legal_ids`` (compiled, as a learner's batched policy would be),
the others with NumPy per step. Rounds are interleaved and the median of ``--repeat`` is
printed with the ratio of the game's batched environment to each: the ratios are the
figures to read on a shared machine. The batched environment runs its kernels on every
core numba finds; ``OMP_WAIT_POLICY=ACTIVE`` lets its threads spin between kernels (faster
on a machine it has to itself).

A step is one seat's action in one game: the batched environments of The Triangle Clock and
Erd take both seats' actions in one call, so each of their calls counts the seats that
acted (the AEC adapter takes them one at a time); Erosion's and Squad Combat's (two players,
the demo decks) step one seat's action per game, as the adapter does. ``--games`` picks the
games (default: all); ``--players`` sets Erosion's (default 2).
"""

from __future__ import annotations

import os

# numba's OpenMP threads spin while they wait for work by default; on a machine whose cores
# other processes share, that spinning took a 2-thread batch step from 1.2 ms to 24 ms
# (measured), so waiting threads sleep unless the caller says otherwise.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np
from rich.console import Console
from rich.table import Table

from meeple.core.batch import random_legal_ids
from meeple.envs.pettingzoo import env as pettingzoo_env
from meeple.envs.vector import MeepleVectorEnv


def batched_steps(seconds: float, batch: int, game: str, **options: str | int) -> float:
    """Steps a second of a batched game: one seat's action in one game, so a game whose
    seats act at once (The Triangle Clock, Erd: every acting seat in one call) counts the
    seats that acted."""
    env = MeepleVectorEnv(game, num_envs=batch, **options)
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += int(info["acting"].sum()) if env.simultaneous else batch
        _, _, _, _, info = env.step(random_legal_ids(info["action_mask"], rng))
    return steps / (time.perf_counter() - start)


def spiel_steps(seconds: float) -> float:
    """Steps a second of OpenSpiel's ``dots_and_boxes`` 3x4 with an observation tensor."""
    import pyspiel

    game = pyspiel.load_game("dots_and_boxes", {"num_rows": 3, "num_cols": 4})
    rng = np.random.default_rng(0)
    steps, start = 0, time.perf_counter()
    state = game.new_initial_state()
    while time.perf_counter() - start < seconds:
        if state.is_terminal():
            state.returns()
            state = game.new_initial_state()
        legal = state.legal_actions()
        state.observation_tensor()
        state.apply_action(legal[rng.integers(len(legal))])
        steps += 1
    return steps / (time.perf_counter() - start)


def pettingzoo_steps(seconds: float, game: str, **options: str | int) -> float:
    """Steps a second of meeple's PettingZoo (AEC) adapter of ``game``."""
    e = pettingzoo_env(game, **options)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        observation, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.reset(seed=steps)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        e.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps / (time.perf_counter() - start)


GAMES = ("edges", "triangle-clock", "erd", "erosion", "squad-combat")
"""The games with batched rules this benchmark measures."""


def main() -> None:
    """Measure each, interleaved, and print the medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--board", default="3x4")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--players", type=int, default=2, choices=range(2, 6))
    args = parser.parse_args()
    chosen = args.games.split(",")
    unknown = sorted(set(chosen) - set(GAMES))
    if unknown:
        parser.error(f"--games takes {', '.join(GAMES)}, not {', '.join(unknown)}")
    # Per game, its measures; the first is the batched environment the others are set against.
    groups: dict[str, dict[str, Callable[[], float]]] = {}
    if "edges" in chosen:
        batched_steps(
            0.2, args.batch, "edges", board=args.board
        )  # compile (or load) the kernels first
        groups["edges"] = {
            f"meeple batched Edges {args.board}, {args.batch} games": lambda: batched_steps(
                args.seconds, args.batch, "edges", board=args.board
            ),
            "OpenSpiel dots_and_boxes 3x4 (C++, stepped from Python)": lambda: spiel_steps(
                args.seconds
            ),
            f"meeple PettingZoo Edges {args.board}": lambda: pettingzoo_steps(
                args.seconds, "edges", board=args.board
            ),
        }
    if "triangle-clock" in chosen:
        batched_steps(0.2, args.batch, "triangle-clock")
        groups["triangle-clock"] = {
            f"meeple batched The Triangle Clock, {args.batch} games": (
                lambda: batched_steps(args.seconds, args.batch, "triangle-clock")
            ),
            "meeple PettingZoo The Triangle Clock": lambda: pettingzoo_steps(
                args.seconds, "triangle-clock"
            ),
        }
    if "erd" in chosen:
        batched_steps(0.2, args.batch, "erd")
        groups["erd"] = {
            f"meeple batched Erd, {args.batch} matches": lambda: batched_steps(
                args.seconds, args.batch, "erd"
            ),
            "meeple PettingZoo Erd": lambda: pettingzoo_steps(args.seconds, "erd"),
        }
    if "erosion" in chosen:
        batched_steps(0.2, args.batch, "erosion", players=args.players)
        groups["erosion"] = {
            f"meeple batched Erosion ({args.players} players), {args.batch} games": lambda: (
                batched_steps(args.seconds, args.batch, "erosion", players=args.players)
            ),
            f"meeple PettingZoo Erosion ({args.players} players)": lambda: pettingzoo_steps(
                args.seconds, "erosion", players=args.players
            ),
        }
    if "squad-combat" in chosen:
        batched_steps(0.2, args.batch, "squad-combat")
        groups["squad-combat"] = {
            f"meeple batched Squad Combat, {args.batch} games": lambda: batched_steps(
                args.seconds, args.batch, "squad-combat"
            ),
            "meeple PettingZoo Squad Combat": lambda: pettingzoo_steps(
                args.seconds, "squad-combat"
            ),
        }
    rates = {name: [] for group in groups.values() for name in group}
    for _ in range(args.repeat):
        for group in groups.values():
            for name, measure in group.items():
                rates[name].append(measure())
    table = Table(title="steps a second (median of the rounds)")
    for column in ("measure", "steps/s", "range", "batched / this"):
        table.add_column(column)
    for group in groups.values():
        medians = {name: statistics.median(rates[name]) for name in group}
        ours = next(iter(medians.values()))
        for name in group:
            values = rates[name]
            table.add_row(
                name,
                f"{medians[name]:,.0f}",
                f"{min(values):,.0f}-{max(values):,.0f}",
                f"{ours / medians[name]:.1f}x",
            )
    Console().print(table)


if __name__ == "__main__":
    main()
