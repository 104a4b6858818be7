"""Flat search over shared worlds: every candidate is played in the same worlds, candidates
clearly behind leave the race, and a fixed seed and world budget replay exactly."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import meeple
from meeple.agents import make_agent
from meeple.agents.flat import FlatAgent
from meeple.core.agent import Observation
from meeple.core.errors import AgentSpecError
from tests.agents.test_search import winning_last_move_position

TC_SPEC = "flat:worlds=24,rollout=guided,opponent=guided"


def _mid_game(seed: int = 7, round_number: int = 6) -> Observation:
    """A Triangle Clock decision some rounds in, both seats played by the heuristic."""
    game = meeple.make("triangle-clock")
    agents = [make_agent("heuristic", game, s) for s in (1, 2)]
    state = game.new_game(seed)
    while state.round < round_number:
        p = state.to_act[0]
        state = state.apply(p, agents[p].act(Observation(state, p)))
    return Observation(state, state.to_act[0])


def test_flat_is_reproducible_for_a_fixed_seed_and_world_budget():
    """(Edges too, with the tree search, in tests/agents/test_search.py.)"""
    observation = _mid_game()
    picks = {make_agent(TC_SPEC, observation.game, 4).act(observation) for _ in range(3)}
    assert len(picks) == 1


def test_every_candidate_is_played_in_the_same_worlds():
    """Common random numbers: within a world every candidate still in the race gets the same
    rollout seed, after the same choices of the other seat; the next world brings new ones."""
    observation = _mid_game()
    agent = make_agent(TC_SPEC, observation.game, 4)
    assert isinstance(agent, FlatAgent)
    playout = agent._playout
    assert playout is not None
    seeds: list[int] = []

    def recording(state, seed):
        seeds.append(seed)
        return playout(state, seed)

    agent._playout = recording
    agent.act(observation)
    runs = [seeds[0]]
    for seed in seeds[1:]:
        if seed != runs[-1]:
            runs.append(seed)
    # one run of equal seeds per world, and no world's seed used again later
    assert len(runs) == agent.last_iterations == len(set(runs))
    assert len(seeds) > len(runs), "no world was shared by two candidates"


def test_a_candidate_clearly_behind_or_no_different_from_the_leader_leaves_the_race():
    agent = make_agent("flat:worlds=10", meeple.make("edges", board="2x2"), 0)
    assert isinstance(agent, FlatAgent)
    leader = [1.0, 0.0] * 10
    values = {
        "leader": leader,
        "behind": [v - 0.5 for v in leader],  # worse by the same amount in every world
        "noisy": [v - 0.1 + (0.8 if i % 2 else -0.8) for i, v in enumerate(leader)],
        "equal": list(leader),
    }
    # "equal" comes to the same thing as "leader" in every world: one of the two stays, drawn
    kept = {tuple(agent._race(list(values), values, random.Random(s))) for s in range(20)}
    assert kept == {("leader", "noisy"), ("noisy", "equal")}


def test_a_race_ends_when_one_candidate_is_left():
    """A decision whose moves separate stops before its budget: the winning edges score
    alike in every world (no world tells them apart) and every other edge loses."""
    state = winning_last_move_position()
    agent = make_agent("flat:worlds=500", state.game, 0)
    action = agent.act(Observation(state, 1))
    assert state.apply(1, action).returns[1] == 1.0
    assert 16 <= agent.last_iterations < 500


@pytest.mark.parametrize(
    ("spec", "game", "message"),
    [
        ("flat:worlds=0", "edges", "worlds must be a whole number of at least 1"),
        ("flat:seconds=0", "edges", "seconds must be above 0"),
        ("flat:min_worlds=1", "edges", "min_worlds must be a whole number of at least 2"),
        ("flat:rollout=ahead", "erosion", r"rollout 'ahead' is not a rollout of erosion"),
        (
            "flat:opponent=heuristic",
            "triangle-clock",
            r"opponent 'heuristic'.*choose from: ahead, deep, guided, random$",
        ),
        ("flat:candidates=4", "erd", "candidates needs a rollout that can choose one action"),
    ],
)
def test_bad_settings_are_refused_with_what_is_allowed(spec, game, message):
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec, meeple.make(game), 0)


def test_a_rollout_that_values_every_candidate_at_once_is_asked_once_a_world():
    """Squad Combat's ``field`` rollout values a world's candidates in one compiled call:
    flat asks it once per world with every candidate still in the race, and its values
    decide the move; ``guided`` offers no such call and is played candidate by candidate."""
    game = meeple.make("squad-combat", players=3)
    assert make_agent("flat:worlds=4,rollout=guided", game)._values is None
    agent = make_agent("flat:worlds=8,rollout=field", game, 2)
    assert isinstance(agent, FlatAgent) and agent._values is not None
    state = game.new_game(3)
    seat = state.to_act[0]
    observation = Observation(state, seat)
    calls: list[int] = []
    values = agent._values

    def recording(world, player, actions, seed):
        calls.append(len(actions))
        assert player == seat and actions == observation.legal_actions
        return values(world, player, actions, seed)

    agent._values = recording
    action = agent.act(observation)
    # eight worlds, none raced yet (min_worlds is 16): every candidate in each
    assert calls == [len(observation.legal_actions)] * 8
    assert action in observation.legal_actions
    assert make_agent("flat:worlds=8,rollout=field", game, 2).act(observation) == action


def test_moves_that_come_to_the_same_thing_are_drawn_at_random_not_taken_first(monkeypatch):
    """Where every world values several moves alike, the first in legal order would always
    win: in Erosion, the mountain of the lowest seat is then weathered most, a seat
    imbalance of the agent's making. Ties are drawn from the decision's own seeded stream;
    a move better in any world still wins every time."""
    game = meeple.make("edges")
    state = game.new_game(0)
    observation = Observation(state, state.to_act[0])
    legal = observation.legal_actions
    monkeypatch.setattr(FlatAgent, "_value", lambda self, world, player, action, o, s: 0.0)
    chosen = [FlatAgent(game, seed=s, worlds=8).act(observation) for s in range(40)]
    assert all(a in legal for a in chosen)
    assert len(set(chosen)) >= 5, "equal moves must not all go to one"
    assert chosen == [FlatAgent(game, seed=s, worlds=8).act(observation) for s in range(40)]
    better = legal[-1]
    monkeypatch.setattr(
        FlatAgent, "_value", lambda self, world, player, action, o, s: float(action == better)
    )
    assert {FlatAgent(game, seed=s, worlds=8).act(observation) for s in range(10)} == {better}


def test_ties_first_keeps_the_first_of_equal_moves_and_a_bad_word_is_refused(monkeypatch):
    game = meeple.make("edges")
    state = game.new_game(0)
    observation = Observation(state, state.to_act[0])
    monkeypatch.setattr(FlatAgent, "_value", lambda self, world, player, action, o, s: 0.0)
    agent = make_agent("flat:worlds=8,ties=first", game, 3)
    assert agent.act(observation) == observation.legal_actions[0]
    with pytest.raises(AgentSpecError, match="ties='middle'; choose one of random, first"):
        make_agent("flat:ties=middle", game, 0)


def test_a_compiled_policy_the_content_is_too_large_for_is_refused_saying_why(tmp_path):
    """A designer's Squad Combat content with a deck past what the compiled rules hold: a
    searcher asking for a compiled rollout or opponent is told why (the compiled rules'
    own words) and offered only what works, never the policy it was just refused."""
    content = Path(__file__).parents[1] / "games" / "squad_combat" / "content"
    for name in ("characters.toml", "cards.toml"):
        (tmp_path / name).write_text((content / name).read_text())
    (tmp_path / "decks.toml").write_text(
        '[big]\nname = "Big"\ncharacters = ["knight", "archer", "sage"]\n[big.cards]\njab = 70\n'
    )
    game = meeple.make("squad-combat", content=str(tmp_path))
    for spec, refused in (
        ("ismcts:rollout=guided", "rollout 'guided'"),
        ("flat:rollout=random,opponent=guided", "opponent 'guided'"),
    ):
        with pytest.raises(AgentSpecError) as caught:
            make_agent(spec, game, 0)
        message = str(caught.value)
        assert refused in message and "at most 64" in message, message
        assert message.endswith("choose from: random"), message
