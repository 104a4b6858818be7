"""``meeple serve``: the game server, for playing online and in the browser."""

from __future__ import annotations

import errno
import ipaddress
import logging
import os
import socket
import sys
import threading
import webbrowser
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError

from meeple.core.errors import MeepleError
from meeple.interfaces.console import console, fail
from meeple.interfaces.web.limits import ServerLimits
from meeple.store import DEFAULT_MATCH_URL
from meeple.store.urls import hide_password, in_words

_LIMITS = ServerLimits()

# The limits in groups, as docs/security.md tables them: an operator reads three dozen options.
AGENTS = "Computer players (per match)"
PER_ADDRESS = "Per client address"
SIZES = "Sizes of requests and pages"
HINTS = "Hints and post-game reviews"
EXPIRY = "Unfinished matches"
WHOLE = "The whole server (every address together)"


def serve_command(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on", min=1, max=65535)] = 8000,
    db: Annotated[
        str,
        typer.Option(
            help="SQLAlchemy URL of the matches database, e.g. postgresql+psycopg://... "
            f"(default: {in_words(DEFAULT_MATCH_URL)})",
            show_default=False,
        ),
    ] = DEFAULT_MATCH_URL,
    content: Annotated[
        Path | None,
        typer.Option(
            help="a folder of designers' data to offer by name: <game>/<set>/ as `meeple "
            "content copy` writes it; a match asks for one as set:<set> (docs/security.md)",
        ),
    ] = None,
    agent_workers: Annotated[
        int | None,
        typer.Option(
            help="processes that run agents' moves (default: one per core; 0: threads)", min=0
        ),
    ] = None,
    open_browser: Annotated[
        bool, typer.Option("--open", help="open the lobby in a web browser once started")
    ] = False,
    max_agent_seconds: Annotated[
        float,
        typer.Option(
            help="most seconds= an agent of a new match may be given",
            min=0.001,
            rich_help_panel=AGENTS,
        ),
    ] = _LIMITS.max_agent_seconds,
    max_agent_iterations: Annotated[
        int,
        typer.Option(help="most iterations= an agent may be given", min=1, rich_help_panel=AGENTS),
    ] = _LIMITS.max_agent_iterations,
    max_agent_worlds: Annotated[
        int,
        typer.Option(
            help="most worlds= (min_worlds=, samples=) an agent may be given",
            min=1,
            rich_help_panel=AGENTS,
        ),
    ] = _LIMITS.max_agent_worlds,
    max_agent_nodes: Annotated[
        int,
        typer.Option(help="most nodes= a search tree may be given", min=1, rich_help_panel=AGENTS),
    ] = _LIMITS.max_agent_nodes,
    max_agent_depth: Annotated[
        int, typer.Option(help="most depth= a search may be given", min=1, rich_help_panel=AGENTS)
    ] = _LIMITS.max_agent_depth,
    max_agent_exact: Annotated[
        int,
        typer.Option(
            help="most exact= Edges' perfect agent may be given", min=0, rich_help_panel=AGENTS
        ),
    ] = _LIMITS.max_agent_exact,
    max_creates_per_minute: Annotated[
        int,
        typer.Option(
            help="new matches one address may make in any minute",
            min=1,
            rich_help_panel=PER_ADDRESS,
        ),
    ] = _LIMITS.max_creates_per_minute,
    max_replays_per_minute: Annotated[
        int,
        typer.Option(
            help="uploaded records one address may have checked a minute",
            min=1,
            rich_help_panel=PER_ADDRESS,
        ),
    ] = _LIMITS.max_replays_per_minute,
    max_boards_per_minute: Annotated[
        int,
        typer.Option(
            help="boards as text (the replay page's, one a step) one address may ask a minute",
            min=1,
            rich_help_panel=PER_ADDRESS,
        ),
    ] = _LIMITS.max_boards_per_minute,
    max_messages_per_minute: Annotated[
        int,
        typer.Option(
            help="WebSocket messages one address may send a minute (a connection counts one)",
            min=1,
            rich_help_panel=PER_ADDRESS,
        ),
    ] = _LIMITS.max_messages_per_minute,
    max_open_matches: Annotated[
        int,
        typer.Option(
            help="unfinished matches one address may have made at once",
            min=1,
            rich_help_panel=PER_ADDRESS,
        ),
    ] = _LIMITS.max_open_matches,
    ipv6_prefix: Annotated[
        int,
        typer.Option(
            help="count an IPv6 client by its network of this many bits, at most 128 (one "
            "home or host has a /64 of addresses)",
            # No max= here: its label, [32<=x<=128], would cut this panel's names at 80
            # columns; 128 is checked below.
            min=32,
            rich_help_panel=PER_ADDRESS,
        ),
    ] = _LIMITS.ipv6_prefix,
    max_unfinished_matches: Annotated[
        int,
        typer.Option(
            help="unfinished matches the server holds at once, each in memory",
            min=1,
            rich_help_panel=WHOLE,
        ),
    ] = _LIMITS.max_unfinished_matches,
    max_connections: Annotated[
        int,
        typer.Option(
            help="HTTP connections and WebSockets open at once; past it a request gets 503",
            min=16,
            rich_help_panel=WHOLE,
        ),
    ] = _LIMITS.max_connections,
    request_head_seconds: Annotated[
        float,
        typer.Option(
            help="close a connection whose request head has not arrived within this long",
            min=0.001,
            rich_help_panel=WHOLE,
        ),
    ] = _LIMITS.request_head_seconds,
    request_body_seconds: Annotated[
        float,
        typer.Option(
            help="close a connection whose request body has not arrived within this long of "
            "its head",
            min=0.001,
            rich_help_panel=WHOLE,
        ),
    ] = _LIMITS.request_body_seconds,
    max_sockets_per_client: Annotated[
        int,
        typer.Option(
            help="WebSockets one address may hold open at once", min=1, rich_help_panel=PER_ADDRESS
        ),
    ] = _LIMITS.max_sockets_per_client,
    max_sockets_per_match: Annotated[
        int,
        typer.Option(
            help="spectators' WebSockets one match may have open at once (its players' are "
            "never refused for them)",
            min=2,
            rich_help_panel=SIZES,
        ),
    ] = _LIMITS.max_sockets_per_match,
    max_hints_per_minute: Annotated[
        int,
        typer.Option(
            help="hints one address may ask for a minute", min=1, rich_help_panel=PER_ADDRESS
        ),
    ] = _LIMITS.max_hints_per_minute,
    max_hint_iterations: Annotated[
        int,
        typer.Option(help="most search iterations a hint is given", min=1, rich_help_panel=HINTS),
    ] = _LIMITS.max_hint_iterations,
    hint_seconds: Annotated[
        float,
        typer.Option(
            help="how long a hint may take before it is refused", min=0.001, rich_help_panel=HINTS
        ),
    ] = _LIMITS.hint_seconds,
    lobby_page_size: Annotated[
        int,
        typer.Option(
            help="the most matches one lobby listing returns",
            min=1,
            max=1000,
            rich_help_panel=SIZES,
        ),
    ] = _LIMITS.lobby_page_size,
    max_body_bytes: Annotated[
        int,
        typer.Option(
            help="the largest request body (an uploaded record: 2 MB)",
            min=1024,
            rich_help_panel=SIZES,
        ),
    ] = _LIMITS.max_body_bytes,
    max_options_bytes: Annotated[
        int,
        typer.Option(help="the largest options of a match, as JSON", min=64, rich_help_panel=SIZES),
    ] = _LIMITS.max_options_bytes,
    max_reviews: Annotated[
        int,
        typer.Option(
            help="post-game reviews computed at once, each in a process",
            min=1,
            rich_help_panel=HINTS,
        ),
    ] = _LIMITS.max_reviews,
    max_review_seconds: Annotated[
        float,
        typer.Option(
            help="stop a review past this many seconds and refuse it",
            min=0.001,
            rich_help_panel=HINTS,
        ),
    ] = _LIMITS.max_review_seconds,
    review_iterations: Annotated[
        int,
        typer.Option(
            help="search iterations a review gives each searched decision (0: the judge's "
            "own: 200 for the card games, 20,000 for Edges' uct)",
            min=0,
            max=100_000,
            rich_help_panel=HINTS,
        ),
    ] = _LIMITS.review_iterations,
    prepare_any_variant: Annotated[
        bool,
        typer.Option(
            "--prepare-any-variant",
            help="let matches ask for any Erd variant, solved on first use (default: only the "
            "shipped rules versions; a new one costs half a minute of CPU)",
            rich_help_panel=AGENTS,
        ),
    ] = _LIMITS.prepare_any_variant,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="behind a reverse proxy: the proxy's address, whose X-Forwarded-For names "
            "each client (for the per-address limits); trust no one else's"
        ),
    ] = None,
    agent_margin_seconds: Annotated[
        float,
        typer.Option(
            help="how much longer than its time budget an agent's move may take before its "
            "worker is stopped and the seat's move is made by the default agent",
            min=0.001,
            rich_help_panel=AGENTS,
        ),
    ] = _LIMITS.agent_margin_seconds,
    claim_seconds: Annotated[
        float,
        typer.Option(
            help="a person whose page has been closed for this many seconds while the match "
            "waits on them may be claimed from by another person of the match: the win with "
            "two seats, their seat for the computer with more; 0: never (for several "
            "processes serving one match without routing it to one)",
            min=0,
            rich_help_panel=EXPIRY,
        ),
    ] = _LIMITS.claim_seconds,
    expire_waiting_seconds: Annotated[
        float,
        typer.Option(
            help="close a match (result 'expired') whose people's seats nobody took within "
            "this many seconds of its creation or last join",
            min=0.001,
            rich_help_panel=EXPIRY,
        ),
    ] = _LIMITS.expire_waiting_seconds,
    expire_idle_seconds: Annotated[
        float,
        typer.Option(
            help="close an unfinished match (result 'expired') nobody has moved in or joined "
            "for this many seconds",
            min=0.001,
            rich_help_panel=EXPIRY,
        ),
    ] = _LIMITS.expire_idle_seconds,
) -> None:
    """Run the game server: a lobby and live matches, kept in a database.

    Example: meeple serve --port 8000 --db sqlite:///results/server.db
    """
    import uvicorn

    from meeple.interfaces.web.app import create_app
    from meeple.interfaces.web.connections import deadline_protocol
    from meeple.store.serving import lock_for_server

    if ipv6_prefix > 128:
        raise fail(f"--ipv6-prefix {ipv6_prefix}: an IPv6 address has 128 bits; give 32 to 128")
    if forwarded_allow_ips is not None:
        _check_proxies(forwarded_allow_ips)
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"
    try:
        limits = ServerLimits(
            max_agent_seconds=max_agent_seconds,
            max_agent_iterations=max_agent_iterations,
            max_agent_worlds=max_agent_worlds,
            max_agent_nodes=max_agent_nodes,
            max_agent_depth=max_agent_depth,
            max_agent_exact=max_agent_exact,
            agent_margin_seconds=agent_margin_seconds,
            max_creates_per_minute=max_creates_per_minute,
            max_open_matches=max_open_matches,
            ipv6_prefix=ipv6_prefix,
            max_unfinished_matches=max_unfinished_matches,
            max_connections=max_connections,
            request_head_seconds=request_head_seconds,
            request_body_seconds=request_body_seconds,
            max_replays_per_minute=max_replays_per_minute,
            max_boards_per_minute=max_boards_per_minute,
            max_messages_per_minute=max_messages_per_minute,
            max_sockets_per_client=max_sockets_per_client,
            max_sockets_per_match=max_sockets_per_match,
            max_hints_per_minute=max_hints_per_minute,
            max_hint_iterations=max_hint_iterations,
            hint_seconds=hint_seconds,
            lobby_page_size=lobby_page_size,
            max_body_bytes=max_body_bytes,
            max_options_bytes=max_options_bytes,
            max_reviews=max_reviews,
            max_review_seconds=max_review_seconds,
            review_iterations=review_iterations,
            prepare_any_variant=prepare_any_variant,
            claim_seconds=claim_seconds,
            expire_waiting_seconds=expire_waiting_seconds,
            expire_idle_seconds=expire_idle_seconds,
        )
    except ValidationError as exc:
        raise fail(_flag_problem(exc)) from None
    _check_free(host, port)
    try:
        _fit_open_files(limits.max_connections)
        app = create_app(
            db, agent_workers=agent_workers, base_url=url, limits=limits, content=content
        )
        # Held until the process ends: a second server on this SQLite file is refused.
        lock = lock_for_server(db)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    # soft_wrap: each is one line in a log file too (rich wraps at 80 columns off a terminal).
    console.print(
        f"meeple server on [bold]{url}[/] (matches in {hide_password(db)}); Ctrl-C stops it.",
        soft_wrap=True,
    )
    if not open_browser:
        console.print(
            f"Open {url} in a browser for the lobby: every game, to play or watch.",
            soft_wrap=True,
        )
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=1 << 16,
        # uvicorn's default, kept below the 60 s after which nginx closes a quiet
        # connection (proxy_read_timeout): an idle page's socket stays open behind it.
        ws_ping_interval=20.0,
        # Past this many connections (WebSockets included) a new request is answered 503,
        # before the process runs out of open files and stops accepting any.
        limit_concurrency=limits.max_connections,
        # uvicorn times no request's arrival: a client sending its head a byte at a time
        # would hold its connection for ever.
        http=deadline_protocol(limits),
        # An HTTP request still running past this is cancelled: SIGTERM stops the server
        # within seconds whatever it is doing.
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
        # Only a named proxy may say who the client is (uvicorn trusts 127.0.0.1 by
        # default, which would let anyone behind a local proxy share one address).
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips or "",
    )
    server = _make_server(config, app.state.hub)
    try:
        server.run()
    except OSError as exc:
        raise fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    finally:
        if lock is not None:
            lock.release()
    if not server.started:
        raise fail(f"the server did not start on {host}:{port} (the log above says why)")


