"""Property tests: a thousand random 2-4 player games keep every invariant (600 + 200 + 200
below, besides the 100 replayed records), and the core conformance suite holds over 203
seeds (18 whole games, 185 openings).

Random games here step with ``state._next`` on actions taken from ``legal_actions`` (the
shortcut search code uses), so thousands of games fit in the time budget; the conformance
suite goes through ``state.apply`` and checks that everything it refuses is refused.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.core.conformance import check_playthrough
from meeple.games.squad_combat import SquadCombatGame, SquadCombatState
from meeple.games.squad_combat.rules import DROP, LOG_LINES

from .conftest import CONTENT

seeds = st.integers(min_value=0, max_value=2**31 - 1)

DEMO = {
    2: meeple.make("squad-combat"),
    3: meeple.make("squad-combat", players=3),
    4: meeple.make("squad-combat", players=4),
}
VARIANTS = [
    meeple.make("squad-combat", content=str(CONTENT)),
    meeple.make("squad-combat", content=str(CONTENT), players=3, lead="rotate"),
    meeple.make("squad-combat", content=str(CONTENT), players=4, reactions="attacker-first"),
    meeple.make("squad-combat", content=str(CONTENT), reaction_prompts="always", hand_size=3),
    meeple.make("squad-combat", players=2, decks="shadow-circle", lead="rotate"),
]


def assert_invariants(state: SquadCombatState) -> None:
    """Cards are conserved, no count goes negative or past its limit, the dead stay dead."""
    game = state.game
    owned: list[Counter[int]] = [Counter() for _ in range(game.num_players)]
    for party in state.parties:
        for ch in party:
            for wound in ch.wounds:
                owned[wound.owner][wound.card] += 1
    for perf in state.stack:
        owned[perf.player][perf.card] += 1
    for seat in range(game.num_players):
        owned[seat].update(state.hands[seat])
        owned[seat].update(state.decks[seat])
        owned[seat].update(state.discards[seat])
        assert owned[seat] == Counter(game.decklists[seat]), f"seat {seat} lost or gained cards"
        assert list(state.hands[seat]) == sorted(state.hands[seat])
        assert state.alive(seat) or state.passed[seat]
        for slot, ch in enumerate(state.parties[seat]):
            card = game.characters[ch.card]
            assert 0 <= ch.spent <= card.energy
            assert all(1 <= d <= 6 for d in ch.dice) and list(ch.dice) == sorted(ch.dice)
            trimming = state.step.kind == DROP and seat == state.phase and slot == state.dropping
            assert len(ch.dice) <= card.dice_pool or trimming
            if ch.removed:
                assert not ch.wounds and not ch.dice
            else:
                assert state.damage(seat, slot) < card.life
    assert len(state.log) <= LOG_LINES
    if state.is_over:
        assert state.ended
        alive = [s for s in range(game.num_players) if state.alive(s)]
        if state.winner is not None:
            assert alive == [state.winner]
            assert sum(state.returns) == 1 - (game.num_players - 1)
        else:
            assert state.returns == (0.0,) * game.num_players
    else:
        assert len(state.to_act) == 1 and state.legal_actions(state.to_act[0])


def random_game(game: SquadCombatGame, seed: int, check_every: int = 1) -> SquadCombatState:
    """Play uniformly random legal actions, checking the invariants along the way."""
    rng = random.Random(seed)
    state = game.new_game(seed)
    steps = 0
    while not state.is_over:
        if steps % check_every == 0:
            assert_invariants(state)
        player = state.to_act[0]
        state = state._next(player, rng.choice(state.legal_actions(player)))
        steps += 1
        assert steps < 20_000, f"seed {seed} does not end"
    assert_invariants(state)
    return state


@settings(max_examples=600, deadline=None)
@given(seed=seeds)
def test_random_two_player_games_keep_every_invariant(seed):
    state = random_game(DEMO[2], seed, check_every=3)
    assert state.winner is not None or "turn limit" in state.ended or "stalemate" in state.ended


@settings(max_examples=200, deadline=None)
@given(seed=seeds, players=st.sampled_from([3, 4]))
def test_random_three_and_four_player_games_keep_every_invariant(seed, players):
    random_game(DEMO[players], seed, check_every=5)


@settings(max_examples=200, deadline=None)
@given(seed=seeds, variant=st.integers(0, len(VARIANTS) - 1))
def test_random_games_under_every_option_keep_every_invariant(seed, variant):
    random_game(VARIANTS[variant], seed, check_every=2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_contracts_hold_over_whole_games(players):
    """The core conformance suite over whole demo games: legal actions apply, illegal ones
    are refused with a reason and change nothing, notation and ids round-trip, views are
    JSON-safe and equal the view of every determinization, records replay exactly."""
    for seed in range(12 if players == 2 else 3):
        check_playthrough(DEMO[players], seed)


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_contracts_hold_over_the_first_turns_of_many_games(variant):
    """The conformance suite over the opening turns of many more seeds (a turn limit of 2
    ends them early, as a draw, which is checked too)."""
    base = VARIANTS[variant]
    game = meeple.make("squad-combat", **{**base.options.changed(), "turn_limit": 2})
    for seed in range(37):
        check_playthrough(game, 1000 + seed)


@settings(max_examples=100, deadline=None)
@given(seed=seeds)
def test_records_replay_identically(seed):
    from meeple.core.conformance import random_playthrough

    play = random_playthrough(DEMO[2], seed)
    replayed = meeple.GameRecord.from_json(play.record().model_dump_json()).replay()
    assert replayed == play.state
    assert replayed.result == play.state.result
