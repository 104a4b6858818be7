"""Symbols, cards and hand ranking, clause by clause against the seed (004_2a162bbec65dca8b)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

import meeple
from meeple.core.errors import NotationError
from meeple.games.triangle_clock.cards import (
    CARDS,
    NUM_CARDS,
    SYMBOL_NAMES,
    card_name,
    glyph,
    palette_swap,
    parse_card,
    parse_symbol,
    right_angle,
)
from meeple.games.triangle_clock.compiled import rules as fast
from meeple.games.triangle_clock.hands import (
    MAX_STRENGTH,
    Ranking,
    RankingTableError,
    is_rotate,
    load_ranking_table,
    possible_hands,
    ranking,
)

from .conftest import symbols


# -- equipment ------------------------------------------------------------------------------
def test_clause_eight_directions_two_colours_make_16_symbols():
    """'The triangles point to each of the eight, 45-degree cardinal directions' and 'have
    one of two colours, either be solid or clear'."""
    assert len(set(SYMBOL_NAMES)) == 16
    assert SYMBOL_NAMES[:4] == ("Ns", "Nc", "NEs", "NEc")
    assert {name[:-1] for name in SYMBOL_NAMES} == {"N", "NE", "E", "SE", "S", "SW", "W", "NW"}


def test_clause_120_cards_every_pair_of_two_different_symbols():
    """'120 cards, each containing 2 triangles' and 'No card has the same symbol on in
    twice': the cards are exactly the 120 pairs of different symbols."""
    assert NUM_CARDS == 120
    assert all(a != b for a, b in CARDS)
    assert set(CARDS) == set(combinations(range(16), 2))


def test_symbol_and_card_notation_round_trips():
    for s, name in enumerate(SYMBOL_NAMES):
        assert parse_symbol(name) == s
        assert parse_symbol(name.lower()) == s
    for card in range(NUM_CARDS):
        assert parse_card(card_name(card)) == card
    assert parse_card("SEc+Ns") == parse_card("Ns+SEc")


@pytest.mark.parametrize("text", ["N", "Nx", "NNE s", "", "Q s"])
def test_bad_symbol_notation_says_how_to_write_one(text):
    with pytest.raises(NotationError, match="s for solid or c for clear"):
        parse_symbol(text)


def test_no_card_has_the_same_symbol_twice_in_notation():
    with pytest.raises(NotationError, match="same symbol twice"):
        parse_card("Ns+Ns")


def test_solid_and_clear_look_different_on_screen():
    """Render: 16 different glyphs, so solid and clear never share a picture."""
    assert len({glyph(s) for s in range(16)}) == 16


def test_clause_right_angle_turns_90_degrees_clockwise_and_keeps_the_colour():
    """Right Angle: 'rotating a triangle 90 degrees clockwise'."""
    pairs = {"Ns": "Es", "NEc": "SEc", "Ws": "Ns", "NWc": "NEc", "Sc": "Wc"}
    for before, after in pairs.items():
        assert right_angle(parse_symbol(before)) == parse_symbol(after)


def test_clause_palette_swap_changes_only_the_colour():
    """Palette Swap: 'from clear to solid, or a solid to clear'."""
    assert palette_swap(parse_symbol("SEs")) == parse_symbol("SEc")
    assert palette_swap(parse_symbol("SEc")) == parse_symbol("SEs")


# -- ranks: an example and a counter-example for each -------------------------------------
RANKS = [
    # rank, example, counter-example, what the counter-example is instead
    ("4 of a Kind", "Ns Nc Ns Nc", "Ns Nc Ns NEs", "3 of a Kind"),
    ("Flush 3 of a Kind", "Es Es Es Wc", "Es Es Ec Wc", "3 of a Kind"),
    ("Flush 4 Set Rotate", "Ns Es Ss Ws", "Ns Es Ss Wc", "4 Set Rotate"),
    ("3 of a Kind", "Sc Ss Sc NEs", "Sc Ss NEs NEc", "Pair"),
    ("4 Set Rotate", "Ns NEc Es SEc", "Ns NEc Es Sc", "3 Set Rotate"),
    ("Flush 3 Set Rotate", "Wc NWc Nc Ss", "Wc NWs Nc Ss", "3 Set Rotate"),
    ("Flush Pair", "NEs NEs Ss Sc", "NEs NEc Ss Sc", "Pair"),
    ("3 Set Rotate", "Ns Ec Sc SWs", "Ns NEc SEs SEc", "Pair"),
    ("Pair", "Ns Nc NEs SEc", "Ns NEc SEs Ss", "Nothing"),
    ("Nothing", "Ns NEc SEs Ss", "Ns NEc SEs Nc", "Pair"),
]


