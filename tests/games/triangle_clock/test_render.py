"""Terminal rendering (issue 4, clause 6): symbols, scores, round, items, hidden parts."""

from __future__ import annotations

from dataclasses import replace

from rich.console import Console

import meeple
from meeple.core.conformance import random_playthrough
from meeple.games.triangle_clock.render import CLEAR_STYLE, SOLID_STYLE, symbol_text
from meeple.games.triangle_clock.rules import MEMORISED

from .conftest import arrange, both, symbols

HANDS = (
    "Es+Ss Ws+NWc SWs+SWc Ec+Wc",
    "Nc+NEs Sc+SWc SEs+SEc NEc+Wc",
)


def text(game, state, player) -> str:
    console = Console(width=100, record=True, color_system=None)
    console.print(game.render(state, player))
    return console.export_text()


def test_solid_and_clear_differ_in_shape_colour_and_notation():
    solid, clear = symbol_text(symbols("Ns")[0]), symbol_text(symbols("Nc")[0])
    assert (solid.plain, clear.plain) == ("▲Ns", "△Nc")
    assert solid.style == SOLID_STYLE != CLEAR_STYLE == clear.style


def test_screen_shows_round_shared_symbol_scores_items_and_own_hand(game):
    state = both(arrange(game, HANDS, shared="Ns"), "A +palette-swap", "D")
    shown = text(game, state, 0)
    assert "round 1 of 32: second choice" in shown
    assert "Shared symbol: ▲Ns (solid N)" in shown
    assert "Palette Swap 2/3 (used this round)" in shown and "Mulligan 2/2" in shown
    assert "◿SEc +palette-swap" not in shown and "▷Ec +palette-swap" in shown
    assert "◺SWc" in shown  # Tock's revealed symbol
    assert "Your hand (Tick)" in shown and "A ▶Es choice 1" in shown
    assert "Tock)" not in shown.split("Your hand")[1]


def test_screen_hides_the_opponents_hand_and_waiting_choice(game):
    state = arrange(game, HANDS, shared="Ns").apply_text(1, "C")
    tick, tock = text(game, state, 0), text(game, state, 1)
    assert "Submitted: C" in tock and "Submitted" not in tick
    assert "◹NEc" not in tick.split("Your hand")[1]  # a symbol only Tock holds
    assert "Your hand" not in text(game, state, None)


def test_memorise_screen_lists_the_order_with_round_numbers(game):
    state = game.new_game(2)
    shown = text(game, state, 0)
    assert "Shared symbols for rounds 1 to 16" in shown
    assert "memorised" in shown
    after = state.apply(0, MEMORISED).apply(1, MEMORISED)
    assert "Shared symbols for rounds" not in text(game, after, 0)


def test_clause_a_tie_on_points_names_who_holds_more_items_on_screen():
    """'If the scores are tied, whichever player has 2/3 of the Final Items for this game
    wins': the final screen says why the tie went as it did in every allocation, never 'the
    holder of two items' for a seat that holds three."""
    for items, said in (
        ("all/none", "Tick wins the tie by holding more Final Match items (3 to 0)"),
        ("none/mulligan", "Tock wins the tie by holding more Final Match items (1 to 0)"),
        ("palette-swap/mulligan", "both hold as many Final Match items (1 each)"),
    ):
        game = meeple.make("triangle-clock", items=items)
        final = random_playthrough(game, 4).state
        tied = replace(final, seats=tuple(replace(s, score=7) for s in final.seats))
        shown = " ".join(text(game, tied, 0).split())
        assert "Final score Tick 7, Tock 7" in shown, shown
        assert said in shown, shown
        assert "two items" not in shown, shown
