"""The compiled Erosion rules (:mod:`meeple.games.erosion.compiled`) against the rules engine.

One set of rules: the readable engine is the reference, and the compiled copy must agree
with it on every state, every list of legal actions and every outcome of thousands of
random games (``MEEPLE_FUZZ=long`` plays twenty times more), on every option it serves,
with the era's chance (tie-breaker draws, the next era's start and decks) taken from the
reference's own seeded draws.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from importlib import resources

import numpy as np
import pytest

import meeple
from meeple.core.errors import OptionError
from meeple.core.registry import compiled_playout, compiled_values
from meeple.games.erosion.compiled import rules as fast
from meeple.games.erosion.compiled import state as fs
from meeple.games.erosion.compiled import transitions as fr
from meeple.games.erosion.rules import (
    HIGH_METRES,
    ErosionGame,
    ErosionState,
    Fluvial,
    Uplift,
    Weather,
)
from tests.designer_edits import edited_games

from .conftest import cards, play, position

LONG = 20 if os.environ.get("MEEPLE_FUZZ") == "long" else 1

# (options, games): two players are the benchmark's game; four and five play two eras,
# where the next era's chance comes in.
VARIANTS = [
    ({}, 150),
    ({"players": 3}, 20),
    ({"players": 4}, 30),
    ({"players": 5}, 25),
    ({"empty_hand": "before-uplift"}, 20),
    ({"draw_from": "one"}, 20),
    ({"players": 4, "draw_from": "one", "empty_hand": "before-uplift", "first": 2}, 12),
    ({"advanced": True}, 40),
    ({"advanced": True, "players": 5}, 10),
    ({"advanced": True, "uplift_architecture": "once"}, 30),
    ({"advanced": True, "uplift_architecture": "once", "players": 4}, 10),
    ({"legend": "basic"}, 40),
    ({"legend": "advanced"}, 40),
    ({"legend": "basic", "players": 5}, 10),
    ({"auto_steps": False}, 20),
    ({"typed_weathering": "pass-over"}, 30),
    ({"typed_weathering": "pass-over", "advanced": True, "legend": "advanced", "players": 5}, 8),
    ({"auto_steps": False, "advanced": True, "legend": "basic", "players": 4}, 12),
    ({"advanced": True, "legend": "advanced", "uplift_architecture": "once", "players": 4}, 10),
]
RED_ARCHITECTURE = (
    "score_bonus",
    "draw_limit_bonus",
    "resists_icon",
    "resists_except",
    "weather_bonus",
    "counts_as_high",
)
"""The architecture every advanced variant's random games meet (as :func:`note_rules`
counts it); the rarer kinds have seeds of their own (:data:`RARE_SEEDS`)."""
RARE_SEEDS = {
    "fault": ("fault", {"advanced": True}, 13),
    "glacier": ("transport_bonus_if_high", {"advanced": True}, 166),
    "advanced claims": ("legend claimed", {"legend": "advanced"}, 89),
}
"""Random games (as :func:`play_both` plays them) that reach a rule rarer than the
variants' games do (what :func:`play_both` counts, the options, the seed), found by playing
seeds 0-299."""
START_AMONG_SEEDS = {4: (13, 19), 5: (4, 48)}
"""Random games (as :func:`play_both` plays them) whose era ends in a tie still tied after
the tie-breaker, found by playing seeds 0-149."""


def _buffer(game: ErosionGame) -> np.ndarray:
    return np.empty(game.num_actions, dtype=np.int16)


def play_both(
    game: ErosionGame, seed: int, seen: Counter, start: ErosionState | None = None
) -> None:
    """One random game (``seed``: its deal and its moves; or its moves from ``start``)
    through both rules, comparing everything after every action; what happened in it is
    counted in ``seen``."""
    rng = random.Random(seed)
    rules = fast.layout(game)
    moves = _buffer(game)
    n = game.num_players
    state = start or game.new_game(seed)
    seed = state.seed  # the era's chance follows the state's own seed
    array = fast.encode(state)
    assert fast.decode(game, array, seed) == state
    while True:
        seat = state.to_act[0] if state.to_act else -1
        assert fr.to_act(array, rules) == seat
        legal = state.legal_action_ids(seat) if seat >= 0 else []
        count = fr.legal_actions(array, rules, moves)
        assert list(moves[:count]) == legal
        if not legal:
            break
        seen[state.phase] += 1
        if len(legal) == 1 and state.phase != "turn":
            seen["one choice asked"] += 1
        note_rules(state, seat, legal, seen)
        pick = rng.randrange(len(legal))
        action = game.action_from_id(legal[pick])
        if isinstance(action, Uplift) and game.catalog.index[action.card] in state.fired:
            seen["fired again"] += 1
        before = state
        state = state.apply(seat, action)
        flagged = (sum(map(len, s.weathered_below)) for s in (before, state))
        below_before, below_now = next(flagged), next(flagged)
        if below_now > below_before:
            seen["weathered below"] += 1
        elif below_now < below_before:
            seen["joined the run"] += 1
        if state.legends != before.legends:
            seen["legend claimed"] += 1
        if len(state.era_scores) > len(before.era_scores):
            # a pass ends the era: the mountains and deltas scored are the ones before it
            seen["challenge scored"] += sum(before.challenge_met(p) for p in range(n))
        # The action as the compiled playouts pass it, an entry of the legal-action buffer:
        # the machine code checked here is the one they run (a Python int would compile,
        # and check, another).
        fr.apply(array, rules, moves[pick], moves)
        if array[rules[fs.R_SCALARS] + fs.S_CHANCE]:
            seen["chance"] += 1
        fast.follow_reference_chance(game, array, seed)
        assert np.array_equal(array, fast.encode(state))
        assert fast.decode(game, array, seed) == state
        seen[f"era {state.era}"] += 1
    assert state.is_over
    totals = np.zeros(game.num_players)
    fr.returns(array, rules, totals)
    assert tuple(totals) == state.returns
    seen["shared win" if len(state.winners) > 1 else "one winner"] += 1


def note_rules(state: ErosionState, seat: int, legal: list[int], seen: Counter) -> None:
    """Count each piece of red architecture where it changes what the seat to act may do or
    scores (its kind), as the reference's own methods say."""
    game = state.game
    if not game.options.advanced:
        return
    cat = game.catalog
    n = game.num_players
    for p in range(n):
        if state._architecture(p, "score_bonus"):
            seen["score_bonus"] += 1
        if state.counts_as_high(p) and state.height_m(p) < HIGH_METRES:
            seen["counts_as_high"] += 1
    if any(state.draw_limit(d, seat) != state.draw_limit(d) for d in range(3)):
        seen["draw_limit_bonus"] += 1
    for action in map(game.action_from_id, legal):
        c = cat.index.get(getattr(action, "card", ""), -1)
        if isinstance(action, Weather) and cat.kind[c] == "weather_n" and action.rocks > cat.n[c]:
            seen["weather_bonus"] += 1
        if isinstance(action, Fluvial) and action.rocks > cat.n[c]:
            seen["transport_bonus_if_high"] += 1
    if state.phase != "turn":
        return
    for c in state.hands[seat]:
        if cat.kind[c] not in ("weather_n", "weather_types"):
            continue
        for m in range(n):
            # the rock below the ones the card reaches stops it only by its architecture
            stop = state.weathered[m] + len(state.weather_targets(seat, c, m))
            rocks = state.mountains[m]
            if stop < len(rocks) and not state._weatherable_by(rocks[stop], c):
                rock = rocks[stop]
                numeric = cat.kind[c] == "weather_n"
                basic = cat.mohs[rock] <= cat.max_hardness[c] if numeric else True
                if basic and (numeric or cat.rock[rock] in cat.types[c]):
                    seen[cat.effect_kind[rock]] += 1


