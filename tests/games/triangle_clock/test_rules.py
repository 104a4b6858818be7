"""The Triangle Clock's rounds, clause by clause against the seed (004_2a162bbec65dca8b)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

import meeple
from meeple.core.conformance import random_playthrough
from meeple.core.errors import IllegalAction, NotationError, OptionError
from meeple.games.triangle_clock import Item, Phase, Pick, TriangleClockState
from meeple.games.triangle_clock.cards import SYMBOL_NAMES, card_name, parse_card
from meeple.games.triangle_clock.rules import (
    MEMORISED,
    MULLIGAN,
    ROUNDS,
    Supply,
    items_text,
    parse_items,
)

from .conftest import arrange, both, cards_in_game, play_round, symbols

# Tick: a Flush 4 Set Rotate with shared Ns (Ns + Es Ss full + Ws); Tock: a Pair (Ns + Nc)
HANDS = (
    "Es+Ss Ws+NWc SWs+SWc Ec+Wc",
    "Nc+NEs Sc+SWc SEs+SEc NEc+Wc",
)


# -- setup ----------------------------------------------------------------------------------
def test_clause_each_player_is_dealt_four_cards(game):
    """'At the start of the first round each player is dealt 4 cards.'"""
    state = game.new_game(1)
    assert [len(seat.hand) for seat in state.seats] == [4, 4]
    assert len(state.supply.deck) == 112
    assert sorted(cards_in_game(state)) == list(range(120))


def test_clause_16_symbols_in_a_random_order_for_rounds_1_to_16_and_again_for_17_to_32(game):
    """'The 16 unique triangles are placed into a random order' ... 'After 16 hands, this
    is done again for rounds 17 to 32.'"""
    state = game.new_game(1)
    assert len(state.orders) == 2
    assert all(sorted(order) == list(range(16)) for order in state.orders)
    assert state.orders[0] != state.orders[1]
    assert game.new_game(2).orders != state.orders


def test_the_same_seed_gives_the_same_game(game):
    assert game.new_game(5) == game.new_game(5)
    assert game.new_game(5) != game.new_game(6)


def test_clause_the_order_is_shown_in_a_memorise_step_first(game):
    """'This is shown and revealed to both players. After 2 minutes the order is hidden
    again': the game opens with a step where both seats only acknowledge the order."""
    state = game.new_game(1)
    assert state.phase is Phase.MEMORISE and state.to_act == (0, 1)
    assert state.legal_actions(0) == [MEMORISED] == state.legal_actions(1)
    assert state.shared is None
    assert game.memorise_seconds(state, 0) == 120
    state = state.apply(0, MEMORISED)
    assert game.memorise_seconds(state, 0) is None  # already acknowledged
    assert game.memorise_seconds(state, 1) == 120
    state = state.apply(1, MEMORISED)
    assert state.phase is Phase.FIRST
    assert game.memorise_seconds(state, 0) is None


def test_memorise_seconds_is_an_option():
    game = meeple.make("triangle-clock", memorise_seconds=5)
    assert game.memorise_seconds(game.new_game(0), 1) == 5
    with pytest.raises(OptionError, match="memorise_seconds"):
        meeple.make("triangle-clock", memorise_seconds=-1)


# -- a round --------------------------------------------------------------------------------
def test_clause_a_triangle_is_publicly_revealed_and_shared(game):
    """'A triangle is publicly revealed. This symbol is shared by both players.'"""
    state = arrange(game, HANDS, shared="Ns")
    assert SYMBOL_NAMES[state.shared] == "Ns"
    assert state.view(0)["shared"] == state.view(1)["shared"] == state.view(None)["shared"]


def test_clause_first_choice_any_symbol_of_any_card(game):
    """'Both players each choose 1 symbol from a card.'"""
    state = arrange(game, HANDS, shared="Ns")
    letters = {str(a)[0] for a in state.legal_actions(1) if isinstance(a, Pick)}
    assert letters == set("ABCDEFGH")


def test_clause_choices_are_hidden_until_both_submit_then_revealed(game):
    """'Simultaneous' submissions; 'This is then publicly revealed'."""
    state = arrange(game, HANDS, shared="Ns").apply_text(0, "A")
    assert state.to_act == (1,)
    assert state.seats[0].picks == ()  # not revealed yet
    assert state.view(1)["revealed"] == [[], []]
    assert state.view(1)["submissions"] == {"submitted": [0], "waiting": [1], "mine": None}
    assert state.view(0)["submissions"]["mine"] == "A"
    state = state.apply_text(1, "A")
    assert state.phase is Phase.SECOND
    assert state.view(1)["revealed"] == [
        [{"symbol": "Es", "items": []}],
        [{"symbol": "Nc", "items": []}],
    ]


