"""Edges 'at anytime' (issue 34, item 1) and the end-of-turn draws (issue 34, item 4).

The seed, 'Card Types': "Edges are cards that can be played anytime the card itself states it
can be played. If it does not have a restriction on it, it may be played at anytime." and,
'Turns and phases': "If a player passes their action, they may not receive actions again
during this turn (but may still play edges.)"

On the test content Salve is the unrestricted edge (Medic, <1>: heal a wound of 2 or less),
Block is restricted to 'defending' and Aim to 'attacking'. Sages (0c, 1a, 2c) are Medics.
"""

from __future__ import annotations

import pytest

from meeple.agents import make_agent, play_game
from meeple.core.agent import Observation
from meeple.games.squad_combat.rules import (
    END_DISCARD,
    END_WINDOW,
    PHASE,
    REACT,
    REFRESH_WINDOW,
    Play,
)

from .conftest import cards, character, make, play, position

ANYTIME = "If it does not have a restriction on it, it may be played at anytime."
PASSED = "If a player passes their action, they may not receive actions again during this turn"


def salves(state, seat: int) -> list[str]:
    """The Salve plays ``seat`` is offered now."""
    return [str(a) for a in state.legal_actions(seat) if str(a).startswith("play salve")]


def test_an_unrestricted_edge_answers_an_action_before_it_resolves(game):
    """ANYTIME: before Study resolves, the other seat (then the performer) may play Salve."""
    state = position(
        game, hands={0: "study", 1: "salve"}, decks={0: "jab jab"}, wounds={"1b": "jab"}
    )
    state = play(state, "play study by c")
    assert state.step == (REACT, 1) and state.hands[0] == ()  # Study has not resolved yet
    assert salves(state, 1) == ["play salve by a"]
    state = play(state, "play salve by a")
    assert character(state, "1b").wounds == ()
    # Nobody has anything more to play, so the windows close and Study resolves.
    assert state.hands[0] == cards(game, "jab jab")
    assert state.step == (PHASE, 1)


def test_a_passed_player_may_still_play_edges_before_another_action_resolves(game):
    """PASSED '(but may still play edges.)': Blue has passed and still answers Red's Study."""
    state = position(
        game, hands={0: "study jab", 1: "salve jab"}, decks={0: "jab"}, wounds={"1b": "jab"}
    )
    state = play(state, "play jab by a", "target 1c", "no die")
    state = play(state, *(["no die"] if state.step.kind == "defense die choice" else []))
    while state.step.kind == REACT:
        state = play(state, "done")
    assert state.step == (PHASE, 1)
    state = play(state, "pass")
    assert state.passed[1] and state.step == (PHASE, 0)
    state = play(state, "play study by c")
    assert state.step == (REACT, 1) and salves(state, 1) == ["play salve by a"]


@pytest.mark.parametrize("windows", ["anytime", "own"])
def test_a_dice_refresh_is_an_action_that_an_edge_may_answer_before_it_rolls(windows):
    """ANYTIME, and 'you may take an action and pay the character's "dice refresh" energy
    cost to roll': the energy is paid, then Blue may play Salve before the dice are rolled
    (edge_windows=own: the dice roll at once)."""
    game = make(edge_windows=windows)
    state = position(game, hands={0: "jab", 1: "salve"}, dice={"0a": ()}, wounds={"1b": "jab"})
    state = play(state, "refresh a")
    assert character(state, "0a").spent == 2  # the Knight's refresh cost, paid at once
    if windows == "own":
        assert len(character(state, "0a").dice) == 2 and state.step == (PHASE, 1)
        return
    assert state.step == (REFRESH_WINDOW, 1) and character(state, "0a").dice == ()
    assert salves(state, 1) == ["play salve by a"]
    state = play(state, "play salve by a")
    assert character(state, "1b").wounds == () and len(character(state, "0a").dice) == 2
    assert state.step == (PHASE, 1)


def test_every_seat_gets_a_window_after_an_attacks_dice():
    """ANYTIME: a third player, not in the attack, may play an unrestricted edge after both
    dice are chosen, but not a 'defending' edge (restricted) although it holds one."""
    game = make(players=3)
    state = position(
        game,
        hands={0: "jab", 1: "block", 2: "salve block"},
        dice={"0a": (3,), "1b": (2, 4)},
        wounds={"2a": "jab"},
    )
    state = play(state, "play jab by a", "target 1b", "die 3", "die 2")
    assert state.step == (REACT, 1)  # the defender first, then the attacker, then the rest
    assert state.stack[-1].windows == (1, 0, 2)
    state = play(state, "done")  # Blue keeps its Block; Red has nothing, so is not asked
    assert state.step == (REACT, 2)
    assert [str(a) for a in state.legal_actions(2)] == ["play salve by c", "done"]
    state = play(state, "play salve by c")
    assert character(state, "2a").wounds == ()
    assert character(state, "1b").wounds  # then Jab resolved: 3 >= 2, a hit


