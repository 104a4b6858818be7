"""Hints (lab/hints.py): the judge's best move for one seat now, from that seat's
information only, with a word of why; the server's caps on the judge's work."""

from __future__ import annotations

import random

import pytest

import meeple
from meeple.agents.judge import SearchJudge
from meeple.agents.warm import compiled_job
from meeple.core import kernel_cache
from meeple.core.errors import MeepleError
from meeple.core.review import Judgement, best_play_words, outlook
from meeple.lab.hints import HINT_FIELDS, HINTS, _generic_why, hint, hint_judge, warm_hints
from meeple.solvers.edges_judge import EdgesJudge
from meeple.solvers.edges_solver import EdgesSolver
from meeple.solvers.erd.exploit import table
from meeple.solvers.erd.judge import TOLERANCE
from tests.lab.test_review import (
    CARD_GAMES,
    _a_decision,
    _edges_blunder,
    _heuristic_game,
    _tiny_erd,
)


@pytest.mark.parametrize("name", CARD_GAMES)
def test_a_hint_is_the_same_whatever_the_hidden_cards(name):
    """Re-deal everything the seat cannot see (the others' hands, the deck): the hint does
    not change, so it tells nothing of them."""
    record = _heuristic_game(name)
    history, moves, seat = _a_decision(record, skip=2)
    judge = hint_judge(history[0].game, 100)
    seen = hint(history, moves, seat, judge)
    assert set(seen) == set(HINT_FIELDS)
    assert seen["best"] in {str(a) for a in history[-1].legal_actions(seat)}
    changed = 0
    for sample in range(3):
        other = history[-1].determinize(seat, random.Random(sample))
        assert other.view(seat) == history[-1].view(seat)
        changed += other != history[-1]
        assert hint([*history[:-1], other], moves, seat, judge) == seen
    assert changed  # the hidden cards were re-dealt, not the same state thrice


def test_an_edges_hint_near_the_end_is_the_solvers_best_and_names_the_squares():
    history, moves, seat, _best, _blunder = _edges_blunder()
    state = history[-1]
    judge = hint_judge(state.game, 20_000, max_left=12)
    given = hint(history, moves, seat, judge)
    solver = EdgesSolver(state.game.board, tt_bits=16)
    sign = 1 if seat == 0 else -1
    after = state._next(seat, state.game.parse_action(given["best"]))
    assert solver.value(after) == solver.value(state)  # the hint keeps the position's value
    assert given["judge"] == "exact" and given["unit"] == "points"
    value = sign * solver.value(state)
    assert best_play_words(value) in given["why"]
    assert "square" in given["why"]


def test_warming_edges_hints_compiles_the_solver_a_hint_near_the_end_runs(monkeypatch, tmp_path):
    # A server warms a game's hints before the first one's allowance starts: for Edges
    # that must reach the solver, or the first hint near the end compiles it in its time.
    monkeypatch.setattr(kernel_cache, "_marks_folder", lambda: tmp_path)
    solved = []
    value = EdgesSolver.value

    def counted(self, state, *rest):
        solved.append(state)
        return value(self, state, *rest)

    monkeypatch.setattr(EdgesSolver, "value", counted)
    warm_hints("edges")
    assert solved
    assert not kernel_cache.needs_compiling(compiled_job("edges", HINTS))


def test_the_hint_judge_is_capped_by_the_servers_limits():
    edges = hint_judge(meeple.make("edges"), 500)
    assert isinstance(edges, EdgesJudge) and edges.iterations == 500
    assert edges.settings.max_left == 12
    erosion = hint_judge(meeple.make("erosion"), 20_000)
    assert isinstance(erosion, SearchJudge) and erosion.iterations == 200  # its own, lower


def test_a_hint_is_refused_for_a_seat_that_has_no_decision():
    state = meeple.make("edges").new_game(0)
    waiting = 1 - state.to_act[0]
    with pytest.raises(MeepleError, match="no decision to make now"):
        hint([state], [], waiting, hint_judge(state.game, 100))


