"""'moves ... cards, face down ... Then all piles are simultaneously revealed': a round is one
simultaneous decision, and the opponent never sees an allocation before the reveal."""

from __future__ import annotations

import json
import random

import pytest
from rich.console import Console

from meeple.core.agent import Observation
from meeple.core.errors import IllegalAction
from meeple.games.erd import ErdState

from .conftest import erd

SECRET = "rush=HHH defense=LLD"


def red_has_allocated() -> ErdState:
    state = erd(rules="original").new_game(0).apply_text(0, SECRET)
    assert isinstance(state, ErdState)
    return state


def rendered(state: ErdState, player: int | None) -> str:
    console = Console(record=True, width=120)
    console.print(state.game.render(state, player))
    return console.export_text()


def test_both_seats_allocate_at_the_same_time():
    """'At the start of each round, each player moves ...': both seats are to act."""
    state = erd().new_game(0)
    assert state.to_act == (0, 1)
    assert state.apply_text(1, SECRET).to_act == (0,)
    assert red_has_allocated().to_act == (1,)


def test_hidden_allocation_is_absent_from_the_opponents_view():
    """The opponent's view says only that Red has allocated; never what."""
    state = red_has_allocated()
    blue_view = state.view(1)
    assert blue_view["allocations"] == {"submitted": [0], "waiting": [1], "mine": None}
    assert "HHH" not in json.dumps(blue_view) and "LLD" not in json.dumps(blue_view)
    assert "HHH" not in json.dumps(state.view(None))


def test_hidden_allocation_is_shown_to_its_owner():
    assert red_has_allocated().view(0)["allocations"]["mine"] == SECRET


def test_hidden_allocation_leaves_the_public_table_unchanged():
    """The face-down cards leave the Reserve only at the reveal, so the Reserve counts in the
    opponent's view tell nothing."""
    before = erd(rules="original").new_game(0)
    after = red_has_allocated()
    assert after.view(1)["sides"] == before.view(1)["sides"]
    assert after.view(1)["last_combat"] is None


def test_hidden_allocation_is_absent_from_the_opponents_render():
    state = red_has_allocated()
    assert SECRET not in rendered(state, 1) and "allocated (hidden)" in rendered(state, 1)
    assert SECRET not in rendered(state, None)
    assert SECRET in rendered(state, 0)


def test_determinize_resamples_the_opponents_hidden_allocation():
    """determinize(Blue) keeps everything Blue knows and guesses Red's allocation among those
    Red's Reserve allows."""
    state = red_has_allocated()
    rng = random.Random(7)
    samples = [state.determinize(1, rng) for _ in range(30)]
    for sample in samples:
        assert sample.view(1) == state.view(1)
        guess = sample.pending.of(0)
        assert guess is not None and state.why_illegal(0, guess) is None
    assert len({sample.pending.of(0) for sample in samples}) > 5


def test_determinize_for_the_owner_keeps_its_own_allocation():
    state = red_has_allocated()
    assert state.determinize(0, random.Random(1)) == state


def test_an_observation_never_hands_out_the_hidden_allocation():
    state = red_has_allocated()
    seen = {
        str(Observation(state, 1).determinize(random.Random(s)).pending.of(0)) for s in range(40)
    }
    assert len(seen) > 5  # guesses, not the one true allocation


def test_a_seat_cannot_allocate_twice_in_a_round():
    with pytest.raises(IllegalAction, match="not to act"):
        red_has_allocated().apply_text(0, "rush=- defense=-")


def test_both_allocations_are_revealed_together():
    """'Then all piles are simultaneously revealed': once Blue allocates, both views show both
    piles, and the next round's allocations are open again."""
    state = red_has_allocated().apply_text(1, "rush=- defense=HHH")
    assert isinstance(state, ErdState)
    for viewer in (0, 1, None):
        combat = state.view(viewer)["last_combat"]
        assert combat["rush"] == ["HHH", "-"] and combat["defense"] == ["LLD", "HHH"]
    assert state.view(1)["allocations"] == {"submitted": [], "waiting": [0, 1], "mine": None}


def test_information_key_is_what_the_seat_knows():
    """Two states share a seat's key exactly when the seat's views agree: Blue cannot tell
    Red's true allocation from a guess, Red can."""
    state = red_has_allocated()
    guess = state.determinize(1, random.Random(3))
    assert guess.pending.of(0) != state.pending.of(0)
    assert guess.information_key(1) == state.information_key(1)
    assert guess.information_key(0) != state.information_key(0)
    assert guess.view(0) != state.view(0)
    hash(state.information_key(0))
