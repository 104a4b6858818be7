"""The Triangle Clock's guided rollout (:mod:`meeple.games.triangle_clock.compiled.guided`)
and the plans it makes (:mod:`~meeple.games.triangle_clock.compiled.plans`).

The policy chooses among the compiled rules' legal actions; these tests hold its planned
picks to the engine's legal actions, its evaluation to the scores, its returns to [-1, 1],
zero-sum and reproducible, and check that search with it plays whole games and decides only
on what its seat sees.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit

import meeple
from meeple.agents.spec import make_agent
from meeple.core.agent import Observation
from meeple.core.conformance import random_playthrough
from meeple.core.registry import compiled_playout
from meeple.games.triangle_clock.cards import parse_card, parse_symbol
from meeple.games.triangle_clock.compiled import guided as fg
from meeple.games.triangle_clock.compiled import plans
from meeple.games.triangle_clock.compiled import rules as fast
from meeple.games.triangle_clock.rules import Phase


@njit
def np_seed(seed: int) -> None:
    """Seed numba's generator (the one the compiled policy draws from)."""
    np.random.seed(seed)


def _states(game, seed: int, every: int = 5) -> list:
    """Every ``every``-th state of a random game (a spread of rounds and phases)."""
    return random_playthrough(game, seed).record().states()[::every]


def _params(**changes: float) -> np.ndarray:
    params = fg.settings()
    names = ["EPSILON", "ITEM_COST", "REPLY", "CUT_ROUNDS", "SCALE", "ITEM_VALUE", "MULLIGAN_VALUE"]
    names += ["SAMPLES", "KEEP_WEIGHT", "HORIZON"]
    assert len(names) == len(params), "a setting the tests do not name"
    for name, value in changes.items():
        params[names.index(name)] = value
    return params


def _plan(game, state, seat: int, reply: bool) -> int:
    """The plan's next pick for ``seat`` (with or without an answer to the other hand)."""
    t = fast.tables(game)
    s = fast.encode(state)
    plan = np.empty(2, dtype=np.int64)
    against = np.empty((0, 2), dtype=np.int64)
    if reply:
        plans.planned_pick(
            s, 1 - seat, t.cards, t.power, t.strength, plans.PICK_ORDERS, 1.0, 0.0, against, plan
        )
        against = plan.reshape(1, 2).copy()
    return plans.planned_pick(
        s, seat, t.cards, t.power, t.strength, plans.PICK_ORDERS, 1.0, 0.0, against, plan
    )


@pytest.mark.parametrize("items", ["palette-swap+right-angle/mulligan", "all/all"])
def test_planned_picks_are_the_engines_legal_actions(items: str) -> None:
    """At every pick of random games (any picks revealed before), the plan's next pick is
    legal, with and without an answer to the opponent's hand."""
    game = meeple.make("triangle-clock", items=items)
    checked = 0
    for seed in range(2):
        for state in random_playthrough(game, seed).record().states():
            for seat in state.to_act:
                legal = [game.action_id(a) for a in state.legal_actions(seat)]
                for reply in (False, True):
                    pick = _plan(game, state, seat, reply)
                    if state.phase is Phase.MEMORISE:
                        assert pick == -1
                    else:
                        assert pick in legal, (state.round, state.phase, pick, legal)
                        checked += 1
    assert checked > 500


def test_the_policy_chooses_legal_engine_actions() -> None:
    game = meeple.make("triangle-clock", items="all/all")
    seen = set()
    for state in _states(game, 6, every=3):
        for seat in state.to_act:
            action = fg.choose(state, seat, 7)
            assert action in state.legal_actions(seat)
            assert fg.choose(state, seat, 7) == action
            seen.add(str(action))
    assert "mulligan" not in seen and len(seen) > 5


def test_a_game_steered_by_the_plans_ends() -> None:
    game = meeple.make("triangle-clock")
    state = game.new_game(0)
    picks = 0
    while not state.is_over:
        seat = state.to_act[0]
        if state.phase is Phase.MEMORISE:
            state = state._next(seat, state.legal_actions(seat)[0])
            continue
        state = state._next(seat, game.action_from_id(_plan(game, state, seat, seat == 1)))
        picks += 1
    assert picks == 2 * 3 * 32


