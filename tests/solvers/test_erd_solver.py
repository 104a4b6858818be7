"""The Erd solver: matrix games with known answers, tiny variants against brute force over
the engine's own states, the reductions against the engine, the checks, the agent."""

from __future__ import annotations

import io
import math
from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from typer.testing import CliRunner

import meeple
from meeple.core.agent import Observation
from meeple.core.errors import MeepleError
from meeple.core.matrix_games import solve, solve_columns, solve_rows, undominated
from meeple.games.erd.rules import ErdGame, ErdState, resolve_round
from meeple.interfaces.cli import app
from meeple.solvers.erd.agent import EquilibriumAgent
from meeple.solvers.erd.analysis import (
    equilibrium_strategy,
    exploitability,
    play_statistics,
    uniform_strategy,
)
from meeple.solvers.erd.checks import cross_check, stage_exploitability
from meeple.solvers.erd.iteration import Solution, value_iteration
from meeple.solvers.erd.model import (
    ESCALATION,
    REASON_CODE,
    TURRET_MADE,
    TURRET_STOOD,
    build_model,
    erd_game,
    tiny_start,
)
from meeple.solvers.erd.store import from_bytes, solution_key, to_bytes

# -- matrix games with known answers ---------------------------------------------------------
KNOWN = {
    "matching pennies": ([[1, -1], [-1, 1]], 0.0, [0.5, 0.5], [0.5, 0.5]),
    "rock-paper-scissors": (
        [[0, -1, 1], [1, 0, -1], [-1, 1, 0]],
        0.0,
        [1 / 3] * 3,
        [1 / 3] * 3,
    ),
    "pure saddle": ([[4, 2, 5], [1, 0, 3]], 2.0, [1, 0], [0, 1, 0]),
    "biased": ([[2, -1], [-1, 1]], 0.2, [0.4, 0.6], [0.4, 0.6]),
}


@pytest.mark.parametrize("name", KNOWN)
@pytest.mark.parametrize("method", [solve_rows, solve_columns, solve])
def test_matrix_games_with_known_solutions(name, method):
    matrix, value, row, column = KNOWN[name]
    result = method(np.array(matrix, dtype=float))
    assert result.value == pytest.approx(value, abs=1e-12)
    assert result.row == pytest.approx(row, abs=1e-9)
    assert result.column == pytest.approx(column, abs=1e-9)


def test_pruning_removes_only_dominated_strategies():
    # Row 2 is strictly worse than row 0 everywhere; column 2 strictly worse for the column
    # player than column 1 once row 2 is gone.
    matrix = np.array([[1.0, -1.0, 5.0], [-1.0, 1.0, 6.0], [-2.0, -3.0, 4.0]])
    rows, cols = undominated(matrix)
    assert list(rows) == [0, 1]
    assert list(cols) == [0, 1]
    assert solve(matrix).value == pytest.approx(solve_rows(matrix).value, abs=1e-12)


def test_a_bad_matrix_is_refused():
    with pytest.raises(ValueError, match="non-empty"):
        solve_rows(np.zeros((0, 2)))
    with pytest.raises(ValueError, match="finite"):
        solve_rows(np.array([[np.nan]]))


# -- tiny variants against brute force over the engine's states -----------------------------
# (rules, Red's starting Reserve, Blue's, round limit): uneven starts have values other than 0.
TINY = [
    ("original", (1, 1, 1), (1, 1, 1), 4),
    ("original", (1, 1, 1), (1, 2, 1), 3),
    ("original", (1, 2, 0), (2, 1, 1), 3),
    ("0.02", (2, 2, 3), (2, 1, 3), 3),
    ("0.01", (2, 2, 3), (2, 1, 3), 3),
    ("original", (1, 2, 0), (1, 1, 1), 3, "one_combat"),
]


def _game(rules: str, limit: int, turrets: str = "until_recovered") -> ErdGame:
    options = erd_game(rules=rules, turret_lifetime=turrets).options
    return ErdGame(options.model_copy(update={"round_limit": limit}))


