"""An Erd solution on disk: the verified cache of :mod:`meeple.solvers.cache`, as JSON.

A stored solution holds the model (each state's table and stage game, allocations written in
the game's notation) and every mix the value iteration found, so the agent and the command
line use it without solving again. The cache's check binds the entry to its key, which is a
hash of the options solved for and this format; anything that fails it is solved again.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np

from meeple.core.errors import MeepleError
from meeple.games.erd.rules import Cards, ErdGame, Side, parse_allocation
from meeple.solvers.erd.iteration import Solution
from meeple.solvers.erd.model import ErdModel, StageGame

FORMAT = "erd-solve/2"
"""Part of every key. 2: value iteration solves a stage game on its last support where that
holds (``iteration.value_iteration``'s ``reuse``): the values are format 1's to round-off, but
where a stage game has several optimal mixes the one kept can differ, and the agents' results
against imperfect opponents with it; a new format keeps the two apart."""

# Mixes are stored sparse: (class, probability) for the classes with any weight.
_KEEP = 1e-15


SUPERSEDED = ("erd-solve/1",)
"""Earlier formats: a new solve removes their entry for the same options (tens of MB each,
never read again)."""


def solution_key(options: dict[str, Any], horizon: int, version: str = FORMAT) -> str:
    """The cache key of a solve: the options that change play, the round limit, the format."""
    text = json.dumps({"format": version, "options": options, "horizon": horizon}, sort_keys=True)
    return "erd-" + hashlib.sha256(text.encode()).hexdigest()[:32]


def _side(side: Side) -> list[int]:
    return [*side.reserve, *side.discard, side.turrets]


def _unside(numbers: list[int]) -> Side:
    return Side(Cards(*numbers[:3]), Cards(*numbers[3:6]), numbers[6])


def _sparse(mix: np.ndarray) -> list[list[float]]:
    return [[int(i), float(mix[i])] for i in np.flatnonzero(mix > _KEEP)]


def _dense(pairs: list[list[float]], size: int) -> np.ndarray:
    mix = np.zeros(size)
    for i, p in pairs:
        mix[int(i)] = p
    return mix


def to_json(solution: Solution, summary: dict[str, Any]) -> dict[str, Any]:
    """Everything needed to use a solution again, and ``summary`` (what the CLI prints)."""
    model = solution.model
    states = []
    for stage, history in zip(model.states, solution.history, strict=True):
        states.append(
            {
                "sides": [_side(s) for s in stage.sides],
                "rows": [[str(a) for a in c] for c in stage.rows],
                "columns": [[str(a) for a in c] for c in stage.columns],
                "cells": [
                    a.tolist()
                    for a in (stage.successor, stage.sign, stage.payoff, stage.reason, stage.flags)
                ],
                "history": [[k, _sparse(r), _sparse(c)] for k, r, c in history],
            }
        )
    return {
        "horizon": solution.horizon,
        "start": [_side(s) for s in model.start],
        "values": [v.tolist() for v in solution.values],
        "converged": solution.converged,
        "last_change": solution.last_change,
        "programs": solution.programs,
        "reused": solution.reused,
        "seconds": solution.seconds,
        "engine_calls": model.engine_calls,
        "allocation_pairs": model.allocation_pairs,
        "states": states,
        "summary": summary,
    }


def from_json(game: ErdGame, data: dict[str, Any]) -> Solution:
    """Rebuild a solution stored by :func:`to_json` for ``game``; ValueError if it does not
    hold together (a cache entry passed its check, so this is a last line of defence)."""
    try:
        start = tuple(_unside(s) for s in data["start"])
        model = ErdModel(game, (start[0], start[1]))
        model.engine_calls = int(data["engine_calls"])
        model.allocation_pairs = int(data["allocation_pairs"])
        history = []
        for i, entry in enumerate(data["states"]):
            sides = tuple(_unside(s) for s in entry["sides"])
            rows = [[parse_allocation(a) for a in c] for c in entry["rows"]]
            columns = [[parse_allocation(a) for a in c] for c in entry["columns"]]
            kinds = (np.int32, np.int8, float, np.int8, np.int8)
            cells = [np.array(a, dtype=k) for a, k in zip(entry["cells"], kinds, strict=True)]
            for a in cells:
                if a.shape != (len(rows), len(columns)):
                    raise ValueError(f"state {i}: a table of the wrong shape")
            stage = StageGame((sides[0], sides[1]), rows, columns, *cells)
            model.states.append(stage)
            model.index[stage.sides] = i
            history.append(
                [
                    (int(k), _dense(r, len(rows)), _dense(c, len(columns)))
                    for k, r, c in entry["history"]
                ]
            )
        values = [np.array(v, dtype=float) for v in data["values"]]
        if any(v.shape != (len(model.states),) for v in values):
            raise ValueError("values of the wrong length")
        return Solution(
            model,
            int(data["horizon"]),
            values,
            history,
            converged=bool(data["converged"]),
            last_change=float(data["last_change"]),
            programs=int(data["programs"]),
            seconds=float(data["seconds"]),
            reused=int(data.get("reused", 0)),
        )
    except (KeyError, TypeError, IndexError, ValueError, MeepleError) as exc:
        raise ValueError(f"the stored Erd solution is malformed ({exc!r})") from None