def test_clause_second_choice_comes_from_another_card(game):
    """'Both players each choose 1 symbol from another card.'"""
    state = both(arrange(game, HANDS, shared="Ns"), "A", "A")
    letters = {str(a)[0] for a in state.legal_actions(0)}
    assert letters == set("CDEFGH")
    with pytest.raises(IllegalAction, match="on the card you played first"):
        state.apply_text(0, "B")


def test_clause_third_choice_from_either_played_card(game):
    """'Both players each choose 1 symbol from either of the 2 cards they have played.'"""
    state = both(both(arrange(game, HANDS, shared="Ns"), "A", "A"), "C", "C")
    assert [str(a) for a in state.legal_actions(1)] == ["B", "D"]
    assert {str(a)[0] for a in state.legal_actions(0)} == {"B", "D"}
    with pytest.raises(IllegalAction, match="unused one of a card you played: B or D"):
        state.apply_text(0, "E")
    with pytest.raises(IllegalAction, match="unused one"):
        state.apply_text(0, "A")


def test_clause_hands_compared_winner_scores_the_strength_of_the_losers_hand(game):
    """'Whoever has a higher valued hand scores points based on the strength of the
    opponents' hand.' Tick: Ns Es Ss Ws (Flush 4 Set Rotate, 7); Tock: Ns Nc NEs SWc
    (Pair, 1). Tick scores 1, Tock nothing."""
    state = play_round(arrange(game, HANDS, shared="Ns"), ("A", "C", "B"), ("A", "D", "B"))
    result = state.history[-1]
    # a hand lists the shared symbol, then the symbols in the order they were revealed
    assert [SYMBOL_NAMES[s] for s in result.seats[0].hand] == ["Ns", "Es", "Ws", "Ss"]
    assert [SYMBOL_NAMES[s] for s in result.seats[1].hand] == ["Ns", "Nc", "SWc", "NEs"]
    assert (result.seats[0].rank, result.seats[1].rank) == ("Flush 4 Set Rotate", "Pair")
    assert result.winner == 0 and result.points == 1
    assert state.scores == (1, 0)


def test_clause_winner_scores_nothing_when_the_loser_has_nothing(game):
    """The strength of a hand of Nothing is 0: the winner of the round gains 0."""
    hands = ("Es+Ss Ws+NWc SWs+SWc Ec+Wc", "NEc+SEs Sc+SWc SEc+NWs NEs+Wc")
    state = play_round(arrange(game, hands, shared="Ns"), ("A", "C", "B"), ("A", "C", "B"))
    result = state.history[-1]
    assert result.seats[1].rank == "Nothing"
    assert result.winner == 0 and result.points == 0 and state.scores == (0, 0)


def test_equal_hands_score_nothing(game):
    """Identical hands from different cards: neither ranks higher, nobody scores."""
    hands = ("Es+Ss Wc+SWc Nc+NEs Sc+SWs", "Es+Wc Ss+SWc NEc+NWs Sc+NWc")
    # Tick: Ns + Es Ss + Wc; Tock: Ns + Es Wc + Ss
    state = play_round(arrange(game, hands, shared="Ns"), ("A", "D", "B"), ("A", "C", "B"))
    result = state.history[-1]
    assert sorted(result.seats[0].hand) == sorted(result.seats[1].hand)
    assert result.winner is None and result.points == 0 and state.scores == (0, 0)


def test_clause_unused_symbol_discarded_played_cards_to_the_discard_pile(game):
    """'The remaining unused symbol is discarded': both played cards go face up to the
    discard pile; the unplayed cards stay in hand with their letters."""
    start = arrange(game, HANDS, shared="Ns Es")
    state = play_round(start, ("A", "C", "B"), ("A", "D", "B"))
    discards = {card_name(c) for c in state.supply.discards}
    assert discards == {"Es+Ss", "Ws+NWc", "Nc+NEs", "Sc+SWc"}
    assert state.view(1)["last_round"]["seats"][0]["cards"] == ["Es+Ss", "Ws+NWc"]
    assert state.seats[0].hand[2:] == start.seats[0].hand[2:]


