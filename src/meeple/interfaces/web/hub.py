"""The matches a server runs: seats, moves, agents, clocks and who is watching.

The hub knows no game: it talks to games only through the core API (``make``,
``new_game``, ``apply``, ``view``, ``legal_actions``, records) and to the database only
through :class:`~meeple.store.matches.MatchStore`. Each match has one lock; a move is
checked against the state, committed to the database, and only then acknowledged and sent
to everyone, each seat seeing only its own ``state.view(seat)``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from meeple.agents import HUMAN, available_agents, parse_spec
from meeple.agents.levels import DEFAULT_LEVEL, LEVEL_NAMES, level_spec, seat_spec
from meeple.agents.spec import agent_builder
from meeple.core.errors import MeepleError
from meeple.core.game import Game, Player, State
from meeple.core.record import check_untrusted_options
from meeple.core.registry import games, make
from meeple.core.rng import derive_seed, make_rng
from meeple.core.simultaneous import hidden_from_others
from meeple.core.tutorial import (
    TutorialError,
    finished,
    has_tutorial,
    is_expected,
    load_tutorial,
    script_move,
)
from meeple.interfaces.web.content_sets import ContentSets
from meeple.interfaces.web.limits import ServerLimits
from meeple.interfaces.web.live import (
    TUTOR,
    Connection,
    LiveMatch,
    ServerError,
    open_seats,
    seat_label,
    state_message,
)
from meeple.interfaces.web.pages import has_drawing
from meeple.interfaces.web.pool import AgentOverrun, AgentPool
from meeple.interfaces.web.preparing import LIGHT_AGENTS, Preparer
from meeple.interfaces.web.protocol import CreateMatch
from meeple.interfaces.web.seeds import draw_seed, new_salt
from meeple.store.matches import (
    DamagedMatch,
    MatchStore,
    MoveConflict,
    StoredMatch,
    token_hash,
)

log = logging.getLogger("meeple.server")

ONLINE_CONTENT = "online matches and replays play the content that ships with meeple"
"""Why a client may not name a file: the advice that goes with the refusal."""

OPEN = "open"
"""A seat given as this is a person's seat with no token handed out: anyone may join it."""


HINTS_KEPT = 256
"""Hints kept in memory (the newest): asking twice at one decision computes it once."""


def _default_agent(game: Game[Any, Any, Any]) -> str:
    # The opponent meeple play gives by default: the hard level, measured on the ladder.
    return level_spec(game, DEFAULT_LEVEL)


