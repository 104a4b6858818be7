"""Erd rules, clause by clause against the seed (000_36fa4dbb008e1bb8.txt) and its patches.

Each test quotes or names the clause it checks; positions are built directly (see conftest).
"""

from __future__ import annotations

import pytest

import meeple
from meeple.core.errors import IllegalAction, OptionError
from meeple.games.erd import Cards, ErdState
from meeple.games.erd.rules import mercy_losers, turrets_converted

from .conftest import erd, play_round, position, side

FULL_12 = "HHHLLLDDDDDD"


def start(rules: str = "0.02", **options: object) -> ErdState:
    state = erd(rules=rules, **options).new_game(0)
    assert isinstance(state, ErdState)
    return state


# -- the cards and the versions -------------------------------------------------------------
def test_clause_original_reserve_of_9_three_heavy_three_light_three_decoy():
    """'Each player starts the game with 9 cards in their Reserve: 3 Heavy, 3 Light, 3 Decoy'."""
    state = start("original")
    assert state.sides[0].reserve == state.sides[1].reserve == Cards(3, 3, 3)
    assert state.sides[0].discard == Cards() and state.sides[0].turrets == 0


@pytest.mark.parametrize("rules", ["0.01", "0.02"])
def test_clause_patch_001_six_decoy_cards_per_player(rules):
    """Patch 0.01: 'There are now 6 decoy cards per player' (12 cards each)."""
    state = start(rules)
    assert state.sides[0].reserve == state.sides[1].reserve == Cards(3, 3, 6)
    assert state.sides[0].reserve.total == 12


def test_gap_default_rules_are_patch_002_and_best_of_5():
    """gaps.md: rules default 0.02; matches default best of 5."""
    game = meeple.make("erd")
    assert game.options.rules == "0.02" and game.options.best_of == 5
    assert game.options.turret_lifetime == "until_recovered"
    assert game.options.round_limit == 200


def test_rules_option_names_the_versions_when_wrong():
    with pytest.raises(OptionError, match=r"rules.*original \| 0\.01 \| 0\.02"):
        meeple.make("erd", rules="0.03")


def test_rules_option_accepts_a_number_from_python():
    assert meeple.make("erd", rules=0.01).options.rules == "0.01"


@pytest.mark.parametrize("best_of", [0, 2, 4])
def test_clause_best_of_2n_plus_1_must_be_odd(best_of):
    """Patch 0.01: 'play best-of-2N+1 matches'."""
    with pytest.raises(OptionError, match="best_of"):
        meeple.make("erd", best_of=best_of)


def test_clause_heavy_value_2_on_rush_3_on_defense():
    """Heavy: 'Value: 2 on Rush, 3 on Defense, 1 as a Turret'; Light 1; Decoy 0."""
    assert Cards.parse("H").rush_value == 2 and Cards.parse("H").defense_value == 3
    assert Cards.parse("L").rush_value == 1 and Cards.parse("L").defense_value == 1
    assert Cards.parse("D").rush_value == 0 and Cards.parse("D").defense_value == 0
    assert Cards.parse("HHL").rush_value == 5 and Cards.parse("HHL").defense_value == 7


# -- allocation -----------------------------------------------------------------------------
def test_clause_original_up_to_three_cards_into_each_pile():
    """Original: 'each player moves up to three cards ... into each of their Rush pile ... and
    Defense pile' (empty piles included)."""
    state = start("original")
    legal = {str(a) for a in state.legal_actions(0)}
    for text in (
        "rush=- defense=-",
        "rush=H defense=-",
        "rush=HHH defense=LLL",
        "rush=D defense=HL",
    ):
        assert text in legal
    assert all(a.rush.total <= 3 and a.defense.total <= 3 for a in state.legal_actions(0))
    assert len(legal) == 316


def test_clause_original_a_pile_of_four_cards_is_refused():
    with pytest.raises(IllegalAction, match="at most three cards"):
        start("original").apply_text(0, "rush=HHLL defense=-")


