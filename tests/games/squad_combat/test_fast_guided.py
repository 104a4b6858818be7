"""Squad Combat's guided rollout (:mod:`meeple.games.squad_combat.compiled.guided`).

The policy chooses among the compiled rules' legal actions; these tests hold it to the
engine's legal actions, to returns in [-1, 1] that are zero-sum and reproducible, and check
that search with it plays whole games and decides only on what its seat sees.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import meeple
from meeple.agents.spec import make_agent
from meeple.core.agent import Observation
from meeple.core.conformance import random_playthrough
from meeple.core.registry import compiled_playout, compiled_values
from meeple.games.squad_combat.compiled import guided as fg
from meeple.games.squad_combat.compiled import reading as fr
from meeple.games.squad_combat.compiled import rules as fast
from meeple.games.squad_combat.compiled import transitions as ft


def _states(game, seed: int, every: int = 7) -> list:
    """Every ``every``-th state of a random game (a spread of steps and situations)."""
    return random_playthrough(game, seed).record().states()[::every]


@pytest.mark.parametrize(("options", "epsilon"), [({}, 0.0), ({}, 0.3), ({"players": 3}, 0.1)])
def test_the_policy_takes_only_the_engines_legal_actions_to_the_end(
    options: dict, epsilon: float
) -> None:
    game = meeple.make("squad-combat", **options)
    g = fast.game_array(game)
    moves = fast.moves_buffer()
    values = np.empty(fr.MAX_ACTIONS, dtype=np.float64)
    fg.seed(11)
    for seed in range(2):
        state = game.new_game(seed)
        steps = 0
        while not state.is_over:
            seat = state.to_act[0]
            s = fast.encode(state)
            kind, acting = fr.find_step(s, g)
            assert acting == seat
            n = fast.legal_actions(s, g, moves)
            action = fg.pick(s, g, kind, seat, moves, n, values, epsilon)
            legal = [game.action_id(a) for a in state.legal_actions(seat)]
            assert action in legal, (state.step_name, action, legal)
            state = state._next(seat, game.action_from_id(action))
            steps += 1
            assert steps < 5000
        assert state.ended is not None


def test_a_rollout_to_the_end_returns_the_real_outcome() -> None:
    game = meeple.make("squad-combat")
    g = fast.game_array(game)
    out = np.zeros(2)
    wins = [0, 0]
    for seed in range(40):
        s = fast.encode(game.new_game(seed % 4))
        fg.guided_rollout(s, g, seed, fg.EPSILON, 10**6, fg.SCALE, fg.ALIVE_WEIGHT, out)
        assert s[fr.S_ENDED] != fr.END_NONE
        winner = s[fr.S_WINNER]
        expected = [0.0, 0.0] if winner < 0 else [1.0 if p == winner else -1.0 for p in range(2)]
        assert out.tolist() == expected
        if winner >= 0:
            wins[winner] += 1
    assert min(wins) > 0, "the rollouts should not all end alike"


@pytest.mark.parametrize("players", [2, 3])
def test_returns_are_in_range_zero_sum_and_reproducible(players: int) -> None:
    game = meeple.make("squad-combat", players=players)
    playout = compiled_playout(game, "guided")
    assert playout is fg.playout
    seen = set()
    for state in _states(game, 3):
        if state.is_over:
            continue
        returns = playout(state, 5)
        assert len(returns) == players
        assert all(-1.0 <= r <= 1.0 for r in returns)
        if players == 2:
            assert returns[0] == pytest.approx(-returns[1])
        assert playout(state, 5) == returns
        seen.add(tuple(round(r, 6) for r in returns))
    assert len(seen) > 3, "evaluations should differ between positions"


def test_material_favours_the_seat_with_more_left() -> None:
    game = meeple.make("squad-combat")
    g = fast.game_array(game)
    s = fast.encode(game.new_game(1))
    s[fr.S_TURN] = 10**6  # nothing more is played: the evaluation alone
    out = np.zeros(2)
    fg.guided_rollout(s, g, 0, 0.0, 0, fg.SCALE, fg.ALIVE_WEIGHT, out)
    assert out.tolist() == [0.0, 0.0]  # equal material
    # Seat 1's first character carries a wound (any attack card of its opponent's).
    attack = next(k for k, c in enumerate(game.cards) if c.kind == "attack")
    c = fr.ch(1, 0)
    s[c + fr.CH_NWOUNDS] = 1
    s[c + fr.CH_WOUNDS] = attack
    fg.guided_rollout(s, g, 0, 0.0, 0, fg.SCALE, fg.ALIVE_WEIGHT, out)
    hurt = out[0]
    assert 0.0 < hurt < 1.0 and out[1] == -hurt
    s[fr.ch(1, 1) + fr.CH_REMOVED] = 1  # and loses a character: worth more than the wound
    fg.guided_rollout(s, g, 0, 0.0, 0, fg.SCALE, fg.ALIVE_WEIGHT, out)
    assert hurt < out[0] < 1.0


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:rollout=guided,iterations=40",
        "ismcts:rollout=guided,opponent=guided,candidates=4,iterations=40",
        "policy",
    ],
)
def test_search_decides_on_what_its_seat_sees(spec: str) -> None:
    """Two true states that seat 0 cannot tell apart (the other hand dealt differently from
    the same cards, another seed for the dice to come) get the same decision, also where the
    policy models the other seat and proposes the root's moves."""
    game = meeple.make("squad-combat")
    checked = 0
    for state in _states(game, 8, every=5):
        if state.is_over or len(state.legal_actions(state.to_act[0])) < 2:
            continue
        seat = state.to_act[0]
        other = 1 - seat
        pool = sorted(state.hands[other] + state.decks[other], reverse=True)
        size = len(state.hands[other])
        twin = replace(
            state,
            hands=tuple(
                tuple(sorted(pool[:size])) if p == other else h for p, h in enumerate(state.hands)
            ),
            decks=tuple(tuple(pool[size:]) if p == other else d for p, d in enumerate(state.decks)),
            seed=state.seed + 12345,
        )
        assert twin.information_key(seat) == state.information_key(seat)
        picks = []
        for real in (state, twin):
            agent = make_agent(spec, game, seed=3)
            picks.append(agent.act(Observation(real, seat)))
        assert picks[0] == picks[1]
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_the_policy_chooses_legal_engine_actions_reproducibly() -> None:
    """``choose`` (the registered single choice) gives one of the engine's legal actions for
    the seat to act, the same for the same seed, and the heuristic's kinds of move."""
    game = meeple.make("squad-combat")
    seen = set()
    for state in _states(game, 6, every=3):
        if state.is_over:
            continue
        seat = state.to_act[0]
        action = fg.choose(state, seat, 7)
        assert action in state.legal_actions(seat)
        assert fg.choose(state, seat, 7) == action
        seen.add(str(action).split()[0])
    assert {"play", "target", "pay"} <= seen, seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_field_values_are_each_candidates_field_playout(players: int) -> None:
    """``values_field`` (all of a world's candidates in one compiled call, for ``flat``)
    gives for each action what the engine's step and then ``playout_field`` give, wherever
    the step draws no chance (a refresh's roll, a reshuffle), which the compiled call draws
    from its own generator."""
    game = meeple.make("squad-combat", players=players)
    assert compiled_values(game, "field") is fg.values_field
    g = fast.game_array(game)
    compared = 0
    for state in _states(game, 4, every=3):
        if state.is_over:
            continue
        seat = state.to_act[0]
        actions = state.legal_actions(seat)
        values = fg.values_field(state, seat, actions, 9)
        for action, value in zip(actions, values, strict=True):
            try:
                # An empty tape (its cursor only) refuses any draw of chance.
                ft.apply(fast.encode(state), g, game.action_id(action), np.ones(1, np.int32))
            except ValueError:
                continue  # chance drawn: the engine's and numba's draws differ
            after = state._next(seat, action)
            assert value == pytest.approx(fg.playout_field(after, 9)[seat], abs=1e-12)
            compared += 1
    assert compared > 20


