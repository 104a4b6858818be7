"""Who plays which seat of a match: its token, taken with a seat's link once (the creator
of a private match is handed every person's link, to send), or an open seat from the lobby,
and given up again in a listed match.

A seat's link takes its seat once: whoever takes it is given a token of the seat's own, and
the link is refused from then on (``link_used``), but for the address that took it while
that token has not been used (its answer may have been lost). The hub's base class; the
matches it serves are :class:`~meeple.interfaces.web.live.LiveMatch`.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from meeple.core.game import Player
from meeple.interfaces.web.live import LiveMatch, ServerError, open_seats, public_message
from meeple.interfaces.web.lobby import new_token
from meeple.interfaces.web.protocol import name_skeleton, person_name
from meeple.interfaces.web.quotas import is_remote
from meeple.interfaces.web.referee import Referee
from meeple.store.matches import USED_LINK, StoredMatch, token_hash

RETAKE_AFTER = 2.0
"""Seconds after a seat's link took it before the same address may take it with the link
again, its new token unused and no connection holding the seat (:meth:`Seating.retaken`)."""


class Seating(Referee):
    """The seats of the matches a server runs: who holds each, and taking and leaving one."""

    def seat_of(self, match: LiveMatch, token: str) -> Player:
        """The seat a token belongs to; ServerError 403 if none."""
        digest = token_hash(token)
        for seat, data in enumerate(match.stored.seats):
            if data["token"] is not None and secrets.compare_digest(data["token"], digest):
                match.unconfirmed.pop(seat, None)  # the seat's own token came back: received
                return seat
        if _taken_by_link(match, digest) is not None:
            raise _link_used()
        raise ServerError(
            "this token is not a seat of this match (ask for a new link)", 403, "bad_token"
        )

    async def seat_for(self, match: LiveMatch, token: str) -> Player:
        """The seat a token belongs to (:meth:`seat_of`). On a database other server
        processes share, a token this process does not know is looked for in the seats as
        stored before it is refused: another process may have given it out a moment ago, its
        notice not yet heard (a person joins through one process, and their page connects
        to another). Found there, the match is read again; a bad token costs that one read,
        never a whole match read and sent to its every client."""
        try:
            return self.seat_of(match, token)
        except ServerError:
            if not self.store.shared:
                raise
            found = await asyncio.to_thread(self.store.holds_token, match.id, token_hash(token))
            if not found:
                raise
        await self.refresh(match)
        return self.seat_of(match, token)

    async def hello_seat(
        self, match: LiveMatch, token: str, name: str | None, client: str
    ) -> tuple[Player, str, str | None]:
        """The seat a WebSocket's hello token opens, the token the connection holds it with
        (the seat's own, given now where the hello's was its link: :meth:`join`), and why
        the hello's name was not used, if it was not: a seat taken now takes it, one that
        is not a person's name is left out (the seat goes by its own) and said after the
        welcome; a seat held already keeps its name whatever the hello says."""
        try:
            seat = await self.seat_for(match, token)
            if match.stored.seats[seat]["joined"]:
                return seat, token, None
        except ServerError as exc:
            if exc.code != "link_used" or self.retaken(match, token, client) is None:
                raise
        refused = None
        if name is not None:
            try:
                name = person_name(name)
            except ValueError as exc:
                name, refused = None, str(exc)
        try:
            taken = await self.join(match, token, None, name, client)
        except ServerError as exc:
            if exc.code != "name_taken":
                raise
            taken = await self.join(match, token, None, None, client)
            refused = public_message(exc)
        if refused is not None:
            refused = f"your name was not used ({refused}): the seat goes by its own"
        return taken["seat"], taken["token"], refused

    def retaken(self, match: LiveMatch, token: str, client: str | None) -> Player | None:
        """The seat ``token``, a link used already, took from ``client`` without its new
        token being used since (:attr:`LiveMatch.unconfirmed`): the answer that carried it
        may never have arrived, and the same address may take the seat with the link again,
        once no connection holds the seat and :data:`RETAKE_AFTER` seconds have passed. A
        second tab opening the link a moment after the first is refused so (it finds the
        first tab's token in the browser): taken again, it closed the first tab's seat.
        None for any other address, link or token."""
        seat = _taken_by_link(match, token_hash(token))
        if seat is None:
            return None
        taker, since = match.unconfirmed.get(seat, (None, 0.0))
        held = any(conn.seat == seat for conn in match.connections)
        late = self.clock() - since >= RETAKE_AFTER
        ours = client is not None and taker == client
        return seat if ours and late and not held else None

    async def join(
        self,
        match: LiveMatch,
        token: str | None,
        seat: int | None,
        name: str | None,
        client: str | None = None,
    ) -> dict[str, Any]:
        """Take a seat with its token, or (in a listed match) the first open one; ``client``,
        the address asking, may not take an open seat while it holds another of the match.
        A link takes its seat once, but for its taker's address again while the token it
        was given has not been used (:meth:`retaken`)."""
        taken: dict[str, Any] = {}
        again = False
        if token is not None:
            try:
                await self.seat_for(match, token)  # one given out by another process is known
            except ServerError as exc:
                if exc.code != "link_used" or self.retaken(match, token, client) is None:
                    raise
                again = True

        def take(stored: StoredMatch) -> dict[str, Any]:
            if stored.status == "finished":
                raise ServerError("the match is over; ask for a rematch or start a new one", 409)
            used = None
            if token is not None and again:
                retaken = self.retaken(match, token, client)
                if retaken is None:  # its token was used meanwhile
                    raise _link_used()
                chosen, held, used = retaken, new_token(), token_hash(token)
            elif token is not None:
                chosen, held = self.seat_of(match, token), token
                if not stored.seats[chosen]["joined"]:
                    # A seat's link is an invitation, taken once: whoever takes the seat
                    # with it is given a token of their own, and the link, which the
                    # match's creator was handed too (to send), plays the seat no more.
                    held, used = new_token(), token_hash(token)
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
                chosen = waiting[0] if seat is None else seat
                if chosen not in waiting:
                    raise ServerError(f"seat {chosen} is not open; open seats: {waiting}", 409)
                mine = [
                    p
                    for p, address in match.holders.items()
                    if address == client and p != chosen and stored.seats[p]["joined"]
                ]
                if client is not None and is_remote(client) and mine:
                    raise ServerError(
                        f"you hold seat {mine[0]} of this match: one person plays one seat "
                        "(several people at one screen play a match of their own, every seat "
                        "theirs)",
                        409,
                        "one_seat_each",
                    )
                held = new_token()
            seats = [dict(d) for d in stored.seats]
            data = seats[chosen]
            data["joined"] = True
            data["name"] = name or data["name"] or match.game.seat_name(chosen)
            if name is not None:
                _refuse_a_name_taken(seats, chosen, name, match.game.seat_names())
            data["token"] = token_hash(held)
            if used is not None:
                data[USED_LINK] = used
            taken.update(match=match.id, seat=chosen, token=held, link=used is not None)
            return _seated(stored, seats)

        async with match.lock:
            await self._change(match, take)
            if client is not None:
                match.holders[taken["seat"]] = client
                if taken.get("link"):
                    match.unconfirmed[taken["seat"]] = (client, self.clock())
            self._drop_left_seats(match)  # a socket of a token taken again, never used
            self._after_seats(match)
        self._broadcast(match)
        return {k: v for k, v in taken.items() if k != "link"}

    async def name_seat(self, match: LiveMatch, seat: Player, name: str) -> None:
        """Give ``seat``, a person's taken without a name (it goes by the seat's own,
        "Blue"), the name ``name`` (a :data:`~meeple.interfaces.web.protocol.Name`): once,
        while the match is played, as joining with it would have. ServerError otherwise:
        409 ``name_set`` for a seat named already, ``name_taken`` for another seat's."""

        own = match.game.seat_name(seat)

        def named(stored: StoredMatch) -> dict[str, Any]:
            data = stored.seats[seat]
            if stored.status == "finished":
                raise ServerError("the match is over: its names stay as they were", 409)
            if match.tutorial is not None:
                raise ServerError("a tutorial's seat keeps the name it was started with", 409)
            if data["agent"] is not None or not data["joined"]:
                raise ServerError("only a person's seat, once taken, is given a name", 409)
            if data["name"] != own:
                raise ServerError(
                    f"this seat is named {data['name']!r} already: a seat's name is given once",
                    409,
                    "name_set",
                )
            if name_skeleton(name) == name_skeleton(own):
                raise ServerError(f"{own} is the seat's own name: give a name of your own", 409)
            seats = [dict(d) for d in stored.seats]
            _refuse_a_name_taken(seats, seat, name, match.game.seat_names())
            seats[seat]["name"] = name
            return {"seats": seats}

        async with match.lock:
            await self._change(match, named)
        self._broadcast(match)

    async def leave(self, match: LiveMatch, token: str) -> dict[str, Any]:
        """Give a seat up: it is open again for someone else from the lobby, and the old
        token is dead. Refused in a private match, whose seats are taken only with their
        links: a seat given up there could never be taken again, and the match would wait
        on it for good."""
        seat = await self.seat_for(match, token)  # one given out by another process too

        def give_up_seat(stored: StoredMatch) -> dict[str, Any]:
            self.seat_of(match, token)  # still the token's, on a reading anew of the match
            if stored.status == "finished":
                # An open seat in a finished match would list it in the lobby again, and the
                # dead token would lose its holder the rematch.
                raise ServerError("the match is over: a seat is left only while it is played", 409)
            if not stored.listed:
                raise ServerError(
                    "a seat of a private match cannot be given up: nobody could take it again "
                    "without a link its creator sent. Resign instead (with more than two seats "
                    "the computer plays yours to the end), or call the match off before it "
                    "starts",
                    409,
                    "private_seat",
                )
            seats = [dict(d) for d in stored.seats]
            seats[seat].update(joined=False, reserved=False, token=token_hash(new_token()))
            # The link that once took it says no more that someone holds the seat: it is open.
            seats[seat].pop(USED_LINK, None)
            return _seated(stored, seats)

        async with match.lock:
            await self._change(match, give_up_seat)
            match.holders.pop(seat, None)
            match.unconfirmed.pop(seat, None)
            self._drop_left_seats(match)
            self._after_seats(match)
        self._broadcast(match)
        return {"match": match.id, "seat": seat, "left": True}

    def _after_seats(self, match: LiveMatch) -> None:
        """Once the seats are stored: a match being played goes on (its clocks, its agents)."""
        if match.stored.status == "playing":
            self._after_change(match)


