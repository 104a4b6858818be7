"""Squad Combat's own information key says exactly what a seat's view says."""

from dataclasses import replace

import meeple
from meeple.core.conformance import check_information_keys, random_playthrough


def test_the_information_key_identifies_exactly_the_seats_view() -> None:
    pairs = check_information_keys(meeple.make("squad-combat"), range(4))
    assert pairs > 1_000


def test_the_information_key_holds_with_three_seats() -> None:
    check_information_keys(meeple.make("squad-combat", players=3), range(1))


def test_a_change_on_the_table_changes_the_key() -> None:
    # Random games rarely meet two states that differ in one public detail only; make them.
    state = random_playthrough(meeple.make("squad-combat"), 2).record().states()[30]
    party = state.parties[1]
    tired = replace(
        state, parties=(state.parties[0], (party[0]._replace(spent=party[0].spent + 1), *party[1:]))
    )
    for player in (0, 1):
        assert tired.view(player) != state.view(player)
        assert tired.information_key(player) != state.information_key(player)
