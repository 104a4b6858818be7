"""Squad Combat rules, clause by clause against the seed (002_8ed54241b70c077f.txt, v0.5).

Positions are built by hand on the small test content (``content/``): seat 0 plays Alpha
(0a Knight, 0b Archer, 0c Sage), seat 1 plays Beta (1a Sage, 1b Knight, 1c Archer).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

import meeple
from meeple.core.conformance import random_playthrough
from meeple.core.errors import IllegalAction, OptionError
from meeple.games.squad_combat import Die, NoDie, Pass, Play, Target
from meeple.games.squad_combat.explain import NO_CARD_STEPS
from meeple.games.squad_combat.reading import WINDOWS
from meeple.games.squad_combat.rules import (
    ATTACK_DIE,
    DEFENSE_DIE,
    DROP,
    END_DISCARD,
    PAY_CARD,
    PAY_DIE,
    PHASE,
    REACT,
    TARGET,
)

from .conftest import cards, character, make, play, position


def keys(state, seat):
    return [state.game.cards[k].key for k in state.hands[seat]]


# -- setup ----------------------------------------------------------------------------------
def test_clause_setup_three_characters_in_a_row(game):
    """'each player places their three characters in a row in front of them' (deck order,
    left to right)."""
    state = game.new_game(5)
    names = [[game.characters[c.card].key for c in party] for party in state.parties]
    assert names == [["knight", "archer", "sage"], ["sage", "knight", "archer"]]


def test_clause_setup_shuffle_decks_and_draw_five(game):
    """'They then shuffle and cut their decks, and each player draws 5 cards.'"""
    orders = set()
    for seed in range(6):
        state = game.new_game(seed)
        for seat in range(2):
            assert len(state.hands[seat]) == 5
            assert len(state.decks[seat]) == 15
            assert Counter(state.hands[seat] + state.decks[seat]) == Counter(game.decklists[seat])
        orders.add(state.decks[0])
    assert len(orders) == 6, "each seed shuffles the deck differently"


def test_clause_setup_dice_rolled_per_character_left_to_right(game):
    """'roll dice equal to each character's dice pool value and place those dice onto each
    character ... one character at a time, and in order from left to right.'"""
    state = game.new_game(3)
    for party in state.parties:
        for ch in party:
            assert len(ch.dice) == game.characters[ch.card].dice_pool
            assert all(1 <= d <= 6 for d in ch.dice)
    rolls = [line for line in state.log if " rolls " in line]
    assert [line.split("(")[1][:2] for line in rolls] == ["0a", "0b", "0c", "1a", "1b", "1c"]


def test_clause_random_first_player_and_order_to_the_left():
    """'Randomly decide who takes the first turn. Turn order then proceeds around the table
    to the left of the first player.'"""
    game = make(players=4, first="random")
    firsts = Counter(game.new_game(seed).order[0] for seed in range(80))
    assert set(firsts) == {0, 1, 2, 3}
    state = make(players=4, first=2).new_game(0)
    assert state.order == (2, 3, 0, 1)
    assert state.to_act == (2,)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players(players):
    state = make(players=players).new_game(0)
    assert len(state.parties) == players == len(state.hands)


def test_five_players_is_refused():
    with pytest.raises(OptionError, match="players"):
        make(players=5)


def test_same_seed_same_game(game):
    assert game.new_game(9) == game.new_game(9)
    assert game.new_game(9) != game.new_game(10)


# -- paying costs ---------------------------------------------------------------------------
def test_clause_energy_cost_spends_energy(game):
    """'place spent energy/burden tokens on the character equal to the card's cost.'"""
    state = position(game, hands={0: "jab study", 1: "jab"}, dice={"0a": ()})
    state = play(state, "play jab by a")
    assert character(state, "0a").spent == 1
    assert state.energy_left(0, 0) == 3


def test_clause_energy_cost_needs_energy_left(game):
    """'current energy (their total energy minus their burden/spent energy tokens) must be
    equal to or greater than the energy cost'."""
    state = position(game, hands={0: "jab lunge"}, spent={"0a": 3}, dice={"0a": (6,)})
    legal = [str(a) for a in state.legal_actions(0)]
    assert "play jab by a" in legal  # 1 energy left pays <1>
    assert "play lunge by a" not in legal  # but not <3>[1]
    said = r"cannot pay <3>\[1\] \(3 energy and a die of 1 or more\): energy left 1, dice 6;"
    with pytest.raises(IllegalAction, match=said):  # what the cost asks, in words, and only that
        state.apply_text(0, "play lunge by a")
    spent = position(game, hands={0: "jab lunge"}, spent={"0a": 4}, dice={"0a": (6,)})
    with pytest.raises(IllegalAction, match=r"cannot pay <1> \(1 energy\): energy left 0;"):
        spent.apply_text(0, "play jab by a")  # "other cards in hand 1" was said too


