"""meeple as installed: its version, read from the package's metadata (``pyproject.toml``'s
version), so that it is written in one place."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version


def meeple_version() -> str:
    """meeple's version as installed; ``unknown`` for sources that were never installed."""
    try:
        return version("meeple")
    except PackageNotFoundError:
        return "unknown"
