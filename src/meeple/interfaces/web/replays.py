"""Uploaded records, checked and stepped through off the server's event loop.

A record may be 2 MB of JSON: reading it, validating it and replaying its moves holds the
CPU (and, in C code such as ``json.loads``, Python's lock) for tens of milliseconds or more.
:func:`replay_answer` does all of it, from the uploaded bytes to the JSON bytes of the
answer, in a worker process of its own (a thread where the server runs its agents in
threads), so the server's process only passes bytes along.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from meeple.core.errors import MeepleError, RecordError
from meeple.core.game import Player, State, shorten
from meeple.core.record import GameRecord
from meeple.core.simultaneous import secret, secret_moves
from meeple.core.text import unprintable
from meeple.interfaces.web.content_sets import ContentSets
from meeple.interfaces.web.live import (
    SERVER_ENDS,
    ServerError,
    error_code,
    move_notes,
    public_message,
)
from meeple.interfaces.web.lobby import ONLINE_CONTENT

MAX_RECORD_BYTES = 2_000_000
"""The largest record the replay endpoint reads (a long Squad Combat game is ~30 kB)."""

REPLAY_SECONDS = 30.0
"""How long checking one uploaded record may take before its worker is stopped."""


def _parsed(body: bytes, most_moves: int) -> GameRecord:
    """The uploaded record, refused past ``most_moves`` (the server's ``--max-match-moves``)
    before anything replays it: a record of tens of thousands of moves fits in 2 MB, and its
    every state's view is a reply far larger, from a worker busy for seconds."""
    record = GameRecord.from_json(body, "the record", exact=True)
    if len(record.moves) > most_moves:
        raise ServerError(
            f"the record has {len(record.moves):,} moves, more than a match on this server may "
            f"have ({most_moves:,}: meeple serve --max-match-moves)",
            413,
            "too_large",
        )
    return record


def replay_answer(body: bytes, content: ContentSets, most_moves: int) -> tuple[str, Any, str]:
    """Runs in a worker: ``("ok", answer, "")`` with the answer as JSON bytes, or
    ``("refused", message, code)`` for a record that cannot be replayed (``content``: the
    operator's content sets, which a record may name; ``most_moves``: the most moves it may
    have)."""
    try:
        answer = replay_states(_parsed(body, most_moves), content)
    except MeepleError as exc:
        return ("refused", public_message(exc), error_code(exc))
    return ("ok", json.dumps(answer, separators=(",", ":")).encode(), "")


def review_upload(body: bytes, content: ContentSets, most_moves: int) -> tuple[str, Any, str]:
    """Runs in a worker: ``("ok", (game, options, seed, moves), "")``, an uploaded record
    checked and replayed, with an installed set's files in its options (what a review of
    it needs), or ``("refused", message, code)``."""
    try:
        record, _states, _shown = uploaded_record(_parsed(body, most_moves), content)
    except MeepleError as exc:
        return ("refused", public_message(exc), error_code(exc))
    return ("ok", (record.game, record.options, record.seed, list(record.moves)), "")


def board_text_answer(
    body: bytes, content: ContentSets, most_moves: int, step: int, seat: int | None
) -> tuple[str, Any, str]:
    """Runs in a worker: ``("ok", answer, "")``, the board as text after move ``step`` of an
    uploaded record as ``seat`` saw it then (None: a spectator), or ``("refused", message,
    code)``. One step a request: drawing every state's text would cost tens of ms each."""
    try:
        record, states, _shown = uploaded_record(_parsed(body, most_moves), content)
        text = board_text_at(record, states, step, seat)
    except MeepleError as exc:
        return ("refused", public_message(exc), error_code(exc))
    return ("ok", {"step": step, "seat": seat, "text": text}, "")


def board_text_at(record: GameRecord, states: list[State[Any]], step: int, seat: int | None) -> str:
    """``Game.render_text`` of a record's state after move ``step``, as ``seat`` saw it (None:
    a spectator), as the game page's "Board as text" drew it then. A seat's board is shown
    once the match is over, as :func:`replay_states` shows its views: only then is the record
    public (``GET /api/matches/{id}/record``)."""
    last = len(states) - 1
    if step > last:
        raise ServerError(
            f"step: this record has {last} moves; a step is 0 (the start) to {last}",
            422,
            "invalid_request",
        )
    game = states[0].game
    if seat is not None:
        if seat >= game.num_players:
            raise ServerError(
                f"seat: this game has seats 0 to {game.num_players - 1}; leave seat out for a "
                "spectator's board",
                422,
                "invalid_request",
            )
        if not is_over(record, states):
            raise ServerError(
                "seat: a seat's board is shown once the match is over; leave seat out for a "
                "spectator's board",
                403,
                "forbidden",
            )
    return game.render_text(states[step], seat)


SEAT_LISTS = ("winners", "resigned", "abandoned")
"""The seat lists of a result a server writes for a match ended before its game was."""


def check_early_result(result: Mapping[str, Any], players: int) -> None:
    """Refuse (RecordError) a record's result that says its match ended before its game
    did, unless it is shaped as a server writes one (a seat resigned or was claimed from, or
    the server ended the match): its reason one printable line, a return per seat, and seat
    lists naming seats of the game. Such a result is taken at its word (the game's own
    replay cannot say it) and sent back to the page that replays it, so nothing else in it
    may pass: a reason with control characters, a winner the game has no seat for."""
    fields = ("over", "reason", "returns", *SEAT_LISTS, *SERVER_ENDS)

    def refuse(what: str) -> RecordError:
        return RecordError(f"the record's result, which says its match ended early, {what}")

    unknown = sorted(str(k) for k in result if k not in fields)
    if unknown:
        raise refuse(f"has {shorten(repr(unknown[0]), 40)}; its fields are: {', '.join(fields)}")
    reason = result.get("reason")
    problem = unprintable(reason) if isinstance(reason, str) else "it is not text"
    if problem is not None or len(str(reason)) > 500:
        raise refuse(f"has a reason that is not one line of printable text ({problem or 'long'})")
    returns = result.get("returns")
    numbers = isinstance(returns, list) and all(
        type(r) in (int, float) and math.isfinite(r) for r in returns
    )
    if not numbers or len(returns or ()) != players:
        raise refuse(f"needs returns, a number for each of its {players} seats")
    for key in SEAT_LISTS:
        seats = result.get(key, [])
        named = isinstance(seats, list) and all(type(p) is int for p in seats)
        if not named or not set(seats) <= set(range(players)) or len(set(seats)) != len(seats):
            allowed = f"seats 0 to {players - 1}, each once"
            raise refuse(f"has {key} {shorten(repr(seats), 40)}: {allowed}")
    for key in SERVER_ENDS:
        if key in result and result[key] is not True:
            raise refuse(f"has {key} {shorten(repr(result[key]), 40)}: only true")


def is_over(record: GameRecord, states: list[State[Any]]) -> bool:
    """Whether a record's match is over: its game is, or its ``result`` says the match ended
    before the game did (a resign). Every seat's view is then shown to anyone."""
    return states[-1].is_over or record.ended_early()


def uploaded_record(
    record: GameRecord, content: ContentSets
) -> tuple[GameRecord, list[State[Any]], dict[str, Any]]:
    """An uploaded record, checked (no file options; an installed set, by name, resolved to
    its files) and replayed: the record, its states, and its options as uploaded (set names,
    never the installed paths)."""
    _, sets = content.check(record.game, record.options, "an uploaded record", ONLINE_CONTENT)
    shown = record.options
    if sets:
        record = record.model_copy(update={"options": content.resolve(record.game, record.options)})
    with content.naming(sets):  # a set's files in a refusal (its digest, say) by its name
        states = record.states()
    if record.result is not None and record.ended_early() and not states[-1].is_over:
        check_early_result(record.result, states[0].game.num_players)
    return record, states, shown


def replay_states(record: GameRecord, content: ContentSets) -> dict[str, Any]:
    """A record's states as a spectator sees them, every hand open once it is over; a
    content set it names by name is replayed with its files."""
    record, states, shown = uploaded_record(record, content)
    game = states[0].game
    # A match can end before its game does (a resign): the record's result says so, and the
    # record holds every move and the seed, so every seat's view hides nothing it lacks.
    ended = record.ended_early()
    over = is_over(record, states)
    return {
        "game": record.game,
        "options": shown,
        "moves": [
            {
                "n": n,
                "seat": p,
                "text": t,
                **move_notes(game, states[n - 1], p, game.parse_action(t)),
            }
            for n, (p, t) in enumerate(record.moves, 1)
        ],
        "views": [
            {
                "spectator": s.view(None),
                "seats": [s.view(p) for p in range(s.game.num_players)] if over else None,
                "concealed": concealed_moves(states, record.moves, k),
            }
            for k, s in enumerate(states)
        ],
        "result": (record.result if ended else states[-1].result) if over else None,
    }


def concealed_moves(states: list[State[Any]], moves: list[tuple[Player, str]], k: int) -> list[int]:
    """The moves (numbered from 1) that, after move ``k``, only their own seat had seen: the
    choices made so far in a simultaneous decision the rules have not yet revealed (a
    Triangle Clock Mulligan made in it too, which changes no submission), not a memorise
    step's, which hides nothing. The replay page shows them to another seat's eyes as "has
    chosen", as the game page does."""
    return [n for n in secret_moves(states[: k + 1]) if secret(states[n - 1], moves[n - 1][0])]
