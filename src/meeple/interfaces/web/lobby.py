"""Before a match is played: the games a server offers, a new match or tutorial checked and
stored, what its creator is answered, and the lobby's listings.

The :class:`~meeple.interfaces.web.hub.Hub` serves a match once it exists (its seats, moves,
agents and clocks); nothing here holds a match's lock or talks to a connection.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from meeple.agents import HUMAN, available_agents, parse_spec
from meeple.agents.levels import DEFAULT_LEVEL, LEVEL_NAMES, level_spec, seat_spec
from meeple.agents.spec import agent_parameters
from meeple.core.errors import AgentSpecError, MeepleError
from meeple.core.game import Game, Player
from meeple.core.registry import games, make
from meeple.core.tutorial import TutorialError, has_tutorial, load_tutorial
from meeple.interfaces.web.content_sets import ContentSets
from meeple.interfaces.web.limits import ServerLimits
from meeple.interfaces.web.live import (
    TUTOR,
    LiveMatch,
    ServerError,
    open_seats,
    seat_label,
)
from meeple.interfaces.web.pages import has_drawing
from meeple.interfaces.web.preparing import Preparer
from meeple.interfaces.web.protocol import CreateMatch, reads_as_computer
from meeple.interfaces.web.seeds import draw_seed, new_salt
from meeple.store.db import utc_now
from meeple.store.matches import MatchStore, StoredMatch, token_hash

ONLINE_CONTENT = "online matches and replays play the content that ships with meeple"
"""Why a client may not name a file: the advice that goes with the refusal."""

OPEN = "open"
"""A seat given as this is a person's seat with no token handed out: anyone may join it."""


def default_agent(game: Game[Any, Any, Any]) -> str:
    """The opponent a server seats when none is named (and plays a resigned or timed-out
    seat with): the hard level, measured on the ladder."""
    return level_spec(game, DEFAULT_LEVEL)


def is_open(spec: str) -> bool:
    """True for a seat given as ``open``: a person's seat for anyone who joins."""
    return spec.strip().lower() == OPEN


def new_token() -> str:
    """A seat's secret token: 192 bits, handed out once (the database keeps its hash)."""
    return secrets.token_urlsafe(24)


def new_match_id() -> str:
    """A match's id: 72 bits, so an unlisted match's link is unguessable."""
    return secrets.token_urlsafe(9)


