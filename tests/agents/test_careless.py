"""The careless agent: the game's hand-written agent with a chance of a random move."""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.agents import make_agent, play_game
from meeple.agents.careless import CarelessAgent
from meeple.core.agent import Observation
from meeple.core.errors import AgentSpecError

GAMES = ["edges", "erd", "erosion", "triangle-clock", "squad-combat"]


def _moves(name: str, spec: str, seed: int) -> list[tuple[int, str]]:
    game = meeple.make(name)
    agents = [make_agent(spec, game, seed=5), make_agent("random", game, seed=6)]
    return play_game(game, agents, seed=seed).record().moves


@pytest.mark.parametrize("name", GAMES)
def test_never_slipping_it_plays_as_the_hand_written_agent(name: str) -> None:
    """At slip=0 every move is the hand-written agent's, seeded alike: a whole game the
    same, move for move."""
    heuristic = meeple.make(name).heuristic_agent
    assert heuristic is not None
    assert _moves(name, "careless:slip=0", 3) == _moves(name, heuristic, 3)


def test_it_slips_at_about_the_chance_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    """At slip=0.3 about three decisions in ten (those with a choice) are not the
    hand-written agent's, over the positions of a few games."""
    game = meeple.make("erosion")
    decisions = slipped = 0
    for seed in range(4):
        play = play_game(game, [make_agent("heuristic", game, seed=seed)] * 2, seed=seed)
        careless = make_agent("careless:slip=0.3", game, seed=seed)
        assert isinstance(careless, CarelessAgent)
        asked: list[Observation] = []

        def counted(
            observation: Observation, act: Any = careless.inner.act, asked: list = asked
        ) -> Any:
            asked.append(observation)
            return act(observation)

        monkeypatch.setattr(careless.inner, "act", counted)
        for state in play.record().states()[:-1]:
            observation = Observation(state, state.to_act[0])
            if len(observation.legal_actions) < 2:
                continue
            before = len(asked)
            chosen = careless.act(observation)
            assert chosen in observation.legal_actions
            decisions += 1
            slipped += len(asked) == before
    assert decisions > 100
    assert 0.2 * decisions < slipped < 0.4 * decisions, (slipped, decisions)


@pytest.mark.parametrize("slip", ["-0.1", "1.5"])
def test_a_slip_outside_nought_to_one_is_refused(slip: str) -> None:
    with pytest.raises(AgentSpecError, match="slip is the chance of a random move, from 0 to 1"):
        make_agent(f"careless:slip={slip}", meeple.make("erd"))


def test_always_slipping_it_plays_only_legal_moves_to_the_end() -> None:
    """At slip=1 every choice is a random one, and the game still ends lawfully (the
    record's replay checks every move)."""
    game = meeple.make("squad-combat", players=3)
    agents = [make_agent("careless:slip=1", game, seed=k) for k in range(3)]
    record = play_game(game, agents, seed=2).record()
    assert record.states()[-1].is_over
