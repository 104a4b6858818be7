"""The variance-reduced estimator of the Erd equilibrium's result (solvers/erd/evaluation.py):
unbiased (exactly, summed over every way a tiny game can go), every term >= 0, priced on the
opponent's real allocations, and refusing games that are not the solved game."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import cache

import numpy as np
import pytest

import meeple
from meeple.agents import make_agent, play_game
from meeple.games.erd.agents import HeuristicAgent, one_round_strategy
from meeple.games.erd.rules import ErdGame, ErdState
from meeple.solvers.erd.agent import EquilibriumAgent
from meeple.solvers.erd.analysis import equilibrium_strategy, heuristic_strategy, outcome
from meeple.solvers.erd.evaluation import (
    Evaluator,
    ModelMismatch,
    play_and_evaluate,
    play_recorded,
    rounds_of,
)
from meeple.solvers.erd.iteration import Solution, value_iteration
from meeple.solvers.erd.model import build_model, erd_game, tiny_start

# (rules, Red's start, Blue's start, round limit, Turrets): uneven tiny games with real mixing,
# where the heuristic gives something away. (With one Heavy each, discarding both brings an
# Escalation, and there the heuristic plays as the equilibrium does.)
CASES = [
    ("original", (2, 1, 1), (2, 1, 0), 3, "until_recovered"),
    ("original", (2, 1, 1), (2, 1, 0), 3, "one_combat"),
]


@cache
def _tiny(case: tuple) -> tuple[Solution, ErdGame, ErdState]:
    """The solved tiny game, the engine's game with the same round limit, and its opening."""
    rules, red, blue, limit, turrets = case
    model_game = erd_game(rules=rules, turret_lifetime=turrets)
    solution = value_iteration(
        build_model(model_game, (tiny_start(*red), tiny_start(*blue))), limit
    )
    game = ErdGame(model_game.options.model_copy(update={"round_limit": limit, "best_of": 1}))
    first = replace(game.new_game(0), sides=(tiny_start(*red), tiny_start(*blue)))
    return solution, game, first


def _every_game(case: tuple, eq_seat: int):
    """Every way a game of the equilibrium (in ``eq_seat``) against the heuristic can go,
    with its probability: (probability, rounds, result to the equilibrium)."""
    solution, game, first = _tiny(case)
    eq, heuristic = EquilibriumAgent(game, solution=solution), HeuristicAgent(game)

    def mix(state: ErdState, player: int) -> list[tuple]:
        if player == eq_seat:
            classes, weights = eq.mix(state, player)
            return [(c[0], w) for c, w in zip(classes, weights, strict=True) if w > 0]
        game_, weights = heuristic.game, heuristic.weights
        chances = one_round_strategy(game_, weights, state.sides, player, state.round)
        return [(a, p) for a, p in chances.items() if p > 0]

    def walk(state: ErdState, rounds: list, prob: float):
        if state.is_over:
            yield prob, rounds, float(state.returns[eq_seat])
            return
        for a, p in mix(state, 0):
            for b, q in mix(state, 1):
                after = state.apply(0, a).apply(1, b)
                yield from walk(after, [*rounds, (state, (a, b))], prob * p * q)

    yield from walk(first, [], 1.0)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("eq_seat", [0, 1])
def test_the_estimate_is_exactly_unbiased_over_every_outcome(case, eq_seat):
    solution, _, first = _tiny(case)
    heuristic = HeuristicAgent(_tiny(case)[1])
    exact = outcome(
        solution, equilibrium_strategy(solution), heuristic_strategy(solution, heuristic)
    )
    win, _, loss = exact.as_red if eq_seat == 0 else exact.as_blue
    evaluator = Evaluator(solution)
    mean = mean_result = 0.0
    estimates, results, probabilities = [], [], []
    for prob, rounds, result in _every_game(case, eq_seat):
        evaluated = evaluator.evaluate_rounds(rounds, eq_seat, result, first)
        assert min(evaluated.terms) >= -1e-9  # x* earns v(s) against every allocation
        mean += prob * evaluated.estimate
        mean_result += prob * result
        estimates.append(evaluated.estimate)
        results.append(result)
        probabilities.append(prob)
    assert sum(probabilities) == pytest.approx(1.0, abs=1e-12)
    assert mean_result == pytest.approx(win - loss, abs=1e-9)  # the enumeration is complete
    assert mean == pytest.approx(win - loss, abs=1e-9)
    # Not the result itself: the equilibrium's own luck is gone, so the spread is smaller.
    p = np.array(probabilities)
    spread = float(p @ (np.array(estimates) - mean) ** 2)
    assert spread < 0.5 * float(p @ (np.array(results) - mean_result) ** 2)
    # And the opponent gives something away here, so the estimate is not just v(s_0).
    assert abs(mean - evaluated.start_value) > 0.005


