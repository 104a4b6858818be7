"""How the Erd screen tells the end of a game: once, not twice (issue 32, item 11)."""

from __future__ import annotations

import io
import random

from rich.console import Console

from meeple.core.registry import make

from .conftest import erd, play_round, position, side


def _play_until(game, seed: int):
    state = game.new_game(seed)
    rng = random.Random(seed)
    while not state.is_over:
        player = state.to_act[0]
        state = state.apply(player, rng.choice(state.legal_actions(player)))
    return state


def _screen(game, state) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(game.render(state, None))
    return console.export_text()


def test_a_mercy_ending_is_told_once_and_the_winner_named():
    game = make("erd", rules="0.01", best_of=1)
    state = _play_until(game, 1)
    detail = state.result["games"][-1]["detail"]
    assert state.result["ending"] == "mercy"  # the position this test is about
    screen = _screen(game, state)
    assert screen.count(detail) == 1
    assert "Game over: Blue wins (mercy rule)." in screen


def test_a_match_ends_with_the_match_score_and_the_last_game_told_once():
    game = make("erd", rules="0.01", best_of=5)
    state = _play_until(game, 1)
    detail = state.result["games"][-1]["detail"]
    screen = _screen(game, state)
    assert screen.count(detail) == 1
    a, b = sorted(state.result["score"], reverse=True)
    assert f"Match over: {state.result['winner_name']} won the match {a} games to {b}." in screen


def test_a_mercy_ending_names_the_rule_in_force():
    """A player who loses by the mercy rule is told the rule, not only their Reserve: the
    version's own, or the one an option sets."""
    for rules, mercy, words in (
        ("0.01", "rules", "(no Heavy and at most one Light in Reserve)"),
        ("0.02", "rules", "(no Heavy and at most two Lights in Reserve, while "),
        ("0.02", "empty", "(no Heavy and no Light in Reserve)"),
    ):
        game = make("erd", rules=rules, best_of=1, mercy=mercy)
        ended = [
            state
            for seed in range(40)
            if (state := _play_until(game, seed)).result["ending"] == "mercy"
        ]
        assert ended, (rules, mercy)
        detail = ended[0].result["games"][-1]["detail"]
        assert "loses by the mercy rule " + words in detail, detail
        assert words in _screen(game, ended[0])


def test_a_mercy_draw_names_the_rule_that_caught_both_players():
    """gaps.md: 'if both players meet it the game is a draw'; the sentence names the mercy
    rule in force, as a mercy loss does (a Reserve without Heavies, so that no Escalation
    comes first)."""
    for rules, mercy, words in (
        ("0.01", "rules", "(no Heavy and at most one Light in Reserve)"),
        ("0.02", "empty", "(no Heavy and no Light in Reserve)"),
    ):
        game = erd(rules=rules, mercy=mercy, reserve="LDDDDDDD")
        state = position(game, side("LDDDDDDD"), side("LDDDDDDD"))
        state = play_round(state, "rush=LDD defense=DDD", "rush=LDD defense=DDD")
        assert state.result["ending"] == "mercy_draw", (rules, mercy)
        detail = state.result["games"][-1]["detail"]
        assert detail == f"Both players ended round 1 within the mercy rule {words}: a draw"
        assert detail in " ".join(_screen(game, state).split())