def brute_force_value(rules, red, blue, limit, turrets="until_recovered") -> float:
    """The value of the engine's own game (round limit included) by plain recursion over
    ErdState, every legal allocation kept, one program per (table, round)."""
    game = _game(rules, limit, turrets)
    first = replace(game.new_game(0), sides=(tiny_start(*red), tiny_start(*blue)))
    memo: dict[tuple, float] = {}

    def value(state: ErdState) -> float:
        if state.is_over:
            return state.returns[0]
        key = (state.sides, state.round)
        if key not in memo:
            reds, blues = state.legal_actions(0), state.legal_actions(1)
            table = [[value(state.apply(0, a).apply(1, b)) for b in blues] for a in reds]
            memo[key] = solve_columns(np.array(table)).value
        return memo[key]

    return value(first)


@cache
def tiny_solution(rules, red, blue, limit, turrets="until_recovered") -> Solution:
    model = build_model(
        erd_game(rules=rules, turret_lifetime=turrets), (tiny_start(*red), tiny_start(*blue))
    )
    return value_iteration(model, limit)


@pytest.mark.parametrize("case", TINY)
def test_tiny_variants_agree_with_brute_force(case):
    value = tiny_solution(*case).opening_value
    assert value == pytest.approx(brute_force_value(*case), abs=1e-9)


def test_uneven_tiny_variants_are_not_all_draws():
    # Otherwise the brute-force comparison could pass with a solver that answers 0.
    assert max(abs(tiny_solution(*case).opening_value) for case in TINY) > 0.1


@pytest.mark.parametrize("case", TINY)
def test_every_transition_matches_the_engine(case):
    """Every legal pair of allocations (not only the classes' representatives) leads where
    the model says, in the engine, with the reason and what happened in the round: the
    reductions are exact, and so is an answer of combat reused from a state with the same
    Turrets."""
    solution = tiny_solution(*case)
    model = solution.model
    for stage in model.states:
        stood = TURRET_STOOD if stage.sides[0].turrets or stage.sides[1].turrets else 0
        for i, row in enumerate(stage.rows):
            for j, column in enumerate(stage.columns):
                for a in row:
                    for b in column:
                        report, after = resolve_round(model.game, stage.sides, (a, b), 1)
                        flags = (
                            stood
                            | (ESCALATION if report.escalation else 0)
                            | (TURRET_MADE if any(report.turrets_made) else 0)
                        )
                        assert stage.flags[i, j] == flags
                        if report.ending is None:
                            index, sign = model.locate(after)
                            assert (index, sign) == (stage.successor[i, j], stage.sign[i, j])
                            assert stage.reason[i, j] == REASON_CODE["continue"]
                        else:
                            assert stage.successor[i, j] == -1
                            winner = report.ending.winner
                            expected = 0 if winner is None else 1 if winner == 0 else -1
                            assert stage.payoff[i, j] == expected
                            assert stage.reason[i, j] == REASON_CODE[report.ending.reason]


@pytest.mark.parametrize("case", TINY)
def test_checks_pass_on_tiny_variants(case):
    solution = tiny_solution(*case)
    assert stage_exploitability(solution) <= 1e-9
    checked, difference = cross_check(solution, sample=20)
    assert checked > 0 and difference <= 1e-9
    worst, gap = exploitability(solution, equilibrium_strategy(solution))
    assert gap <= 1e-9
    assert worst <= min(solution.opening_value, -solution.opening_value) + 1e-9


# A 0.02 game that lasts past its first Escalation (in TINY's, the player left holding a Heavy
# or a Light wins at it, and no state's support repeats for the shortcut to reuse).
REUSED = [*TINY[:3], ("0.02", (2, 2, 3), (2, 3, 3), 3)]


@pytest.mark.parametrize("case", REUSED)
def test_solving_again_on_the_last_support_gives_the_programs_values(case):
    """Value iteration's shortcut (``reuse``) against a program for every state and sweep:
    the same values, mixes as optimal, fewer programs."""
    rules, red, blue, limit = case
    model = build_model(erd_game(rules=rules), (tiny_start(*red), tiny_start(*blue)))
    horizon = 3 * limit
    reused = value_iteration(model, horizon)
    programs = value_iteration(model, horizon, reuse=False)
    assert reused.reused > 0 and reused.programs < programs.programs
    for ours, theirs in zip(reused.values, programs.values, strict=True):
        assert ours == pytest.approx(theirs, abs=1e-9)
    assert stage_exploitability(reused) <= 1e-9