def _flag_problem(exc: ValidationError) -> str:
    """A limit ServerLimits refuses (typer checks each flag's bounds first, so what is left
    is an infinite time, which would lift the limit it sets) as one line naming its flag."""
    error = exc.errors()[0]
    flag = "--" + str(error["loc"][0]).replace("_", "-")
    bounds = "give a number within its bounds (meeple serve --help)"
    return f"{flag} {error['input']}: {error['msg'].lower()}; {bounds}"


def _check_proxies(proxies: str) -> None:
    """Fail unless every comma-separated entry of ``--forwarded-allow-ips`` is an IP address
    or network. uvicorn keeps an entry it cannot read as a literal name that no client's
    address ever equals: a typo would leave every client counted as the proxy, one address
    sharing one share of the limits, with nothing said."""
    for entry in (part.strip() for part in proxies.split(",")):
        if entry == "*":
            raise fail(
                "--forwarded-allow-ips '*' would let any client name its own address and "
                "escape the per-address limits; give the proxy's address or network "
                "(127.0.0.1, 10.0.0.0/8)"
            )
        try:
            ipaddress.ip_network(entry)  # an address is a network of one
        except ValueError:
            raise fail(
                f"--forwarded-allow-ips: {entry!r} is not an IP address or network; give the "
                "proxy's, comma-separated (127.0.0.1, 10.0.0.0/8, ::1)"
            ) from None


