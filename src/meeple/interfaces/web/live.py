"""A match as the server holds it in memory, its clients, and what each client is sent.

Everything here is a function of one match: what a seat may know of it (its view, its
legal moves, the move log with others' hidden choices left out), and the public summary
the lobby shows. The :mod:`~meeple.interfaces.web.hub` changes matches; this module only
describes them.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from meeple.agents import HUMAN
from meeple.agents.levels import agent_label
from meeple.core.errors import (
    AgentSpecError,
    FileOptionRefused,
    GamePackageError,
    IllegalAction,
    MeepleError,
    NotationError,
    OptionError,
    RecordError,
    UnknownGame,
)
from meeple.core.game import ActionIdError, Game, Player, State
from meeple.core.record import GameRecord
from meeple.core.simultaneous import secret, settles, submitted
from meeple.core.text import unprintable
from meeple.core.tutorial import Tutorial, finished
from meeple.interfaces.web.seeds import seed_commitment
from meeple.store.db import StorageUnavailable
from meeple.store.matches import StoredMatch

TUTOR = "tutorial"
"""The spec and agent of a tutorial's scripted seat: it plays the tutorial file's replies."""

SEND_QUEUE_LIMIT = 256
"""Messages waiting for one slow client before the server drops its connection."""


STATUS_CODES = {
    400: "bad_request",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    408: "hello_timeout",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "rate_limited",
    500: "internal_error",
    503: "storage_unavailable",
}
"""The stable ``code`` of a refusal that names none of its own, by HTTP status."""

UNAVAILABLE = "match_unavailable"
"""The code of a match the server cannot serve now (a damaged row; a content set edited
since the match began): the operator's to mend, not the client's fault nor a fault of the
server's code, so a 503 with its reason, not a 500."""


