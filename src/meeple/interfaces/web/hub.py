"""The matches a server runs: seats, moves, agents, clocks and who is watching.

The hub knows no game: it talks to games only through the core API (``make``,
``new_game``, ``apply``, ``view``, ``legal_actions``, records) and to the database only
through :class:`~meeple.store.matches.MatchStore`. Each match has one lock, held while a
request changes it.

Its parts: :mod:`~meeple.interfaces.web.referee` plays the matches (a move committed and
sent to everyone, the agents' and timed-out seats' moves, the timers),
:mod:`~meeple.interfaces.web.seating` says who holds each seat (a seat's link taken once,
an open seat taken, a seat left; the hub's base class, on the referee),
:mod:`~meeple.interfaces.web.lobby` checks and stores a new match (the hub then
serves it), :mod:`~meeple.interfaces.web.hints` answers hints, and
:mod:`~meeple.interfaces.web.clocks` says whose decision has a deadline. The hub holds the
matches, restores and expires them, and answers the requests that change them.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from meeple.core.errors import MeepleError
from meeple.core.game import Game, Player, seats_text
from meeple.core.registry import make
from meeple.core.tutorial import is_expected, load_tutorial
from meeple.core.words import counted
from meeple.interfaces.web.clocks import adopt_clocks
from meeple.interfaces.web.content_sets import ContentSets
from meeple.interfaces.web.hints import Hints
from meeple.interfaces.web.limits import ServerLimits
from meeple.interfaces.web.live import (
    TUTOR,
    UNAVAILABLE,
    Connection,
    LiveMatch,
    ServerError,
    ended_by_the_server,
    public_message,
    state_message,
)
from meeple.interfaces.web.lobby import (
    Lobby,
    default_agent,
    new_token,
    rematch_request,
    rematch_seat,
)
from meeple.interfaces.web.pool import AgentPool
from meeple.interfaces.web.protocol import CreateMatch
from meeple.interfaces.web.referee import retry_wait
from meeple.interfaces.web.seating import Seating
from meeple.store.db import failure_reason
from meeple.store.matches import DamagedMatch, MatchStore, StoredMatch, token_hash

log = logging.getLogger("meeple.server")

FINISHED_KEPT = 64
"""Finished matches that nobody watches a process keeps in memory, the latest asked for. A
finished match is asked for again (its record, its replay, its review), so a few are kept;
keeping every one a client asks for would let clients fill the server's memory with the
stored ones, one request each."""


class Hub(Seating):
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
        super().__init__(store, pool, clock, limits, content, light)
        self.matches: dict[str, LiveMatch] = {}
        self._loading: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        """One lock per match being loaded, with how many requests hold or wait for it: two
        requests must not load two copies of one match, and a long match's load holds up no
        other's."""
        self.set_aside: dict[str, str] = {}
        """Matches that could not be restored at start-up, and the refusal a request for one
        is answered with (why it cannot be served); the lobby lists none of them."""
        self.lobby = Lobby(
            store, self.content, self.limits, self.preparer, base_url, unlisted=self.set_aside
        )
        """The games offered, new matches checked and stored, the listings."""
        self.hints = Hints(self.pool, self.preparer, self.content, self.limits)
        """Hints for a person playing the computer."""
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
                # longer replays), every other match is still served; this one says why, in
                # the words a client asking for it is answered with.
                reason = str(exc) if isinstance(exc, MeepleError) else type(exc).__name__
                told = public_message(exc) if isinstance(exc, MeepleError) else reason
                # A ServerError says that the match cannot be served already.
                why = "" if isinstance(exc, ServerError) else f"match {match_id} cannot be served: "
                self.set_aside[match_id] = why + told
                log.error("match %s set aside, it cannot be restored: %s", match_id, why + reason)
                continue
            restored += 1
            self._after_change(match)
        log.info("restored %s", counted(restored, "unfinished match", "unfinished matches"))
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
        the row's ``updated`` time, and returns their ids; then delete those finished past
        ``limits.delete_ended_seconds``."""
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
        if limits.delete_ended_seconds > 0:
            await self._delete_finished(limits.delete_ended_seconds)
        return closed

    async def _delete_finished(self, seconds: float) -> None:
        """Delete the matches that finished ``seconds`` ago (``--delete-ended-seconds``),
        but those someone is watching now (deleted once they leave) and those set aside."""
        watched = {m.id for m in self.matches.values() if m.connections}
        keep = watched | set(self.set_aside)
        gone = await asyncio.to_thread(self.store.delete_finished, seconds, keep)
        for match_id in gone:
            self.matches.pop(match_id, None)
        if gone:
            log.info(
                "deleted %s that ended over %g s ago",
                counted(len(gone), "finished match", "finished matches"),
                seconds,
            )

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
            result = ended_by_the_server(len(stored.seats), reason, "expired")
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
            self._let_go_of_finished()
        return True

    async def _listen(self) -> None:
        """Hear the moves other server processes commit to the same database, and send
        them on to this process's clients (PostgreSQL LISTEN/NOTIFY).

        Each time listening begins, every match held here is read again: what another
        process committed while this one was not listening (the database restarting, or
        this process starting up) was announced to nobody, and the seat waiting for that
        move would wait for good."""
        failures = 0  # in a row: the next try waits longer (it was once a second)
        while True:
            try:
                async for match_id in self.store.changes():
                    if match_id is None:  # listening (again): catch up with every match
                        if failures:
                            log.info(
                                "listening for other servers' changes again; reading the %d "
                                "matches held here again",
                                len(self.matches),
                            )
                            failures = 0
                        for held in list(self.matches.values()):
                            self._spawn(self.refresh(held))
                    elif (match := self.matches.get(match_id)) is not None:
                        self._spawn(self.refresh(match))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the listening connection broke: listen again
                failures += 1
                # One line: psycopg's reason may add a hint on a line of its own.
                log.warning("listening for other servers' changes failed: %s", failure_reason(exc))
            await asyncio.sleep(retry_wait(failures) if failures else 1)

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
            raise ServerError(self.set_aside[match_id], 503, UNAVAILABLE)
        try:
            stored = await asyncio.to_thread(self.store.get, match_id)
        except DamagedMatch as exc:
            raise ServerError(f"this match cannot be served: {exc}", 503, UNAVAILABLE) from None
        if stored is None:
            raise ServerError(f"there is no match {match_id!r}", 404, "unknown_match")
        game = make(stored.game, **self.content.resolve(stored.game, stored.options))
        if stored.content is not None:
            changed = game.options.content_changed(stored.content)
            if changed:
                # Its moves would replay on other numbers than its players saw; the set's
                # files as they were serve it again (the path is the server's own).
                sets = ", ".join(f"{option}={stored.options.get(option)!s}" for option in changed)
                raise ServerError(
                    f"this match cannot be served: its content set ({sets}) "
                    "has been edited since the match began; it is served again once the "
                    "set is as it was",
                    503,
                    UNAVAILABLE,
                )
        # In a worker thread: the replay of a long match (thousands of moves, a good part of
        # a second) on the event loop held up every other client's messages meanwhile.
        match = await asyncio.to_thread(_replayed, stored, game)
        if any(seat["spec"] == TUTOR for seat in stored.seats):
            match.tutorial = load_tutorial(stored.game)
        match.clocks_saved = stored.deadlines
        adopt_clocks(match)
        match.loaded_at = self.clock()
        self.matches[match_id] = match
        return match

    async def get(self, match_id: str) -> LiveMatch:
        """A match by id, loaded from the database if this process has not seen it yet."""
        match = self.matches.get(match_id)
        held = match is not None
        if match is None:
            lock, users = self._loading.setdefault(match_id, (asyncio.Lock(), [0]))
            users[0] += 1
            try:
                async with lock:
                    match = self.matches.get(match_id) or await self._load(match_id)
            finally:
                # Dropped once nobody holds or waits for it: a lock released by a load that
                # failed is not yet "locked" by the request it wakes, and dropped then, a
                # third request made a lock of its own and loaded a second copy beside it.
                users[0] -= 1
                if not users[0]:
                    del self._loading[match_id]
        # The latest asked for is the last to go: the match a socket asked for stays the
        # copy every other client of it is given while that socket attaches.
        match.asked_at = self.clock()
        if not held:
            self._let_go_of_finished()
        return match

    def _let_go_of_finished(self) -> None:
        """Past :data:`FINISHED_KEPT` finished matches nobody watches, the longest unasked
        leave memory (they are stored, and loaded again when asked for)."""
        idle = [
            m for m in self.matches.values() if m.stored.status == "finished" and not m.connections
        ]
        for match in sorted(idle, key=lambda m: m.asked_at)[: max(0, len(idle) - FINISHED_KEPT)]:
            self.matches.pop(match.id, None)

    # -- new matches --------------------------------------------------------------------------
    async def create(
        self,
        request: CreateMatch,
        rematch_of: str | None = None,
        owner: str | None = None,
        base_url: str | None = None,
    ) -> dict[str, Any]:
        """Make a match (:meth:`Lobby.new_match`) and serve it; returns its id, one secret
        token per person's seat and the links (under ``base_url``, the address the request
        reached: :meth:`Lobby.answer`). ``owner``: the address that asked, whose share of
        the agent workers its agents use."""
        match, tokens = await self.lobby.new_match(request, rematch_of, owner)
        return self._serve_new(match, tokens, base_url)

    async def create_tutorial(
        self, game_name: str, name: str | None = None, base_url: str | None = None
    ) -> dict[str, Any]:
        """Start a game's tutorial (:meth:`Lobby.new_tutorial`): the learner's token in the
        answer, as :meth:`create`'s, and the lesson's title."""
        match, tokens = await self.lobby.new_tutorial(game_name, name)
        assert match.tutorial is not None
        return {**self._serve_new(match, tokens, base_url), "title": match.tutorial.title}

    def _serve_new(
        self, match: LiveMatch, tokens: dict[Player, str], base_url: str | None = None
    ) -> dict[str, Any]:
        match.loaded_at = self.clock()
        self.matches[match.id] = match
        self._after_change(match)
        return self.lobby.answer(match, tokens, base_url)

    def held(self) -> int:
        """How many unfinished matches this process holds (in memory, every one)."""
        return sum(m.stored.status != "finished" for m in self.matches.values())

    def unfinished(self, match_id: str) -> bool:
        """Whether a match this process serves is still to be played (for the per-client
        count of open matches; one no longer in memory is over)."""
        match = self.matches.get(match_id)
        return match is not None and match.stored.status != "finished"

    async def resign(self, match: LiveMatch, seat: Player) -> None:
        """A seat gives up. With two seats the other wins; with more, the game's agent plays
        the resigned seat to the end (so the others can finish), and it counts as a loss.
        Before every seat is taken, it calls the match off."""

        def resigned(stored: StoredMatch) -> dict[str, Any]:
            if stored.status == "waiting":
                return self._called_off(match, seat)
            reason = f"{seats_text(match.game, [seat])} resigned"
            return self._given_up(match, stored, seat, reason, "resigned")

        async with match.lock:
            await self._change(match, resigned)
        self._after_change(match)

    async def claim(self, match: LiveMatch, claimant: Player, seat: Player) -> None:
        """``claimant`` claims from the person of ``seat``, whose page has been closed for
        ``limits.claim_seconds`` while the match waits on them: with two seats the claimant
        wins (the absent seat loses, as by resigning); with more, the game's agent takes
        the absent seat, as for a resigned one. Refused (409 ``not_claimable``, saying why)
        in any other case, so a person who only stepped away, or whom nobody waits for,
        keeps their seat."""

        def claimed(stored: StoredMatch) -> dict[str, Any]:
            self._check_claim(match, claimant, seat)  # first: it refuses a seat out of range
            who, by = seats_text(match.game, [seat]), seats_text(match.game, [claimant])
            reason = f"{who} left the match and {by} claimed the win"
            return self._given_up(match, stored, seat, reason, "abandoned")

        async with match.lock:
            await self._change(match, claimed)
        log.info("match %s: seat %d claimed from seat %d", match.id, claimant, seat)
        self._after_change(match)

    def _check_claim(self, match: LiveMatch, claimant: Player, seat: Player) -> None:
        def refuse(why: str) -> ServerError:
            return ServerError(why, 409, "not_claimable")

        if not self.limits.claim_seconds:
            raise refuse("this server lets nobody be claimed from (meeple serve --claim-seconds 0)")
        if match.tutorial is not None:
            raise refuse("a tutorial has nobody to claim from")
        if match.stored.status != "playing":
            raise refuse("only a match being played can be claimed from")
        if not match.seat_is_person(claimant):
            raise refuse("only a person playing the match may claim")
        if not 0 <= seat < match.game.num_players or seat == claimant:
            raise refuse(f"seat {seat} is not another seat of this match")
        name = match.game.seat_name(seat)
        if not match.seat_is_person(seat):
            raise refuse(f"{name} is played by the computer, which does not leave")
        if not match.stored.seats[seat]["joined"]:
            raise refuse(
                f"{name}'s seat is open (its person gave it up): the match waits for someone "
                "to take it from the lobby"
            )
        away = match.away(seat, self.clock())
        if away is None:
            raise refuse(f"{name} is here (their page is open): wait for their move")
        if seat not in match.state.to_act:
            raise refuse(f"the match is not waiting on {name}: play on")
        left = self.limits.claim_seconds - away
        if left > 0:
            raise refuse(
                f"{name} has been away {away:.0f} s; they may be claimed from after "
                f"{self.limits.claim_seconds:g} s away, in {math.ceil(left)} s"
            )

    @staticmethod
    def _given_up(
        match: LiveMatch, stored: StoredMatch, seat: Player, reason: str, why: str
    ) -> dict[str, Any]:
        """The change that makes ``seat`` lose (``why``: "resigned" or "abandoned", the
        seat's flag and the result's list): with two seats the match ends and the other
        seat wins; with more the game's agent takes the seat."""
        if stored.status == "finished":
            raise ServerError("the match is over already", 409)
        if stored.seats[seat].get("resigned"):
            # The computer plays the seat already: giving it up again would change nothing
            # but the seat's agent, and the result's reason.
            how = "left the match" if stored.seats[seat].get("abandoned") else "resigned"
            raise ServerError(f"{match.game.seat_name(seat)} has {how} already", 409)
        seats = [dict(d) for d in stored.seats]
        seats[seat]["resigned"] = True
        if why == "abandoned":
            seats[seat]["abandoned"] = True
        if match.game.num_players == 2:
            returns = [1.0, 1.0]
            returns[seat] = -1.0
            result = {
                "over": True,
                "reason": reason,
                why: [seat],
                "returns": returns,
                "winners": [1 - seat],
            }
            return {"seats": seats, "status": "finished", "result": result}
        seats[seat]["spec"] = default_agent(match.game)
        seats[seat]["agent"] = seats[seat]["spec"]
        return {"seats": seats}

    @staticmethod
    def _called_off(match: LiveMatch, seat: Player) -> dict[str, Any]:
        """The change that calls a match off when a seat resigns before every seat is
        taken, as aborting a game before it begins does on lichess: nobody played, so nobody
        wins (``aborted``)."""
        called_off = f"{seats_text(match.game, [seat])} called the match off before it began"
        result = ended_by_the_server(match.game.num_players, called_off, "aborted")
        return {"status": "finished", "result": result}

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

    async def rematch(
        self,
        match: LiveMatch,
        seat: Player,
        base_url: str | None = None,
        creating: Callable[[], AbstractAsyncContextManager[dict[str, str]]] | None = None,
    ) -> dict[str, Any]:
        """Ask for (or accept) a rematch: once every person of the match has, a new match of
        the same game and options, seats turned one place round, new seed (the computer
        always accepts, so against it the first ask starts it).

        Until then the answer is ``{"match": None, "offer": ...}`` and every page is shown
        the offer to accept or decline. Once made, every person of the old match is told
        the new match and the token of their new seat on their own connection; the asker
        gets theirs in the reply; its links are under ``base_url`` (:meth:`create`).
        ``creating`` guards the making alone (the asker's quota of new matches: an offer,
        an acceptance that leaves others to accept, and an ask once made create nothing),
        and is told the match made.
        """
        if match.tutorial is not None:
            raise ServerError(
                "a tutorial has no rematch: start a real game from the lobby", 409, "conflict"
            )
        async with match.lock:
            stored = match.stored
            if stored.status != "finished":
                raise ServerError("a rematch is offered once the match is over", 409)
            untaken = [s for s in match.people() if not stored.seats[s]["joined"]]
            if untaken and stored.rematch is None:
                # Called off or expired before it began, or a seat given up: its person
                # would be waited on for good, or accepted for by whoever holds its link.
                raise ServerError(
                    f"{seats_text(match.game, untaken)} never took a seat in this match (or "
                    "gave it up), so it has no rematch: start a new match from the lobby",
                    409,
                )
            made = stored.rematch
            if made is None:
                match.rematch_votes[seat] = True
                if not all(match.rematch_votes.get(s) for s in match.people()):
                    offer = match.rematch_offer()
                else:
                    offer = None
        if made is not None:
            return await self._seat_in_rematch(await self.get(made), seat, base_url)
        if offer is not None:
            self._broadcast(match)
            return {"match": None, "offer": offer}
        async with match.lock:
            made = stored.rematch  # made meanwhile by the last to accept
            if made is None:
                async with (creating or _nothing_guarded)() as guarded:
                    created, order = await self._make_rematch(match, seat, base_url)
                    guarded["match"] = created["match"]
        if made is not None:
            return await self._seat_in_rematch(await self.get(made), seat, base_url)
        mine = None
        by_old = {order[s["seat"]]: s for s in created["seats"]}
        for conn in list(match.connections):
            if conn.seat is not None and conn.seat in by_old:
                # Each seat's link on the address its own client used, never the asker's
                # (whose Host header is the asker's to write).
                new = by_old[conn.seat]
                link = self.lobby.join_url(created["match"], new["token"], conn.base_url)
                conn.send({"type": "rematch", "match": created["match"], **new, "join_url": link})
            elif conn.seat is None:
                conn.send({"type": "rematch", "match": created["match"]})
        if seat in by_old:
            mine = by_old[seat]
        self._broadcast(match)
        return {"match": created["match"], "seat": mine, "watch_url": created["watch_url"]}

    async def _make_rematch(
        self, match: LiveMatch, seat: Player, base_url: str | None
    ) -> tuple[dict[str, Any], list[Player]]:
        """Make the rematch everyone accepted (the caller holds the match's lock): its
        creation's answer, and ``order`` (new seat k is played by old seat ``order[k]``)."""
        stored = match.stored
        here = {seat} | {c.seat for c in match.connections if c.seat is not None}
        request, order = rematch_request(stored, here, match.game.seat_names())
        # The same agents, on the share of the address that chose them.
        created = await self.create(
            request, rematch_of=stored.id, owner=match.owner, base_url=base_url
        )
        await asyncio.to_thread(self.store.update, stored.id, rematch=created["match"])
        stored.rematch = created["match"]
        return created, order

    async def _seat_in_rematch(
        self, new: LiveMatch, old: Player, base_url: str | None
    ) -> dict[str, Any]:
        """The person of seat ``old`` asks again once the rematch is made: their seat in it,
        while nobody has taken it, is handed to them with a new link (any link handed before
        plays it no more). They may have been sent none (their page was closed when the
        last person accepted, or closed a moment before the link went out into a socket
        that was gone): only the holder of the old seat's token can ask, so it is theirs.
        409 where the seat is taken, or is an agent's."""
        chosen = rematch_seat(old, len(new.stored.seats))
        link = new_token()

        def handed(stored: StoredMatch) -> dict[str, Any]:
            data = stored.seats[chosen]
            if stored.status == "finished" or data["agent"] is not None or data["joined"]:
                raise ServerError(
                    f"a rematch exists already: match {new.id}, where your seat is taken "
                    "(open it in the browser that took it) or not yours to take",
                    409,
                )
            seats = [dict(d) for d in stored.seats]
            seats[chosen]["token"] = token_hash(link)
            return {"seats": seats}

        async with new.lock:
            await self._change(new, handed)
        return {
            "match": new.id,
            "seat": {
                "seat": chosen,
                "seat_name": new.game.seat_name(chosen),
                "token": link,
                "join_url": self.lobby.join_url(new.id, link, base_url),
            },
            "watch_url": self.lobby.watch_url(new.id, base_url),
        }

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
            raise ServerError(
                "spectators watch; a seat's token is needed to play", 403, "spectator"
            )
        async with match.lock:
            if match.stored.status == "finished":
                raise ServerError("the match is over; ask for a rematch or start a new one", 409)
            if match.stored.status != "playing":
                raise ServerError("the match starts when every seat is taken")
            # Others' submissions to the same simultaneous decision change nothing this seat
            # may choose, so a move chosen since the decision began still stands.
            if not match.decision_base <= seq <= match.seq:
                chosen = (
                    f"it quotes move {seq}, which the match has not reached"
                    if seq > match.seq
                    else f"it was chosen at move {seq}"
                )
                raise ServerError(
                    f"stale move: {chosen}, the match is at move {match.seq}"
                    " (the state has been sent again)",
                    code="stale_move",
                )
            if not match.seat_is_person(seat):
                raise ServerError("this seat is played by an agent now")
            if (text is None) == (action_id is None):
                raise ServerError("a move needs exactly one of action (its notation) or action_id")
            game = match.game
            # Both raise a MeepleError naming what is allowed (ActionIdError: the id range).
            if text is not None:
                action = game.parse_action(text)
            else:
                assert action_id is not None  # exactly one of the two was given
                action = game.action_from_id(action_id)
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

    # -- connections --------------------------------------------------------------------------
    def attach(self, match: LiveMatch, conn: Connection) -> None:
        """A client connected: send it everything, and tell the others it is here."""
        match.connections.add(conn)
        if self.stopping:
            conn.close(1001)
        self._drop_left_seats(match)  # the seat left while its hello was answered
        conn.send(state_message(match, conn, self.clock()))
        self._broadcast(match, presence_only=True)

    def detach(self, match: LiveMatch, conn: Connection) -> None:
        """A client went away; a finished match nobody watches leaves memory (it is stored)."""
        conn.close()
        match.connections.discard(conn)
        if conn.seat is not None and not match.connected(conn.seat):
            match.absent_since[conn.seat] = self.clock()
        self._broadcast(match, presence_only=True)
        if match.stored.status == "finished" and not match.connections:
            # Kept among the latest finished (FINISHED_KEPT), not let go at once: a page
            # reloaded, or a client reconnecting in a loop, would have it loaded again,
            # every move replayed, at each connection.
            self._let_go_of_finished()


def _replayed(stored: StoredMatch, game: Game[Any, Any, Any]) -> LiveMatch:
    """A stored match as its moves leave it, each move noted as it was made (what the log
    shows of it); MeepleError naming the first move that does not replay."""
    state = game.new_game(stored.seed)
    match = LiveMatch(stored=stored, game=game, state=state, hidden=[])
    for number, (player, text) in enumerate(stored.moves, start=1):
        try:
            action = game.parse_action(text)
            after = state.apply(player, action)
        except MeepleError as exc:
            raise MeepleError(f"move {number} ({text!r}) does not replay: {exc}") from None
        match.note_move(state, player, action, after)
        state = after
    match.state = state
    return match


@asynccontextmanager
async def _nothing_guarded() -> AsyncIterator[dict[str, str]]:
    """A rematch made with no quota to count it against (the hub used without a web app)."""
    yield {}
