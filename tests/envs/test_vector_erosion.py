"""The batched Erosion against its readable rules: deals, states, masks, seats,
observations, rewards and ends, step by step over random games at 2 to 5 players and under
every option (the Advanced Rules, the Legend variant, ``typed_weathering=pass-over``,
``auto_steps=false``); the observation's no-leak check, hidden challenge cards included;
a refusal in one line."""

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
from meeple.games.erosion.compiled import batch as erosion_batch
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


FACTS = {
    "architecture": lambda s: ".arch." in s and not s.endswith(".on"),
    "architecture on": lambda s: s.endswith(".arch.on"),
    "aged": lambda s: s.startswith("atmosphere.") and s.endswith(".aged"),
    "fired": lambda s: s.startswith("fired."),
    "claimed": lambda s: s.startswith("legend.") and ".owner[" in s,
    "shown": lambda s: s == "challenges.shown",
    "challenge met": lambda s: s.startswith("challenge[") and s.endswith("].points"),
    "below": lambda s: s.startswith("below["),
}
"""What an observation may show under an option: the slots whose being non-zero counts it."""


def play_along(
    options: dict[str, Any], games: int, batch: int, seed: int, observe: bool = True
) -> Counter[str]:
    """Step ``batch`` games with random legal actions until ``games`` have ended, playing the
    same actions on the readable rules beside them and comparing everything at every step
    (observations and whole states only when ``observe``). Counts what the games met: each
    phase, steps asked with a single choice, eras, ends, and the :data:`FACTS` observed."""
    env = MeepleVectorEnv("erosion", num_envs=batch, **options)
    game = env.game
    size = len(encode(game.new_game(0)))
    slots = env.observation_slots()
    facts = {
        fact: [i for i, slot in enumerate(slots) if named(slot)] for fact, named in FACTS.items()
    }
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
            seen["asked alone"] += state.phase != "turn" and len(legal) == 1
            if observe:
                np.testing.assert_array_equal(
                    obs[k], observation_of_view(game, state.view(seat), seat)
                )
                assert np.array_equal(env._states[k, :size], encode(state))
                for fact, where in facts.items():
                    seen[fact] += bool(where) and bool(obs[k, where].any())
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


OPTIONS: list[tuple[dict[str, Any], int, int, tuple[str, ...]]] = [
    ({"advanced": True}, 3, 11, ("architecture", "architecture on")),
    ({"advanced": True, "players": 4}, 2, 11, ("architecture", "aged", "trigger", "new era")),
    ({"legend": "basic"}, 3, 11, ("claimed", "challenge met", "shown")),
    ({"legend": "advanced", "players": 3}, 2, 8, ("claimed", "challenge met")),
    ({"typed_weathering": "pass-over"}, 3, 11, ("below",)),
    ({"auto_steps": False}, 2, 11, ("asked alone", "transport", "pay")),
    (
        {
            "players": 4,
            "advanced": True,
            "uplift_architecture": "once",
            "legend": "advanced",
            "typed_weathering": "pass-over",
            "auto_steps": False,
        },
        2,
        11,
        ("architecture", "fired", "aged", "fault", "challenge met", "shown", "below"),
    ),
]
"""Each option (and all at once), the games to finish, the seed, and what the games must
meet: what the option adds to the table, seen in the observation, or a phase it adds."""