def test_the_end_of_a_turn_opens_a_window_before_spent_energy_clears(game):
    """ANYTIME and PASSED: when everyone has passed, each seat (from the lead) may still play
    an unrestricted edge; then spent energy clears and the discards begin."""
    state = position(game, hands={0: "jab", 1: "salve salve"}, wounds={"1b": "jab jab"})
    state = play(state, "pass", "pass")
    assert state.step == (END_WINDOW, 1)  # Red holds nothing playable, so is not asked
    state = play(state, "play salve by a")
    assert character(state, "1a").spent == 1 and len(character(state, "1b").wounds) == 1
    assert state.step == (END_WINDOW, 1)  # a second Salve is still playable
    state = play(state, "done")
    assert state.step == (END_DISCARD, 0)
    assert character(state, "1a").spent == 0  # the Salve's energy cleared with the turn's end
    log = list(state.log)
    assert log.index("Turn 1 ends: spent energy clears.") > log.index(
        "Salve removes a wound of 2 from Blue Knight (1b): 4 of 6 life left."
    )


def test_a_seat_with_nothing_playable_is_asked_only_under_always_prompts():
    """reaction_prompts keeps its meaning: 'playable' skips a seat with nothing to play;
    'always' asks it (only 'done'), so the table learns nothing of its hand."""
    quiet = position(make(), hands={0: "study", 1: "jab"}, decks={0: "jab jab"})
    assert play(quiet, "play study by c").step == (PHASE, 1)
    asked = position(
        make(reaction_prompts="always"), hands={0: "study", 1: "jab"}, decks={0: "jab jab"}
    )
    state = play(asked, "play study by c")
    assert state.step == (REACT, 1) and [str(a) for a in state.legal_actions(1)] == ["done"]
    state = play(state, "done")
    assert state.step == (REACT, 0)


def test_edge_windows_own_keeps_the_narrow_windows():
    """edge_windows=own: no window before an action, none for a third seat, none at the end."""
    state = position(
        make(edge_windows="own"),
        hands={0: "study", 1: "salve"},
        decks={0: "jab jab"},
        wounds={"1b": "jab"},
    )
    state = play(state, "play study by c")
    assert state.step == (PHASE, 1)
    state = play(state, "play salve by a", "pass", "pass")
    assert state.step.kind == END_DISCARD
    three = position(
        make(players=3, edge_windows="own"),
        hands={0: "jab", 1: "block", 2: "salve"},
        dice={"0a": (3,), "1b": (2,)},
        wounds={"2a": "jab"},
    )
    three = play(three, "play jab by a", "target 1b", "die 3", "die 2")
    assert three.step == (PHASE, 1) and character(three, "2a").wounds  # Green never asked


def test_an_action_whose_aim_an_edge_took_away_has_no_effect(game):
    """Mend is aimed at 0a's only wound; in the window before Mend resolves, Red's own Salve
    heals it first: Mend then has nothing to act on (no crash, no second wound removed)."""
    state = position(game, hands={0: "mend salve"}, wounds={"0a": "jab"})
    state = play(state, "play mend by c")
    assert state.step == (REACT, 0)  # Blue holds nothing; Red, the performer, is asked last
    state = play(state, "play salve by c")
    assert character(state, "0a").wounds == ()
    assert "Mend has nothing left to act on and no effect." in state.log


@pytest.mark.parametrize("draws", ["seat-by-seat", "all-at-once"])
def test_end_of_turn_draws_seat_by_seat_or_all_at_once(draws):
    """'Each player may then discard up to two cards from their hand, then draw up to their
    hand size': seat by seat, Red draws before Blue discards; all at once, nobody draws
    until every seat has discarded."""
    game = make(end_draws=draws)
    state = position(game, hands={0: "block block", 1: "block"}, decks={0: "jab jab jab jab jab"})
    state = play(state, "pass", "pass", "discard block")
    assert state.step == (END_DISCARD, 0)
    state = play(state, "done")
    assert state.step == (END_DISCARD, 1)
    assert len(state.hands[0]) == (5 if draws == "seat-by-seat" else 1)
    state = play(state, "done")
    assert len(state.hands[0]) == 5 and state.step.kind == PHASE


def test_the_heuristic_plays_an_unrestricted_edge_at_the_end_of_the_turn(game):
    """It keeps Salve through the turn and plays it when the turn ends (energy clears)."""
    state = position(game, hands={0: "jab", 1: "salve"}, wounds={"1b": "jab"})
    state = play(state, "pass", "pass")
    agent = make_agent("heuristic", game, seed=1)
    action = agent.act(Observation(state, 1))
    assert isinstance(action, Play) and action.card == "salve"


@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts:iterations=4,rollout_limit=30"])
def test_agents_play_three_player_games_with_every_window_to_the_end(spec):
    """Every agent handles the new windows (the property tests play many random games)."""
    game = make(players=3, reaction_prompts="always", turn_limit=4)
    agents = [make_agent(spec, game, seed) for seed in range(3)]
    asked: set[str] = set()
    result = play_game(
        game, agents, seed=5, on_move=lambda obs, action, after: asked.add(obs.view["step"]["kind"])
    )
    assert result.state.is_over
    assert {END_WINDOW, REACT} <= asked