def test_the_plan_takes_the_strongest_hand_with_the_shared_symbol() -> None:
    """Shared Ns with a card Ns+Nc in hand: the strongest finish is a 4 of a Kind (Ns Nc plus
    the N of another card), so the first pick is a symbol of those cards."""
    game = meeple.make("triangle-clock", items="none/none")
    state = game.new_game(2)
    while state.phase is not Phase.FIRST:
        state = state._next(state.to_act[0], state.legal_actions(state.to_act[0])[0])
    s = fast.encode(state)
    s[fast.ORDERS] = parse_symbol("Ns")
    # the plan reads only its own seat's hand and the shared symbol
    hand = [parse_card(c) for c in ("Ns+Nc", "Es+Wc", "Nc+Ss", "SEc+SWs")]
    s[fast.SEATS_AT + fast.HAND : fast.SEATS_AT + fast.HAND + 4] = hand
    t = fast.tables(game)
    plan = np.empty(2, dtype=np.int64)
    none = np.empty((0, 2), dtype=np.int64)
    pick = plans.planned_pick(
        s, 0, t.cards, t.power, t.strength, plans.PICK_ORDERS, 1.0, 0.0, none, plan
    )
    assert pick >> 2 in (0, 1, 4)  # Ns or Nc of the first card, or Nc of the third
    assert plan[1] == 10  # a 4 of a Kind's strength


def test_a_rollout_to_the_end_returns_the_real_outcome() -> None:
    # no items: with the seed's, Tick wins most guided games
    game = meeple.make("triangle-clock", items="none/none")
    t = fast.tables(game)
    params = _params(CUT_ROUNDS=40)
    seen = set()
    for seed in range(10):
        s = fast.encode(game.new_game(seed))
        value = fg.guided_value(s, t.cards, t.power, t.strength, t.rules, seed, params)
        scratch = fg.guided_play(s, t.cards, t.power, t.strength, t.rules, seed, params)
        assert scratch[fast.PHASE] == int(Phase.OVER)
        winner = fast.outcome(scratch, t.rules)
        assert value == (0.0 if winner < 0 else (1.0 if winner == 0 else -1.0))
        seen.add(value)
    assert {1.0, -1.0} <= seen, "guided games from the start should not all end alike"


def test_the_evaluation_counts_recent_points_and_items_left() -> None:
    game = meeple.make("triangle-clock")
    t = fast.tables(game)
    s = fast.encode(random_playthrough(game, 4).record().states()[120])
    assert s[fast.PHASE] != int(Phase.OVER) and s[fast.ROUND] > 3
    since = int(s[fast.ROUND]) - 1
    diff = 0.0
    for r in range(since - 1, int(s[fast.ROUND]) - 1):
        record = fast.HISTORY + r * fast.RECORD
        diff += {0: 1, 1: -1}.get(int(s[record]), 0) * int(s[record + 1])
    assert fg.evaluate(s, t.rules, since, 5.0, 0.0, 0.0) == pytest.approx(np.tanh(diff / 5.0))
    items = _items(s)
    worth = fg.evaluate(s, t.rules, since, 5.0, 2.0, 0.0)
    assert worth == pytest.approx(np.tanh((diff + 2.0 * items) / 5.0))
    s[fast.SEATS_AT + fast.USES + fast.PALETTE] += 1  # one more use left to Tick
    assert fg.evaluate(s, t.rules, since, 5.0, 2.0, 0.0) == pytest.approx(
        np.tanh((diff + 2.0 * items + 2.0) / 5.0)
    )


def test_with_a_horizon_the_evaluation_is_the_whole_margin_over_the_spread_to_come() -> None:
    """The chance-of-winning evaluation: the scores' margin, the items left and the tie-break's
    half point, over the spread of the rounds left; a lead counts for more late."""
    game = meeple.make("triangle-clock")
    t = fast.tables(game)
    s = fast.encode(random_playthrough(game, 4).record().states()[120])
    score = fast.SEATS_AT + fast.SCORE
    margin = int(s[score] - s[score + fast.SEAT_SIZE]) + 0.5  # Tick holds two items
    left = 33 - int(s[fast.ROUND])
    expected = np.tanh(0.85 * (margin + 2.0 * _items(s)) / (1.9 * np.sqrt(left)))
    assert fg.evaluate(s, t.rules, 0, 5.0, 2.0, 0.0, 1.9) == pytest.approx(expected)
    s[score] += 3
    later = s.copy()
    later[fast.ROUND] += 8
    values = [fg.evaluate(x, t.rules, 0, 5.0, 0.0, 0.0, 1.9) for x in (s, later)]
    assert 0 < values[0] < values[1] < 1 or -1 < values[1] < values[0] < 0


def _items(s: np.ndarray) -> int:
    """Tick's uses of Palette Swap and Right Angle left less Tock's."""
    uses = [
        s[fast.SEATS_AT + p * fast.SEAT_SIZE + fast.USES + fast.PALETTE]
        + s[fast.SEATS_AT + p * fast.SEAT_SIZE + fast.USES + fast.RIGHT]
        for p in range(2)
    ]
    return int(uses[0] - uses[1])


