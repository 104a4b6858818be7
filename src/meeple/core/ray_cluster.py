"""Connecting to Ray, for everything meeple runs on it (the lab's ``--backend ray``, a proof's
leaves): one way to start or join a cluster, and one set of one-line errors when that fails.

Ray itself answers a malformed ``--address`` with a traceback, and an address where nothing
listens by retrying for ever while it logs warnings. So an address is read and its port
tried here first (a few seconds at most), and what Ray raises is said in one line.
"""

from __future__ import annotations

import socket
from typing import Any

from meeple.core.errors import MeepleError

INSTALL = "the ray backend needs Ray: pip install 'meeple[distributed]'"

ADDRESSES = "HOST:PORT (what `ray start --head` prints), ray://HOST:PORT or auto"

PROBE_SECONDS = 5.0
"""How long the cluster's port may take to accept a connection before it counts as
unreachable."""


class RayUnavailable(MeepleError):
    """Ray is not installed, or the cluster asked for cannot be reached."""


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


def _reachable(address: str) -> None:
    """Fail in one line, within :data:`PROBE_SECONDS`, where nothing listens at ``address``."""
    target = host_port(address)
    if target is None:
        return
    try:
        with socket.create_connection(target, timeout=PROBE_SECONDS):
            pass
    except OSError as exc:
        why = exc.strerror or str(exc) or type(exc).__name__
        raise RayUnavailable(
            f"cannot reach the Ray cluster at {address}: {why}; start one there with "
            "`ray start --head`, or give the address it printed"
        ) from None


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
            ray.init(address=address, log_to_driver=False)
        else:
            # "local": a new instance of its own, also where `ray start` left one running
            # on this machine (which a bare ray.init would join, refusing num_cpus).
            ray.init(address="local", num_cpus=max(1, num_cpus), include_dashboard=False,
                     log_to_driver=False)  # fmt: skip
    except (ConnectionError, ValueError) as exc:
        # No cluster for "auto", or one Ray refuses to join (its token, its version).
        where = f"the Ray cluster at {address}" if address else "Ray"
        raise RayUnavailable(f"cannot reach {where}: {exc}") from None
    return ray, True