def test_random_play_is_exploitable():
    solution = tiny_solution(*TINY[0])
    assert exploitability(solution, uniform_strategy(solution))[1] > 0.05


def test_stage_exploitability_sees_a_wrong_mix():
    solution = tiny_solution(*TINY[0])
    entries = solution.history[solution.model.start_index]
    k, row, column = entries[-1]
    wrong = np.zeros_like(row)
    wrong[int(np.argmin(row))] = 1.0  # a pure allocation the optimal mix avoids
    entries[-1] = (k, wrong, column)
    try:
        assert stage_exploitability(solution) > 1e-3
    finally:
        entries[-1] = (k, row, column)


# -- statistics ------------------------------------------------------------------------------
def test_play_statistics_add_up():
    solution = tiny_solution(*TINY[0])
    stats = play_statistics(solution)
    assert sum(stats.ends_in_round) + stats.reaches_limit == pytest.approx(1.0, abs=1e-12)
    assert sum(stats.reasons.values()) == pytest.approx(1.0, abs=1e-12)
    # A symmetric opening: each side wins as often as the other.
    assert stats.red_wins == pytest.approx(stats.blue_wins, abs=1e-9)
    # Round 1 by hand: the chance the opening's cells end the game under both mixes.
    stage = solution.model.states[solution.model.start_index]
    row, column = solution.mixes(solution.model.start_index, solution.horizon)
    first = float((np.outer(row, column) * (stage.successor < 0)).sum())
    assert stats.ends_in_round[0] == pytest.approx(first, abs=1e-12)
    assert 1.0 <= stats.expected_length <= solution.horizon


# -- the stored solution ---------------------------------------------------------------------
def test_a_stored_solution_reads_back_the_same():
    solution = tiny_solution(*TINY[1])
    back, summary = from_bytes(solution.model.game, to_bytes(solution, {"x": 1}))
    assert summary == {"x": 1}
    assert back.opening_value == solution.opening_value
    assert back.model.start == solution.model.start and back.model.index == solution.model.index
    for mine, theirs in zip(back.model.states, solution.model.states, strict=True):
        assert (mine.sides, mine.rows, mine.columns) == (theirs.sides, theirs.rows, theirs.columns)
        for name in ("successor", "sign", "payoff", "reason", "flags"):
            a, b = getattr(mine, name), getattr(theirs, name)
            assert a.dtype == b.dtype and np.array_equal(a, b), name
    assert np.array_equal(back.values, solution.values)
    for mine, theirs in zip(back.history, solution.history, strict=True):
        assert [k for k, _, _ in mine] == [k for k, _, _ in theirs]
        for (_, row, column), (_, row0, column0) in zip(mine, theirs, strict=True):
            # Exactly, but for weights under 1e-15, which are stored as none.
            assert np.array_equal(row, np.where(row0 > 1e-15, row0, 0.0))
            assert np.array_equal(column, np.where(column0 > 1e-15, column0, 0.0))
    facts = ("horizon", "converged", "last_change", "programs", "reused", "seconds")
    assert [getattr(back, f) for f in facts] == [getattr(solution, f) for f in facts]


