"""Connecting to Ray (``meeple.core.ray_cluster``): every way it fails is one line that
says what was wrong and what is allowed, within seconds, never a traceback or a wait
without end."""

from __future__ import annotations

import socket
import sys
import time

import pytest

from meeple.core.ray_cluster import ADDRESSES, INSTALL, RayUnavailable, connect, host_port


@pytest.mark.parametrize(
    ("address", "target"),
    [
        ("auto", None),
        ("local", None),
        ("10.0.0.5:6379", ("10.0.0.5", 6379)),
        ("head.example:6379", ("head.example", 6379)),
        ("ray://head.example:10001", ("head.example", 10001)),
        ("[::1]:6379", ("::1", 6379)),
    ],
)
def test_an_address_is_read_as_ray_reads_it(address, target):
    assert host_port(address) == target


@pytest.mark.parametrize("address", ["nonsense", "head:", ":6379", "head:port", "head:70000"])
def test_a_malformed_address_is_refused_in_one_line(address):
    with pytest.raises(RayUnavailable) as refused:
        host_port(address)
    assert str(refused.value) == f"--address takes {ADDRESSES}, not {address!r}"


def _closed_port() -> int:
    """A port of this machine where nothing listens (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_address_where_no_cluster_listens_fails_at_once():
    pytest.importorskip("ray")
    address = f"127.0.0.1:{_closed_port()}"
    start = time.perf_counter()
    # Ray itself retries such an address for ever, logging a warning every few seconds.
    with pytest.raises(RayUnavailable, match=f"cannot reach the Ray cluster at {address}: "):
        connect(address, 1)
    assert time.perf_counter() - start < 10


def test_without_ray_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as when not installed
    with pytest.raises(RayUnavailable) as refused:
        connect(None, 1)
    assert str(refused.value) == INSTALL
