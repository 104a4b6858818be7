"""Property tests: thousands of random Erd games per rules version keep every invariant."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.core.conformance import check_playthrough, random_playthrough
from meeple.core.record import GameRecord
from meeple.games.erd import ErdGame, ErdState

VERSIONS = ["original", "0.01", "0.02"]
ENDINGS = {
    "original": {"rush", "both_rushes", "round_limit"},
    "0.01": {"rush", "both_rushes", "mercy", "round_limit"},
    "0.02": {"rush", "both_rushes", "mercy", "pre_escalation", "round_limit"},
}
"""How a game may end in each version; the mercy-rule draw never arises in play (rules.md)."""

seeds = st.integers(min_value=0, max_value=2**31 - 1)
variants = st.fixed_dictionaries(
    {
        "turret_lifetime": st.sampled_from(["until_recovered", "one_combat"]),
        "escalation_lights": st.sampled_from(["all", "own"]),
    }
)


def assert_cards_in_exactly_one_place(state: ErdState) -> None:
    """Each card is in its owner's Reserve, discard pile or standing as a Turret (the pending
    allocation is a choice from the Reserve, not a place); no count is ever negative."""
    start = state.game.version.starting_reserve
    for player, side in enumerate(state.sides):
        assert min(side.reserve) >= 0 and min(side.discard) >= 0 and side.turrets >= 0
        assert side.all_cards == start, f"seat {player} holds {side} instead of {start}"
        pending = state.pending.of(player)
        if pending is not None:
            assert side.reserve.covers(pending.cards)
            assert min(pending.rush) >= 0 and min(pending.defense) >= 0


def assert_round_invariants(state: ErdState) -> None:
    game = state.game
    assert 1 <= state.round <= game.options.round_limit
    assert sum(state.score) <= len(state.games) <= game.options.best_of
    last = state.last
    checked_mercy = (
        last is not None and not last.escalation and last.outcome in ("held", "exact_tie")
    )
    if checked_mercy and (last.ending is None or last.ending.reason.startswith("mercy")):
        # The mercy rule was checked, so some Heavy is still in a Reserve: the 0.01 mercy draw
        # and 0.02's "vs. a Heavy" can never change a game (rules.md).
        assert any(side.reserve.heavy for side in state.sides)
    if game.version.exactly_three and not state.match_over:
        # Decoy recovery refills every Reserve to at least six (rules.md): 3 + 3 always fits.
        assert all(side.reserve.total >= 6 for side in state.sides)
        for player in state.to_act:
            assert all(a.cards.total == 6 for a in state.legal_actions(player))


def check_random_match(game: ErdGame, seed: int) -> ErdState:
    """Play a random match and check every state it went through."""
    play = random_playthrough(game, seed)
    states = GameRecord.from_json(play.record().model_dump_json()).states()
    assert states[-1] == play.state
    rng = random.Random(seed)
    for state in states:
        assert isinstance(state, ErdState)
        assert_cards_in_exactly_one_place(state)
        assert_round_invariants(state)
        for player in (0, 1):
            # A guess at what the seat cannot see changes nothing the seat knows.
            guess = state.determinize(player, rng)
            assert guess.information_key(player) == state.information_key(player)
    final = play.state
    assert isinstance(final, ErdState) and final.is_over and final.match_over
    for ended in final.games:
        assert ended.reason in ENDINGS[game.options.rules]
    winner = final.result["winner"]
    assert final.returns == (
        (0.0, 0.0) if winner is None else (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
    )
    return final


@cache
def _game(rules: str, **options: Any) -> Any:
    """One game per version and reading, as a server holds one for all its matches: it keeps
    the legal allocations of each Reserve it has met (made anew, every example redid them)."""
    return meeple.make("erd", rules=rules, **options)


@pytest.mark.parametrize("rules", VERSIONS)
@settings(max_examples=350, deadline=None)
@given(seed=seeds)
def test_random_matches_keep_every_invariant(rules, seed):
    """350 random best-of-5 matches per version (at least 1050 games): every card always in
    exactly one place, counts never negative, every game ends for a reason its version has."""
    final = check_random_match(_game(rules), seed)
    assert len(final.games) >= 3


@pytest.mark.parametrize("rules", VERSIONS)
@settings(max_examples=150, deadline=None)
@given(seed=seeds, options=variants)
def test_random_matches_keep_every_invariant_with_every_reading(rules, seed, options):
    """The same over the turret_lifetime and escalation_lights readings."""
    check_random_match(_game(rules, best_of=3, **options), seed)


def test_random_play_reaches_every_branch():
    """Guard against vacuous property tests: random play goes through every branch of combat,
    Turrets, Escalation and every ending of 0.02."""
    outcomes: set[str] = set()
    seen: dict[str, Any] = {"escalation": False, "turret": False}
    endings: set[str] = set()
    for rules in VERSIONS:
        game = meeple.make("erd", rules=rules, best_of=1)
        for seed in range(300):
            play = random_playthrough(game, seed)
            states = play.record().states()
            for state in states:
                assert isinstance(state, ErdState)
                if state.last is not None:
                    outcomes.add(state.last.outcome)
                    seen["escalation"] |= state.last.escalation
                    seen["turret"] |= any(state.last.turrets_made)
            final = states[-1]
            assert isinstance(final, ErdState)
            endings.add(final.games[-1].reason)
    assert outcomes == {"one_rush", "both_total", "both_rush", "exact_tie", "held"}
    assert seen == {"escalation": True, "turret": True}
    assert {"rush", "both_rushes", "mercy", "pre_escalation"} <= endings


@pytest.mark.parametrize("rules", VERSIONS)
def test_contracts_hold_over_many_random_matches(rules):
    """The core conformance suite over 100 random matches per version: legal actions apply,
    illegal ones are refused, notation and ids round-trip, views are JSON-safe and a view
    equals the view of any determinization, records replay to the identical state."""
    game = meeple.make("erd", rules=rules, best_of=3)
    for seed in range(100):
        check_playthrough(game, seed)


def test_contracts_hold_with_the_other_readings():
    game = meeple.make("erd", turret_lifetime="one_combat", escalation_lights="own", best_of=1)
    for seed in range(60):
        check_playthrough(game, seed)


def test_contracts_hold_when_the_round_limit_ends_games():
    game = meeple.make("erd", rules="original", round_limit=2, best_of=3)
    endings = set()
    for seed in range(40):
        play = check_playthrough(game, seed)
        endings |= {g.reason for g in play.state.games}
    assert "round_limit" in endings