OTHER_FILES = 256
"""Open files a server needs besides its connections: the database, the agent workers'
pipes, the static files being sent, the log."""


def _fit_open_files(connections: int) -> None:
    """Raise this process's limit on open files (``ulimit -n``, often 1,024) to fit
    ``connections`` and :data:`OTHER_FILES`, as far as the system's hard limit allows;
    MeepleError where it does not, so the operator lowers ``--max-connections`` or raises
    the limit rather than meet a server that stops accepting under load."""
    try:
        import resource
    except ImportError:  # not on this system (Windows): nothing to fit
        return
    need = connections + OTHER_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= need:
        return
    if hard != resource.RLIM_INFINITY and hard < need:
        raise MeepleError(
            f"--max-connections {connections} needs about {need} open files, and this "
            f"system lets the server open {hard} at most (ulimit -Hn); give "
            f"--max-connections {max(16, hard - OTHER_FILES)} or less, or raise the limit"
        )
    resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))


SHUTDOWN_SECONDS = 2
"""How long a stopping server waits for HTTP requests still running."""


def _make_server(config: Any, hub: Any) -> Any:
    """uvicorn's server, which stops ``hub`` first when told to stop (SIGTERM, Ctrl-C): its
    agents and clocks, and every WebSocket closed with 1001 (going away). Left to itself
    uvicorn would wait for the sockets' handlers, then close them with 1012 (restart)."""
    import uvicorn

    class _Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            await hub.stop(wait=1.0)
            await super().shutdown(sockets)

    return _Server(config)