def _taken_by_link(match: LiveMatch, digest: str) -> Player | None:
    """The seat taken with the link whose token hashes to ``digest``, if one was."""
    for seat, data in enumerate(match.stored.seats):
        used = data.get(USED_LINK)
        if isinstance(used, str) and secrets.compare_digest(used, digest):
            return seat
    return None


def _link_used() -> ServerError:
    return ServerError(
        "this seat's link was used: the seat is taken by the person who opened it first, "
        "and the link plays it no more (their browser holds the seat, and the lobby's "
        "Resume takes it back there)",
        403,
        "link_used",
    )


def _refuse_a_name_taken(
    seats: list[dict[str, Any]], seat: Player, name: str, seat_names: list[str]
) -> None:
    """ServerError 409 ``name_taken`` where ``name`` reads as another person's seat's name
    (in any case, with lookalike letters or invisible characters: :func:`name_skeleton`), or
    as another seat's own name ("Red", which a person who joins it without one goes by): the
    pages could not tell the two apart."""
    others = {
        name_skeleton(str(d["name"]))
        for p, d in enumerate(seats)
        if p != seat and d.get("name") and d["agent"] is None and d["joined"]
    } | {name_skeleton(other) for p, other in enumerate(seat_names) if p != seat}
    if name_skeleton(name) in others:
        raise ServerError(
            f"another seat of this match is named {name!r}; choose another name",
            409,
            "name_taken",
        )


def _seated(stored: StoredMatch, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """The change that gives a match these ``seats``: a waiting match is played once every
    person's seat is taken."""
    status = stored.status
    if status == "waiting" and all(d["joined"] for d in seats):
        status = "playing"
    return {"seats": seats, "status": status}
