"""meeple.core.conformance.check_game, the whole contract suite a game added from outside
runs (docs/new-game.md), holds for every built-in game too."""

from __future__ import annotations

import pytest

import meeple
from meeple.core.conformance import check_game, random_end, random_playthrough, random_states

# Small options keep each game to a few seconds; the games' own tests play many more seeds.
SMALL = {
    "edges": {"board": "2x3", "stash": "3/3/2"},
    "erd": {"best_of": 1},
    "erosion": {},
    "triangle-clock": {},
    "squad-combat": {"turn_limit": 2},
}


@pytest.mark.parametrize("name", list(SMALL))
def test_every_built_in_game_passes_check_game(name: str) -> None:
    assert check_game(meeple.make(name, **SMALL[name]), seeds=range(2)) > 4


def test_a_game_longer_than_its_own_bound_fails_check_game() -> None:
    """A game that says how many decisions it takes (OpenSpiel's max_game_length) is held
    to it: Edges' 2x3 board counted without the take-over and one pyramid (15, where every
    game places all 16) fails, named."""
    game = meeple.make("edges", **SMALL["edges"])
    short = type(game)(game.options)
    short.max_decisions = lambda: 15  # type: ignore[method-assign]
    with pytest.raises(AssertionError, match=r"took 1[67] decisions, past its max_decisions"):
        check_game(short, seeds=range(1))
    assert game.max_decisions() == 17 and check_game(game, seeds=range(1))


def test_a_game_that_says_it_has_no_chance_must_play_the_same_from_every_seed() -> None:
    """Erd has none (the server publishes no sealed seed for it); Edges whose first player
    is drawn from the seed does, and saying otherwise is named."""
    assert not meeple.make("erd").has_chance and check_game(meeple.make("erd"), seeds=range(1))
    game = meeple.make("edges", **SMALL["edges"])
    drawn = type(game)(game.options)
    drawn.has_chance = False  # type: ignore[misc]
    with pytest.raises(AssertionError, match=r"has_chance is False, yet seeds \d+ and \d+ differ"):
        check_game(drawn, seeds=range(4))


def test_a_game_that_says_it_is_zero_sum_must_end_so() -> None:
    """Double Edges' four seats are two teams whose returns cancel (OpenSpiel is told it is
    zero-sum); Erosion's three seats with one winner are not, and saying so is named."""
    double = meeple.make("edges", double=True, board="2x2", stash="1/1/1")
    assert double.num_players == 4 and double.zero_sum and check_game(double, seeds=range(2))
    game = meeple.make("erosion", players=3)
    assert not game.zero_sum
    claimed = type(game)(game.options)
    claimed.two_sides = True  # type: ignore[misc]
    with pytest.raises(AssertionError, match=r"says it is zero-sum .* do not sum to zero"):
        check_game(claimed, seeds=range(1), positions=False)


@pytest.mark.parametrize(
    ("to_act", "movers", "count"),
    [
        ([(0,), (1,), (0,), ()], [0, 1, 0], 3),  # in turn: a decision a move
        ([(0, 1), (1,), (0, 1), (0,), ()], [0, 1, 1, 0], 2),  # both at once, twice
        ([(0, 1), (0, 1), (0,), ()], [0, 1, 0], 2),  # a Mulligan first: a choice more
        ([(0, 1), (0,), (0,), ()], [1, 0, 0], 2),  # the other chose first: the same
    ],
)
def test_decisions_count_a_choice_several_seats_make_at_once_as_one(to_act, movers, count):
    from types import SimpleNamespace

    from meeple.core.conformance import decisions

    states = [SimpleNamespace(to_act=seats) for seats in to_act]
    assert decisions(states, movers) == count  # type: ignore[arg-type]


@pytest.mark.parametrize("name", list(SMALL))
def test_a_random_game_ends_where_its_recorded_playthrough_ends(name: str) -> None:
    # random_end skips the record for the property tests that check only the end: the
    # same seeded choices must reach the same last state.
    game = meeple.make(name, **SMALL[name])
    for seed in range(3):
        played = random_playthrough(game, seed)
        assert random_states(game, seed) == played.record().states()
        assert random_end(game, seed) == played.state
