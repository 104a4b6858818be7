"""The batched Squad Combat against its readable rules: states, masks, seats, observations,
rewards and ends, step by step over random games at 2 to 4 players; the observation's
no-leak check; the refusals."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import meeple
from meeple.core.batch import random_legal_ids
from meeple.core.errors import IllegalAction, MeepleError
from meeple.envs.vector import MeepleVectorEnv
from meeple.games.squad_combat.compiled import batch as squad_batch
from meeple.games.squad_combat.compiled import rules as fast
from meeple.games.squad_combat.compiled.batch import observation_of_view
from meeple.games.squad_combat.compiled.reading import MAX_EVENTS, S_SIZE
from meeple.games.squad_combat.compiled.rules import encode_list

TESTS = Path(__file__).parents[1] / "games" / "squad_combat"
CONTENT = str(TESTS / "content")
RARE = str(TESTS / "content_rare")

CONFIGS: list[dict[str, Any]] = [
    {},
    {"players": 3, "end_draws": "all-at-once"},
    {"players": 4, "lead": "rotate", "reactions": "attacker-first"},
    {"content": CONTENT, "reaction_prompts": "always", "hand_size": 3, "first": 1},
    {"edge_windows": "own", "decks": "shadow-circle", "auto_steps": False},
    {"content": RARE, "players": 3, "hand_size": 12, "turn_limit": 20},
]


def random_actions(info: dict[str, Any], rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal id per game."""
    return random_legal_ids(info["action_mask"], rng)


def play_along(
    options: dict[str, Any], games: int, batch: int, seed: int, observe: bool = True
) -> Counter[str]:
    """Step ``batch`` games with random legal actions until ``games`` have ended, playing the
    same actions on the readable rules beside them and comparing everything at every step
    (observations and whole states only when ``observe``). Counts the games ended, the
    random events met and the steps that needed a wider window of streams."""
    env = MeepleVectorEnv("squad-combat", num_envs=batch, **options)
    game = env.game
    obs, info = env.reset(seed=seed)
    readable = [game.new_game(seed + k) for k in range(batch)]
    rng = np.random.default_rng(seed)
    seen: Counter[str] = Counter()
    while seen["ended"] < games:
        for k, state in enumerate(readable):
            seat = state.to_act[0]
            assert info["to_act"][k] == seat
            legal = np.flatnonzero(info["action_mask"][k]).tolist()
            assert legal == sorted(state.legal_action_ids(seat))
            if observe:
                assert env._states[k, :S_SIZE].tolist() == encode_list(state)
                expected = observation_of_view(game, state.view(seat), seat)
                np.testing.assert_array_equal(obs[k], expected)
        actions = random_actions(info, rng)
        obs, reward, terminated, truncated, info = env.step(actions)
        seen["steps"] += 1
        assert not truncated.any()
        for k, state in enumerate(readable):
            seat = state.to_act[0]
            after = state.apply(seat, game.action_from_id(int(actions[k])))
            assert terminated[k] == after.is_over
            assert info["acted"][k] == seat
            assert list(info["rewards"][k]) == list(after.returns)
            assert reward[k] == after.returns[seat]
            seen["events"] += after.rolls - state.rolls
            if after.is_over:
                seen["ended"] += 1
                seen["won" if after.winner is not None else "drawn"] += 1
                assert info["_final_obs"][k]
                expected = observation_of_view(game, after.view(seat), seat)
                np.testing.assert_array_equal(info["final_obs"][k], expected)
                after = game.new_game(int(env._seeds[k]))
                assert env.rules.decode(env._states[k]).seed == env._seeds[k]
            readable[k] = after
    return seen


@pytest.mark.parametrize(
    "options",
    CONFIGS,
    ids=lambda o: ",".join(f"{k}={Path(str(v)).name}" for k, v in o.items()) or "seed",
)
def test_the_batched_squad_combat_is_the_readable_rules(options: dict[str, Any]) -> None:
    """Random games through both, every state and observation compared, across resets."""
    seen = play_along(options, games=4, batch=4, seed=31)
    assert seen["ended"] >= 4
    assert seen["events"] > MAX_EVENTS  # dice refreshes and reshuffles, past one window