def test_clause_die_cost_needs_a_die_meeting_each_value(game):
    """'[2][4] - the performing character must spend two dice, one with a value of two or
    greater and one with a value of 4 or greater.'"""
    short = position(game, hands={0: "volley"}, dice={"0b": (1, 6)})
    assert "play volley by b" not in map(str, short.legal_actions(0))
    low = position(game, hands={0: "volley"}, dice={"0b": (3, 3)})
    assert "play volley by b" not in map(str, low.legal_actions(0))
    exact = position(game, hands={0: "volley"}, dice={"0b": (2, 4)})
    state = play(exact, "play volley by b")
    assert character(state, "0b").dice == (), "a single way to pay is made for the player"
    assert state.step.kind == TARGET


def test_clause_die_cost_player_chooses_which_die(game):
    """'remove a die from their dice pool that meets or exceeds the value of the die on the
    card': with several dice that do, the player chooses (highest cost first)."""
    state = position(game, hands={0: "volley"}, dice={"0b": (3, 5, 6)})
    state = play(state, "play volley by b")
    assert state.step.kind == PAY_DIE
    assert [str(a) for a in state.legal_actions(0)] == ["pay 5", "pay 6"]
    state = play(state, "pay 6")
    assert [str(a) for a in state.legal_actions(0)] == ["pay 3", "pay 5"]
    state = play(state, "pay 3")
    assert character(state, "0b").dice == (5,)


def test_clause_combined_cost_energy_and_any_die(game):
    """'<3>[1] - Means the performing character must pay 3 energy and spend 1 die of any
    value.'"""
    state = position(game, hands={0: "lunge"}, dice={"0a": (1, 6)})
    state = play(state, "play lunge by a")
    assert character(state, "0a").spent == 3
    assert [str(a) for a in state.legal_actions(0)] == ["pay 1", "pay 6"]
    state = play(state, "pay 1")
    assert character(state, "0a").dice == (6,)


def test_clause_card_cost_discards_a_card_of_any_kind(game):
    """'To pay a card cost, the character's controller discards a card' ('the player may
    discard any types or traits of cards')."""
    state = position(game, hands={0: "hex jab block", 1: "jab"})
    state = play(state, "play hex by c")
    assert state.step.kind == PAY_CARD
    assert [str(a) for a in state.legal_actions(0)] == ["discard jab", "discard block"]
    state = play(state, "discard block")
    assert keys(state, 0) == ["jab"]
    assert state.discards[0] == cards(game, "block")


def test_clause_card_cost_needs_another_card_in_hand(game):
    """'You must also have additional cards in your hand equal to or greater than the card's
    discard cost'."""
    alone = position(game, hands={0: "hex"})
    assert "play hex by c" not in map(str, alone.legal_actions(0))
    with pytest.raises(IllegalAction, match="other cards in hand 0"):
        alone.apply_text(0, "play hex by c")


def test_clause_energy_dice_and_card_costs_together(game):
    """Costs 'sometimes in more than one of those types': Blast is <2>[3]C."""
    state = position(game, hands={0: "blast jab"}, dice={"0c": (3, 4, 5)})
    state = play(state, "play blast by c")
    assert character(state, "0c").spent == 2
    state = play(state, "pay 4")
    assert character(state, "0c").dice == (3, 5)
    assert state.step.kind == TARGET, "the only card left pays the C by itself"
    assert keys(state, 0) == [] and state.discards[0] == cards(game, "jab")


# -- traits ---------------------------------------------------------------------------------
def test_clause_character_must_share_a_trait(game):
    """'A character must have at least one trait on their character card that matches a
    trait on the card being played. If they do not, then they are not eligible'."""
    state = position(game, hands={0: "jab"}, dice={"0b": (6, 6)})
    legal = [str(a) for a in state.legal_actions(0)]
    assert "play jab by a" in legal and "play jab by b" not in legal
    with pytest.raises(IllegalAction, match="Archer shares no trait with Jab"):
        state.apply_text(0, "play jab by b")


def test_clause_any_one_of_several_traits_matches(game):
    """The Sage (Arcane/Medic) performs Arcane and Medic cards alike."""
    state = position(game, hands={0: "hex mend jab"}, wounds={"0a": "jab"})
    legal = [str(a) for a in state.legal_actions(0)]
    assert "play hex by c" in legal and "play mend by c" in legal
    assert "play jab by c" not in legal


