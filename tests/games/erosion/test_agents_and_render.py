"""The heuristic agent, the terminal rendering and CLI play of Erosion."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import meeple
from meeple.agents import make_agent, play_game
from meeple.core.agent import Observation
from meeple.core.record import GameRecord
from meeple.core.registry import game_agents
from meeple.interfaces.cli import app
from meeple.lab import head_to_head

from .conftest import cards, make, play, position


def rendered(state, player) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(state.game.render(state, player))
    return console.export_text()


# -- agents ---------------------------------------------------------------------------------
def test_the_heuristic_is_the_game_s_best_agent_and_plays_legal_moves():
    game = meeple.make("erosion", players=3, advanced=True, legend="basic")
    assert game.heuristic_agent == "heuristic" and "heuristic" in game_agents(game.name)
    agents = [make_agent("heuristic", game, seed=s) for s in range(3)]
    final = play_game(game, agents, seed=4).state
    assert final.is_over


def test_the_heuristic_is_deterministic_for_a_seed():
    game = meeple.make("erosion", players=2)
    runs = [
        play_game(game, [make_agent("heuristic", game, 1), make_agent("random", game, 2)], 9)
        for _ in range(2)
    ]
    assert runs[0].moves == runs[1].moves


@pytest.mark.parametrize("players", [2, 4])
def test_the_heuristic_beats_random(players):
    """The benchmark (benchmarks/erosion_agents.py) measures this over hundreds of games;
    here a small sample must already clear a wide margin over the 1/n baseline."""
    game = meeple.make("erosion", players=players)
    result = head_to_head(game, "heuristic", "random", 24, seed=5)
    assert result.win_rate >= 0.75, result.summary()


def test_the_heuristic_guesses_the_true_mohs_hardness_and_takes_the_tie():
    game = make()
    state = position(game, hands={0: ["WX06"], 1: ["H45"]}, mountains={0: ["H41"], 1: ["H42"]})
    state = play(state, "pass", "pass")
    agent = make_agent("heuristic", game, 0)
    assert str(agent.act(Observation(state, 0))) == "guess 3"
    state = play(state, "guess 3")
    assert str(agent.act(Observation(state, 1))) == "guess 8"
    state = play(state, "guess 6")
    assert str(agent.act(Observation(state, 0))) == "choose 0"


def test_the_heuristic_weathers_a_rival_rather_than_its_own_unfossiled_rocks():
    game = make()
    state = position(
        game,
        hands={0: ["WX12", "H41", "H42", "F85", "F86", "F87"]},
        mountains={0: ["WX06", "WX07"], 1: ["WX09", "WX10"]},
    )
    action = make_agent("heuristic", game, 0).act(Observation(state, 0))
    assert str(action) == "weather WX12 on 1 x2"


BEHIND_AT_TURN_31 = Path(__file__).with_name("behind-at-turn-31.position")
"""Two heuristics' game of seed 0 at turn 31: Andes (seat 1) to act, 9 points to 15."""


def test_the_wary_heuristic_does_not_pass_behind_where_the_leader_s_pass_ends_the_game():
    """The era ends when every player passes in a row: at two players, a pass while behind
    lets the leader end the game with one pass. The plain heuristic values a pass by the
    table it leaves and passes here; ``wary=true`` values it by that reply and plays on."""
    game = meeple.make("erosion")
    state = game.from_position(BEHIND_AT_TURN_31.read_text())
    assert [state.scores[p] + state.points(p) for p in (0, 1)] == [15, 9]
    ended = play(play(state, "pass"), "pass")  # Andes passes, then Alps
    assert ended.is_over and ended.returns == (1.0, -1.0)
    plain = make_agent("heuristic", game, 1).act(Observation(state, 1))
    wary = make_agent("heuristic:wary=true", game, 1).act(Observation(state, 1))
    assert str(plain) == "pass"
    assert str(wary) != "pass"


