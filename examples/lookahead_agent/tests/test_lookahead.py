"""The lookahead agent plays legal moves, beats random play at Edges, and refuses a bad
budget in one line."""

import pytest

import meeple
from meeple.agents import make_agent
from meeple.core.errors import AgentSpecError
from meeple.lab.matchup import head_to_head


def test_it_is_offered_by_its_spec() -> None:
    agent = make_agent("lookahead:worlds=2", meeple.make("erosion"), seed=1)
    assert agent.name == "lookahead" and agent.worlds == 2


def test_it_beats_random_play_at_edges() -> None:
    result = head_to_head(meeple.make("edges", board="2x2"), "lookahead", "random", 20)
    assert result.wins > result.losses


def test_a_bad_budget_is_refused() -> None:
    with pytest.raises(AgentSpecError, match="worlds must be a whole number of 1 or more"):
        make_agent("lookahead:worlds=0", meeple.make("edges"))