@pytest.mark.parametrize(
    ("rank", "example", "counter", "instead"), RANKS, ids=[r[0] for r in RANKS]
)
def test_clause_each_rank_has_an_example_and_a_counter_example(rank, example, counter, instead):
    """'The hands are ranked as follows' (table of gaps.md): the example has the rank, the
    counter-example misses it by one symbol and takes the rank below it."""
    table = ranking()
    assert table.evaluate(symbols(example)).name == rank
    assert table.evaluate(symbols(counter)).name == instead


def test_every_rank_of_the_table_is_tested():
    assert [r[0] for r in RANKS] == [spec.name for spec in ranking().ranks]


def test_clause_strength_is_the_number_on_the_left():
    """The winner gains 'the strength of your opponents' hand (the number on the left)'."""
    strengths = {spec.name: spec.strength for spec in ranking().ranks}
    assert strengths == {
        "4 of a Kind": 10,
        "Flush 3 of a Kind": 8,
        "Flush 4 Set Rotate": 7,
        "3 of a Kind": 6,
        "4 Set Rotate": 5,
        "Flush 3 Set Rotate": 4,
        "Flush Pair": 3,
        "3 Set Rotate": 2,
        "Pair": 1,
        "Nothing": 0,
    }


def test_clause_x_set_rotate_is_one_same_angle_between_all_symbols():
    """'X Set Rotate is when you can go between all X many symbols with a same angle
    rotation': steps of 45, 90 and 135 degrees, either way round, in any order."""
    assert is_rotate([0, 1, 2]) and is_rotate([2, 1, 0]) and is_rotate([7, 0, 1])
    assert is_rotate([0, 2, 4, 6]) and is_rotate([1, 3, 5])
    assert is_rotate([0, 3, 6, 1])  # N, SE, W, NE: 135 degrees each
    assert not is_rotate([0, 1, 3])  # 45 then 90 degrees
    assert not is_rotate([0, 4, 0])  # a direction twice is not a set
    assert not is_rotate([0, 1, 2, 4])


def test_clause_flush_needs_only_the_ranks_symbols_to_share_a_colour():
    """'A Flush is when all symbols involved in the hands rank have the same colour': a
    fourth symbol of the other colour does not spoil it."""
    value = ranking().evaluate(symbols("Ns NEs Es Wc"))
    assert value.name == "Flush 3 Set Rotate"
    assert value.used == symbols("Ns NEs Es")


def test_a_hand_takes_its_highest_rank():
    """A Flush Pair that also holds a 3 Set Rotate is a Flush Pair (ranked higher)."""
    assert ranking().evaluate(symbols("NEs NEs Sc Wc")).name == "Flush Pair"


# -- equal ranks ----------------------------------------------------------------------------
def test_clause_tie_break_rank_symbols_closest_to_12_oclock_win():
    """'If 2 hands are of the same rank, the one which contains the symbol closest to
    12oClock Clockwise is ranked higher': a Pair of N beats a Pair of E."""
    table = ranking()
    a, b = symbols("Ns Nc Ss SWc"), symbols("Es Ec Ws NWc")
    assert table.evaluate(a).name == table.evaluate(b).name == "Pair"
    assert table.compare(a, b) == 1 and table.compare(b, a) == -1


def test_tie_break_step_two_the_next_symbol_decides():
    """Same rank symbols (a Pair of Ns Nc): the other symbols decide, best first."""
    table = ranking()
    a, b = symbols("Ns Nc Ss SWc"), symbols("Ns Nc SWc Ws")
    assert table.evaluate(a).name == table.evaluate(b).name == "Pair"
    assert table.compare(a, b) == 1


def test_tie_break_step_solid_before_clear():
    """At the same direction a solid symbol is closer to 12 o'clock than a clear one."""
    table = ranking()
    a, b = symbols("Ns Ns NEc SEc"), symbols("Nc Nc NEs SEs")
    assert table.evaluate(a).name == table.evaluate(b).name == "Flush Pair"
    assert table.compare(a, b) == 1


def test_tie_break_identical_hands_tie():
    """Hands of the same symbols tie: nobody is ranked higher."""
    assert ranking().compare(symbols("Ns Es Ss Wc"), symbols("Wc Ss Es Ns")) == 0


def test_tie_break_option_whole_hand_reads_all_four_symbols():
    """Option tie_break: rank-first compares the rank's symbols first (the Flush Pair of
    Nc wins); whole-hand compares the four symbols (the hand holding Ns wins)."""
    a, b = symbols("Ns Es Es NWc"), symbols("Nc Nc SEs SWs")
    assert ranking(None, "rank-first").compare(a, b) == -1
    assert ranking(None, "whole-hand").compare(a, b) == 1