class Lobby:
    """What a server offers before a match starts, and the making of a new match."""

    def __init__(
        self,
        store: MatchStore,
        content: ContentSets,
        limits: ServerLimits,
        preparer: Preparer,
        base_url: str = "",
        unlisted: Mapping[str, str] | None = None,
    ) -> None:
        self.store = store
        self.content = content
        self.limits = limits
        self.preparer = preparer
        self.base_url = base_url
        self.unlisted = unlisted if unlisted is not None else {}
        """Matches the listings leave out (the hub's set aside: they cannot be served)."""

    def catalogue(self) -> list[dict[str, Any]]:
        """The games, their options and the agents each accepts (for the create form)."""
        out = []
        for info in games():
            game = make(info.name)
            data = set(type(game.options).external_options())
            out.append(
                {
                    "name": info.name,
                    "title": info.title,
                    "summary": info.summary,
                    "players": info.players,
                    "seats": game.num_players,
                    # The quick start's choice of how many play, where the game takes one,
                    # each count with the options that seat it and its seats' names (the
                    # default count's alone named Erosion's third seat "Seat 2").
                    "player_choices": [
                        {
                            "players": n,
                            "options": options,
                            "seat_names": make(info.name, **options).seat_names(),
                        }
                        for n, options in game.player_choices().items()
                    ],
                    "seat_names": game.seat_names(),
                    "perfect_information": info.perfect_information,
                    "options": [
                        {
                            "name": o.name,
                            "label": o.label,
                            "default": o.default,
                            # A default worked out from the others, in words ("3x4").
                            "default_words": o.default_words,
                            "allowed": o.allowed,
                            "help": o.help,
                            # Offered beside the typed text (a datalist): a syntax such as
                            # The Triangle Clock's "ITEMS/ITEMS" is no player's to know.
                            "suggested": [
                                {"value": value, "label": words} for value, words in o.suggested
                            ],
                            # Data read from files: online, only a content set by name.
                            "data": o.name in data,
                            # Shown only under these values of the others (Double Edges').
                            "applies_when": dict(o.applies_when),
                        }
                        for o in info.options
                    ],
                    "agents": [HUMAN, *available_agents(game)],
                    "levels": [
                        {"level": level, "spec": level_spec(game, level)} for level in LEVEL_NAMES
                    ],
                    "best_agent": default_agent(game),
                    # Designer's data the operator installed: "set:<name>" in the options.
                    "content_sets": self.content.names(info.name),
                    "tutorial": has_tutorial(info.name),
                    "drawing": has_drawing(info.name),
                }
            )
        return out

    async def new_match(
        self, request: CreateMatch, rematch_of: str | None = None, owner: str | None = None
    ) -> tuple[LiveMatch, dict[Player, str]]:
        """Check a match request and store the match it asks for; returns the match and the
        secret token of each person's seat the creator is handed. ``owner``: the address
        that asked, whose share of the agent workers its agents use."""
        # Refused before the game would read (or say anything about) a server's file.
        # Options are stored and sent with every state: a client may not inflate them.
        check_options_size(len(json.dumps(request.options).encode()), self.limits)
        # A set's name (set:<name>) is the only way a match reads data other than the
        # shipped: the operator installed it; the path stays inside the server.
        plain, sets = self.content.check(
            request.game, request.options, "a match request", ONLINE_CONTENT
        )
        paths = {k: str(v) for k, v in sets.items()}
        with self.content.naming(sets):
            game = make(request.game, **plain, **paths)  # OptionError: the CLI's own message
        # A seat may name a level (easy, medium, hard): it plays, and is stored as, that
        # level's agent spec, so the match replays the same whatever the levels become.
        # 'open' is a person's seat with no token handed out: the lobby's, for anyone.
        specs = [spec if is_open(spec) else seat_spec(game, spec) for spec in request.seats]
        if not request.listed and any(is_open(spec) for spec in specs):
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
            specs.append(HUMAN if not specs else default_agent(game))
        agents = [spec for spec in specs if not is_open(spec) and not parse_spec(spec).is_human]
        for spec in agents:
            self.limits.check_agent(spec)
            await self._check_agent(game, spec)
        persons = len(specs) - len(agents)
        if request.seed is not None and persons > 1:
            # Whoever chooses the seed can deal the match offline and read every hand.
            raise ServerError(
                "a chosen seed is allowed only in a match with one person (the others agents): "
                "with another person at the table, its chooser could work out their hidden "
                "cards; leave seed out and the server draws one"
            )
        # Only a request that passed every check starts what its agents need (a solve is a
        # process's half minute): a refused one costs the server nothing more.
        for spec in agents:
            self._prepare_agent(game, spec)
        seed = request.seed if request.seed is not None else draw_seed()
        tokens: dict[Player, str] = {}
        seats = []
        for seat, spec in enumerate(specs):
            anyone = is_open(spec)
            human = anyone or parse_spec(spec).is_human
            name = request.names[seat] if seat < len(request.names) and not anyone else None
            if human and not anyone:
                tokens[seat] = new_token()
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
            id=new_match_id(),
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
            content=game.options.content_digests(),
        )
        await asyncio.to_thread(self.store.create, stored)
        match = LiveMatch(
            stored=stored, game=game, state=game.new_game(seed), hidden=[], owner=owner
        )
        return match, tokens

    async def new_tutorial(
        self, game_name: str, name: str | None = None
    ) -> tuple[LiveMatch, dict[Player, str]]:
        """Store a game's tutorial: its fixed deal, the learner's seat for a person (its
        token returned, as :meth:`new_match`'s), the other seat played by the script."""
        try:
            lesson = load_tutorial(game_name)
        except TutorialError as exc:
            raise ServerError(
                f'{exc}; the games with one are listed by GET /api/games ("tutorial": true)',
                404,
                "no_tutorial",
            ) from None
        game = lesson.make_game()
        token = new_token()
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
            id=new_match_id(),
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
        return match, {lesson.learner: token}

    def answer(
        self, match: LiveMatch, tokens: dict[Player, str], base_url: str | None = None
    ) -> dict[str, Any]:
        """What a new match's creator is answered: its id and game, each person's seat with
        its token and join link (the token after ``#``: a browser never sends it to a
        server), the link to watch it, and what is noted about its options
        (:meth:`Game.configuration_notes`). ``base_url``: where the request reached the
        server (behind a proxy, the public address), else the address it listens on."""
        link = self.watch_url(match.id, base_url)
        return {
            "match": match.id,
            "game": match.game.name,
            "seats": [
                {
                    "seat": seat,
                    "seat_name": match.game.seat_name(seat),
                    "token": token,
                    "join_url": self.join_url(match.id, token, base_url),
                }
                for seat, token in tokens.items()
            ],
            "watch_url": link,
            # Taken and played, but perhaps not meant (an option the others make moot).
            "notes": match.game.configuration_notes(),
        }

    def watch_url(self, match_id: str, base_url: str | None = None) -> str:
        """A match's page under ``base_url`` (else the address the server listens on)."""
        return f"{self.base_url if base_url is None else base_url}/play/{match_id}"

    def join_url(self, match_id: str, token: str, base_url: str | None = None) -> str:
        """A seat's link: the match's page with the token after ``#``."""
        return f"{self.watch_url(match_id, base_url)}#token={token}"

    async def _check_agent(self, game: Game[Any, Any, Any], spec: str) -> None:
        """Refuse an agent spec this match cannot have (AgentSpecError names the agents and
        their parameters).

        An agent that reads or makes large data before its first move (Erd's agents that
        play the solved game: ``wait_to_make``) is checked by its name and parameters only;
        it is made in the workers, never in this process. Data it lacks (``unprepared``) is
        made for the shipped variants only unless the operator allows any
        (``--prepare-any-variant``): another variant is refused here.
        """
        _, made_by, parameters = agent_parameters(spec, game)
        # A factory with data to prepare also says which variants are shipped.
        factory: Any = made_by
        unprepared = getattr(factory, "unprepared", None)
        reason = unprepared(game) if unprepared is not None else None
        if reason is not None and not (self.limits.prepare_any_variant or factory.shipped(game)):
            raise ServerError(
                f"{reason}, and this server solves only the shipped rules versions: choose "
                "another level, or a rules version with its other options as they ship",
                400,
                "not_prepared",
            )
        if getattr(factory, "wait_to_make", None) is None:
            # Made once, off the event loop: every parameter value is checked as it is read.
            try:
                await asyncio.to_thread(factory, game, **parameters)
            except AgentSpecError:
                raise
            except MeepleError as exc:  # an agent this match cannot have (a board too large)
                raise AgentSpecError(str(exc)) from None
        elif (check := getattr(factory, "check_parameters", None)) is not None:
            # Not made here: its parameters' values are checked without it (a value refused
            # only as the agent is made would be refused at each of its moves instead).
            check(**parameters)

    def _prepare_agent(self, game: Game[Any, Any, Any], spec: str) -> None:
        """Start what a checked agent needs before its first move: data it lacks
        (``unprepared``) made in a process of its own, off the request path (its seat's first
        move waits for it), and its compiled code loaded."""
        name = parse_spec(spec).name
        unprepared = getattr(available_agents(game)[name], "unprepared", None)
        if unprepared is not None and unprepared(game) is not None:
            self.preparer.prepare(game, name)
        self.preparer.compile_agent(game, spec)

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
        # The stored times are UTC without a zone (store.db.utc_now); an age in seconds needs
        # no agreement between the server's clock and the browser's.
        now = utc_now()
        names = await asyncio.to_thread(
            lambda: {row.id: self.seat_names(row.game, row.options) for row in rows}
        )
        for row in rows:
            waiting = open_seats(row.seats)
            if (which == "open" and not waiting) or row.id in self.unlisted:
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
                    "seat_names": names[row.id],
                    "result": row.result,
                    "updated": row.updated.isoformat() if row.updated else None,
                    "idle_seconds": (
                        max(0, round((now - row.updated).total_seconds())) if row.updated else None
                    ),
                }
            )
        return out[:limit]

    def seat_names(self, game: str, options: dict[str, Any]) -> list[str] | None:
        """How the game with these options calls its seats (Edges' are Red and Blue, or A1
        to B2 in Double Edges); None if it can no longer be made (a content set removed
        since). The lobby asks every few seconds for each listed match: known ones are
        kept."""
        try:
            resolved = self.content.resolve(game, options)
        except MeepleError:
            return None
        names = _seat_names(game, json.dumps(resolved, sort_keys=True))
        return None if names is None else list(names)


