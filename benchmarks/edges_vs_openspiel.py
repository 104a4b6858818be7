"""Edges against OpenSpiel, side by side in one run (issue 28, items 2-4).

    .venv/bin/python benchmarks/edges_vs_openspiel.py speed --seconds 5
    .venv/bin/python benchmarks/edges_vs_openspiel.py match --games 40 --move-seconds 0.2

``speed`` measures, interleaved in one process (OpenSpiel is the reference):

* random games/s from the empty 3x4 board: OpenSpiel's C++ ``dots_and_boxes`` (3x4, the same
  31-edge grid) stepped from Python, meeple's rules engine through its public API, and
  meeple's compiled rules (``meeple.games.edges.compiled.rules.playouts``);
* MCTS simulations/s from the empty board: OpenSpiel's ``MCTSBot`` (UCT, one random rollout)
  on ``dots_and_boxes`` 3x4, meeple's generic ``mcts`` and its compiled ``uct`` on Edges 3x4.

``match`` plays meeple's ``uct`` against OpenSpiel's ``MCTSBot`` playing Edges 3x4 through
meeple's OpenSpiel adapter (``meeple.envs.openspiel``), seats alternated, at equal time per
move: ``MCTSBot`` counts simulations, not seconds, so its budget is set from its measured
rate to take the same time per move. Needs the ``envs`` extra (OpenSpiel), in ``dev``.
"""

from __future__ import annotations

import argparse
import random
import time

import pyspiel
from engine_speed import engine_rate  # benchmarks/ is the script's folder
from open_spiel.python.algorithms import mcts as spiel_mcts
from rich.console import Console
from rich.table import Table

import meeple
from meeple.agents.spec import make_agent
from meeple.core.agent import Observation
from meeple.games.edges.compiled import rules as fast
from meeple.lab.stats import wilson_interval

console = Console()


def spiel_random_games(seconds: float) -> float:
    """OpenSpiel dots_and_boxes 3x4 random games per second, stepped from Python."""
    game = pyspiel.load_game("dots_and_boxes", {"num_rows": 3, "num_cols": 4})
    rng = random.Random(0)
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        games += 1
    return games / (time.perf_counter() - start)


def meeple_random_games(seconds: float) -> float:
    """meeple Edges 3x4 random games per second through the public State API."""
    return engine_rate(meeple.make("edges"), seconds)


def compiled_random_games(seconds: float) -> float:
    """meeple Edges 3x4 random games per second through the compiled rules."""
    state = meeple.make("edges").new_game(0)
    fast.playouts(state, 10)  # compile (or load the cache) outside the clock
    games, start, batch = 0, time.perf_counter(), 20_000
    while time.perf_counter() - start < seconds:
        fast.playouts(state, batch, seed=games)
        games += batch
    return games / (time.perf_counter() - start)


def spiel_mcts_rate(simulations: int) -> float:
    """OpenSpiel MCTSBot simulations per second on dots_and_boxes 3x4 from the start."""
    game = pyspiel.load_game("dots_and_boxes", {"num_rows": 3, "num_cols": 4})
    evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=None)
    bot = spiel_mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator)
    state = game.new_initial_state()
    start = time.perf_counter()
    bot.step(state)
    return simulations / (time.perf_counter() - start)


def meeple_mcts_rate(spec: str, iterations: int) -> float:
    """meeple agent ``spec`` iterations per second on Edges 3x4 from the start."""
    game = meeple.make("edges", first=0)
    state = game.new_game(0)
    agent = make_agent(f"{spec}:iterations={iterations}", game)
    start = time.perf_counter()
    agent.act(Observation(state, 0))
    return iterations / (time.perf_counter() - start)