# -- turns ----------------------------------------------------------------------------------
def test_clause_action_phases_in_turn_order_repeat(game):
    """'After the first player takes an action, each other player gets an action phase, in
    turn order. After all players have received an action phase, the order repeats'."""
    state = position(game, hands={0: "study study", 1: "study study"}, decks={0: "jab jab jab"})
    seats = []
    for _ in range(3):
        seats.append(state.to_act[0])
        state = play(state, "play study by c" if state.to_act[0] == 0 else "play study by a")
    assert seats == [0, 1, 0]


def test_clause_pass_ends_your_actions_for_the_turn(game):
    """'If a player passes their action, they may not receive actions again during this
    turn'."""
    state = position(game, hands={1: "study study"}, decks={1: "jab jab jab jab"})
    state = play(state, "pass")
    assert state.passed[0]
    state = play(state, "play study by a")
    assert state.step == (PHASE, 1), "seat 0 passed, so seat 1 acts again"


def test_clause_all_pass_ends_the_turn_and_clears_spent_energy(game):
    """'If all players pass, the turn ends. At the end of each turn, remove all spent focus
    counters from characters in play.'"""
    state = position(game, hands={0: "jab", 1: "jab"}, spent={"0a": 2, "1b": 4})
    state = play(state, "pass", "pass")
    assert state.turn == 1 and state.step.kind == END_DISCARD
    assert all(c.spent == 0 for party in state.parties for c in party)
    state = play(state, "done", "done")
    assert state.turn == 2 and state.step == (PHASE, 0)
    assert state.passed == (False, False)


def test_clause_dice_values_are_stored_until_spent(game):
    """'When you roll a die, the value it rolls is stored until spent or otherwise altered':
    the end of a turn clears spent energy, not dice."""
    state = position(game, hands={0: "jab", 1: "jab"}, dice={"0a": (1, 2), "1b": (6,)})
    state = play(state, "pass", "pass", "done", "done")
    assert state.turn == 2
    assert character(state, "0a").dice == (1, 2) and character(state, "1b").dice == (6,)


def test_clause_end_of_turn_discard_up_to_two_then_draw(game):
    """'Each player may then discard up to two cards from their hand, then draw up to their
    hand size (default 5.)'"""
    state = position(
        game,
        hands={0: "jab jab block aim", 1: "jab"},
        decks={0: "volley volley hex", 1: "study study study study study"},
    )
    state = play(state, "pass", "pass")
    assert state.step == (END_DISCARD, 0)
    state = play(state, "discard jab", "discard aim")
    assert state.discards[0] == cards(game, "jab aim")
    assert sorted(keys(state, 0)) == ["block", "hex", "jab", "volley", "volley"]
    assert state.step == (END_DISCARD, 1), "two discards end seat 0's choice"
    state = play(state, "done")
    assert keys(state, 1) == ["jab", "study", "study", "study", "study"]


def test_clause_empty_deck_reshuffles_its_discard_pile(game):
    """gaps.md: an empty deck reshuffles its discard pile when a card must be drawn."""
    state = position(
        game,
        hands={0: "jab", 1: "jab"},
        decks={0: "", 1: "jab"},
        discards={0: "hex hex aim volley"},
    )
    state = play(state, "pass", "pass", "done", "done")
    assert len(state.hands[0]) == 5 and state.decks[0] == () and state.discards[0] == ()
    assert any("shuffles 4 discarded cards" in line for line in state.log)
    assert state.hands[1] == cards(game, "jab jab"), "nothing to reshuffle: draw what there is"


def test_clause_passed_player_may_still_play_edges(game):
    """'If a player passes their action, they may not receive actions again during this
    turn (but may still play edges.)'"""
    state = position(
        game, hands={0: "study jab", 1: "block"}, dice={"0a": (), "1b": (2,)}, decks={0: "jab"}
    )
    state = play(state, "play study by c", "pass", "play jab by a", "target 1b")
    assert state.step == (DEFENSE_DIE, 1)
    state = play(state, "no die")
    assert state.step == (REACT, 1)
    assert "play block by b" in map(str, state.legal_actions(1))


