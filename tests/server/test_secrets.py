"""Secrets: a seat is sent only what it may know, message by message, in whole games.

Two clients play every game to its end through a real server. Afterwards the record is
public, so every state the match went through can be rebuilt, and each message a seat
received is checked against the state it was sent at:

- its view is ``state.view(seat)``, and stays the same for every state the seat cannot
  tell from the true one (``state.determinize(seat, rng)`` differs only in hidden parts);
- it lists legal moves only for itself, and only when it is to act;
- a move another seat made in a simultaneous decision is never shown while that decision is
  open (the rules reveal it once every seat has chosen, or at the end);
- everything else in the message is the same for every seat (it is public).
"""

from __future__ import annotations

import asyncio
import random

import pytest

from meeple.core.record import GameRecord
from meeple.core.simultaneous import secret, secret_moves
from meeple.interfaces.web.client import Client
from tests import plain_http
from tests.server.conftest import module_server

# Short configurations, so that whole games fit in the suite's time.
GAMES = {
    "edges": {"board": "2x3", "stash": "3/3/2"},
    "erd": {"best_of": 3},
    "erosion": {},
    "triangle-clock": {},
    "squad-combat": {},
}

PER_SEAT_FIELDS = {
    "view", "legal", "unplayable", "warnings", "log", "log_start", "seat", "memorise",
}  # fmt: skip


def still_secret(states, moves, seq: int) -> list[int]:
    """The moves (numbered from 0) of the simultaneous decision still open after move
    ``seq``, whose choices the rules have not revealed: every earlier decision's have been.
    A Triangle Clock Mulligan made in it is one of them, though it is no submission; a
    memorise step's move is not (it hides nothing)."""
    return [
        n - 1 for n in secret_moves(states[: seq + 1]) if secret(states[n - 1], moves[n - 1][0])
    ]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with module_server(tmp_path_factory, "secrets") as server:
        yield server


def _options(game: str) -> dict:
    from meeple.core.registry import game_class

    fields = game_class(game).Options.model_fields
    return {k: v for k, v in GAMES[game].items() if k in fields}


async def _play_whole_game(url: str, game: str, seed: int) -> tuple[list[Client], Client, dict]:
    created = plain_http.post(
        f"{url}/api/matches",
        # The server draws the seed: a chosen one is refused where two people play.
        json={"game": game, "options": _options(game), "seats": ["human", "human"]},
    ).json()
    tokens = [s["token"] for s in created["seats"]]
    seats = [
        await Client(url, created["match"], t, f"P{k}").connect() for k, t in enumerate(tokens)
    ]
    watcher = await Client(url, created["match"], None).connect()
    await asyncio.gather(
        *(c.play_random(random.Random(seed * 10 + k)) for k, c in enumerate(seats))
    )
    for c in (*seats, watcher):
        await c.wait_for(lambda c=c: c.state["status"] == "finished")
        await c.close()
    record = plain_http.get(f"{url}/api/matches/{created['match']}/record").json()
    return seats, watcher, record


@pytest.mark.parametrize("game", list(GAMES))
def test_no_message_tells_a_seat_what_it_may_not_see(server, game):
    # The server draws each game's seed, so random play can end one in a few moves (two
    # passes in a row end a two-seat Erosion game): such a game shows too little, and another is
    # played, up to three.
    for attempt in range(3):
        seats, watcher, record_data = asyncio.run(
            _play_whole_game(server.url, game, seed=7 + attempt)
        )
        record = GameRecord.model_validate(record_data)
        if len(record.moves) >= 6:
            break
    assert len(record.moves) >= 6
    states = record.states()
    assert states[-1].is_over
    # A refusal is right only when the other seat changed the position meanwhile.
    assert all(e.startswith("stale move") for c in seats for e in c.errors), [
        c.errors for c in seats
    ]
    rng = random.Random(1)
    hidden_moves = 0
    by_seq: dict[tuple[int, str], list[dict]] = {}
    for client, seat in [*((c, k) for k, c in enumerate(seats)), (watcher, None)]:
        log: list[dict] = []
        for message in client.messages:
            if message["type"] != "state":
                continue
            seq = message["seq"]
            state = states[seq]
            over = message["status"] == "finished"
            assert message["seat"] == seat
            assert message["view"] == state.view(seat)
            if seat is not None and not over and not state.game.perfect_information:
                for _ in range(3):
                    twin = state.determinize(seat, rng)
                    assert twin.view(seat) == message["view"]
            legal = {m["text"] for m in message["legal"]}
            if seat is not None and seat in state.to_act and message["status"] == "playing":
                assert legal == {str(a) for a in state.legal_actions(seat)}
                # What the seat holds and cannot play: its own hand only, as the rules say.
                assert message["unplayable"] == state.unplayable(seat)
                # The moves said to lose: the rules' own answer, from public facts only (the
                # same whatever the hidden cards, as a twin of the state shows).
                assert message["warnings"] == state.move_warnings(seat)
                if not state.game.perfect_information:
                    twin = state.determinize(seat, rng)
                    assert twin.move_warnings(seat) == message["warnings"]
            else:
                assert not legal and message["unplayable"] == {} and message["warnings"] == {}
            log[message["log_start"] :] = message["log"]
            assert len(log) == seq
            # Worked out once a message (it was once an entry, nine tenths of the test).
            unrevealed = set() if over else set(still_secret(states, record.moves, seq))
            for n, entry in enumerate(log):
                player, text = record.moves[n]
                assert entry["seat"] == player
                secret = player != seat and n in unrevealed
                if secret:
                    hidden_moves += 1
                    assert entry["text"] is None, f"seat {seat} saw {player}'s hidden {text!r}"
                    assert "words" not in entry, f"seat {seat} was told {entry['words']!r}"
                else:
                    assert entry["text"] == text
            if seat is not None and not over:
                public = {k: v for k, v in message.items() if k not in PER_SEAT_FIELDS}
                by_seq.setdefault((seq, message["status"]), []).append(public)
    if game in ("erd", "triangle-clock"):
        assert hidden_moves > 0, "the test must meet simultaneous decisions"
    # What is not per seat is public: both seats were sent the same at the same seq.
    for copies in by_seq.values():
        for other in copies[1:]:
            strip = {"deadlines", "seats"}  # time left and presence change between sends
            assert {k: v for k, v in other.items() if k not in strip} == {
                k: v for k, v in copies[0].items() if k not in strip
            }