def test_terms_are_priced_on_the_opponents_actual_allocation():
    # In the opening, replace the heuristic's allocation by each of Blue's classes in turn:
    # the term is the equilibrium's mix against that column, less the state's value. A game
    # whose opening has Red as the row player of its stage game.
    case = ("original", (1, 1, 1), (1, 2, 1), 3, "until_recovered")
    solution, _, first = _tiny(case)
    evaluator = Evaluator(solution)
    model = solution.model
    index, sign = model.locate(first.sides)
    assert sign == 1  # Red is the row player of the opening's stage game
    stage = model.states[index]
    left = solution.horizon
    matrix = stage.matrix(solution.values[left - 1])
    row, _ = solution.mixes(index, left)
    value = solution.value(index, left)
    seen = set()
    for j, column in enumerate(stage.columns):
        red = next(iter(stage.rows[0]))
        after = first.apply(0, red).apply(1, column[0])
        rounds = [(first, (red, column[0]))]
        if not after.is_over:
            continue  # a one-round game keeps the check simple
        evaluated = evaluator.evaluate_rounds(rounds, 0, float(after.returns[0]), first)
        assert evaluated.terms[0] == pytest.approx(float(row @ matrix[:, j]) - value, abs=1e-12)
        seen.add(round(evaluated.terms[0], 9))
    assert len(seen) >= 2  # different allocations, different terms


def test_a_sampled_match_agrees_with_the_exact_result_and_is_narrower():
    case = CASES[0]
    solution, game, first = _tiny(case)
    heuristic = HeuristicAgent(game)
    exact = outcome(
        solution, equilibrium_strategy(solution), heuristic_strategy(solution, heuristic)
    )

    def make(spec: str, seed: int):
        return EquilibriumAgent(game, seed, solution=solution) if spec == "eq" else heuristic

    match = play_and_evaluate(game, solution, make, "eq", "heuristic", 300, seed=3, start=first)
    mean, low, high = match.reduced()
    estimates = [g.estimate for g in match.games]
    # Four standard errors of the estimate's mean.
    assert abs(mean - exact.score) <= 4 * np.std(estimates, ddof=1) / math.sqrt(300)
    _, raw_low, raw_high = match.raw()
    assert high - low < 0.8 * (raw_high - raw_low)
    assert match.wins + match.draws + match.losses == 300


def test_rounds_of_a_playthrough_are_the_rounds_played():
    game = meeple.make("erd", rules="0.02", best_of=1)
    agents = [make_agent("random", game, 5), make_agent("random", game, 6)]
    play = play_game(game, agents, 11)
    again = [make_agent("random", game, 5), make_agent("random", game, 6)]
    rounds, final = play_recorded(game, again, 11)
    assert rounds_of(play) == rounds
    assert final == play.state
    assert [s.round for s, _ in rounds] == list(range(1, len(rounds) + 1))


def test_a_game_that_is_not_the_solved_game_is_refused():
    case = CASES[0]
    solution, game, first = _tiny(case)
    evaluator = Evaluator(solution)
    other = ErdGame(game.options.model_copy(update={"round_limit": 7}))
    with pytest.raises(ModelMismatch, match="round limit"):
        evaluator.check_game(other)
    with pytest.raises(ModelMismatch, match="best_of"):
        evaluator.check_game(ErdGame(game.options.model_copy(update={"best_of": 3})))
    # Another mercy rule is another game; the version's own, named, is the same one.
    own = game.version.mercy or "none"
    other_rule = "empty" if own != "empty" else "none"
    with pytest.raises(ModelMismatch, match=f"mercy={other_rule} but the solution is for rules"):
        evaluator.check_game(ErdGame(game.options.model_copy(update={"mercy": other_rule})))
    evaluator.check_game(ErdGame(game.options.model_copy(update={"mercy": own})))
    # A recorded game whose second round does not follow from its first.
    games = [g for _, g, _ in _every_game(case, 0) if len(g) >= 2]
    rounds = games[0]
    tampered = [rounds[0], (rounds[1][0], rounds[1][1])]
    wrong = next(
        (s, a) for (s, a) in (r for g in games for r in g) if s.sides != rounds[1][0].sides
    )
    tampered[1] = (replace(rounds[1][0], sides=wrong[0].sides), rounds[1][1])
    with pytest.raises(ModelMismatch):
        evaluator.evaluate_rounds(tampered, 0, 0.0, first)