@pytest.mark.parametrize("seat", [0, 1])
def test_an_erd_hint_gives_the_equilibrium_mix_and_what_each_allocation_risks(seat):
    judge, state = _tiny_erd()
    given = hint([state], [], seat, judge)
    tab = table(judge.solution, state, seat)
    assert given["judge"] == "equilibrium"
    assert given["value"] == pytest.approx(tab.value, abs=1e-6)  # a best reply earns the value
    assert f"value {tab.value:+.3f}" in given["why"]
    likeliest = max(range(len(tab.ours)), key=lambda k: tab.optimal[k])
    assert given["best"] == str(tab.ours[likeliest][0])  # the mix's likeliest best reply
    # The allocation in words, then the mix: the suggestion first, "this one", each share.
    best = state.game.parse_action(given["best"])
    assert given["why"].startswith(
        f"{best.rush.words()} on Rush and {best.defense.words()} on Defense. "
    )
    played = sorted((k for k in range(len(tab.ours)) if tab.optimal[k] > 1e-6),
                    key=lambda k: -tab.optimal[k])  # fmt: skip
    assert f"this one {tab.optimal[likeliest]:.0%}" in given["why"]
    for k in played[1:4]:
        assert f"{tab.ours[k][0]} {tab.optimal[k]:.0%}" in given["why"]
    # What the right reply to one of the shown allocations leaves the seat, at worst.
    risks = sorted({round(float(tab.payoff[k].min()), 2) for k in played[:4]})
    said = "a sure loss of this game" if risks[-1] <= -1 + 1e-6 else f"at worst {risks[0]:+.2f}"
    assert f"leaves you {said}" in given["why"]
    assert f"{outlook(tab.value)} in this game (value {tab.value:+.3f}" in given["why"]


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (0, "you finish level on points: a draw"),
        (1, "you finish 1 point ahead: a win"),
        (-3, "you finish 3 points behind: a loss"),
    ],
)
def test_an_exact_value_in_points_is_said_as_the_finish_it_means(value, words):
    # "+0 points" was read as a score of nothing, not as a draw.
    assert best_play_words(value) == f"with best play by both {words}"


def test_an_erd_hint_is_the_equilibrium_s_even_where_the_first_legal_move_earns_as_much(
    monkeypatch,
):
    """A hint judged the first legal allocation and suggested it wherever it earned the
    best value against the opponent's mix: one the equilibrium never plays (all Decoys)
    earns that much too, and a player who followed it lost to the reply that punishes it."""
    from meeple.games.erd.rules import ErdState

    judge, opening = _tiny_erd()
    rng, state = random.Random(0), opening
    while True:  # a table where an allocation out of the mix earns as much as its best
        if state.is_over:
            state = opening
        tab = table(judge.solution, state, 0)
        earned = tab.payoff @ tab.their_optimal
        best = earned.max()
        idle = [
            k for k in range(len(tab.ours))
            if earned[k] >= best - TOLERANCE and tab.optimal[k] <= TOLERANCE
        ]  # fmt: skip
        if idle:
            break
        moves = [rng.choice(state.legal_actions(p)) for p in (0, 1)]
        state = state.apply(0, moves[0]).apply(1, moves[1])
    out_of_mix = tab.ours[idle[0]][0]
    legal = ErdState.legal_actions
    monkeypatch.setattr(
        ErdState,
        "legal_actions",
        lambda self, seat: [out_of_mix, *(a for a in legal(self, seat) if a != out_of_mix)],
    )
    assert state.legal_actions(0)[0] == out_of_mix
    given = hint([state], [], 0, judge)
    likeliest = max(range(len(tab.ours)), key=lambda k: tab.optimal[k])
    assert given["best"] == str(tab.ours[likeliest][0]) != str(out_of_mix)


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (1.0, "you are likely to win"),
        (0.5, "you are likely to win"),
        (0.43, "better than even for you"),
        (0.0, "about even"),
        (-0.2, "worse than even for you"),
        (-0.9, "you are likely to lose, whatever you play"),
    ],
)
def test_a_searched_hint_says_its_outlook_in_words_before_its_figure(value, said):
    """A newcomer read "expected result +0.43 (-1 a loss, +1 a win) by ismcts 200" as
    nothing: the hint says the outlook first, then that it is an estimate, and the figure;
    "a search's estimate: ismcts 200" was jargon to the next newcomer."""
    judgement = Judgement(
        seat=0, action="a", best="a", loss=0.0, values={"a": value, "b": -1.0}, judge="ismcts 200"
    )
    why = _generic_why(judgement, value)
    assert why == (
        f"{said} (a quick search's estimate, not a certainty: {value:+.2f}, from -1 a loss to"
        " +1 a win)"
    )