@pytest.mark.parametrize("rules", ["0.01", "0.02"])
def test_clause_patch_001_exactly_3_cards_in_rush_and_defense(rules):
    """Patch 0.01: 'Players must put exactly 3 face-down cards in their Rush and Defense
    piles'."""
    state = start(rules)
    legal = state.legal_actions(0)
    assert legal and all(a.rush.total == 3 and a.defense.total == 3 for a in legal)
    assert len(legal) == 70
    with pytest.raises(IllegalAction, match="exactly three cards; the Rush pile has 2"):
        state.apply_text(0, "rush=HH defense=LDD")
    with pytest.raises(IllegalAction, match="exactly three"):
        state.apply_text(0, "rush=- defense=-")


def test_clause_cards_come_from_the_reserve():
    """'moves ... cards ... from their Reserve': no more of a kind than the Reserve holds."""
    with pytest.raises(IllegalAction, match="Reserve holds 3 Heavies, but this allocation uses 4"):
        start().apply_text(0, "rush=HHH defense=HDD")
    with pytest.raises(IllegalAction, match="Reserve holds 3 Decoys, but this allocation uses 4"):
        start("original").apply_text(0, "rush=DDD defense=D")


def test_gap_a_reserve_too_small_for_three_and_three_is_placed_whole():
    """gaps.md: 'Reserve too small to fill both piles with exactly 3: place all of it, at most
    3 per pile'."""
    state = position(erd(), side("HLDD"), side(FULL_12))
    legal = state.legal_actions(0)
    assert legal and all(a.cards == Cards(1, 1, 2) for a in legal)
    assert all(a.rush.total <= 3 and a.defense.total <= 3 for a in legal)
    assert {"rush=HLD defense=D", "rush=D defense=HLD", "rush=HD defense=LD"} <= {
        str(a) for a in legal
    }
    with pytest.raises(IllegalAction, match="placed whole"):
        state.apply_text(0, "rush=HL defense=D")


# -- combat ---------------------------------------------------------------------------------
@pytest.mark.parametrize("winner", [0, 1])
def test_combat_exactly_one_rush_higher_than_defense_wins_the_game(winner):
    """'if exactly one player's Rush pile has a higher total value than the opponent's
    Defense, that player wins the game'."""
    strong, weak = "rush=HHH defense=LLD", "rush=LDD defense=HLD"  # 6 > 4; 1 < 2
    red, blue = (strong, weak) if winner == 0 else (weak, strong)
    after = play_round(start(), red, blue)
    assert after.is_over
    assert after.result["winner"] == winner and after.result["ending"] == "rush"
    assert "broke through" in after.result["reason"]
    assert after.returns == ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))
    assert after.last is not None and after.last.outcome == "one_rush"


def test_combat_a_rush_equal_to_the_defense_does_not_break_through():
    """'a higher total value than the opponent's Defense': equal is not higher."""
    after = play_round(start(), "rush=LLL defense=HDD", "rush=DDD defense=LLL")  # 3 vs 3
    assert not after.is_over
    assert after.last is not None and after.last.broke_through == (False, False)


def test_combat_both_rushes_succeed_larger_rush_plus_defense_wins():
    """'if both players have Rush piles with higher total values than the opponent's defense,
    whoever has the larger total of rush plus defense wins'."""
    after = play_round(start(), "rush=HHL defense=LDD", "rush=HLL defense=HLD")  # 5+1 vs 4+4
    assert after.is_over and after.result["winner"] == 1
    assert after.result["ending"] == "both_rushes"
    assert "Rush + Defense 8 against 6" in after.result["reason"]


def test_combat_both_succeed_tied_totals_larger_rush_wins():
    """'If that's tied, whoever has the larger Rush pile wins'."""
    after = play_round(start(), "rush=HHL defense=LDD", "rush=HLD defense=HDD")  # 5+1 vs 3+3
    assert after.is_over and after.result["winner"] == 0
    assert after.last is not None and after.last.outcome == "both_rush"
    said = after.result["reason"]
    assert "Red wins with Rush + Defense tied, on the larger Rush (5 against 3)" in said, said


def test_combat_exact_tie_discards_all_rush_and_defense_cards_and_the_game_continues():
    """'On an exact tie there, discard all Rush and Defense cards and the game continues'
    (gaps.md: no Turrets, then Recovery)."""
    after = play_round(start(), "rush=HLD defense=LDD", "rush=HLD defense=LDD")  # 3+1 each
    assert not after.is_over and after.round == 2
    assert after.last is not None and after.last.outcome == "exact_tie"
    for s in after.sides:
        # Played H L L D D D; Decoys back to 9 cards, then a Light per Heavy in Reserve.
        assert s == side("HHLLLDDDDDD", discard="H", turrets=0)


