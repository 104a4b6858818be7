"""Post-game reviews, computed off the request path and kept in the database.

A review (:func:`meeple.lab.review.review_record`, marked by
:func:`meeple.lab.review_marks.summarise`) judges every decision of a record; it takes
seconds to minutes. Each is computed in a process of its own, started for it and stopped
after it: past the operator's time limit (``max_review_seconds``) the process is killed and
the review refused, so a review holds up no match and no other review. At most
``max_reviews`` are computed at once; another is refused (503, ``busy``) until one ends.
A finished review is stored (:class:`~meeple.store.reviews.ReviewStore`), keyed by the
record and the judge's settings: asking again answers at once, and the same record
uploaded to the replay page shares the finished match's review.

While a review is computed its requests are answered ``{"status": "computing"}`` (202): the
page asks again. One that failed is answered with its error until the server restarts. Asked
only for a review kept or being computed (``start`` false), where there is none, the answer
is ``{"status": "not_reviewed"}`` (200: the page asked what there is, and was told).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import time
from collections import OrderedDict
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from meeple.core.errors import MeepleError
from meeple.core.processes import die_with_parent
from meeple.core.text import one_line
from meeple.core.words import counted
from meeple.interfaces.web.limits import ServerLimits
from meeple.interfaces.web.live import ServerError
from meeple.store.reviews import ReviewStore, review_key

log = logging.getLogger("meeple.server")

REVIEW_VERSION = 1
"""Part of every review's key: a change to what a review holds makes new keys."""
FAILURES_KEPT = 256
"""How many failed reviews are remembered (and answered with their error) at most."""
BUSY_RETRY_SECONDS = 10
"""The Retry-After of a review refused because the server is computing its limit."""


@dataclass(frozen=True)
class ReviewJob:
    """What a review needs: plain data a worker process can rebuild the game from."""

    game: str
    options: dict[str, Any]
    """The options the game is made with (an installed set's files resolved)."""
    seed: int
    moves: list[tuple[int, str]]
    iterations: int | None
    solve: bool
    """Whether the judge may solve the rules first (Erd's shipped versions)."""

    @property
    def key(self) -> str:
        """The review's key in the store (see :func:`meeple.store.reviews.review_key`)."""
        settings = f"v{REVIEW_VERSION};iterations={self.iterations}"
        return review_key(self.game, self.options, self.seed, self.moves, settings)


def compute_review(job: ReviewJob) -> dict[str, Any]:
    """The review of ``job``'s record (runs in a worker process): the judges' names, the
    marked decisions, the chart and the turning points."""
    from meeple.core.record import GameRecord
    from meeple.core.review import JudgeSettings
    from meeple.lab.review import make_judge, review_record
    from meeple.lab.review_marks import summarise

    started = time.monotonic()
    record = GameRecord(game=job.game, options=job.options, seed=job.seed, moves=job.moves)
    game = record.states()[0].game
    players = game.num_players
    # values=False: the action played and the best are valued, which is all a page shows.
    settings = JudgeSettings(iterations=job.iterations, values=False, solve=job.solve)
    # A variant this server does not solve (Erd's, not as shipped) is judged by search.
    judge = make_judge(game, settings, or_search=True)
    decisions = review_record(record, settings, judge=judge)
    summary = summarise(decisions, players)
    return {
        "status": "done",
        "game": job.game,
        "players": players,
        "moves": len(job.moves),
        "judges": sorted({d.judgement.judge for d in decisions}),
        "seconds": round(time.monotonic() - started, 2),
        **summary,
    }


POLL_SECONDS = 86_400.0
"""The longest one wait of :func:`_poll_until`: the system's poll takes a C int of
milliseconds (about 24 days), and a limit may be longer (``Seconds``: a year)."""


def _poll_until(connection: Connection, deadline: float) -> bool:
    """Whether ``connection`` has something to read before ``deadline`` (monotonic time)."""
    while True:
        left = deadline - time.monotonic()
        if connection.poll(max(0.0, min(left, POLL_SECONDS))):
            return True
        if left <= POLL_SECONDS:
            return False


def _serve(conn: Connection, job: ReviewJob) -> None:
    """A review's process: compute it and send ``("ok", review)``, ``("error", text)`` for
    the judge's refusal or ``("fault", text)`` for a fault of the server's code."""
    die_with_parent()
    try:
        reply: tuple[str, Any] = ("ok", compute_review(job))
    except MeepleError as exc:
        reply = ("error", str(exc))
    except Exception as exc:  # the server logs it; the page says the review failed
        reply = ("fault", f"{type(exc).__name__}: {exc}")
    # A server that stopped while this review was computed has closed its end: nobody is
    # left to answer, and a traceback would say nothing more.
    with contextlib.suppress(OSError):
        conn.send(reply)
    conn.close()


FAULT = "the review failed: the server failed on this record"
"""What a client is told of a fault of the server's code (the log says which)."""


def review_answer(job: ReviewJob, status: str, payload: Any) -> dict[str, Any]:
    """The review a review's process sent (``status`` ``ok``), or the ServerError its
    other answers stand for: the judge's refusal of the record (422, its words), or a fault
    of the server's code (500, its words in the log, not sent)."""
    if status == "fault":
        log.error("a review of %s failed: %s", job.game, payload)
        raise ServerError(FAULT, 500, "review_failed")
    if status != "ok":
        raise ServerError(f"the review failed: {payload}", 422, "review_failed")
    review: dict[str, Any] = payload
    return review


