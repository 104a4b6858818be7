"""The heuristic agent, the terminal rendering and play through the ``meeple`` command."""

from __future__ import annotations

from rich.console import Console
from typer.testing import CliRunner

import meeple
from meeple.agents import make_agent, play_game
from meeple.core.agent import Observation
from meeple.core.registry import game_agents
from meeple.interfaces.cli import app
from meeple.lab import head_to_head

from .conftest import make, play, position


def text_of(renderable) -> str:
    console = Console(width=160, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_heuristic_beats_random_clearly():
    """The game's heuristic (Game.agents, heuristic_agent) against the uniform random agent,
    seats alternated: the benchmark measures it over many more games."""
    game = meeple.make("squad-combat")
    assert game.heuristic_agent == "heuristic" and "heuristic" in game_agents(game.name)
    result = head_to_head(game, "heuristic", "random", 40, seed=11)
    assert result.win_rate >= 0.85, result.summary()


def test_heuristic_plays_three_and_four_player_games_to_the_end():
    for players in (3, 4):
        game = meeple.make("squad-combat", players=players)
        agents = [make_agent("heuristic", game, seed) for seed in range(players)]
        state = play_game(game, agents, seed=players).state
        assert state.is_over


def test_heuristic_is_deterministic_for_a_seed():
    game = meeple.make("squad-combat")

    def moves(seed):
        agents = [make_agent("heuristic", game, seed), make_agent("heuristic", game, seed + 1)]
        return play_game(game, agents, seed=5).moves

    assert moves(1) == moves(1)


def test_heuristic_defends_with_the_smallest_die_that_saves_the_wound():
    game = make()
    state = position(game, hands={0: "jab", 1: "study"}, dice={"0a": (3,), "1b": (2, 4, 6)})
    state = play(state, "play jab by a", "target 1b", "die 3")
    agent = make_agent("heuristic", game, 0)
    assert str(agent.act(Observation(state, 1))) == "die 4"


def test_render_shows_the_table_the_hand_with_costs_and_the_log():
    """Each character with Life, wounds, energy left, dice and traits; the hand with costs;
    a log line for each thing that happened."""
    game = make()
    state = position(
        game, hands={0: "lunge volley", 1: "jab"}, dice={"0a": (2, 5)}, wounds={"1b": "jab"}
    )
    state = play(state, "play lunge by a", "pay 2")
    shown = text_of(game.render(state, 0))
    for expected in ("Knight", "6/6", "4/6", "1/4", "[5]", "Melee", "Arcane/Medic"):
        assert expected in shown, expected
    assert "Volley" in shown and "[2][4]" in shown, "the hand with its costs"
    assert "plays Lunge (<3>[1])" in shown and "spends a 2 for [1]" in shown
    assert "target choice" in shown and "target 1b" in shown
    spectator = text_of(game.render(state, None))
    assert "Hand of" not in spectator and "Volley" not in spectator


def test_cli_plays_agents_to_the_end():
    result = CliRunner().invoke(
        app, ["play", "squad-combat", "--seat", "random", "--seat", "heuristic", "--seed", "3"]
    )
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output


def test_cli_human_seat_reads_actions_and_explains_refusals():
    result = CliRunner().invoke(
        app,
        ["play", "squad-combat", "--seat", "human", "--seat", "random", "--seed", "3"],
        input="moves\nplay nothing by a\npass\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "legal moves" in result.output
    assert "no card 'nothing'" in result.output
    assert "Red passes." in result.output or "Stopped" in result.output


def test_cli_lists_the_game_and_its_options():
    result = CliRunner().invoke(app, ["rules", "squad-combat", "--full"])
    assert result.exit_code == 0
    for option in ("--players", "--decks", "--content", "--turn-limit", "Interpretations"):
        assert option in result.output
