"""A count in a sentence is written with its noun in the right number."""

from __future__ import annotations

import pytest

from meeple.core.words import counted, listed, signed_count


@pytest.mark.parametrize(
    ("number", "noun", "plural", "written"),
    [
        (0, "move", None, "0 moves"),
        (1, "move", None, "1 move"),
        (2, "card", None, "2 cards"),
        (1, "try", "tries", "1 try"),
        (3, "try", "tries", "3 tries"),
        (12000, "game", None, "12,000 games"),
    ],
)
def test_a_count_takes_its_noun_in_the_right_number(number, noun, plural, written):
    assert counted(number, noun, plural) == written


@pytest.mark.parametrize(
    ("value", "written"),
    [(1, "+1 point"), (-1, "-1 point"), (0, "+0 points"), (3.0, "+3 points"), (-2, "-2 points")],
)
def test_a_signed_count_takes_its_noun_in_the_right_number(value, written):
    assert signed_count(value, "point") == written


@pytest.mark.parametrize(
    ("words", "written"),
    [
        (["Alps"], "Alps"),
        (["Alps", "Andes"], "Alps and Andes"),
        (iter(["Alps", "Andes", "Rockies"]), "Alps, Andes and Rockies"),
    ],
)
def test_a_list_in_a_sentence_has_and_before_its_last(words, written):
    assert listed(words) == written


def test_a_list_of_choices_has_or_before_its_last():
    assert listed(["2", "3", "4"], "or") == "2, 3 or 4"
    assert listed(["2", "4"], "or") == "2 or 4" and listed(["2"], "or") == "2"