def test_a_new_solve_removes_the_entry_of_an_earlier_format(tmp_path, monkeypatch):
    """A format change leaves a never-read entry of tens of MB behind; the next solve of the
    same options removes it, and nothing else."""
    import meeple.solvers.erd.solve as solve_module

    tiny = (tiny_start(1, 1, 1), tiny_start(1, 1, 1))
    monkeypatch.setattr(
        solve_module, "build_model", lambda game, progress=None: build_model(game, tiny)
    )
    options = {"rules": "0.02", "round_limit": 3}
    play, horizon = solve_module.solved_options(options)
    stale = [tmp_path / f"{solution_key(play, horizon, f'erd-solve/{v}')}.json" for v in (1, 2)]
    other = tmp_path / f"{solution_key({**play, 'rules': '0.01'}, horizon, 'erd-solve/2')}.json"
    for path in (*stale, other):
        path.write_text("{}")
    _, _, cached = solve_module.solve_erd(options, tmp_path)
    assert not cached
    assert not any(path.exists() for path in stale) and other.exists()
    assert (tmp_path / f"{solution_key(play, horizon)}.bin").exists()
    assert solve_module.solve_erd(options, tmp_path)[2]  # and read back


def _edited(payload: bytes, name: str, edit) -> bytes:
    """A stored solution's payload with one of its arrays edited."""
    with np.load(io.BytesIO(payload)) as stored:
        arrays = {n: stored[n] for n in stored.files}
    arrays[name] = edit(arrays[name])
    out = io.BytesIO()
    np.savez_compressed(out, **arrays)
    return out.getvalue()


@pytest.mark.parametrize(
    ("name", "edit"),
    [
        ("successor", lambda a: a[:-1]),  # a table one cell short
        ("rows_class", lambda a: a + 1_000),  # a mix over classes that are not there
        ("rows_class", lambda a: a - 1_000),
        ("rows_weighted", lambda a: a + 1),  # mixes that do not add up to their entries
        ("history_per_state", lambda a: a[:-1]),
        ("values", lambda a: a[:, :-1]),
        ("columns_text", lambda a: np.array(["no allocation"] * len(a))),
        ("facts", lambda a: np.frombuffer(b"[1, 2]", dtype=np.uint8)),
    ],
)
def test_a_malformed_stored_solution_is_refused(name, edit):
    solution = tiny_solution(*TINY[1])
    payload = _edited(to_bytes(solution, {}), name, edit)
    with pytest.raises(ValueError, match=r"malformed"):
        from_bytes(solution.model.game, payload)


@pytest.mark.parametrize("payload", [b"", b"not an archive", b"PK\x03\x04 cut short"])
def test_a_payload_that_is_no_stored_solution_is_refused(payload):
    solution = tiny_solution(*TINY[1])
    with pytest.raises(ValueError, match=r"malformed"):
        from_bytes(solution.model.game, payload)


# -- the agent -------------------------------------------------------------------------------
def test_the_agent_follows_the_optimal_mix():
    rules, red, blue, limit = TINY[0]
    solution = tiny_solution(*TINY[0])
    game = _game(rules, limit)
    state = replace(game.new_game(0), sides=(tiny_start(*red), tiny_start(*blue)))
    agent = EquilibriumAgent(game, seed=5, solution=solution)
    classes, weights = agent.mix(state, 0)
    seen = dict.fromkeys(range(len(classes)), 0)
    where = {a: i for i, c in enumerate(classes) for a in c}
    draws = 3000
    for _ in range(draws):
        seen[where[agent.act(Observation(state, 0))]] += 1
    for i, p in enumerate(weights):
        spread = 4 * math.sqrt(max(p * (1 - p), 1e-12) / draws) + 1e-9
        assert abs(seen[i] / draws - p) <= spread, (classes[i][0], seen[i] / draws, p)
    assert sum(1 for p in weights if p > 1e-9) >= 2  # a mixed strategy, not a pure one


def test_the_agent_is_registered_for_erd():
    from meeple.core.registry import game_agents

    assert game_agents("erd")["equilibrium"] is EquilibriumAgent


# -- the command line ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "0.03"], "option 'rules' of erd"),
        (["-o", "colour=red"], "unknown option 'colour' for erd"),
        (["-o", "turret_lifetime"], "name=value"),
        (["-o", "round_limit=0"], "option 'round_limit' of erd"),
    ],
)
def test_bad_erd_options_get_one_line(args, message, tmp_path):
    result = CliRunner().invoke(app, ["solve", "erd", "--cache-dir", str(tmp_path), *args])
    assert result.exit_code != 0
    output = " ".join(result.output.split())
    assert message in output
    # the words of meeple play, not pydantic's report
    assert (
        "Traceback" not in output and "validation error" not in output and "pydantic" not in output
    )


