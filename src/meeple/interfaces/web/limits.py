"""What one server lets its clients ask of it: the operator's limits, set on ``meeple serve``.

A client names the agents of the matches it creates, with their budgets
(``mcts:seconds=86400``). The agents of every match share the server's worker processes,
so one agent spec with a day's budget would stop every other match's agents. Each budget
parameter an agent takes is capped here; a spec over a cap is refused when the match is
created, naming the cap and the flag that sets it. The built-in levels stay within the
default caps (tested), so the lobby's computer players are always accepted.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from meeple.core.review import HINT_ITERATIONS

BUDGETS: dict[str, str] = {
    "seconds": "max_agent_seconds",
    "iterations": "max_agent_iterations",
    "worlds": "max_agent_worlds",
    "min_worlds": "max_agent_worlds",
    "samples": "max_agent_worlds",
    "nodes": "max_agent_nodes",
    "depth": "max_agent_depth",
    "exact": "max_agent_exact",
}
"""Each agent parameter that sets how much an agent may think (grep the agents' factories
for their budget parameters), and the limit that caps it."""

FILE_PARAMETERS = frozenset({"cache_dir", "solution"})
"""Agent parameters that name files or folders on the server's disk (Erd's solved-game
agents): a client may not point the server at its files, as with a game's file options."""


LONGEST_SECONDS = 365 * 86_400
"""The longest time a limit may name: a year. No limit a server needs is longer, and the
system's clocks stop short of far longer finite times: the expiry sweep counts a date back
(no earlier than the year 1), a wait is counted in nanoseconds, a poll in milliseconds."""

Seconds = Annotated[float, Field(le=LONGEST_SECONDS)]
"""A limit's time in seconds: finite (the model's ``allow_inf_nan``) and at most a year."""


AGENTS = "Computer players (per match)"
PER_ADDRESS = "Per client address"
WHOLE = "The whole server (every address together)"
SIZES = "Sizes of requests and pages"
HINTS = "Hints and post-game reviews"
EXPIRY = "Unfinished matches"

GROUPS: dict[str, tuple[str, ...]] = {
    AGENTS: (
        "max_agent_seconds",
        "max_agent_iterations",
        "max_agent_worlds",
        "max_agent_nodes",
        "max_agent_depth",
        "max_agent_exact",
        "prepare_any_variant",
        "agent_margin_seconds",
    ),
    PER_ADDRESS: (
        "max_requests_per_minute",
        "max_creates_per_minute",
        "max_replays_per_minute",
        "max_boards_per_minute",
        "max_messages_per_minute",
        "max_open_matches",
        "ipv6_prefix",
        "max_sockets_per_client",
        "max_hints_per_minute",
    ),
    WHOLE: (
        "max_unfinished_matches",
        "max_connections",
        "request_head_seconds",
        "request_body_seconds",
        "unread_answer_seconds",
    ),
    SIZES: ("max_sockets_per_match", "lobby_page_size", "max_body_bytes", "max_options_bytes"),
    HINTS: (
        "max_hint_iterations",
        "hint_seconds",
        "max_reviews",
        "max_review_seconds",
        "review_iterations",
    ),
    EXPIRY: (
        "claim_seconds",
        "expire_waiting_seconds",
        "expire_idle_seconds",
        "max_match_moves",
        "delete_ended_seconds",
    ),
}
"""The limits in groups, as docs/security.md tables them, each group a part of ``meeple serve
--help``: an operator reads three dozen flags."""


