"""A run: a named set of games whose rows go to the results database and a JSONL file.

A run's key is a hash of what it plays (kind, game, options, seats, seed). Running the same
command again finds the games already stored under that key and plays only the rest, so an
interrupted run resumes without losing or repeating finished games, and asking for more
games extends it.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from meeple.core.files import atomic_write
from meeple.lab.simulate import Backend, GameJob, run_jobs
from meeple.store import ResultStore
from meeple.store.results import GameRow, row_json

FLUSH_SECONDS = 1.0
"""Finished games are written to the database at least this often (and at the end)."""

FLUSH_ROWS = 2000
"""...or as soon as this many are waiting: a commit per game (or per 25) cost more than the
games themselves, since SQLite makes each commit durable on disk before it returns."""


class RunSpec(BaseModel):
    """What a run plays; everything but the number of games goes into its key."""

    kind: str = Field(description="simulate, compare or tournament")
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seatings: list[list[str]] = Field(
        description="seat specs of each game, cycled: game k uses seatings[k % len]"
    )
    seed: int = 0
    duplicate: bool = Field(
        default=False,
        description="each deal played once in every seating: game k has the seed of deal "
        "k // len(seatings), so the luck of the deal falls on every agent alike",
    )

    @property
    def key(self) -> str:
        """A stable 12-character identity of the run."""
        fields = self.model_dump(mode="json")
        if not self.duplicate:
            del fields["duplicate"]  # the keys of runs from before the option stay as they were
        canonical = json.dumps(fields, sort_keys=True)
        return hashlib.sha1(canonical.encode()).hexdigest()[:12]

    def job(self, index: int) -> GameJob:
        """The job of game ``index``."""
        seatings = len(self.seatings)
        return GameJob(
            game=self.game,
            options=self.options,
            seats=self.seatings[index % seatings],
            run_seed=self.seed,
            index=index,
            deal=index // seatings if self.duplicate else None,
        )

    def record(self, store: ResultStore) -> None:
        """Record the run in ``store`` under its key (kept as it is when already there), so
        that its games, and a note of the command that plays them, have a run to belong to."""
        store.ensure_run(self.key, self.kind, self.game, self.model_dump(mode="json"))


def execute(
    spec: RunSpec,
    games: int,
    store: ResultStore,
    backend: Backend = "serial",
    workers: int = 1,
    address: str | None = None,
    fresh: bool = False,
    on_row: Callable[[Mapping[str, Any]], None] | None = None,
) -> list[Mapping[str, Any]]:
    """Play the games of ``spec`` not yet stored and return all ``games`` rows by index.

    Rows played now are :class:`GameRow`s, encoded where they were played; rows stored
    before are dicts. Both read alike, and equal when they describe the same game.
    """
    key = spec.key
    spec.record(store)
    if fresh:
        store.forget(key)
    stored: dict[int, Mapping[str, Any]] = {
        row["index"]: row for row in store.rows(key) if row["index"] < games
    }
    if on_row is not None:
        for row in stored.values():
            on_row(row)
    missing = [spec.job(k) for k in range(games) if k not in stored]
    buffer: list[GameRow] = []
    last_flush = time.monotonic()
    rows = run_jobs(missing, backend, workers, address)
    try:
        try:
            for row in rows:
                stored[row["index"]] = row
                buffer.append(row)
                if on_row is not None:
                    on_row(row)
                if len(buffer) >= FLUSH_ROWS or time.monotonic() - last_flush > FLUSH_SECONDS:
                    store.add_rows(key, buffer)
                    buffer, last_flush = [], time.monotonic()
        except KeyboardInterrupt:
            # Games the workers were finishing when Ctrl-C came are kept too.
            buffer.extend(_finishing(rows))
            raise
    finally:
        # Whatever finished is kept, even when the run is interrupted.
        store.add_rows(key, buffer)
    return [stored[k] for k in sorted(stored)]


def _finishing(rows: Iterator[GameRow]) -> list[GameRow]:
    """The rows a backend still hands over once told of an interrupt (see run_jobs)."""
    out: list[GameRow] = []
    try:
        out.append(rows.throw(KeyboardInterrupt()))  # type: ignore[attr-defined]
        for row in rows:
            out.append(row)
    except (KeyboardInterrupt, StopIteration):
        pass
    return out


def write_jsonl(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    """Write one JSON row per line, atomically (two runs writing it at once leave one
    whole file, never a mix); a :class:`GameRow` is written as the text it carries."""
    atomic_write(path, "".join(row_json(row) + "\n" for row in rows))


def rotations(seats: list[str]) -> list[list[str]]:
    """Every rotation of a seating, each agent once in every seat: ``[a, b, c]`` gives
    ``[a, b, c], [b, c, a], [c, a, b]`` (with ``--games`` a multiple of the seats, every
    agent sits in every seat equally often)."""
    return [seats[k:] + seats[:k] for k in range(len(seats))]


def write_csv(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    """One line per game for a spreadsheet: a column per seat for agents, returns and
    scores; the moves stay in the JSONL file. Written atomically, like the JSONL."""
    players = max((len(row["seats"]) for row in rows), default=0)
    columns = ["index", "seed", "game", "options"]
    columns += [f"seat_{p}" for p in range(players)]
    columns += ["first_player", "length", "branching"]
    columns += [f"return_{p}" for p in range(players)] + ["winners"]
    columns += [f"score_{p}" for p in range(players)]
    columns += ["margin", "reason", "lead_changes", "decided_at"]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        scores = row.get("scores") or []
        writer.writerow(
            [row["index"], row["seed"], row["game"], json.dumps(row["options"], sort_keys=True)]
            + _padded(row["seats"], players)
            + [_blank(row["first_player"]), row["length"], row["branching"]]
            + _padded(row["returns"], players)
            + [" ".join(str(p) for p in row["winners"])]
            + _padded(scores, players)
            + [_blank(row.get(k)) for k in ("margin", "reason", "lead_changes", "decided_at")]
        )
    atomic_write(path, buffer.getvalue())


def _blank(value: Any) -> Any:
    return "" if value is None else value


def _padded(values: list[Any], n: int) -> list[Any]:
    return [_blank(v) for v in values] + [""] * (n - len(values))
