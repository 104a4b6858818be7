"""Terminal rendering (issue 4, clause 6): symbols, scores, round, items, hidden parts."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from rich.console import Console

import meeple
from meeple.core.conformance import random_playthrough
from meeple.games.triangle_clock.render import CLEAR_STYLE, SOLID_STYLE, symbol_text
from meeple.games.triangle_clock.rules import MEMORISED

from .conftest import arrange, both, play_round, symbols

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
    # Tick has yet to choose, Tock has chosen: "to choose", not "thinking", said of the
    # person the program waits for.
    assert re.search(r"this choice\s+to choose\s+chosen", tick), tick


def test_memorise_screen_lists_the_order_with_round_numbers(game):
    state = game.new_game(2)
    shown = text(game, state, 0)
    assert "Shared symbols for rounds 1 to 16" in shown
    assert "memorised" in shown
    after = state.apply(0, MEMORISED).apply(1, MEMORISED)
    assert "Shared symbols for rounds" not in text(game, after, 0)


@pytest.mark.parametrize(
    ("width", "per_row"), [(100, 8), (78, 8), (77, 7), (60, 6), (38, 4), (37, 3)]
)
def test_the_order_to_memorise_has_as_many_aligned_entries_a_row_as_the_width_allows(
    game, width, per_row
):
    """Eight entries a row take 78 columns: in 60 each row wrapped into the next (' 7 ◿SEc'
    under ' 1 ▼Ss'), its entries out of their columns. A row has as many entries as fit,
    eight at most, each in its column."""
    console = Console(width=width, record=True, color_system=None)
    console.print(game.render(game.new_game(2), 0))
    lines = console.export_text().splitlines()
    first = lines.index("Shared symbols for rounds 1 to 16:") + 1
    rows = lines[first : first + -(-16 // per_row)]
    entries = [re.findall(r"(\d+) (\S+)", row) for row in rows]
    assert [int(n) for row in entries for n, _ in row] == list(range(1, 17)), rows
    assert all(len(row) == per_row for row in entries[:-1]) and len(entries[-1]) <= per_row
    assert all(len(row) <= width for row in rows), rows
    symbol_columns = [[m.start() for m in re.finditer(r"(?<=\d )\S", row)] for row in rows]
    assert all(columns == symbol_columns[0][: len(columns)] for columns in symbol_columns)


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


def test_the_round_summary_marks_the_items_used_on_its_revealed_symbols(game):
    """The legend: "`+palette-swap`, `+right-angle`: an item used on that revealed symbol".
    Once a round is over its picks leave the board's "revealed" row, and its summary is
    where they are seen, the third one only there: each symbol an item was used on carries
    the mark there too. The log's telling of the round (the browser's too) is unchanged:
    its lines of the picks above say the items already."""
    tick = ("A +palette-swap", "C", "B +right-angle")  # Es swapped to Ec, Ss turned to Ws
    before = play_round(arrange(game, HANDS, shared="Ns"), tick[:2], ("D", "A"))
    before = before.apply_text(0, tick[2])
    state = before.apply_text(1, "C")
    summary = text(game, state, 0).split("Round 1: shared")[1].split("Your hand")[0]
    tick_line, tick_cards, tock_line = summary.splitlines()[1:4]
    assert "▲Ns ▷Ec +palette-swap ◀Ws ◀Ws +right-angle  " in tick_line, tick_line
    assert "Tock (seat 1)" in tock_line and "+" not in tock_line
    # The last round is public in full, its cards too (rules.md, "What each player sees"):
    # the two cards each seat played, both sides, as the browser's last round shows them.
    assert tick_cards.split() == ["cards", "played", "▶Es/▼Ss", "◀Ws/◸NWc"], tick_cards
    logged = game.log_after(before, 1, game.parse_action("C"))
    assert logged[1].startswith("  Tick (seat 0)  ▲Ns ▷Ec ◀Ws ◀Ws  "), logged


# Two Flush Pairs over the shared Ss: Tick's of Ss (its hand holds Ns), Tock's of NEc.
# rank-first reads the pairs first (NEc before Ss: Tock); whole-hand reads Ns first (Tick).
EQUAL_RANKS = ("Ns+Ss NEc+Ec Wc+NWc SWs+SWc", "NEc+Sc Nc+NEc Ws+NWs SEs+SEc")


def equal_ranks_round(tie_break: str) -> str:
    """The screen after a round of two Flush Pairs, under ``tie_break``."""
    game = meeple.make("triangle-clock", tie_break=tie_break)
    state = play_round(arrange(game, EQUAL_RANKS, shared="Ss"), ("A", "C", "B"), ("A", "D", "B"))
    last = state.history[-1]
    assert last.seats[0].rank == last.seats[1].rank == "Flush Pair"
    return " ".join(text(game, state, None).split())


def test_a_round_of_equal_ranks_says_which_tie_break_decided_and_at_which_symbols():
    """'If 2 hands are of the same rank, the one which contains the symbol closest to
    12oClock Clockwise is ranked higher': the round's result says the ranks were equal, the
    tie-break the game plays (option tie_break) and the symbols it separated the hands by."""
    rank_first = equal_ranks_round("rank-first")
    assert (
        "Equal ranks, tie-break rank-first (the rank's symbols, best first): Tock's ◹NEc beats "
        "Tick's ▼Ss (closer to 12 o'clock clockwise). Tock (seat 1) ranks higher"
    ) in rank_first
    whole_hand = equal_ranks_round("whole-hand")
    assert (
        "Equal ranks, tie-break whole-hand (all four symbols, best first): Tick's ▲Ns beats "
        "Tock's ◹NEc (closer to 12 o'clock clockwise). Tick (seat 0) ranks higher"
    ) in whole_hand


@pytest.mark.parametrize("tie_break", ["rank-first", "whole-hand"])
def test_the_view_of_a_round_of_equal_ranks_says_the_screen_s_reason(tie_break):
    """A page draws the view, not the screen: the last round in every view carries the
    sentence the screen prints, word for word, and a round the ranks decided carries none."""
    game = meeple.make("triangle-clock", tie_break=tie_break)
    state = play_round(arrange(game, EQUAL_RANKS, shared="Ss"), ("A", "C", "B"), ("A", "D", "B"))
    shown = " ".join(text(game, state, None).split())
    for seat in (None, 0, 1):
        reason = state.view(seat)["last_round"]["tie_break"]
        assert reason.startswith(f"Equal ranks, tie-break {tie_break} (") and reason in shown
    ranked = play_round(arrange(game, HANDS, shared="Ns"), ("A", "C", "B"), ("A", "C", "B"))
    last = ranked.view(0)["last_round"]
    assert last["winner"] is not None and last["tie_break"] is None


def test_the_tie_break_reaching_the_other_symbols_says_so():
    """Rank-first: a Pair of Ns Nc in both hands, so the other symbols decide; NEs and NEc
    differ only by colour."""
    game = meeple.make("triangle-clock")
    hands = ("Ns+Nc NEs+Ws Es+Ec SEs+SEc", "Ns+NEc Nc+Wc Sc+SWc NWs+NWc")
    state = play_round(arrange(game, hands, shared="Ss"), ("A", "C", "B"), ("A", "C", "B"))
    assert state.history[-1].seats[0].rank == state.history[-1].seats[1].rank == "Pair"
    shown = " ".join(text(game, state, None).split())
    assert (
        "tie-break rank-first (the rank's symbols are the same; then the others, best first): "
        "Tick's ◥NEs beats Tock's ◹NEc (solid before clear)."
    ) in shown


def test_a_round_decided_by_rank_or_tied_names_no_tie_break():
    game = meeple.make("triangle-clock")
    tied = play_round(
        arrange(game, ("Ns+Es Ss+Ws SWs+SWc Ec+Wc", "Ns+Es Ss+Ws SEs+SEc NEc+Wc"), shared="Nc"),
        ("A", "C", "B"),
        ("A", "C", "B"),
    )
    assert "Equal hands: nobody scores." in text(game, tied, None)
    assert "tie-break" not in text(game, tied, None)
    # Different ranks: the rank decided, and the tie-break has nothing to say.
    assert game.ranking.decider(symbols("Ns Nc Ns Ec"), symbols("Es Ws Ss SWc")) is None


def test_the_choice_that_ends_a_round_is_followed_in_a_log_by_the_round_s_result():
    """A log (the terminal's in a game among agents, a replay's) shows no board between the
    rounds: the last choice of a round is followed by its result as the board tells it, the
    other choices by nothing."""
    from meeple.interfaces.move_log import move_words

    game = meeple.make("triangle-clock", tie_break="rank-first")
    state = arrange(game, EQUAL_RANKS, shared="Ss")
    for tick, tock in (("A", "A"), ("C", "D")):
        assert "\n" not in move_words(state, 0, tick).plain
        state = state.apply_text(0, tick)
        assert "\n" not in move_words(state, 1, tock).plain
        state = state.apply_text(1, tock)
    state = state.apply_text(0, "B")
    lines = move_words(state, 1, "B").plain.split("\n")
    assert lines[1:] == [
        "    Round 1: shared ▼Ss",
        "      Tick (seat 0)  ▼Ss ▲Ns ◹NEc ▼Ss  Flush Pair (strength 3)",
        "      Tock (seat 1)  ▼Ss ◹NEc ◹NEc ▽Sc  Flush Pair (strength 3)",
        "      Equal ranks, tie-break rank-first (the rank's symbols, best first): Tock's ◹NEc "
        "beats Tick's ▼Ss (closer to 12 o'clock clockwise).",
        "      Tock (seat 1) ranks higher and scores 3 (the strength of the other hand).",
    ]


def _round_played(notes: str = "allowed") -> tuple:
    """Round 1 of EQUAL_RANKS to its last choice: the state before it."""
    game = meeple.make("triangle-clock", tie_break="rank-first", notes=notes)
    state = arrange(game, EQUAL_RANKS, shared="Ss")
    before = []
    for tick, tock in (("A", "A"), ("C", "D"), ("B", "B")):
        for seat, text in ((0, tick), (1, tock)):
            before.append((state, seat, text))
            state = state.apply_text(seat, text)
    return game, before


def test_the_browsers_log_tells_each_round_under_the_choice_that_completed_it():
    """The server's log, which the browser shows, tells each round's result below the
    choice that completed it (``Game.log_after``) in the terminal's words: the results of
    earlier rounds, which the board no longer shows, stay in the log."""
    game, before = _round_played()
    told = [game.log_after(state, seat, game.parse_action(text)) for state, seat, text in before]
    assert told[:-1] == [()] * 5
    assert told[-1] == (
        "Round 1: shared ▼Ss",
        "  Tick (seat 0)  ▼Ss ▲Ns ◹NEc ▼Ss  Flush Pair (strength 3)",
        "  Tock (seat 1)  ▼Ss ◹NEc ◹NEc ▽Sc  Flush Pair (strength 3)",
        "  Equal ranks, tie-break rank-first (the rank's symbols, best first): Tock's ◹NEc "
        "beats Tick's ▼Ss (closer to 12 o'clock clockwise).",
        "  Tock (seat 1) ranks higher and scores 3 (the strength of the other hand).",
    )


def test_under_notes_forbidden_no_log_keeps_the_rounds_shared_symbols():
    """'You may not take written notes': a log of every round's shared symbol would be the
    note of the order a player must remember. Neither the browser's log nor the
    terminal's tells a round's result then (the terminal's told it before)."""
    from meeple.interfaces.move_log import move_words

    game, before = _round_played(notes="forbidden")
    state, seat, text = before[-1]
    assert game.log_after(state, seat, game.parse_action(text)) == ()
    assert "Round 1" not in move_words(state, seat, text).plain