class Hub:
    """Every live match of one server process."""

    def __init__(
        self,
        store: MatchStore,
        pool: AgentPool | None = None,
        base_url: str = "",
        clock: Callable[[], float] = time.time,
        limits: ServerLimits | None = None,
        content: ContentSets | None = None,
        light: AgentPool | None = None,
    ) -> None:
        self.store = store
        self.content = content or ContentSets()
        """The designer's data the operator installed, chosen by name in a match."""
        self.limits = limits or ServerLimits()
        self.pool = pool or AgentPool()
        self.light = light
        """The worker of the agents that do not search (:data:`LIGHT_AGENTS`); None: they
        use ``pool`` too."""
        self.base_url = base_url
        self.clock = clock
        self.matches: dict[str, LiveMatch] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loading = asyncio.Lock()
        self.preparer = Preparer(self.limits)
        """Makes what agents and hints need before their first decision, off the request
        path."""
        self._hints: dict[tuple[str, int, int], dict[str, Any]] = {}
        self.set_aside: dict[str, str] = {}
        """Matches that could not be restored at start-up, and why."""
        self.stopping = False
        """True once :meth:`stop` began: nothing new is started."""
        self.stopped = asyncio.Event()
        """Set when :meth:`stop` begins: a request still reading its body stops waiting."""

    # -- start-up and shut-down ---------------------------------------------------------------
    async def start(self) -> None:
        """Load every unfinished match from the database and let its agents move."""
        ids = await asyncio.to_thread(self.store.ids, ("waiting", "playing"))
        restored = 0
        for match_id in ids:
            try:
                match = await self._load(match_id)
            except Exception as exc:
                # Whatever is wrong with one stored match (a hand-edited row, a move that no
                # longer replays), every other match is still served; this one says why.
                reason = str(exc) if isinstance(exc, MeepleError) else type(exc).__name__
                self.set_aside[match_id] = reason
                log.error("match %s set aside, it cannot be restored: %s", match_id, reason)
                continue
            restored += 1
            self._after_change(match)
        log.info("restored %d unfinished matches", restored)
        if self.store.shared:
            self._spawn(self._listen())
        await self._sweep_logged()  # what expired while the server was down
        self._spawn(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        """Close expired matches every ``limits.sweep_seconds``."""
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            await self._sweep_logged()

    async def _sweep_logged(self) -> None:
        try:
            await self.sweep()
        except asyncio.CancelledError:
            raise
        except MeepleError as exc:  # the database failed: the next sweep tries again
            log.warning("looking for expired matches failed: %s", exc)
        except Exception:
            log.exception("looking for expired matches failed")

    async def sweep(self) -> list[str]:
        """Close the matches past an expiry (``limits.expire_waiting_seconds``: a person's
        seat nobody took; ``limits.expire_idle_seconds``: nobody moved or joined), as by
        the row's ``updated`` time; returns their ids."""
        limits = self.limits
        stale = await asyncio.to_thread(
            self.store.stale, limits.expire_waiting_seconds, limits.expire_idle_seconds
        )
        closed = []
        for match_id, why in stale:
            if match_id in self.set_aside:
                continue
            try:
                match = await self.get(match_id)
            except MeepleError:
                continue
            if await self._expire(match, why):
                closed.append(match_id)
        return closed

    async def _expire(self, match: LiveMatch, why: str) -> bool:
        """Finish an expired match, nobody winning; False if it is in use after all."""
        async with match.lock:  # no person's move is in flight while it is held
            stored = match.stored
            if stored.status not in ("waiting", "playing") or match.thinking:
                return False  # over already, or an agent is choosing a move: in use
            if why == "waiting":
                seconds = self.limits.expire_waiting_seconds
                reason = f"expired: nobody took the open seats within {seconds:g} s"
            else:
                seconds = self.limits.expire_idle_seconds
                reason = f"expired: nobody moved or joined for {seconds:g} s"
            n = len(stored.seats)
            result = {
                "over": True,
                "reason": reason,
                "expired": True,
                "returns": [0.0] * n,
                "winners": [],
            }
            # The database checks again that the match is unchanged (another server's move).
            if not await asyncio.to_thread(
                self.store.expire, stored.id, stored.status, seconds, result
            ):
                return False
            stored.status, stored.result = "finished", result
            match.clocks_saved = None  # the same statement cleared them
        log.info("match %s closed: %s", match.id, reason)
        self._after_change(match)  # its watchers are sent the result, as at any end
        if not match.connections:
            self.matches.pop(match.id, None)
        return True

    async def _listen(self) -> None:
        """Hear the moves other server processes commit to the same database, and send
        them on to this process's clients (PostgreSQL LISTEN/NOTIFY)."""
        while True:
            try:
                async for match_id in self.store.changes():
                    match = self.matches.get(match_id)
                    if match is not None:
                        self._spawn(self.refresh(match))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the listening connection broke: listen again
                log.warning("listening for other servers' changes failed: %s", exc)
            await asyncio.sleep(1)

    async def refresh(self, match: LiveMatch) -> None:
        """Catch up with what another process stored for this match."""
        async with match.lock:
            await self._reload(match)

    async def _reload(self, match: LiveMatch) -> None:
        """Read the match again and play the moves this process has not seen (caller holds
        the lock)."""
        stored = await asyncio.to_thread(self.store.get, match.id)
        if stored is None:
            return
        state = match.state
        for player, text in stored.moves[match.seq :]:
            action = match.game.parse_action(text)
            match.note_move(state, player, action)
            state = state.apply(player, action)
        match.state = state
        match.stored = stored
        match.clocks_saved = stored.deadlines
        _adopt_clocks(match)  # the clocks the process that stored the move set
        self._after_change(match)

    async def stop(self, wait: float = 0.0) -> None:
        """Stop everything: the clocks and agents (their worker processes are killed) and
        every connection, closed with 1001 (going away). A move being stored finishes, or
        fails, on its own thread; nothing after it runs. With ``wait``, waits up to that
        many seconds for the clients to see their sockets closed. Stopping twice is fine."""
        self.stopping = True
        self.stopped.set()
        for task in list(self._tasks):
            task.cancel()
        self.pool.close()
        if self.light is not None:
            self.light.close()
        self.preparer.stop()
        for match in self.matches.values():
            if match.timer is not None:
                match.timer.cancel()
                match.timer = None
            for conn in list(match.connections):
                conn.close(1001)
        until = time.monotonic() + wait
        while time.monotonic() < until and any(m.connections for m in self.matches.values()):
            await asyncio.sleep(0.02)

    async def _load(self, match_id: str) -> LiveMatch:
        if match_id in self.set_aside:
            raise ServerError(f"match {match_id} cannot be served: {self.set_aside[match_id]}", 500)
        try:
            stored = await asyncio.to_thread(self.store.get, match_id)
        except DamagedMatch as exc:
            raise ServerError(f"this match cannot be served: {exc}", 500) from None
        if stored is None:
            raise ServerError(f"there is no match {match_id!r}", 404, "unknown_match")
        game = make(stored.game, **self.content.resolve(stored.game, stored.options))
        state = game.new_game(stored.seed)
        hidden = []
        words: list[str | None] = []
        for number, (player, text) in enumerate(stored.moves, start=1):
            hidden.append(hidden_from_others(state))
            try:
                action = game.parse_action(text)
                words.append(game.log_words(state, player, action))
                state = state.apply(player, action)
            except MeepleError as exc:
                raise MeepleError(f"move {number} ({text!r}) does not replay: {exc}") from None
        match = LiveMatch(stored=stored, game=game, state=state, hidden=hidden, words=words)
        if any(seat["spec"] == TUTOR for seat in stored.seats):
            match.tutorial = load_tutorial(stored.game)
        match.clocks_saved = stored.deadlines
        _adopt_clocks(match)
        self.matches[match_id] = match
        return match

    async def get(self, match_id: str) -> LiveMatch:
        """A match by id, loaded from the database if this process has not seen it yet."""
        match = self.matches.get(match_id)
        if match is None:
            async with self._loading:  # two requests must not load two copies of one match
                match = self.matches.get(match_id) or await self._load(match_id)
        return match

    # -- the lobby ----------------------------------------------------------------------------
    def catalogue(self) -> list[dict[str, Any]]:
        """The games, their options and the agents each accepts (for the create form)."""
        out = []
        for info in games():
            game = make(info.name)
            out.append(
                {
                    "name": info.name,
                    "title": info.title,
                    "summary": info.summary,
                    "players": info.players,
                    "seats": game.num_players,
                    "seat_names": [game.seat_name(p) for p in range(game.num_players)],
                    "perfect_information": info.perfect_information,
                    "options": [
                        {
                            "name": o.name,
                            "label": o.label,
                            "default": o.default,
                            "allowed": o.allowed,
                            "help": o.help,
                        }
                        for o in info.options
                    ],
                    "agents": [HUMAN, *available_agents(game)],
                    "levels": [
                        {"level": level, "spec": level_spec(game, level)} for level in LEVEL_NAMES
                    ],
                    "best_agent": _default_agent(game),
                    # Designer's data the operator installed: "set:<name>" in the options.
                    "content_sets": self.content.names(info.name),
                    "tutorial": has_tutorial(info.name),
                    "drawing": has_drawing(info.name),
                }
            )
        return out

    async def create(
        self, request: CreateMatch, rematch_of: str | None = None, owner: str | None = None
    ) -> dict[str, Any]:
        """Make a match; returns its id, one secret token per person's seat and the links.
        ``owner``: the address that asked, whose share of the agent workers its agents use."""
        # Refused before the game would read (or say anything about) a server's file.
        size = len(json.dumps(request.options).encode())
        if size > self.limits.max_options_bytes:
            # Options are stored and sent with every state: a client may not inflate them.
            raise ServerError(
                f"options take {size:,} bytes as JSON; this server takes at "
                f"most {self.limits.max_options_bytes:,} (meeple serve --max-options-bytes)",
                413,
            )
        # A set's name (set:<name>) is the only way a match reads data other than the
        # shipped: the operator installed it; the path stays inside the server.
        plain, sets = self.content.split(request.game, request.options)
        check_untrusted_options(request.game, plain, "a match request", ONLINE_CONTENT)
        paths = {k: str(v) for k, v in sets.items()}
        game = make(request.game, **plain, **paths)  # OptionError: the CLI's own message
        # A seat may name a level (easy, medium, hard): it plays, and is stored as, that
        # level's agent spec, so the match replays the same whatever the levels become.
        # 'open' is a person's seat with no token handed out: the lobby's, for anyone.
        specs = [spec if _is_open(spec) else seat_spec(game, spec) for spec in request.seats]
        if not request.listed and any(_is_open(spec) for spec in specs):
            raise ServerError(
                "an 'open' seat is taken from the lobby, so it needs a listed match; in a "
                "private match give the seat as 'human' and send its link"
            )
        if len(specs) > game.num_players:
            raise ServerError(
                f"{game.title} with these options has {game.num_players} seats, "
                f"but {len(specs)} were given"
            )
        while len(specs) < game.num_players:
            specs.append(HUMAN if not specs else _default_agent(game))
        for spec in specs:
            if not _is_open(spec) and not parse_spec(spec).is_human:
                self.limits.check_agent(spec)
                await self._check_agent(game, spec)
        persons = sum(1 for spec in specs if _is_open(spec) or parse_spec(spec).is_human)
        if request.seed is not None and persons > 1:
            # Whoever chooses the seed can deal the match offline and read every hand.
            raise ServerError(
                "a chosen seed is allowed only in a match with one person (the others agents): "
                "with another person at the table, its chooser could work out their hidden "
                "cards; leave seed out and the server draws one"
            )
        seed = request.seed if request.seed is not None else draw_seed()
        tokens: dict[int, str] = {}
        seats = []
        for seat, spec in enumerate(specs):
            is_open = _is_open(spec)
            human = is_open or parse_spec(spec).is_human
            name = request.names[seat] if seat < len(request.names) and not is_open else None
            if human and not is_open:
                tokens[seat] = secrets.token_urlsafe(24)  # 192 bits
            seats.append(
                {
                    "spec": HUMAN if human else spec,
                    "agent": None if human else spec,
                    "name": name if human else spec,
                    "token": token_hash(tokens[seat]) if seat in tokens else None,
                    "joined": not human,
                    # A seat whose token goes back to the creator is kept for that link (the
                    # creator's own, a friend's): joining without a token never takes it.
                    "reserved": seat in tokens,
                    "resigned": False,
                }
            )
        stored = StoredMatch(
            id=secrets.token_urlsafe(9),  # 72 bits: an unlisted match's link is unguessable
            game=game.name,
            options={
                **game.options.changed(),
                **{
                    name: value
                    for key, value in request.options.items()
                    if (name := str(key).replace("-", "_")) in sets
                },
            },
            seed=seed,
            seed_salt=new_salt(),
            seats=seats,
            listed=request.listed,
            move_seconds=request.move_seconds,
            status="playing" if all(d["joined"] for d in seats) else "waiting",
            rematch_of=rematch_of,
        )
        await asyncio.to_thread(self.store.create, stored)
        match = LiveMatch(
            stored=stored, game=game, state=game.new_game(seed), hidden=[], owner=owner
        )
        self.matches[stored.id] = match
        self._after_change(match)
        return self._created(match, tokens)

    async def create_tutorial(self, game_name: str, name: str | None = None) -> dict[str, Any]:
        """Start a game's tutorial: its fixed deal, the learner's seat for a person (its
        token in the answer, as :meth:`create`'s), the other seat played by the script."""
        try:
            lesson = load_tutorial(game_name)
        except TutorialError as exc:
            raise ServerError(
                f'{exc}; the games with one are listed by GET /api/games ("tutorial": true)',
                404,
                "no_tutorial",
            ) from None
        game = lesson.make_game()
        token = secrets.token_urlsafe(24)
        seats: list[dict[str, Any]] = [{} for _ in range(game.num_players)]
        seats[lesson.learner] = {
            "spec": HUMAN,
            "agent": None,
            "name": name or "Learner",
            "token": token_hash(token),
            "joined": True,
            "reserved": True,
            "resigned": False,
        }
        seats[lesson.scripted] = {
            "spec": TUTOR,
            "agent": TUTOR,
            "name": TUTOR,
            "token": None,
            "joined": True,
            "reserved": False,
            "resigned": False,
        }
        stored = StoredMatch(
            id=secrets.token_urlsafe(9),
            game=game.name,
            options=game.options.changed(),
            seed=lesson.seed,
            seed_salt=new_salt(),
            seats=seats,
            listed=False,
            move_seconds=None,
            status="playing",
        )
        await asyncio.to_thread(self.store.create, stored)
        match = LiveMatch(stored=stored, game=game, state=game.new_game(lesson.seed), hidden=[])
        match.tutorial = lesson
        self.matches[stored.id] = match
        self._after_change(match)
        return {**self._created(match, {lesson.learner: token}), "title": lesson.title}

    def _created(self, match: LiveMatch, tokens: dict[int, str]) -> dict[str, Any]:
        """What a new match's creator is answered: its id and game, each person's seat with
        its token and join link (the token after ``#``: a browser never sends it to a
        server), and the link to watch it."""
        link = f"{self.base_url}/play/{match.id}"
        return {
            "match": match.id,
            "game": match.game.name,
            "seats": [
                {
                    "seat": seat,
                    "seat_name": match.game.seat_name(seat),
                    "token": token,
                    "join_url": f"{link}#token={token}",
                }
                for seat, token in tokens.items()
            ],
            "watch_url": link,
        }

    async def _check_agent(self, game: Game[Any, Any, Any], spec: str) -> None:
        """Refuse an agent spec this match cannot have (AgentSpecError names the agents and
        their parameters), and start preparing what its agent needs first.

        An agent that reads or makes large data before its first move (Erd's agents that
        play the solved game: ``wait_to_make``) is checked by its name and parameters only;
        it is made in the workers, never in this process. Data it lacks (``unprepared``) is
        made in a process of its own, off the request path, for the shipped variants only
        unless the operator allows any (``--prepare-any-variant``); its seat's first move
        waits for it.
        """
        build = agent_builder(spec, game)
        name = parse_spec(spec).name
        factory = available_agents(game).get(name)
        unprepared = getattr(factory, "unprepared", None)
        reason = unprepared(game) if unprepared is not None else None
        if reason is not None:
            if not (self.limits.prepare_any_variant or factory.shipped(game)):
                raise ServerError(
                    f"{reason}, and this server solves only the shipped rules versions: choose "
                    "another level, or a rules version with its other options as they ship",
                    400,
                    "not_prepared",
                )
            self.preparer.prepare(game, name)
        if getattr(factory, "wait_to_make", None) is None:
            # Made once, off the event loop: every parameter value is checked as it is read.
            await asyncio.to_thread(build, 0)
        self.preparer.compile_agent(game, spec)

    def unfinished(self, match_id: str) -> bool:
        """Whether a match this process serves is still to be played (for the per-client
        count of open matches; one no longer in memory is over)."""
        match = self.matches.get(match_id)
        return match is not None and match.stored.status != "finished"

    async def listing(self, which: str, limit: int = 50) -> list[dict[str, Any]]:
        """Listed matches, newest first, at most ``limit``: ``open`` (a seat to take),
        ``live`` (to watch) or ``finished``."""
        statuses = {
            "open": ("waiting", "playing"),
            "live": ("waiting", "playing"),
            "finished": ("finished",),
        }[which]
        # Open seats are picked from the rows read: read more, so a page is usually full.
        rows = await asyncio.to_thread(
            self.store.listing, statuses, limit * 4 if which == "open" else limit
        )
        out = []
        for row in rows:
            waiting = open_seats(row.seats)
            if which == "open" and not waiting:
                continue
            out.append(
                {
                    "match": row.id,
                    "game": row.game,
                    "options": row.options,
                    "status": row.status,
                    "seq": row.moves_count,
                    "open_seats": waiting,
                    "players": [seat["name"] if seat["joined"] else None for seat in row.seats],
                    "labels": [seat_label(row.game, seat) for seat in row.seats],
                    "result": row.result,
                    "updated": row.updated.isoformat() if row.updated else None,
                }
            )
        return out[:limit]

    def seat_of(self, match: LiveMatch, token: str) -> Player:
        """The seat a token belongs to; ServerError 403 if none."""
        digest = token_hash(token)
        for seat, data in enumerate(match.stored.seats):
            if data["token"] is not None and secrets.compare_digest(data["token"], digest):
                return seat
        raise ServerError(
            "this token is not a seat of this match (ask for a new link)", 403, "bad_token"
        )

    async def join(
        self, match: LiveMatch, token: str | None, seat: int | None, name: str | None
    ) -> dict[str, Any]:
        """Take a seat with its token, or (in a listed match) the first open one."""
        async with match.lock:
            stored = match.stored
            if stored.status == "finished":
                raise ServerError("the match is over; ask for a rematch or start a new one", 409)
            if token is not None:
                seat = self.seat_of(match, token)
                new_token = token
            else:
                if not stored.listed:
                    raise ServerError("a private match is joined with the link its creator sent")
                waiting = open_seats(stored.seats)
                if not waiting:
                    raise ServerError(
                        "the match has no open seat: every person's seat is taken or kept for "
                        "the link its creator sent",
                        409,
                    )
                if seat is None:
                    seat = waiting[0]
                if seat not in waiting:
                    raise ServerError(f"seat {seat} is not open; open seats: {waiting}", 409)
                new_token = secrets.token_urlsafe(24)
            seats = [dict(d) for d in stored.seats]
            data = seats[seat]
            data["joined"] = True
            data["name"] = name or data["name"] or match.game.seat_name(seat)
            data["token"] = token_hash(new_token)
            await self._save_seats(match, seats)
        self._broadcast(match)
        return {"match": match.id, "seat": seat, "token": new_token}

    async def leave(self, match: LiveMatch, token: str) -> dict[str, Any]:
        """Give a seat up: it is open again for someone else, and the old token is dead."""
        async with match.lock:
            seat = self.seat_of(match, token)
            if match.stored.status == "finished":
                # An open seat in a finished match would list it in the lobby again, and the
                # dead token would lose its holder the rematch.
                raise ServerError("the match is over: a seat is left only while it is played", 409)
            seats = [dict(d) for d in match.stored.seats]
            seats[seat].update(
                joined=False, reserved=False, token=token_hash(secrets.token_urlsafe(24))
            )
            await self._save_seats(match, seats)
            for conn in list(match.connections):
                if conn.seat == seat:
                    conn.send({"type": "left", "seat": seat})
                    conn.close()
        self._broadcast(match)
        return {"match": match.id, "seat": seat, "left": True}

    async def _save_seats(self, match: LiveMatch, seats: list[dict[str, Any]]) -> None:
        stored = match.stored
        status = stored.status
        if status == "waiting" and all(d["joined"] for d in seats):
            status = "playing"
        await asyncio.to_thread(self.store.update, stored.id, seats=seats, status=status)
        stored.seats = seats
        stored.status = status
        if status == "playing":
            self._after_change(match)

    async def resign(self, match: LiveMatch, seat: Player) -> None:
        """A seat gives up. With two seats the other wins; with more, the game's agent plays
        the resigned seat to the end (so the others can finish), and it counts as a loss."""
        async with match.lock:
            stored = match.stored
            if stored.status == "finished":
                raise ServerError("the match is over already", 409)
            seats = [dict(d) for d in stored.seats]
            seats[seat]["resigned"] = True
            who = f"{match.game.seat_name(seat)} (seat {seat})"
            if match.game.num_players == 2:
                returns = [1.0, 1.0]
                returns[seat] = -1.0
                result = {
                    "over": True,
                    "reason": f"{who} resigned",
                    "resigned": [seat],
                    "returns": returns,
                    "winners": [1 - seat],
                }
                await asyncio.to_thread(
                    self.store.update, stored.id, seats=seats, status="finished", result=result
                )
                stored.seats, stored.status, stored.result = seats, "finished", result
            else:
                seats[seat]["spec"] = _default_agent(match.game)
                seats[seat]["agent"] = seats[seat]["spec"]
                await asyncio.to_thread(self.store.update, stored.id, seats=seats)
                stored.seats = seats
        self._after_change(match)

    async def decline_rematch(self, match: LiveMatch, seat: Player) -> dict[str, Any]:
        """``seat`` declines the rematch offered (or any to come): everyone is told."""
        async with match.lock:
            if match.stored.status != "finished":
                raise ServerError("a rematch is offered once the match is over", 409)
            if match.stored.rematch is not None:
                raise ServerError(f"the rematch has started: match {match.stored.rematch}", 409)
            match.rematch_votes[seat] = False
        self._broadcast(match)
        return {"match": None, "offer": match.rematch_offer()}

    async def rematch(self, match: LiveMatch, seat: Player) -> dict[str, Any]:
        """Ask for (or accept) a rematch: once every person of the match has, a new match of
        the same game and options, seats turned one place round, new seed (the computer
        always accepts, so against it the first ask starts it).

        Until then the answer is ``{"match": None, "offer": ...}`` and every page is shown
        the offer to accept or decline. Once made, every person of the old match is told
        the new match and the token of their new seat on their own connection; the asker
        gets theirs in the reply.
        """
        if match.tutorial is not None:
            raise ServerError(
                "a tutorial has no rematch: start a real game from the lobby", 409, "conflict"
            )
        async with match.lock:
            stored = match.stored
            if stored.status != "finished":
                raise ServerError("a rematch is offered once the match is over", 409)
            if stored.rematch is not None:
                new = await self.get(stored.rematch)
                raise ServerError(f"a rematch exists already: match {new.id}", 409)
            match.rematch_votes[seat] = True
            if not all(match.rematch_votes.get(s) for s in match.people()):
                offer = match.rematch_offer()
            else:
                offer = None
        if offer is not None:
            self._broadcast(match)
            return {"match": None, "offer": offer}
        async with match.lock:
            if stored.rematch is not None:  # made meanwhile by the last to accept
                raise ServerError(f"a rematch exists already: match {stored.rematch}", 409)
            n = len(stored.seats)
            order = [(s - 1) % n for s in range(n)]  # new seat k is played by old seat order[k]
            here = {seat} | {c.seat for c in match.connections if c.seat is not None}

            def new_seat(old: Player) -> str:
                # A person who is here is sent the new seat's token; in a listed match the
                # seat of one who has gone is open for anyone, as it would be after a leave.
                agent = stored.seats[old]["agent"]
                if agent is not None:
                    return str(agent)
                return HUMAN if old in here or not stored.listed else OPEN

            request = CreateMatch(
                game=stored.game,
                options=stored.options,
                seats=[new_seat(old) for old in order],
                names=[stored.seats[old]["name"] for old in order],
                listed=stored.listed,
                move_seconds=stored.move_seconds,
            )
            # The same agents, on the share of the address that chose them.
            created = await self.create(request, rematch_of=stored.id, owner=match.owner)
            await asyncio.to_thread(self.store.update, stored.id, rematch=created["match"])
            stored.rematch = created["match"]
        mine = None
        by_old = {order[s["seat"]]: s for s in created["seats"]}
        for conn in list(match.connections):
            if conn.seat is not None and conn.seat in by_old:
                conn.send({"type": "rematch", "match": created["match"], **by_old[conn.seat]})
            elif conn.seat is None:
                conn.send({"type": "rematch", "match": created["match"]})
        if seat in by_old:
            mine = by_old[seat]
        self._broadcast(match)
        return {"match": created["match"], "seat": mine, "watch_url": created["watch_url"]}

    # -- hints ------------------------------------------------------------------------------
    def check_hint(self, match: LiveMatch, seat: Player) -> None:
        """Refuse a hint (ServerError) unless ``match`` is played against the computer (one
        person, every other seat an agent), is going on and waits on ``seat``'s decision."""
        if match.tutorial is not None:
            raise ServerError(
                "a tutorial shows the move it teaches; hints are for games against the computer",
                403,
                "hints_off",
            )
        if len(match.people()) != 1:
            raise ServerError(
                "hints are for games against the computer: this match has more than one "
                "person in it",
                403,
                "hints_off",
            )
        if match.stored.status != "playing":
            raise ServerError("a hint is for a match being played", 409, "not_playing")
        if seat not in match.state.to_act or not match.state.legal_actions(seat):
            raise ServerError(
                "a hint is for your own decision: it is not your turn", 409, "not_your_turn"
            )

    async def hint(self, match: LiveMatch, seat: Player) -> dict[str, Any]:
        """The judge's suggestion for ``seat`` now, computed in a worker from the seat's
        view only (:func:`meeple.lab.hints.hint`); cached per match, move and seat."""
        self.check_hint(match, seat)
        stored = match.stored
        seq = match.seq
        # From the decision's start: other seats' choices to a simultaneous decision are
        # hidden from this seat and change nothing it may choose, so the hint never sees them.
        base = match.decision_base
        key = (match.id, base, seat)
        found = self._hints.get(key)
        if found is None:
            # The game's best judge may need what its strongest agent needs (Erd's solved
            # rules): made off the request path, for the variants this server prepares.
            self.preparer.prepare_for_judge(match.game)
            await self.preparer.ready(match.game, self.preparer.compile_hints(match.game))
            try:
                found = await self.pool.hint(
                    stored.game,
                    self.content.resolve(stored.game, stored.options),
                    stored.seed,
                    list(stored.moves[:base]),
                    seat,
                    self.limits.max_hint_iterations,
                    self.limits.max_agent_exact,
                    allowance=self.limits.hint_seconds,
                    owner=match.owner,
                )
            except AgentOverrun:
                raise ServerError(
                    f"the hint took longer than this server allows ({self.limits.hint_seconds:g}"
                    " s); try again later",
                    503,
                    "hint_timeout",
                ) from None
            self._hints[key] = found
            while len(self._hints) > HINTS_KEPT:
                self._hints.pop(next(iter(self._hints)))
        return {"match": match.id, "seq": seq, **found}

    # -- moves --------------------------------------------------------------------------------
    async def move(
        self,
        match: LiveMatch,
        conn: Connection,
        seq: int,
        text: str | None,
        action_id: int | None,
    ) -> None:
        """Check and commit the move of ``conn``'s seat; it is acknowledged (``ack``) once
        stored, before anyone is sent the new state. Raises MeepleError, changing nothing."""
        seat = conn.seat
        if seat is None:
            raise ServerError("spectators watch; a seat's token is needed to play")
        async with match.lock:
            if match.stored.status != "playing":
                raise ServerError(
                    "the match is over"
                    if match.stored.status == "finished"
                    else "the match starts when every seat is taken"
                )
            # Others' submissions to the same simultaneous decision change nothing this seat
            # may choose, so a move chosen since the decision began still stands.
            if not match.decision_base <= seq <= match.seq:
                raise ServerError(
                    f"stale move: it was chosen at move {seq}, the match is at move {match.seq}"
                    " (the state has been sent again)",
                    code="stale_move",
                )
            if not match.seat_is_person(seat):
                raise ServerError("this seat is played by an agent now")
            if (text is None) == (action_id is None):
                raise ServerError("a move needs exactly one of action (its notation) or action_id")
            game = match.game
            # Both raise a MeepleError naming what is allowed (ActionIdError: the id range).
            action = game.parse_action(text) if text is not None else game.action_from_id(action_id)
            if match.tutorial is not None:
                self._check_script(match, seat, action)
            await self._commit(match, seat, action, ack=conn)

    def _check_script(self, match: LiveMatch, seat: Player, action: Any) -> None:
        """Refuse (``off_script``, with the step's why) a learner's legal move that is not
        the one the tutorial's step teaches; an illegal one is left to the rules' refusal."""
        lesson = match.tutorial
        assert lesson is not None
        step = lesson.step_at(match.stored.moves)
        if step >= len(lesson.steps):
            raise ServerError(
                "this lesson is over: start a real game from the lobby", 409, "off_script"
            )
        if match.state.why_illegal(seat, action) is not None:
            return
        current = lesson.steps[step]
        if not is_expected(match.game, current, action):
            raise ServerError(current.why, 409, "off_script")

    async def _commit(
        self,
        match: LiveMatch,
        seat: Player,
        action: Any,
        ack: Connection | None = None,
        timed_out: bool = False,
    ) -> None:
        """Apply, store, then (only then) update the match in memory. Caller holds the lock."""
        before = match.state
        after = before.apply(seat, action)  # IllegalAction: nothing has changed
        seq = match.seq + 1
        stored = match.stored
        status = "finished" if after.is_over else None
        result = _final_result(after) if after.is_over else None
        try:
            await asyncio.to_thread(
                self.store.add_move, stored.id, seq, seat, str(action), status=status, result=result
            )
        except MoveConflict:
            # Another server process stored this move number first: catch up, and the
            # mover is sent the position as it now is.
            await self._reload(match)
            raise ServerError(
                f"stale move: another server stored move {seq} first; the match is at move "
                f"{match.seq} (the state has been sent again)",
                409,
                "stale_move",
            ) from None
        match.note_move(before, seat, action)
        stored.moves.append((seat, str(action)))
        if timed_out:
            match.timed_out.add(seq)
        match.state = after
        if status is not None:
            stored.status, stored.result = status, result
        if ack is not None:
            ack.send({"type": "ack", "seq": seq, "action": str(action)})
        self._after_change(match)

    def _after_change(self, match: LiveMatch) -> None:
        """After any change: set the clocks, send everyone the new state, start agents."""
        if match.stored.status != "playing":
            match.deadlines.clear()
            if match.timer is not None:
                match.timer.cancel()
                match.timer = None
            self._save_clocks(match)
            self._broadcast(match)
            return
        if match.tutorial is not None and finished(match.tutorial, match.state, match.stored.moves):
            self._spawn(self._end_tutorial(match))
        self._set_clocks(match)
        self._broadcast(match)
        for seat in match.state.to_act:
            if match.stored.seats[seat]["spec"] == TUTOR:
                if seat not in match.thinking:
                    match.thinking.add(seat)
                    self._spawn(self._script_turn(match, seat, match.decision_base))
                continue
            if not match.seat_is_person(seat) and seat not in match.thinking:
                match.thinking.add(seat)
                self._spawn(self._agent_turn(match, seat, match.decision_base))

    def _spawn(self, coro: Any) -> None:
        if self.stopping:  # a move stored during the stop starts no agent or clock
            coro.close()
            return
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _worker_move(self, match: LiveMatch, seat: Player, spec: str, seed: int) -> Any:
        """The move agent ``spec`` makes for ``seat`` now, from a worker process (once what
        it needs is prepared)."""
        # Asked again here: a match restored at start-up was checked by no request.
        await self.preparer.ready(match.game, self.preparer.compile_agent(match.game, spec))
        stored = match.stored
        light = self.light is not None and parse_spec(spec).name in LIGHT_AGENTS
        pool = self.light if light and self.light is not None else self.pool
        text = await pool.move(
            stored.game,
            self.content.resolve(stored.game, stored.options),
            stored.seed,
            list(stored.moves),
            seat,
            spec,
            seed,
            allowance=self.limits.allowance(spec),
            owner=match.owner,
        )
        return match.game.parse_action(text)

    async def _agent_turn(self, match: LiveMatch, seat: Player, base: int) -> None:
        """Ask a worker for an agent's move and play it if the decision is still open."""
        stored = match.stored
        spec = stored.seats[seat]["spec"]
        try:
            action = await self._worker_move(
                match, seat, spec, derive_seed(stored.seed, "seat", seat, "agent")
            )
            async with match.lock:
                if match.decision_base == base and seat in match.state.to_act:
                    await self._commit(match, seat, action)
        except asyncio.CancelledError:
            raise
        except AgentOverrun as exc:
            log.warning("agent %s of match %s (seat %d): %s", spec, match.id, seat, exc)
            await self._overran(match, seat, spec, base)
        except MeepleError as exc:  # the database failed (logged already): one line
            log.warning("agent %s of match %s could not move: %s", spec, match.id, exc)
        except Exception:
            log.exception("agent %s of match %s failed", spec, match.id)
        finally:
            match.thinking.discard(seat)
        if match.stored.status == "playing" and seat in match.state.to_act:
            self._after_change(match)  # the decision moved on while it thought: think again

    async def _script_turn(self, match: LiveMatch, seat: Player, base: int) -> None:
        """A tutorial's scripted seat plays its next released move, if it has one (else it
        waits for the learner's next step)."""
        try:
            async with match.lock:
                lesson = match.tutorial
                if lesson is None or match.decision_base != base:
                    return
                # Several in a row where the seat acts again (The Triangle Clock's mulligan,
                # then its choice): _commit's own _after_change sees the seat still thinking.
                while match.stored.status == "playing":
                    text = script_move(lesson, match.state, match.stored.moves)
                    if text is None:
                        return
                    await self._commit(match, seat, match.game.parse_action(text))
        except asyncio.CancelledError:
            raise
        except MeepleError as exc:  # a tutorial file that no longer replays, or the database
            log.warning("the script of tutorial match %s could not move: %s", match.id, exc)
        finally:
            match.thinking.discard(seat)

    async def _end_tutorial(self, match: LiveMatch) -> None:
        """The lesson's last step is played: the match ends (as the game, if it is over)."""
        async with match.lock:
            stored = match.stored
            if stored.status != "playing":
                return
            if match.state.is_over:
                return  # _commit finished it
            result = {
                "over": True,
                "reason": "the lesson is over",
                "returns": [0.0] * match.game.num_players,
                "winners": [],
            }
            await asyncio.to_thread(self.store.update, stored.id, status="finished", result=result)
            stored.status, stored.result = "finished", result
        self._after_change(match)

    async def _overran(self, match: LiveMatch, seat: Player, spec: str, base: int) -> None:
        """An agent ran past its allowance and its worker was stopped: the seat moves as a
        timed-out person's does, by the game's default agent, which plays it from now on
        (an agent that overran once would hold up a worker at every move). If the default
        agent itself overran, a random legal move is played."""
        async with match.lock:
            stored = match.stored
            if match.decision_base != base or seat not in match.state.to_act:
                return
            if stored.seats[seat]["spec"] != spec or stored.status != "playing":
                return
            default = _default_agent(match.game)
            if spec != default:
                seats = [dict(d) for d in stored.seats]
                seats[seat]["spec"] = default  # "agent" still names who was seated
                await asyncio.to_thread(self.store.update, stored.id, seats=seats)
                stored.seats = seats
                return  # _agent_turn then asks the default agent for this decision
            await self._commit(match, seat, _random_move(match, seat, base))

    # -- clocks -------------------------------------------------------------------------------
    def _set_clocks(self, match: LiveMatch) -> None:
        """Deadlines for the people to act: a memorise step's seconds, or the move clock."""
        now = self.clock()
        base = match.decision_base
        # A seat's deadline stands while its decision is open (others submitting to the
        # same simultaneous decision change nothing); a new decision starts a new period,
        # as a Triangle Clock mulligan resets the round's timer.
        keep = match.deadlines if match.deadline_base == base else {}
        match.deadline_base = base
        match.deadlines = {}
        # The game's own clock (The Triangle Clock's minute per choice) is for people
        # playing people: against the computer only the match's clock, if asked for, runs.
        people = sum(match.seat_is_person(s) for s in range(match.game.num_players))
        for seat in match.state.to_act:
            if not match.seat_is_person(seat):
                continue
            seconds = match.game.memorise_seconds(match.state, seat)
            if seconds is None:
                seconds = match.stored.move_seconds or (
                    match.game.decision_seconds(match.state, seat) if people >= 2 else None
                )
            if seconds is None:
                continue
            match.deadlines[seat] = keep.get(seat, now + seconds)
        if match.timer is not None:
            match.timer.cancel()
            match.timer = None
        if match.deadlines:
            # A deadline that passed while the server was down fires at once.
            delay = max(0.0, min(match.deadlines.values()) - now)
            loop = asyncio.get_running_loop()
            match.timer = loop.call_later(delay, lambda: self._spawn(self._time_out(match, base)))
        self._save_clocks(match)

    def _save_clocks(self, match: LiveMatch) -> None:
        """Store the deadlines, as absolute times, if they changed: a restarted server then
        keeps each seat's deadline instead of giving it a new full period."""
        data = (
            {"base": match.deadline_base, "seats": {str(s): d for s, d in match.deadlines.items()}}
            if match.deadlines
            else None
        )
        if data == match.clocks_saved:
            return
        match.clocks_saved = data
        if not match.clocks_writing:
            match.clocks_writing = True
            self._spawn(self._write_clocks(match))

    async def _write_clocks(self, match: LiveMatch) -> None:
        """Write the match's latest deadlines, one write at a time (so an older write never
        lands after a newer one)."""
        written: object = object()
        try:
            while match.clocks_saved is not written:
                written = data = match.clocks_saved
                try:
                    await asyncio.to_thread(self.store.set_deadlines, match.id, data)
                except MeepleError as exc:  # the clocks run on in memory
                    log.warning("match %s: its deadlines could not be stored: %s", match.id, exc)
                    return
        finally:
            match.clocks_writing = False

    async def _time_out(self, match: LiveMatch, base: int) -> None:
        """A person's time is up: the game's agent moves for them (a memorise step ends)."""
        async with match.lock:
            if match.decision_base != base or match.stored.status != "playing":
                return
            now = self.clock()
            late = [s for s, d in match.deadlines.items() if d <= now + 0.01]
            for seat in late:
                if seat not in match.state.to_act:
                    continue
                legal = match.state.legal_actions(seat)
                if len(legal) == 1:
                    action = legal[0]
                else:
                    # In a worker, as every computer move: the default agent may search for
                    # a second or read a solved game, and other matches must not wait on it.
                    seed = derive_seed(match.stored.seed, "timeout", seat, base)
                    try:
                        action = await self._worker_move(
                            match, seat, _default_agent(match.game), seed
                        )
                    except AgentOverrun:
                        action = _random_move(match, seat, base)
                await self._commit(match, seat, action, timed_out=True)
                return  # _commit reset the clocks for whoever is still to act
        self._after_change(match)

    # -- connections --------------------------------------------------------------------------
    def attach(self, match: LiveMatch, conn: Connection) -> None:
        """A client connected: send it everything, and tell the others it is here."""
        match.connections.add(conn)
        if self.stopping:
            conn.close(1001)
        conn.send(state_message(match, conn, self.clock()))
        self._broadcast(match, presence_only=True)

    def detach(self, match: LiveMatch, conn: Connection) -> None:
        """A client went away; a finished match nobody watches leaves memory (it is stored)."""
        conn.close()
        match.connections.discard(conn)
        self._broadcast(match, presence_only=True)
        if match.stored.status == "finished" and not match.connections:
            self.matches.pop(match.id, None)

    def _broadcast(self, match: LiveMatch, presence_only: bool = False) -> None:
        for conn in list(match.connections):
            if presence_only:
                conn.send({"type": "presence", "seats": match.seats_public()})
            else:
                conn.send(state_message(match, conn, self.clock()))


def _adopt_clocks(match: LiveMatch) -> None:
    """Take the deadlines stored with the match when they are for its current decision (a
    restarted server keeps them; stored for an earlier decision, they are stale)."""
    data = match.stored.deadlines
    if not data or data.get("base") != match.decision_base:
        return
    if match.deadline_base == match.decision_base:
        return  # this process set the clocks of this decision already
    try:
        deadlines = {int(s): float(d) for s, d in data["seats"].items()}
    except (AttributeError, KeyError, TypeError, ValueError):
        log.warning("match %s: its stored deadlines are not readable; new ones are set", match.id)
        return
    match.deadline_base = match.decision_base
    match.deadlines = deadlines


def _random_move(match: LiveMatch, seat: Player, base: int) -> Any:
    """A legal move drawn from the match's seed: the last resort when agents overran."""
    legal = match.state.legal_actions(seat)
    return make_rng(match.stored.seed, "overrun", seat, base).choice(legal)


def _is_open(spec: str) -> bool:
    """True for a seat given as ``open``: a person's seat for anyone who joins."""
    return spec.strip().lower() == OPEN


def _final_result(state: State[Any]) -> dict[str, Any]:
    returns = list(state.returns)
    best = max(returns) if returns else 0
    winners = (
        []
        if not returns or min(returns) == best
        else [p for p, r in enumerate(returns) if r == best]
    )
    return {**state.result, "returns": returns, "winners": winners}
