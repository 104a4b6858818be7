"""Playing many games: jobs, the row each game leaves, and the backends that run them.

A job names everything a game depends on (game, options, seat specs, the run's seed and the
game's index), so a row is a pure function of its job: the serial, process-pool and Ray
backends give identical rows, and a run can be resumed by playing only missing indices.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from meeple.agents.spec import agent_builder
from meeple.core.agent import Observation
from meeple.core.errors import MeepleError
from meeple.core.game import State
from meeple.core.processes import die_with_parent
from meeple.core.ray_cluster import connect, lost_work
from meeple.core.registry import make
from meeple.core.rng import derive_seed
from meeple.store.rows import GameRow

Backend = Literal["serial", "process", "ray"]


class GameJob(BaseModel):
    """One game to play: what it is, who sits where, and which seed it gets."""

    model_config = ConfigDict(frozen=True)

    game: str
    options: dict[str, Any]
    seats: list[str]
    run_seed: int
    index: int
    deal: int | None = None
    """Games of one deal share their seed (a duplicate run); None: a deal of its own."""
    content: dict[str, str] = {}
    """The digest of the files each option names (``GameOptions.content_digests``), as the
    run pinned them: a worker that finds other files refuses to play
    (:class:`ContentChanged`)."""

    @property
    def seed(self) -> int:
        """The game's own seed, derived from the run's seed and the game's index (its deal's
        index, where games share deals)."""
        return derive_seed(self.run_seed, "game", self.index if self.deal is None else self.deal)


class ContentChanged(MeepleError):
    """The files a run's options name are not what they were when the run was set up: its
    games would not be of the files its key names."""


def _leader(scores: list[float] | None) -> int | None:
    if not scores or len(scores) < 2:
        return None
    best = max(scores)
    return scores.index(best) if scores.count(best) == 1 else None


class _Setting:
    """What every game of one (game, options, seats) shares, built once per process.

    Building a game can cost more than playing it (Erosion builds its action table, Erd
    caches allocations on the game object), and so can reading an agent's spec; a worker
    keeps them here and reuses them for every job of the run. Rows do not change: a game
    object holds configuration and caches of pure functions only, and each game still gets
    fresh agents with its own seeds.
    """

    def __init__(
        self, game: str, options: dict[str, Any], seats: tuple[str, ...], content: dict[str, str]
    ) -> None:
        self.game = make(game, **options)
        # What the game read, taken after the game read it: an edit between the two is
        # refused rather than played under the run's old digest.
        self.content = self.game.options.content_digests()
        now = self.content
        changed = sorted(o for o in {*content, *now} if content.get(o) != now.get(o))
        if changed:
            raise ContentChanged(
                f"the files of option {', '.join(repr(o) for o in changed)} changed since the "
                "run was set up"
            )
        self.builders = [agent_builder(spec, self.game) for spec in seats]
        # Decided once per run: a game without scores skips following the lead move by move.
        self.tracks_scores = self.game.new_game(0).standing() is not None


@lru_cache(maxsize=16)
def _setting(game: str, options_json: str, seats: tuple[str, ...], content_json: str) -> _Setting:
    # Keyed by the pinned digests too: a run on edited files builds its game anew.
    return _Setting(game, json.loads(options_json), seats, json.loads(content_json))


def _setting_of(job: GameJob) -> _Setting:
    return _setting(
        job.game,
        json.dumps(job.options, sort_keys=True),
        tuple(job.seats),
        json.dumps(job.content, sort_keys=True),
    )


def play_job(job: GameJob) -> dict[str, Any]:
    """Play one game and describe it as a JSON-safe row.

    Besides the outcome, the row keeps what design metrics need: the first player, length,
    mean branching factor, and (for games with a running count of who is ahead: the scores
    of ``result``, or a :meth:`~meeple.core.game.State.standing` of its own) lead changes and
    the moment the eventual winner took the lead for good.
    """
    setting = _setting_of(job)
    game = setting.game
    seed = job.seed
    agents = [build(derive_seed(seed, "seat", p)) for p, build in enumerate(setting.builders)]
    tracks = setting.tracks_scores
    state = initial = game.new_game(seed)
    moves: list[list[Any]] = []
    branching = 0
    leaders: list[int | None] = []
    # The loop of agents.play_game, without the Playthrough (a row needs the first state and
    # the moves as text, not a record object and its content digest).
    standing = state.standing() if tracks else None
    to_act = state.to_act  # read once per move: it is what `is_over` asks, and not free
    while to_act:
        player = to_act[0]
        observation = Observation(state, player)
        action = agents[player].act(observation)
        branching += len(observation.legal_actions)
        before, state = state, state.apply(player, action)
        to_act = state.to_act
        moves.append([player, str(action)])
        if tracks:
            standing = state.standing_after(before, action, standing)
            leaders.append(_leader(standing))
    result = state.result
    scores = result.get("scores")
    if not tracks and scores is not None:
        # A game that shows scores only once they exist: follow them by replaying.
        leaders, _ = _replayed_leaders(initial, moves)
    lead_changes, decided_at = _lead_story(leaders, _final_leader(scores, standing))
    returns = list(state.returns)
    row = {
        "index": job.index,
        "seed": seed,
        "game": job.game,
        "options": job.options,
        "seats": job.seats,
        "first_player": initial.to_act[0] if len(initial.to_act) == 1 else None,
        "length": len(moves),
        "branching": branching / len(moves) if moves else 0.0,
        "returns": returns,
        "winners": winners_of(returns),
        "scores": scores,
        "margin": margin_of(scores),
        "reason": result.get("reason"),
        "lead_changes": lead_changes,
        "decided_at": decided_at,
        "moves": moves,
    }
    if units := game.length_units(state):
        row["units"] = units  # the length as the game counts it: rounds, turns, eras
    if setting.content:
        row["content"] = setting.content  # what the game read, as a record pins it
    return row


def with_lead_story(job: GameJob, row: Mapping[str, Any]) -> Mapping[str, Any]:
    """``row``, a stored game of ``job``, with the lead story :func:`play_job` writes now.

    A game may come to follow a lead after games of it were stored (Squad Combat counts
    each party's Life left since it was given a standing): the lead changes and the decisive
    moment of such a row are worked out from its moves, replayed on the rules without the
    agents, so a report reads them without playing the games again. The stored row is not
    changed; a row that has a lead story, or of a game that follows none, is returned as is.
    """
    if row.get("lead_changes") is not None or row.get("decided_at") is not None:
        return row
    setting = _setting_of(job)
    if not setting.tracks_scores:
        return row
    initial = setting.game.new_game(row["seed"])
    leaders, standing = _replayed_leaders(initial, row["moves"])
    lead_changes, decided_at = _lead_story(leaders, _final_leader(row.get("scores"), standing))
    return {**row, "lead_changes": lead_changes, "decided_at": decided_at}


def _replayed_leaders(
    initial: State[Any], moves: list[list[Any]]
) -> tuple[list[int | None], list[Any] | None]:
    """The leader after each of ``moves`` from ``initial``, and the standing at the end."""
    game, state, leaders = initial.game, initial, []
    standing = initial.standing()
    for player, text in moves:
        state = state.apply(player, game.parse_action(text))
        standing = state.standing()
        leaders.append(_leader(standing))
    return leaders, standing


def winners_of(returns: list[float]) -> list[int]:
    """Seats with the best return, or nobody when every seat did equally well (a draw)."""
    if not returns or max(returns) == min(returns):
        return []
    best = max(returns)
    return [p for p, r in enumerate(returns) if r == best]


def margin_of(scores: list[float] | None) -> float | None:
    """How far the best score is ahead of the second (None without two scores)."""
    if not scores or len(scores) < 2:
        return None
    ordered = sorted(scores, reverse=True)
    return float(ordered[0] - ordered[1])


def _final_leader(scores: list[Any] | None, standing: list[Any] | None) -> int | None:
    """Who led at the end: by the result's scores, or, in a game that keeps no score but a
    running count (its standing), by that count at the end."""
    return _leader(scores if scores is not None else standing)


def _lead_story(leaders: list[int | None], final: int | None) -> tuple[int | None, float | None]:
    """Lead changes (the sole leader switching sides) and when the winner led for good."""
    if not leaders or all(x is None for x in leaders):
        return None, None
    changes, last = 0, None
    for leader in leaders:
        if leader is not None:
            if last is not None and leader != last:
                changes += 1
            last = leader
    decided_at = None
    if final is not None:
        k = len(leaders)
        while k > 0 and leaders[k - 1] == final:
            k -= 1
        decided_at = k / len(leaders)
    return changes, decided_at


class _Dropped(BaseException):
    """Raised in a worker's game when the command stops it (a BaseException, so that no
    agent's ``except Exception`` takes it for a failure of its own)."""


_stopped = False
"""In a pool's worker: the command is stopping, and the worker plays no more games."""
_playing = False
"""In a pool's worker: a batch is being played, so the game under way can be dropped."""


def play_jobs(jobs: list[GameJob]) -> list[GameRow]:
    """Play a batch of jobs (the unit of work sent to a worker process or Ray task).

    Each row is encoded here, once, in the process that played it: the process that stores
    the rows writes their text as it is, and two workers share the encoding.

    In a pool's worker the command can stop the batch (:func:`_drop_the_game`): the rows are
    then those of the games finished before, which the command keeps.
    """
    global _playing
    rows: list[GameRow] = []
    try:
        _playing = True
        for job in jobs:
            if _stopped:
                break
            rows.append(GameRow.of(play_job(job)))
    except _Dropped:
        pass
    finally:
        _playing = False
    return rows


def _batches(jobs: list[GameJob], workers: int) -> list[list[GameJob]]:
    """The jobs cut into batches, each an eighth of a worker's share of what is left, at
    most 50 games and at least an eighth of the first batch.

    Small batches keep the progress bar moving; not too small, or messaging dominates (the
    pool's hand-off costs the main process a few tenths of a millisecond per batch). They
    shrink as the work runs out (guided self-scheduling), so that at the end no worker waits
    long for another's last batch: a core left idle while the other plays the last dozens of
    slow games is a few percent of a run of a few seconds.
    """
    size = max(1, min(50, len(jobs) // (workers * 8)))
    least = max(1, size // 8)
    out, start = [], 0
    while start < len(jobs):
        out.append(jobs[start : start + size])
        start += size
        size = max(least, min(50, (len(jobs) - start) // (workers * 8)))
    return out


Played = Callable[[int, float, bool], None]
"""Told of each batch of games as it is played: how many, the seconds its worker spent
playing them (nothing else: not the list of jobs, starting the workers or handing them out),
and whether those seconds include the worker's set-up for the run (see :class:`Pace`)."""


class Pace:
    """How long a game takes, from the batches played so far.

    A worker's first batch of a run sets the run up in that worker: it builds the game and
    the agents, and what they load once per process (Erd's solved rules, compiled code) is
    loaded within its first game. That batch can take many times as long as any later one,
    so once a batch without set-up is in, the pace is of those alone."""

    def __init__(self) -> None:
        self.games = {True: 0, False: 0}
        self.seconds = {True: 0.0, False: 0.0}

    def add(self, games: int, seconds: float, set_up: bool) -> None:
        """Count ``games`` more played in ``seconds``, ``set_up`` when those include set-up."""
        self.games[set_up] += games
        self.seconds[set_up] += seconds

    def of(self, set_up: bool) -> float | None:
        """Seconds a game of the batches with (or without) set-up; None before any."""
        games = self.games[set_up]
        return self.seconds[set_up] / games if games else None

    @property
    def per_game(self) -> float | None:
        """Seconds a game: of the batches without set-up once there is one, else of those
        with it; None before any batch."""
        warm = self.of(False)
        return warm if warm is not None else self.of(True)


def run_jobs(
    jobs: Iterable[GameJob],
    backend: Backend = "serial",
    workers: int = 1,
    address: str | None = None,
    on_played: Played | None = None,
) -> Iterator[GameRow]:
    """Play every job and yield rows as games finish (in no particular order); each batch's
    games and seconds go to ``on_played`` before its rows are yielded."""
    jobs = list(jobs)
    if not jobs:
        return
    if backend == "serial" or (backend == "process" and workers <= 1):
        for job in jobs:
            rows, seconds, set_up = _play_timed([job])
            if on_played is not None:
                on_played(len(rows), seconds, set_up)
            yield from rows
    elif backend == "process":
        yield from _run_processes(jobs, workers, on_played)
    elif backend == "ray":
        yield from _run_ray(jobs, workers, address, on_played)
    else:
        raise ValueError(f"unknown backend {backend!r}; use serial, process or ray")


IN_FLIGHT = 6
"""Batches handed to the pool per worker at a time: one playing, five waiting to start, so
that a worker has work while the main process commits a flush of rows to the database (two
in flight left Erd's workers idle during commits: `--jobs 2` 1.54x `--jobs 1` against 1.74x
with six, benchmarks/lab_throughput.py --seconds 6, quiet machine)."""

SALVAGE_SECONDS = 3.0
"""After Ctrl-C, how long the games the workers are playing may take to finish and be kept;
then they are dropped, and the games finished before them kept."""


def _start_worker() -> None:
    # Workers die with the command: a kill -9 of `meeple simulate` leaves no orphans.
    die_with_parent()
    # Ctrl-C at a terminal reaches the whole process group. The command decides what
    # happens (it keeps what is finished); a worker must not die with a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(_DROP, _drop_the_game)


_DROP = signal.SIGUSR1
"""The signal by which the command tells a worker to drop the game under way."""


def _drop_the_game(_signum: int, _frame: Any) -> None:
    """The command was interrupted and the grace for the games under way is over: drop the
    game being played and start no other, so that the command exits when it says it does,
    however slow the agents."""
    global _stopped
    _stopped = True
    if _playing:
        raise _Dropped


BATCH_SECONDS = 1.0
"""About how long a batch handed to a worker may take to play. A worker returns its rows
when the whole batch is done, so a batch of slow games (The Triangle Clock's search at a
second a move: minutes a game) held finished games back from the progress bar and the
database for many minutes."""


def _play_timed(jobs: list[GameJob]) -> tuple[list[GameRow], float, bool]:
    """:func:`play_jobs`, with the seconds the worker spent playing them and whether it set
    the run up in this process meanwhile (built the game and agents of :func:`_setting`)."""
    built = _setting.cache_info().misses
    start = time.perf_counter()
    rows = play_jobs(jobs)
    return rows, time.perf_counter() - start, _setting.cache_info().misses > built


class _Batcher:
    """Hands out the batches of :func:`_batches`, each cut to about
    :data:`BATCH_SECONDS` of play at the pace the workers measured so far (one game before
    anything is measured): quick games keep their batches of up to 50, slow games go one at
    a time. What the workers measured goes on to ``on_played``."""

    def __init__(self, jobs: list[GameJob], workers: int, on_played: Played | None = None) -> None:
        self.queue = deque(_batches(jobs, workers))
        self.pace = Pace()
        self.on_played = on_played

    def done(self, games: int, seconds: float, set_up: bool) -> None:
        """Count ``games`` more as played, in ``seconds`` of a worker's time, ``set_up`` when
        that time includes the worker's set-up for the run."""
        self.pace.add(games, seconds, set_up)
        if self.on_played is not None:
            self.on_played(games, seconds, set_up)

    def next(self) -> list[GameJob] | None:
        """The next batch, or None when every job has been handed out."""
        if not self.queue:
            return None
        batch = self.queue.popleft()
        most = 1
        per_game = self.pace.per_game
        if per_game is not None:
            most = max(1, int(BATCH_SECONDS / per_game)) if per_game > 0 else len(batch)
        if len(batch) > most:
            self.queue.appendleft(batch[most:])
            batch = batch[:most]
        return batch


def _run_processes(
    jobs: list[GameJob], workers: int, on_played: Played | None
) -> Iterator[GameRow]:
    others = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker)
    batcher = _Batcher(jobs, workers, on_played)
    pending: set[Future[tuple[list[GameRow], float, bool]]] = set()
    ready: deque[GameRow] = deque()  # rows of finished batches, not yet handed over
    completed = False
    try:
        while True:
            # A few batches in flight per worker, not all of them: `wait` visits every
            # future it is given, and with hundreds pending that cost more than the rows.
            while len(pending) < IN_FLIGHT * workers and (batch := batcher.next()):
                pending.add(pool.submit(_play_timed, batch))
            if not (pending or ready):
                break
            if not ready:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    rows, seconds, set_up = future.result()
                    batcher.done(len(rows), seconds, set_up)
                    ready.extend(rows)
            yield ready.popleft()
        completed = True
    except KeyboardInterrupt:
        # Keep every finished game: the rows received, and those of the batches under way if
        # they end within the grace. Then the workers drop the games they are playing, and
        # hand over those of their batches finished before. Batches not started are dropped.
        workers_now = [w.pid for w in set(multiprocessing.active_children()) - others if w.pid]
        for future in pending:
            future.cancel()
        if wait(pending, timeout=SALVAGE_SECONDS).not_done:
            for pid in workers_now:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, _DROP)
            wait(pending, timeout=SALVAGE_SECONDS)
        for future in pending:
            if future.done() and not future.cancelled() and future.exception() is None:
                ready.extend(future.result()[0])
        while ready:
            yield ready.popleft()
        raise
    finally:
        pool.shutdown(wait=completed, cancel_futures=True)


LOST_BATCH = "The games finished are kept: run the same command again to play the rest."
"""What a run on Ray that lost a batch for good says after Ray's reason."""


def _run_ray(
    jobs: list[GameJob], workers: int, address: str | None, on_played: Played | None
) -> Iterator[GameRow]:
    ray, started_here = connect(address, workers)
    try:
        remote = ray.remote(_play_timed)
        workers = max(1, workers)
        batcher = _Batcher(jobs, workers, on_played)
        pending: list[Any] = []
        # Ray plays a batch whose worker died again (3 times); past that, or with the
        # cluster gone, the run ends in one line, the rows handed over before kept.
        with lost_work("a batch of games", LOST_BATCH):
            while True:
                while len(pending) < IN_FLIGHT * workers and (batch := batcher.next()):
                    pending.append(remote.remote(batch))
                if not pending:
                    break
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    rows, seconds, set_up = ray.get(ref)
                    batcher.done(len(rows), seconds, set_up)
                    yield from rows
    finally:
        if started_here:
            ray.shutdown()
