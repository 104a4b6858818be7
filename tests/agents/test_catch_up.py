"""An agent made in the middle of a game plays as the same agent seated from the first move.

A resumed game (``meeple play --resume``) and every computer move on the server make their
agents again; ``core.agent.catch_up`` tells such an agent what its seat did before. Each
case plays a whole game with agents that live through it, then, at decisions of the seat
under test, makes that agent afresh from the same seed, catches it up on the moves before,
and checks that it chooses what the living agent chose. Without the catch-up, agents that
keep something (The Triangle Clock's shared order shown in a memorise step, what Erd's
exploiting agent learned of its opponent, the count that seeds a search's streams) choose
otherwise.
"""

from __future__ import annotations

import json

import pytest

import meeple
from meeple.agents import make_agent, play_game
from meeple.core.agent import Observation, catch_up
from meeple.core.record import GameRecord
from meeple.core.rng import derive_seed
from meeple.interfaces.web.pool import agent_move

CASES = [
    # (game, options, spec under test, its opponent, the decisions of the seat checked)
    ("triangle-clock", {}, "heuristic", "policy", 12),
    ("triangle-clock", {}, "policy", "heuristic", 12),
    ("triangle-clock", {}, "careless", "policy", 12),
    (
        "triangle-clock",
        {},
        "ismcts:iterations=20,rollout=guided,opponent=guided,candidates=8",
        "policy",
        6,
    ),
    ("erd", {"round_limit": 4}, "exploit:solve=true,knows=heuristic,allowance=0.1", "heuristic", 8),
    ("edges", {}, "uct:iterations=300", "greedy", 6),
]


def _played(name: str, options: dict, spec: str, other: str, seed: int = 7):
    game = meeple.make(name, **options)
    agents = [make_agent(spec, game, seed=11), make_agent(other, game, seed=12)]
    play = play_game(game, agents, seed=seed)
    record = play.record()
    return game, record, record.states()


def _checked_decisions(record: GameRecord, states: list, count: int) -> list[int]:
    """Indices of seat 0's moves where it had a choice, spread over the game."""
    mine = [
        k
        for k, (seat, _) in enumerate(record.moves)
        if seat == 0 and len(states[k].legal_actions(0)) > 1
    ]
    step = max(1, len(mine) // count)
    return mine[step // 2 :: step][:count]


@pytest.mark.parametrize(("name", "options", "spec", "other", "count"), CASES)
def test_a_caught_up_agent_chooses_what_the_agent_that_played_chose(
    name: str, options: dict, spec: str, other: str, count: int
) -> None:
    game, record, states = _played(name, options, spec, other)
    checked = _checked_decisions(record, states, count)
    assert len(checked) >= min(count, 3), checked
    for k in checked:
        fresh = make_agent(spec, game, seed=11)
        catch_up(fresh, 0, states[:k], record.moves[:k])
        chose = fresh.act(Observation(states[k], 0))
        assert str(chose) == record.moves[k][1], (k, str(chose), record.moves[k])


def test_without_the_catch_up_the_triangle_clocks_agents_forget_the_order() -> None:
    """The fault the catch-up mends: a policy agent made after a memorise step, told
    nothing, samples the shared order it was shown as if it had never seen it."""
    game, record, states = _played("triangle-clock", {}, "policy", "heuristic")
    # the first decision of round 2: the round-1 memorise step showed the order
    k = next(k for k, (seat, _) in enumerate(record.moves) if seat == 0 and states[k].round == 2)
    told, untold = make_agent("policy", game, seed=11), make_agent("policy", game, seed=11)
    catch_up(told, 0, states[:k], record.moves[:k])
    assert told._memory._kept and not untold._memory._kept
    order = states[k].orders[0]
    sample = told._memory.sample(Observation(states[k], 0), told.rng)
    assert sample.orders[0] == order
    forgot = [untold._memory.sample(Observation(states[k], 0), untold.rng) for _ in range(20)]
    assert any(s.orders[0] != order for s in forgot)


def test_the_exploiting_agent_caught_up_has_learned_what_it_had() -> None:
    spec = next(spec for name, _, spec, *_ in CASES if name == "erd")
    game, record, states = _played("erd", {"round_limit": 4}, spec, "heuristic", seed=3)
    living = make_agent(spec, game, seed=11)
    fresh = make_agent(spec, game, seed=11)
    for k, (seat, _) in enumerate(record.moves):
        if seat == 0:
            living.act(Observation(states[k], 0))
    catch_up(fresh, 0, states, record.moves)
    fresh.observe(states[-1], 0)
    living.observe(states[-1], 0)
    assert sum(living.seen.values()) > 0
    assert fresh.seen == living.seen and fresh.belief == pytest.approx(living.belief)


def test_a_servers_worker_plays_as_the_agent_seated_from_the_first_move() -> None:
    """``pool.agent_move``, what the server runs for every computer move, with the seat's
    seed: the same moves as the agent that lived through the game."""
    game = meeple.make("triangle-clock")
    seat_seed = derive_seed(5, "seat", 1, "agent")
    agents = [make_agent("heuristic", game, seed=4), make_agent("policy", game, seed=seat_seed)]
    record = play_game(game, agents, seed=5).record()
    states = record.states()
    theirs = [
        k
        for k, (seat, _) in enumerate(record.moves)
        if seat == 1 and len(states[k].legal_actions(1)) > 1
    ]
    for k in theirs[5::15]:
        moves = [list(m) for m in json.loads(json.dumps(record.moves[:k]))]
        text = agent_move("triangle-clock", {}, 5, moves, 1, "policy", seat_seed)
        assert text == record.moves[k][1], k


def test_a_resumed_game_goes_on_as_the_game_that_was_not_interrupted(run, tmp_path) -> None:
    """``meeple play --resume``: the agents, made again, finish the game with the moves the
    agents of an uninterrupted game made (both seeded from the game's seed and seat)."""
    seats = ("--seat", "policy", "--seat", "heuristic")
    whole = tmp_path / "whole.json"
    done = run("play", "triangle-clock", *seats, "--seed", "9", "--quiet", "--save", str(whole))
    assert done.exit_code == 0, done.output
    record = GameRecord.load(whole)
    # cut after the second memorise step's block has begun: both seats must remember it
    cut = next(k for k, state in enumerate(record.states()) if state.round == 20)
    part = tmp_path / "part.json"
    record.model_copy(update={"moves": record.moves[:cut], "result": None}).save(part)
    resumed = run("play", "--resume", str(part), *seats, "--quiet")
    assert resumed.exit_code == 0, resumed.output
    assert GameRecord.load(part).moves == record.moves