@pytest.mark.parametrize(
    ("defense", "rush", "heavies", "turrets"),
    [
        (9, 0, 3, 3),
        (9, 1, 3, 2),
        (9, 6, 3, 1),
        (5, 3, 1, 0),
        (6, 3, 1, 1),
        (12, 0, 3, 3),
        (9, 0, 1, 1),
        (6, 0, 0, 0),
        (3, 3, 1, 0),
    ],
)
def test_conversion_arithmetic_one_turret_for_every_3_points(defense, rush, heavies, turrets):
    """'For every 3 points each player's Defense exceeds their opponent's Rush by, they convert
    one of their Defending Heavies (if any) into a Turret'."""
    assert turrets_converted(defense, rush, heavies) == turrets


def test_combat_neither_rush_succeeds_heavies_become_turrets_rest_discarded():
    """'...they turn it sideways and leave it face up in their discard. All other cards in
    Rush and Defense piles ... are discarded.'"""
    after = play_round(start(), "rush=DDD defense=HHH", "rush=LDD defense=LLD")
    assert not after.is_over
    report = after.last
    assert report is not None and report.outcome == "held"
    assert report.rush == (0, 1) and report.defense == (9, 2)
    assert report.turrets_made == (2, 0)  # (9 - 1) // 3 = 2; (2 - 0) // 3 = 0
    assert after.sides[0] == side("LLLDDDDDD", discard="H", turrets=2)
    assert after.sides[1] == side(FULL_12)


def test_combat_turrets_only_from_heavies_in_the_defense_pile():
    """'convert one of their Defending Heavies (if any)': Turrets' own points add to the
    Defense but a pile without Heavies converts nothing."""
    state = position(erd(), side("HHHLLLDDDDD", turrets=3), side(FULL_12))
    after = play_round(state, "rush=DDD defense=LLL", "rush=DDD defense=DDD")  # 3 + 3 vs 0
    assert after.last is not None and after.last.defense[0] == 6
    assert after.last.turrets_made == (0, 0)


@pytest.mark.parametrize(("turrets", "made"), [(1, 1), (0, 0)])
def test_conversion_counts_the_defense_with_its_turrets(turrets, made):
    """'For every 3 points each player's Defense exceeds their opponent's Rush by' (gaps.md:
    the Defense with Turrets): HDD and a Turret make 4 against a Rush of 1, one Turret more;
    without the Turret 3 - 1 = 2 makes none."""
    state = position(erd(), side("HHHLLLDDDDDD", turrets=turrets), side(FULL_12))
    after = play_round(state, "rush=DDD defense=HDD", "rush=LDD defense=DDD")
    assert after.last is not None and after.last.outcome == "held"
    assert after.last.turrets_made == (made, 0)
    assert after.sides[0].turrets == turrets + made


@pytest.mark.parametrize(("turrets", "winner"), [(1, None), (0, 1)])
def test_turret_adds_one_to_its_owners_defense(turrets, winner):
    """Heavy: '1 as a Turret' (gaps.md: a Turret adds 1 to its owner's Defense)."""
    state = position(erd(), side("HHHLLLDDDDDD", turrets=turrets), side(FULL_12))
    after = play_round(state, "rush=DDD defense=HDD", "rush=HLL defense=DDD")  # 3 (+1) vs 4
    assert after.last is not None and after.last.defense[0] == 3 + turrets
    assert after.result["winner"] == winner and after.is_over == (winner is not None)


@pytest.mark.parametrize(("turrets", "winner"), [(1, 0), (0, 1)])
def test_turrets_count_in_rush_plus_defense(turrets, winner):
    """'whoever has the larger total of rush plus defense wins': the Defense includes Turrets
    (5 + 1 + 1 ties 4 + 3 and the larger Rush wins; without the Turret 6 < 7)."""
    state = position(erd(), side("HHHLLLDDDDDD", turrets=turrets), side(FULL_12))
    after = play_round(state, "rush=HHL defense=LDD", "rush=HLL defense=HDD")
    assert after.is_over and after.result["winner"] == winner