def test_the_field_evaluation_counts_a_wound_to_any_other_seat() -> None:
    """Against the best other seat (``guided``), seat 0 gains nothing when seat 2 is wounded
    and seat 1 is not: why searching seats at three players refreshed and passed where the
    hand-written agent attacks. Against the other seats' mean (``field``) the wound counts."""
    game = meeple.make("squad-combat", players=3)
    g = fast.game_array(game)
    s = fast.encode(game.new_game(1))
    attack = next(k for k, c in enumerate(game.cards) if c.kind == "attack")
    c = fr.ch(2, 0)
    s[c + fr.CH_NWOUNDS] = 1
    s[c + fr.CH_WOUNDS] = attack
    best_other, field = np.zeros(3), np.zeros(3)
    fg._evaluate(s, g, best_other, fg.SCALE, fg.ALIVE_WEIGHT, False)
    fg._evaluate(s, g, field, fg.SCALE, fg.ALIVE_WEIGHT, True)
    assert best_other[0] == 0.0
    assert 0.0 < field[0] == field[1] and field[2] < 0.0


def test_the_field_rollout_stops_at_the_end_of_the_turn() -> None:
    game = meeple.make("squad-combat", players=3)
    state = game.new_game(2)
    s = fast.encode(state)
    fg.seed(3)
    out = np.zeros(3)
    fg._play_on(s, fast.game_array(game), fg.EPSILON, fg.FIELD_CUT_TURNS, 0.6, 1.0, True, out)
    assert s[fr.S_TURN] == state.turn + 1 or s[fr.S_ENDED] != fr.END_NONE
    assert all(-1.0 <= r <= 1.0 for r in out)
