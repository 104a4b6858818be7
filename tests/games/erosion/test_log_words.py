"""Each move in words for the move log (``Game.log_words``), naming nothing a seat may not
see: every seat and spectator is shown the same words."""

from __future__ import annotations

import json
import random
import re

import pytest

import meeple
from meeple.games.erosion.pieces import Pass
from meeple.games.erosion.words import action_words

from .conftest import make, play, position

CARD_ID = re.compile(r"\b(?:WX|H|F)\d+\b")


def test_a_weathering_says_how_many_rocks_of_whose_mountain_with_which_card():
    game = make()
    state = position(
        game,
        current=1,
        hands={1: ["WX12", "H42"]},
        mountains={0: ["WX01", "WX13", "H41"], 1: ["WX02"]},
    )
    assert game.log_words(state, 1, game.parse_action("weather WX12 on 0 x2")) == (
        "weathered 2 rocks (shale, limestone) of Alps' mountain with WX12 (Salt Crystallization)"
    )
    assert game.log_words(state, 1, game.parse_action("weather WX12 on 1 x1")) == (
        "weathered 1 rock (shale) of their own mountain with WX12 (Salt Crystallization)"
    )


def test_a_draw_names_the_decks_and_counts_never_the_cards_drawn():
    game = make()
    state = position(game, hands={0: ["WX12", "H42", "F76"]}, mountains={0: ["WX01"]})
    draw = game.parse_action("draw WX2 H1 F0")
    words = game.log_words(state, 0, draw)
    assert words == (
        "drew 3 cards (2 weathering, 1 hillslope) instead of playing a card (Draw Cards)"
    )
    after = state.apply(0, draw)
    drawn = set(after.hands[0]) - set(state.hands[0])
    assert drawn and not {game.catalog.ids[c] for c in drawn} & set(CARD_ID.findall(words))
    assert game.log_words(state, 0, game.parse_action("draw WX1 H0 F0")) == (
        "drew 1 weathering card instead of playing a card (Draw Cards)"
    )
    redraw = game.log_words(state, 0, game.parse_action("redraw WX2 H2 F2"))
    assert redraw == (
        "discarded their whole hand of 3 cards and drew 6 cards "
        "(2 weathering, 2 hillslope, 2 fluvial)"
    )


@pytest.mark.parametrize(
    ("himalaya", "starts"),
    [
        (["WX07", "WX08"], "Andes, the lowest scorer, starts era 2"),
        (
            ["WX07"],
            "Andes and Himalaya tie for the lowest score (1): a tie-breaker decides which of "
            "them starts era 2",
        ),
    ],
)
def test_the_pass_that_ends_an_era_gives_its_scores_and_who_starts_the_next(himalaya, starts):
    """'Scoring at the end of each era ... The lowest-scoring player starts' the new era
    (four or five players play two), ties going to the tie-breaker: the log says so with the
    pass that ends the era, not only that it ends it."""
    game = make(players=4)
    mountains = {0: ["WX01", "WX02"], 1: ["WX03"], 2: ["WX04", "WX05", "WX06"], 3: himalaya}
    state = position(game, mountains=mountains, current=3, passes_in_row=3, hands={3: ["H42"]})
    scores = f"Alps 2, Andes 1, Rockies 3, Himalaya {len(himalaya)}"
    assert game.log_words(state, 3, game.parse_action("pass")) == (
        f"passed, which ends era 1 of 2: it scored {scores}; {starts}"
    )
    assert state.apply_text(3, "pass").era_scores == ((2, 1, 3, len(himalaya)),)


def test_the_steps_the_engine_takes_alone_are_told_after_the_move():
    """A Fluvial play with two River rocks to choose from, each with a single payment: the
    log holds only the transport chosen, so its words tell the payment the engine made."""
    game = make()
    state = position(
        game,
        hands={0: ["F71", "WX01", "H42"]},
        mountains={0: ["WX02"], 1: ["WX03"]},
        river=["WX08", "H46"],
    )
    state = play(state, "fluvial F71 x1")
    words = game.log_words(state, 0, game.parse_action("transport WX08"))
    assert words == (
        "chose WX08 (shale) in the River for their delta; then, the only choice: paid for "
        "WX08 with WX01 (shale) from their hand"
    )


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"players": 3, "advanced": True},
        {"legend": "basic", "auto_steps": False},
        {"players": 4, "legend": "basic"},
    ],
)
def test_the_words_say_only_what_every_seat_sees(options):
    """A seat that cannot tell the true state from a resampled one (``determinize``) reads
    the same words for a move of another seat, but for the end of an era, which shows
    every seat what it did not know; and every card the words name is in the move's
    notation or in what a spectator sees before or after it."""
    game = meeple.make("erosion", **options)
    rng = random.Random(5)
    moves = eras = 0
    for seed in range(3):
        state = game.new_game(seed)
        while not state.is_over and moves < 400 * (seed + 1):
            player = state.to_act[0]
            action = rng.choice(state.legal_actions(player))
            words = game.log_words(state, player, action)
            assert words
            after = state.apply(player, action)
            public = str(action) + json.dumps([state.view(None), after.view(None)])
            for card in CARD_ID.findall(words):
                assert card in public, f"{words!r} names {card}, which only a seat saw"
            told = "it scored" in words
            if told:
                # An era's end shows every challenge card (a seat could not tell them
                # before): its words name the era's scores as every seat sees them after it.
                era = after.view(None)["result"]["era_scores"][-1]
                named = ", ".join(f"{game.seat_name(p)} {x}" for p, x in enumerate(era))
                assert f"it scored {named};" in words
                eras += 1
            for other in range(game.num_players):
                if other != player and not told:
                    twin = state.determinize(other, rng)
                    assert action_words(twin, player, action) == action_words(
                        state, player, action
                    ), (str(action), other)
            state = after
            moves += 1
    assert moves > 100
    assert eras or game.eras == 1


