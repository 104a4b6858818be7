"""A run: a named set of games whose rows go to the results database and a JSONL file.

A run's key is a hash of what it plays (kind, game, options, seats, seed, and the content of
every file its options name). Running the same command again finds the games already stored
under that key and plays only the rest, so an interrupted run resumes without losing or
repeating finished games, and asking for more games extends it. An edited file makes another
key: games of different files are never pooled.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field, model_validator

from meeple.core.errors import IllegalAction, MeepleError, NotationError
from meeple.core.files import Unreadable, atomic_write
from meeple.core.options import GameOptions, digest_of, read_content
from meeple.core.processes import ctrl_c_deferred
from meeple.core.registry import game_class
from meeple.core.words import counted
from meeple.lab.metrics import lead_told
from meeple.lab.simulate import (
    Backend,
    ContentChanged,
    GameJob,
    Played,
    run_jobs,
    with_lead_story,
)
from meeple.lab.stored import row_problem
from meeple.store.rows import GameRow, row_json

if TYPE_CHECKING:
    from meeple.store import ResultStore

FLUSH_SECONDS = 1.0
"""Finished games are written to the database at least this often (and at the end)."""

MAX_GAMES = 1_000_000
"""The most games one run plays: every game's row is held for the summary, and a million
games of the quickest game take minutes (a typo of a few zeros more filled memory)."""

MAX_JOBS = 256
"""The most workers one run starts (``--jobs``): the process pool forks every worker as it
starts, each with memory of its own (about 11 MB), so --jobs 100000 asked for 100,000
processes. The same bound on every machine, so that a command accepted on one is accepted
on another; it leaves room for a Ray cluster's CPUs."""

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
    content: dict[str, str] | None = Field(
        default=None,
        description="digest of the files each option names (GameOptions.content_digests), "
        "by option; part of the key. Left out, it is read from the files as the spec is made; "
        "empty when no option names a file (or, in a stored spec, when the run was made "
        "before runs recorded it)",
    )
    files: dict[str, dict[str, str]] = Field(
        default_factory=dict,
        description="digest of each of those files, by option and path, to say which file "
        "changed; not part of the key",
    )

    @model_validator(mode="after")
    def _pin(self) -> RunSpec:
        if self.content is None:
            options = self._named_files()
            self.content = options.content_digests() if options else {}
            self.files = options.file_digests() if options else {}
        return self

    @classmethod
    def stored(cls, spec: Mapping[str, Any]) -> RunSpec:
        """A spec as the results database keeps it, its content as recorded (nothing, for a
        run made before runs recorded it), not as the files are now."""
        return cls.model_validate({"content": {}, **spec})

    def _named_files(self) -> GameOptions | None:
        """The run's options, parsed, when one of them names a file (None otherwise: most
        runs, which need not build the game's options to know it)."""
        cls = game_class(self.game).Options
        given = {str(name).replace("-", "_") for name in self.options}
        if not given & set(cls.external_options()):
            return None
        return cls.parse(self.game, self.options)

    @property
    def key(self) -> str:
        """A stable 12-character identity of the run."""
        fields = self.model_dump(mode="json", exclude={"files"})
        if not self.duplicate:
            del fields["duplicate"]  # the keys of runs from before the option stay as they were
        if not self.content:
            del fields["content"]  # nor do the keys of runs whose options name no file
        canonical = json.dumps(fields, sort_keys=True)
        return hashlib.sha1(canonical.encode()).hexdigest()[:12]

    def changes(self) -> list[str]:
        """What differs between the files the run was set up on and the files as they are
        now, one text per option (empty when nothing does)."""
        options = self._named_files()
        now = options.content_digests() if options else {}
        now_files = options.file_digests() if options else {}
        return content_changes(self.content or {}, self.files, now, now_files)

    def same_command(self, other: RunSpec) -> bool:
        """Whether ``other`` plays what this run plays, perhaps on other files."""
        exclude = {"content", "files"}
        return self.model_dump(mode="json", exclude=exclude) == other.model_dump(
            mode="json", exclude=exclude
        )

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
            content=self.content or {},
        )

    def keep_files(self, store: ResultStore) -> None:
        """Keep in ``store`` a copy of the files the run's options name, as the run pinned
        them, so that its games replay once the files are edited
        (:func:`meeple.lab.replay.as_played`). A file edited since the run was set up is not
        kept (its run refuses to play on)."""
        options = self._named_files()
        if options is None:
            return
        for option, files in options.external_files().items():
            content = read_content(files)
            digest = digest_of(content)
            # A name that is no text (bytes the system could not decode) is not kept: the
            # database holds text, and the run plays all the same.
            named = all(name.isprintable() and _encodes(name) for name, _ in content)
            if named and digest == (self.content or {}).get(option):
                store.keep_content(digest, content)

    def record(self, store: ResultStore) -> None:
        """Record the run in ``store`` under its key (kept as it is when already there), so
        that its games, and a note of the command that plays them, have a run to belong to."""
        store.ensure_run(self.key, self.kind, self.game, self.model_dump(mode="json"))