def test_refresh_dice_rolls_the_pool_and_keeps_the_players_choice(game):
    """'pay the character's dice refresh energy cost to roll a number of dice equal to the
    character's dice pool value and add them to the character. Then, remove dice from the
    character until they no longer have more dice on them than their dice pool value.'"""
    state = position(game, hands={0: "jab"}, dice={"0a": (1, 1)})
    state = play(state, "refresh a")
    knight = character(state, "0a")
    assert knight.spent == 2
    assert len(knight.dice) == 4 and knight.dice.count(1) >= 2
    rolled = sorted(knight.dice)
    assert state.step == (DROP, 0), "four dice on a pool of two: the player trims"
    assert [str(a) for a in state.legal_actions(0)] == [f"drop {v}" for v in sorted(set(rolled))]
    state = play(state, "drop 1", "drop 1")
    assert character(state, "0a").dice == tuple(rolled[2:])
    assert state.step == (PHASE, 1), "the refresh was seat 0's action"


def test_refresh_needs_its_energy(game):
    """The refresh cost is paid in energy; without it there is no refresh."""
    state = position(game, hands={0: "jab"}, spent={"0a": 3})
    assert "refresh a" not in map(str, state.legal_actions(0))
    with pytest.raises(IllegalAction, match="costs 2 energy; it has 1 left"):
        state.apply_text(0, "refresh a")


def test_refresh_with_room_for_the_new_dice_keeps_them_all(game):
    state = position(game, hands={0: "jab"}, dice={"0a": ()})
    state = play(state, "refresh a")
    assert len(character(state, "0a").dice) == 2
    assert state.step == (PHASE, 1)


# -- attacks --------------------------------------------------------------------------------
def attack_position(game, **extra):
    """Seat 0 about to attack with Jab (<1>, hit +0, damage 2) from the Knight."""
    options = {"hands": {0: "jab study", 1: "study"}, "dice": {"0a": (3, 5), "1b": (2, 4)}}
    options.update(extra)
    return position(game, **options)


def test_clause_attack_steps_in_order(game):
    """Steps 1-3: pay and become the attacker; choose an enemy defender; the attacker's die
    first, then the defender's."""
    state = play(attack_position(game), "play jab by a")
    assert state.step == (TARGET, 0)
    assert [str(a) for a in state.legal_actions(0)] == ["target 1a", "target 1b", "target 1c"]
    state = play(state, "target 1b")
    assert state.step == (ATTACK_DIE, 0)
    assert [str(a) for a in state.legal_actions(0)] == ["no die", "die 3", "die 5"]
    state = play(state, "die 3")
    assert state.step == (DEFENSE_DIE, 1), "the defender decides the defense die"
    assert [str(a) for a in state.legal_actions(1)] == ["no die", "die 2", "die 4"]


def test_clause_declined_dice_count_as_zero_and_ties_hit(game):
    """'If a player declines to play a die, treat it as though they played a die with a
    value of 0.' and 'If the attack rating is equal to or greater than the defense rating,
    the attack hits'."""
    state = play(attack_position(game), "play jab by a", "target 1b", "no die", "no die")
    assert character(state, "1b").wounds == ((cards(game, "jab")[0], 0),)
    assert character(state, "0a").dice == (3, 5) and character(state, "1b").dice == (2, 4)
    assert any("attack 0 >= defense 0" in line for line in state.log)


def test_clause_hit_when_attack_rating_at_least_defense(game):
    """Step 5 with dice: 4 against 4 hits."""
    state = position(game, hands={0: "jab", 1: "study"}, dice={"0a": (4,), "1b": (4,)})
    state = play(state, "play jab by a", "target 1b", "die 4", "die 4")
    assert len(character(state, "1b").wounds) == 1
    assert character(state, "0a").dice == () and character(state, "1b").dice == ()


def test_clause_missed_attacks_are_discarded(game):
    """'Missed attacks are discarded.'"""
    state = play(attack_position(game), "play jab by a", "target 1b", "die 3", "die 4")
    assert character(state, "1b").wounds == ()
    assert state.discards[0] == cards(game, "jab")
    assert any("misses" in line and "attack 3 < defense 4" in line for line in state.log)


def test_clause_hit_places_the_attack_under_the_defender(game):
    """'the attack hits and wounds the defender. Place the attack underneath the defending
    character' -- it is a wound, not a discard."""
    state = play(attack_position(game), "play jab by a", "target 1b", "die 5", "die 4")
    assert [game.cards[w.card].key for w in character(state, "1b").wounds] == ["jab"]
    assert state.discards[0] == ()
    assert state.damage(1, 1) == 2


def test_clause_attack_modifier_adds_to_the_attack_die(game):
    """Step 4: 'Add any attack or defense modifiers ... (including the attack modifier on
    the attack being used.)' Volley has hit +2: die 2 + 2 beats a defense of 3."""
    state = position(game, hands={0: "volley", 1: "study"}, dice={"0b": (2, 4, 2), "1c": (3,)})
    state = play(state, "play volley by b", "target 1c", "die 2", "die 3")
    assert len(character(state, "1c").wounds) == 1
    # The log says what made the rating, where the die alone did not, and the life left as
    # the page's heart shows it ("(2/5)" beside a heart of 3/5 read as a contradiction).
    hit = next(line for line in state.log if "attack 4 (die 2, hit +2) >= defense 3" in line)
    life = game.characters[character(state, "1c").card].life
    left = life - state.damage(1, 2)
    assert hit.endswith(f": {left} of {life} life left."), hit


