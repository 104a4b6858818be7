"""Connecting to Ray, for everything meeple runs on it (the lab's ``--backend ray``, a proof's
leaves): one way to start or join a cluster, and one set of one-line errors when that fails.

Ray itself answers a malformed ``--address`` with a traceback, an address where nothing
listens by retrying for ever while it logs warnings, and a port where something else
answers (the dashboard's, a web server's) by retrying for a quarter of an hour. So an
address is read and its port tried here first (a few seconds at most), the connection is
given :data:`CONNECT_SECONDS`, and what Ray raises is said in one line; so is Ray losing
work mid-run (:func:`lost_work`), also where the cluster itself goes away, which Ray does not
raise (:class:`ClusterWatch`).
"""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

from meeple.core.errors import MeepleError

INSTALL = "the ray backend needs Ray: pip install 'meeple[distributed]'"

ADDRESSES = "HOST:PORT (what `ray start --head` prints), ray://HOST:PORT or auto"

PROBE_SECONDS = 5.0
"""How long the cluster's port may take to accept a connection before it counts as
unreachable."""


CONNECT_SECONDS = 30.0
"""How long joining a cluster whose port accepts connections may take before the address
counts as not a Ray cluster's. Ray's own attempts run their course first (up to 40 s each
where the port does not speak Ray's protocol), so the refusal comes within about 40 s."""

TOKEN_HINT = (
    "set RAY_AUTH_MODE=token, with the cluster's token in ~/.ray/auth_token, in the file "
    "RAY_AUTH_TOKEN_PATH names or in RAY_AUTH_TOKEN (on the head machine, --address auto "
    "finds it)"
)


LOST_SECONDS = 5.0
"""How long the cluster's head (its GCS) or this process's Ray node may go without answering
while work waits before the cluster counts as gone (:class:`ClusterWatch`)."""

POLL_SECONDS = 1.0
"""How long :class:`ClusterWatch` waits for work before it looks whether the cluster
answers."""


class RayUnavailable(MeepleError):
    """Ray is not installed, the cluster asked for cannot be reached, or it lost the work
    handed to it."""


class _Gone(Exception):
    """The cluster stopped answering while work waited on it (:class:`ClusterWatch`); said in
    one line by :func:`lost_work`."""


class _TooLong(BaseException):
    """Joining took past :data:`CONNECT_SECONDS`. A BaseException: Ray's retries catch every
    Exception, and would go on."""


def ray_module() -> Any:
    """Ray, or a :class:`RayUnavailable` that says how to install it."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable(INSTALL) from None
    return ray


def host_port(address: str) -> tuple[str, int] | None:
    """The host and port a ``--address`` names (``HOST:PORT`` or ``ray://HOST:PORT``; an
    IPv6 host in brackets); None for ``auto`` and ``local``, which Ray resolves itself.
    :class:`RayUnavailable` for anything else."""
    if address in ("auto", "local"):
        return None
    bare = address.removeprefix("ray://")
    host, _, port = bare.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise RayUnavailable(f"--address takes {ADDRESSES}, not {address!r}")
    return host, int(port)


def _unanswered(target: tuple[str, int], seconds: float) -> str | None:
    """Why nothing accepts a connection at ``target`` within ``seconds``; None where
    something does."""
    try:
        with socket.create_connection(target, timeout=seconds):
            return None
    except OSError as exc:
        return exc.strerror or str(exc) or type(exc).__name__


def _reachable(address: str) -> None:
    """Fail in one line, within :data:`PROBE_SECONDS`, where nothing listens at ``address``."""
    target = host_port(address)
    if target is None:
        return
    why = _unanswered(target, PROBE_SECONDS)
    if why is not None:
        raise RayUnavailable(
            f"cannot reach the Ray cluster at {address}: {why}; start one there with "
            "`ray start --head`, or give the address it printed"
        ) from None


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`_TooLong` in the block once ``seconds`` have passed (by SIGALRM: Ray
    waits in its compiled code, which only a signal's handler leaves; so only in the main
    thread of a system that has it, elsewhere without a limit)."""
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return

    def too_long(_signum: int, _frame: Any) -> None:
        raise _TooLong

    before = signal.signal(signal.SIGALRM, too_long)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def _wants_token(exc: BaseException) -> bool:
    """Whether Ray's error, or one it was raised from, is the cluster refusing a connection
    without its token."""
    seen: BaseException | None = exc
    while seen is not None:
        if "InvalidAuthToken" in str(seen) or "Unauthenticated" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def connect(address: str | None, num_cpus: int) -> tuple[Any, bool]:
    """Ray, connected: to the cluster at ``address``, else to a new local instance of
    ``num_cpus`` CPUs started here; and whether this call started the connection (its
    caller then shuts it down). A process already connected keeps its connection."""
    ray = ray_module()
    if ray.is_initialized():
        return ray, False
    try:
        if address:
            _reachable(address)
            with _time_limit(CONNECT_SECONDS):
                ray.init(address=address, log_to_driver=False)
        else:
            # "local": a new instance of its own, also where `ray start` left one running
            # on this machine (which a bare ray.init would join, refusing num_cpus).
            ray.init(address="local", num_cpus=max(1, num_cpus), include_dashboard=False,
                     log_to_driver=False)  # fmt: skip
    except _TooLong:
        with contextlib.suppress(Exception):
            ray.shutdown()  # whatever of the connection Ray had set up
        raise RayUnavailable(
            f"no Ray cluster answered at {address} within {CONNECT_SECONDS:g} s, though its "
            "port is open: give the address `ray start --head` printed (its GCS port, 6379 "
            "unless --port said otherwise), not the dashboard's"
        ) from None
    except (ConnectionError, ValueError) as exc:
        # No cluster for "auto", or one Ray refuses to join (its token, its version).
        if address and _wants_token(exc):
            # Ray sends its token only where asked to: to "auto", or with RAY_AUTH_MODE=token.
            raise RayUnavailable(
                f"the Ray cluster at {address} refused this command: it asks for its token; "
                + TOKEN_HINT
            ) from None
        where = f"the Ray cluster at {address}" if address else "Ray"
        raise RayUnavailable(f"cannot reach {where}: {exc}") from None
    return ray, True


