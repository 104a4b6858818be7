"""Hidden information: what each seat sees, and determinization (issue 4, clause 5)."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from meeple.core.conformance import random_playthrough
from meeple.games.triangle_clock import Phase, Pick, TriangleClockState
from meeple.games.triangle_clock.cards import SYMBOL_NAMES
from meeple.games.triangle_clock.rules import BLOCK, Seat, Supply

from .conftest import arrange, both

HANDS = (
    "Es+Ss Ws+NWc SWs+SWc Ec+Wc",
    "Nc+NEs Sc+SWc SEs+SEc NEc+Wc",
)


def game_states(game, seed: int) -> list[TriangleClockState]:
    return random_playthrough(game, seed).record().states()  # type: ignore[return-value]


def swap_hidden_cards(state: TriangleClockState, other: int) -> TriangleClockState:
    """The opponent's unplayed cards exchanged with cards of the deck."""
    seat = state.seats[other]
    played = {p.slot for p in seat.picks}
    deck = list(state.supply.deck)
    hand = list(seat.hand)
    for k in range(len(hand)):
        if k not in played and deck:
            hand[k], deck[-1 - k] = deck[-1 - k], hand[k]
    new = replace(seat, hand=tuple(hand))
    seats = (new, state.seats[1]) if other == 0 else (state.seats[0], new)
    return replace(state, seats=seats, supply=replace(state.supply, deck=tuple(deck)))


def test_clause_a_seat_sees_its_own_hand(game):
    state = arrange(game, HANDS, shared="Ns")
    hand = state.view(0)["hand"]
    assert [c["symbols"] for c in hand] == [
        ["Es", "Ss"],
        ["Ws", "NWc"],
        ["SWs", "SWc"],
        ["Ec", "Wc"],
    ]
    assert [c["letters"] for c in hand] == [["A", "B"], ["C", "D"], ["E", "F"], ["G", "H"]]
    assert state.view(None)["hand"] is None


def test_clause_never_the_opponents_hand(game):
    """Exchanging the opponent's hidden cards with deck cards changes nothing a seat sees,
    at every step of several random games."""
    for seed in range(3):
        for state in game_states(game, seed)[::3]:
            if state.is_over or len(state.supply.deck) < 4:
                continue
            for player in (0, 1):
                other = swap_hidden_cards(state, 1 - player)
                assert other.seats[1 - player].hand != state.seats[1 - player].hand
                assert other.view(player) == state.view(player)
                assert other.view(None) == state.view(None)


def test_clause_never_an_unrevealed_submission(game):
    """Whatever the opponent submitted, a seat's view is the same until both are in."""
    for state in game_states(game, 7)[:60]:
        if state.phase not in (Phase.FIRST, Phase.SECOND, Phase.THIRD) or state.to_act != (0, 1):
            continue
        views = {
            json.dumps(state.apply(0, a).view(1), sort_keys=True)
            for a in state.legal_actions(0)
            if isinstance(a, Pick)
        }
        assert len(views) == 1


def test_clause_all_revealed_symbols_are_public(game):
    state = both(both(arrange(game, HANDS, shared="Ns"), "A", "D"), "C +right-angle", "A")
    for viewer in (0, 1, None):
        assert state.view(viewer)["revealed"] == [
            [{"symbol": "Es", "items": []}, {"symbol": "Ns", "items": ["right-angle"]}],
            [{"symbol": "SWc", "items": []}, {"symbol": "Nc", "items": []}],
        ]


def test_clause_shared_order_only_during_the_memorise_step(game):
    """'After 2 minutes the order is hidden again': the order is in every view during the
    memorise step, in none after it; permuting the symbols not yet revealed changes no
    view outside that step."""
    rng = random.Random(0)
    for state in game_states(game, 3):
        if state.phase is Phase.MEMORISE:
            for viewer in (0, 1, None):
                shown = state.view(viewer)["memorise"]
                assert shown["order"] == [SYMBOL_NAMES[s] for s in state.orders[state.block]]
            continue
        if state.is_over:
            continue
        known = (state.round - 1) % BLOCK + 1
        orders = list(state.orders)
        future = list(orders[state.block][known:])
        rng.shuffle(future)
        orders[state.block] = (*orders[state.block][:known], *future)
        other = replace(state, orders=tuple(orders))
        for viewer in (0, 1, None):
            assert state.view(viewer)["memorise"] is None
            assert other.view(viewer) == state.view(viewer)


def test_the_memorise_step_shows_rounds_17_to_32_at_round_17(game):
    state = next(s for s in game_states(game, 2) if s.phase is Phase.MEMORISE and s.round == 17)
    shown = state.view(1)["memorise"]
    assert shown["rounds"] == [17, 32]
    assert shown["order"] == [SYMBOL_NAMES[s] for s in state.orders[1]]