class Reviews:
    """The reviews a server computes and keeps (see the module)."""

    def __init__(self, store: ReviewStore, limits: ServerLimits) -> None:
        self.store = store
        self.limits = limits
        self._running: dict[str, asyncio.Task[None]] = {}
        self._owners: dict[str, str | None] = {}
        """Key of a review being computed -> the address that started it."""
        self._processes: set[Any] = set()
        self._failed: OrderedDict[str, ServerError] = OrderedDict()
        self._closed = False

    async def answer(
        self, job: ReviewJob, start: bool = True, client: str | None = None
    ) -> dict[str, Any]:
        """The stored review of ``job``, or ``{"status": "computing"}`` once it is started
        (or already running), or (with ``start`` false) ``{"status": "not_reviewed"}`` if it
        is neither stored nor being computed; ServerError if it failed or the server is
        busy. ``client`` (the asking address) computing one review already never takes
        the last free place: it is kept for an address computing none, as an agent
        worker is (pool.py)."""
        key = job.key
        found = await self.lookup(key)
        if found is not None:
            return found
        if not start:
            # Not an error: a page opening a replay asks whether a review is there, and a
            # 404 would be logged in its reader's browser console at every such load.
            return {"status": "not_reviewed"}
        if self._closed:
            raise ServerError("the server is stopping; ask again once it is back", 503, "stopping")
        if len(self._running) >= self.limits.max_reviews:
            raise ServerError(
                f"this server computes at most {counted(self.limits.max_reviews, 'review')} at "
                f"once; try again in {BUSY_RETRY_SECONDS} s",
                503,
                "busy",
                retry_after=BUSY_RETRY_SECONDS,
            )
        holding = sum(owner == client for owner in self._owners.values())
        if client is not None and holding and len(self._running) + 1 >= self.limits.max_reviews:
            raise ServerError(
                f"your address is computing {counted(holding, 'review')}; the last place is "
                f"kept for others; try again in {BUSY_RETRY_SECONDS} s",
                503,
                "busy",
                retry_after=BUSY_RETRY_SECONDS,
            )
        task = asyncio.get_running_loop().create_task(self._compute(key, job))
        self._running[key] = task
        self._owners[key] = client
        task.add_done_callback(lambda _t: self._done(key))
        return {"status": "computing", "key": key}

    def _done(self, key: str) -> None:
        self._running.pop(key, None)
        self._owners.pop(key, None)

    async def lookup(self, key: str) -> dict[str, Any] | None:
        """The review stored under ``key``; ``{"status": "computing"}`` while it is being
        computed; None if it is neither; ServerError if computing it failed."""
        if key in self._running:
            return {"status": "computing", "key": key}
        failed = self._failed.get(key)
        if failed is not None:
            raise failed
        found = await asyncio.to_thread(self.store.get, key)
        return {**found, "key": key} if found is not None else None

    async def _compute(self, key: str, job: ReviewJob) -> None:
        loop = asyncio.get_running_loop()
        try:
            review = await loop.run_in_executor(None, self._run, job)
            keep = self.limits.delete_ended_seconds
            await asyncio.to_thread(self.store.put, key, review, keep)
            moves, seconds = len(job.moves), review["seconds"]
            log.info("reviewed %s (%d moves) in %.1f s", job.game, moves, seconds)
        except ServerError as exc:
            self._fail(key, exc)
        except MeepleError as exc:
            self._fail(key, ServerError(f"the review failed: {exc}", 500, "review_failed"))
        except Exception:  # a fault of the server's: its traceback goes to the log
            log.exception("a review of %s failed", job.game)
            self._fail(key, ServerError(FAULT, 500, "review_failed"))

    def _fail(self, key: str, error: ServerError) -> None:
        log.warning("a review refused (%s): %s", error.code, one_line(str(error))[:200])
        self._failed[key] = error
        while len(self._failed) > FAILURES_KEPT:
            self._failed.popitem(last=False)

    def _run(self, job: ReviewJob) -> dict[str, Any]:
        """Compute ``job`` in a new process, waiting at most the limit (in a thread)."""
        # spawn, not fork: the server runs an event loop and threads (see pool.py).
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe(duplex=False)
        process = context.Process(target=_serve, args=(child, job), daemon=True)
        if self._closed:
            raise ServerError("the server is stopping", 503, "stopping")
        process.start()
        self._processes.add(process)
        child.close()
        seconds = self.limits.max_review_seconds
        try:
            if not _poll_until(parent, time.monotonic() + seconds):
                raise ServerError(
                    f"the review took longer than this server's limit of {seconds:g} s "
                    "(meeple serve --max-review-seconds)",
                    503,
                    "review_too_long",
                )
            status, payload = parent.recv()
        except (EOFError, OSError):
            raise ServerError("the review's process died", 500, "review_failed") from None
        finally:
            with contextlib.suppress(Exception):
                process.kill()
                process.join(5)
            self._processes.discard(process)
            parent.close()
        return review_answer(job, status, payload)

    def close(self) -> None:
        """Stop every review in progress (their processes are killed)."""
        self._closed = True
        for process in list(self._processes):
            with contextlib.suppress(Exception):
                process.kill()
        for task in list(self._running.values()):
            task.cancel()