@pytest.mark.parametrize(
    ("options", "games", "seed", "met"),
    OPTIONS,
    ids=[",".join(f"{k}={x}" for k, x in o.items()) for o, *_ in OPTIONS],
)
def test_the_batched_erosion_serves_every_option_as_the_readable_rules(
    options: dict[str, Any], games: int, seed: int, met: tuple[str, ...]
) -> None:
    """The Advanced Rules, the Legend variant, pass-over and asked single choices through
    both, every state and observation compared; the games meet what the option adds."""
    seen = play_along(options, games=games, batch=3, seed=seed)
    assert seen["ended"] >= games
    for fact in met:
        assert seen[fact], fact


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
    "options",
    [{}, {"players": 3}, {"players": 4, "first": 3}, {"players": 5}, {"legend": "basic"}],
)
def test_each_seed_is_dealt_as_the_readable_rules_deal_it(options: dict[str, Any]) -> None:
    """Game ``k`` of ``reset(seed=s)`` is ``new_game(s + k)``: 300 deals compared (under the
    Legend variant its challenge cards too)."""
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


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (4, {}), (3, {"legend": "basic", "advanced": True, "typed_weathering": "pass-over"})],
    ids=["2", "4", "3-legend,advanced,pass-over"],
)
def test_what_a_seat_cannot_see_never_changes_its_observation(
    players: int, options: dict[str, Any]
) -> None:
    """No leak: re-dealing what the seat to act cannot know (the other hands and deltas, the
    decks' order and contents, the seed of later chance, the other challenge cards while
    hidden: ``determinize``) leaves its observation as it was, from the batched kernel and
    from the view alike; from the view, every other seat's too. Under the Legend variant a
    re-dealt hidden challenge card was met where the true one was not, or the other way."""
    game = meeple.make("erosion", players=players, **options)
    rules = MeepleVectorEnv("erosion", num_envs=1, players=players, **options).rules
    size = len(encode(game.new_game(0)))
    rng = random.Random(0)
    rows, samples = [], []
    hidden_met = 0
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
        if state.challenges and not state.challenges_shown:
            hidden_met += any(
                state.challenge_met(q) != sample.challenge_met(q)
                for q in range(players)
                if q != seat
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
    assert hidden_met or "legend" not in options


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


def test_every_option_is_served_and_a_refusal_would_be_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each option that adds to the table adds slots (none where it adds nothing); an option
    the batched rules served at one value only would be refused in one line naming it."""
    assert erosion_batch.BATCH_SERVED == ()
    basic = MeepleVectorEnv("erosion", num_envs=2).rules.observation_size
    for options, more in (
        ({"advanced": True}, True),
        ({"legend": "basic"}, True),
        ({"legend": "advanced"}, True),
        ({"typed_weathering": "pass-over"}, True),
        ({"auto_steps": False}, False),
    ):
        env = MeepleVectorEnv("erosion", num_envs=2, **options)
        assert (env.rules.observation_size > basic) == more, options
    monkeypatch.setattr(erosion_batch, "BATCH_SERVED", (("legend", "off"),))
    with pytest.raises(MeepleError, match="do not serve legend='basic' \\(they serve ") as error:
        MeepleVectorEnv("erosion", num_envs=2, legend="basic")
    assert "\n" not in str(error.value)


EVERY_OPTION = {
    "advanced": True,
    "uplift_architecture": "once",
    "legend": "advanced",
    "typed_weathering": "pass-over",
    "auto_steps": False,
}


@pytest.mark.parametrize(
    ("players", "options", "size"),
    [
        (2, {}, 441),
        (3, {}, 552),
        (4, {}, 663),
        (5, {}, 774),
        (2, {"advanced": True}, 622),
        (4, {"advanced": True}, 1004),
        (2, {"legend": "basic"}, 472),
        (2, {"typed_weathering": "pass-over"}, 459),
        (3, EVERY_OPTION, 891),
    ],
    ids=["2", "3", "4", "5", "2-advanced", "4-advanced", "2-legend", "2-pass-over", "3-every"],
)
def test_the_observation_names_every_slot_and_stays_in_the_unit_box(
    players: int, options: dict[str, Any], size: int
) -> None:
    """Every slot named once, every value in [0, 1], in the declared spaces; an option's
    slots come after the basic game's, which stay as they are."""
    env = MeepleVectorEnv("erosion", num_envs=16, players=players, **options)
    obs, info = env.reset(seed=2)
    slots = env.observation_slots()
    assert len(slots) == len(set(slots)) == obs.shape[1] == size
    basic = MeepleVectorEnv("erosion", num_envs=1, players=players).observation_slots()
    assert slots[: len(basic)] == basic
    assert basic[:3] == ["era", "turn", "phase.turn"] and basic[-1] == "river.welded tuff"
    assert "mountain[+1][7].weathered" in slots and "tie[+0].guess" in slots
    rng = np.random.default_rng(0)
    for _ in range(200):
        assert env.observation_space.contains(obs)
        actions = random_actions(info, rng)
        assert env.action_space.contains(actions)
        obs, *_, info = env.step(actions)
