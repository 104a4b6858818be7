"""``meeple serve``: the game server, for playing online and in the browser."""

from __future__ import annotations

import errno
import inspect
import ipaddress
import logging
import os
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from pydantic.fields import FieldInfo

from meeple.core.errors import MeepleError
from meeple.interfaces.console import console, fail
from meeple.interfaces.web.limits import GROUPS, ServerLimits
from meeple.store import DEFAULT_MATCH_URL
from meeple.store.urls import hide_password, in_words


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
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="behind a reverse proxy: the proxy's address, whose X-Forwarded-For names "
            "each client (for the per-address limits); trust no one else's"
        ),
    ] = None,
    **serve_limits: Any,
) -> None:
    """Run the game server: a lobby and live matches, kept in a database.

    A limit's time (a flag ending in -seconds) is at most a year: 31,536,000.

    Example: meeple serve --port 8000 --db sqlite:///results/server.db
    """
    # serve_limits: a flag for each field of ServerLimits (_with_limit_flags, below).
    import uvicorn

    from meeple.interfaces.web.app import create_app
    from meeple.interfaces.web.connections import deadline_protocol
    from meeple.store.serving import lock_for_server

    if forwarded_allow_ips is not None:
        _check_proxies(forwarded_allow_ips)
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"
    try:
        limits = ServerLimits(**serve_limits)
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
    if open_browser and not _has_browser():
        # webbrowser.open says nothing where it finds no browser (a server, a container).
        console.print("--open: no browser to open here (no desktop session).", soft_wrap=True)
        open_browser = False
    if not open_browser:
        console.print(
            f"Open {url} in a browser for the lobby: every game, to play or watch.",
            soft_wrap=True,
        )
    shared = network_words(host, port)
    if shared:
        console.print(shared, soft_wrap=True)
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
        http=deadline_protocol(limits, app.state.quotas),
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


def _limit_flag(name: str, field: FieldInfo, group: str) -> inspect.Parameter:
    """The ``meeple serve`` flag of one field of ServerLimits: the field's description as its
    help, its default and its lower bound (labelled as click labels a range, ``<int>
    [x>=1]``), in ``group``'s part of the help. The bounds are ServerLimits' to check
    (:func:`_flag_problem` names the flag), so a value below, above or not finite is one
    ``error:`` line alike (click's own check of a lower bound was a boxed usage panel, and
    took ``nan`` for a number below it); an upper bound is not labelled: a label such as
    ``[32<=x<=128]`` would cut its group's flag names at 80 columns."""
    lower = [rule.ge for rule in field.metadata if hasattr(rule, "ge")]  # pydantic's ge=
    # A switch that is off unless given is one flag, with no --no- twin.
    names = (f"--{name.replace('_', '-')}",) if field.annotation is bool else ()
    kind = getattr(field.annotation, "__name__", "")
    label = f"<{kind}> [x>={lower[0]}]" if lower else None
    option = typer.Option(*names, help=field.description, rich_help_panel=group, metavar=label)
    return inspect.Parameter(
        name,
        inspect.Parameter.KEYWORD_ONLY,
        default=field.default,
        annotation=Annotated[field.annotation, option],
    )


def _with_limit_flags(command: Callable[..., None]) -> None:
    """Give ``command`` (its ``**serve_limits``) a flag for every field of ServerLimits, in
    the order of :data:`GROUPS`, for Typer, which reads a command's flags from its signature."""
    fields = ServerLimits.model_fields
    grouped = [name for names in GROUPS.values() for name in names]
    if sorted(grouped) != sorted(fields):
        raise RuntimeError(f"GROUPS must name each field of ServerLimits once: {grouped}")
    signature = inspect.signature(command, eval_str=True)
    own = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    flags = [
        _limit_flag(name, fields[name], group) for group, names in GROUPS.items() for name in names
    ]
    command.__signature__ = signature.replace(parameters=[*own, *flags])  # type: ignore[attr-defined]


_with_limit_flags(serve_command)


def _flag_problem(exc: ValidationError) -> str:
    """A limit ServerLimits refuses (below or above its bounds, or not finite: an infinite
    time would lift the limit it sets) as one line naming its flag."""
    error = exc.errors()[0]
    flag = "--" + str(error["loc"][0]).replace("_", "-")
    bounds = "give a number within its bounds (meeple serve --help)"
    words = {"less_than_equal": ("le", "at most"), "greater_than_equal": ("ge", "at least")}
    if error["type"] in words:
        key, said = words[error["type"]]
        bound = error["ctx"][key]
        if bound == int(bound):  # a time's is a float: 31,536,000, not 31,536,000.0
            bound = int(bound)
        return f"{flag} {error['input']}: {said} {bound:,}; {bounds}"
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
            if (network := _loose_network(entry)) is not None:
                raise fail(
                    f"--forwarded-allow-ips: {entry!r} is a network with host bits set; give "
                    f"the network itself, {network}, or the one address, {entry.split('/')[0]}"
                ) from None
            raise fail(
                f"--forwarded-allow-ips: {entry!r} is not an IP address or network; give the "
                "proxy's, comma-separated (127.0.0.1, 10.0.0.0/8, ::1)"
            ) from None


def _loose_network(entry: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    """The network ``entry`` names with its host bits cleared (``10.0.0.1/8``: 10.0.0.0/8),
    or None where it names none."""
    try:
        return ipaddress.ip_network(entry, strict=False)
    except ValueError:
        return None


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


def network_words(host: str, port: int) -> str | None:
    """Where people on other machines open a server listening on every address (``host``
    0.0.0.0 or ::): this machine's address on its network, or words for it where it has
    none to tell; None for a server on one address (the lobby's link says it)."""
    if host not in ("0.0.0.0", "::"):
        return None
    where = f"http://{address}:{port}" if (address := _network_address()) else None
    return (
        f"Listening on every address of this machine: people on its network open "
        f"{where or f'its address, port {port}'}; before letting in people you do not "
        "know, read meeple's security notes (docs/security.md)."
    )


def _network_address() -> str | None:
    """The address this machine reaches other networks from, or None (no network). A UDP
    socket connected to a documentation address (TEST-NET-1) sends nothing."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


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
