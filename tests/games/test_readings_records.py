"""Every option issue 34 added is recorded in a game record, and the record replays the
same game (a record that lost an option would replay another game)."""

from __future__ import annotations

import pytest

import meeple
from meeple.agents import make_agent, play_game
from meeple.core.record import GameRecord

READINGS = [
    ("squad-combat", {"edge_windows": "own", "end_draws": "all-at-once"}),
    ("erd", {"rules": "original", "rush_tiebreak": "cards", "match_draws": "replay"}),
    (
        "triangle-clock",
        {
            "mulligan_order": "literal",
            "tie_break": "whole-hand",
            "notes": "forbidden",
            "items": "mulligan/mulligan",
        },
    ),
    ("edges", {"double": True, "double_start": "a1", "board": "3x3", "stash": "2/2/0"}),
    (
        "erosion",
        {
            "advanced": True,
            "typed_weathering": "pass-over",
            "empty_hand": "before-uplift",
            "draw_from": "one",
            "uplift_architecture": "once",
        },
    ),
]


@pytest.mark.parametrize(("name", "options"), READINGS, ids=[r[0] for r in READINGS])
def test_a_record_keeps_the_readings_and_replays_the_same_game(name, options):
    game = meeple.make(name, **options)
    agents = [make_agent("random", game, seed) for seed in range(game.num_players)]
    played = play_game(game, agents, seed=3)
    record = GameRecord.from_json(played.record().model_dump_json())
    for option, value in options.items():
        assert record.options[option] == value
    assert record.replay() == played.state