# -- rendering ------------------------------------------------------------------------------
def test_render_shows_mountains_as_columns_heights_river_deltas_and_draw_limits():
    game = make(3, advanced=True)
    aged = tuple(a.id == "ATM3" for a in game.catalog.atmospheres)
    state = position(
        game,
        hands={0: ["WX12"], 1: ["H41", "F85"]},
        mountains={0: ["WX01", "WX06", "H42"], 1: ["H43"], 2: []},
        weathered={0: 2},
        river=["WX09"],
        deltas={1: ["F86", "F87"]},
        aged=aged,
    )
    text = rendered(state, 1)
    lines = text.splitlines()
    assert "0 Alps" in lines[0] and "1 Andes" in lines[0] and "2 Rockies" in lines[0]
    top = next(line for line in lines if "WX01" in line)
    below = next(line for line in lines if "H42" in line)
    assert top.index("<WX01") < below.index("H42") - 1, "weathered rocks are offset left"
    assert "1500 m" in text and "500 m" in text and "0 m" in text
    assert "River: WX09 shale" in text
    assert "delta 2 (F86, F87)" in text, "the owner sees its delta"
    assert "H 1 (Ice Age, normal)" in text and "WX 2 (normal, normal)" in text
    assert "H41 basalt" in text and "WX12 limestone" not in text, "only your own hand"
    spectator = rendered(state, None)
    assert "delta 2" in spectator and "F86" not in spectator


def test_the_architecture_mark_is_on_rocks_whose_red_architecture_applies():
    """'Other architectures (in red) apply as long as the rock remains unweathered'; 'Rules
    that say "upon uplift" apply only when the card is first uplifted'. The board's ``!``
    says the architecture is in force ("Reading the board"): a weathered Exfoliation Dome,
    a Flood Basalt in a mountain and a Batholith in the River were marked as well."""
    piles = {"mountains": {0: ["H53", "WX24", "H39"]}, "weathered": {0: 1}, "river": ["H51"]}
    text = rendered(position(make(advanced=True), **piles), 0)
    assert "<H53 granite " in text and "H53 granite!" not in text, "weathered: not in force"
    assert "WX24 sandstone!" in text, "the unweathered Aquifer is in force"
    assert "H39 basalt " in text and "H39 basalt!" not in text, "upon uplift: not lasting"
    assert "River: H51 granite\n" in text
    assert "!" not in rendered(position(make(), **piles), 0), "basic rules: no architecture"


def test_the_view_names_the_rocks_whose_red_architecture_applies_as_the_board_marks_them():
    """The same rule as the board's ``!``, in each mountain's view for a page to draw:
    'Other architectures (in red) apply as long as the rock remains unweathered', and
    'upon uplift' applies only when the card is uplifted. Under ``typed_weathering=
    pass-over`` a weathered Aquifer (WX24) lying below an unweathered rock is off; the Flood
    Basalt (H39, upon uplift) above it is never listed; the Exfoliation Dome (H53) is."""
    game = make(advanced=True, typed_weathering="pass-over")
    mountains = {0: ["H53"], 1: ["H39", "WX24", "H42"]}
    state = position(game, mountains=mountains, weathered_below=((), cards(game, ["WX24"])))
    views = [state.view(seat) for seat in (None, 0, 1)]
    for view in views:
        assert view["mountains"][0]["architecture_in_force"] == ["H53"]
        assert view["mountains"][1]["architecture_in_force"] == []
        assert view["mountains"][1]["weathered_below"] == ["WX24"]
    text = rendered(state, 0)
    assert "H53 granite!" in text and "<WX24 sandstone" in text and "WX24 sandstone!" not in text
    basic = position(make(), mountains=mountains).view(0)
    assert "architecture_in_force" not in basic["mountains"][0], "no architecture in basic rules"


def test_render_the_end_of_the_game():
    game = make()
    state = play(position(game, mountains={0: ["H41"]}), "pass", "pass")
    assert "Game over (all players passed in a row)" in rendered(state, None)
    assert "Alps wins" in rendered(state, 0)


# -- CLI ------------------------------------------------------------------------------------
def test_cli_plays_erosion_for_a_person_and_agents(tmp_path):
    runner = CliRunner()
    path = tmp_path / "erosion.json"
    moves = "\n".join(["moves", "weather WX99 on 1 x1", "dance", "pass", "quit"]) + "\n"
    result = runner.invoke(
        app,
        ["play", "erosion", "--players", "3", "--seat", "human", "--seat", "random",
         "--seat", "heuristic", "--seed", "3", "--save", str(path)],
        input=moves,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "legal moves" in result.output and "no process card WX99" in result.output
    assert "not an Erosion action" in result.output and "Traceback" not in result.output
    record = GameRecord.load(path)
    assert tuple(record.moves[0]) == (0, "pass"), "seat 0 starts with seed 3 and passed"


def test_cli_agents_play_a_five_player_game_to_the_end():
    runner = CliRunner()
    result = runner.invoke(
        app,
        ["play", "erosion", "--players", "5", "--seed", "8", "--quiet"]
        + ["--seat", "heuristic", "--seat", "random"] * 2
        + ["--seat", "random"],
    )
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