def speed(seconds: float, repeats: int) -> None:
    """The figures of ``speed``, each the median of ``repeats`` interleaved runs."""
    make_agent("uct:iterations=10", meeple.make("edges")).act(
        Observation(meeple.make("edges", first=0).new_game(0), 0)
    )  # compile (or load the cache) outside the clock
    rows: dict[str, list[float]] = {}
    measures = {
        "random games/s: OpenSpiel dots_and_boxes 3x4 (C++)": lambda: spiel_random_games(seconds),
        "random games/s: meeple Edges 3x4, rules engine": lambda: meeple_random_games(seconds),
        "random games/s: meeple Edges 3x4, compiled rules": lambda: compiled_random_games(seconds),
        "MCTS sims/s: OpenSpiel MCTSBot, dots_and_boxes 3x4": lambda: spiel_mcts_rate(
            max(500, int(3000 * seconds))
        ),
        "MCTS sims/s: meeple mcts, Edges 3x4": lambda: meeple_mcts_rate(
            "mcts", max(500, int(2000 * seconds))
        ),
        "MCTS sims/s: meeple uct, Edges 3x4": lambda: meeple_mcts_rate(
            "uct", max(5000, int(30_000 * seconds))
        ),
    }
    for k in range(repeats):
        for name, measure in measures.items():
            rows.setdefault(name, []).append(measure())
        console.print(f"round {k + 1} of {repeats} done")
    table = Table(title="Edges against OpenSpiel (medians of interleaved runs)")
    table.add_column("measure")
    table.add_column("per second", justify="right")
    table.add_column("runs", justify="right")
    medians = {name: sorted(v)[len(v) // 2] for name, v in rows.items()}
    for name, values in rows.items():
        table.add_row(name, f"{medians[name]:,.0f}", ", ".join(f"{v:,.0f}" for v in values))
    console.print(table)
    names = list(medians)
    console.print(
        f"compiled rules / OpenSpiel C++ random games: {medians[names[2]] / medians[names[0]]:.2f}x"
    )
    console.print(f"rules engine / OpenSpiel C++: {medians[names[1]] / medians[names[0]]:.2f}x")
    console.print(f"uct / MCTSBot simulations: {medians[names[5]] / medians[names[3]]:.2f}x")
    console.print(f"mcts / MCTSBot simulations: {medians[names[4]] / medians[names[3]]:.2f}x")


def match(games: int, move_seconds: float) -> None:
    """``uct`` against MCTSBot through the adapter, at equal time per move."""
    import meeple.envs.openspiel  # registers python_meeple_edges

    game = pyspiel.load_game("python_meeple_edges")
    evaluator = spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=None)
    probe = spiel_mcts.MCTSBot(game, uct_c=2.0, max_simulations=200, evaluator=evaluator)
    state = game.new_initial_state()
    state.apply_action(0)
    start = time.perf_counter()
    probe.step(state)
    rate = 200 / (time.perf_counter() - start)
    start_simulations = simulations = max(10, int(rate * move_seconds))
    console.print(
        f"MCTSBot through the adapter: {rate:,.0f} simulations/s, so {simulations} a move "
        f"to start with, steered to {move_seconds} s a move on average; uct runs on the "
        f"clock ({move_seconds} s a move)"
    )
    score, uct_iterations, bot_seconds, moves = 0.0, 0, 0.0, 0
    for k in range(games):
        rng = random.Random(k)
        simulations = start_simulations  # steered within a game, from the start each game
        bot = spiel_mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=simulations,
            evaluator=spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
            random_state=rng,
        )
        uct_seat = k % 2
        uct = make_agent(f"uct:seconds={move_seconds}", meeple.make("edges"), seed=k)
        state = game.new_initial_state()
        state.apply_action(k % game.max_chance_outcomes())  # the seed: who starts
        while not state.is_terminal():
            player = state.current_player()
            if player == uct_seat:
                move = uct.act(Observation(state.inner, player))
                state.apply_action(state.inner.game.action_id(move))
                uct_iterations += uct.last_iterations
            else:
                t0 = time.perf_counter()
                state.apply_action(bot.step(state))
                took = time.perf_counter() - t0
                bot_seconds += took
                moves += 1
                # MCTSBot counts simulations, not seconds: steer its budget so that its
                # moves take move_seconds on average (positions get cheaper as the board
                # fills, so a budget set once at the start would run short).
                simulations = max(10, round(simulations * min(2.0, max(0.5, move_seconds / took))))
                bot.max_simulations = simulations
        returns = state.returns()
        mine, theirs = returns[uct_seat], returns[1 - uct_seat]
        score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        console.print(
            f"game {k + 1}: uct {'won' if mine > theirs else 'drew' if mine == theirs else 'lost'}"
        )
    low, high = wilson_interval(score, games)
    console.print(
        f"uct scored {score} of {games} ({score / games:.1%}, 95% interval {low:.1%}-{high:.1%}); "
        f"MCTSBot took {bot_seconds / max(moves, 1):.3f} s a move on average, its budget "
        f"ending at {simulations} simulations"
    )


def main() -> None:
    """Run the part named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="part", required=True)
    s = sub.add_parser("speed", help="random games/s and MCTS simulations/s, side by side")
    s.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    s.add_argument("--repeats", type=int, default=3, help="interleaved rounds (median shown)")
    m = sub.add_parser("match", help="uct against OpenSpiel's MCTSBot at equal time per move")
    m.add_argument("--games", type=int, default=40)
    m.add_argument("--move-seconds", type=float, default=0.2)
    args = parser.parse_args()
    if args.part == "speed":
        speed(args.seconds, args.repeats)
    else:
        match(args.games, args.move_seconds)


if __name__ == "__main__":
    main()