@pytest.mark.fuzz
@pytest.mark.parametrize(
    ("options", "games"),
    VARIANTS,
    ids=lambda v: (
        ",".join(f"{k}={x}" for k, x in v.items()) or "default" if isinstance(v, dict) else str(v)
    ),
)
def test_compiled_rules_agree_with_the_engine_on_every_state(options: dict, games: int) -> None:
    game = meeple.make("erosion", **options)
    seen: Counter = Counter()
    for seed in range(games * LONG):
        play_both(game, seed, seen)
    # The games reached the rare steps, so the agreement above covers them.
    for step in ("draw", "uplift", "transport", "pay"):
        assert seen[step], step
    if game.num_players >= 4:
        assert seen["era 2"] and seen["guess"] and seen["choose"] and seen["chance"]
    if not game.options.auto_steps:
        assert seen["one choice asked"]
    if game.options.typed_weathering == "pass-over":
        assert seen["weathered below"] and seen["joined the run"]
    if game.options.advanced:
        for rule in ("trigger", *RED_ARCHITECTURE):
            assert seen[rule], rule
    if game.options.legend != "off":
        assert seen["challenge scored"]
        # advanced claims (the top two rocks) are rarer: RARE_SEEDS
        assert seen["legend claimed"] or game.options.legend == "advanced"


