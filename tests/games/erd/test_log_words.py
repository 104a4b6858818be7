"""Erd's allocations in words for the move log (``Game.log_words``), and the server's log
never telling a seat the other's words (which name its hidden cards) before the reveal."""

from __future__ import annotations

import meeple
from meeple.games.erd.pieces import KIND_NAMES, KIND_PLURALS
from meeple.interfaces.web.live import LiveMatch
from meeple.store.matches import StoredMatch


def test_an_allocation_names_each_piles_cards_and_value():
    game = meeple.make("erd")
    state = game.new_game(1)
    assert game.log_words(state, 0, game.parse_action("rush=HLD defense=HDD")) == (
        "put 1 Heavy, 1 Light, 1 Decoy on Rush (worth 3) and 1 Heavy, 2 Decoys on Defense (worth 3)"
    )


def test_an_empty_pile_and_a_defense_with_turrets():
    game = meeple.make("erd", rules="original")
    state = game.new_game(1)
    # Blue's Defense (7) holds Red's Rush (0) by 7: two full threes, two Heavies turn Turret.
    state = state.apply(0, game.parse_action("rush=- defense=L"))
    state = state.apply(1, game.parse_action("rush=L defense=HHL"))
    assert state.sides[1].turrets == 2
    assert game.log_words(state, 1, game.parse_action("rush=- defense=L")) == (
        "put nothing on Rush (worth 0) and 1 Light on Defense (worth 3 with 2 Turrets)"
    )


def _live_match(game_name: str) -> LiveMatch:
    game = meeple.make(game_name)
    seats = [{"agent": None, "spec": "human", "joined": True, "resigned": False}] * 2
    stored = StoredMatch(
        id="m", game=game_name, options={}, seed=1, seats=seats, listed=False,
        move_seconds=None, status="playing",
    )  # fmt: skip
    return LiveMatch(stored=stored, game=game, state=game.new_game(1), hidden=[])


def _move(match: LiveMatch, seat: int, text: str) -> None:
    action = match.game.parse_action(text)
    after = match.state.apply(seat, action)
    match.note_move(match.state, seat, action, after)
    match.state = after
    match.stored.moves.append((seat, text))


def test_the_log_tells_the_other_seat_the_words_only_once_the_round_is_revealed():
    match = _live_match("erd")
    _move(match, 0, "rush=HHL defense=HDD")
    cards = (*KIND_NAMES, *KIND_PLURALS)
    for seat in (1, None):
        (entry,) = match.log_entries(seat)
        assert entry["text"] is None and "words" not in entry
        assert not any(card in str(entry) for card in cards), entry
    (own,) = match.log_entries(0)
    assert own["words"].startswith("put 2 Heavies, 1 Light on Rush")
    _move(match, 1, "rush=LDD defense=HHD")
    for seat in (0, 1, None):
        entries = match.log_entries(seat)
        assert [e["words"][:12] for e in entries] == ["put 2 Heavie", "put 1 Light,"]


def test_the_allocation_that_completes_a_round_is_followed_in_a_log_by_its_combat():
    """A log (the terminal's in a game among agents, a replay's) shows no board between the
    rounds: the second allocation of a round is followed by the combat the reveal started,
    in the board's sentences; the first allocation by nothing."""
    from meeple.interfaces.move_log import move_words

    game = meeple.make("erd")
    state = game.new_game(1)
    assert "\n" not in move_words(state, 0, "rush=DDD defense=HHD").plain
    state = state.apply_text(0, "rush=DDD defense=HHD")
    lines = move_words(state, 1, "rush=LDD defense=LLD").plain.split("\n")
    assert lines[1:] == [
        "    Combat of game 1, round 1:",
        "    Red's Rush (0) does not beat Blue's Defense (2).",
        "    Blue's Rush (1) does not beat Red's Defense (6).",
        "    Both Defenses held.",
        "    Red's Defense exceeded the Rush by 5: 1 defending Heavy becomes a Turret.",
        "    Every other card in the piles is discarded.",
        "    Recovery: Red takes back 3 Decoys; Blue takes back 3 Lights, 3 Decoys.",
    ]


def test_the_browsers_log_tells_each_combat_under_the_allocation_that_revealed_it():
    """The server's log, which the browser shows, tells each combat below the allocation
    that revealed it, as the terminal's does (``Game.log_after``): the combats of earlier
    rounds, which the table no longer shows, stay in the log. Nothing below the round's
    first allocation, for any seat, before or after the reveal."""
    match = _live_match("erd")
    _move(match, 0, "rush=DDD defense=HHD")
    for seat in (0, 1, None):
        (entry,) = match.log_entries(seat)
        assert "after" not in entry
    _move(match, 1, "rush=LDD defense=LLD")
    for seat in (0, 1, None):
        first, second = match.log_entries(seat)
        assert "after" not in first
        assert second["after"][:3] == [
            "Combat of game 1, round 1:",
            "Red's Rush (0) does not beat Blue's Defense (2).",
            "Blue's Rush (1) does not beat Red's Defense (6).",
        ]