@contextlib.contextmanager
def held(address: str | None, num_cpus: int) -> Iterator[None]:
    """Ray connected for the length of the block (:func:`connect`): every connect within it
    keeps this connection, so a command of several runs starts a local instance once, not
    once a run (a few seconds each); shut down after it where this started it."""
    ray, started_here = connect(address, num_cpus)
    try:
        yield
    finally:
        if started_here:
            ray.shutdown()


@contextlib.contextmanager
def lost_work(what: str, resume: str) -> Iterator[None]:
    """Ray losing ``what`` was handed to it for good (a worker that died on each of Ray's
    retries, a node or the whole cluster gone) said in one line that ends with ``resume``,
    where Ray would raise a traceback. An error of the work's own code (Ray's RayTaskError,
    which is also an instance of that error's class) passes as it is."""
    ray = ray_module()
    try:
        yield
    except ray.exceptions.RayTaskError:
        raise
    except (ray.exceptions.RayError, _Gone) as exc:
        why = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise RayUnavailable(f"Ray lost {what}: {why} {resume}") from None


class ClusterWatch:
    """Waits on a run's work on Ray, and notices the cluster going away, which Ray does not
    raise: it waits a minute for a head that is gone (``ray stop``, its machine lost), then
    ends the process with a log line of its own, and for ever on a node of this machine that
    is gone (its raylet killed), whose work never starts again. One for a run: the silence
    counts across its waits, however many ends of work (a worker's death) come between."""

    def __init__(self) -> None:
        self.silent_since: float | None = None

    def wait_first(self, refs: list[Any], timeout: float | None = None) -> list[Any]:
        """``ray.wait`` for the first of ``refs`` to finish: a list of it, or an empty list
        where ``timeout`` seconds passed first; :class:`_Gone` (said in one line by
        :func:`lost_work`) where the cluster's head or this machine's node has not answered
        for :data:`LOST_SECONDS`."""
        ray = ray_module()
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            step = POLL_SECONDS if left is None else min(POLL_SECONDS, left)
            done, _ = ray.wait(refs, num_returns=1, timeout=step)
            if done or (left is not None and left <= step):
                return list(done)
            silent = _not_answering(ray)
            if silent is None:
                self.silent_since = None
                continue
            now = time.monotonic()
            self.silent_since = self.silent_since or now
            if now - self.silent_since >= LOST_SECONDS:
                what, why = silent
                raise _Gone(f"{what} has not answered for {LOST_SECONDS:g} s ({why}).")


def _not_answering(ray: Any) -> tuple[str, str] | None:
    """What of the cluster this process is connected to does not answer (its head, or this
    machine's node), and why; None where both answer. Nothing is asked through Ray's client
    (``ray://``), whose cluster may be reachable only through it, nor of the node while the
    head is silent (Ray's own calls would wait on it)."""
    from ray.util.client import ray as client

    if client.is_connected():
        return None
    context = ray.get_runtime_context()
    head = host_port(context.gcs_address)
    if head is not None and (why := _unanswered(head, POLL_SECONDS)) is not None:
        return f"the cluster's head at {context.gcs_address}", why
    mine = context.get_node_id()
    for node in ray.nodes():
        if node["NodeID"] == mine:
            where = (node["NodeManagerAddress"], int(node["NodeManagerPort"]))
            if not node["Alive"]:
                return "this machine's Ray node", "Ray marked it dead"
            if (why := _unanswered(where, POLL_SECONDS)) is not None:
                return "this machine's Ray node", why
    return None