def serve_lobby(host: str = "127.0.0.1", port: int = 8000) -> None:
    """The launcher's browser choice: the server on this machine, on ``port`` or the next
    free one, with its lobby opened in a browser where this machine has one to show (its
    address is printed either way)."""
    for candidate in range(port, port + 20):
        if _bind_problem(host, candidate) is None:
            serve_command(host=host, port=candidate, open_browser=_has_browser())
            return
    raise fail(f"ports {port} to {port + 19} are all in use; start meeple serve --port N")


def _has_browser() -> bool:
    """True where a browser can show a page: a desktop session, macOS or Windows."""
    if sys.platform in ("darwin", "win32"):
        return True
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False  # a server or a container: print the address only
    try:
        webbrowser.get()
    except webbrowser.Error:
        return False
    return True


def _check_free(host: str, port: int) -> None:
    """Fail with a clear message if ``host:port`` cannot be listened on (uvicorn would
    only log it after the server had started)."""
    problem = _bind_problem(host, port)
    if problem is not None:
        raise fail(problem)


def _bind_problem(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on, or None if it can."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        return f"cannot listen on {host!r}: {exc.strerror}"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            return f"cannot listen on {host}:{port}: {exc.strerror}; {_remedy(exc)}"
    return None


def _remedy(exc: OSError) -> str:
    """What to change when a bind fails: the port, the address, or the privilege."""
    if exc.errno == errno.EADDRNOTAVAIL:
        return (
            "--host takes an address of this machine (127.0.0.1: this machine only; "
            "0.0.0.0: every network)"
        )
    if exc.errno == errno.EACCES:
        return "ports below 1024 need privileges; choose one from 1024 up with --port"
    return "choose another with --port"
