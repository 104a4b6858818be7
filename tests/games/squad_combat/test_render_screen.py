"""The Squad Combat screen fits a 40-line terminal (issue 32, item 17)."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

import meeple
from meeple.games.squad_combat.pieces import PHASE
from meeple.games.squad_combat.render import (
    LOG_MIN,
    SCREEN_LINES,
    TURN_END,
    render_squad_title,
)


def _lines(game, state, player, width: int) -> list[str]:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(game.render(state, player))
    return console.export_text().splitlines()


@pytest.mark.parametrize("players", [2, 4])
def test_screens_of_random_games_fit_forty_lines_with_the_prompt(players, width=80):
    game = meeple.make("squad-combat", players=players)
    tallest = 0
    for seed in range(2):
        state = game.new_game(seed)
        rng = random.Random(seed)
        for step in range(400):
            if state.is_over:
                break
            player = state.to_act[0]
            if step % 9 == 0:  # every screen would take long; a sample of them
                lines = _lines(game, state, player, width)
                tallest = max(tallest, len(lines))
                assert len(lines) <= SCREEN_LINES - 1, "\n".join(lines)
                assert "Log" in lines[0]
            state = state.apply(player, rng.choice(state.legal_actions(player)))
    assert tallest > 20  # the screens measured were full ones


def test_a_crowded_screen_keeps_the_latest_log_lines_and_the_whole_board():
    game = meeple.make("squad-combat", players=4)
    state = game.new_game(1)
    rng = random.Random(1)
    for _ in range(150):
        player = state.to_act[0]
        state = state.apply(player, rng.choice(state.legal_actions(player)))
    lines = _lines(game, state, state.to_act[0], 80)
    text = "\n".join(lines)
    assert state.log[-1] in text  # the newest event is never the one dropped
    assert sum(line.startswith("  ") for line in lines[1 : 1 + LOG_MIN]) == LOG_MIN
    for seat in range(4):
        assert f"(seat {seat})" in text and f"{seat}a " in text and f"{seat}c " in text


def test_card_counts_read_as_words_one_card_two_cards():
    """Issue 32.11: no "draws 1 cards", no "card(s)" in the log or the cards' texts."""
    game = meeple.make("squad-combat", players=3)
    lines: list[str] = []
    for seed in range(3):
        state = game.new_game(seed)
        rng = random.Random(seed)
        while not state.is_over:
            player = state.to_act[0]
            state = state.apply(player, rng.choice(state.legal_actions(player)))
        lines += state.log
    texts = [card.describe() for card in game.cards]
    draws = [line for line in lines if " draws " in line]
    assert draws and any(text.startswith("edge") or "draw" in text for text in texts)
    for line in lines + texts:
        assert "(s)" not in line and "1 cards" not in line, line


def test_the_final_board_marks_the_seats_out_not_passed():
    """At a turn limit's draw the last turn's passes are still in the state: the end board
    says the game is over, and no squad carries the turn's [passed] any more."""
    game = meeple.make("squad-combat", players=4, turn_limit=1)
    state, rng = game.new_game(2), random.Random(2)
    while not state.is_over:
        player = state.to_act[0]
        state = state.apply(player, rng.choice(state.legal_actions(player)))
    assert any(state.passed)
    text = "\n".join(_lines(game, state, None, 100))
    assert "Game over after turn 1" in text and "[passed" not in text


@pytest.mark.parametrize("width", [60, 100])
def test_every_character_s_traits_are_on_the_screen_however_narrow(width):
    """'Traits decide which character may play which card': at 60 columns the squads'
    table dropped its last column, the traits, without a sign. Where the columns do not
    fit, each squad's traits go on a line under its table."""
    game = meeple.make("squad-combat", players=2)
    state = game.new_game(1)
    text = " ".join(" ".join(_lines(game, state, 0, width)).split())
    for seat in state.order:
        for ch in state.parties[seat]:
            traits = game.characters[ch.card].traits
            assert "/".join(traits) in text, (traits, text)
    assert ("traits 0a:" in text) == (width == 60), text


def test_a_squad_is_in_its_action_phase_only_until_the_turn_s_end():
    """During the turn's end (its window, its discards) a squad read "[passed, action
    phase]": no squad is in its action phase there, and the one whose phase it is says so
    until then."""
    game = meeple.make("squad-combat", players=2)
    seen = {"end": 0, "phase": 0}
    for seed in range(3):
        state, rng = game.new_game(seed), random.Random(seed)
        while not state.is_over:
            titles = [render_squad_title(state, seat).plain for seat in state.order]
            if state.step.kind in TURN_END:
                assert not any("action phase" in t for t in titles), titles
                seen["end"] += 1
            elif state.step.kind == PHASE:
                assert "action phase" in render_squad_title(state, state.phase).plain
                seen["phase"] += 1
            (seat,) = state.to_act
            state = state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert seen["end"] and seen["phase"], seen
