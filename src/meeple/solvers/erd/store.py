"""An Erd solution on disk: a bytes entry of the verified cache (:mod:`meeple.solvers.cache`).

A stored solution holds the model (each state's table and stage game, allocations written in
the game's notation) and every mix the value iteration found, so the agent and the command
line use it without solving again. The cache's check binds the entry to its key, which is a
hash of the options solved for and this format; anything that fails it is solved again.

The entry is NumPy's compressed ``.npz`` of flat arrays (each state's tables one after
another, the mixes as sparse pairs), read back without pickle: a tenth of the same solution's
size as JSON (format 2), and read back in a fraction of the seconds JSON took in every
process that played it.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from typing import Any

import numpy as np

from meeple.core.errors import MeepleError
from meeple.games.erd.rules import Cards, ErdGame, Side, parse_allocation
from meeple.solvers.erd.iteration import Solution
from meeple.solvers.erd.model import ErdModel, StageGame

FORMAT = "erd-solve/3"
"""Part of every key. 2: value iteration solves a stage game on its last support where that
holds (``iteration.value_iteration``'s ``reuse``): the values are format 1's to round-off, but
where a stage game has several optimal mixes the one kept can differ, and the agents' results
against imperfect opponents with it; a new format keeps the two apart. 3: the same solution
stored as arrays (``.npz``), not JSON."""

# Mixes are stored sparse: (class, probability) for the classes with any weight.
_KEEP = 1e-15


SUPERSEDED = ("erd-solve/1", "erd-solve/2")
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


_CELLS = (("successor", np.int32), ("sign", np.int8), ("payoff", np.float64),
          ("reason", np.int8), ("flags", np.int8))  # fmt: skip
"""Each state's tables, with the type each is stored and rebuilt as."""

_SIDES = ("rows", "columns")

_COUNT = np.int32
"""Counts and indices (a state's classes, a history's sweeps): far below 2**31."""


def to_bytes(solution: Solution, summary: dict[str, Any]) -> bytes:
    """Everything needed to use a solution again, and ``summary`` (what the CLI prints), as
    the payload of a cache entry."""
    model = solution.model
    states = model.states
    arrays: dict[str, np.ndarray] = {
        "start": np.array([_side(s) for s in model.start], dtype=np.int64),
        "sides": np.array([[_side(s) for s in stage.sides] for stage in states], dtype=np.int64),
        "values": np.array(solution.values, dtype=np.float64),
    }
    for name in _SIDES:
        classes = [c for stage in states for c in getattr(stage, name)]
        arrays[f"{name}_per_state"] = np.array([len(getattr(st, name)) for st in states], _COUNT)
        arrays[f"{name}_class_sizes"] = np.array([len(c) for c in classes], dtype=_COUNT)
        arrays[f"{name}_text"] = np.array([str(a) for c in classes for a in c], dtype=str)
    for name, kind in _CELLS:
        arrays[name] = np.concatenate([getattr(st, name).ravel() for st in states]).astype(kind)
    # Per entry of each state's history: the sweep, then each mix's weighted classes.
    arrays["history_per_state"] = np.array([len(h) for h in solution.history], dtype=_COUNT)
    arrays["history_sweep"] = np.array(
        [k for history in solution.history for k, _, _ in history], dtype=_COUNT
    )
    for side, name in enumerate(_SIDES):
        # A state's mixes as one table (an entry a row), read row by row: one NumPy call per
        # state rather than one per entry (80,000 of them).
        tables = [
            np.array([entry[1 + side] for entry in history]).reshape(
                len(history), len(getattr(stage, name))
            )
            for stage, history in zip(states, solution.history, strict=True)
        ]
        kept = [table > _KEEP for table in tables]
        arrays[f"{name}_weighted"] = np.concatenate(
            [*(k.sum(axis=1) for k in kept), np.zeros(0, _COUNT)]
        ).astype(_COUNT)
        arrays[f"{name}_class"] = np.concatenate(
            [*(k.nonzero()[1] for k in kept), np.zeros(0, _COUNT)]
        ).astype(_COUNT)
        arrays[f"{name}_p"] = np.concatenate(
            [*(t[k] for t, k in zip(tables, kept, strict=True)), np.zeros(0)]
        )
    facts = {
        "horizon": solution.horizon,
        "converged": solution.converged,
        "last_change": solution.last_change,
        "programs": solution.programs,
        "reused": solution.reused,
        "seconds": solution.seconds,
        "engine_calls": model.engine_calls,
        "allocation_pairs": model.allocation_pairs,
        "summary": summary,
    }
    arrays["facts"] = np.frombuffer(json.dumps(facts).encode(), dtype=np.uint8)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, allow_pickle=False, **arrays)
    return buffer.getvalue()


def from_bytes(game: ErdGame, payload: bytes) -> tuple[Solution, dict[str, Any]]:
    """Rebuild a solution stored by :func:`to_bytes` for ``game``, and its summary;
    ValueError if it does not hold together (a cache entry passed its check, so this is a
    last line of defence)."""
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as stored:
            arrays = {name: stored[name] for name in stored.files}
        return _rebuilt(game, arrays)
    except (KeyError, TypeError, IndexError, ValueError, OSError, EOFError, zipfile.BadZipFile,
            MeepleError) as exc:  # fmt: skip
        raise ValueError(f"the stored Erd solution is malformed ({exc!r})") from None


