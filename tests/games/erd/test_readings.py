"""The seed's open readings of Erd as options (issue 34, item 4), and the patch 0.01 note (E).

Each test quotes the sentence whose two readings it tells apart.
"""

from __future__ import annotations

import random

import pytest

from meeple.games.erd import ErdState

from .conftest import erd, play_round


def start(rules: str = "0.02", **options: object) -> ErdState:
    state = erd(rules=rules, **options).new_game(0)
    assert isinstance(state, ErdState)
    return state


@pytest.mark.parametrize(("tiebreak", "winner"), [("value", 0), ("cards", 1)])
def test_larger_rush_pile_by_value_or_by_number_of_cards(tiebreak, winner):
    """'If that's tied, whoever has the larger Rush pile wins' (original: 0-3 cards a pile).
    Red HH (value 4, 2 cards) + D; Blue HLD (value 3, 3 cards) + L: totals 4 and 4."""
    state = start("original", rush_tiebreak=tiebreak)
    after = play_round(state, "rush=HH defense=D", "rush=HLD defense=L")
    assert after.last is not None and after.last.outcome == "both_rush"
    assert after.is_over and after.result["winner"] == winner
    reason = after.result["reason"]
    assert ("on the Rush of more cards (3 cards against 2)" in reason) == (tiebreak == "cards")


def test_by_cards_under_exactly_three_per_pile_every_rush_tie_is_exact():
    """Patch 0.01: 'Players must put exactly 3 face-down cards in their Rush and Defense
    piles', so by number of cards the Rush piles always tie: the game goes on."""
    by_value = play_round(start(), "rush=HHL defense=LDD", "rush=HLD defense=HDD")
    by_cards = play_round(
        start(rush_tiebreak="cards"), "rush=HHL defense=LDD", "rush=HLD defense=HDD"
    )
    assert by_value.is_over and by_value.result["winner"] == 0
    assert not by_cards.is_over and by_cards.last is not None
    assert by_cards.last.outcome == "exact_tie"


HELD = ("rush=DDD defense=HHH", "rush=DDD defense=HHH")
"""Both Defenses hold: with round_limit=1 the game is a draw after one round."""


@pytest.mark.parametrize(("draws", "over_after_three"), [("count", True), ("replay", False)])
def test_a_drawn_game_of_a_match_counts_or_is_replayed(draws, over_after_three):
    """'it is recommended to play best-of-2N+1 matches': a drawn game counts as one of
    them, or (match_draws=replay) is replayed, up to best_of replays."""
    state = erd(best_of=3, round_limit=1, match_draws=draws).new_game(0)
    for _ in range(3):
        state = play_round(state, *HELD)
    assert len(state.games) == 3 and all(g.winner is None for g in state.games)
    assert state.match_over == over_after_three
    if draws == "replay":
        assert state.games_counted == 0
        state = play_round(state, *HELD)  # a fourth draw: past the replays, it counts
        assert state.games_counted == 1 and not state.match_over
        state = play_round(state, "rush=HHH defense=DDD", "rush=DDD defense=DDD")
        assert state.score == (1, 0) and state.games_counted == 2


def _keeps_more_heavies_than_discarded_lights(state: ErdState, player: int) -> list[str]:
    """The allocations after which the seat keeps more Heavies in Reserve than it will have
    Lights in its discard ('they kept more heavies than the Lights in their discard')."""
    side = state.sides[player]
    return [
        str(a)
        for a in state.legal_actions(player)
        if side.reserve.heavy - a.cards.heavy > side.discard.light + a.cards.light
    ]


def test_note_e_does_not_hold_in_round_one_under_0_01():
    """0.01 note (E): 'the "kept more heavies than the Lights in their discard" play is now
    illegal as an emergent property'. It is not: round 1 rush=DDD defense=DDD is legal and
    keeps three Heavies with no Light discarded, and Recovery then takes back no Light."""
    state = start("0.01")
    assert "rush=DDD defense=DDD" in _keeps_more_heavies_than_discarded_lights(state, 0)
    after = play_round(state, "rush=DDD defense=DDD", "rush=DDD defense=DDD")
    assert after.sides[0].reserve.heavy == 3 and after.sides[0].discard.light == 0


@pytest.mark.parametrize("rules", ["0.01", "0.02"])
def test_note_e_holds_exactly_when_the_reserve_holds_at_most_nine_cards(rules):
    """Why: with exactly 3 cards in each pile, a Reserve of at most 9 keeps at most 3 cards,
    and the Lights not kept all end in the discard, so the kept Heavies cannot outnumber
    them. In random games the play is open in positions with more than 9 in Reserve, and
    in none with 9 or fewer."""
    game = erd(rules=rules)
    open_big = open_small = 0
    for seed in range(25):
        state = game.new_game(seed)
        rng = random.Random(seed)
        while not state.is_over:
            for p in (0, 1):
                found = bool(_keeps_more_heavies_than_discarded_lights(state, p))
                if state.sides[p].reserve.total > 9:
                    open_big += found
                else:
                    open_small += found
            for p in (0, 1):
                state = state.apply(p, rng.choice(state.legal_actions(p)))
    assert open_big > 0 and open_small == 0
