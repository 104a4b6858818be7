"""Search agents: reproducible, sound on simple positions, and blind to what a seat cannot see."""

from __future__ import annotations

import random

import pytest

import meeple
from meeple.agents import available_agents, make_agent, play_game
from meeple.core.agent import Observation
from meeple.core.conformance import random_playthrough
from meeple.core.errors import AgentSpecError
from meeple.games.edges import EdgesState
from meeple.lab import head_to_head


def choices(spec: str, game, seed: int) -> list:
    agents = [make_agent(spec, game, 1), make_agent("random", game, 2)]
    return play_game(game, agents, seed).moves


# Tree search, and flat search over shared worlds (tests/agents/test_flat.py), at budgets
# that take a small board's right move.
SEARCHES = ["mcts:iterations=100", "flat:worlds=40"]


@pytest.mark.parametrize("spec", SEARCHES)
def test_search_is_reproducible_for_a_fixed_seed_and_budget(spec):
    game = meeple.make("edges", board="2x2")
    assert choices(spec, game, 3) == choices(spec, game, 3)


def winning_last_move_position() -> EdgesState:
    """1x2 board, one pyramid each left: only one edge wins the game for seat 1, to act."""
    game = meeple.make("edges", board="1x2", stash="1/1/0", first=0, pie=False)
    state = game.new_game(0)
    for text in ("L v0,0", "L v0,2", "M h0,0"):
        state = state.apply_text(state.to_act[0], text)
    assert isinstance(state, EdgesState) and state.to_act == (1,)
    return state


@pytest.mark.parametrize("spec", ["mcts:iterations=300", "flat:worlds=40"])
def test_search_takes_the_winning_last_move(spec):
    state = winning_last_move_position()
    action = make_agent(spec, state.game, 0).act(Observation(state, 1))
    after = state.apply(1, action)
    assert after.is_over and after.returns[1] == 1.0, f"{action} does not win"


@pytest.mark.parametrize("spec", SEARCHES)
def test_search_beats_random_on_a_small_board(spec):
    result = head_to_head(meeple.make("edges", board="2x2"), spec, "random", 12)
    assert result.wins >= 10, result.summary()


def test_mcts_plays_four_seats_with_per_seat_returns():
    game = meeple.make("edges", board="2x2", double=True, stash="1/1/1")
    agents = [make_agent("mcts:iterations=30", game, p) for p in range(4)]
    assert play_game(game, agents, 1).state.is_over


@pytest.mark.parametrize("spec", ["mcts:seconds=0.05", "flat:seconds=0.01"])
def test_seconds_budget_runs_at_least_one_iteration(spec):
    game = meeple.make("edges", board="2x2")
    agent = make_agent(spec, game, 0)
    state = game.new_game(0)
    assert agent.act(Observation(state, state.to_act[0])) in state.legal_actions(state.to_act[0])
    assert agent.last_iterations >= 1


@pytest.mark.parametrize("spec", ["ismcts:iterations=150", "mcts:iterations=150"])
def test_decisions_do_not_change_when_hidden_parts_change(spec):
    """The information rule (a seat decides on what it may know): Erd's opponent has
    submitted a hidden allocation; swap it for another one the seat cannot tell apart, and
    the decision stays the same."""
    game = meeple.make("erd")
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        state = game.new_game(seed)
        first = state.to_act[0]
        state = state.apply(first, rng.choice(state.legal_actions(first)))
        seat = state.to_act[0]
        other = state.determinize(seat, rng)
        if other == state:
            continue  # the resample happened to pick the same allocation
        assert other.view(seat) == state.view(seat)
        a = make_agent(spec, game, seed).act(Observation(state, seat))
        b = make_agent(spec, game, seed).act(Observation(other, seat))
        assert a == b
        checked += 1
    assert checked >= 8


def test_simultaneous_search_is_decoupled():
    """The seat that submits second searches the same tree whatever the first submitted:
    its choice equals the one it makes when it submits first from the same public state."""
    game = meeple.make("erd")
    state = game.new_game(2)
    seat_a, seat_b = state.to_act
    alone = make_agent("ismcts:iterations=120", game, 9).act(Observation(state, seat_b))
    rng = random.Random(0)
    for _ in range(4):
        after_a = state.apply(seat_a, rng.choice(state.legal_actions(seat_a)))
        second = make_agent("ismcts:iterations=120", game, 9).act(Observation(after_a, seat_b))
        assert second == alone