class ServerLimits(BaseModel):
    """The operator's limits. Every field is a ``meeple serve`` flag (``max_agent_seconds``:
    ``--max-agent-seconds``) made from the field alone: its description is the flag's help,
    its default and lower bound the flag's, and :data:`GROUPS` the part of the help it is
    listed in; an upper bound is the description's to say, but a time's (:data:`Seconds`),
    which ``meeple serve --help`` says once for all of them."""

    # An infinite limit is no limit: "inf" parses as a float, and would pass every bound.
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    max_agent_seconds: Seconds = Field(
        default=5.0,
        ge=0.001,
        description="most seconds= an agent of a new match may be given: its time per move",
    )
    max_agent_iterations: int = Field(
        default=100_000, ge=1, description="most iterations= a search may be given per move"
    )
    max_agent_worlds: int = Field(
        default=1_000,
        ge=1,
        description="most worlds= (min_worlds=, samples=) an agent may be given: sampled "
        "worlds per move",
    )
    max_agent_nodes: int = Field(
        default=1_000_000, ge=1, description="most nodes= a search tree may be given: its memory"
    )
    max_agent_depth: int = Field(
        default=4, ge=1, description="most depth= a search may be given: its plies"
    )
    max_agent_exact: int = Field(
        default=12,
        ge=0,
        description="most exact= Edges' perfect agent may be given: the pieces left when it "
        "starts to solve",
    )

    max_creates_per_minute: int = Field(
        default=10,
        ge=1,
        description="new matches (and rematches) one address may make in any minute",
    )
    max_open_matches: int = Field(
        default=10, ge=1, description="unfinished matches one address may have made at once"
    )
    ipv6_prefix: int = Field(
        default=64,
        ge=32,
        le=128,
        description="count an IPv6 client by its network of this many leading bits, at most "
        "128 (one home or host is handed a /64, a crowd if counted address by address)",
    )
    max_unfinished_matches: int = Field(
        default=1_000,
        ge=1,
        description="unfinished matches the server holds at once, every address together "
        "(each is kept in memory)",
    )
    max_connections: int = Field(
        default=1_000,
        ge=16,
        description="HTTP connections and WebSockets open at once, every address together "
        "(each holds an open file); past it a request gets 503",
    )
    request_head_seconds: Seconds = Field(
        default=10.0,
        ge=0.001,
        description="close a connection whose request head (its line and headers) has not "
        "arrived within this long of the connection's opening, or of its first byte",
    )
    request_body_seconds: Seconds = Field(
        default=60.0,
        ge=0.001,
        description="close a connection whose request body has not arrived within this long "
        "of its head",
    )
    unread_answer_seconds: Seconds = Field(
        default=60.0,
        ge=0.001,
        description="close a connection whose client has read none of its answer for this "
        "long, the server's buffers for it full (an answer waiting holds its connection and "
        "its memory)",
    )
    max_sockets_per_client: int = Field(
        default=20, ge=1, description="WebSockets one address may hold open at once"
    )
    max_sockets_per_match: int = Field(
        default=64,
        ge=2,
        description="spectators' WebSockets one match may have open at once (its players' are "
        "never refused for them: at most 8 a seat)",
    )
    max_messages_per_minute: int = Field(
        default=600,
        ge=1,
        description="WebSocket messages one address may send a minute, over all its sockets "
        "(a new connection counts as one)",
    )
    max_replays_per_minute: int = Field(
        default=20, ge=1, description="uploaded records one address may have checked a minute"
    )
    max_requests_per_minute: int = Field(
        default=1200,
        ge=1,
        description="REST requests one address may make a minute, every /api/ request (a "
        "lobby polls three every four seconds; WebSocket messages are counted apart)",
    )
    max_boards_per_minute: int = Field(
        default=120,
        ge=1,
        description="boards as text one address may ask of a record a minute (the replay "
        "page's Board as text, one a step: the record replayed and its board drawn)",
    )
    lobby_page_size: int = Field(
        default=50,
        ge=1,
        le=1000,
        description="the most matches one lobby listing returns, at most 1,000",
    )
    max_body_bytes: int = Field(
        default=65_536,
        ge=1024,
        description="the largest request body but an uploaded record (which may be 2 MB)",
    )
    max_options_bytes: int = Field(
        default=1_024, ge=64, description="the largest options of a match, written as JSON"
    )

    max_hints_per_minute: int = Field(
        default=6, ge=1, description="hints one address may ask for a minute (a search each)"
    )
    max_hint_iterations: int = Field(
        default=HINT_ITERATIONS,
        ge=1,
        description="most search iterations a hint is given (the judge's own default where lower)",
    )
    hint_seconds: Seconds = Field(
        default=30.0,
        ge=0.001,
        description="how long a hint may take (starting its worker, replaying the match, the "
        "search) before its worker is stopped and the hint refused",
    )
    max_reviews: int = Field(
        default=2, ge=1, description="post-game reviews computed at once, each in a process"
    )
    max_review_seconds: Seconds = Field(
        default=300.0, ge=0.001, description="stop a review past this many seconds and refuse it"
    )
    review_iterations: int = Field(
        default=0,
        ge=0,
        le=100_000,
        description="search iterations a review gives each searched decision, at most 100,000 "
        "(0: the judge's own: 200 for the card games, 20,000 for Edges' uct)",
    )

    prepare_any_variant: bool = Field(
        default=False,
        description="let matches ask for any Erd variant, solved on first use (default: only "
        "the shipped rules versions; a new one costs half a minute of CPU and tens of MB on "
        "disk)",
    )

    agent_margin_seconds: Seconds = Field(
        default=30.0,
        ge=0.001,
        description="how much longer than its time budget (seconds=, else the time cap) an "
        "agent's move may take (starting its worker, replaying the match) before its worker "
        "is stopped and the seat's move is made by the default agent",
    )

    claim_seconds: Seconds = Field(
        default=120.0,
        ge=0,
        description="a person whose page has been closed for this many seconds while the "
        "match waits on them may be claimed from by another person of the match: the win "
        "with two seats, their seat for the computer with more; 0: never (for several "
        "processes serving one match without routing it to one, each of which sees only its "
        "own connections)",
    )

    expire_waiting_seconds: Seconds = Field(
        default=3600.0,
        ge=0.001,
        description="close a match (result 'expired') whose people's seats nobody took within "
        "this many seconds of its creation or last join",
    )
    expire_idle_seconds: Seconds = Field(
        default=86400.0,
        ge=0.001,
        description="close an unfinished match (result 'expired') nobody has moved in or "
        "joined for this many seconds",
    )

    max_match_moves: int = Field(
        default=5_000,
        ge=1,
        description="end a match as a draw at this many moves, and refuse an uploaded record "
        "of more: a game's options can make a match run for millions, and each move of a "
        "computer player replays it",
    )

    delete_ended_seconds: Seconds = Field(
        default=0.0,
        ge=0,
        description="delete a finished match (its moves, record and replay link) this many "
        "seconds after it ended, and a review computed as long ago, so that the database "
        "holds that long of play; 0: keep everything",
    )

    @property
    def sweep_seconds(self) -> float:
        """How often the server looks for matches to close: every minute, or more often
        where an expiry is shorter, so a match is closed at most a quarter late."""
        return min(60.0, self.expire_waiting_seconds / 4, self.expire_idle_seconds / 4)

    def allowance(self, spec: str) -> float:
        """How long an agent's decision may take before its worker is stopped: its own
        time budget (``seconds=``) or, without one, the time cap, and the margin."""
        from meeple.agents import parse_spec

        seconds = _number(parse_spec(spec).params.get("seconds", ""))
        budget = self.max_agent_seconds if seconds is None or seconds <= 0 else seconds
        return min(budget, self.max_agent_seconds) + self.agent_margin_seconds

    def check_agent(self, spec: str) -> None:
        """Refuse (ServerError 400) an agent spec with a budget over a cap, or a parameter
        naming a file on the server; a value that is no number is left for the agent's own
        check, which says what it takes."""
        # Imported here: `meeple serve` reads the defaults before it loads the server.
        from meeple.agents import parse_spec
        from meeple.interfaces.web.live import ServerError

        params = parse_spec(spec).params
        files = sorted(FILE_PARAMETERS & set(params))
        if files:
            raise ServerError(
                f"agent {spec!r}: {', '.join(files)} names files on the server; online "
                "agents use the server's own"
            )
        for key, value in params.items():
            limit = BUDGETS.get(key)
            if limit is None:
                continue
            number = _number(value)
            cap = getattr(self, limit)
            if number is not None and number > cap:
                shown = f"{cap:,}" if isinstance(cap, int) else f"{cap:g}"
                raise ServerError(
                    f"agent {spec!r}: {key}={value} is over this server's limit of {shown} "
                    f"(meeple serve --{limit.replace('_', '-')}); ask for {shown} or less"
                )


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None