def test_clause_defense_edge_in_the_reaction_window(game):
    """Edges 'can be played anytime the card itself states': Block (defending, +3 defense)
    turns a hit into a miss; the defender answers first (gaps.md)."""
    state = position(game, hands={0: "jab", 1: "block"}, dice={"0a": (5,), "1b": (1, 3)})
    state = play(state, "play jab by a", "target 1b", "die 5", "die 3")
    assert state.step == (REACT, 1)
    state = play(state, "play block by b")
    # Block costs [1]: the Knight's last die pays it. No edge is left in either hand, so
    # the windows close by themselves and the attack resolves.
    assert character(state, "1b").dice == ()
    assert character(state, "1b").wounds == ()
    assert any("attack 5 < defense 6 (die 3, edges +3)" in line for line in state.log)
    assert state.discards[1] == cards(game, "block")


def test_clause_attack_edge_answers_the_defense(game):
    """The attacker's window comes after the defender's (default): Aim (+2 attack) lands a
    hit the defense die had stopped."""
    state = position(game, hands={0: "volley aim", 1: "study"}, dice={"0b": (2, 4, 1), "1c": (4,)})
    state = play(state, "play volley by b", "target 1c", "die 1", "die 4")
    assert state.step == (REACT, 0)
    state = play(state, "play aim by b")  # no edge left: the window closes by itself
    assert len(character(state, "1c").wounds) == 1
    assert any("attack 5 (die 1, hit +2, edges +2) >= defense 4" in line for line in state.log)


def test_reaction_order_option_attacker_first():
    """Option reactions=attacker-first: the attacker's window opens first."""
    game = make(reactions="attacker-first")
    state = position(
        game, hands={0: "volley aim", 1: "block"}, dice={"0b": (2, 4, 1), "1b": (4, 1)}
    )
    state = play(state, "play volley by b", "target 1b", "die 1", "die 4")
    assert state.step == (REACT, 0)
    state = play(state, "done")
    assert state.step == (REACT, 1)


def test_reaction_prompts_always_opens_every_window():
    """Option reaction_prompts=always: a window opens even with no playable edge, so the
    prompt never tells the opponents what is in a hand."""
    quiet = position(make(), hands={0: "jab", 1: "study"}, dice={"0a": (), "1b": ()})
    assert play(quiet, "play jab by a", "target 1b").step.kind == PHASE
    asked = position(
        make(reaction_prompts="always"), hands={0: "jab", 1: "study"}, dice={"0a": (), "1b": ()}
    )
    state = play(asked, "play jab by a", "target 1b")
    assert state.step == (REACT, 1)
    assert [str(a) for a in state.legal_actions(1)] == ["done"]


def test_a_character_without_dice_is_said_to_have_none_not_to_decline():
    """With no die on the character, 'no die' is its only choice and is made for it: the
    log said it "declines the defense die", a choice nobody was asked to make."""
    state = play(
        position(make(), hands={0: "jab"}, dice={"0a": (5,), "1b": ()}),
        "play jab by a",
        "target 1b",
        "die 5",
    )
    said = [line for line in state.log if "(counts as 0)" in line]
    assert said == ["Blue Knight (1b) has no die for the defense (counts as 0)."], said
    asked = play(
        position(make(), hands={0: "jab"}, dice={"0a": (5,), "1b": (2,)}),
        "play jab by a",
        "target 1b",
        "die 5",
        "no die",
    )
    assert "Blue Knight (1b) declines the defense die (counts as 0)." in asked.log


def test_defending_edge_is_not_playable_in_your_own_phase(game):
    state = position(game, hands={0: "block jab"}, dice={"0a": (3,)})
    assert not any("block" in str(a) for a in state.legal_actions(0))
    with pytest.raises(IllegalAction, match="only when defending"):
        state.apply_text(0, "play block by a")