def test_a_modelled_opponent_is_a_policy_the_game_offers():
    """``opponent`` names a compiled policy that can choose one action; anything else is
    refused with the choices."""
    with pytest.raises(AgentSpecError, match=r"opponent 'guided'.*choose from: search$"):
        make_agent("ismcts:opponent=guided", meeple.make("erd"), 0)
    with pytest.raises(AgentSpecError, match=r"choose from: ahead, deep, guided, search$"):
        make_agent("ismcts:opponent=heuristic", meeple.make("triangle-clock"), 0)
    with pytest.raises(AgentSpecError, match="opponent 'guided'"):
        make_agent("ismcts:opponent=guided,compiled=false", meeple.make("triangle-clock"), 0)


def test_a_modelled_opponent_plays_the_policy_inside_the_tree():
    """With ``opponent=guided`` the other seat's choices in the tree come from the policy,
    each on a sample of its own (never the searching seat's true hand), and the search
    stays reproducible for a fixed seed and iteration budget."""
    game = meeple.make("triangle-clock")
    state = random_playthrough(game, 3).record().states()[9]
    seat = state.to_act[0]
    assert len(state.legal_actions(seat)) > 1
    decisions = []
    for _ in range(2):
        agent = make_agent("ismcts:rollout=guided,opponent=guided,iterations=60", game, 5)
        asked = []
        policy = agent._choose

        def spy(sample, p, seed, asked=asked, policy=policy):
            asked.append((p, sample.seats[seat].hand))
            return policy(sample, p, seed)

        agent._choose = spy
        decisions.append(agent.act(Observation(state, seat)))
        assert len(asked) >= 60 and {p for p, _ in asked} == {1 - seat}
        assert any(hand != state.seats[seat].hand for _, hand in asked)
    assert decisions[0] == decisions[1]


def test_a_modelled_opponent_remembers_what_both_seats_were_shown():
    """The Triangle Clock shows both players the order of shared symbols, then hides it. The
    policy agent remembers it (``recall``), so the model of it inside the tree must too: a
    bare determinization of the opponent's view reshuffles the order and would model an
    opponent that forgot. With ``recall=false`` the searching seat forgets, and so does its
    model."""
    game = meeple.make("triangle-clock")
    states = random_playthrough(game, 7).record().states()
    shown, later = states[0], states[12]
    assert later.round >= 2 and not later.is_over
    order = shown.orders[shown.block]
    seat = later.to_act[0]
    for recall in (True, False):
        agent = make_agent(
            f"ismcts:rollout=guided,opponent=guided,iterations=40,recall={str(recall).lower()}",
            game,
            5,
        )
        seen = []
        policy = agent._choose

        def spy(sample, p, seed, seen=seen, policy=policy):
            seen.append(sample.orders[sample.block] == order)
            return policy(sample, p, seed)

        agent._choose = spy
        agent.act(Observation(shown, seat))
        agent.act(Observation(later, seat))
        assert len(seen) >= 40
        # Forgetting reshuffles the symbols not yet revealed: the same order again is a
        # chance of one in (16 - revealed)!, a dozen or more symbols at this round.
        assert all(seen) if recall else not any(seen)


def test_candidates_limit_the_root_to_what_the_policy_proposes():
    """``candidates=K``: the root searches only the actions the rollout policy chooses in K
    samples of what the seat cannot see; a game without such a policy refuses it."""
    game = meeple.make("triangle-clock")
    state = random_playthrough(game, 3).record().states()[9]
    seat = state.to_act[0]
    agent = make_agent("ismcts:rollout=guided,opponent=guided,candidates=4,iterations=60", game, 5)
    at_root = []
    original = agent._legal

    def spy(state, player, root):
        legal = original(state, player, root)
        if root:
            at_root.append(legal)
        return legal

    agent._legal = spy
    choice = agent.act(Observation(state, seat))
    proposed = agent._root_actions
    assert proposed and len(proposed) <= 4 and len(state.legal_actions(seat)) > len(proposed)
    assert len(at_root) == 60 and all(set(legal) == proposed for legal in at_root)
    assert choice in proposed
    with pytest.raises(AgentSpecError, match="candidates needs a rollout"):
        make_agent("ismcts:candidates=4", meeple.make("erd"), 0)