def test_the_heuristic_agents_mix_is_exploitable_but_a_mix():
    from meeple.games.erd.agents import HeuristicAgent
    from meeple.solvers.erd.analysis import heuristic_strategy

    solution = tiny_solution(*TINY[0])
    strategy = heuristic_strategy(solution, HeuristicAgent(solution.model.game))
    start = solution.model.start_index
    mix = strategy(start, 0, solution.horizon)
    assert mix.sum() == pytest.approx(1.0)
    worst, gap = exploitability(solution, strategy)
    assert gap >= -1e-9
    assert worst <= solution.opening_value + 1e-9


def test_the_agent_names_the_solve_it_needs_instead_of_solving_for_minutes(tmp_path):
    """The command named solves into the agent's cache folder (it named none: the solve went
    to the default folder, where the agent did not look) with a flag for each option not at
    its default, and no flag for those that are."""
    from meeple.agents.spec import make_agent

    folder = tmp_path / "a folder"
    cases = [
        ({"rules": "0.01"}, "meeple solve erd --rules 0.01"),
        (
            {"rush_tiebreak": "cards", "round_limit": 6},
            "meeple solve erd -o rush_tiebreak=cards -o round_limit=6",
        ),
    ]
    for options, command in cases:
        game = meeple.make("erd", **options)
        with pytest.raises(MeepleError) as refusal:
            make_agent(f"equilibrium:cache_dir={folder}", game)
        assert str(refusal.value).endswith(f"with: {command} --cache-dir '{folder}'")


def test_every_option_that_changes_play_is_part_of_what_is_solved():
    """The starting Reserve and the mercy rule came as options after the solver: a solve
    left them out, so ``-o mercy=none`` printed 0.02's solution, and the hard agent, hints
    and reviews of a game with another Reserve met states the model did not have (a
    traceback in `meeple play`). Every option is part of a solve's key but those that only
    string games together or bound them."""
    from meeple.games.erd.rules import ErdOptions
    from meeple.solvers.erd.solve import PLAY_OPTIONS

    base = meeple.core.options.GameOptions.model_fields
    others = {"best_of", "match_draws", "round_limit", *base}
    assert set(ErdOptions.model_fields) - others == set(PLAY_OPTIONS)


@pytest.mark.parametrize(
    ("options", "named", "plays"),
    [
        ({"mercy": "none"}, {"mercy": "none"}, lambda g: g.version.mercy is None),
        (
            {"rules": "original", "mercy": "0.02"},
            {"mercy": "0.02"},
            lambda g: g.version.mercy == "0.02",
        ),
        (
            {"reserve": "HHHLLLLDDDDDD"},
            {"reserve": "HHHLLLLDDDDDD"},
            lambda g: g.starting_side.reserve.total == 13,
        ),
        # As the version has them: named nowhere, the version's own solve.
        ({"mercy": "0.02"}, {}, lambda g: g.version.mercy == "0.02"),
        ({"reserve": "DDDDDDLLLHHH"}, {}, lambda g: g.starting_side.reserve.total == 12),
    ],
)
def test_a_reserve_or_mercy_rule_of_its_own_is_another_solve(options, named, plays):
    from meeple.solvers.erd.solve import game_for, solved_options

    play, horizon = solved_options(options)
    shipped, _ = solved_options({"rules": options.get("rules", "0.02")})
    assert play == {**shipped, **named}
    assert (solution_key(play, horizon) == solution_key(shipped, horizon)) == (not named)
    assert plays(game_for(play))
    # A server solves only the versions as shipped unless its operator allows more.
    assert EquilibriumAgent.shipped(meeple.make("erd", **options)) == (not named)


def test_the_shipped_versions_keep_the_solve_they_had():
    """A version's solve is keyed as it was before the Reserve and mercy options existed:
    the solutions cached on users' machines stay theirs."""
    from meeple.solvers.erd.solve import solved_options

    for rules in ("original", "0.01", "0.02"):
        before = {"rules": rules, "turret_lifetime": "until_recovered",
                  "escalation_lights": "all", "rush_tiebreak": "value"}  # fmt: skip
        assert solution_key(solved_options({"rules": rules})[0], 200) == solution_key(before, 200)