def test_clause_edges_have_the_same_stats_as_actions(game):
    """'Edges have the same stats as actions': an edge needs a character of its player that
    shares its trait and can pay its cost. Block (Melee, [1]) answers an attack on the Sage
    (1a) through the Knight (1b) only, and not at all once the Knight has no die."""
    state = position(
        game, hands={0: "jab", 1: "block"}, dice={"0a": (), "1a": (), "1b": (2,), "1c": (6,)}
    )
    state = play(state, "play jab by a", "target 1a")
    assert state.step == (REACT, 1)
    assert [str(a) for a in state.legal_actions(1)] == ["play block by b", "done"]
    with pytest.raises(IllegalAction, match="Archer shares no trait with Block"):
        state.apply_text(1, "play block by c")
    dieless = position(
        game, hands={0: "jab", 1: "block"}, dice={"0a": (), "1a": (), "1b": (), "1c": (6,)}
    )
    dieless = play(dieless, "play jab by a", "target 1a")
    assert dieless.step == (PHASE, 1), "no window: nobody can pay Block's [1]"
    assert len(character(dieless, "1a").wounds) == 1


def test_anytime_edge_in_your_phase_does_not_use_your_action(game):
    """An edge 'may be played at anytime' and is not an action: the phase goes on."""
    state = position(game, hands={0: "salve jab"}, wounds={"0a": "jab"})
    state = play(state, "play salve by c")
    assert character(state, "0a").wounds == ()
    assert state.step == (PHASE, 0)


# -- death and the end of the game ----------------------------------------------------------
def test_clause_wounds_reaching_life_remove_the_character(game):
    """'If a character ever has a wound value/damage greater than or equal to its life,
    remove it from the game.' Its wound cards go back to their owners' discard piles."""
    state = position(
        game, hands={0: "jab", 1: "study"}, dice={"0a": (), "1b": ()}, wounds={"1b": "jab jab"}
    )
    state = play(state, "play jab by a", "target 1b")
    knight = character(state, "1b")
    assert knight.removed and knight.wounds == ()
    assert Counter(state.discards[0]) == Counter(cards(game, "jab jab jab"))
    assert not state.is_over
    assert (1, 1) not in state.effect_targets(0, game.cards[cards(game, "jab")[0]])


def test_clause_last_player_with_a_character_alive_wins(game):
    """'The object of the game is to be the last player with characters alive.'"""
    state = position(
        game, hands={0: "jab", 1: "study"}, dice={"0a": (), "1a": ()}, wounds={"1a": "jab"}
    )
    parties = list(state.parties)
    parties[1] = (parties[1][0], *(c._replace(removed=True) for c in parties[1][1:]))
    state = replace(state, parties=tuple(parties))
    # The only target left is chosen for seat 0, neither side has a die: Jab hits the Sage.
    state = play(state, "play jab by a")
    assert state.is_over
    assert state.winner == 0 and state.returns == (1.0, -1.0)
    assert state.result["reason"] == "last player with a character alive"
    assert state.result["characters_left"] == [3, 0]
    assert state.to_act == () and state.legal_actions(0) == []


def test_turn_limit_safeguard_ends_the_game_as_a_draw():
    """gaps.md: a safeguard turn limit ends a game that cannot end, as a draw, and says so."""
    state = position(make(turn_limit=1), hands={0: "jab", 1: "jab"})
    state = play(state, "pass", "pass", "done", "done")
    assert state.is_over and state.winner is None and state.returns == (0.0, 0.0)
    assert "turn limit" in state.result["reason"]


def test_stalemate_when_nobody_can_ever_wound_again(game):
    """A game whose players hold no attack (and no heal) any living character can perform
    can never end by the rules: it ends as a draw at the end of the turn, saying why."""
    state = position(
        game,
        hands={0: "block", 1: "block"},
        decks={0: "aim", 1: "aim"},
        discards={0: "", 1: ""},
    )
    state = play(state, "pass", "pass", "done", "done")
    assert state.is_over and state.winner is None
    assert "stalemate" in state.result["reason"]


# -- effects --------------------------------------------------------------------------------
def test_heal_removes_the_worst_wound_it_can(game):
    """Mend: remove one wound of damage 3 or less; the wound card returns to its owner."""
    state = position(game, hands={0: "mend"}, wounds={"0a": "jab hex lunge"})
    state = play(state, "play mend by c")  # the only wounded character is chosen for seat 0
    assert [game.cards[w.card].key for w in character(state, "0a").wounds] == ["jab", "hex"]
    assert state.discards[1] == cards(game, "lunge")


def test_boost_raises_a_die_at_most_to_six(game):
    """Focus: +2 to one die on one of your characters, a die showing at most 6."""
    state = position(game, hands={0: "focus"}, dice={"0a": (2, 5), "0b": (6, 6), "0c": (1, 1, 1)})
    state = play(state, "play focus by c")
    assert "target 0b" not in map(str, state.legal_actions(0)), "nothing to raise there"
    state = play(state, "target 0a", "die 5")
    assert character(state, "0a").dice == (2, 6)


