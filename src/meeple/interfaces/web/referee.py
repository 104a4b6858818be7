"""The play of a server's live matches: a move committed, then the clocks set, everyone
sent the new state, and the seats no person plays now moved.

A move is checked against the state, committed to the database, and only then acknowledged
and sent to everyone, each seat seeing only its own ``state.view(seat)``. The server moves
for an agent's seat (from a worker process, :mod:`~meeple.interfaces.web.pool`), for a
tutorial's scripted seat, and for a person whose time ran out; it runs the timers that
:mod:`~meeple.interfaces.web.clocks` sets. :class:`~meeple.interfaces.web.hub.Hub` adds the
matches held, their start and end, and the requests that change them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from meeple.agents import parse_spec
from meeple.agents.warm import LIGHT_AGENTS
from meeple.core.errors import MeepleError
from meeple.core.game import Player
from meeple.core.record import final_result
from meeple.core.rng import derive_seed, make_rng
from meeple.core.tutorial import finished, script_move
from meeple.interfaces.web.clocks import adopt_clocks, set_deadlines, stored_deadlines
from meeple.interfaces.web.content_sets import ContentSets
from meeple.interfaces.web.limits import ServerLimits
from meeple.interfaces.web.live import (
    TUTOR,
    Connection,
    LiveMatch,
    ServerError,
    ended_by_the_server,
    state_message,
)
from meeple.interfaces.web.lobby import default_agent
from meeple.interfaces.web.pool import AgentOverrun, AgentPool
from meeple.interfaces.web.preparing import Preparer
from meeple.store.db import StorageUnavailable
from meeple.store.matches import MatchChanged, MatchStore, StoredMatch

log = logging.getLogger("meeple.server")

STORAGE_RETRY_SECONDS = (0.5, 10.0)
"""How long to wait before the database is tried again after a failure, the first time;
doubled at each failure in a row, up to the second (:func:`retry_wait`)."""


CHANGE_TRIES = 3
"""How many times a change another server process keeps getting in first is decided
again on the match read anew before the request is refused (:meth:`Referee._change`)."""


def retry_wait(failures: int) -> float:
    """Seconds to wait before the database is tried again after ``failures`` (1 or more)
    failures in a row: tried again at once, a quick caller spins on a database that is down,
    thousands of tries and log lines a second; waiting longer each time, its work goes on
    within the longest wait of the database's return."""
    first, most = STORAGE_RETRY_SECONDS
    return min(most, first * 2 ** (failures - 1))