def test_a_cache_folder_the_system_refuses_holds_no_solution(tmp_path):
    """A name too long for the file system (Python 3.11's exists() raises for it rather than
    answer False) is a folder without the solve, not an error from asking."""
    from meeple.solvers.erd.solve import is_stored

    assert not is_stored(meeple.make("erd"), tmp_path / ("c" * 300))


# -- exact policy evaluation: equilibrium against heuristic -----------------------------------
def _agents(case):
    """The equilibrium and heuristic agents for a tiny case, on the engine's own game (its
    round limit included), and the tiny opening state."""
    from meeple.games.erd.agents import HeuristicAgent

    rules, red, blue, limit, *turrets = case
    game = _game(rules, limit, *turrets)
    first = replace(game.new_game(0), sides=(tiny_start(*red), tiny_start(*blue)))
    return (
        EquilibriumAgent(game, seed=1, solution=tiny_solution(*case)),
        HeuristicAgent(game),
        first,
    )


def brute_force_chances(case, eq_seat: int) -> tuple[float, float]:
    """The equilibrium agent's chance of a win and of a loss against the heuristic, by plain
    recursion over the engine's states with each agent's own mix (its ``mix``, the
    heuristic's one-round game at the engine's round number)."""
    from meeple.games.erd.agents import one_round_strategy

    eq, heuristic, first = _agents(case)
    memo: dict[tuple, tuple[float, float]] = {}

    def mix(state: ErdState, player: int) -> list[tuple]:
        if player == eq_seat:
            classes, weights = eq.mix(state, player)
            return [(c[0], w) for c, w in zip(classes, weights, strict=True) if w > 0]
        game, weights = heuristic.game, heuristic.weights
        return list(one_round_strategy(game, weights, state.sides, player, state.round).items())

    def chances(state: ErdState) -> tuple[float, float]:
        if state.is_over:
            result = state.returns[eq_seat]
            return float(result > 0), float(result < 0)
        key = (state.sides, state.round)
        if key not in memo:
            win = loss = 0.0
            for a, p in mix(state, 0):
                for b, q in mix(state, 1):
                    w, l_ = chances(state.apply(0, a).apply(1, b))
                    win, loss = win + p * q * w, loss + p * q * l_
            memo[key] = (win, loss)
        return memo[key]

    return chances(first)


OUTCOME_CASES = [TINY[0], TINY[1], TINY[5]]


@pytest.mark.parametrize("case", OUTCOME_CASES)
def test_exact_outcome_against_the_heuristic_agrees_with_brute_force(case):
    from meeple.solvers.erd.analysis import heuristic_strategy, outcome

    eq, heuristic, _ = _agents(case)
    solution = eq.solution
    exact = outcome(
        solution, equilibrium_strategy(solution), heuristic_strategy(solution, heuristic)
    )
    for seat, (win, _, loss) in enumerate((exact.as_red, exact.as_blue)):
        assert (win, loss) == pytest.approx(brute_force_chances(case, seat), abs=1e-9)
    # Against itself the equilibrium scores the value as Red and its negation as Blue.
    itself = outcome(solution, equilibrium_strategy(solution), equilibrium_strategy(solution))
    assert itself.as_red[0] - itself.as_red[2] == pytest.approx(solution.opening_value, abs=1e-9)
    assert itself.as_blue[0] - itself.as_blue[2] == pytest.approx(-solution.opening_value, abs=1e-9)


def _sampled_score(eq, other, first, games: int) -> float:
    """The equilibrium agent's mean return over ``games`` played from ``first`` against
    ``other``, seats alternated."""
    total = 0.0
    for k in range(games):
        seats = (eq, other) if k % 2 == 0 else (other, eq)
        state = first
        while not state.is_over:
            for player in (0, 1):
                state = state.apply(player, seats[player].act(Observation(state, player)))
        total += state.returns[k % 2]
    return total / games