def test_the_record_is_refused_until_the_end(server):
    created = plain_http.post(
        f"{server.url}/api/matches", json={"game": "erd", "seats": ["human", "heuristic"]}
    ).json()
    reply = plain_http.get(f"{server.url}/api/matches/{created['match']}/record")
    assert reply.status_code == 403
    assert "once the match is over" in reply.json()["error"]


def test_without_notes_no_page_is_sent_what_the_rules_leave_to_memory(server):
    """The Triangle Clock with notes=forbidden: neither seat's page nor a spectator's is
    sent the discard pile, earlier shared symbols, or the last round once the next round
    is under way (``game.person_view``)."""
    asyncio.run(_play_without_notes(server.url))


async def _play_without_notes(url: str) -> None:
    created = plain_http.post(
        f"{url}/api/matches",
        json={"game": "triangle-clock", "options": {"notes": "forbidden"},
              "seats": ["human", "human"]},
    ).json()  # fmt: skip
    match = created["match"]
    seats = [await Client(url, match, s["token"]).connect() for s in created["seats"]]
    watcher = await Client(url, match, None).connect()
    await asyncio.gather(*(c.play_random(random.Random(k), moves=14) for k, c in enumerate(seats)))
    views = [m["view"] for c in (*seats, watcher) for m in c.messages if m["type"] == "state"]
    assert max(v["round"] for v in views) >= 3, "the test must play past a few rounds"
    for view in views:
        assert view["discards"] is None and view["shared_revealed"] is None
        if view["phase"] in ("second", "third"):
            assert view["last_round"] is None, view
    assert any(v["last_round"] for v in views)  # shown at the first choice after a round
    for c in (*seats, watcher):
        await c.close()


def test_a_mulligan_keeps_the_other_seat_s_pick_hidden(server):
    """Tick picks, then Tock takes a Mulligan (a new hand, no choice made): Tick's pick is
    still hidden from Tock, whose decision is still open; Tock's pick reveals both."""

    async def play() -> list[dict]:
        created = plain_http.post(
            f"{server.url}/api/matches",
            json={"game": "triangle-clock", "options": {}, "seats": ["human", "human"]},
        ).json()
        tick, tock = [
            await Client(server.url, created["match"], s["token"]).connect()
            for s in created["seats"]
        ]

        async def move(client: Client, text: str | None = None) -> None:
            await client.wait_for(client.my_turn)
            legal = [m["text"] for m in client.state["legal"]]
            chosen = text if text is not None else next(m for m in legal if m != "mulligan")
            assert chosen in legal, legal
            acks = len(client.acks)
            await client.send({"type": "move", "seq": client.state["seq"], "action": chosen})
            await client.wait_for(lambda: len(client.acks) > acks)

        for client in (tick, tock):
            await move(client, "memorised")
        await move(tick)
        await move(tock, "mulligan")
        await tock.wait_for(lambda: tock.state["seq"] == 4)
        after_mulligan = [dict(e) for e in tock.log]  # as the page has put it together
        await move(tock)
        await tock.wait_for(lambda: tock.state["seq"] == 5)
        revealed = [dict(e) for e in tock.log]
        for client in (tick, tock):
            await client.close()
        return [after_mulligan, revealed]

    after_mulligan, revealed = asyncio.run(play())
    entries = {e["n"]: e for e in after_mulligan}
    assert entries[3]["seat"] == 0 and entries[3]["text"] is None, entries[3]
    assert "words" not in entries[3]
    assert [e["text"] is not None for e in revealed[2:5]] == [True, True, True]