def _encodes(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def content_changes(
    before: Mapping[str, str],
    before_files: Mapping[str, Mapping[str, str]],
    after: Mapping[str, str],
    after_files: Mapping[str, Mapping[str, str]],
) -> list[str]:
    """What changed from one pinning of a run's files to another, one text per option,
    naming the files that changed where both pinnings list them."""
    out = []
    for option in sorted({*before, *after}):
        if before.get(option) == after.get(option):
            continue
        if option not in before:
            out.append(
                f"option {option!r}: what its files held was not recorded when the run was "
                "made (a run from before the lab recorded it), so it cannot be told apart "
                "from what they hold now"
            )
            continue
        if option not in after:
            out.append(f"option {option!r} no longer names files")
            continue
        old, new = before_files.get(option, {}), after_files.get(option, {})
        changed = sorted(path for path in {*old, *new} if old.get(path) != new.get(path))
        named = ", ".join(changed) if old and changed else ", ".join(new) or "its files"
        out.append(f"option {option!r}: {named} changed")
    return out


def refusal(spec: RunSpec, problems: list[str]) -> str:
    """Why run ``spec`` is not played on: its files changed, and what to do instead."""
    return (
        f"run {spec.key} is not extended: the files it was set up on have changed "
        f"({'; '.join(problems)}). Its stored games stay as they were played and are never "
        "pooled with games of other files. Run the command again to start a new run on the "
        "files as they are now (a run's key includes what its files hold; in Python, make a "
        "new RunSpec), or restore the files to go on with this run"
    )


SUPERSEDED_NOTES = 3
"""At most this many earlier runs are named when a run starts on edited files."""


def superseded(spec: RunSpec, store: ResultStore) -> list[str]:
    """Notes, when ``spec`` has no games stored yet, on the stored runs of the same command
    on other files (an edited content folder or table, or a run made before runs recorded
    their files), the latest first: they are not pooled with ``spec``'s games."""
    if not spec.content:
        return []  # its options name no file: another run of the same command is another key
    runs = store.runs()
    if any(run["key"] == spec.key and run["games"] for run in runs):
        return []  # resumed or extended: the games stored are of these very files
    notes = []
    for run in reversed(runs):
        if run["key"] == spec.key or not run["games"] or run["game"] != spec.game:
            continue
        try:
            other = stored_spec(run)
        except DamagedRun:
            continue  # a spec this version cannot read is no run of this command
        if not spec.same_command(other):
            continue
        what = content_changes(other.content or {}, other.files, spec.content or {}, spec.files)
        notes.append(
            f"Run {run['key']} ({counted(run['games'], 'game')}) is the same command on other "
            f"files ({'; '.join(what)}); its games are not counted in run {spec.key}."
        )
    if len(notes) > SUPERSEDED_NOTES:
        more = len(notes) - SUPERSEDED_NOTES
        tail = (
            f"{counted(more, 'earlier run')} of the same command on other files "
            "too (`meeple results` lists them)."
        )
        notes = [*notes[:SUPERSEDED_NOTES], tail]
    return notes


LEFT_OUT = "they are left out of these figures; the command that made the run plays them again"
"""What becomes of a run's damaged games in a command that only reads the run."""


class DamagedRun(MeepleError):
    """A stored run whose description (its spec) is not the one its key was made from (a
    MeepleError, not the store's StoreError: this module must not load the database
    library, which most processes that import the lab never use)."""


def stored_spec(run: Mapping[str, Any]) -> RunSpec:
    """The spec of a stored run (as :meth:`ResultStore.runs` lists it), checked to be the
    one its key was made from (a key is a hash of its spec); DamagedRun saying what is
    wrong with it otherwise."""
    spec, problem = run["spec"], None
    if isinstance(spec, Unreadable):
        problem = f"its description is {spec}"
    else:
        try:
            parsed = RunSpec.stored(spec) if isinstance(spec, Mapping) else None
        except ValueError as exc:  # pydantic's ValidationError
            problem = f"its description does not read ({str(exc).splitlines()[0]})"
        else:
            if parsed is None:
                problem = "its description is not a JSON object"
            elif (parsed.key, parsed.kind, parsed.game) != (run["key"], run["kind"], run["game"]):
                problem = "its description is not the one its key was made from"
            else:
                return parsed
    raise DamagedRun(
        f"run {run['key']} is damaged in the results database: {problem}. The command that "
        "made it writes it again and plays whatever it needs of its games; `meeple results` "
        "lists the runs"
    )


@dataclass(frozen=True)
class StoredGames:
    """A run's games read back from the results database and checked."""

    rows: list[Mapping[str, Any]]
    """The games that are the run's, by index, each with its lead story
    (:func:`~meeple.lab.simulate.with_lead_story`)."""
    damaged: dict[Any, str]
    """The games that are not, by the index they are stored at: why."""

    def note(self, key: str, after: str) -> str | None:
        """A line on the damaged games of run ``key`` (None when there are none), ending with
        ``after``: what becomes of them."""
        if not self.damaged:
            return None
        named = "; ".join(f"game {index!r}: {why}" for index, why in list(self.damaged.items())[:3])
        more = len(self.damaged) - 3
        named += f"; and {counted(more, 'more game')}" if more > 0 else ""
        many = len(self.damaged) > 1
        return (
            f"{counted(len(self.damaged), 'game')} of run {key} stored in the results database "
            f"{'are' if many else 'is'} damaged ({named}); {after}"
        )


def stored_games(spec: RunSpec, store: ResultStore) -> StoredGames:
    """The games of ``spec`` stored in ``store``, each checked to be the game its job plays
    (:func:`~meeple.lab.stored.row_problem`, and moves that replay where the lead story is
    worked out from them: :func:`~meeple.lab.simulate.with_lead_story`)."""
    rows, damaged = [], {}
    for index, row in store.games(spec.key):
        job = spec.job(index) if type(index) is int and 0 <= index < MAX_GAMES else None
        problem = row_problem(index, row, job)
        if problem is None and job is not None:
            try:
                row = with_lead_story(job, row)
            except (IllegalAction, NotationError) as exc:
                problem = f"its moves do not replay ({exc})"
            except MeepleError:
                # The game cannot be set up here (its files edited since, its package gone):
                # the row is kept as stored, as a run on other files is shown.
                pass
        if problem is None:
            rows.append(row)
        else:
            damaged[index] = problem
    return StoredGames(rows, damaged)


@dataclass(frozen=True)
class StoredRun:
    """A stored run read back and checked: its listing, its spec and its games."""

    run: dict[str, Any]
    """As :meth:`ResultStore.runs` lists it."""
    spec: RunSpec
    games: StoredGames


def read_run(store: ResultStore, key: str) -> StoredRun:
    """The run whose key is (or starts with) ``key``, checked (:func:`stored_spec`,
    :func:`stored_games`). StoreError for an unknown run, DamagedRun for a damaged one,
    ContentChanged when the files its options name have changed."""
    run = store.find_run(key)
    spec = stored_spec(run)
    return StoredRun(run, spec, stored_games(spec, store))


def execute(
    spec: RunSpec,
    games: int,
    store: ResultStore,
    backend: Backend = "serial",
    workers: int = 1,
    address: str | None = None,
    fresh: bool = False,
    on_row: Callable[[Mapping[str, Any]], None] | None = None,
    on_played: Played | None = None,
    on_damaged: Callable[[str], None] | None = None,
) -> list[Mapping[str, Any]]:
    """Play the games of ``spec`` not yet stored and return all ``games`` rows by index.

    Stored games are checked first (:func:`stored_games`): a damaged one is deleted and
    played again (a row is a pure function of its job), and ``on_damaged`` is told which
    in a line; a damaged description of the run is written again.

    Rows played now are :class:`GameRow`s, encoded where they were played; rows stored
    before are dicts. Both read alike, and equal when they describe the same game.
    ``on_played`` is told of each batch played now (:data:`~meeple.lab.simulate.Played`),
    before ``on_row`` of its rows.

    ContentChanged, before any game is played or forgotten, when the files ``spec``'s
    options name are not what they were when ``spec`` was made; also when they change
    while it plays (the games finished before are kept).
    """
    if problems := spec.changes():
        raise ContentChanged(refusal(spec, problems))
    key = spec.key
    spec.record(store)
    spec.keep_files(store)
    try:
        stored_spec(store.runs(only=key)[0])  # there since spec.record
    except DamagedRun:
        store.repair_run(key, spec.kind, spec.game, spec.model_dump(mode="json"))
    if fresh:
        store.forget(key)
    held = stored_games(spec, store)
    if held.damaged:
        store.drop(key, list(held.damaged))
        if on_damaged is not None:
            on_damaged(str(held.note(key, "deleted, to be played again as they are needed")))
    stored: dict[int, Mapping[str, Any]] = {
        row["index"]: row for row in held.rows if row["index"] < games
    }
    if on_row is not None:
        for row in stored.values():
            on_row(row)
    missing = [spec.job(k) for k in range(games) if k not in stored]
    buffer: list[GameRow] = []
    last_flush = time.monotonic()
    rows = run_jobs(missing, backend, workers, address, on_played)
    try:
        try:
            for row in rows:
                stored[row["index"]] = row
                buffer.append(row)
                if on_row is not None:
                    on_row(row)
                if len(buffer) >= FLUSH_ROWS or time.monotonic() - last_flush > FLUSH_SECONDS:
                    with ctrl_c_deferred():  # a commit is never cut in two
                        store.add_rows(key, buffer)
                    buffer, last_flush = [], time.monotonic()
        except KeyboardInterrupt:
            # Games the workers were finishing when Ctrl-C came are kept too.
            buffer.extend(_finishing(rows))
            raise
        except ContentChanged:
            # A worker read edited files: say which, as the check before the run would have.
            raise ContentChanged(
                refusal(spec, spec.changes() or ["a file was edited while the run played"])
            ) from None
    finally:
        # Whatever finished is kept, even when the run is interrupted (and again).
        with ctrl_c_deferred():
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
    scores; the moves stay in the JSONL file. Written atomically, like the JSONL. Lead
    changes and decisive moments are blank where the tables say n/a (:func:`lead_told`)."""
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
    story = ("lead_changes", "decided_at") if lead_told(rows) else ()
    for row in rows:
        scores = row.get("scores") or []
        writer.writerow(
            [row["index"], row["seed"], row["game"], json.dumps(row["options"], sort_keys=True)]
            + _padded(row["seats"], players)
            + [_blank(row["first_player"]), row["length"], row["branching"]]
            + _padded(row["returns"], players)
            + [" ".join(str(p) for p in row["winners"])]
            + _padded(scores, players)
            + [_blank(row.get(k)) for k in ("margin", "reason")]
            + [_blank(row.get(k)) if k in story else "" for k in ("lead_changes", "decided_at")]
        )
    atomic_write(path, buffer.getvalue())


def _blank(value: Any) -> Any:
    return "" if value is None else value


def _padded(values: list[Any], n: int) -> list[Any]:
    return [_blank(v) for v in values] + [""] * (n - len(values))
