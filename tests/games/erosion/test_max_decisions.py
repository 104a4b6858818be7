"""Erosion's bound on its decisions (``ErosionGame.max_decisions``, OpenSpiel's
``max_game_length``) rests on what the rules do within an era: no card goes back along
deck, hand, mountain, River, delta (or discards), and each kind of decision moves the cards
the bound counts it by. Random games under every reading that changes a turn's steps are
held to each of those premises, decision by decision, and to the bound itself."""

from __future__ import annotations

import json
import random
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from meeple.core.registry import make
from meeple.games.erosion.pieces import (
    Draw,
    Fault,
    Fluvial,
    Hillslope,
    Pass,
    Pay,
    Redraw,
    Trigger,
    Uplift,
    Weather,
)

DECK, HAND, MOUNTAIN, RIVER, DONE = range(5)
"""Where a process card is, in the only order an era moves it (discards and deltas: done)."""


def places(state: Any) -> dict[int, int]:
    """Each process card's place, by number."""
    where: dict[int, int] = {}
    for place, piles in (
        (DECK, state.decks),
        (HAND, state.hands),
        (MOUNTAIN, state.mountains),
        (RIVER, (state.river,)),
        (DONE, (*state.deltas, *state.discards)),
    ):
        for pile in piles:
            where.update(dict.fromkeys(pile, place))
    return where


def moved(before: dict[int, int], after: dict[int, int], start: int, end: int) -> int:
    """How many cards went from ``start`` to ``end``."""
    return sum(before[c] == start and after.get(c) == end for c in before)


READINGS = [
    {"auto_steps": False},
    {"players": 3, "advanced": True, "auto_steps": False},
    {"players": 4, "advanced": True, "uplift_architecture": "once", "draw_from": "one"},
    {"players": 5, "advanced": True, "empty_hand": "before-uplift", "auto_steps": False},
    {"players": 2, "advanced": True, "legend": "basic", "typed_weathering": "pass-over"},
]


@pytest.mark.parametrize(
    "options", READINGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_within_an_era_no_card_goes_back_and_each_decision_moves_what_the_bound_counts(
    options: dict[str, Any],
) -> None:
    """A Draw or Redraw takes a card from a deck; a play, an uplift and a payment each take
    one from a hand; an Earthquake Fault puts a rock in the River; a Transport's payment
    puts its River rock in a delta; a Trigger comes only from an uplift's own triggers. And
    no game is longer than the bound."""
    game = make("erosion", **options)
    most = game.max_decisions()
    kinds: Counter[str] = Counter()
    for seed in range(30):
        rng = random.Random(seed)
        state = game.new_game(seed)
        triggers_owed = taken = 0
        while not state.is_over:
            seat = state.to_act[0]
            action = rng.choice(state.legal_actions(seat))
            after = state.apply(seat, action)
            kinds[type(action).__name__] += 1
            taken += 1
            if after.era_scores != state.era_scores or after.tie or state.tie:
                # Scored: a tie-breaker draws from the hands, a new era shuffles every card
                # but the mountains back into the decks.
                state = after
                continue
            was, now = places(state), places(after)
            assert all(now[c] >= place for c, place in was.items()), (seed, action)
            if isinstance(action, (Draw, Redraw)):
                assert moved(was, now, DECK, HAND) >= 1, (seed, action)
            if isinstance(action, (Weather, Hillslope, Fluvial, Uplift, Pay, Redraw)):
                assert sum(was[c] == HAND and now[c] > HAND for c in was) >= 1, (seed, action)
            if isinstance(action, Pay):
                assert moved(was, now, RIVER, DONE) >= 1, (seed, action)
            if isinstance(action, Fault):
                assert moved(was, now, MOUNTAIN, RIVER) >= 1, (seed, action)
            if isinstance(action, Uplift):
                effect = game.catalog.effect[game.catalog.index[action.card]]
                if game.options.advanced and effect is not None and effect.kind == "uplift_trigger":
                    triggers_owed += len(effect.ages)
            if isinstance(action, Trigger):
                assert triggers_owed > 0, (seed, action)
                triggers_owed -= 1
            if isinstance(action, Pass):
                assert now == was
            state = after
        assert taken <= most, seed
    assert kinds["Draw"] and kinds["Pay"] and kinds["Uplift"] and kinds["Pass"]
    if game.options.advanced and game.num_players > 2:
        assert kinds["Fault"] + kinds["Trigger"], kinds  # architecture was exercised


def test_the_bound_follows_the_players_the_rules_and_the_cards(tmp_path: Path) -> None:
    """K = 90 shipped process cards: 2K draws and cards leaving hands, K Transports, at most
    (players - 1)(2K + 1) + 1 passes, a guess a seat and a choice; an era a game of two or
    three, two eras of four or five; the Advanced Rules add K Earthquake Faults and the
    shipped cards' 6 Atmospheric Triggers."""
    assert make("erosion").max_decisions() == 3 * 90 + (181 + 1) + 2 + 1
    assert make("erosion", players=3).max_decisions() == 3 * 90 + (2 * 181 + 1) + 3 + 1
    assert make("erosion", players=5).max_decisions() == 2 * (3 * 90 + (4 * 181 + 1) + 5 + 1)
    assert make("erosion", advanced=True).max_decisions() == 455 + 90 + 6
    # A designer's card file (as many cards as the seed's) with no architecture: nothing
    # to fire, so no Earthquake Faults and no Triggers even with the Advanced Rules.
    shipped = resources.files("meeple.games.erosion").joinpath("cards.json").read_text("utf-8")
    data = json.loads(shipped)
    for card in data["cards"]:
        card.pop("architecture", None)
    (tmp_path / "cards.json").write_text(json.dumps(data), encoding="utf-8")
    plain = make("erosion", cards=str(tmp_path / "cards.json"), advanced=True)
    assert plain.max_decisions() == 455
