"""Any game of a run, looked at again: its record, a check that it is the game the run
counted, and the notable games (shortest, longest, most lopsided) to look at first.

A row keeps the game's seed, options, seats and every move, so the row alone replays to the
game's final state (:func:`game_record`); and since a row is a pure function of the run's
spec and the game's index, playing that job again gives the same row (:func:`regenerate`).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from meeple.core.errors import MeepleError
from meeple.core.options import content_digest
from meeple.core.record import GameRecord
from meeple.core.registry import game_class
from meeple.core.words import counted
from meeple.lab.run import RunSpec, read_run
from meeple.lab.simulate import play_job

if TYPE_CHECKING:
    from meeple.store import ResultStore


class GameNotFound(MeepleError):
    """A run has no stored game of that number."""


def game_record(row: Mapping[str, Any]) -> GameRecord:
    """The game record of a run's row: game, options, seed, seats, moves and the content
    digests the game read, so that a replay refuses files changed since (no result: the
    replay gives it)."""
    return GameRecord(
        game=row["game"],
        options=dict(row.get("options") or {}),
        seed=row["seed"],
        seats=list(row.get("seats") or []),
        moves=[(int(p), str(a)) for p, a in row["moves"]],
        content=dict(row.get("content") or {}),
    )


@contextmanager
def as_played(
    store: ResultStore, rows: Sequence[Mapping[str, Any]]
) -> Iterator[list[Mapping[str, Any]]]:
    """``rows`` (of a run) as they replay. Where the files their options name were edited
    since the run, the options name copies of the files as the run read them, which the
    results database keeps (:meth:`~meeple.lab.run.RunSpec.keep_files`), written to a
    temporary folder that lasts as long as the block. A row whose files the database keeps
    no copy of (a run of an older meeple) is as it was: its replay says the files changed."""
    with tempfile.TemporaryDirectory(prefix="meeple-played-") as folder:
        restored: dict[str, dict[str, Any] | None] = {}
        out: list[Mapping[str, Any]] = []
        for row in rows:
            played = json.dumps([row["game"], row.get("options"), row.get("content")])
            if played not in restored:
                place = Path(folder, str(len(restored)))
                restored[played] = _kept_files(store, row, place)
            options = restored[played]
            out.append(row if options is None else {**row, "options": options})
        yield out


def _kept_files(store: ResultStore, row: Mapping[str, Any], folder: Path) -> dict[str, Any] | None:
    """The row's options, each whose files changed since the row was played naming a copy
    written in ``folder`` of what they held then; None where none changed, or where a copy
    is not kept or is not the files' (its names are not theirs)."""
    pinned = dict(row.get("content") or {})
    given = dict(row.get("options") or {})
    if not pinned:
        return None
    try:
        # Not validated: an edited file may no longer make a game, and its copy will.
        named = game_class(row["game"]).Options.files_given(given)
        changed = [o for o, d in pinned.items() if o in named and content_digest(named[o][0]) != d]
    except MeepleError:
        return None  # the replay says what is wrong
    for option in changed:
        content = store.kept_content(pinned[option])
        files, is_folder = named[option]
        if content is None:
            return None
        names = [name for name, _ in content]
        fits = names == [f.name for f in files] if is_folder else len(names) == 1
        if not fits or not all(_plain_name(n) for n in names):
            return None
        target = folder / option
        target.mkdir(parents=True)
        for name, data in content:
            if data is not None:
                (target / name).write_bytes(data)
        for spelt in (option, option.replace("_", "-")):
            given.pop(spelt, None)
        given[option] = str(target if is_folder else target / names[0])
    return given if changed else None


def _plain_name(name: str) -> bool:
    """A file's name alone: no folder, not . or .. (a name read back from the database)."""
    return name not in ("", ".", "..") and Path(name).name == name and "\\" not in name


def find_game(store: ResultStore, run: str, index: int) -> tuple[dict[str, Any], Mapping[str, Any]]:
    """The run whose key is (or starts with) ``run``, and its stored game number ``index``,
    checked (:func:`~meeple.lab.run.read_run`).

    Raises StoreError for an unknown run, DamagedRun for a damaged one, GameNotFound (saying
    which numbers exist, or why the stored game is damaged) for a game the run does not hold.
    """
    stored = read_run(store, run)
    found, rows = stored.run, stored.games.rows
    for row in rows:
        if row["index"] == index:
            return found, row
    if index in stored.games.damaged:
        raise GameNotFound(
            f"game {index} of run {found['key']} is damaged in the results database "
            f"({stored.games.damaged[index]}); the command that made the run plays it again"
        )
    if not rows:
        raise GameNotFound(f"run {found['key']} has no games stored yet")
    raise GameNotFound(
        f"run {found['key']} has no game {index}; its games are numbered "
        f"{rows[0]['index']} to {rows[-1]['index']} ({len(rows)} stored)"
    )


def replay_differences(row: Mapping[str, Any]) -> list[str]:
    """How the row's game, replayed from its seed and moves, differs from what the row
    counted (returns, scores, length); empty when it is the same game."""
    final = game_record(row).replay()
    problems = []
    if not final.is_over:
        problems.append(f"the replayed game is not over after {counted(len(row['moves']), 'move')}")
        return problems
    if list(final.returns) != list(row["returns"]):
        problems.append(f"returns {list(final.returns)} replayed, {row['returns']} counted")
    scores = final.result.get("scores")
    if scores != row.get("scores"):
        problems.append(f"scores {scores} replayed, {row.get('scores')} counted")
    return problems


def regenerate(spec: RunSpec, index: int) -> dict[str, Any]:
    """Play game ``index`` of the run ``spec`` again from its seed and agents: the same row
    as the run stored (the files its options name being as the run pinned them)."""
    return play_job(spec.job(index))


def notable_games(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, int, str]]:
    """The games a designer looks at first, as (what, game number, why): the shortest and
    the longest (in actions), and the most lopsided (widest gap between the best and the
    worst score, where games have scores). Ties go to the lowest number; where every game
    is as long, one game stands for both, said so."""
    if not rows:
        return []
    ordered = sorted(rows, key=lambda r: r["index"])
    short = min(ordered, key=lambda r: r["length"])
    long = max(ordered, key=lambda r: r["length"])
    if short["length"] == long["length"]:
        # The same game twice, as shortest and as longest, reads as two games to look at.
        out = [("shortest and longest", short["index"], f"every game {short['length']} actions")]
    else:
        out = [
            ("shortest", short["index"], f"{short['length']} actions"),
            ("longest", long["index"], f"{long['length']} actions"),
        ]
    scored = [r for r in ordered if r.get("scores") and len(r["scores"]) > 1]
    if scored:
        wide = max(scored, key=lambda r: max(r["scores"]) - min(r["scores"]))
        gap = max(wide["scores"]) - min(wide["scores"])
        scores = ", ".join(f"{s:g}" for s in wide["scores"])
        out.append(("most lopsided", wide["index"], f"scores {scores} by seat, a gap of {gap:g}"))
    return out


def notable_lines(rows: Sequence[Mapping[str, Any]], key: str) -> list[str]:
    """:func:`notable_games` as lines that say how to replay each."""
    return [
        f"{what}: game {index} ({why}); meeple replay {key} --game {index}"
        for what, index, why in notable_games(rows)
    ]


__all__ = [
    "GameNotFound",
    "find_game",
    "game_record",
    "notable_games",
    "notable_lines",
    "regenerate",
    "replay_differences",
]
