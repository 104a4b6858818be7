"""The heuristic agent: offered by the game, deterministic, remembers, beats random."""

from __future__ import annotations

import pytest

import meeple
from meeple.agents import make_agent, play_game
from meeple.core.agent import Observation
from meeple.core.errors import AgentSpecError
from meeple.games.triangle_clock import TriangleClockGame
from meeple.games.triangle_clock.agents import HeuristicAgent
from meeple.games.triangle_clock.rules import MEMORISED, MULLIGAN, Phase

from .conftest import arrange


def test_the_game_offers_its_heuristic_agent(game):
    assert game.heuristic_agent == "heuristic"
    assert isinstance(make_agent("heuristic", game, 1), HeuristicAgent)
    assert isinstance(make_agent("heuristic:recall=false,samples=4", game), HeuristicAgent)


@pytest.mark.parametrize("samples", ["0", "-3"])
def test_a_heuristic_without_samples_is_refused_when_made(game, samples):
    """With no sampled hand to plan against it stopped at its first decision, mid-run,
    with an IndexError; the spec is refused before any game, saying what it takes."""
    with pytest.raises(AgentSpecError, match="samples must be a whole number of at least 1"):
        make_agent(f"heuristic:samples={samples}", game)


def test_heuristic_beats_random_clearly(game):
    """Seats alternated over 16 games; the benchmark measures 400 (rules.md)."""
    wins = 0
    for k in range(16):
        agents = [make_agent("random", game, k), make_agent("heuristic", game, k)]
        if k % 2:
            agents.reverse()
        seat = 1 - k % 2
        state = play_game(game, agents, seed=100 + k).state
        wins += state.returns[seat] > 0
    assert wins >= 14


def test_heuristic_is_deterministic_for_a_seed(game):
    def moves(seed: int) -> list[tuple[int, str]]:
        agents = [make_agent("heuristic", game, seed), make_agent("random", game, seed)]
        return play_game(game, agents, seed=3).moves

    assert moves(5) == moves(5)


def test_heuristic_remembers_the_order_it_was_shown(game):
    """With recall it knows the next shared symbol; without, it only knows which symbols
    of the order are still to come."""
    state = game.new_game(8)
    keen = HeuristicAgent(game, seed=1)
    forgetful = HeuristicAgent(game, seed=1, recall=False)
    for agent in (keen, forgetful):
        assert agent.act(Observation(state, 0)) == MEMORISED
    state = state.apply(0, MEMORISED).apply(1, MEMORISED)
    assert state.phase is Phase.FIRST
    sample = Observation(state, 0).determinize(keen.rng)
    assert keen._next_shared(sample) == [state.orders[0][1]]
    assert len(forgetful._next_shared(sample)) == 15


def test_heuristic_plans_a_legal_choice_at_every_step():
    """Both seats holding every item: every plan it makes, items included, is legal."""
    every = "palette-swap+right-angle+mulligan"
    game = meeple.make("triangle-clock", items=f"{every}/{every}")
    assert isinstance(game, TriangleClockGame)
    agents = [make_agent("heuristic", game, 1), make_agent("heuristic", game, 2)]
    play = play_game(game, agents, seed=9)
    assert play.state.is_over
    used = [r.seats[p].picks for r in play.state.history for p in (0, 1)]
    assert any(pick.palette_swap or pick.right_angle for picks in used for pick in picks)


def test_heuristic_takes_a_mulligan_when_its_best_plan_is_below_the_bar(game):
    """Before its first symbol: a bar above every plan's value means a Mulligan, a bar
    below every plan's value means it keeps its cards."""
    state = arrange(game, ("Es+Ss Ws+NWc SWs+SWc Ec+Wc", "Nc+NEs Sc+SWc SEs+SEc NEc+Wc"), "Ns")
    eager = HeuristicAgent(game, seed=0, mulligan_below=100.0)
    never = HeuristicAgent(game, seed=0, mulligan_below=-100.0)
    assert eager.act(Observation(state, 1)) == MULLIGAN
    assert never.act(Observation(state, 1)) != MULLIGAN