@pytest.mark.parametrize("name", sorted(RARE_SEEDS))
def test_rare_rules_agree_too(name: str) -> None:
    rule, options, seed = RARE_SEEDS[name]
    seen: Counter = Counter()
    play_both(meeple.make("erosion", **options), seed, seen)
    assert seen[rule], rule


def test_upon_uplift_architecture_that_has_fired_agrees_too() -> None:
    # Under uplift_architecture=once a card uplifted a second time fires no more: random
    # games never uplift a card twice (it must be eroded, carried to a new era's decks and
    # drawn again), so these games start where a fired Black Shale (WX05) is in the hand
    # at an uplift, with one that has not fired (Flood Basalt, H39) beside it.
    game = meeple.make("erosion", advanced=True, uplift_architecture="once")
    state = position(
        game,
        hands={0: ["WX08", "WX05", "H39", "F85", "F86", "F87"]},
        mountains={1: ["WX06", "WX07", "WX09", "WX10", "WX11", "WX03", "WX02", "WX01"]},
        deck_tops={0: ["WX30", "WX29"], 1: ["H48"]},
        fired=cards(game, ["WX05"]),
    )
    state = play(state, "weather WX08 on 1 x3", "draw WX1 H1 F1")
    seen: Counter = Counter()
    for seed in range(8):
        play_both(game, seed, seen, start=state)
    assert seen["fired again"] and seen["trigger"]


def test_two_seats_meeting_one_legend_at_once_agree_on_who_claims_it() -> None:
    # A legend both mountains meet at one settle goes to the first of them from the seat
    # whose turn it is (_claim_legends): random games never bring two seats to one legend
    # at once, so this position does (both 4,500 m, capped by basalt: Kilimanjaro, L2), and
    # every first move is played through both rules from it. A pass or a draw ends seat 0's
    # turn before the claim (seat 1 is asked first), a card played claims on seat 0's turn:
    # both orders are met. (Claiming from seat 0 always fails here, on a draw.)
    game = meeple.make("erosion", legend="basic")
    rest = ["F71", "F72", "F73", "F74", "F75", "F76", "F77", "F78"]
    start = position(
        game,
        hands={0: ["WX08", "H45", "F85"], 1: ["WX12", "H46", "F86"]},
        mountains={
            0: ["H41", *rest[:4], "WX30", "WX29", "WX28", "WX27"],
            1: ["H42", *rest[4:], "WX26", "WX25", "WX23", "WX22"],
        },
    )
    legend = next(i for i, card in enumerate(game.legend_cards) if card.id == "L2")
    assert start.legend_met(legend, 0) and start.legend_met(legend, 1)
    assert start.legends[legend] == -1
    rules = fast.layout(game)
    moves = _buffer(game)
    array = fast.encode(start)
    count = fr.legal_actions(array, rules, moves)
    assert [int(a) for a in moves[:count]] == [game.action_id(a) for a in start.legal_actions(0)]
    owners = set()
    for action in moves[:count].copy():
        after = array.copy()
        fr.apply(after, rules, action, moves)
        state = start.apply(0, game.action_from_id(int(action)))
        assert np.array_equal(after, fast.encode(state)), game.action_from_id(int(action))
        owners.add(state.legends[legend])
    assert owners == {0, 1}


def test_a_tie_for_the_next_era_left_to_chance_agrees_too(monkeypatch) -> None:
    # Equal guesses leave the start to be drawn among the tied seats (start_among): rare in
    # random games, so these seeds were found by search, and are checked to still reach it.
    calls: Counter = Counter()
    original = ErosionState.start_among

    def counted(self: ErosionState, seats: tuple[int, ...]) -> int:
        calls[len(seats)] += 1
        return original(self, seats)

    monkeypatch.setattr(ErosionState, "start_among", counted)
    for players, seeds in START_AMONG_SEEDS.items():
        game = meeple.make("erosion", players=players)
        for seed in seeds:
            play_both(game, seed, Counter())
    assert sum(calls.values()) >= 4