def test_a_game_past_its_window_is_put_back_and_stepped_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no window widened ahead of a step, every random event past a window is met
    inside the kernel: the game is put back, given the seeds, and stepped again, exactly."""
    monkeypatch.setattr(squad_batch, "SPARE", 0)
    calls: list[int] = []
    kernel = squad_batch._step_all

    def counted(*args: Any) -> None:
        calls.append(len(args[0]))
        kernel(*args)

    monkeypatch.setattr(squad_batch, "_step_all", counted)
    seen = play_along({"players": 4}, games=2, batch=3, seed=8)
    assert seen["events"] > 2 * MAX_EVENTS
    assert len(calls) > seen["steps"]  # some steps called the kernel again


@pytest.mark.parametrize(("players", "games"), [(2, 1000), (3, 600), (4, 400)])
def test_thousands_of_random_games_end_as_the_readable_rules_say(players: int, games: int) -> None:
    """Masks, seats, rewards and ends at every step of 2,000 random games over 2, 3 and 4
    players, a test a count so the suite's workers share them (slow: the readable rules
    play them too)."""
    seen = play_along({"players": players}, games, batch=100, seed=players, observe=False)
    assert seen["ended"] >= games and seen["won"] > games // 2


def positions(game: Any, games: int, seed: int) -> list[Any]:
    """Every position of a few random games of the readable rules."""
    rng = random.Random(seed)
    found = []
    for g in range(games):
        state = game.new_game(seed + g)
        while not state.is_over:
            found.append(state)
            seat = state.to_act[0]
            state = state.apply(seat, rng.choice(state.legal_actions(seat)))
        found.append(state)
    return found


@pytest.mark.parametrize("options", [{}, {"players": 3, "content": CONTENT}])
def test_what_a_seat_cannot_see_never_changes_its_observation(options: dict[str, Any]) -> None:
    """No leak: re-dealing what a seat cannot know (the other hands, the order of every
    deck, the seed of the dice to come; ``determinize``) leaves that seat's observation as
    it was, from the batched kernel and from the view alike."""
    game = meeple.make("squad-combat", **options)
    rules = MeepleVectorEnv("squad-combat", num_envs=1, **options).rules
    rng = random.Random(0)
    rows, samples = [], []
    for state in positions(game, 2, seed=40)[::3]:
        if state.is_over:
            continue
        seat = state.to_act[0]  # the batched observation is the seat to act's
        sample = state.determinize(seat, rng)
        rows += [rules.row(state), rules.row(sample)]
        samples.append((state, sample, seat))
    observed = np.empty((len(rows), rules.observation_size), dtype=np.float32)
    rules.observe(np.stack(rows), observed)
    changed = 0
    for n, (state, sample, seat) in enumerate(samples):
        changed += encode_list(state) != encode_list(sample)
        np.testing.assert_array_equal(observed[2 * n], observed[2 * n + 1])
        np.testing.assert_array_equal(
            observation_of_view(game, sample.view(seat), seat), observed[2 * n]
        )
    assert len(samples) > 50 and changed > 0.9 * len(samples)  # the samples did re-deal


def test_a_run_replays_from_its_seed() -> None:
    """The same seed and actions give the same observations and rewards."""
    runs = []
    for _ in range(2):
        env = MeepleVectorEnv("squad-combat", num_envs=4, players=3)
        obs, info = env.reset(seed=9)
        rng = np.random.default_rng(1)
        trace = [obs]
        for _ in range(80):
            obs, reward, _, _, info = env.step(random_actions(info, rng))
            trace += [obs, reward]
        runs.append(trace)
    for a, b in zip(*runs, strict=True):
        assert np.array_equal(a, b)


def test_an_illegal_action_is_refused_before_any_game_moves() -> None:
    """An illegal id among legal ones: IllegalAction naming the game, nothing changed."""
    env = MeepleVectorEnv("squad-combat", num_envs=3)
    _, info = env.reset(seed=0)
    actions = np.array([np.flatnonzero(row)[0] for row in info["action_mask"]])
    bad = int(np.flatnonzero(~info["action_mask"][1])[0])
    actions[1] = bad
    before = env._states.copy()
    with pytest.raises(IllegalAction, match=f"action {bad} is not legal in game 1; legal ids"):
        env.step(actions)
    assert np.array_equal(env._states, before)
    # the rules refuse it too, leaving the game as it was (its window of stream seeds, a
    # cache, may have been filled)
    rewards = np.zeros((3, 2), dtype=np.float32)
    done = np.zeros(3, dtype=np.bool_)
    assert env.rules.step(env._states, actions, rewards, done).tolist() == [False, True, False]
    assert np.array_equal(
        env._states[1, : squad_batch.WINDOW_AT], before[1, : squad_batch.WINDOW_AT]
    )


def test_an_option_the_batched_rules_do_not_serve_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An option the batched rules do not know: one line naming it and the ones they serve."""
    monkeypatch.setattr(squad_batch, "SERVED", squad_batch.SERVED - {"end_draws"})
    with pytest.raises(MeepleError, match="do not serve option end_draws; they serve auto_steps"):
        MeepleVectorEnv("squad-combat", num_envs=2)


def test_content_beyond_the_compiled_limits_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A content folder too large for the compiled arrays: one line naming the limit."""
    monkeypatch.setitem(fast.LIMITS, "kinds of card in the content", 4)
    with pytest.raises(MeepleError, match=r"^squad-combat fast rules: this content needs \d+"):
        MeepleVectorEnv("squad-combat", num_envs=2, content=CONTENT)


def test_the_observation_names_every_slot_and_stays_in_the_unit_box() -> None:
    """Named slots, a few hundred a seat, every value in [0, 1], in the declared spaces."""
    for players, size in ((2, 271), (4, 433)):
        env = MeepleVectorEnv("squad-combat", num_envs=16, players=players)
        obs, info = env.reset(seed=2)
        slots = env.observation_slots()
        assert len(slots) == len(set(slots)) == obs.shape[1] == size
        rng = np.random.default_rng(0)
        for _ in range(150):
            assert env.observation_space.contains(obs)
            assert ((obs >= 0) & (obs <= 1)).all()
            obs, *_, info = env.step(random_actions(info, rng))


def test_the_window_holds_the_engines_stream_seeds() -> None:
    """The seeds a row's window is given are ``derive_seed``'s for the next events."""
    from meeple.core.rng import derive_seed
    from meeple.games.squad_combat.compiled.batch import ROW, WINDOW_AT

    rules = MeepleVectorEnv("squad-combat", num_envs=1).rules
    rows = rules.initials(np.array([7, -3, 2**62], dtype=np.int64))
    rows[:, squad_batch.S_ROLLS] = [0, 5, 40]
    rules._widen(rows)
    for row, seed in zip(rows, (7, -3, 2**62), strict=True):
        rolls = int(row[squad_batch.S_ROLLS])
        assert row[WINDOW_AT : WINDOW_AT + 2].tolist() == [rolls, MAX_EVENTS]
        held = row[WINDOW_AT + 2 : ROW].copy().view("<i8").tolist()
        assert held == [
            derive_seed(seed, "squad-combat", purpose, event)
            for event in range(rolls + 1, rolls + 1 + MAX_EVENTS)
            for purpose in ("refresh", "reshuffle")
        ]