class Referee:
    """The play of every live match of one server process (the base of its
    :class:`~meeple.interfaces.web.hub.Hub`)."""

    def __init__(
        self,
        store: MatchStore,
        pool: AgentPool | None = None,
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
        self.clock = clock
        self._tasks: set[asyncio.Task[Any]] = set()
        self.preparer = Preparer(self.limits)
        """Makes what agents and hints need before their first decision, off the request
        path."""
        self.stopping = False
        """True once the hub's ``stop`` began: nothing new is started."""

    # -- moves --------------------------------------------------------------------------------
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
        result = final_result(after, *_given_up(stored.seats)) if after.is_over else None
        lesson = match.tutorial
        if (
            status is None
            and lesson
            and finished(lesson, after, [*stored.moves, (seat, str(action))])
        ):
            # The lesson's last step ends the match in the same write: a page told the lesson
            # is over must not still be offered the next move.
            status, result = "finished", _lesson_over(match)
        elif status is None and seq >= self.limits.max_match_moves:
            # In the same write too: no agent is asked for a move past the limit.
            status, result = "finished", _move_limit_reached(match, self.limits.max_match_moves)
        try:
            await asyncio.to_thread(
                self.store.add_move,
                stored.id,
                seq,
                seat,
                str(action),
                status=status,
                result=result,
                seen=stored,
            )
        except MatchChanged as exc:
            # Another server process stored this move number first, or changed the seats
            # or ended the match: catch up, and the mover is sent the position as it now is.
            await self._reload(match)
            raise ServerError(
                f"stale move: {exc}; the match is at move {match.seq} (the state has been "
                "sent again)",
                409,
                "stale_move",
            ) from None
        match.storage_failures = 0
        match.note_move(before, seat, action, after)
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

    async def _change(
        self, match: LiveMatch, decide: Callable[[StoredMatch], dict[str, Any]]
    ) -> None:
        """Store the change ``decide`` makes of the match as this process holds it (its
        seats, status, result or rematch; it refuses with ServerError what may not be done),
        then hold it in memory. The caller holds the match's lock. Where another server
        process changed the match meanwhile, nothing is stored: the match is read again and
        the change decided anew on it, so that a seat is never taken twice and a match never
        ends twice; past :data:`CHANGE_TRIES` the request is refused (409)."""
        for _ in range(CHANGE_TRIES):
            changes = decide(match.stored)
            try:
                await asyncio.to_thread(self.store.update, match.id, seen=match.stored, **changes)
            except MatchChanged as exc:
                log.info("%s: read again", exc)
                await self._reload(match)
                continue
            for name, value in changes.items():
                setattr(match.stored, name, value)
            return
        raise ServerError(
            "the match kept changing on another server while this was asked: ask again", 409
        )

    async def refresh(self, match: LiveMatch) -> None:
        """Catch up with what another process stored for this match. A database failure
        (logged already, one line) leaves the match as it was: the next notice, or the
        next time listening begins, reads it again."""
        async with match.lock:
            with contextlib.suppress(StorageUnavailable):
                await self._reload(match)

    async def _reload(self, match: LiveMatch) -> None:
        """Read the match again and play the moves this process has not seen (caller holds
        the lock)."""
        # Only the moves not seen yet: else a long match watched through another process
        # costs that process a read of every move at every move.
        stored = await asyncio.to_thread(self.store.get, match.id, match.seq)
        if stored is None:
            return
        new, stored.moves = stored.moves, [*match.stored.moves, *stored.moves]
        state = match.state
        for player, text in new:
            action = match.game.parse_action(text)
            after = state.apply(player, action)
            match.note_move(state, player, action, after)
            state = after
        match.state = state
        match.stored = stored
        match.clocks_saved = stored.deadlines
        adopt_clocks(match)  # the clocks the process that stored the move set
        self._drop_left_seats(match)
        self._after_change(match)

    @staticmethod
    def _drop_left_seats(match: LiveMatch) -> None:
        """Close the sockets of seats whose token is no longer theirs (the seat was left,
        here or on another server process), each told so first: else a page would go on
        playing a seat that someone else may now take."""
        for conn in list(match.connections):
            if conn.seat is not None and conn.token != match.stored.seats[conn.seat]["token"]:
                conn.send({"type": "left", "seat": conn.seat})
                conn.close()

    # -- the seats no person plays now --------------------------------------------------------
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
        except StorageUnavailable as exc:
            log.warning("agent %s of match %s could not move: %s", spec, match.id, exc)
            await self._storage_pause(match)
        except MeepleError as exc:
            if self.stopping:
                # The server stopped its workers: the agent failed at nothing, and moves
                # again after a restart, as the match's creator chose it.
                return
            # Asked again, it fails again (a parameter its factory refuses only as it is
            # made): thousands of tries and log lines a second, for a match nobody can end.
            # The seat is given to the game's default agent, as when an agent overruns.
            log.warning("agent %s of match %s could not move: %s", spec, match.id, exc)
            await self._overran(match, seat, spec, base)
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
        """A match whose lesson was over but still playing (stored so by an older server,
        whose lesson ended a write after its last move): the match ends."""

        def over(stored: StoredMatch) -> dict[str, Any]:
            if stored.status != "playing" or match.state.is_over:
                raise ServerError("the match ended meanwhile", 409)
            return {"status": "finished", "result": _lesson_over(match)}

        async with match.lock:
            try:
                await self._change(match, over)
            except ServerError:
                return
        self._after_change(match)

    async def _overran(self, match: LiveMatch, seat: Player, spec: str, base: int) -> None:
        """An agent ran past its allowance and its worker was stopped, or could not move:
        the seat moves as a timed-out person's does, by the game's default agent, which
        plays it from now on (an agent that overran once would hold up a worker at every
        move). If the default agent itself overran or failed, a random legal move is
        played."""
        async with match.lock:
            stored = match.stored
            if match.decision_base != base or seat not in match.state.to_act:
                return
            if stored.seats[seat]["spec"] != spec or stored.status != "playing":
                return
            default = default_agent(match.game)
            if spec != default:

                def replaced(stored: StoredMatch) -> dict[str, Any]:
                    if stored.seats[seat]["spec"] != spec or stored.status != "playing":
                        raise ServerError("the seat changed meanwhile", 409)
                    seats = [dict(d) for d in stored.seats]
                    seats[seat]["spec"] = default  # "agent" still names who was seated
                    return {"seats": seats}

                with contextlib.suppress(ServerError):
                    await self._change(match, replaced)
                return  # _agent_turn then asks the default agent for this decision
            await self._commit(match, seat, _random_move(match, seat, base))

    # -- clocks -------------------------------------------------------------------------------
    def _set_clocks(self, match: LiveMatch) -> None:
        """Set the deadlines of the people to act (:func:`.clocks.set_deadlines`) and a
        timer for the first to run out, and store them."""
        now = self.clock()
        base = match.decision_base
        set_deadlines(match, now)
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
        data = stored_deadlines(match)
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
        unstored = False
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
                            match, seat, default_agent(match.game), seed
                        )
                    except AgentOverrun:
                        action = _random_move(match, seat, base)
                try:
                    await self._commit(match, seat, action, timed_out=True)
                except StorageUnavailable as exc:
                    log.warning("match %s: seat %d's move, out of time: %s", match.id, seat, exc)
                    unstored = True
                    break
                except ServerError as exc:
                    if exc.code != "stale_move":
                        raise
                    # Another server process timed the seat out (or the match moved on)
                    # first: _commit read the match again and set the clocks anew.
                    log.info("match %s: seat %d's move, out of time: %s", match.id, seat, exc)
                return  # _commit reset the clocks for whoever is still to act
        if unstored:  # tried again once the lock is let go, later at each failure
            await self._storage_pause(match)
            self._spawn(self._time_out(match, base))
            return
        self._after_change(match)

    async def _storage_pause(self, match: LiveMatch) -> None:
        """Wait before a move the database failed to store is tried again (a computer
        moves in a millisecond): longer at each failure in a row (:func:`retry_wait`)."""
        match.storage_failures += 1
        await asyncio.sleep(retry_wait(match.storage_failures))

    # -- connections --------------------------------------------------------------------------
    def _broadcast(self, match: LiveMatch, presence_only: bool = False) -> None:
        for conn in list(match.connections):
            if presence_only:
                conn.send({"type": "presence", "seats": match.seats_public(self.clock())})
            else:
                conn.send(state_message(match, conn, self.clock()))


