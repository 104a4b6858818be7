"""How often the review judges agree with the exact answer, and how long a review takes.

Edges: endgame positions (at most ``--left`` pyramids left, which the solver settles) from
games of ``greedy`` against itself; the search judge (``uct`` at its default budget) picks a
move at each, and the solver says whether it is optimal and how many points it gives away.
Erd's judge is the solved equilibrium itself: exact by construction, timed per decision.
Every game: the time of a whole review (``review_record`` at the defaults, as ``meeple
analyse`` runs it) of a game of ``heuristic`` against itself (Edges: ``greedy``).

Run: ``PYTHONPATH=src python benchmarks/review_agreement.py`` (docs/solving.md, "Reviews").
"""

from __future__ import annotations

import argparse
import time

import meeple
from meeple.agents import make_agent, play_game
from meeple.core.errors import MeepleError
from meeple.core.record import GameRecord
from meeple.core.review import JudgeSettings
from meeple.lab.review import review_record
from meeple.solvers.edges_judge import EdgesJudge
from meeple.solvers.edges_solver import EdgesSolver, pyramids_left

GAMES = ["edges", "erd", "erosion", "triangle-clock", "squad-combat"]


def _record(name: str, seed: int) -> GameRecord:
    game = meeple.make(name)
    agent = "greedy" if name == "edges" else "heuristic"
    agents = [make_agent(agent, game, seed=seed + s) for s in range(game.num_players)]
    return play_game(game, agents, seed=seed).record()


def edges_agreement(positions: int, left: int) -> tuple[int, int, float, float]:
    """(positions, optimal picks, mean loss in points, seconds per search) of the uct judge."""
    game = meeple.make("edges")
    solver = EdgesSolver(game.board)
    searched = EdgesJudge(game, JudgeSettings(max_left=0))  # never exact: always uct
    done = agree = 0
    loss = seconds = 0.0
    seed = 0
    while done < positions:
        record = _record("edges", seed)
        seed += 1
        states = record.states()
        for k, (seat, _) in enumerate(record.moves):
            state = states[k]
            if pyramids_left(state) > left or len(state.legal_actions(seat)) < 2:
                continue
            start = time.perf_counter()
            judged = searched.judge(
                states[: k + 1], record.moves[:k], seat, state.legal_actions(seat)[0]
            )
            seconds += time.perf_counter() - start
            best = game.parse_action(judged.best)
            sign = 1 if seat % 2 == 0 else -1
            gave = sign * (solver.value(state) - solver.value(state._next(seat, best)))
            agree += gave == 0
            loss += gave
            done += 1
            break  # one endgame position per game: the positions are unlike one another
    return done, agree, loss / done, seconds / done


def erd_time(decisions: int) -> tuple[int, float] | str:
    """(decisions, seconds per decision) of the equilibrium judge, or why it cannot run."""
    from meeple.lab.review import make_judge

    game = meeple.make("erd")
    try:
        judge = make_judge(game, JudgeSettings(solve=True))  # solved once if not cached
    except MeepleError as exc:
        return str(exc)
    done, seconds, seed = 0, 0.0, 0
    while done < decisions:
        record = _record("erd", seed)
        seed += 1
        states = record.states()
        for k, (seat, text) in enumerate(record.moves):
            start = time.perf_counter()
            judge.judge(states[: k + 1], record.moves[:k], seat, game.parse_action(text))
            seconds += time.perf_counter() - start
            done += 1
    return done, seconds / done


def review_times() -> list[tuple[str, int, float]]:
    """Per game: (game, moves, seconds) of a whole review of one game at the defaults."""
    out = []
    for name in GAMES:
        record = _record(name, 1)
        start = time.perf_counter()
        try:
            review_record(record, JudgeSettings())
        except MeepleError as exc:
            print(f"{name}: {exc}")
            continue
        out.append((name, len(record.moves), time.perf_counter() - start))
    return out


def main() -> None:
    """Print the table (docs/solving.md)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40, help="Edges endgame positions")
    parser.add_argument("--left", type=int, default=10, help="pyramids left in them, at most")
    parser.add_argument("--erd-decisions", type=int, default=40)
    args = parser.parse_args()
    n, agree, loss, per = edges_agreement(args.positions, args.left)
    print("| measure | result |\n|---|---|")
    print(
        f"| Edges 3x4, {n} endgames (<= {args.left} pyramids left): uct 20,000 picks an "
        f"optimal move | {agree}/{n} ({agree / n:.0%}); mean loss {loss:.2f} points; "
        f"{per:.2f} s a search |"
    )
    erd = erd_time(args.erd_decisions)
    if isinstance(erd, str):
        print(f"| Erd: equilibrium judge | not run: {erd} |")
    else:
        print(
            f"| Erd, {erd[0]} decisions: the equilibrium judge (exact) "
            f"| {erd[1] * 1000:.1f} ms a decision |"
        )
    for name, moves, seconds in review_times():
        print(
            f"| review of a {name} game, {moves} moves (`meeple analyse` defaults) "
            f"| {seconds:.1f} s |"
        )


if __name__ == "__main__":
    main()
