"""Moves said to lose before they are made (``State.move_warnings``): an Erd allocation that
loses the game whatever the other seat allocates, or can lose it by the mercy rule."""

from __future__ import annotations

import random

import pytest

import meeple


@pytest.mark.parametrize("rules", ["0.02", "0.01", "original"])
def test_an_allocation_that_can_lose_by_the_mercy_rule_is_said_before_it_is_made(rules):
    """A newcomer lost game 1 by the mercy rule with no word before the reveal: the moves
    that lose whatever the other seat allocates, or can lose by the mercy rule, are said
    (State.move_warnings), each against how many replies, as playing them out finds."""
    game = meeple.make("erd", rules=rules)
    state = game.new_game(0)
    warnings = state.move_warnings(0)
    replies = state.legal_actions(1)
    # The original sketch's 316 allocations a side: a seeded sample of them against all.
    mine_all = state.legal_actions(0)
    sample = mine_all if len(mine_all) < 100 else random.Random(0).sample(mine_all, 30)
    for mine in sample:
        ends = [state.apply(0, mine).apply(1, reply).games for reply in replies]
        lost = [g[-1] for g in ends if g and g[-1].winner == 1]
        mercy = [end for end in lost if end.reason == "mercy"]
        pre = [end for end in lost if end.reason == "pre_escalation"]
        said = warnings.get(str(mine))
        if len(lost) == len(replies):
            assert said is not None and "whatever Blue allocates" in said, (mine, said)
        elif mercy or pre:
            assert said is not None, mine
            if mercy:
                assert "by the mercy rule (no Heavy and at most" in said, said
                can = f"of the {len(replies)} allocations Blue can make"
                assert f"), against {len(mercy)} {can}" in said
            # A newcomer warned of the mercy rule alone lost by this one.
            win = "by a pre-Escalation win (Blue alone keeping non-Decoys in Reserve right"
            assert (win in said) == bool(pre), said
            if pre:
                can = f"of the {len(replies)} allocations Blue can make"
                assert said.endswith(f"), against {len(pre)} {can}")
        else:
            assert said is None, (mine, said)
    if rules == "original":  # no mercy rule in the sketch
        assert not any("mercy" in w for w in warnings.values())
    else:
        assert any("mercy" in w for w in warnings.values())
    if rules == "0.02":  # the newcomer's: two Lights and no Heavy left while Blue keeps one
        assert "rush=HLD defense=HHD" in warnings
        assert "pre-Escalation win" in warnings["rush=LLL defense=HHH"]