def test_clause_two_replacement_cards_each_and_begin_again(game):
    """'After this, players are dealt 2 replacement cards, and we begin again.'"""
    start = arrange(game, HANDS, shared="Ns Es")
    deck = start.supply.deck
    state = play_round(start, ("A", "C", "B"), ("E", "G", "F"))
    assert state.round == 2 and state.phase is Phase.FIRST
    assert state.seats[0].hand[:2] == deck[:2]  # Tick is dealt first, into slots A-D
    assert (state.seats[1].hand[2], state.seats[1].hand[3]) == deck[2:4]
    assert len(state.supply.deck) == len(deck) - 4
    assert SYMBOL_NAMES[state.shared] == "Es"
    assert all(seat.picks == () for seat in state.seats)


def test_clause_32_rounds_then_the_game_ends(game):
    """'The game continues until 32 rounds have passed.' Rounds 1-16 use the first order,
    rounds 17-32 the second, each symbol once; round 17 opens with a memorise step."""
    states = random_playthrough(game, 4).record().states()
    final = states[-1]
    assert isinstance(final, TriangleClockState)
    assert final.is_over and len(final.history) == ROUNDS
    shared = [r.shared for r in final.history]
    assert tuple(shared[:16]) == final.orders[0] and tuple(shared[16:]) == final.orders[1]
    memorise_rounds = sorted({s.round for s in states if s.phase is Phase.MEMORISE})
    assert memorise_rounds == [1, 17]
    assert all(len(seat.hand) == 2 for seat in final.seats)  # nothing dealt after round 32


def test_clause_highest_score_wins(game):
    """'Whoever has the highest score at this point wins.'"""
    final = random_playthrough(game, 4).state
    ended = replace(
        final, seats=(replace(final.seats[0], score=3), replace(final.seats[1], score=9))
    )
    assert ended.returns == (-1.0, 1.0)
    assert ended.result["winner_name"] == "Tock" and ended.result["decided_by"] == "score"


def test_clause_tied_score_goes_to_the_holder_of_two_items():
    """'If the scores are tied, whichever player has 2/3 of the Final Items for this game
    wins.' Tick holds two by default; swapped, Tock wins; equal holdings draw."""
    for items, expected in (
        ("palette-swap+right-angle/mulligan", (1.0, -1.0)),
        ("mulligan/palette-swap+right-angle", (-1.0, 1.0)),
        ("palette-swap/mulligan", (0.0, 0.0)),
        ("none/none", (0.0, 0.0)),
    ):
        game = meeple.make("triangle-clock", items=items)
        final = random_playthrough(game, 4).state
        tied = replace(final, seats=tuple(replace(s, score=12) for s in final.seats))
        assert tied.returns == expected, items
        assert tied.result["decided_by"] == ("draw" if expected == (0.0, 0.0) else "items")
        # Every interface shows the reason: a tie won by items must not read as a plain win.
        reason = tied.result["reason"]
        assert reason.startswith("32 rounds have passed and the points are tied: "), reason
        if expected == (0.0, 0.0):
            assert reason.endswith(" each), so it is a draw"), reason
        else:
            winner = "Tick" if expected == (1.0, -1.0) else "Tock"
            assert f"{winner} wins the tie by holding more Final Match items (2 to 1)" in reason
    assert ended_by_score(meeple.make("triangle-clock")) == "32 rounds have passed"


def ended_by_score(game) -> str:
    """The reason of a finished game whose scores differ."""
    final = random_playthrough(game, 4).state
    seats = (replace(final.seats[0], score=5), replace(final.seats[1], score=9))
    return replace(final, seats=seats).result["reason"]


def test_returns_are_zero_until_the_end(game):
    assert game.new_game(0).returns == (0.0, 0.0)
    assert game.new_game(0).result["over"] is False


# -- the deck -------------------------------------------------------------------------------
def test_clause_deck_reshuffles_its_discards_when_it_runs_out():
    """The deck runs out after round 28 (8 dealt + 4 a round); the replacement deal of
    round 29 shuffles the discard pile into a new deck. Without Mulligans (items none)."""
    game = meeple.make("triangle-clock", items="none/none")
    states = random_playthrough(game, 11).record().states()
    first = next(k for k, s in enumerate(states) if s.supply.reshuffles)
    before, after = states[first - 1], states[first]
    assert before.round == 29 and len(before.supply.deck) == 0
    assert after.round == 30 and after.supply.reshuffles == 1
    assert after.supply.discards == ()
    assert len(after.supply.deck) == 120 - 8  # every card but the two full hands
    for state in states:
        assert sorted(cards_in_game(state)) == list(range(120))