@pytest.mark.fuzz
def test_a_designers_architecture_plays_the_same_through_both(tmp_path) -> None:
    """The architecture tables are built from the game's own cards too: architecture moved
    to other cards, with other numbers, plays the same through both."""
    path = tmp_path / "cards.json"
    data = json.loads(
        resources.files("meeple.games.erosion").joinpath("cards.json").read_text("utf-8")
    )
    by_id = {card["id"]: card for card in data["cards"]}
    effects = {
        "WX01": {"kind": "uplift_trigger", "ages": ["arid", "any", "ice"]},
        **{f"WX{k:02}": {"kind": "uplift_hillslope", "rocks": 2} for k in range(8, 12)},
        "WX03": {"kind": "score_bonus", "points": 3},
        "WX06": {"kind": "draw_limit_bonus", "deck": "WX", "cards": 2},
        "H41": {"kind": "resists_icon", "icon": "mountain"},
        "H42": {"kind": "resists_except", "process": by_id["WX12"]["process"]["name"]},
        # a second Exfoliation Dome beside H53's: two in force add up
        "H43": {"kind": "weather_bonus", "rocks": 3},
        "WX07": {"kind": "counts_as_high"},
        "F74": {"kind": "transport_bonus_if_high", "rocks": 2},
    }
    for card_id, effect in effects.items():
        by_id[card_id]["architecture"] = {"name": "Designed", "text": "designed", "effect": effect}
    path.write_text(json.dumps(data))
    seen: Counter = Counter()
    for options in ({"players": 2}, {"players": 5, "uplift_architecture": "once"}):
        game = meeple.make("erosion", advanced=True, cards=str(path), **options)
        for seed in range(20 * LONG):
            play_both(game, seed, seen)
    for rule in ("trigger", "fault", *RED_ARCHITECTURE):
        assert seen[rule], rule


def test_every_option_is_served_and_a_refusal_would_be_one_line() -> None:
    # The compiled rules refuse nothing now (SERVED is empty); the batched rules refuse
    # through the same function (tests/envs/test_vector_erosion.py), in one line.
    assert fast.SERVED == ()
    options = {
        "advanced": True,
        "uplift_architecture": "once",
        "legend": "advanced",
        "typed_weathering": "pass-over",
        "auto_steps": False,
        "players": 5,
    }
    game = meeple.make("erosion", **options)
    fast.served(game)
    assert compiled_playout(game) is not None
    with pytest.raises(OptionError, match="do not serve typed_weathering='pass-over' ") as error:
        fast.refuse_unserved(game, "compiled Erosion rules", (("typed_weathering", "shield"),))
    assert "\n" not in str(error.value)


def test_random_playouts_are_seeded_and_count_every_game() -> None:
    for players in (2, 4):
        state = meeple.make("erosion", players=players).new_game(1)
        first = fast.playouts(state, 300, seed=3)
        assert len(first) == players
        # a sole winner nets 1 - (players - 1); a shared win with k seats -(players - k)
        assert -300 * (players - 1) <= sum(first) <= -300 * (players - 2)
        assert fast.playouts(state, 300, seed=3) == first
        assert fast.playouts(state, 300, seed=4) != first


def test_random_chance_draws_only_what_the_reference_could_draw() -> None:
    # numba's own chance (what playouts use): each tie card from its seat's hand, the next
    # era's start among the tied seats, its decks a shuffle of exactly the reference's cards.
    game = meeple.make("erosion", players=5)
    rules = fast.layout(game)
    moves = _buffer(game)
    fr.seed_random(11)
    sc = int(rules[fs.R_SCALARS])
    checked = Counter()
    for seed in range(40):
        rng = random.Random(seed)
        array = fast.encode(game.new_game(seed))
        while True:
            while array[sc + fs.S_CHANCE]:
                state = fast.decode(game, array, seed)
                at = int(rules[fs.R_CHANCE_SEATS])
                seats = [int(v) for v in array[at : at + array[sc + fs.S_CHANCE_N]]]
                if array[sc + fs.S_CHANCE] == fs.CHANCE_NEW_ERA:
                    start, sizes, order = fr.random_new_era(array, rules)
                    assert start in seats
                    cut = np.cumsum(sizes)[:-1]
                    decks = np.split(order, cut)
                    for mine, theirs in zip(decks, state.era_decks(), strict=True):
                        assert sorted(mine) == sorted(theirs)
                    fr.resolve_new_era(array, rules, start, sizes, order, moves)
                    checked["era"] += 1
                else:
                    draws = fr.random_tie_draws(array, rules)
                    for seat, card in zip(seats, draws, strict=True):
                        hand = state.hands[seat]
                        assert card in hand if hand else card == -1
                    fr.resolve_tie_draws(array, rules, draws, moves)
                    checked["tie"] += 1
            count = fr.legal_actions(array, rules, moves)
            if not count:
                break
            fr.apply(array, rules, moves[rng.randrange(count)], moves)
    assert checked["era"] >= 30 and checked["tie"] > 0


