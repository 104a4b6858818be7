"""The Triangle Clock's open readings as options (issue 34, item 4): the Mulligan's order and
"You may not take written notes"."""

from __future__ import annotations

from rich.console import Console

import meeple
from meeple.games.triangle_clock import TriangleClockState
from meeple.games.triangle_clock.rules import Phase

MULLIGAN_TEXT = (
    "Scrap your hand of 4 cards, and re add them to the draw deck, then draw 4 new cards."
)


def first_choice(seed: int, **options: object) -> TriangleClockState:
    """Round 1's first choice, the order memorised by both seats."""
    state = meeple.make("triangle-clock", **options).new_game(seed)
    state = state.apply_text(0, "memorised").apply_text(1, "memorised")
    assert isinstance(state, TriangleClockState) and state.phase is Phase.FIRST
    return state


def comes_back(seed: int, order: str) -> bool:
    """Whether a card of Tock's old hand is in its hand after a Mulligan."""
    state = first_choice(seed, mulligan_order=order)
    before = set(state.seats[1].hand)
    after = state.apply_text(1, "mulligan")
    assert isinstance(after, TriangleClockState)
    assert len(after.seats[1].hand) == 4 and after.seats[1].uses != state.seats[1].uses
    return bool(before & set(after.seats[1].hand))


def test_mulligan_in_the_seeds_literal_order_can_bring_an_old_card_back():
    """MULLIGAN_TEXT read literally: the old cards go back, the deck is shuffled, then 4 are
    drawn, so an old card can come back (with 104 cards in the deck, about 15% of the time);
    by default the new cards are drawn first and never are the old ones."""
    seeds = range(60)
    assert not any(comes_back(seed, "new-first") for seed in seeds)
    returned = sum(comes_back(seed, "literal") for seed in seeds)
    assert 0 < returned < len(seeds)


def screen(state: TriangleClockState, player: int) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(state.game.render(state, player))
    return console.export_text()


def round_two_second_choice(**options: object) -> TriangleClockState:
    """Round 2, after both seats submitted its first symbol."""
    state = first_choice(3, **options)
    for _ in range(3):  # round 1's three choices
        for p in (0, 1):
            state = state.apply(p, state.legal_actions(p)[0])
    assert state.round == 2 and state.phase is Phase.FIRST
    for p in (0, 1):
        state = state.apply(p, state.legal_actions(p)[0])
    assert isinstance(state, TriangleClockState) and state.phase is Phase.SECOND
    return state


def test_no_written_notes_hides_earlier_reveals_and_the_discard_pile_from_a_person():
    """'You may not take written notes during this game.': with notes=forbidden a person's
    screen leaves out the last round's reveals once the next round is under way, and the
    discard pile; the seat's view (what agents read) is the same as with notes allowed."""
    allowed = round_two_second_choice()
    forbidden = round_two_second_choice(notes="forbidden")
    assert "Round 1: shared" in screen(allowed, 0)
    assert "discard pile 4" in screen(allowed, 0)
    hidden = screen(forbidden, 0)
    assert "Round 1: shared" not in hidden and "discard pile not shown" in hidden
    assert allowed.view(0) == forbidden.view(0) and allowed.view(0)["last_round"]


def test_without_notes_the_round_just_finished_is_still_shown_at_the_next_first_choice():
    """Right after a round the person still sees how it went (it is not yet a note)."""
    state = first_choice(3, notes="forbidden")
    for _ in range(3):
        for p in (0, 1):
            state = state.apply(p, state.legal_actions(p)[0])
    assert state.round == 2 and state.phase is Phase.FIRST
    assert "Round 1: shared" in screen(state, 0)


def test_without_notes_a_person_s_view_leaves_out_what_the_rules_leave_to_memory():
    """The view a person's page is sent (``game.person_view``) with notes=forbidden: no
    discard pile, no earlier shared symbols, no last round once the next is under way; the
    seat's own view (what agents read) keeps them, and with notes allowed nothing changes."""
    allowed = round_two_second_choice()
    forbidden = round_two_second_choice(notes="forbidden")
    for player in (0, 1, None):
        full = forbidden.view(player)
        assert full["discards"] and full["shared_revealed"] and full["last_round"]
        shown = forbidden.game.person_view(forbidden, player)
        assert shown["discards"] is None and shown["shared_revealed"] is None
        assert shown["last_round"] is None
        # What is on the table now is still shown.
        kept = {"discards", "shared_revealed", "last_round"}
        assert {k: v for k, v in shown.items() if k not in kept} == {
            k: v for k, v in full.items() if k not in kept
        }
        assert allowed.game.person_view(allowed, player) == allowed.view(player)
    assert forbidden.view(0) == allowed.view(0)  # agents read the same either way


def test_without_notes_the_last_round_is_in_a_person_s_view_at_the_next_first_choice():
    state = first_choice(3, notes="forbidden")
    for _ in range(3):
        for p in (0, 1):
            state = state.apply(p, state.legal_actions(p)[0])
    assert state.round == 2 and state.phase is Phase.FIRST
    shown = state.game.person_view(state, 0)
    assert shown["last_round"] == state.view(0)["last_round"] is not None
    assert shown["discards"] is None