@pytest.mark.parametrize(
    ("lifetime", "red_after"),
    [
        ("until_recovered", side("HHLLLDDDDD", discard="D", turrets=1)),
        ("one_combat", side("HHLLLDDDDD", discard="HD", turrets=0)),
    ],
)
def test_turret_lifetime_option(lifetime, red_after):
    """gaps.md: a Turret defends 'in every later combat while it stays there'; the alternative
    reading ('including Turrets, are discarded': one later combat only) is turret_lifetime."""
    state = position(erd(turret_lifetime=lifetime), side("HHLLLDDDDDD", turrets=1), side(FULL_12))
    after = play_round(state, "rush=DDD defense=LDD", "rush=LDD defense=LDD")  # 0 vs 1; 1 vs 2
    assert after.last is not None and after.last.outcome == "held"
    assert after.last.defense[0] == 2 and after.last.turrets_made == (0, 0)
    assert after.sides[0] == red_after


# -- recovery -------------------------------------------------------------------------------
def test_recovery_original_all_decoys_back():
    """Original: 'Each player moves all their Decoys back to their Reserve'."""
    after = play_round(start("original"), "rush=DDD defense=-", "rush=- defense=LDD")
    assert after.sides[0].reserve == Cards(3, 3, 3) and after.sides[0].discard == Cards()


@pytest.mark.parametrize("rules", ["0.01", "0.02"])
def test_recovery_patch_001_decoys_until_9_cards_in_reserve(rules):
    """Patch 0.01: 'recover decoys until you have 9 cards in reserve or there aren't any
    left'."""
    after = play_round(start(rules), "rush=DDD defense=DDD", "rush=DDD defense=DDD")
    for s in after.sides:
        assert s.reserve == Cards(3, 3, 3) and s.discard == Cards(0, 0, 3)  # 6 + 3 = 9


@pytest.mark.parametrize("rules", ["0.01", "0.02"])
def test_recovery_patch_001_decoys_or_there_arent_any_left(rules):
    """'... or there aren't any left': Red kept its six Decoys, so its Reserve stays below 9."""
    after = play_round(start(rules), "rush=HHH defense=LLL", "rush=LLL defense=HHH")
    assert after.last is not None and after.last.decoys_back == (0, 0)
    assert all(s.reserve.decoy == 6 and s.discard.decoy == 0 for s in after.sides)


def test_recovery_one_light_for_each_heavy_in_reserve():
    """'For each Heavy in their Reserve, they move a Light from their discard to their
    Reserve.'"""
    after = play_round(start(), "rush=LLL defense=HDD", "rush=DDD defense=HLL")
    red = after.sides[0]
    assert after.last is not None and after.last.turrets_made == (1, 0)  # 3 - 0 = 3 points
    assert red.reserve == Cards(2, 2, 6)  # two Heavies in Reserve: two of three Lights back
    assert red.discard == Cards(0, 1, 0) and red.turrets == 1


def test_recovery_all_lights_if_fewer_than_heavies():
    """'(or all of them, if they kept more heavies than the Lights in their discard)'."""
    after = play_round(start(), "rush=LDD defense=DDD", "rush=DDD defense=LDD")
    assert after.sides[0].reserve == Cards(3, 3, 4) and after.sides[0].discard == Cards(0, 0, 2)


# -- Escalation -----------------------------------------------------------------------------
@pytest.mark.parametrize("rules", ["original", "0.01", "0.02"])
def test_escalation_all_lights_discarded_each_recovers_one_heavy(rules):
    """'if all six Heavies are in the discard piles, an Escalation happens. If all Lights are
    in the discard, each player recovers one Heavy ... Then, each player recovers all their
    Lights.' Plain Heavies come back before Turrets (gaps.md: Turrets are in the discard)."""
    reserve = FULL_12 if rules != "original" else "HHHLLLDDD"
    state = position(erd(rules=rules), side(reserve), side(reserve))
    after = play_round(state, "rush=LLL defense=HHH", "rush=LLL defense=HHH")  # 3 vs 9: held
    report = after.last
    assert report is not None and report.turrets_made == (2, 2) and report.escalation
    assert report.escalation_heavies == (1, 1) and report.escalation_lights == (3, 3)
    decoys = reserve.count("D")
    for s in after.sides:
        assert s.reserve == Cards(1, 3, decoys) and s.discard == Cards() and s.turrets == 2
    assert not after.is_over