def _offsets(sizes: np.ndarray, total: int) -> np.ndarray:
    """Where each of consecutive pieces of ``sizes`` starts, and where the last ends;
    ValueError unless they are whole numbers adding up to ``total``."""
    if sizes.ndim != 1 or sizes.dtype.kind not in "iu" or (sizes < 0).any():
        raise ValueError("piece sizes that are not counts")
    ends = np.concatenate([[0], np.cumsum(sizes)])
    if ends[-1] != total:
        raise ValueError("pieces that do not add up to their whole")
    return ends


def _classes(arrays: dict[str, np.ndarray], name: str) -> list[list[list[Any]]]:
    """Each state's classes of allocations for one side (``rows`` or ``columns``)."""
    allocations = [parse_allocation(a) for a in arrays[f"{name}_text"].tolist()]
    sizes = arrays[f"{name}_class_sizes"]
    at = _offsets(sizes, len(allocations))
    classes = [allocations[at[c] : at[c + 1]] for c in range(len(sizes))]
    per_state = arrays[f"{name}_per_state"]
    by_state = _offsets(per_state, len(classes))
    return [classes[by_state[s] : by_state[s + 1]] for s in range(len(per_state))]


def _mixes(
    arrays: dict[str, np.ndarray], name: str, entries: np.ndarray, widths: list[int]
) -> list[np.ndarray]:
    """Per state, its history's mixes for one side, as the rows of one read-only table
    (``entries``: where each state's history starts in the flat arrays, and the last ends)."""
    weighted = arrays[f"{name}_weighted"]
    classes, weights = arrays[f"{name}_class"], arrays[f"{name}_p"]
    if len(weighted) != entries[-1] or len(classes) != len(weights):
        raise ValueError("mixes that do not match their entries")
    if len(classes) and classes.min() < 0:
        raise ValueError("a mix over a class that is not there")
    pairs = _offsets(weighted, len(classes))
    # The entry each weighted class belongs to, counted from its state's first entry.
    owner = np.repeat(np.arange(len(weighted)), weighted)
    tables = []
    for s, width in enumerate(widths):
        first, last = entries[s], entries[s + 1]
        table = np.zeros((last - first, width))
        lo, hi = pairs[first], pairs[last]
        table[owner[lo:hi] - first, classes[lo:hi]] = weights[lo:hi]  # IndexError past width
        table.flags.writeable = False
        tables.append(table)
    return tables


def _rebuilt(game: ErdGame, arrays: dict[str, np.ndarray]) -> tuple[Solution, dict[str, Any]]:
    """The solution and summary the arrays of :func:`to_bytes` hold (see :func:`from_bytes`)."""
    facts = json.loads(arrays["facts"].tobytes())
    start = tuple(_unside(s) for s in arrays["start"].tolist())
    model = ErdModel(game, (start[0], start[1]))
    model.engine_calls = int(facts["engine_calls"])
    model.allocation_pairs = int(facts["allocation_pairs"])
    sides = arrays["sides"].tolist()
    rows, columns = _classes(arrays, "rows"), _classes(arrays, "columns")
    if not len(sides) == len(rows) == len(columns):
        raise ValueError("tables for another number of states")
    shapes = [(len(r), len(c)) for r, c in zip(rows, columns, strict=True)]
    cell_at = _offsets(np.array([r * c for r, c in shapes], dtype=np.int64), len(arrays["sign"]))
    entries = _offsets(arrays["history_per_state"], len(arrays["history_sweep"]))
    if len(entries) != len(sides) + 1:
        raise ValueError("mixes for another number of states")
    row_mixes = _mixes(arrays, "rows", entries, [r for r, _ in shapes])
    column_mixes = _mixes(arrays, "columns", entries, [c for _, c in shapes])
    sweeps = arrays["history_sweep"].tolist()
    history = []
    for s, shape in enumerate(shapes):
        cut = slice(cell_at[s], cell_at[s + 1])
        tables = [arrays[name][cut].astype(kind).reshape(shape) for name, kind in _CELLS]
        red, blue = (_unside(x) for x in sides[s])
        stage = StageGame((red, blue), rows[s], columns[s], *tables)
        model.states.append(stage)
        model.index[stage.sides] = s
        mine = sweeps[entries[s] : entries[s + 1]]
        history.append(list(zip(mine, row_mixes[s], column_mixes[s], strict=True)))
    values = arrays["values"].astype(np.float64)
    if values.ndim != 2 or values.shape[1] != len(sides):
        raise ValueError("values of the wrong length")
    solution = Solution(
        model,
        int(facts["horizon"]),
        list(values),
        history,
        converged=bool(facts["converged"]),
        last_change=float(facts["last_change"]),
        programs=int(facts["programs"]),
        seconds=float(facts["seconds"]),
        reused=int(facts["reused"]),
    )
    return solution, facts["summary"]
