"""What a kernel has been compiled for, for the tests that a kernel is compiled once for
all of its callers."""

from __future__ import annotations

from typing import Any


def compiled_versions(kernel: Any) -> set[Any]:
    """The argument types of every version of ``kernel`` (a numba dispatcher): those this
    process compiled or read back, and those the cache's index lists. A version read back
    from the cache was compiled in another process (`meeple compile`, another test), so the
    index counts too."""
    cache_file = getattr(kernel._cache, "_cache_file", None)
    cached = [key[0] for key in cache_file._load_index()] if cache_file else []
    return set(kernel.signatures) | set(cached)