@pytest.mark.parametrize(
    "options",
    [{}, {"players": 4}, {"players": 3, "advanced": True, "legend": "advanced"}],
    ids=["2p", "4p", "3p-advanced-legends"],
)
def test_an_era_scored_is_said_part_by_part_and_the_parts_are_the_recorded_points(options):
    """'At the end of the era each player scores 1 per unweathered rock, 2 per delta rock, 3
    per weathered fossil': the pass that ends an era is followed in the log by each seat's
    points part by part, which add up to what the rules recorded (over random games)."""
    game = meeple.make("erosion", **options)
    said = 0
    parts_seen: set[str] = set()
    for seed in range(20):
        state, rng = game.new_game(seed), random.Random(seed)
        while not state.is_over:
            (seat,) = state.to_act
            # Rarely a pass, so that mountains, deltas, fossils and challenges build up.
            legal = state.legal_actions(seat)
            others = [a for a in legal if not isinstance(a, Pass)]
            action = rng.choice(others if others and rng.random() < 0.97 else legal)
            # A tie-breaker's outcome may follow a guess (tested below): the era's lines here.
            lines = tuple(
                said
                for said in game.log_after(state, seat, action)
                if not said.startswith("The tie-breaker")
            )
            after = state.apply(seat, action)
            if len(after.era_scores) == len(state.era_scores):
                assert lines == ()
            else:
                (line,) = lines
                recorded = after.era_scores[-1]
                for p in range(game.num_players):
                    parts = state.point_parts(p)
                    assert sum(part.points for part in parts) == recorded[p]
                    parts_seen |= {part.what.split()[0] for part in parts}
                    total = f"{game.seat_name(p)} {recorded[p]}"
                    assert (
                        total + (" = " if parts else ";" if p < game.num_players - 1 else ".")
                        in line
                    )
                said += 1
            state = after
    assert said >= 20
    assert {"unweathered", "delta", "weathered"} <= parts_seen, parts_seen
    if options.get("advanced"):
        assert "challenge" in parts_seen, parts_seen


def _tied(game, hands):
    """Two seats with 2 points each at the game's end, holding the given hands."""
    return position(game, hands=hands, mountains={0: ["H41", "H42"], 1: ["H43", "H44"]})


def test_a_tie_breaker_is_told_card_by_card_under_the_guess_that_completes_it():
    """'guess the Mohs hardness of the rock type ... The player guessing the closest chooses
    the tie': once settled the drawn cards go back to the hands, so the log under the last
    guess says what each drew, its hardness, how far each guess was, and what follows."""
    game = make()
    state = play(_tied(game, {0: ["WX06"], 1: ["H45"]}), "pass", "pass")
    first = game.parse_action("guess 4")
    assert game.log_after(state, 0, first) == ()  # a guess still to come
    state = state.apply(0, first)
    assert game.log_after(state, 1, game.parse_action("guess 6")) == (
        "The tie-breaker for the win: Alps drew WX06 (shale), hardness 3, and guessed 4 (1 off); "
        "Andes drew H45 (basalt), hardness 8, and guessed 6 (2 off). Alps is closest and "
        "chooses who takes the tie.",
    )
    assert state.apply(1, game.parse_action("guess 6")).to_act == (0,)  # Alps chooses
    equal = play(_tied(game, {0: ["WX06"], 1: ["H45"]}), "pass", "pass", "guess 2")
    (line,) = game.log_after(equal, 1, game.parse_action("guess 9"))
    assert line.endswith("Alps and Andes are equally close: they share the win.")
    assert equal.apply(1, game.parse_action("guess 9")).result["winners"] == [0, 1]


def test_a_tie_breaker_for_the_next_era_s_start_says_that_the_start_is_drawn():
    """Tied for the lowest score and equally close: the start player is drawn among them; a
    tied seat with an empty hand is said to have had nothing to draw."""
    game = make(4)  # two eras
    state = position(
        game,
        hands={0: ["WX06"], 1: ["H45"], 2: [], 3: []},
        mountains={0: ["H41"], 1: ["H42"], 2: ["H43"], 3: ["H46", "H47"]},
    )
    state = play(state, "pass", "pass", "pass", "pass")
    assert state.tie is not None and state.tie.purpose == "start" and state.tie.seats == (0, 1, 2)
    state = play(state, "guess 4")
    (line,) = game.log_after(state, 1, game.parse_action("guess 7"))
    assert line.startswith("The tie-breaker for the next era's start: Alps drew WX06 (shale)")
    assert "Rockies had no card to draw" in line
    assert line.endswith("Alps and Andes are equally close: the next era's start is drawn.")