def test_widen_lets_the_other_moves_join_the_root_as_its_visits_grow():
    """``widen=W``: after n iterations the root holds the proposals and ``W * sqrt(n)`` more
    legal moves, so a longer search considers more; without candidates it is refused."""
    game = meeple.make("triangle-clock", items="all/all")
    state = random_playthrough(game, 3).record().states()[9]
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    spec = "ismcts:rollout=guided,opponent=guided,candidates=2,widen=0.5,iterations=100"
    agent = make_agent(spec, game, 5)
    sizes = []
    original = agent._legal

    def spy(state, player, root):
        allowed = original(state, player, root)
        if root:
            sizes.append(len(allowed))
        return allowed

    agent._legal = spy
    agent.act(Observation(state, seat))
    proposed = len(agent._root_actions)
    assert len(legal) > proposed + 4
    assert sizes[0] == proposed  # nothing added before the first visit
    assert sizes == sorted(sizes), "the root only grows"
    assert sizes[-1] == min(len(legal), proposed + int(0.5 * 99**0.5))
    twice = [make_agent(spec, game, 5).act(Observation(state, seat)) for _ in range(2)]
    assert twice[0] == twice[1], "reproducible for a seed and an iteration budget"
    with pytest.raises(AgentSpecError, match="give candidates=K too"):
        make_agent("ismcts:rollout=guided,widen=1", game, 0)


def test_search_puts_what_its_seat_memorised_into_every_sample(monkeypatch):
    """The Triangle Clock shows the order of shared symbols at a memorise step and hides it
    again; a searching seat keeps it (``recall``, on by default) and every later sample is
    recalled with it, where ``recall=false`` forgets."""
    from meeple.games.triangle_clock import TriangleClockState

    game = meeple.make("triangle-clock")
    states = random_playthrough(game, 7).record().states()
    shown = states[0]
    later = states[12]
    assert later.round >= 2 and not later.is_over
    recalled = []
    real = TriangleClockState.recalling

    def spy(self, memories):
        recalled.append(list(memories))
        return real(self, memories)

    monkeypatch.setattr(TriangleClockState, "recalling", spy)
    for recall, expected in ((True, [shown.memory(0)]), (False, None)):
        recalled.clear()
        agent = make_agent(f"ismcts:iterations=20,recall={str(recall).lower()}", game, 2)
        agent.act(Observation(shown, 0))
        agent.act(Observation(later, 0))
        if expected is None:
            assert recalled == []
        else:
            assert len(recalled) == 20 and all(m == expected for m in recalled)


HIDDEN_GAMES = [info.name for info in meeple.games() if not info.perfect_information]

# Small budgets for the searching agents; every other agent is built with its defaults.
# Erd's equilibrium agent needs the game solved: over 4 rounds that takes seconds (200, the
# default, takes minutes), and the test's game ends at 4 rounds to match.
CHEAP = {
    "mcts": ("mcts:iterations=30", {}),
    "ismcts": ("ismcts:iterations=30", {}),
    "flat": ("flat:worlds=20", {}),
    "equilibrium": ("equilibrium:solve=true", {"round_limit": 4}),
    "exploit": ("exploit:solve=true", {"round_limit": 4}),
}


def every_agent(games: list[str]) -> list[tuple[str, str, dict]]:
    """(game, agent spec, game options) for every agent each game offers, generic and
    game-specific."""
    return [
        (name, *CHEAP.get(agent, (agent, {})))
        for name in games
        for agent in available_agents(meeple.make(name))
    ]


# Options that change what an agent reads, checked as agents of their own.
VARIANTS = [("erd", "exploit:solve=true,knows=heuristic+random,allowance=0.1", {"round_limit": 4})]


@pytest.mark.parametrize(("name", "spec", "options"), every_agent(HIDDEN_GAMES) + VARIANTS)
def test_every_agent_of_every_hidden_information_game_keeps_the_information_rule(
    name, spec, options
):
    """For each hidden-information game and each agent it offers: mid-game, resample
    everything the seat to act cannot see (opponents' cards, deck order, pending choices).
    The view is the same, so the agent's decision must be the same."""
    game = meeple.make(name, **options)
    rng = random.Random(11)
    checked = 0
    for seed in range(30):
        state = game.new_game(seed)
        for _ in range(rng.randrange(1, 25)):
            if state.is_over:
                break
            p = rng.choice(state.to_act)
            state = state.apply(p, rng.choice(state.legal_actions(p)))
        if state.is_over:
            continue
        seat = state.to_act[-1]
        if len(state.legal_actions(seat)) < 2:
            continue
        other = state.determinize(seat, rng)
        if other == state:
            continue
        assert other.view(seat) == state.view(seat)
        a = make_agent(spec, game, seed).act(Observation(state, seat))
        b = make_agent(spec, game, seed).act(Observation(other, seat))
        assert a == b, f"{name}, {spec}, seed {seed}: {a} != {b}"
        checked += 1
        if checked == 4:
            break
    assert checked >= 2, f"{name}: found too few positions with hidden parts to vary"
