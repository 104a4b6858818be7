"""Fixtures shared by every test package."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings
from typer.testing import CliRunner

from meeple.interfaces.cli import app

# Fuzz tests (marked ``fuzz``) run a few hundred examples in ``make test``; ``make fuzz`` sets
# MEEPLE_FUZZ=long for a run a hundred times longer.
settings.register_profile(
    "long",
    max_examples=20_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
if os.environ.get("MEEPLE_FUZZ") == "long":
    settings.load_profile("long")


@pytest.fixture(autouse=True)
def _history_in_tmp(tmp_path, monkeypatch):
    """Games played by tests are kept in a temporary history folder, never the user's."""
    monkeypatch.setenv("MEEPLE_HISTORY", str(tmp_path / "history"))


@pytest.fixture(scope="session", autouse=True)
def _session_cache(tmp_path_factory) -> Iterator[str]:
    """One solver cache for the whole run, set in the environment before any session
    fixture starts: a server process a fixture starts inherits it (and solves there, never
    in the user's cache)."""
    folder = str(tmp_path_factory.mktemp("solver-cache"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEEPLE_CACHE_DIR", folder)
        yield folder


@pytest.fixture(autouse=True)
def _solver_cache_in_tmp(_session_cache, monkeypatch):
    """Solved results go to one folder for the whole test run, never the user's cache: a test
    must not pass here because a solve that takes minutes happens to be cached on this
    machine (and fail on a fresh one)."""
    monkeypatch.setenv("MEEPLE_CACHE_DIR", _session_cache)


@pytest.fixture
def run():
    """Run the ``meeple`` command with arguments (and typed input) as a person would."""
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(app, list(args), input=input)

    return invoke
