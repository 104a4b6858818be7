"""Erosion components and Set Up, clause by clause (seed 003_56c9e64755493b11.txt)."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import pytest

import meeple
from meeple.core.errors import OptionError
from meeple.games.erosion import CardError, standard_cards, standard_legends
from meeple.games.erosion.cards import MOHS, ROCK_CLASS, load_cards, load_legends
from meeple.games.erosion.rules import WX, F, H

from .conftest import make

CARD_TEXT = resources.files("meeple.games.erosion").joinpath("cards.json").read_text("utf-8")


# -- components -----------------------------------------------------------------------------
def test_clause_components_96_cards_38_wx_32_h_20_f_6_atmosphere():
    """'96 Cards: 38 Weathering (WX), 32 Hillslope (H), 20 Fluvial (F) and 6 Atmosphere'."""
    counts = Counter(card.deck for card in standard_cards())
    assert counts == {"WX": 38, "H": 32, "F": 20, "ATM": 6}
    assert len({card.id for card in standard_cards()}) == 96


def test_clause_fluvial_hint_decks_are_rock_classes():
    """'WX deck = sedimentary, H deck = igneous, F deck = metamorphic'."""
    expected = {"WX": "sedimentary", "H": "igneous", "F": "metamorphic"}
    for card in standard_cards():
        if card.deck != "ATM":
            assert ROCK_CLASS[card.rock] == expected[card.deck], card.id


def test_clause_mohs_answers_of_the_tie_breaker():
    """'shale & limestone = 3, granite & conglomerate = 6, schist, sandstone, & quartzite = 7,
    basalt & welded tuff = 8' — and every card carries its rock's hardness."""
    assert MOHS == {
        "shale": 3,
        "limestone": 3,
        "granite": 6,
        "conglomerate": 6,
        "schist": 7,
        "sandstone": 7,
        "quartzite": 7,
        "basalt": 8,
        "welded tuff": 8,
    }
    for card in standard_cards():
        if card.deck != "ATM":
            assert card.mohs == MOHS[card.rock]


def test_clause_fossils_are_found_in_the_sedimentary_deck():
    """Wulf's Hints: 'Fossils are found in the sedimentary deck.'"""
    fossils = [c for c in standard_cards() if c.deck != "ATM" and c.fossil]
    assert fossils and all(c.deck == "WX" for c in fossils)


def test_atmosphere_cards_one_draw_at_the_normal_end_zero_at_the_age_end():
    """gaps.md: each Atmosphere end prints a draw limit, normal end 1, Age end 0; two
    Hypoxic, two Ice and two Arid Age cards, a pair under each deck."""
    atms = [c for c in standard_cards() if c.deck == "ATM"]
    assert sorted(a.age for a in atms) == ["arid", "arid", "hypoxic", "hypoxic", "ice", "ice"]
    assert all((a.normal_limit, a.age_limit) == (1, 0) for a in atms)
    assert Counter(a.under for a in atms) == {"WX": 2, "H": 2, "F": 2}


def test_f73_glacier_text_keeps_its_comma():
    """The proposal's row F73 has a comma in its architecture text; the project's file
    keeps the whole sentence."""
    f73 = next(c for c in standard_cards() if c.id == "F73")
    assert f73.architecture is not None
    assert f73.architecture.text.startswith("Glacier (red): if your mountain is >=4000 m,")
    assert f73.architecture.effect.kind == "transport_bonus_if_high"


# -- the card file is validated on load -----------------------------------------------------
def _resisting(cards: list[dict]) -> dict:
    """The first effect that makes a rock resist all but one process."""
    return next(
        c["architecture"]["effect"]
        for c in cards
        if (c.get("architecture") or {}).get("effect", {}).get("kind") == "resists_except"
    )


def _broken(edit) -> str:
    data = json.loads(CARD_TEXT)
    edit(data["cards"])
    return json.dumps(data)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda cs: cs[72]["process"].update(n=0), "card F73, field process.n"),
        (lambda cs: cs[72].update(mohs="hard"), "card F73, field mohs"),
        (lambda cs: cs[11].update(mohs=5), "card WX12, field mohs: limestone has Mohs"),
        (lambda cs: cs[5].update(rock="basalt", mohs=8), "card WX06, field rock"),
        (lambda cs: cs[40].update(fossil="trilobite"), "card H41, field fossil"),
        (
            lambda cs: cs[50]["architecture"]["effect"].update(kind="zap"),
            "card H51, field architecture.effect",
        ),
        (lambda cs: cs[3]["process"].update(types=[]), "card WX04, field process.types"),
        (lambda cs: cs[0]["process"].update(elevation="volcano"), "process.elevation"),
        (lambda cs: cs[1].update(id="WX01"), "card WX01, field id: two cards share"),
        (lambda cs: cs[90].update(under="X"), "card ATM1, field under"),
        (lambda cs: cs[4].pop("rock"), "card WX05, field rock"),
        # Strict types: a designer's "3" or true is not read as a number.
        (lambda cs: cs[0]["process"].update(n=True), "card WX01, field process.n: Input should"),
        (lambda cs: cs[0]["process"].update(n="3"), "card WX01, field process.n: Input should"),
        # One floor, said once: -1 was told 'greater than or equal to 0', then 0 'at least 1'.
        (
            lambda cs: cs[0]["process"].update(n=-1),
            "card WX01, field process.n: must be at least 1",
        ),
        (lambda cs: cs[0]["process"].update(n=0), "card WX01, field process.n: must be at least 1"),
        (lambda cs: cs[0].update(mohs=3.0), "card WX01, field mohs: Input should"),
        # Bounds: an effect of 10**9 rocks listed 10**9 moves (MemoryError in a simulation).
        (
            lambda cs: cs[52]["architecture"]["effect"].update(rocks=10**9),
            "card H53, field architecture.effect.rocks: Input should be less than or equal to 6",
        ),
        (
            lambda cs: cs[72]["architecture"]["effect"].update(rocks=10**9),
            "card F73, field architecture.effect.rocks: Input should be less than or equal to 6",
        ),
        (
            lambda cs: cs[50]["architecture"].update(
                effect={"kind": "score_bonus", "points": 10**30}
            ),
            "card H51, field architecture.effect.points: Input should be less than or equal to 20",
        ),
        # A misspelt process is no process: the rock would resist every card.
        (
            lambda cs: _resisting(cs).update(process="Frost Wedgin"),
            "field architecture.effect.process: no card's process is called 'Frost Wedgin' "
            "(did you mean 'Frost Wedging'",
        ),
    ],
)
def test_a_bad_card_file_fails_with_the_card_id_and_the_field(edit, message):
    with pytest.raises(CardError, match=message.replace("(", r"\(")):
        load_cards(_broken(edit))