def test_energy_effect_removes_spent_energy(game):
    """Rest (no cost, Medic): one of your characters recovers 2 spent energy."""
    state = position(game, hands={0: "rest"}, spent={"0a": 3})
    assert "play rest by c" in map(str, state.legal_actions(0))
    state = play(state, "play rest by c")
    assert character(state, "0a").spent == 1


def test_draw_effect_draws_cards(game):
    state = position(game, hands={0: "study"}, decks={0: "hex jab aim"})
    state = play(state, "play study by c")
    assert sorted(keys(state, 0)) == ["aim", "jab"]


def test_clause_actions_are_discarded_after_resolution(game):
    """'After actions and attacks are performed, they are discarded'; 'Unless specifically
    stated, actions and edges are discarded after resolution': Study goes to its owner's
    discard pile once it has drawn."""
    state = position(game, hands={0: "study", 1: "jab"}, decks={0: "hex jab aim"})
    state = play(state, "play study by c")
    assert state.discards[0] == cards(game, "study")
    assert sorted(keys(state, 0)) == ["aim", "jab"]
    assert state.step == (PHASE, 1), "the action was seat 0's action phase"


def test_the_player_rules_say_played_cards_are_discarded(game):
    """The player rules carry 'Unless specifically stated, actions and edges are discarded
    after resolution' and its one exception, the attack that hits."""
    text = " ".join(game.player_rules().split())
    assert "goes to its owner's discard pile once it has resolved" in text
    assert "except an attack that hits, which stays under the defender as a wound" in text


def test_heal_needs_a_wound_it_can_treat(game):
    """A card that acts on one of your characters needs one it would change."""
    state = position(game, hands={0: "mend salve"})
    assert not any("mend" in str(a) or "salve" in str(a) for a in state.legal_actions(0))


# -- turn lead ------------------------------------------------------------------------------
def test_lead_fixed_the_first_player_opens_every_turn(game):
    """'At the beginning of each turn, the first player is given an action phase.'"""
    state = position(game, hands={0: "jab", 1: "jab"})
    state = play(state, "pass", "pass", "done", "done")
    assert state.turn == 2 and state.step == (PHASE, 0)


def test_lead_rotate_option_passes_the_lead_to_the_left():
    state = position(make(lead="rotate"), hands={0: "jab", 1: "jab"})
    state = play(state, "pass", "pass", "done", "done")
    assert state.turn == 2 and state.step == (PHASE, 1) and state.lead == 1


# -- views ----------------------------------------------------------------------------------
def test_views_hide_hands_and_decks_show_the_table(game):
    """Hands and decks are hidden; 'Make sure both players can see all dice values easily';
    energy and wounds are public too."""
    state = position(
        game, hands={0: "hex hex", 1: "jab block"}, dice={"0a": (1, 6)}, wounds={"1b": "jab"}
    )
    mine, theirs, spectator = state.view(0), state.view(1), state.view(None)
    assert mine["hand"] == ["hex", "hex"] and theirs["hand"] == ["jab", "block"]
    assert spectator["hand"] is None
    assert "hex" not in str({k: v for k, v in theirs.items() if k != "log"})
    for view in (mine, theirs, spectator):
        assert view["hand_sizes"] == [2, 2]
        assert view["deck_sizes"] == [15, 15]
        assert view["characters"][0][0]["dice"] == [1, 6]
        assert view["characters"][1][1]["wounds"] == [{"card": "jab", "owner": 0, "damage": 2}]
        assert view["characters"][0][0]["spent"] == 0


def test_determinize_resamples_only_what_the_seat_cannot_know(game):
    import random

    state = game.new_game(4)
    rng = random.Random(1)
    samples = [state.determinize(0, rng) for _ in range(20)]
    assert all(s.view(0) == state.view(0) for s in samples)
    assert all(s.hands[0] == state.hands[0] for s in samples)
    assert len({s.hands[1] for s in samples}) > 1, "the opponent's hand is resampled"
    assert len({s.decks[0] for s in samples}) > 1, "even one's own deck order is unknown"
    for s in samples:
        assert Counter(s.hands[1] + s.decks[1]) == Counter(state.hands[1] + state.decks[1])


# -- notation -------------------------------------------------------------------------------
def test_notation_round_trips_for_every_action(game):
    for i in range(game.num_actions):
        action = game.action_from_id(i)
        assert game.parse_action(str(action)) == action
        assert game.action_id(action) == i


