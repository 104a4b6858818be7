"""Erd's starting Reserves and mercy rule as options (issue 59, item 6), so the next
experiment of docs/erd-solved.md runs from the command line."""

from __future__ import annotations

import pytest

import meeple
from meeple.core.errors import OptionError
from meeple.games.erd.pieces import VERSIONS, Cards
from meeple.games.erd.rounds import mercy_losers
from meeple.lab.run import RunSpec
from meeple.lab.simulate import play_job

from .conftest import play_round, position, side


def test_a_starting_reserve_is_given_in_letters():
    game = meeple.make("erd", reserve="hhhllllDDDDDD")
    assert game.options.reserve == "HHHLLLLDDDDDD"
    state = game.new_game(0)
    assert all(s.reserve == Cards(3, 4, 6) for s in state.sides)
    rules = game.player_rules()
    assert "**13 cards**" in rules and "| Light (`L`) | 4 |" in rules
    # Every allocation the larger Reserve allows is legal at the start.
    assert any(a.rush.light + a.defense.light == 4 for a in state.legal_actions(0))
    assert meeple.make("erd").version.starting_reserve == Cards(3, 3, 6)
    assert meeple.make("erd", rules="original", reserve="rules").version.starting_reserve == Cards(
        3, 3, 3
    )


@pytest.mark.parametrize(
    ("value", "words"),
    [("HHX", "'X' in 'HHX' is not a card"), ("-", "1 to 30 cards, not 0"), ("H" * 31, "not 31")],
)
def test_a_reserve_that_is_not_one_is_refused_in_words(value, words):
    with pytest.raises(OptionError, match=words):
        meeple.make("erd", reserve=value)


def test_the_mercy_rule_can_be_another_versions_softer_or_none():
    assert meeple.make("erd").version.mercy == "0.02"
    assert meeple.make("erd", mercy="none").version.mercy is None
    assert meeple.make("erd", rules="original", mercy="0.01").version.mercy == "0.01"
    empty = meeple.make("erd", mercy="empty").version
    # One Light left: 0.01 and 0.02 (against a Heavy) catch it, the empty rule does not.
    sides = (side("LD"), side("HLD"))
    assert mercy_losers(VERSIONS["0.01"], sides) == (0,)
    assert mercy_losers(VERSIONS["0.02"], sides) == (0,)
    assert mercy_losers(empty, sides) == ()
    assert mercy_losers(empty, (side("DDD"), side("HLD"))) == (0,)
    assert mercy_losers(empty, (side("D"), side("-"))) == (0, 1)
    no_mercy = meeple.make("erd", mercy="none").player_rules()
    assert "There is no mercy rule in these rules." in no_mercy
    assert "no Heavy and no Light in Reserve" in meeple.make("erd", mercy="empty").player_rules()


def _reasons(options: dict) -> list[str]:
    spec = RunSpec(kind="simulate", game="erd", options=options, seatings=[["random", "random"]])
    return [row["reason"].lower() for row in (play_job(spec.job(k)) for k in range(40))]


def test_without_a_mercy_rule_no_game_ends_by_it():
    assert any("mercy" in r for r in _reasons({"best_of": 1}))
    assert not any("mercy" in r for r in _reasons({"best_of": 1, "mercy": "none"}))


@pytest.mark.parametrize("reserve", ["HHHHLLLDDDDDD", "HHLLLDDDDDD"])
def test_escalation_comes_when_every_heavy_of_another_starting_reserve_is_discarded(reserve):
    """'if all six Heavies are in the discard piles': with a ``reserve`` of four or two Heavies
    each, an Escalation comes when all of them are discarded, not at a count of six."""
    game = meeple.make("erd", best_of=1, reserve=reserve)
    heavies = Cards.parse(reserve).heavy
    discard = "H" * (heavies - 1)
    state = position(game, side("HLLLDDDDDD", discard), side("HLLLDDDDDD", discard))
    after = play_round(state, "rush=LLL defense=HDD", "rush=LLL defense=HDD")
    assert after.last is not None and after.last.escalation
    assert all(s.reserve.heavy == 1 for s in after.sides)
    assert f"When all {2 * heavies} Heavies" in game.player_rules()


def test_the_escalation_lights_option_names_no_count_a_reserve_changes():
    """``--escalation-lights`` reads 'all Lights' of both players or each player's own: with
    ``--reserve`` those are other numbers than the rules' six and three, and the option's
    description (in ``meeple rules`` and ``--help``, whatever the Reserve) names none."""
    from meeple.core.options import describe_options
    from meeple.games.erd.rules import ErdOptions

    (info,) = [o for o in describe_options(ErdOptions) if o.name == "escalation_lights"]
    assert "all the Lights of both players, or each player's own Lights" in info.help
    numbers = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    assert not [w for w in info.help.replace(",", " ").split() if w in numbers or w.isdigit()]