def test_determinize_resamples_what_the_seat_cannot_know(game):
    """The opponent's hand, the deck order and the future shared symbols are resampled;
    the seat's own hand and everything revealed stay."""
    state = both(arrange(game, HANDS, shared="Ns", seed=4), "A", "D")
    rng = random.Random(1)
    samples = [state.determinize(0, rng) for _ in range(20)]
    assert all(s.seats[0] == state.seats[0] for s in samples)
    assert all(s.view(0) == state.view(0) for s in samples)
    assert len({s.seats[1].hand for s in samples}) > 10
    assert len({s.supply.deck for s in samples}) == 20
    assert len({s.orders for s in samples}) == 20
    assert all(s.orders[0][0] == state.orders[0][0] for s in samples)  # revealed: kept
    # the card Tock revealed SWc from still holds SWc in every sample
    for s in samples:
        seat: Seat = s.seats[1]
        assert seat.revealed(seat.picks[0]) == state.seats[1].revealed(state.seats[1].picks[0])


def test_determinize_resamples_the_opponents_waiting_choice(game):
    state = arrange(game, HANDS, shared="Ns").apply_text(1, "C")
    rng = random.Random(2)
    choices = {str(state.determinize(0, rng).pending.of(1)) for _ in range(30)}
    assert len(choices) > 3
    own = arrange(game, HANDS, shared="Ns").apply_text(0, "A +palette-swap")
    assert str(own.determinize(0, rng).pending.of(0)) == "A +palette-swap"


def test_determinize_keeps_the_order_while_it_is_shown(game):
    state = game.new_game(5)
    assert state.phase is Phase.MEMORISE
    sample = state.determinize(1, random.Random(0))
    assert sample.orders[0] == state.orders[0]
    assert sample.orders[1] != state.orders[1]


def test_determinize_keeps_cards_conserved(game):
    rng = random.Random(3)
    for state in game_states(game, 9)[::5]:
        for player in (0, 1):
            sample = state.determinize(player, rng)
            cards = [c for seat in sample.seats for c in seat.hand]
            cards += list(sample.supply.deck + sample.supply.discards)
            assert sorted(cards) == list(range(120))


def test_remembering_puts_a_memory_back_into_a_sample(game):
    """Memory is the agent's: a sample forgets the order, remembering restores it, and a
    memory that contradicts a revealed symbol is refused."""
    state = both(arrange(game, HANDS, shared="Ns Es"), "A", "A")
    sample = state.determinize(0, random.Random(0))
    assert sample.remembering(state.orders[0]).orders == (state.orders[0], sample.orders[1])
    wrong = (state.orders[0][1], state.orders[0][0], *state.orders[0][2:])
    with pytest.raises(ValueError, match="contradicts"):
        sample.remembering(wrong)


def test_a_seat_memorises_only_what_the_memorise_step_shows(game):
    """``State.memory``: at a memorise step, the order its view shows (with the block);
    nothing at any other step. ``recalling`` puts the latest memory of the current block
    into a sample and ignores one of another block or one that contradicts the table."""
    states = game_states(game, 4)
    shown = {s.block: s for s in states if s.phase is Phase.MEMORISE}
    assert sorted(shown) == [0, 1]
    for state in states:
        for seat in (0, 1):
            memory = state.memory(seat)
            if state.phase is not Phase.MEMORISE:
                assert memory is None
                continue
            assert memory == (state.block, state.orders[state.block])
            order = state.view(seat)["memorise"]["order"]
            assert [SYMBOL_NAMES[s] for s in memory[1]] == order
    later = next(s for s in states if s.phase is not Phase.MEMORISE and s.round == 5)
    sample = later.determinize(0, random.Random(1))
    assert sample.orders[0] != later.orders[0]
    memories = [shown[0].memory(0)]
    assert sample.recalling(memories).orders[0] == later.orders[0]
    assert sample.recalling([shown[1].memory(0)]) == sample  # rounds 17-32: not yet
    wrong = (0, (*later.orders[0][1:], later.orders[0][0]))
    assert sample.recalling([*memories, wrong]).orders[0] == later.orders[0]


def test_views_show_the_last_round_and_the_shared_symbols_so_far(game):
    """The table after a round: the last round in full, and the shared symbols revealed so
    far of the current order (rounds 17-32 at the end)."""
    state = game_states(game, 6)[-1]
    view = state.view(0)
    assert json.loads(json.dumps(view)) == view
    last = view["last_round"]
    assert last["round"] == 32 and last["shared"] == SYMBOL_NAMES[state.history[-1].shared]
    assert [len(s["revealed"]) for s in last["seats"]] == [3, 3]
    assert view["shared_revealed"] == [SYMBOL_NAMES[s] for s in state.orders[1]]
    middle = both(arrange(game, HANDS, shared="Ns Es"), "A", "A")
    assert middle.view(1)["shared_revealed"] == ["Ns"] and middle.view(1)["last_round"] is None


def test_supply_is_public_only_as_counts_and_the_face_up_pile(game):
    state = arrange(game, HANDS, shared="Ns")
    view = state.view(0)
    assert view["deck"] == 112 and view["discards"] == []
    shuffled = replace(state, supply=Supply(tuple(reversed(state.supply.deck)), (), 0))
    assert shuffled.view(0) == view