def test_random_playouts_match_the_engines_odds() -> None:
    # The same uniform policy through both: seat 0's mean return agrees within sampling
    # error (returns are +1/-1, so 150 engine games have a standard error near 0.08).
    game = meeple.make("erosion")
    state = game.new_game(2)
    compiled_mean = fast.playouts(state, 20_000, seed=1)[0] / 20_000
    rng = random.Random(2)
    total = 0.0
    for _ in range(150):
        s = state
        while not s.is_over:
            seat = s.to_act[0]
            s = s.apply(seat, rng.choice(s.legal_actions(seat)))
        total += s.returns[0]
    assert abs(compiled_mean - total / 150) < 0.35


def test_one_playout_is_a_search_rollout_with_the_engines_returns() -> None:
    # Where every legal action ends the game (the tie-breaker's choice of the winner, which
    # seed 37's random three-player game reaches), playouts end as those actions do, and as
    # each of them.
    game = meeple.make("erosion", players=3)
    state = game.new_game(37)
    rng = random.Random(37)
    while state.phase != "choose":
        seat = state.to_act[0]
        state = state.apply(seat, rng.choice(state.legal_actions(seat)))
    seat = state.to_act[0]
    ends = {state.apply(seat, a).returns for a in state.legal_actions(seat)}
    assert len(ends) == 2
    assert {fast.playout(state, k) for k in range(40)} == ends
    assert fast.playout(state, 5) == fast.playouts(state, 1, seed=5)


@pytest.mark.fuzz
def test_a_designers_cards_play_the_same_through_both(tmp_path) -> None:
    """The compiled tables are built from the game's own cards (the ``cards`` option): an
    edited card file plays the same through both, and an edit in place is a new table."""
    path = tmp_path / "cards.json"
    data = json.loads(
        resources.files("meeple.games.erosion").joinpath("cards.json").read_text("utf-8")
    )
    data["cards"][0]["process"].update(n=1, max_hardness=3)  # WX01, Frost Wedging
    data["cards"][3]["process"]["types"] = ["shale", "limestone"]  # WX04, Wetting-Drying
    h_n = data["cards"][40]["process"]["n"]
    data["cards"][40]["process"]["n"] = h_n + 2  # an H card moves more rocks
    path.write_text(json.dumps(data))
    game = meeple.make("erosion", cards=str(path))
    shipped = fast.layout(meeple.make("erosion"))
    assert not np.array_equal(fast.layout(game), shipped)
    seen: Counter = Counter()
    for seed in range(15 * LONG):
        play_both(game, seed, seen)
    data["cards"][0]["process"].update(n=3, max_hardness=8)
    data["cards"][3]["process"]["types"] = ["shale"]
    data["cards"][40]["process"]["n"] = h_n
    path.write_text(json.dumps(data))
    assert np.array_equal(fast.layout(meeple.make("erosion", cards=str(path))), shipped)


@pytest.mark.fuzz
def test_a_designers_edits_in_place_play_the_same_through_both(tmp_path) -> None:
    """Edit after edit of one card file (tests/designer_edits.py), the games made from it
    kept in use: each card file the game accepts plays the same through both rules."""
    made = edited_games("erosion", tmp_path, 16 * LONG, random.Random(11))
    assert len(made) >= 2 * LONG
    for seed, game in enumerate(made):
        play_both(game, seed, Counter())


@pytest.mark.parametrize("players", [2, 4, 5])
def test_the_values_are_each_candidates_playout_after_the_engines_step(players: int) -> None:
    """``values`` (all of a world's candidates in one compiled call, for ``flat``) gives for
    each action what the engine's step and then ``playout`` give, wherever the step meets no
    chance (a new era's shuffle, the tie-breaker's draws), which the compiled call draws from
    numba's generator."""
    game = meeple.make("erosion", players=players)
    assert compiled_values(game, "random") is fast.values
    rules = fast.layout(game)
    chance = int(rules[fs.R_SCALARS]) + fs.S_CHANCE
    rng = random.Random(players)
    compared = 0
    for seed in range(3):
        state = game.new_game(seed)
        while not state.is_over:
            seat = state.to_act[0]
            actions = state.legal_actions(seat)
            if len(state.to_act) == 1 and len(actions) > 1 and rng.random() < 0.3:
                values = fast.values(state, seat, actions, 9)
                for action, value in zip(actions, values, strict=True):
                    array = fast.encode(state)
                    fr.apply(array, rules, game.action_id(action), _buffer(game))
                    if array[chance]:
                        continue
                    assert value == fast.playout(state._next(seat, action), 9)[seat]
                    compared += 1
            state = state.apply(seat, rng.choice(actions))
    assert compared > 50
