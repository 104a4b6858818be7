"""Length in the game's own units as well as actions (issue 59, item 3)."""

from __future__ import annotations

import pytest

import meeple
from meeple.agents import make_agent, play_game
from meeple.lab.metrics import summarize
from meeple.lab.report import summary_rows
from meeple.lab.simulate import GameJob, play_job


def _final(name: str, seed: int = 3, **options):
    game = meeple.make(name, **options)
    agents = [make_agent("random", game, seed + p) for p in range(game.num_players)]
    return game, play_game(game, agents, seed=seed).record().replay()


def test_each_game_counts_its_own_units():
    game, state = _final("erd")
    units = game.length_units(state)
    assert units["games"] == len(state.games) >= 3  # best of 5
    assert units["rounds"] == sum(g.round for g in state.games) >= units["games"]
    game, state = _final("erd", best_of=1)
    assert game.length_units(state) == {"rounds": state.games[0].round}
    game, state = _final("triangle-clock")
    assert game.length_units(state) == {"rounds": 32}
    game, state = _final("squad-combat")
    assert game.length_units(state) == {"turns": state.turn}
    game, state = _final("erosion", advanced=True)
    assert game.length_units(state) == {"eras": state.era, "turns": state.turn}
    assert 1 <= state.era <= game.eras
    game, state = _final("edges", board="2x2")
    assert game.length_units(state) == {}


@pytest.mark.parametrize(("name", "unit"), [("erd", "rounds"), ("erosion", "turns")])
def test_rows_and_summaries_carry_them_with_intervals(name, unit):
    rows = [play_job(GameJob(game=name, options={}, seats=["random", "random"], run_seed=2,
                             index=k)) for k in range(6)]  # fmt: skip
    assert all(unit in r["units"] for r in rows)
    summary = summarize(rows)
    mean = sum(r["units"][unit] for r in rows) / len(rows)
    assert summary.units[unit].value == pytest.approx(mean)
    assert summary.units[unit].low <= mean <= summary.units[unit].high
    assert any(label == f"length in {unit}" for label, _ in summary_rows(summary))


def test_rows_stored_before_units_were_kept_give_none():
    rows = [play_job(GameJob(game="erd", options={}, seats=["random", "random"], run_seed=2,
                             index=k)) for k in range(2)]  # fmt: skip
    for row in rows:
        del row["units"]
    assert summarize(rows).units == {}
