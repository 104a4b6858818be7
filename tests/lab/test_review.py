"""Judges of decisions and ``meeple analyse`` for every game (lab/review.py): the chosen
action's loss is 0 when it is the judge's best and above 0 for a known blunder; the search
judges see only the deciding seat's information and are reproducible; the JSON form."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import pytest

import meeple
from meeple.agents import make_agent, play_game
from meeple.agents.judge import SearchJudge
from meeple.core.record import GameRecord
from meeple.core.review import SEARCH_NOISE, Judgement, JudgeSettings
from meeple.games.erd.rules import ErdGame
from meeple.lab.review import REVIEW_FIELDS, make_judge, review_record
from meeple.solvers.edges_judge import EdgesJudge
from meeple.solvers.edges_solver import EdgesSolver, pyramids_left
from meeple.solvers.erd.exploit import table
from meeple.solvers.erd.iteration import value_iteration
from meeple.solvers.erd.judge import ErdJudge
from meeple.solvers.erd.model import build_model, erd_game, tiny_start

CARD_GAMES = ["erosion", "triangle-clock", "squad-combat"]


def _edges_game(seed: int) -> tuple[list, list[tuple[int, str]]]:
    """The states and moves of a random 2x2 game of Edges (pie rule on)."""
    state = meeple.make("edges", board="2x2", stash="2/2/1", pie=True, first=0).new_game(0)
    rng, states, moves = random.Random(seed), [state], []
    while not state.is_over:
        mover = state.to_act[0]
        action = rng.choice(state.legal_actions(mover))
        moves.append((mover, str(action)))
        state = state.apply(mover, action)
        states.append(state)
    return states, moves


def _edges_blunder() -> tuple[list, list[tuple[int, str]], int, object, object]:
    """A 2x2 position with a move that keeps the value and one that loses 2 points or more:
    (history, moves before it, seat, best move, blunder)."""
    for seed in range(50):
        states, moves = _edges_game(seed)
        solver = EdgesSolver(states[0].game.board, tt_bits=16)
        for k, state in enumerate(states[:-1]):
            if state.pie_available or pyramids_left(state) > 6:
                continue
            seat = state.to_act[0]
            sign = 1 if seat == 0 else -1
            value = sign * solver.value(state)
            worst = min(state.legal_actions(seat),
                        key=lambda a: sign * solver.value(state._next(seat, a)))  # fmt: skip
            if value - sign * solver.value(state._next(seat, worst)) >= 2:
                best = solver.best_action(state)[0]
                return states[: k + 1], moves[:k], seat, best, worst
    raise AssertionError("no blunder of 2 points in 50 random games")


def test_the_exact_edges_judge_gives_the_best_move_no_loss_and_a_blunder_its_points():
    history, moves, seat, best, worst = _edges_blunder()
    judge = EdgesJudge(history[0].game, JudgeSettings())
    good = judge.judge(history, moves, seat, best)
    assert good.judge == "exact" and good.unit == "points"
    assert good.loss == 0 and not good.mistake and good.best == str(best)
    bad = judge.judge(history, moves, seat, worst)
    assert bad.loss is not None and bad.loss >= 2 and bad.mistake
    assert bad.values[str(worst)] == bad.values[bad.best] - bad.loss
    # Every move (up to symmetry) is valued, and none beats the best.
    assert (
        len(bad.values) > 2
        and max(v for v in bad.values.values() if v is not None) == (bad.values[bad.best])
    )


def test_the_edges_judge_searches_with_uct_beyond_max_left():
    history, moves, seat, _, worst = _edges_blunder()
    judge = EdgesJudge(history[0].game, JudgeSettings(max_left=1, iterations=4000))
    bad = judge.judge(history, moves, seat, worst)
    assert bad.judge == "uct 4000" and bad.unit == "return"
    assert bad.loss is not None and bad.loss > SEARCH_NOISE and bad.mistake
    chosen = history[-1].game.parse_action(bad.best)
    good = judge.judge(history, moves, seat, chosen)
    assert good.loss == 0 and good.best == bad.best and not good.mistake
    # Why a search, and the tries its values rest on, as the header says 'why' gives.
    assert re.fullmatch(
        r"the search's choice, \d+ of 4000 tries \(searched: more than 1 pyramids left\)",
        good.why or "",
    ), good.why
    tried = re.fullmatch(r"([-+]\d\.\d\d) in (\d+) tries? against ([-+]\d\.\d\d) .*", bad.why)
    assert tried, bad.why
    assert float(tried[3]) - float(tried[1]) == pytest.approx(bad.loss, abs=0.011)


def _tiny_erd() -> tuple[ErdJudge, object]:
    """A judge of a tiny solved Erd variant with real mixing, and its opening."""
    rules, red, blue, limit, turrets = ("original", (1, 1, 1), (1, 2, 1), 3, "until_recovered")
    solution = value_iteration(
        build_model(erd_game(rules=rules, turret_lifetime=turrets),
                    (tiny_start(*red), tiny_start(*blue))),
        limit,
    )  # fmt: skip
    model_game = erd_game(rules=rules, turret_lifetime=turrets)
    game = ErdGame(model_game.options.model_copy(update={"round_limit": limit, "best_of": 1}))
    first = replace(game.new_game(0), sides=(tiny_start(*red), tiny_start(*blue)))
    return ErdJudge(game, JudgeSettings(), solution=solution), first


@pytest.mark.parametrize("seat", [0, 1])
def test_the_erd_judge_prices_each_allocation_against_the_equilibrium_mix(seat):
    judge, state = _tiny_erd()
    legal = state.legal_actions(seat)
    some = judge.judge([state], [], seat, legal[0])
    tab = table(judge.solution, state, seat)
    # Against the opponent's optimal mix the best allocation earns the table's value
    # (the equilibrium's property), and no allocation earns more.
    assert some.values[some.best] == pytest.approx(tab.value, abs=1e-6)
    assert set(some.values) == {str(a) for a in legal}
    best = judge.judge([state], [], seat, state.game.parse_action(some.best))
    assert best.loss == 0 and not best.mistake and best.judge == "equilibrium"
    worst = min(legal, key=lambda a: some.values[str(a)])
    bad = judge.judge([state], [], seat, worst)
    assert bad.mistake and bad.loss == pytest.approx(tab.value - some.values[str(worst)])
    assert bad.loss > 0.05


def _heuristic_game(name: str, seed: int = 3) -> GameRecord:
    game = meeple.make(name)
    agents = [make_agent("heuristic", game, seed=s) for s in range(game.num_players)]
    return play_game(game, agents, seed=seed).record()


def _a_decision(record: GameRecord, skip: int = 1) -> tuple[list, list, int]:
    """(history, moves before it, seat) at the ``skip``-th decision with 3+ legal actions."""
    states = record.states()
    for k, (seat, _) in enumerate(record.moves):
        if len(states[k].legal_actions(seat)) >= 3:
            skip -= 1
            if skip == 0:
                return states[: k + 1], list(record.moves[:k]), seat
    raise AssertionError("no decision with three choices")


@pytest.mark.parametrize("name", CARD_GAMES)
def test_the_search_judge_gives_its_best_no_loss_and_a_bad_move_a_loss(name):
    record = _heuristic_game(name)
    history, moves, seat = _a_decision(record)
    judge = make_judge(history[0].game, JudgeSettings(iterations=300))
    assert isinstance(judge, SearchJudge)
    legal = history[-1].legal_actions(seat)
    first = judge.judge(history, moves, seat, legal[0])
    assert first.judge == "ismcts 300" and first.unit == "return"
    best = history[0].game.parse_action(first.best)
    good = judge.judge(history, moves, seat, best)
    assert good.loss == 0 and not good.mistake
    # Seeded: the same decision judged again gives the same values.
    assert good.values == first.values
    valued = [a for a in legal if first.values[str(a)] is not None]
    worst = min(valued, key=lambda a: first.values[str(a)])
    bad = judge.judge(history, moves, seat, worst)
    assert bad.loss is not None and bad.loss > 0
    assert bad.loss == pytest.approx(first.values[first.best] - first.values[str(worst)])


@pytest.mark.parametrize("name", CARD_GAMES)
def test_the_search_judge_sees_only_the_deciding_seats_information(name):
    """Resampling everything the seat cannot see (the others' hands, the deck) changes
    nothing in its judgement: it searches from its own view."""
    record = _heuristic_game(name)
    history, moves, seat = _a_decision(record, skip=2)
    judge = make_judge(history[0].game, JudgeSettings(iterations=100))
    chosen = history[-1].legal_actions(seat)[0]
    seen = judge.judge(history, moves, seat, chosen)
    changed = 0
    for sample in range(3):
        other = history[-1].determinize(seat, random.Random(sample))
        changed += other != history[-1]
        again = judge.judge([*history[:-1], other], moves, seat, chosen)
        assert again.values == seen.values and again.best == seen.best
    assert changed  # the test resampled hidden cards, not the same state thrice


def test_review_json_lists_every_decision_with_the_documented_fields(run, tmp_path):
    record = _heuristic_game("erosion")
    path = tmp_path / "erosion.json"
    record.save(path)
    out = run("analyse", str(path), "--json", "--iterations", "30")
    assert out.exit_code == 0, out.output
    reviewed = json.loads(out.output)
    assert [d["n"] for d in reviewed] == list(range(1, len(record.moves) + 1))
    for d, (seat, text) in zip(reviewed, record.moves, strict=True):
        assert tuple(d) == REVIEW_FIELDS
        assert d["seat"] == seat and d["action"] == text and d["best"] in d["values"]
        assert d["judge"] in ("ismcts 30",) and d["unit"] == "return"
        assert d["loss"] is None or d["loss"] >= 0
        assert all(v is None or -1 <= v <= 1 for v in d["values"].values())
    again = run("analyse", str(path), "--json", "--iterations", "30")
    assert json.loads(again.output) == reviewed  # seeded: a review is reproducible
    table = run("analyse", str(path), "--all", "--iterations", "30")
    assert table.exit_code == 0 and "ismcts 30" in table.output
    assert f"{len(record.moves)} decisions judged by ismcts 30" in " ".join(table.output.split())


def test_review_record_covers_every_move_and_uses_each_games_judge(tmp_path):
    record = _heuristic_game("triangle-clock")
    reviewed = review_record(record, JudgeSettings(iterations=10))
    assert [r.n for r in reviewed] == list(range(1, len(record.moves) + 1))
    assert all(isinstance(r.judgement, Judgement) for r in reviewed)
    forced = [r for r in reviewed if r.judgement.why == "the only legal action"]
    assert all(r.judgement.loss == 0 for r in forced)


def test_analyse_refuses_a_bad_record_or_budget_with_one_line(run, tmp_path):
    (tmp_path / "text.json").write_text("not json")
    ranked = GameRecord(game="triangle-clock", options={"ranking": "/etc/passwd"}, seed=1,
                        moves=[])  # fmt: skip
    ranked.save(tmp_path / "ranked.json")
    for name, words in (("text.json", "is not JSON"), ("ranked.json", "names a file")):
        out = run("analyse", str(tmp_path / name))
        assert out.exit_code == 2 and words in out.output, out.output
        assert len(out.output.strip().splitlines()) == 1 and "Traceback" not in out.output
    record = _heuristic_game("erosion")
    record.save(tmp_path / "ok.json")
    too_many = run("analyse", str(tmp_path / "ok.json"), "--iterations", "100001")
    assert too_many.exit_code == 2 and "100000" in too_many.output.replace(",", "")


def test_double_edges_is_judged_by_search_and_says_why():
    game = meeple.make("edges", board="2x2", double=True, stash="1/1/1")
    state, rng, moves = game.new_game(0), random.Random(4), []
    for _ in range(3):
        mover = state.to_act[0]
        action = rng.choice(state.legal_actions(mover))
        moves.append((mover, str(action)))
        state = state.apply(mover, action)
    record = GameRecord(game="edges", options={"board": "2x2", "double": True, "stash": "1/1/1"},
                        seed=0, moves=moves)  # fmt: skip
    reviewed = review_record(record, JudgeSettings(iterations=50))
    assert [r.judgement.judge for r in reviewed] == ["uct 50"] * 3
    assert all("not Double Edges" in (r.judgement.why or "") for r in reviewed)
