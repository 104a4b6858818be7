"""Playing many games: jobs, the row each game leaves, and the backends that run them.

A job names everything a game depends on (game, options, seat specs, the run's seed and the
game's index), so a row is a pure function of its job: the serial, process-pool and Ray
backends give identical rows, and a run can be resumed by playing only missing indices.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from meeple.agents import make_agent, play_game
from meeple.core.agent import Observation
from meeple.core.game import State
from meeple.core.processes import die_with_parent
from meeple.core.registry import make
from meeple.core.rng import derive_seed

Backend = Literal["serial", "process", "ray"]


class GameJob(BaseModel):
    """One game to play: what it is, who sits where, and which seed it gets."""

    model_config = ConfigDict(frozen=True)

    game: str
    options: dict[str, Any]
    seats: list[str]
    run_seed: int
    index: int

    @property
    def seed(self) -> int:
        """The game's own seed, derived from the run's seed and the game's index."""
        return derive_seed(self.run_seed, "game", self.index)


def _leader(scores: list[float] | None) -> int | None:
    if not scores or len(scores) < 2:
        return None
    best = max(scores)
    return scores.index(best) if scores.count(best) == 1 else None


def play_job(job: GameJob) -> dict[str, Any]:
    """Play one game and describe it as a JSON-safe row.

    Besides the outcome, the row keeps what design metrics need: the first player, length,
    mean branching factor, and (for games whose ``result`` carries ``scores`` during play)
    lead changes and the moment the eventual winner took the lead for good.
    """
    game = make(job.game, **job.options)
    seed = job.seed
    agents = [
        make_agent(spec, game, derive_seed(seed, "seat", p)) for p, spec in enumerate(job.seats)
    ]
    branching: list[int] = []
    leaders: list[int | None] = []

    def on_move(observation: Observation, action: Any, after: State[Any]) -> None:
        branching.append(len(observation.legal_actions))
        scores = after.result.get("scores")
        leaders.append(_leader(scores))

    play = play_game(game, agents, seed, seats=job.seats, on_move=on_move)
    final = play.state
    result = final.result
    scores = result.get("scores")
    lead_changes, decided_at = _lead_story(leaders, _leader(scores))
    initial_to_act = game.new_game(seed).to_act
    returns = list(final.returns)
    return {
        "index": job.index,
        "seed": seed,
        "game": job.game,
        "options": job.options,
        "seats": job.seats,
        "first_player": initial_to_act[0] if len(initial_to_act) == 1 else None,
        "length": len(play.moves),
        "branching": sum(branching) / len(branching) if branching else 0.0,
        "returns": returns,
        "winners": _winners(returns),
        "scores": scores,
        "margin": _margin(scores),
        "reason": result.get("reason"),
        "lead_changes": lead_changes,
        "decided_at": decided_at,
        "moves": [list(m) for m in play.moves],
    }


def _winners(returns: list[float]) -> list[int]:
    """Seats with the best return, or nobody when every seat did equally well (a draw)."""
    if not returns or max(returns) == min(returns):
        return []
    best = max(returns)
    return [p for p, r in enumerate(returns) if r == best]


def _margin(scores: list[float] | None) -> float | None:
    if not scores or len(scores) < 2:
        return None
    ordered = sorted(scores, reverse=True)
    return float(ordered[0] - ordered[1])


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


def play_jobs(jobs: list[GameJob]) -> list[dict[str, Any]]:
    """Play a batch of jobs (the unit of work sent to a worker process or Ray task)."""
    return [play_job(job) for job in jobs]


def _batches(jobs: list[GameJob], workers: int) -> list[list[GameJob]]:
    # Small batches keep the progress bar moving; not too small, or messaging dominates.
    size = max(1, min(50, len(jobs) // (workers * 8) or 1))
    return [jobs[i : i + size] for i in range(0, len(jobs), size)]


def run_jobs(
    jobs: Iterable[GameJob],
    backend: Backend = "serial",
    workers: int = 1,
    address: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Play every job and yield rows as games finish (in no particular order)."""
    jobs = list(jobs)
    if not jobs:
        return
    if backend == "serial" or (backend == "process" and workers <= 1):
        for job in jobs:
            yield play_job(job)
    elif backend == "process":
        yield from _run_processes(jobs, workers)
    elif backend == "ray":
        yield from _run_ray(jobs, workers, address)
    else:
        raise ValueError(f"unknown backend {backend!r}; use serial, process or ray")


def _run_processes(jobs: list[GameJob], workers: int) -> Iterator[dict[str, Any]]:
    # Workers die with the command: a kill -9 of `meeple simulate` leaves no orphans.
    with ProcessPoolExecutor(max_workers=workers, initializer=die_with_parent) as pool:
        pending = {pool.submit(play_jobs, batch) for batch in _batches(jobs, workers)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield from future.result()


def _run_ray(jobs: list[GameJob], workers: int, address: str | None) -> Iterator[dict[str, Any]]:
    try:
        import ray
    except ImportError:
        raise RuntimeError("the ray backend needs Ray: pip install 'meeple[distributed]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(play_jobs)
        pending = [remote.remote(batch) for batch in _batches(jobs, max(1, workers))]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield from ray.get(ref)
    finally:
        if started_here:
            ray.shutdown()
