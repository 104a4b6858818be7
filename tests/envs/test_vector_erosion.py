"""The batched Erosion against its readable rules: deals, states, masks, seats,
observations, rewards and ends, step by step over random games at 2 to 5 players; the
observation's no-leak check; the options the compiled rules do not serve."""

from __future__ import annotations

import json
import random
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import meeple
from meeple.core.batch import random_legal_ids
from meeple.core.errors import IllegalAction, MeepleError
from meeple.envs.vector import MeepleVectorEnv
from meeple.games.erosion.compiled.batch import observation_of_view
from meeple.games.erosion.compiled.rules import encode
from meeple.games.erosion.rules import ErosionState

CONFIGS: list[tuple[dict[str, Any], int]] = [
    ({}, 4),
    ({"players": 3}, 3),
    ({"players": 4}, 2),
    ({"players": 5}, 2),
    ({"players": 4, "draw_from": "one", "empty_hand": "before-uplift", "first": 2}, 2),
    ({"uplift_architecture": "once", "first": 1}, 3),
    ({"cards": "edited"}, 3),
]


def random_actions(info: dict[str, Any], rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal id per game."""
    return random_legal_ids(info["action_mask"], rng)


def play_along(
    options: dict[str, Any], games: int, batch: int, seed: int, observe: bool = True
) -> Counter[str]:
    """Step ``batch`` games with random legal actions until ``games`` have ended, playing the
    same actions on the readable rules beside them and comparing everything at every step
    (observations and whole states only when ``observe``). Counts what the games met."""
    env = MeepleVectorEnv("erosion", num_envs=batch, **options)
    game = env.game
    size = len(encode(game.new_game(0)))
    obs, info = env.reset(seed=seed)
    readable = [game.new_game(seed + k) for k in range(batch)]
    rng = np.random.default_rng(seed)
    seen: Counter[str] = Counter()
    while seen["ended"] < games:
        for k, state in enumerate(readable):
            seat = state.to_act[0]
            assert info["to_act"][k] == seat
            legal = state.legal_action_ids(seat)
            assert np.flatnonzero(info["action_mask"][k]).tolist() == sorted(legal)
            seen[state.phase] += 1
            if observe:
                np.testing.assert_array_equal(
                    obs[k], observation_of_view(game, state.view(seat), seat)
                )
                assert np.array_equal(env._states[k, :size], encode(state))
        actions = random_actions(info, rng)
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for k, state in enumerate(readable):
            seat = state.to_act[0]
            after = state.apply(seat, game.action_from_id(int(actions[k])))
            assert info["acted"][k] == seat
            assert terminated[k] == after.is_over
            assert list(info["rewards"][k]) == list(after.returns)
            assert reward[k] == after.returns[seat]
            if after.era > state.era:
                seen["new era"] += 1
            if after.is_over:
                seen["ended"] += 1
                seen["shared win" if len(after.winners) > 1 else "one winner"] += 1
                assert info["_final_obs"][k]
                np.testing.assert_array_equal(
                    info["final_obs"][k], observation_of_view(game, after.view(0), 0)
                )
                after = game.new_game(int(env._seeds[k]))
                assert env.rules.decode(env._states[k]) == after
            readable[k] = after
    return seen


@pytest.fixture
def edited_cards(tmp_path: Path) -> str:
    """A designer's card file: a weaker WX card, a typed one listing two types, an H card
    moving more rocks."""
    data = json.loads(
        resources.files("meeple.games.erosion").joinpath("cards.json").read_text("utf-8")
    )
    data["cards"][0]["process"].update(n=1, max_hardness=3)
    data["cards"][3]["process"]["types"] = ["shale", "limestone"]
    data["cards"][40]["process"]["n"] += 2
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data))
    return str(path)


@pytest.mark.parametrize(
    ("options", "games"),
    CONFIGS,
    ids=lambda v: (
        ",".join(f"{k}={x}" for k, x in v.items()) or "default" if isinstance(v, dict) else str(v)
    ),
)
def test_the_batched_erosion_is_the_readable_rules(
    options: dict[str, Any], games: int, edited_cards: str
) -> None:
    """Random games through both, every state and observation compared, across resets."""
    if options.get("cards") == "edited":
        options = {**options, "cards": edited_cards}
    seen = play_along(options, games=games, batch=3, seed=11)
    assert seen["ended"] >= games and seen["draw"] and seen["uplift"]
    if options.get("players", 2) >= 4:
        assert seen["new era"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_thousands_of_random_games_end_as_the_readable_rules_say(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Masks, seats, rewards and ends at every step of 500 random games a player count, 2,000
    over the four counts (slow; states and observations too for the first 100), the era's
    every chance met."""
    drawn: Counter[int] = Counter()
    original = ErosionState.start_among

    def counted(self: ErosionState, seats: tuple[int, ...]) -> int:
        drawn[len(seats)] += 1
        return original(self, seats)

    monkeypatch.setattr(ErosionState, "start_among", counted)
    seen = play_along({"players": players}, games=100, batch=20, seed=1000 * players)
    seen += play_along({"players": players}, games=400, batch=100, seed=7, observe=False)
    assert seen["ended"] >= 500 and seen["shared win"] and seen["guess"] and seen["choose"]
    for step in ("draw", "uplift", "transport", "pay"):
        assert seen[step], step
    if players >= 4:
        assert seen["new era"] >= 500 and sum(drawn.values()) > 0


@pytest.mark.parametrize(
    "options", [{}, {"players": 3}, {"players": 4, "first": 3}, {"players": 5}]
)
def test_each_seed_is_dealt_as_the_readable_rules_deal_it(options: dict[str, Any]) -> None:
    """Game ``k`` of ``reset(seed=s)`` is ``new_game(s + k)``: 300 deals compared."""
    env = MeepleVectorEnv("erosion", num_envs=300, **options)
    env.reset(seed=40)
    for k, state in enumerate(env.states()):
        assert state == env.game.new_game(k + 40)


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
    return found


@pytest.mark.parametrize("players", [2, 4])
def test_what_a_seat_cannot_see_never_changes_its_observation(players: int) -> None:
    """No leak: re-dealing what the seat to act cannot know (the other hands and deltas, the
    decks' order and contents, the seed of later chance: ``determinize``) leaves its
    observation as it was, from the batched kernel and from the view alike; from the view,
    every other seat's too."""
    game = meeple.make("erosion", players=players)
    rules = MeepleVectorEnv("erosion", num_envs=1, players=players).rules
    size = len(encode(game.new_game(0)))
    rng = random.Random(0)
    rows, samples = [], []
    for state in positions(game, 2, seed=40)[::2]:
        seat = state.to_act[0]
        sample = state.determinize(seat, rng)
        rows += [rules.initial(0), rules.initial(0)]
        rows[-2][:size], rows[-1][:size] = encode(state), encode(sample)
        samples.append((state, sample, seat))
        other = (seat + 1) % players
        assert np.array_equal(
            observation_of_view(game, state.view(other), other),
            observation_of_view(game, state.determinize(other, rng).view(other), other),
        )
    observed = np.empty((len(rows), rules.observation_size), dtype=np.float32)
    rules.observe(np.stack(rows), observed)
    changed = 0
    for n, (state, sample, seat) in enumerate(samples):
        changed += encode(state).tolist() != encode(sample).tolist()
        np.testing.assert_array_equal(observed[2 * n], observed[2 * n + 1])
        np.testing.assert_array_equal(
            observation_of_view(game, sample.view(seat), seat), observed[2 * n]
        )
    assert changed > 0.9 * len(samples)  # the samples did re-deal


def test_a_run_replays_from_its_seed() -> None:
    """The same seed and actions give the same observations and rewards."""
    runs = []
    for _ in range(2):
        env = MeepleVectorEnv("erosion", num_envs=4, players=4)
        obs, info = env.reset(seed=9)
        rng = np.random.default_rng(1)
        trace = [obs]
        for _ in range(80):
            obs, reward, _, _, info = env.step(random_actions(info, rng))
            trace += [obs, reward, info["rewards"]]
        runs.append(trace)
    for a, b in zip(*runs, strict=True):
        assert np.array_equal(a, b)


def test_an_illegal_action_is_refused_before_any_game_moves() -> None:
    """An illegal id: IllegalAction naming the game and its legal ids, nothing changed."""
    env = MeepleVectorEnv("erosion", num_envs=3)
    _, info = env.reset(seed=0)
    before = env._states.copy()
    actions = random_actions(info, np.random.default_rng(0))
    wrong = int(np.flatnonzero(~info["action_mask"][2])[0])
    actions[2] = wrong
    with pytest.raises(IllegalAction, match=f"action {wrong} is not legal in game 2; legal"):
        env.step(actions)
    assert np.array_equal(env._states, before)
    illegal = env.rules.step(
        env._states, actions, np.zeros((3, 2), np.float32), np.zeros(3, np.bool_)
    )
    assert illegal.tolist() == [False, False, True]


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"advanced": True}, "advanced=True"),
        ({"legend": "basic"}, "legend='basic'"),
        ({"typed_weathering": "pass-over"}, "typed_weathering='pass-over'"),
        ({"auto_steps": False}, "auto_steps=False"),
    ],
)
def test_an_option_the_compiled_rules_do_not_serve_is_refused_by_name(
    options: dict[str, Any], name: str
) -> None:
    """One line naming the option and what the compiled rules serve."""
    with pytest.raises(MeepleError, match=f"do not serve {name} \\(they serve ") as error:
        MeepleVectorEnv("erosion", num_envs=2, **options)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(("players", "size"), [(2, 441), (3, 552), (4, 663), (5, 774)])
def test_the_observation_names_every_slot_and_stays_in_the_unit_box(
    players: int, size: int
) -> None:
    """Every slot named once, every value in [0, 1], in the declared spaces."""
    env = MeepleVectorEnv("erosion", num_envs=16, players=players)
    obs, info = env.reset(seed=2)
    slots = env.observation_slots()
    assert len(slots) == len(set(slots)) == obs.shape[1] == size
    assert slots[:3] == ["era", "turn", "phase.turn"] and slots[-1] == "river.welded tuff"
    assert "mountain[+1][7].weathered" in slots and "tie[+0].guess" in slots
    rng = np.random.default_rng(0)
    for _ in range(200):
        assert env.observation_space.contains(obs)
        actions = random_actions(info, rng)
        assert env.action_space.contains(actions)
        obs, *_, info = env.step(actions)