def test_notation_is_forgiving_on_input(game):
    assert game.parse_action("  Play  JAB by A ") == Play("jab", 0)
    assert game.parse_action("target 1 b") == Target(1, 1)
    assert game.parse_action("No Die") == NoDie()
    assert game.parse_action("die 6") == Die(6)
    assert game.parse_action("PASS") == Pass()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("play sword by a", "no card 'sword'"),
        ("play jab by d", "characters are a, b and c"),
        ("target 7a", "no seat 7"),
        ("die 9", "a die shows 1 to 6"),
        ("attack!", "not a Squad Combat action"),
    ],
)
def test_bad_notation_says_what_is_wrong(game, text, message):
    with pytest.raises(meeple.NotationError, match=message):
        game.parse_action(text)


def test_refusals_say_what_the_rules_require(game):
    """An illegal action is refused with a reason a person can read, state unchanged."""
    state = play(attack_position(game), "play jab by a", "target 1b")
    with pytest.raises(IllegalAction, match=r"Knight \(0a\) has no die showing 6 \(dice: 3 5\)"):
        state.apply_text(0, "die 6")
    with pytest.raises(IllegalAction, match=r"Blue .* is not to act now"):
        state.apply_text(1, "no die")
    paying = play(position(game, hands={0: "volley"}, dice={"0b": (3, 5, 6)}), "play volley by b")
    with pytest.raises(IllegalAction, match=r"the cost due is \[4\]: pay with a die of 4 or more"):
        paying.apply_text(0, "pay 3")
    window = play(
        position(game, hands={0: "jab", 1: "block study"}, dice={"0a": (5,), "1b": (1, 3)}),
        "play jab by a",
        "target 1b",
        "die 5",
        "die 3",
    )
    with pytest.raises(IllegalAction, match="only edges are played in a reaction window"):
        window.apply_text(1, "play study by a")
    assert window.step == (REACT, 1)


def test_a_player_with_nothing_but_pass_passes_by_itself():
    """Under the default prompts a phase with only 'pass' is passed for the player; with
    reaction_prompts=always the player is asked, so the table learns nothing of the hand."""
    spent = {"1a": 6, "1b": 4, "1c": 3}
    quiet = position(make(), hands={0: "study", 1: ""}, decks={0: "jab jab"}, spent=spent)
    state = play(quiet, "play study by c")
    assert state.step == (PHASE, 0) and state.passed[1]
    assert "Blue passes: nothing else to do (no card it can play, no refresh it can pay for)." in (
        state.log
    )
    asked = position(
        make(reaction_prompts="always"),
        hands={0: "study", 1: ""},
        decks={0: "jab jab"},
        spent=spent,
    )
    # 'always' also asks both seats in the window before Study resolves.
    state = play(asked, "play study by c", "done", "done")
    assert state.step == (PHASE, 1) and state.legal_actions(1) == [Pass()]
    # Blue's pass, asked, reads as any pass: "nothing else to do" would tell the hand.
    state = state.apply_text(1, "pass")
    assert state.log[-1] == "Blue passes." and not any("nothing else" in line for line in state.log)


def test_the_cards_no_character_can_play_are_named_with_why():
    """A page greys out the cards of the hand no character can play, and says why: the
    cards named are exactly the hand's cards no legal play uses, in the action phase and
    the reaction windows of a seat to act, each with the rules' reason for every living
    character (once where they share it); while the seat chooses a die or a target, its
    whole hand, for that (they looked playable there: a browser newcomer's finding); none
    elsewhere."""
    named_any = choosing = 0
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        game = meeple.make("squad-combat", players=players)
        for state in random_playthrough(game, seed).record().states():
            kind, _ = state.step
            for seat in range(players):
                named = state.unplayable(seat)
                legal = state.legal_actions(seat)
                if seat in state.to_act and kind in NO_CARD_STEPS and legal:
                    hand = {game.card_keys[k] for k in state.hands[seat]}
                    why = f"No card is played during the {kind}"
                    assert named == dict.fromkeys(hand, why), (kind, named)
                    choosing += 1
                    continue
                if seat not in state.to_act or kind not in (PHASE, *WINDOWS) or not legal:
                    assert named == {}
                    continue
                played = {a.card for a in legal if isinstance(a, Play)}
                hand = {game.card_keys[k] for k in state.hands[seat]}
                assert set(named) == hand - played
                assert all(named.values()), named
                named_any += len(named)
    assert named_any > 20 and choosing > 20
    state = meeple.make("squad-combat", first=0).new_game(5)
    assert state.unplayable(0) == {
        "parry": "Parry is played only when defending",
        "battle-cry": "Battle Cry is played only when attacking",
    }