def test_exact_outcome_agrees_with_a_sampled_match():
    from meeple.solvers.erd.analysis import heuristic_strategy, outcome

    # Two Heavies each: with one each (TINY[0]) both are soon discarded and the Escalation
    # leaves the heuristic no worse than the equilibrium.
    eq, heuristic, first = _agents(("original", (2, 1, 1), (2, 1, 0), 4))
    exact = outcome(
        eq.solution, equilibrium_strategy(eq.solution), heuristic_strategy(eq.solution, heuristic)
    )
    assert exact.score > 0.05  # an edge the sample below can see, not a draw everywhere
    games = 600
    # Four standard errors of the mean return (at most 1 a game).
    assert abs(_sampled_score(eq, heuristic, first, games) - exact.score) <= 4 / math.sqrt(games)
    assert exact.games_to_separate() > 0


def test_the_careless_agents_exact_outcome_agrees_with_a_sampled_match():
    """The careless agent (the heuristic, slipping into a random allocation at a chance of
    0.3) plays the mix ``slipping_strategy`` says: the equilibrium's exact score against
    that mix is what 4,000 sampled games give, within four standard errors, a band that
    leaves out the scores against never and always slipping; at those ends the mix is
    the heuristic's and random play's."""
    from meeple.agents.spec import make_agent
    from meeple.solvers.erd.analysis import heuristic_strategy, outcome, slipping_strategy

    eq, heuristic, first = _agents(("original", (2, 1, 1), (2, 1, 0), 4))
    careless = make_agent("careless:slip=0.3", first.game, seed=3)
    solution = eq.solution
    mix = slipping_strategy(solution, heuristic_strategy(solution, heuristic), 0.3)
    exact = outcome(solution, equilibrium_strategy(solution), mix)
    games = 4000
    band = 4 / math.sqrt(games)
    assert abs(_sampled_score(eq, careless, first, games) - exact.score) <= band
    never = slipping_strategy(solution, heuristic_strategy(solution, heuristic), 0.0)
    always = slipping_strategy(solution, heuristic_strategy(solution, heuristic), 1.0)
    for end in (never, always):
        score = outcome(solution, equilibrium_strategy(solution), end).score
        assert abs(score - exact.score) > band
    assert exploitability(solution, never) == pytest.approx(
        exploitability(solution, heuristic_strategy(solution, heuristic))
    )
    assert exploitability(solution, always) == pytest.approx(
        exploitability(solution, uniform_strategy(solution))
    )


def test_model_difference_tells_one_game_from_another():
    from meeple.solvers.erd.model import model_difference

    start = (tiny_start(1, 2, 0), tiny_start(1, 1, 1))
    base = build_model(erd_game(rules="original"), start)
    again = build_model(erd_game(rules="original"), start)
    assert model_difference(base, again).same_game
    one_combat = build_model(erd_game(rules="original", turret_lifetime="one_combat"), start)
    assert not model_difference(base, one_combat).same_game
    # One cell changed (a win for Red instead of whatever it was) is one state that differs.
    stage = again.states[0]
    ended = np.argwhere(stage.successor < 0)[0]
    stage.payoff[tuple(ended)] = -stage.payoff[tuple(ended)] or 1.0
    assert model_difference(base, again).different == 1


def test_the_opening_table_says_what_alike_is_and_fits_80_columns(tmp_path, monkeypatch):
    """The column "alike" was never said, and the title broke mid-phrase at 80 columns (a
    terminal newcomer's findings)."""
    monkeypatch.setenv("COLUMNS", "80")
    args = ["-o", "reserve=HHLLDD", "-o", "round_limit=3", "-o", "best_of=1", "--no-cache"]
    result = CliRunner().invoke(app, ["solve", "erd", "--cache-dir", str(tmp_path), *args])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "Red's optimal opening mix (Blue's is the same)" in [line.strip() for line in lines]
    said = " ".join(result.output.split())
    assert "alike: how many allocations play as the one named against every reply" in said
    assert all(len(line) <= 80 for line in lines), result.output