def test_returns_are_in_range_zero_sum_and_reproducible() -> None:
    game = meeple.make("triangle-clock")
    playout = compiled_playout(game, "guided")
    assert playout is fg.playout
    seen = set()
    for state in _states(game, 3):
        if state.is_over:
            continue
        returns = playout(state, 5)
        assert len(returns) == 2
        assert all(-1.0 <= r <= 1.0 for r in returns)
        assert returns[0] == -returns[1]
        assert playout(state, 5) == returns
        seen.add(round(returns[0], 6))
    assert len(seen) > 5, "evaluations should differ between positions"


@pytest.mark.parametrize(
    ("rollout", "playout", "rounds"),
    [("ahead", fg.playout_ahead, 1), ("deep", fg.playout_deep, fg.DEEP_ROUNDS)],
)
def test_a_rollout_ahead_or_deep_plays_later_rounds_too_and_values_what_it_kept(
    rollout, playout, rounds
) -> None:
    game = meeple.make("triangle-clock")
    t = fast.tables(game)
    assert compiled_playout(game, rollout) is playout
    differ = 0
    for state in _states(game, 6, every=7):
        if state.is_over or state.round >= 32 - rounds:
            continue
        start = fast.encode(state)
        ends = [
            fg.guided_play(start, t.cards, t.power, t.strength, t.rules, 5, params)
            for params in (fg.settings(), fg.through_settings(rounds))
        ]
        assert ends[0][fast.ROUND] == start[fast.ROUND] + 1  # the round in play, no further
        assert ends[1][fast.ROUND] == start[fast.ROUND] + 1 + rounds  # and the rounds after
        returns = playout(state, 5)
        assert returns[0] == -returns[1] and -1 <= returns[0] <= 1
        assert playout(state, 5) == returns
        differ += returns != fg.playout(state, 5)
    assert differ > 5, "rounds more should change some values"


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:rollout=guided,iterations=30",
        "ismcts:rollout=ahead,opponent=guided,candidates=4,widen=0.5,iterations=30",
        "ismcts:rollout=guided,opponent=guided,iterations=30",
        "ismcts:rollout=guided,opponent=guided,candidates=4,widen=0.5,iterations=30",
        "flat:rollout=deep,opponent=guided,worlds=20",
        "flat:rollout=deep,opponent=guided,candidates=4,worlds=20",
        "policy",
    ],
)
def test_search_decides_on_what_its_seat_sees(spec: str) -> None:
    """A true state and another that its seat cannot tell from it (a determinization: the
    other hand, the deck and the shared symbols to come resampled) get the same decision,
    also where the opponent plays the policy inside the tree."""
    game = meeple.make("triangle-clock")
    checked = 0
    for state in _states(game, 8, every=23):
        if state.is_over or len(state.legal_actions(state.to_act[0])) < 2:
            continue
        seat = state.to_act[0]
        twin = state.determinize(seat, random.Random(99))
        assert twin.information_key(seat) == state.information_key(seat)
        assert twin.seats[1 - seat].hand != state.seats[1 - seat].hand
        picks = []
        for real in (state, twin):
            agent = make_agent(spec, game, seed=3)
            picks.append(agent.act(Observation(real, seat)))
        assert picks[0] == picks[1]
        checked += 1
    assert checked >= 3


def test_the_policy_plans_against_hands_dealt_from_what_its_seat_cannot_see() -> None:
    """``deal_unseen`` keeps the planning seat's hand and the other seat's cards with a
    symbol revealed this round, and deals the other seat's hidden cards again from those
    cards and the deck: distinct cards, none seen by the planning seat, varying by seed."""
    game = meeple.make("triangle-clock")
    checked, varied = 0, 0
    for state in _states(game, 11, every=7):
        if state.is_over or state.phase is Phase.MEMORISE:
            continue
        s = fast.encode(state)
        done = int(s[fast.PHASE]) - 1
        for seat in (0, 1):
            mine = fast.SEATS_AT + seat * fast.SEAT_SIZE + fast.HAND
            other = fast.SEATS_AT + (1 - seat) * fast.SEAT_SIZE
            shown = {int(s[other + fast.PICKS + k]) >> 3 for k in range(done)}
            deck = set(s[fast.DECK : fast.DECK + s[fast.DECK_LEN]].tolist())
            unseen = deck | {int(s[other + fast.HAND + k]) for k in range(4) if k not in shown}
            hands = set()
            for seed in range(20):
                np_seed(seed)
                out = np.empty_like(s)
                fg.deal_unseen(s, seat, out)
                assert (out[mine : mine + 4] == s[mine : mine + 4]).all()
                dealt = [int(out[other + fast.HAND + k]) for k in range(4)]
                assert len(set(dealt)) == 4
                for k in range(4):
                    if k in shown:
                        assert dealt[k] == s[other + fast.HAND + k]
                    else:
                        assert dealt[k] in unseen
                hands.add(tuple(dealt))
            checked += 1
            varied += len(hands) > 1
    assert checked > 20 and varied == checked
