"""Search's compiled rollouts (``core.registry.register_playout``) against the rules engine.

A game's compiled playout must give the returns the rules give: exactly, where one legal
action is left, and in distribution from earlier positions. The search uses it by default
and keeps the engine's rollouts with ``compiled=false``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import meeple
from meeple.agents import make_agent
from meeple.agents.mcts import MCTSAgent
from meeple.agents.play import play_game
from meeple.core.agent import Observation
from meeple.core.conformance import random_states
from meeple.core.registry import RANDOM_ROLLOUT, compiled_playout, rollout_policies
from meeple.games.erosion.compiled import rules as erosion_rules

GAMES = [info.name for info in meeple.games() if compiled_playout(meeple.make(info.name))]


def _random_state(game: Any, seed: int, left: int) -> Any:
    """A random position ``left`` actions before the end of a random game (seeded)."""
    path = random_states(game, seed)
    return path[max(0, len(path) - 1 - left)]


NAMED = [
    (name, policy)
    for name in GAMES
    for policy in rollout_policies(name)
    if policy != RANDOM_ROLLOUT
]
"""Each game's rollouts other than the random one: (game, rollout)."""


def test_every_game_but_erd_offers_a_compiled_playout() -> None:
    assert set(GAMES) == {"edges", "erosion", "squad-combat", "triangle-clock"}


def test_the_card_games_offer_a_guided_rollout() -> None:
    assert {name for name, policy in NAMED if policy == "guided"} >= {
        "squad-combat",
        "triangle-clock",
    }


@pytest.mark.parametrize(("name", "rollout"), NAMED)
def test_search_with_a_named_rollout_plays_a_whole_game(name: str, rollout: str) -> None:
    game = meeple.make(name)
    agents = [make_agent(f"ismcts:rollout={rollout},iterations=10", game, seed=1)]
    agents += [make_agent(game.heuristic_agent or "random", game, seed=2)] * (game.num_players - 1)
    play = play_game(game, agents, 4)
    assert play.state.is_over


@pytest.mark.parametrize("name", GAMES)
def test_a_compiled_playout_with_one_action_left_ends_as_the_rules_do(name: str) -> None:
    """Where every legal action ends the game, a playout ends as one of them does, and over
    many seeds as each of them does."""
    game = meeple.make(name)
    playout = compiled_playout(game)
    checked = 0
    for seed in range(120):
        state = _random_state(game, seed, left=1)
        player = state.to_act[0]
        legal = state.legal_actions(player)
        after = [state.apply(player, a) for a in legal]
        if not all(s.is_over for s in after):
            continue  # e.g. a Squad Combat action that lets the game go on
        seen = {playout(state, k) for k in range(8 * len(legal))}
        assert seen == {s.returns for s in after}, seed
        checked += 1
    assert checked >= 20  # Erosion: 30 of 120 (the others' games mostly end at once)


@pytest.mark.parametrize("name", GAMES)
def test_compiled_playouts_score_like_the_engines_random_games(name: str) -> None:
    """Same distribution: mean returns of 3,000 random games each way, within 5 standard
    errors of each other (a wrong scoring or a skewed move choice shows far beyond that)."""
    game = meeple.make(name)
    playout = compiled_playout(game)
    state = _random_state(game, 7, left=8)
    agent = MCTSAgent(game, compiled=False)
    rng = random.Random(0)
    engine = [agent._rollout(state, rng)[0] for _ in range(3000)]
    compiled = [playout(state, k)[0] for k in range(3000)]
    mean_e, mean_c = sum(engine) / 3000, sum(compiled) / 3000
    spread = (sum((x - mean_e) ** 2 for x in engine) / 3000) ** 0.5
    assert abs(mean_e - mean_c) <= 5 * spread * (2 / 3000) ** 0.5 + 1e-9


def test_options_the_compiled_rules_do_not_serve_keep_the_engines_rollouts(monkeypatch) -> None:
    # Erosion's compiled rules serve every option now: one is taken back from them here, as
    # its check (compiled.rules.served) reads it, to see the search fall back.
    unserved = {"typed_weathering": "pass-over"}
    assert compiled_playout(meeple.make("erosion", **unserved)) is not None
    monkeypatch.setattr(erosion_rules, "SERVED", (("typed_weathering", "shield"),))
    assert compiled_playout(meeple.make("erosion")) is not None
    assert compiled_playout(meeple.make("erosion", **unserved)) is None
    assert MCTSAgent(meeple.make("erosion", **unserved))._playout is None


def test_the_search_uses_compiled_rollouts_unless_told_not_to() -> None:
    game = meeple.make("edges")
    assert MCTSAgent(game)._playout is not None
    assert MCTSAgent(game, compiled=False)._playout is None
    assert MCTSAgent(game, rollout_limit=20)._playout is None
    assert make_agent("mcts:compiled=no", game, 0)._playout is None


def test_a_search_with_compiled_rollouts_is_reproducible() -> None:
    game = meeple.make("edges")
    state = _random_state(game, 3, left=12)
    observation = Observation(state, state.to_act[0])
    moves = {make_agent("mcts:iterations=300,seed=4", game, 0).act(observation) for _ in range(3)}
    assert len(moves) == 1