@lru_cache(maxsize=256)
def _seat_names(game_name: str, options: str) -> tuple[str, ...] | None:
    """:meth:`Lobby.seat_names` for options as JSON text (a key the cache can hold)."""
    try:
        game = make(game_name, **json.loads(options))
    except MeepleError:
        return None
    return tuple(game.seat_names())


def rematch_request(
    stored: StoredMatch, here: set[Player], seat_names: list[str]
) -> tuple[CreateMatch, list[Player]]:
    """The request that makes a finished match's rematch: the same game, options, agents and
    names, seats turned one place round; and ``order``, new seat k played by old seat
    ``order[k]``. ``here``: the old seats whose person is connected, sent their new seat's
    token; in a listed match the seat of one who has gone is open for anyone, as it would
    be after a leave. ``seat_names``: the game's names of the seats (Red, Blue)."""
    n = len(stored.seats)
    order = [0] * n
    for old in range(n):
        order[rematch_seat(old, n)] = old

    def name(old: Player) -> str | None:
        # A person who joined without a name was given their seat's ("Blue"): carried round
        # to the other seat it would read "Red (Blue)", so they take the new seat's instead.
        given = stored.seats[old]["name"]
        # A name kept from before such names were refused is not carried into a new match.
        return None if given == seat_names[old] or reads_as_computer(given or "") else given

    def new_seat(old: Player) -> str:
        agent = stored.seats[old]["agent"]
        if agent is not None:
            return str(agent)
        return HUMAN if old in here or not stored.listed else OPEN

    request = CreateMatch(
        game=stored.game,
        options=stored.options,
        seats=[new_seat(old) for old in order],
        names=[name(old) for old in order],
        listed=stored.listed,
        move_seconds=stored.move_seconds,
    )
    return request, order


def rematch_seat(old: Player, seats: int) -> Player:
    """The seat of a match's rematch that the person of ``old`` plays: seats turn one place
    round (:func:`rematch_request`)."""
    return (old + 1) % seats


def check_options_size(size: int, limits: ServerLimits) -> None:
    """Refuse (413 ``too_large``) options that take ``size`` bytes as JSON, past the
    operator's ``--max-options-bytes``: a match's, or a rules or cards request's."""
    if size > limits.max_options_bytes:
        raise ServerError(
            f"options take {size:,} bytes as JSON; this server takes at "
            f"most {limits.max_options_bytes:,} (meeple serve --max-options-bytes)",
            413,
        )