@pytest.mark.parametrize("rules", ["0.01", "0.02"])
def test_escalation_otherwise_a_heavy_for_each_light_in_reserve(rules):
    """'otherwise, each player recovers a Heavy for each Light in their hand' (gaps.md: hand
    means Reserve); 0.02 with both holding Lights: no pre-Escalation win."""
    after = play_round(start(rules), "rush=DDD defense=HHH", "rush=DDD defense=HHH")
    report = after.last
    assert report is not None and report.turrets_made == (3, 3) and report.escalation
    assert report.escalation_heavies == (3, 3)
    for s in after.sides:
        assert s.reserve == Cards(3, 3, 6) and s.turrets == 0 and s.discard == Cards()
    assert not after.is_over


MIXED = ("rush=LDD defense=HHH", "rush=LLL defense=HHH")
"""Both Defenses hold with two Turrets each; Red keeps two Lights in Reserve, Blue none."""


def test_escalation_heavies_follow_each_players_own_lights_in_reserve():
    """Patch 0.01: 'a Heavy for each Light in their hand': Red (2 Lights) takes 2 Heavies, a
    plain one before a Turret; Blue (no Light) takes none; then all Lights come back."""
    after = play_round(start("0.01"), *MIXED)
    report = after.last
    assert report is not None and report.escalation and report.escalation_heavies == (2, 0)
    red, blue = after.sides
    assert red == side("HHLLLDDDDDD", discard="-", turrets=1)
    assert blue == side("LLLDDDDDD", discard="H", turrets=2)


def test_escalation_lights_option_own_reading():
    """escalation_lights=own: 'If all Lights are in the discard' asked of each player's own
    three: Blue, with none in Reserve, takes back one Heavy."""
    after = play_round(start("0.01", escalation_lights="own"), *MIXED)
    assert after.last is not None and after.last.escalation_heavies == (2, 1)
    assert after.sides[1] == side("HLLLDDDDDD", discard="-", turrets=2)


@pytest.mark.parametrize("rules", ["original", "0.01", "0.02"])
def test_after_checking_for_an_escalation_the_next_round_begins(rules):
    """'After checking for an Escalation, the next round begins.': round 2 is allocated from
    the Reserves the Escalation refilled (three Heavies back each here)."""
    after = play_round(start(rules), "rush=DDD defense=HHH", "rush=DDD defense=HHH")
    assert after.last is not None and after.last.escalation and not after.is_over
    assert after.round == 2 and after.to_act == (0, 1)
    assert all(s.reserve.heavy == 3 and s.turrets == 0 for s in after.sides)
    again = play_round(after, "rush=HHH defense=LLL", "rush=DDD defense=HHH")
    assert again.last is not None and again.last.round == 2


def test_escalation_needs_all_six_heavies_discarded():
    """'if all six Heavies are in the discard piles': five are not enough."""
    after = play_round(start("0.01"), "rush=LDD defense=HHH", "rush=LLL defense=HHD")
    assert after.last is not None and not after.last.escalation
    assert sum(s.heavies_discarded for s in after.sides) == 5


@pytest.mark.parametrize("winner", [0, 1])
def test_patch_002_only_player_with_non_decoys_wins_before_escalation(winner):
    """Patch 0.02: 'If, right before an Escalation, only one player has non-Decoys in Reserve,
    that player wins before Escalation.' (either seat)"""
    red, blue = MIXED if winner == 0 else MIXED[::-1]
    after = play_round(start("0.02"), red, blue)
    assert after.is_over and after.result["winner"] == winner
    assert after.result["ending"] == "pre_escalation"
    assert "pre-Escalation win" in after.result["reason"]
    assert after.last is not None and not after.last.escalation


def test_patch_002_pre_escalation_win_not_when_neither_has_non_decoys():
    """'only one player has non-Decoys': with none on either side the Escalation happens."""
    after = play_round(start("0.02"), "rush=LLL defense=HHH", "rush=LLL defense=HHH")
    assert not after.is_over and after.last is not None and after.last.escalation


