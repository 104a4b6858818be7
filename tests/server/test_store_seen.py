"""MatchStore's ``seen``: a change decided on an old reading of a match stores nothing, on
both databases (what lets two server processes share one: test_two_servers.py races it)."""

from __future__ import annotations

import copy

import pytest

from meeple.store.matches import MatchChanged, MatchStore, MoveConflict, StoredMatch


def _waiting_match() -> StoredMatch:
    seat = {"spec": "human", "agent": None, "name": None, "token": None, "resigned": False}
    return StoredMatch(
        id="m1",
        game="edges",
        options={"board": "2x2"},
        seed=7,
        seats=[{**seat, "joined": True, "name": "Ann"}, {**seat, "joined": False}],
        listed=True,
        move_seconds=None,
        status="waiting",
    )


def test_a_change_decided_on_an_old_reading_of_the_match_stores_nothing(db_url: str) -> None:
    store = MatchStore(db_url)
    store.create(_waiting_match())
    old = store.get("m1")
    assert old is not None
    taken = copy.deepcopy(old.seats)
    taken[1].update(joined=True, name="Bob", token="1" * 64)
    store.update("m1", seen=old, seats=taken, status="playing")  # as read: stored
    assert store.get("m1").seats == taken
    assert store.holds_token("m1", "1" * 64)
    assert not store.holds_token("m1", "2" * 64) and not store.holds_token("m2", "1" * 64)
    # Decided on the reading before Bob sat: refused, and Bob keeps his seat.
    stolen = copy.deepcopy(old.seats)
    stolen[1].update(joined=True, name="Eve", token="2" * 64)
    with pytest.raises(MatchChanged, match=r"changed match m1 \(seats and status\)"):
        store.update("m1", seen=old, seats=stolen, status="playing")
    with pytest.raises(MatchChanged, match="seats and status"):
        store.add_move("m1", 1, 0, "L0,0", seen=old)
    now = store.get("m1")
    assert now.seats == taken and now.status == "playing" and now.moves == []
    # A move decided on the match as it is stands; one after the match ended does not.
    store.add_move("m1", 1, 0, "L0,0", seen=now)
    store.update("m1", seen=now, status="finished", result={"over": True, "reason": "test"})
    with pytest.raises(MatchChanged, match=r"\(status\)"):
        store.add_move("m1", 2, 1, "R0,0", seen=now)
    with pytest.raises(MoveConflict, match="move 1 of match m1 is stored already"):
        store.add_move("m1", 1, 1, "R0,0", seen=store.get("m1"))
    assert store.get("m1").moves == [(0, "L0,0")]
    assert store.get("m1", moves_after=1).moves == []  # what a server holding it has not seen
