"""The tests' one-off HTTP requests: httpx's ``get``, ``post``, ``head`` and ``request``,
each a fresh client with no cookies or connections kept (as an anonymous visitor's request
is), but all sharing one TLS context.

httpx builds a client per call of its module functions, and each client loads the system's
certificates into a new TLS context: about 40 ms of CPU a request, though every server the
tests ask is plain HTTP on loopback. Over the suite's few thousand requests that was minutes
of CPU (``benchmarks/http_client.py`` measures one request both ways).
"""

from __future__ import annotations

import ssl
from typing import Any

import httpx

TLS = ssl.create_default_context()
"""The context every request shares (never used on loopback's plain HTTP, but httpx builds
one for each client it makes unless given one)."""


def get(url: str, **options: Any) -> httpx.Response:
    """``httpx.get`` with the shared context."""
    return httpx.get(url, verify=TLS, **options)


def post(url: str, **options: Any) -> httpx.Response:
    """``httpx.post`` with the shared context."""
    return httpx.post(url, verify=TLS, **options)


def head(url: str, **options: Any) -> httpx.Response:
    """``httpx.head`` with the shared context."""
    return httpx.head(url, verify=TLS, **options)


def request(method: str, url: str, **options: Any) -> httpx.Response:
    """``httpx.request`` with the shared context."""
    return httpx.request(method, url, verify=TLS, **options)


def take_seat(server_url: str, match: str, link: str, **body: Any) -> str:
    """Join a match's seat with its link's token (``body``: the join's other fields) and
    return the seat's own token, which plays it from then on (the link takes it once)."""
    reply = post(f"{server_url}/api/matches/{match}/join", json={"token": link, **body}, timeout=30)
    assert reply.status_code == 200, reply.text
    return str(reply.json()["token"])
