"""The Triangle Clock's own information key says exactly what a seat's view says."""

import pytest

import meeple
from meeple.core.conformance import check_information_keys, random_playthrough


def test_the_information_key_identifies_exactly_the_seats_view() -> None:
    # Each game is 200+ states; views repeat across seeds only early in the game, so the
    # "one key, two views" check is met both within and across games.
    pairs = check_information_keys(meeple.make("triangle-clock"), range(6))
    assert pairs > 2_000


@pytest.mark.parametrize(
    "options",
    [{"items": "all/all"}, {"items": "none/none"}, {"auto_steps": False}],
    ids=["all-items", "no-items", "every-step"],
)
def test_the_information_key_holds_under_the_options(options: dict) -> None:
    check_information_keys(meeple.make("triangle-clock", **options), range(2))


def test_states_that_differ_only_in_the_score_have_different_keys() -> None:
    # Scores move with the last round shown, so random games rarely meet two states that
    # differ only there; change it by hand.
    from dataclasses import replace

    state = random_playthrough(meeple.make("triangle-clock"), 3).record().states()[40]
    seats = state.seats
    richer = replace(state, seats=(replace(seats[0], score=seats[0].score + 1), seats[1]))
    for player in (0, 1):
        assert richer.view(player) != state.view(player)
        assert richer.information_key(player) != state.information_key(player)