def test_a_card_file_with_the_wrong_counts_fails():
    with pytest.raises(
        CardError, match="the card file has 37 WX cards; a card file holds the seed's 38"
    ):
        load_cards(_broken(lambda cs: cs.pop(0)))


def test_the_legend_file_is_validated_too():
    text = resources.files("meeple.games.erosion").joinpath("legends.json").read_text("utf-8")
    data = json.loads(text)
    data["legends"][0]["condition"]["min_height_m"] = 4321
    with pytest.raises(CardError, match=r"card L1, field condition\.min_height_m"):
        load_legends(json.dumps(data))
    legends, challenges = standard_legends()
    assert len(legends) == 4, "'Place all four montane legend cards face up'"
    assert len(challenges) >= 5, "one challenge card for each of up to five players"


# -- options --------------------------------------------------------------------------------
def test_clause_two_to_five_players():
    """'plays in 30 minutes with 2 to 5 players'."""
    for n in range(2, 6):
        assert meeple.make("erosion", players=n).num_players == n
    for bad in (1, 6):
        with pytest.raises(OptionError, match="players"):
            meeple.make("erosion", players=bad)


def test_clause_game_length_one_era_for_two_or_three_two_for_four_or_five():
    """'The two or three-player game lasts one era; and the four- or five-player game lasts
    two eras.'"""
    assert [meeple.make("erosion", players=n).eras for n in range(2, 6)] == [1, 1, 2, 2]


# -- set up ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_clause_create_starting_mountain_3wx_2h_1f_top_rock_weathered(players):
    """'Each player randomly draws 3 WX, 2 H, and 1 F card. These six cards are shuffled and
    arranged vertically ... The uppermost rock in each starting mountain is ... weathered.'"""
    game = make(players)
    state = game.new_game(11)
    for p in range(players):
        mountain = state.mountains[p]
        assert Counter(game.catalog.deck[c] for c in mountain) == {WX: 3, H: 2, F: 1}
        assert state.weathered[p] == 1
        assert state.height_m(p) == 3000, "'players start with mountains 3000 meters high'"
    # shuffled: the starting mountains are not all in deck order
    orders = {tuple(game.catalog.deck[c] for c in m) for m in state.mountains}
    orders |= {
        tuple(game.catalog.deck[c] for c in m)
        for seed in range(5)
        for m in game.new_game(seed).mountains
    }
    assert len(orders) > 1


@pytest.mark.parametrize("players", [2, 5])
def test_clause_create_starting_hand_3wx_2h_1f(players):
    """'Each player draws 3 WX, 2 H, and 1 F card to form his hand'."""
    game = make(players)
    state = game.new_game(3)
    for hand in state.hands:
        assert Counter(game.catalog.deck[c] for c in hand) == {WX: 3, H: 2, F: 1}
    left = [len(d) for d in state.decks]
    assert left == [38 - 6 * players, 32 - 4 * players, 20 - 2 * players]


def test_clause_process_decks_on_pairs_of_atmosphere_cards():
    """'Set three overlapping pairs of Atmosphere Cards ... place each [deck] face down, on
    the corresponding Atmosphere Card pair': each deck's draw limit is 1 + 1 = 2."""
    state = make().new_game(0)
    assert [state.draw_limit(d) for d in (WX, H, F)] == [2, 2, 2]
    assert state.river == (), "'The River starts empty.'"
    assert all(not d for d in state.deltas)


def test_clause_randomly_choose_the_starting_player():
    """'Randomly choose the starting player': drawn from the seed, every seat possible,
    the same seed always the same seat."""
    game = meeple.make("erosion", players=4)
    starts = {game.new_game(seed).current for seed in range(60)}
    assert starts == {0, 1, 2, 3}
    assert game.new_game(7) == game.new_game(7)