# -- mercy rules and the end of a round -----------------------------------------------------
MERCY_ONE_LIGHT = ("rush=LLD defense=HHH", "rush=DDD defense=LLD")
"""Red's Defense holds (3 Turrets), Red ends with no Heavy and one Light in Reserve."""
MERCY_TWO_LIGHTS = ("rush=LDD defense=HHH", "rush=DDD defense=LLD")
"""The same with two Lights left in Red's Reserve."""


@pytest.mark.parametrize("rules", ["0.01", "0.02"])
def test_mercy_rule_no_heavies_and_at_most_one_light_loses(rules):
    """Patch 0.01: 'if a player ends the round with no Heavies and at most one Light in
    Reserve, and no Escalation happens, they lose.' (0.02's rule catches it too.)"""
    after = play_round(start(rules), *MERCY_ONE_LIGHT)
    assert after.sides[0].reserve == Cards(0, 1, 6)
    assert after.is_over and after.result["winner"] == 1 and after.result["ending"] == "mercy"
    assert "mercy rule" in after.result["reason"]


def test_original_rules_have_no_mercy_rule():
    after = play_round(start("original"), "rush=LLD defense=HHH", "rush=- defense=LL")
    assert after.sides[0].reserve == Cards(0, 1, 3) and not after.is_over


def test_mercy_rule_patch_001_spares_two_lights():
    after = play_round(start("0.01"), *MERCY_TWO_LIGHTS)
    assert after.sides[0].reserve == Cards(0, 2, 6) and not after.is_over


def test_mercy_rule_patch_002_zero_to_two_lights_no_heavies_loses():
    """Patch 0.02: 'Now applies when the loser has 0-2 Lights 0 Heavies in reserve vs. a
    Heavy in reserve.'"""
    after = play_round(start("0.02"), *MERCY_TWO_LIGHTS)
    assert after.sides[0].reserve == Cards(0, 2, 6) and after.sides[1].reserve.heavy > 0
    assert after.is_over and after.result["winner"] == 1 and after.result["ending"] == "mercy"


def test_mercy_rule_patch_002_needs_the_opponent_to_hold_a_heavy():
    """0.02: '... vs. a Heavy in reserve': without a Heavy opposite, nobody is caught;
    0.01 (no such condition) catches the same player, and both players at once."""
    version_02, version_01 = erd(rules="0.02").version, erd(rules="0.01").version
    sides = (side("LDDDDDD"), side("LLLDDDDDD"))
    assert mercy_losers(version_02, sides) == ()
    assert mercy_losers(version_01, sides) == (0,)
    assert mercy_losers(version_01, (side("LDDD"), side("DDD"))) == (0, 1)


def test_mercy_rule_patch_001_both_players_caught_is_a_draw():
    """gaps.md: 'if both players meet it the game is a draw' (a Reserve without Heavies, from
    the ``reserve`` option, so that no Escalation comes first)."""
    state = position(erd(rules="0.01", reserve="LLDDDDDD"), side("LLDDDDDD"), side("LLDDDDDD"))
    after = play_round(state, "rush=LDD defense=DDD", "rush=LDD defense=DDD")
    assert all(s.reserve == Cards(0, 1, 6) for s in after.sides)
    assert after.is_over and after.result["winner"] is None
    assert after.result["ending"] == "mercy_draw" and after.returns == (0.0, 0.0)


def test_mercy_rule_not_checked_when_an_escalation_happens():
    """'... and no Escalation happens': Blue ends Recovery with no Heavy and no Light, but an
    Escalation follows, so the mercy rule does not catch it."""
    after = play_round(start("0.01"), *MIXED)
    assert after.last is not None and after.last.escalation and not after.is_over


def test_round_limit_ends_a_cycling_game_as_a_draw_and_says_so():
    """gaps.md: 'A safeguard round limit (option, default 200) ends a game that cycles as a
    draw, and says so.'"""
    state = start("original", round_limit=3)
    for _ in range(2):
        state = play_round(state, "rush=- defense=-", "rush=- defense=-")
        assert not state.is_over
    state = play_round(state, "rush=- defense=-", "rush=- defense=-")
    assert state.is_over and state.returns == (0.0, 0.0)
    assert state.result["winner"] is None and state.result["ending"] == "round_limit"
    assert "draw by round limit" in state.result["reason"]
