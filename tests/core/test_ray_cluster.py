"""Connecting to Ray (``meeple.core.ray_cluster``): every way it fails is one line that
says what was wrong and what is allowed, within seconds, never a traceback or a wait
without end."""

from __future__ import annotations

import contextlib
import signal
import socket
import sys
import time

import pytest

from meeple.core import ray_cluster
from meeple.core.ray_cluster import (
    ADDRESSES,
    INSTALL,
    TOKEN_HINT,
    RayUnavailable,
    connect,
    host_port,
)


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


class _FakeRay:
    """Stands for Ray where its ``init`` behaves as the real one does against a cluster
    this machine cannot stage in a test: ``joining`` is what ``init`` does."""

    def __init__(self, joining) -> None:
        self.joining = joining
        self.shut = False

    def is_initialized(self) -> bool:
        return False

    def init(self, **kwargs) -> None:
        self.joining()

    def shutdown(self) -> None:
        self.shut = True


@pytest.fixture
def listening():
    """An address of this machine whose port accepts connections and says nothing."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield f"127.0.0.1:{s.getsockname()[1]}"


def test_a_cluster_that_asks_for_its_token_is_named_with_how_to_give_it(monkeypatch, listening):
    def refused() -> None:
        # What Ray 2.60 raises for a cluster of `ray start` (token authentication on) joined
        # at its HOST:PORT without RAY_AUTH_MODE=token, after 20 s of retries.
        try:
            raise RuntimeError(
                "Failed to connect to GCS. Last connection error: ... RPC error: "
                "InvalidAuthToken: Authentication token is missing or incorrect."
            )
        except RuntimeError as exc:
            raise ConnectionError(f"Failed to connect to Ray cluster at {listening}") from exc

    monkeypatch.setitem(sys.modules, "ray", _FakeRay(refused))
    with pytest.raises(RayUnavailable) as refusal:
        connect(listening, 1)
    assert str(refusal.value) == (
        f"the Ray cluster at {listening} refused this command: it asks for its token; " + TOKEN_HINT
    )
    assert "RAY_AUTH_MODE=token" in TOKEN_HINT and "--address auto" in TOKEN_HINT


def test_a_port_that_does_not_answer_as_a_ray_cluster_is_refused_in_time(monkeypatch, listening):
    def retrying() -> None:
        # Ray against a port that accepts connections but is not a cluster's (a dashboard's,
        # a web server's): attempts of up to 40 s, 20 of them, every error caught between.
        give_up = time.monotonic() + 20
        while time.monotonic() < give_up:
            with contextlib.suppress(Exception):  # as Ray's retries catch every error
                time.sleep(0.05)
        raise ConnectionError(f"Failed to connect to Ray cluster at {listening}")

    fake = _FakeRay(retrying)
    monkeypatch.setitem(sys.modules, "ray", fake)
    monkeypatch.setattr(ray_cluster, "CONNECT_SECONDS", 0.5)
    start = time.perf_counter()
    with pytest.raises(RayUnavailable) as refusal:
        connect(listening, 1)
    assert time.perf_counter() - start < 5
    assert str(refusal.value).startswith(
        f"no Ray cluster answered at {listening} within 0.5 s, though its port is open: give the "
        "address `ray start --head` printed"
    )
    assert fake.shut  # what Ray had set up of the connection is let go
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no alarm left behind