def test_tie_break_uses_the_best_set_that_makes_the_rank():
    """Two Pairs: the Pair of N counts, so it beats a single Pair of NE with better others."""
    table = ranking()
    assert table.compare(symbols("NEs NEc Ns Nc"), symbols("NEs NEc Ns SEc")) == 1


def test_fast_power_orders_hands_exactly_as_compare():
    table = ranking()
    hands = [symbols(h) for h in ("Ns Nc Ss SWc", "Es Ec Ws NWc", "Ns Es Ss Ws", "Ns Nc Ns Nc")]
    hands += [symbols(r[1]) for r in RANKS] + [symbols(r[2]) for r in RANKS]
    for a in hands:
        for b in hands:
            by_power = (table.power(*a) > table.power(*b)) - (table.power(*a) < table.power(*b))
            assert by_power == table.compare(a, b)
            assert table.strength(*a) == table.evaluate(a).strength


def test_clause_a_hand_is_shared_symbol_a_full_card_and_one_symbol_of_another():
    """'hands which are made up of the 3 symbols they played plus the shared symbol'."""
    cards = [parse_card(c) for c in ("Ns+Es", "Nc+Wc", "Ss+SWc", "NEs+NWc")]
    hands = possible_hands(parse_symbol("Ns"), cards)
    assert len(hands) == 4 * 3 * 2
    assert (parse_symbol("Ns"), *symbols("Ns Es"), parse_symbol("Wc")) in hands


# -- the ranking table as data --------------------------------------------------------------
def test_shipped_table_loads_and_validates():
    table = load_ranking_table()
    assert table.rank[-1].pattern == "nothing"
    assert len(table.rank) == 10


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "ranks.toml"
    path.write_text(text, encoding="utf-8")
    return path


RANK_NOTHING = '[[rank]]\nname = "Nothing"\npattern = "nothing"\nstrength = 0\n'


def test_a_designer_table_changes_the_ranks(tmp_path):
    """A table with only Pair above Nothing: a 4 Set Rotate is now Nothing."""
    path = write(
        tmp_path,
        '[[rank]]\nname = "Pair"\npattern = "kind"\nsize = 2\nstrength = 9\n' + RANK_NOTHING,
    )
    table = Ranking(load_ranking_table(path))
    assert table.evaluate(symbols("Ns NEc Es SEc")).name == "Nothing"
    assert table.evaluate(symbols("Ns Nc Es SEc")).strength == 9


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rank = [", "is not TOML"),
        ('[[rank]]\nname = "Pair"\npattern = "kind"\nsize = 2\nstrength = 1\n', "last rank"),
        (
            '[[rank]]\nname = "Pair"\npattern = "kind"\nsize = 5\nstrength = 1\n' + RANK_NOTHING,
            r"rank 1 \(Pair\).*size",
        ),
        (
            '[[rank]]\nname = "Pair"\npattern = "kinds"\nsize = 2\nstrength = 1\n' + RANK_NOTHING,
            r"rank 1 \(Pair\)\.pattern",
        ),
        (
            '[[rank]]\nname = "P"\npattern = "kind"\nsize = 2\nstrength = -1\n' + RANK_NOTHING,
            r"rank 1 \(P\)\.strength",
        ),
        (
            '[[rank]]\nname = "P"\npattern = "kind"\nsize = 2\nstrength = 1001\n' + RANK_NOTHING,
            r"rank 1 \(P\)\.strength.*1000",
        ),
        (RANK_NOTHING + RANK_NOTHING, "repeated: Nothing"),
    ],
)
def test_a_bad_table_is_refused_with_a_clear_error(tmp_path, text, message):
    with pytest.raises(RankingTableError, match=message):
        load_ranking_table(write(tmp_path, text))


def test_a_missing_table_file_is_named():
    with pytest.raises(RankingTableError, match=r"cannot read ranking table nowhere\.toml"):
        load_ranking_table("nowhere.toml")


def test_the_strongest_table_allowed_plays_in_the_compiled_rules(tmp_path):
    """Strengths up to MAX_STRENGTH: 32 rounds of the largest still fit the compiled rules'
    16-bit scores, so a search's compiled playouts take the table (a larger strength is
    refused above, by the table)."""
    path = write(
        tmp_path,
        f'[[rank]]\nname = "Pair"\npattern = "kind"\nsize = 2\nstrength = {MAX_STRENGTH}\n'
        + RANK_NOTHING.replace("strength = 0", f"strength = {MAX_STRENGTH}"),
    )
    game = meeple.make("triangle-clock", ranking=str(path))
    assert sum(fast.playouts(game.new_game(0), 20)) == 20  # every game counted