def _random_move(match: LiveMatch, seat: Player, base: int) -> Any:
    """A legal move drawn from the match's seed: the last resort when agents overran."""
    legal = match.state.legal_actions(seat)
    return make_rng(match.stored.seed, "overrun", seat, base).choice(legal)


def _lesson_over(match: LiveMatch) -> dict[str, Any]:
    """The result of a lesson played to its end before the game was over: no winner, yet
    nobody drew (the pages say the lesson is complete)."""
    return ended_by_the_server(match.game.num_players, "the lesson is over", "lesson")


def _move_limit_reached(match: LiveMatch, most: int) -> dict[str, Any]:
    """The result of a match stopped at the server's limit of moves, ``most``
    (``--max-match-moves``; a match restored past a lowered limit stops at its next move):
    a draw, as a game's own safeguard against endless play ends one (Erd's round limit,
    Squad Combat's turn limit)."""
    reached = f"the match reached this server's limit of {most:,} moves"
    return ended_by_the_server(match.game.num_players, reached, "move_limit")


def _given_up(seats: list[dict[str, Any]]) -> tuple[list[Player], list[Player]]:
    """The seats whose person resigned, and those whose person left and was claimed: in a
    match of three or more the computer played them on (see :func:`final_result`)."""
    gave_up = [p for p, seat in enumerate(seats) if seat.get("resigned")]
    left = [p for p in gave_up if seats[p].get("abandoned")]
    return [p for p in gave_up if p not in left], left
