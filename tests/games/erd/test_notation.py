"""Allocation notation (`rush=HHL defense=LDD`) and the integer encoding of actions."""

from __future__ import annotations

import pytest

from meeple.core.errors import NotationError, OptionError
from meeple.core.game import ActionIdError
from meeple.games.erd import Allocate, Cards

from .conftest import erd


@pytest.mark.parametrize(("rules", "count"), [("original", 316), ("0.01", 344), ("0.02", 344)])
def test_every_action_round_trips_through_notation_and_ids(rules, count):
    """Every (Rush, Defense) pair of piles of at most three cards the starting Reserve can
    supply has an id, and its notation reads back to the same action."""
    game = erd(rules=rules)
    assert game.num_actions == count
    for action_id in range(game.num_actions):
        action = game.action_from_id(action_id)
        assert game.action_id(action) == action_id
        assert game.parse_action(str(action)) == action


def test_notation_example_from_the_issue():
    game = erd()
    action = game.parse_action("rush=HHL defense=LDD")
    assert action == Allocate(Cards(2, 1, 0), Cards(0, 1, 2))
    assert str(action) == "rush=HHL defense=LDD"


def test_empty_pile_is_a_dash():
    game = erd(rules="original")
    action = game.parse_action("rush=- defense=HD")
    assert action == Allocate(Cards(), Cards(1, 0, 1))
    assert str(action) == "rush=- defense=HD"
    assert str(game.parse_action("rush=  defense=-")) == "rush=- defense=-"


@pytest.mark.parametrize(
    "text",
    ["defense=ldd rush=hlh", "RUSH=LHH, DEFENSE=DLD", "r=HHL d=LDD", "rush = HHL  defence = DDL"],
)
def test_notation_is_forgiving_and_writes_one_canonical_form(text):
    """Piles in either order, any case, letters in any order; Heavies, Lights, Decoys out."""
    assert str(erd().parse_action(text)) == "rush=HHL defense=LDD"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rush=HHX defense=LDD", "'X' in 'HHX' is not a card"),
        ("rush=HHL", "no defense pile"),
        ("defense=HHL", "no rush pile"),
        ("", "no rush and no defense pile"),
        ("rush=H rush=L defense=-", "the rush pile is given twice"),
        ("attack=H defense=L", "'attack' is not a pile"),
        ("HHL LDD", "is not part of an Erd allocation"),
    ],
)
def test_bad_notation_says_what_is_wrong(text, message):
    with pytest.raises(NotationError, match=message):
        erd().parse_action(text)


@pytest.mark.parametrize(
    ("rules", "offered"), [("0.01", False), ("0.02", False), ("original", True)]
)
def test_a_card_misspelt_is_told_the_letters_and_an_empty_pile_only_where_the_rules_have_one(
    rules, offered
):
    """Versions 0.01 and 0.02 take exactly three cards a pile: "or - for an empty pile" in
    their refusal offered what they refuse; a Reserve is never empty either."""
    with pytest.raises(NotationError) as refused:
        erd(rules=rules).parse_action("rush=HHX defense=DDD")
    assert "use H (Heavy), L (Light), D (Decoy)" in str(refused.value)
    assert ("empty pile" in str(refused.value)) is offered
    with pytest.raises(OptionError) as reserve:
        erd(reserve="HHX")
    assert "not a card" in str(reserve.value) and "empty pile" not in str(reserve.value)


def test_notation_help_is_one_line_with_an_example():
    for rules in ("original", "0.02"):
        text = erd(rules=rules).notation_help()
        assert "\n" not in text and "rush=HHL defense=LDD" in text
    assert "exactly three" in erd().notation_help()
    assert "up to three" in erd(rules="original").notation_help()


def test_ids_outside_the_encoding_are_refused():
    game = erd()
    with pytest.raises(ActionIdError, match="no action id"):
        game.action_from_id(game.num_actions)
    with pytest.raises(ActionIdError, match="is not an action of Erd"):
        game.action_id(game.parse_action("rush=HHHH defense=-"))