class ServerError(MeepleError):
    """A request the server refuses; ``status`` is the HTTP status that goes with it, and
    ``code`` the stable snake_case name a client program tests (docs/api.md lists them),
    and ``retry_after`` the seconds to wait before asking again, where waiting helps."""

    def __init__(
        self,
        message: str,
        status: int = 400,
        code: str | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code or STATUS_CODES.get(status, "bad_request")
        self.retry_after = retry_after


def open_seats(seats: list[dict[str, Any]]) -> list[Player]:
    """The seats of a match that anyone may take: a person's seat nobody has taken, whose
    token was not handed out at creation (``reserved``: kept for the creator's link), or
    whose holder gave it up (``leave``). Seats stored before ``reserved`` existed count as
    not reserved, as they were served then."""
    return [
        s
        for s, seat in enumerate(seats)
        if seat["spec"] == HUMAN and not seat["joined"] and not seat.get("reserved", False)
    ]


Notes = dict[str, Any]
"""A move's :func:`move_notes`: ``words`` and ``after``, each present only when not empty."""


SERVER_ENDS = ("expired", "aborted", "lesson", "move_limit")
"""The ways a server ends a match outside its game's rules (:func:`ended_by_the_server`'s
``how``), each a flag of the result."""


def ended_by_the_server(players: int, reason: str, how: str) -> dict[str, Any]:
    """The result of a match the server ended outside its game's rules: nobody wins, every
    seat's return is 0, and ``how`` (one of :data:`SERVER_ENDS`) is set, so that the pages
    and clients can say how it ended."""
    assert how in SERVER_ENDS, how  # a replayed record's result is checked against them
    return {"over": True, "reason": reason, "returns": [0.0] * players, "winners": [], how: True}


def seat_label(game_name: str, data: dict[str, Any]) -> str | None:
    """The seat's player in plain words: "Computer (hard)" for a seat made for an agent
    (never its raw spec), the person's name, or None for a seat nobody has taken."""
    if data["agent"] == TUTOR:
        return "Tutor (scripted)"
    if data["token"] is None and data["agent"] is not None:  # created for the computer
        return agent_label(game_name, data["agent"])
    return data["name"] if data["joined"] else None


def move_notes(game: Game[Any, Any, Any], before: State[Any], player: Player, action: Any) -> Notes:
    """What a log entry says of a move besides its notation, each only where the game has
    something to say: ``words``, the move in words (``Game.log_words``), and ``after``, what
    the game then did by itself, a line each (``Game.log_after``: Squad Combat's dice, hits
    and misses, which later moves may push out of the board's own short log)."""
    notes: Notes = {}
    words = game.log_words(before, player, action)
    if words:
        notes["words"] = words
    after = game.log_after(before, player, action)
    if after:
        notes["after"] = list(after)
    return notes


@dataclass(eq=False)
class Connection:
    """One client's socket, as the hub sees it: a seat (None: spectator) and an outbox."""

    seat: Player | None
    token: str | None = None
    """The stored hash of the token the seat's client said hello with (None: a spectator):
    once the seat's token is another (the seat was left, here or on another server process
    sharing the database), the client no longer holds the seat."""
    outbox: asyncio.Queue[dict[str, Any] | None] = field(
        default_factory=lambda: asyncio.Queue(SEND_QUEUE_LIMIT)
    )
    log_sent: int = 0
    """How many log entries this client holds (only new ones are sent)."""
    concealed: int | None = None
    """The first log entry this client holds as "has chosen" (sent again once revealed)."""
    board_text: bool = False
    """Whether this client asked for the board as text in its state messages (``board_text``)."""
    base_url: str | None = None
    """Where this client reached the server (``http(s)://host``), for links sent to it
    alone; None: the server's own address."""
    closed: bool = False
    close_code: int = 1000
    """The WebSocket close code its sender closes the socket with (1001: server going away)."""

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; a client too slow to take its messages is disconnected."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.close()

    def close(self, code: int = 1000) -> None:
        """Ask the connection's sender to close the socket, with ``code``.

        The sender stops at the end of its queue; when the queue is full (a client too slow
        for its messages is being dropped), the oldest message it still holds makes room for
        that end. Without it the sender waited for more forever, and the socket, its task
        and its place in its address's count of sockets were held until the server
        stopped."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            if self.outbox.full():
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)


@dataclass(eq=False)
class LiveMatch:
    """A match in memory: its stored data, its current state and its connections."""

    stored: StoredMatch
    game: Game[Any, Any, Any]
    state: State[Any]
    hidden: list[bool]
    """Per move: a secret choice in a simultaneous decision (``core.simultaneous.secret``:
    not a memorise step's), so others see only "has chosen" until the decision is complete
    (the rules then reveal it) or the match is over."""
    revealed_before: int = 0
    """Moves numbered below this (from 0) are revealed to every seat: all up to the last one
    that was not part of a simultaneous decision or that completed one. Not
    :attr:`decision_base`, which a Triangle Clock Mulligan moves on (its seat's decision
    starts again with a new hand) while the other seat's pick stays hidden."""
    notes: list[Notes] = field(default_factory=list)
    """Per move: what the log says of it besides its notation (:func:`move_notes`), shown
    with it once shown."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    deadlines: dict[Player, float] = field(default_factory=dict)
    """Seat -> time.time() by which it must move (a clock or a memorise step)."""
    deadline_base: int = -1
    """The decision (its ``decision_base``) the deadlines were set for."""
    clocks_saved: dict[str, Any] | None = None
    """The deadlines as last handed to the database (``MatchRow.deadlines``)."""
    clocks_writing: bool = False
    """True while a task writes the deadlines (it writes the latest before it ends)."""
    thinking: set[Player] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None
    storage_failures: int = 0
    """Moves of the computer (or of a person's clock) the database failed to store since the
    last one it stored: each waits longer before it is tried again."""
    rematch_votes: dict[Player, bool] = field(default_factory=dict)
    """Once over: the people who asked for or accepted a rematch (True) or declined it
    (False). Kept in memory: a restarted server asks again."""
    holders: dict[Player, str] = field(default_factory=dict)
    """The address each person's seat was last taken from (in memory only): an address
    holding a seat does not take another, open one (:meth:`Hub.join`), or a person could
    take the seat an opponent left and see what it chose and holds."""
    unconfirmed: dict[Player, tuple[str, float]] = field(default_factory=dict)
    """Seats just taken with their links whose new token has not been used yet, each with
    the address that took it and when (in memory only): should the answer carrying the token be
    lost (a page closed, a network cut), that address may take the seat with its link
    again (:meth:`Hub.join`); any other is refused, as every address is once the token is
    used."""
    owner: str | None = None
    """The address that made the match (kept in memory only: None after a restart): its
    agents share the workers with other addresses' as that address's (``AgentPool``)."""
    timed_out: set[int] = field(default_factory=set)
    """Move numbers (1-based) the game's agent made for a person whose time ran out (kept
    in memory only: after a restart the log no longer marks them)."""
    tutorial: Tutorial | None = None
    """The lesson a tutorial match follows (its scripted seat's spec is ``TUTOR``)."""
    loaded_at: float = 0.0
    """When this process took the match into memory (clock time): a person seat no client
    has held since counts as away from then, so a restart gives everyone time to return."""
    asked_at: float = 0.0
    """When a request or socket last asked the hub for the match (clock time): of the
    finished matches nobody watches, the longest unasked leave memory first."""
    absent_since: dict[Player, float] = field(default_factory=dict)
    """Seat -> when its last client went away (clock time)."""
    board_texts: dict[Player | None, tuple[State[Any], str]] = field(default_factory=dict)
    """Seat (None: a spectator) -> the state its board text was drawn for, and the text."""

    @property
    def id(self) -> str:
        """The match's id (also its spectator link)."""
        return self.stored.id

    def note_move(self, before: State[Any], player: Player, action: Any, after: State[Any]) -> None:
        """Keep what the log needs of a move made from ``before`` (to ``after``): whether
        others see only that it was made (until its decision is complete), what the log says
        of it, and how far the rules have revealed the moves."""
        self.hidden.append(secret(before, player))
        self.notes.append(move_notes(self.game, before, player, action))
        if settles(before, after):
            self.revealed_before = len(self.hidden)

    def board_text(self, seat: Player | None) -> str:
        """The board as text for ``seat`` (None: a spectator): ``Game.render_text`` of the
        state as that seat sees it. Drawn once per state and seat, however many of the
        match's clients asked for it, so its cost is bounded by the moves, not the sockets."""
        kept = self.board_texts.get(seat)
        if kept is None or kept[0] is not self.state:
            kept = (self.state, self.game.render_text(self.state, seat))
            self.board_texts[seat] = kept
        return kept[1]

    def people(self) -> list[Player]:
        """The seats people play (not agents), joined or not."""
        return [s for s, data in enumerate(self.stored.seats) if data["agent"] is None]

    def rematch_offer(self) -> dict[str, list[Player]] | None:
        """Who has asked for or accepted a rematch, who declined, who has still to answer
        (people only: the computer always accepts); None before anyone asked."""
        if not self.rematch_votes:
            return None
        votes = self.rematch_votes
        return {
            "accepted": sorted(s for s, yes in votes.items() if yes),
            "declined": sorted(s for s, yes in votes.items() if not yes),
            "waiting": [s for s in self.people() if s not in votes],
        }

    @property
    def seq(self) -> int:
        """How many moves are accepted: the number every move message must quote."""
        return len(self.stored.moves)

    @property
    def decision_base(self) -> int:
        """The seq at which the current decision began (a simultaneous one spans moves)."""
        return self.seq - submitted(self.state)

    def seat_is_person(self, seat: Player) -> bool:
        """True for a seat a person plays (not an agent, not resigned to one)."""
        return self.stored.seats[seat]["spec"] == HUMAN

    def connected(self, seat: Player) -> bool:
        """True while a client of this seat is connected."""
        return any(c.seat == seat and not c.closed for c in self.connections)

    def away(self, seat: Player, now: float) -> float | None:
        """How long (seconds) a person's seat has been without a client; None for a seat
        that has one, an agent's, or one nobody has taken yet."""
        data = self.stored.seats[seat]
        if data["agent"] is not None or not data["joined"] or self.connected(seat):
            return None
        return max(0.0, now - self.absent_since.get(seat, self.loaded_at))

    def summary(self, now: float) -> dict[str, Any]:
        """What the lobby shows of a match (at clock time ``now``): public to anyone with
        its id."""
        stored = self.stored
        return {
            "match": stored.id,
            "game": stored.game,
            "title": self.game.title,
            "options": stored.options,
            "status": stored.status,
            "listed": stored.listed,
            "seq": self.seq,
            "move_seconds": stored.move_seconds,
            "seats": self.seats_public(now),
            "open_seats": open_seats(stored.seats),
            "result": stored.result,
            "rematch": stored.rematch,
            "rematch_offer": self.rematch_offer(),
            "rematch_of": stored.rematch_of,
            **self.seed_fields(),
        }

    def seed_fields(self) -> dict[str, Any]:
        """The seed's commitment, from the start; the seed and salt that check it, once the
        match is over (never before: the seed deals every hidden card). The seed is sent as
        decimal text, since a browser reads a JSON number as a double (53 bits)."""
        stored = self.stored
        salt = stored.seed_salt
        if not self.game.has_chance:
            # Nothing is dealt: a sealed seed would vouch for a fair deal of nothing.
            return {"seed_commitment": None}
        out: dict[str, Any] = {
            "seed_commitment": seed_commitment(stored.seed, salt) if salt is not None else None
        }
        if stored.status == "finished":
            out.update(seed=str(stored.seed), seed_salt=salt)
        return out

    def link_preview(self) -> tuple[str, str]:
        """What a chat program or a social site shows of a link to the match (its page's
        title and description, read without running the page): the game and its players,
        then what opening the link does now. Only what the lobby shows anyone."""
        stored = self.stored
        open_seats_now = open_seats(stored.seats)
        players = [
            seat_label(stored.game, data) or ("open" if seat in open_seats_now else "invited")
            for seat, data in enumerate(stored.seats)
        ]
        title = f"{self.game.title}: {' vs '.join(players)}"
        if stored.status == "waiting":
            now = "waits for its players: open the link to take your seat, or to watch"
        elif stored.status == "playing":
            now = "is being played: open the link to play your seat, or to watch"
        else:
            reason = (stored.result or {}).get("reason")
            ended = f" ({reason})" if isinstance(reason, str) and reason else ""
            now = f"is over{ended}: open the link to see how it ended, and replay it"
        return title, f"A match of {self.game.title} on meeple {now}."

    def seats_public(self, now: float) -> list[dict[str, Any]]:
        """The seats as everyone may see them: names, person or agent, connected, and how
        long a person's seat has been without a client (``away``, at clock time ``now``)."""
        return [
            {
                "seat": seat,
                "seat_name": self.game.seat_name(seat),
                "name": data["name"] if data["joined"] else None,
                "label": seat_label(self.stored.game, data),
                "kind": "person" if data["agent"] is None else "agent",
                "agent": data["agent"],
                "joined": data["joined"],
                "resigned": data["resigned"],
                "connected": self.connected(seat) if data["agent"] is None else True,
                "away": self.away(seat, now),
                "abandoned": data.get("abandoned", False),
            }
            for seat, data in enumerate(self.stored.seats)
        ]

    def log_entries(self, seat: Player | None, start: int = 0) -> list[Any]:
        """The move log from ``start`` as ``seat`` may know it: a move of another seat in a
        simultaneous decision shows only that it was made, until the decision is complete
        (the rules reveal the choices then) or the match is over."""
        over = self.stored.status == "finished"
        open_from = self.revealed_before
        out = []
        for n in range(start, self.seq):
            player, text = self.stored.moves[n]
            shown = over or player == seat or not self.hidden[n] or n < open_from
            entry: dict[str, Any] = {"n": n + 1, "seat": player, "text": text if shown else None}
            if shown and n < len(self.notes):
                entry.update(self.notes[n])
            if n + 1 in self.timed_out:
                entry["timeout"] = True
            out.append(entry)
        return out

    def record(self) -> GameRecord:
        """The match's full record (every move); only handed out once the match is over."""
        stored = self.stored
        return GameRecord(
            game=stored.game,
            options=stored.options,
            seed=stored.seed,
            # A name stored before names had to be printable is left out, not refused.
            seats=[d["agent"] or _printable_or_none(d["name"]) or HUMAN for d in stored.seats],
            # A person may be called "easy": the replay reads which seats were people here.
            people=[seat for seat, d in enumerate(stored.seats) if d["agent"] is None],
            moves=list(stored.moves),
            # A content set's digests: whoever replays the record on files of their own
            # (`meeple replay --cards PATH`) is told if they are not the set's.
            content=stored.content or {},
            result=stored.result,
        )


def _printable_or_none(name: str | None) -> str | None:
    return name if name is None or unprintable(name) is None else None


def state_message(match: LiveMatch, conn: Connection, now: float) -> dict[str, Any]:
    """Everything one client is sent after a change: only what its seat may know."""
    seat = conn.seat
    state = match.state
    stored = match.stored
    over = stored.status == "finished"
    # Entries sent as "has chosen" are sent again once the rules have revealed them.
    revealed = conn.concealed is not None and (over or conn.concealed < match.revealed_before)
    if conn.log_sent > match.seq:
        start = 0
    elif revealed and conn.concealed is not None:  # (revealed: it is not None)
        start = conn.concealed
    else:
        start = conn.log_sent
    entries = match.log_entries(seat, start)
    conn.log_sent = match.seq
    still = [e["n"] - 1 for e in entries if e["text"] is None]
    if revealed or conn.concealed is None:
        conn.concealed = still[0] if still else None
    to_act = list(state.to_act) if stored.status == "playing" else []
    can_move = seat is not None and seat in to_act and match.seat_is_person(seat)
    legal = state.legal_actions(seat) if can_move and seat is not None else []
    opened = state.decision_start()
    decision = opened.to_act
    return {
        "type": "state",
        "match": stored.id,
        "seq": match.seq,
        # A move quoting any seq from here on stands (hub.move): a page keeps the move it
        # is building while others' choices in a simultaneous decision come in.
        "decision": match.decision_base,
        "seat": seat,
        "status": stored.status,
        "game": stored.game,
        "title": match.game.title,
        "options": stored.options,
        "seat_names": match.game.seat_names(),
        # A page is a person's screen: a seat's or a spectator's (a player's second tab).
        "view": match.game.person_view(state, seat),
        "to_act": to_act,
        # Over, nobody is choosing: a resign or claim mid-decision leaves no "has chosen".
        # A seat done with a memorise step made no choice: its move is in the log, open.
        "chosen": (
            [p for p in decision if p not in state.to_act and secret(opened, p)]
            if len(decision) > 1 and stored.status == "playing"
            else []
        ),
        "legal": [{"text": str(a), "id": match.game.action_id(a)} for a in legal],
        # What the seat holds that no legal move uses, with why: a page greys it out.
        "unplayable": state.unplayable(seat) if can_move and seat is not None else {},
        # Its legal moves that lose the game, with how: a page says so before they are sent.
        "warnings": state.move_warnings(seat) if can_move and seat is not None else {},
        "memorise": (
            match.game.memorise_seconds(state, seat) if can_move and seat is not None else None
        ),
        "deadlines": {str(s): max(0.0, d - now) for s, d in match.deadlines.items()},
        "log_start": start,
        "log": entries,
        "seats": match.seats_public(now),
        # The seats anyone may take from the lobby (a listed match's), as its listing says:
        # a page tells its player the others need no link.
        "open_seats": open_seats(stored.seats),
        "result": stored.result,
        "rematch": stored.rematch,
        "rematch_offer": match.rematch_offer(),
        "record": _browser_record(match) if over else None,
        "tutorial": tutorial_message(match, seat),
        # Only to a client that asked (a "board_text" message): drawing costs milliseconds.
        "board_text": match.board_text(seat) if conn.board_text else None,
        **match.seed_fields(),
    }


def tutorial_message(match: LiveMatch, seat: Player | None) -> dict[str, Any] | None:
    """What a tutorial's learner is shown: the step's prompt and expected move, or the
    closing words once the lesson is over (None for other matches and other seats)."""
    lesson = match.tutorial
    if lesson is None or seat != lesson.learner:
        return None
    moves = match.stored.moves
    step = lesson.step_at(moves)
    done = finished(lesson, match.state, moves) or match.stored.status == "finished"
    current = lesson.steps[step] if step < len(lesson.steps) and not done else None
    return {
        "title": lesson.title,
        "step": step,
        "steps": len(lesson.steps),
        "prompt": current.prompt if current else None,
        "expected": (
            str(match.game.parse_action(current.move))
            if current and lesson.learner in match.state.to_act
            else None
        ),
        "end": lesson.end if done else None,
    }


def _browser_record(match: LiveMatch) -> dict[str, Any]:
    """The record for a page: its seed as decimal text (a JSON number would be rounded to
    a double by a browser); ``/api/matches/{id}/record`` serves the record file itself."""
    record = match.record().model_dump(mode="json")
    record["seed"] = str(record["seed"])
    return record


_CODES: tuple[tuple[type[Exception], str], ...] = (
    (FileOptionRefused, "file_option"),
    (OptionError, "bad_option"),
    (UnknownGame, "unknown_game"),
    (RecordError, "bad_record"),
    (AgentSpecError, "bad_agent"),
    (IllegalAction, "illegal_move"),
    (NotationError, "bad_notation"),
    (ActionIdError, "bad_action_id"),
    (StorageUnavailable, "storage_unavailable"),
    (GamePackageError, "internal_error"),
)


def public_message(exc: MeepleError) -> str:
    """What a client is told of ``exc``: its message, except a database failure's, whose
    driver's reason (the database's host, port, user or file) only the log holds."""
    return StorageUnavailable.PUBLIC if isinstance(exc, StorageUnavailable) else str(exc)


def error_code(exc: MeepleError) -> str:
    """The stable ``code`` of a refusal (docs/api.md's table): a ServerError's own, else
    the kind of mistake the error class names, else ``refused``."""
    if isinstance(exc, ServerError):
        return exc.code
    for kind, code in _CODES:
        if isinstance(exc, kind):
            return code
    return "refused"