def test_draw_from_a_short_deck_takes_the_rest_then_reshuffles():
    supply = Supply(deck=(5,), discards=(1, 2, 3), reshuffles=0)
    drawn, after = supply.draw(2, seed=1)
    assert drawn[0] == 5 and drawn[1] in (1, 2, 3)
    assert after.reshuffles == 1 and after.discards == ()
    assert sorted(drawn[1:] + after.deck) == [1, 2, 3]
    assert supply.draw(2, seed=1) == (drawn, after)  # the same seed, the same shuffle


# -- options and notation -------------------------------------------------------------------
def test_item_allocation_option_reads_and_normalises():
    assert parse_items("ps+ra/mu") == (
        frozenset({Item.PALETTE_SWAP, Item.RIGHT_ANGLE}),
        frozenset({Item.MULLIGAN}),
    )
    assert items_text(parse_items("mulligan/right-angle+palette-swap")) == (
        "mulligan/palette-swap+right-angle"
    )
    game = meeple.make("triangle-clock", items="ra+ps/mu")
    assert game.options.items == "palette-swap+right-angle/mulligan"
    assert meeple.make("triangle-clock", items="all/none").options.items == (
        "palette-swap+right-angle+mulligan/none"
    )


@pytest.mark.parametrize(
    ("items", "message"),
    [("ps+ra", "seat 0's items / seat 1's"), ("ps/hat", "'hat' is not an item")],
)
def test_bad_item_allocation_is_refused_naming_the_option(items, message):
    with pytest.raises(OptionError, match=f"option 'items' of triangle-clock: .*{message}"):
        meeple.make("triangle-clock", items=items)


def test_ranking_option_points_at_another_table(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text(
        '[[rank]]\nname = "Pair"\npattern = "kind"\nsize = 2\nstrength = 4\n'
        '[[rank]]\nname = "Nothing"\npattern = "nothing"\nstrength = 0\n',
        encoding="utf-8",
    )
    game = meeple.make("triangle-clock", ranking=str(path))
    assert [r.name for r in game.ranking.ranks] == ["Pair", "Nothing"]
    path.write_text("[[rank]]\n", encoding="utf-8")
    with pytest.raises(OptionError, match="option 'ranking' of triangle-clock: ranking table"):
        meeple.make("triangle-clock", ranking=str(path))


def test_notation_round_trips_and_ids_are_dense(game):
    seen = set()
    for i in range(game.num_actions):
        action = game.action_from_id(i)
        assert game.action_id(action) == i
        assert game.parse_action(str(action)) == action
        seen.add(str(action))
    assert len(seen) == game.num_actions == 34
    assert game.parse_action(" c +RA +ps") == game.parse_action("C +palette-swap +right-angle")
    assert str(game.parse_action("c rotate")) == "C +right-angle"
    assert game.parse_action("Memorized") is MEMORISED and game.parse_action("mulligan") is MULLIGAN
    assert str(game.parse_action("c+right-angle")) == "C +right-angle"


def test_a_word_that_starts_with_a_letter_is_not_that_letter(game):
    """'hint' was read as H with an item 'int', and answered "'int' is not an item"."""
    for text in ("hint", "Board", "help me"):
        with pytest.raises(NotationError, match="is not a Triangle Clock move; write the letter"):
            game.parse_action(text)


@pytest.mark.parametrize("text", ["I", "A +hat", "A +mulligan", "play A", ""])
def test_bad_notation_says_how_to_write_a_move(game, text):
    with pytest.raises(NotationError):
        game.parse_action(text)


def test_memorised_only_in_the_memorise_step(game):
    state = arrange(game, HANDS, shared="Ns")
    with pytest.raises(IllegalAction, match="only for the step"):
        state.apply(0, MEMORISED)
    with pytest.raises(IllegalAction, match="first memorise"):
        game.new_game(0).apply_text(0, "A")


def test_cards_are_conserved_through_a_whole_game(game):
    """Every card is in exactly one place at every step (hands, deck, discard pile)."""
    for state in random_playthrough(game, 21).record().states():
        assert sorted(cards_in_game(state)) == list(range(120))
        held = Counter(c for seat in state.seats for c in seat.hand)
        assert max(held.values()) == 1


def test_arranged_positions_keep_every_card_once(game):
    state = arrange(game, HANDS, shared="Ns")
    assert sorted(cards_in_game(state)) == list(range(120))
    assert state.seats[0].hand[0] == parse_card("Es+Ss")
    assert symbols("Ns") == (state.shared,)
